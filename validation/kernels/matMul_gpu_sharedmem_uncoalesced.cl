/* matMul_gpu_sharedmem_uncoalesced: tiled multiply with transposed thread roles
 * (KERNELS.md section 4). OpenCL C 1.2 twin of matMul_gpu_sharedmem_uncoalesced.cu:
 * strided global accesses and TW-strided (bank-conflicted) local accesses.
 * NDRange: global (W, W), local (TW, TW); W must be a multiple of TW.
 *
 *   clang-19 -x cl -cl-std=CL1.2 -Xclang -finclude-default-header \
 *       -target nvptx64-nvidia-nvcl -D TW=16 -S -emit-llvm matMul_gpu_sharedmem_uncoalesced.cl
 */
#ifndef TW
#define TW 16
#endif

__kernel void matMul_gpu_sharedmem_uncoalesced(__global float *P, __global float *M,
                                               __global float *N, int W)
{
    __local float As[TW][TW];
    __local float Bs[TW][TW];
    int tx = (int)get_local_id(0);
    int ty = (int)get_local_id(1);
    int Col = (int)get_group_id(0) * TW + tx;
    int Row = (int)get_group_id(1) * TW + ty;
    float acc = 0.0f;

    for (int m = 0; m < W / TW; ++m) {
        As[tx][ty] = M[Col * W + m * TW + ty];
        Bs[tx][ty] = N[(m * TW + tx) * W + Row];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TW; ++k)
            acc += As[tx][k] * Bs[k][ty];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    P[Col * W + Row] = acc;
}
