/* matMul_gpu_sharedmem: tiled matrix multiply through shared memory (KERNELS.md section 3).
 *
 * nvprof name matMul(float*, float*, float*, int); arguments (P, M, N, W); P = M x N.
 * Grid ceil(W/TW) x ceil(W/TW), block TW x TW, two unpadded float[TW][TW] tiles
 * (8*TW*TW bytes of static shared memory). No bounds check: W must be a multiple of TW.
 *
 *   nvcc -arch=sm_90 -c -DTW=16 matMul_gpu_sharedmem.cu
 */
#ifndef TW
#define TW 16
#endif
#ifndef WGP_KERNEL
#define WGP_KERNEL extern "C" __global__
#endif

WGP_KERNEL void matMul_gpu_sharedmem(float *P, float *M, float *N, int W)
{
    __shared__ float As[TW][TW];
    __shared__ float Bs[TW][TW];
    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int Col = blockIdx.x * TW + tx;
    int Row = blockIdx.y * TW + ty;
    float acc = 0.0f;

    for (int m = 0; m < W / TW; ++m) {
        /* both tiles are row segments, coalesced along tx */
        As[ty][tx] = M[Row * W + m * TW + tx];
        Bs[ty][tx] = N[(m * TW + ty) * W + Col];
        __syncthreads();
        /* As: broadcast along a tile row; Bs: consecutive words, no bank conflict */
        for (int k = 0; k < TW; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    P[Row * W + Col] = acc;
}
