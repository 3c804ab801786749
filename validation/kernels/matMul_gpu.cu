/* matMul_gpu: naive matrix multiply, "coalesced" mapping (KERNELS.md section 1).
 *
 * Written from the description in ../shared/data/amaris-nvprof/KERNELS.md; the dataset's
 * nvprof name is matMul(float*, float*, float*, int). P = M x N, all W x W, row-major.
 * Grid ceil(W/TW) x ceil(W/TW), block TW x TW. No bounds check, as in the original:
 * W must be a multiple of TW.
 *
 *   nvcc -arch=sm_90 -c -DTW=16 matMul_gpu.cu
 *   clang-19 -x cuda --cuda-device-only --cuda-gpu-arch=sm_90 -nocudainc -nocudalib \
 *       -I<dir of wgperf_cuda_compat.h> -DTW=16 -S -emit-llvm matMul_gpu.cu
 */
#ifndef TW
#define TW 16
#endif
#ifndef WGP_KERNEL
#define WGP_KERNEL extern "C" __global__
#endif

WGP_KERNEL void matMul_gpu(float *P, float *M, float *N, int W)
{
    /* the original indexes with the tile-width macro, not blockDim */
    int col = blockIdx.x * TW + threadIdx.x;
    int row = blockIdx.y * TW + threadIdx.y;
    float acc = 0.0f;

    for (int k = 0; k < W; ++k)
        acc += M[row * W + k] * N[k * W + col];
    P[row * W + col] = acc;
}
