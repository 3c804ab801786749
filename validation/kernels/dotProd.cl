/* dotProd: per-work-group partial dot product with a local-memory tree reduction
 * (KERNELS.md section 8). OpenCL C 1.2 twin of dotProd.cu; c gets one partial sum per
 * work-group. NDRange: global ceil(N/(TW*TW))*TW*TW, local TW*TW (must equal TW*TW).
 *
 *   clang-19 -x cl -cl-std=CL1.2 -Xclang -finclude-default-header \
 *       -target nvptx64-nvidia-nvcl -D TW=16 -S -emit-llvm dotProd.cl
 */
#ifndef TW
#define TW 16
#endif

__kernel void dotProd(__global float *a, __global float *b, __global float *c, int N)
{
    __local float cache[TW * TW];
    int tx = (int)get_local_id(0);
    int bdx = (int)get_local_size(0);
    int g = (int)get_group_id(0) * bdx + tx;
    float sum = 0.0f;

    while (g < N) {
        sum += a[g] * b[g];
        g += bdx * (int)get_num_groups(0);
    }
    cache[tx] = sum;
    barrier(CLK_LOCAL_MEM_FENCE);

    for (int s = bdx / 2; s != 0; s /= 2) {
        if (tx < s)
            cache[tx] += cache[tx + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (tx == 0)
        c[(int)get_group_id(0)] = cache[0];
}
