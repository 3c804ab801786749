/* matrix_sum_normal: element-wise S = A + B with the UNcoalesced mapping
 * (KERNELS.md section 5; despite the name, x is the row index).
 *
 * nvprof name matSum(float*, float*, float*, int); arguments (S, A, B, W).
 * Grid ceil(W/TW) x ceil(W/TW), block TW x TW (TW only sets the launch; the body
 * uses blockDim). The guard is on the linear index only, as in the original.
 *
 *   nvcc -arch=sm_90 -c matrix_sum_normal.cu
 */
#ifndef WGP_KERNEL
#define WGP_KERNEL extern "C" __global__
#endif

WGP_KERNEL void matrix_sum_normal(float *S, float *A, float *B, int W)
{
    int j = blockIdx.y * blockDim.y + threadIdx.y;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int t = i * W + j;

    if (t < W * W)
        S[t] = A[t] + B[t];
}
