/* bitonic: one compare-exchange stage of a bitonic sorting network (KERNELS.md
 * section 10). OpenCL C 1.2 twin of bitonic.cu; arguments (v, j, k, N).
 * NDRange per launch: global N, local 128; log2(N)*(log2(N)+1)/2 launches per sort.
 *
 *   clang-19 -x cl -cl-std=CL1.2 -Xclang -finclude-default-header \
 *       -target nvptx64-nvidia-nvcl -S -emit-llvm bitonic.cl
 */
__kernel void bitonic(__global int *v, int j, int k, int N)
{
    ulong x = (ulong)get_group_id(0) * 128 + get_local_id(0);

    if (x < (ulong)N) {
        ulong p = x ^ (ulong)j;
        if (p > x) {
            if ((x & (ulong)k) == 0 && v[x] > v[p]) {
                int tmp = v[x];
                v[x] = v[p];
                v[p] = tmp;
            }
            if ((x & (ulong)k) != 0 && v[x] < v[p]) {
                int tmp = v[x];
                v[x] = v[p];
                v[p] = tmp;
            }
        }
    }
}
