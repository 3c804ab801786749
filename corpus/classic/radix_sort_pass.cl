/* radix_sort_pass: one 8-bit pass of a radix sort with one digit
 * histogram per work-group (the classic count / scan / scatter scheme).
 * radix_count: a local 256-bin histogram built with local atomics on the
 * key's digit (data-dependent addresses), written digit-major.
 * radix_scatter: every work-item claims a slot with a global atomic on
 * its digit's running offset and stores the key there (a data-dependent
 * address; the pass is not stable, as atomics-based passes are not).
 * 4 Mi keys, 256 work-items per group, shift 16. */
#define BINS 256

__kernel void radix_count(__global const uint *keys, __global uint *hist, int shift)
{
    __local uint local_hist[BINS];
    int t = get_local_id(0);
    local_hist[t] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint digit = (keys[get_global_id(0)] >> shift) & (BINS - 1);
    atomic_inc(&local_hist[digit]);
    barrier(CLK_LOCAL_MEM_FENCE);
    hist[t * get_num_groups(0) + get_group_id(0)] = local_hist[t];
}

__kernel void radix_scatter(__global const uint *keys, __global uint *out, __global uint *offsets, int shift)
{
    uint k = keys[get_global_id(0)];
    uint digit = (k >> shift) & (BINS - 1);
    uint pos = atomic_inc(&offsets[digit]);
    out[pos] = k;
}
