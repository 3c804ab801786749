/* matMul_gpu: naive matrix multiply, "coalesced" mapping (KERNELS.md section 1).
 * OpenCL C 1.2 twin of matMul_gpu.cu: same arguments (P, M, N, W), same index math.
 * NDRange: global (W, W), local (TW, TW); W must be a multiple of TW (no bounds check).
 *
 *   clang-19 -x cl -cl-std=CL1.2 -Xclang -finclude-default-header \
 *       -target nvptx64-nvidia-nvcl -D TW=16 -S -emit-llvm matMul_gpu.cl
 */
#ifndef TW
#define TW 16
#endif

__kernel void matMul_gpu(__global float *P, __global float *M, __global float *N, int W)
{
    int col = (int)get_group_id(0) * TW + (int)get_local_id(0);
    int row = (int)get_group_id(1) * TW + (int)get_local_id(1);
    float acc = 0.0f;

    for (int k = 0; k < W; ++k)
        acc += M[row * W + k] * N[k * W + col];
    P[row * W + col] = acc;
}
