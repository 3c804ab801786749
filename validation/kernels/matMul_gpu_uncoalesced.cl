/* matMul_gpu_uncoalesced: naive multiply with the thread roles swapped (KERNELS.md
 * section 2). OpenCL C 1.2 twin of matMul_gpu_uncoalesced.cu.
 * NDRange: global (W, W), local (TW, TW); W must be a multiple of TW.
 *
 *   clang-19 -x cl -cl-std=CL1.2 -Xclang -finclude-default-header \
 *       -target nvptx64-nvidia-nvcl -D TW=16 -S -emit-llvm matMul_gpu_uncoalesced.cl
 */
#ifndef TW
#define TW 16
#endif

__kernel void matMul_gpu_uncoalesced(__global float *P, __global float *M, __global float *N,
                                     int W)
{
    int j = (int)get_group_id(0) * TW + (int)get_local_id(0);
    int i = (int)get_group_id(1) * TW + (int)get_local_id(1);
    float acc = 0.0f;

    /* j (consecutive along x) is the row here: one M row per lane */
    for (int k = 0; k < W; ++k)
        acc += M[j * W + k] * N[k * W + i];
    P[j * W + i] = acc;
}
