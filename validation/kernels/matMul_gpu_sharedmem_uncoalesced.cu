/* matMul_gpu_sharedmem_uncoalesced: tiled multiply with transposed thread roles
 * (KERNELS.md section 4).
 *
 * Same name, arguments, launch and shared memory as matMul_gpu_sharedmem. Along tx the
 * global loads and the final store have a stride of W floats, and the shared stores and
 * the As reads have a stride of TW words (bank conflicts: 2-, 8-, 32-way for TW = 8, 16,
 * 32). Still P = M x N, with x selecting the output row. W must be a multiple of TW.
 *
 *   nvcc -arch=sm_90 -c -DTW=16 matMul_gpu_sharedmem_uncoalesced.cu
 */
#ifndef TW
#define TW 16
#endif
#ifndef WGP_KERNEL
#define WGP_KERNEL extern "C" __global__
#endif

WGP_KERNEL void matMul_gpu_sharedmem_uncoalesced(float *P, float *M, float *N, int W)
{
    __shared__ float As[TW][TW];
    __shared__ float Bs[TW][TW];
    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int Col = blockIdx.x * TW + tx;
    int Row = blockIdx.y * TW + ty;
    float acc = 0.0f;

    for (int m = 0; m < W / TW; ++m) {
        As[tx][ty] = M[Col * W + m * TW + ty];
        Bs[tx][ty] = N[(m * TW + tx) * W + Row];
        __syncthreads();
        for (int k = 0; k < TW; ++k)
            acc += As[tx][k] * Bs[k][ty];
        __syncthreads();
    }
    P[Col * W + Row] = acc;
}
