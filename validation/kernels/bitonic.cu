/* bitonic: one compare-exchange stage of a bitonic sorting network (KERNELS.md section 10).
 *
 * nvprof name Bitonic_Sort(int*, int, int, int); arguments (v, j, k, N). The host sorts N
 * ints (a power of two) with log2(N)*(log2(N)+1)/2 launches: for k = 2, 4, ..., N and, for
 * each k, j = k/2, k/4, ..., 1. Each launch: N/128 blocks of 128 threads, no shared memory.
 *
 *   nvcc -arch=sm_90 -c bitonic.cu
 */
#ifndef WGP_KERNEL
#define WGP_KERNEL extern "C" __global__
#endif

WGP_KERNEL void bitonic(int *v, int j, int k, int N)
{
    unsigned long x = blockIdx.x * 128 + threadIdx.x;

    if (x < (unsigned long)N) {
        unsigned long p = x ^ (unsigned long)j;
        if (p > x) {
            /* two independent tests; at most one can swap */
            if ((x & (unsigned long)k) == 0 && v[x] > v[p]) {
                int tmp = v[x];
                v[x] = v[p];
                v[p] = tmp;
            }
            if ((x & (unsigned long)k) != 0 && v[x] < v[p]) {
                int tmp = v[x];
                v[x] = v[p];
                v[p] = tmp;
            }
        }
    }
}
