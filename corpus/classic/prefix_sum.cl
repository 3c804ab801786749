/* prefix_sum: per-work-group inclusive scan (Hillis-Steele, double-
 * buffered in local memory) and the add-back of the scanned block sums
 * (the classic two-level scan of GPU Gems 3, ch. 39, naive variant).  The
 * step loop doubles its offset up to the group size (a recurrence over the
 * launch size) and flips between two halves of one local buffer.  4 Mi
 * integers, 512 work-items per group. */
__kernel void scan_block(__global const int *in, __global int *out, __global int *block_sums, __local int *buf)
{
    int t = get_local_id(0);
    int n = get_local_size(0);
    int gid = get_global_id(0);
    int pout = 0, pin = 1;
    buf[t] = in[gid];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int offset = 1; offset < n; offset *= 2) {
        pout = 1 - pout;
        pin = 1 - pout;
        if (t >= offset)
            buf[pout * n + t] = buf[pin * n + t] + buf[pin * n + t - offset];
        else
            buf[pout * n + t] = buf[pin * n + t];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[gid] = buf[pout * n + t];
    if (t == n - 1)
        block_sums[get_group_id(0)] = buf[pout * n + t];
}

__kernel void add_block_sums(__global int *out, __global const int *scanned_sums)
{
    int g = get_group_id(0);
    if (g > 0)
        out[get_global_id(0)] += scanned_sums[g - 1];
}
