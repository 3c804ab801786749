/* matrix_sum_normal: S = A + B with the UNcoalesced mapping (KERNELS.md section 5).
 * OpenCL C 1.2 twin of matrix_sum_normal.cu; uses the work-group size, not TW.
 * NDRange: global (W, W), local (TW, TW).
 *
 *   clang-19 -x cl -cl-std=CL1.2 -Xclang -finclude-default-header \
 *       -target nvptx64-nvidia-nvcl -S -emit-llvm matrix_sum_normal.cl
 */
__kernel void matrix_sum_normal(__global float *S, __global float *A, __global float *B, int W)
{
    int j = (int)get_group_id(1) * (int)get_local_size(1) + (int)get_local_id(1);
    int i = (int)get_group_id(0) * (int)get_local_size(0) + (int)get_local_id(0);
    int t = i * W + j;

    if (t < W * W)
        S[t] = A[t] + B[t];
}
