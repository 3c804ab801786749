/* sort: one 4-bit digit pass of an LSD radix sort in the style of SHOC's
 * Sort.  sort_reduce: each of a fixed grid of work-groups counts the digits
 * of its region into a private 16-entry histogram (indexed by a loaded
 * value: private memory with data-dependent addresses), then merges it
 * into a local histogram with local atomics and writes it out digit-major.
 * sort_scatter: each work-item ranks its keys within the group with local
 * atomics on the digit counters and writes them to the scanned offsets
 * (a store to an address computed from loaded values).  16 Mi keys,
 * 64 groups of 256 work-items, bit offset 8. */
#define RADIX 16
#define WG 256

__kernel void sort_reduce(__global const uint *keys, __global uint *counts, int n, int shift)
{
    __local uint hist[RADIX];
    uint mine[RADIX];
    int t = get_local_id(0);
    for (int d = 0; d < RADIX; d++)
        mine[d] = 0;
    if (t < RADIX)
        hist[t] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    int region = n / get_num_groups(0);
    int start = get_group_id(0) * region;
    for (int i = start + t; i < start + region; i += WG)
        mine[(keys[i] >> shift) & (RADIX - 1)]++;
    for (int d = 0; d < RADIX; d++)
        atomic_add(&hist[d], mine[d]);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (t < RADIX)
        counts[t * get_num_groups(0) + get_group_id(0)] = hist[t];
}

__kernel void sort_scatter(__global const uint *keys, __global const uint *offsets, __global uint *out, int n,
                           int shift)
{
    __local uint base[RADIX];
    int t = get_local_id(0);
    int region = n / get_num_groups(0);
    int start = get_group_id(0) * region;
    if (t < RADIX)
        base[t] = offsets[t * get_num_groups(0) + get_group_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = start + t; i < start + region; i += WG) {
        uint k = keys[i];
        uint pos = atomic_inc(&base[(k >> shift) & (RADIX - 1)]);
        out[pos] = k;
    }
}
