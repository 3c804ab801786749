/* matMul_gpu_sharedmem: tiled matrix multiply in local memory (KERNELS.md section 3).
 * OpenCL C 1.2 twin of matMul_gpu_sharedmem.cu: two unpadded float[TW][TW] tiles.
 * NDRange: global (W, W), local (TW, TW); W must be a multiple of TW.
 *
 *   clang-19 -x cl -cl-std=CL1.2 -Xclang -finclude-default-header \
 *       -target nvptx64-nvidia-nvcl -D TW=16 -S -emit-llvm matMul_gpu_sharedmem.cl
 */
#ifndef TW
#define TW 16
#endif

__kernel void matMul_gpu_sharedmem(__global float *P, __global float *M, __global float *N,
                                   int W)
{
    __local float As[TW][TW];
    __local float Bs[TW][TW];
    int tx = (int)get_local_id(0);
    int ty = (int)get_local_id(1);
    int Col = (int)get_group_id(0) * TW + tx;
    int Row = (int)get_group_id(1) * TW + ty;
    float acc = 0.0f;

    for (int m = 0; m < W / TW; ++m) {
        As[ty][tx] = M[Row * W + m * TW + tx];
        Bs[ty][tx] = N[(m * TW + ty) * W + Col];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TW; ++k)
            acc += As[ty][k] * Bs[k][tx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    P[Row * W + Col] = acc;
}
