/* bitonic_local: sorts each work-group's chunk of keys with a bitonic
 * network in local memory (the local stage of the classic OpenCL/CUDA
 * bitonic sort samples).  Two nested loops over the network: the stage
 * size k doubles up to the chunk, the distance j halves from k/2 to 1
 * (recurrences), and each step is a compare-exchange between a work-item
 * and its partner t^j, its direction given by t&k, with a barrier.  Each
 * work-item owns one key.  1 Mi uints, 512 work-items per group. */
__kernel void bitonic_local(__global uint *data)
{
    __local uint s[512];
    int t = get_local_id(0);
    int n = get_local_size(0);
    int base = get_group_id(0) * n;
    s[t] = data[base + t];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 2; k <= n; k <<= 1) {
        for (int j = k >> 1; j > 0; j >>= 1) {
            int p = t ^ j;
            if (p > t) {
                uint a = s[t], b = s[p];
                bool up = (t & k) == 0;
                if ((a > b) == up) {
                    s[t] = b;
                    s[p] = a;
                }
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
    }
    data[base + t] = s[t];
}
