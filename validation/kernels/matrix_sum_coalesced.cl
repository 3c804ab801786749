/* matrix_sum_coalesced: S = A + B with the coalesced mapping (KERNELS.md section 6).
 * OpenCL C 1.2 twin of matrix_sum_coalesced.cu. NDRange: global (W, W), local (TW, TW).
 *
 *   clang-19 -x cl -cl-std=CL1.2 -Xclang -finclude-default-header \
 *       -target nvptx64-nvidia-nvcl -S -emit-llvm matrix_sum_coalesced.cl
 */
__kernel void matrix_sum_coalesced(__global float *S, __global float *A, __global float *B,
                                   int W)
{
    int i = (int)get_group_id(1) * (int)get_local_size(1) + (int)get_local_id(1);
    int j = (int)get_group_id(0) * (int)get_local_size(0) + (int)get_local_id(0);
    int t = i * W + j;

    if (t < W * W)
        S[t] = A[t] + B[t];
}
