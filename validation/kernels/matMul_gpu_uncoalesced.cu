/* matMul_gpu_uncoalesced: naive matrix multiply with the thread roles swapped
 * (KERNELS.md section 2).
 *
 * Same arguments and launch as matMul_gpu (nvprof name matMul(float*, float*, float*, int)),
 * but x selects the output row: the M loads and the P store have a stride of W floats
 * across the lanes of a warp, and N is read as a broadcast per ty. Computes P = M x N.
 * No bounds check: W must be a multiple of TW.
 *
 *   nvcc -arch=sm_90 -c -DTW=16 matMul_gpu_uncoalesced.cu
 */
#ifndef TW
#define TW 16
#endif
#ifndef WGP_KERNEL
#define WGP_KERNEL extern "C" __global__
#endif

WGP_KERNEL void matMul_gpu_uncoalesced(float *P, float *M, float *N, int W)
{
    int j = blockIdx.x * TW + threadIdx.x;
    int i = blockIdx.y * TW + threadIdx.y;
    float acc = 0.0f;

    /* j (consecutive along tx) is the row here: one M row per lane */
    for (int k = 0; k < W; ++k)
        acc += M[j * W + k] * N[k * W + i];
    P[j * W + i] = acc;
}
