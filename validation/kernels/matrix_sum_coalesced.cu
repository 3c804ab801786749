/* matrix_sum_coalesced: element-wise S = A + B with the coalesced mapping
 * (KERNELS.md section 6).
 *
 * nvprof name matSum(float*, float*, float*, int); arguments (S, A, B, W).
 * Grid ceil(W/TW) x ceil(W/TW), block TW x TW; the body uses blockDim.
 *
 *   nvcc -arch=sm_90 -c matrix_sum_coalesced.cu
 */
#ifndef WGP_KERNEL
#define WGP_KERNEL extern "C" __global__
#endif

WGP_KERNEL void matrix_sum_coalesced(float *S, float *A, float *B, int W)
{
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int t = i * W + j;

    if (t < W * W)
        S[t] = A[t] + B[t];
}
