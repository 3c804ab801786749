/* vectorAdd: C = A + B over N floats (KERNELS.md section 7).
 *
 * nvprof name vectorAdd(float const *, float const *, float*, int); arguments (A, B, C, N).
 * 1-D launch: block TW*TW threads (64, 256 or 1024), grid ceil(N/block).
 *
 *   nvcc -arch=sm_90 -c vectorAdd.cu
 */
#ifndef WGP_KERNEL
#define WGP_KERNEL extern "C" __global__
#endif

WGP_KERNEL void vectorAdd(const float *A, const float *B, float *C, int N)
{
    int g = blockIdx.x * blockDim.x + threadIdx.x;

    if (g < N)
        C[g] = A[g] + B[g];
}
