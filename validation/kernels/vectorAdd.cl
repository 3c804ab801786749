/* vectorAdd: C = A + B over N floats (KERNELS.md section 7). OpenCL C 1.2 twin of
 * vectorAdd.cu. NDRange: global ceil(N/(TW*TW))*TW*TW, local TW*TW.
 *
 *   clang-19 -x cl -cl-std=CL1.2 -Xclang -finclude-default-header \
 *       -target nvptx64-nvidia-nvcl -S -emit-llvm vectorAdd.cl
 */
__kernel void vectorAdd(__global const float *A, __global const float *B, __global float *C,
                        int N)
{
    int g = (int)get_group_id(0) * (int)get_local_size(0) + (int)get_local_id(0);

    if (g < N)
        C[g] = A[g] + B[g];
}
