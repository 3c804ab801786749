/* gridding_sort: one 4-bit pass of the radix sort that bins the samples
 * of a non-Cartesian MRI scan (the pattern of Parboil's MRI-Gridding
 * sort).  Every work-item holds four consecutive keys; keys past the end
 * are a sentinel bin.  The digit of pass p is taken by masking the key to
 * its low 4(p+1) bits and shifting.
 *   split_digits: per bit of the digit, flag words (1 << 16 * bit) in a
 *     padded __local array, a work-efficient exclusive scan (up-sweep,
 *     down-sweep, a conflict-avoiding pad every 16 words), the keys moved to
 *     their rank inside the group's tile; a per-group digit histogram with
 *     __local atomics, written bin-major.
 *   split_scatter: the digits of the tile in __local memory, each
 *     work-item's first key's rank among equal digits found by walking back
 *     over the tile while the digit matches (a data-dependent loop bounded
 *     by the work-item's position), the four keys scattered to the global
 *     offsets of their bins.
 * 2^20 work-items in groups of 256 sort 2^22 keys. */
#define DIGIT_BITS 4
#define BINS (1 << DIGIT_BITS)
#define KEYS_PER_ITEM 4
#define GROUP_ITEMS 256
#define TILE (KEYS_PER_ITEM * GROUP_ITEMS)
#define SENTINEL 0x3fffffffu
#define PADDED(i) ((i) + ((uint)(i) >> 4))
#define FLAG_WORDS (PADDED(TILE) + 1)

static uint digit_of(uint key, int pass)
{
    return (key & ((1u << (DIGIT_BITS * (pass + 1))) - 1)) >> (DIGIT_BITS * pass);
}

__kernel void split_digits(int n, int pass, __global uint *keys, __global uint *bin_counts)
{
    __local uint flag[FLAG_WORDS];
    __local uint count[BINS];
    uint t = get_local_id(0), items = get_local_size(0);
    uint first = get_group_id(0) * TILE + KEYS_PER_ITEM * t;
    uint k[KEYS_PER_ITEM], pos[KEYS_PER_ITEM];
    for (int j = 0; j < KEYS_PER_ITEM; j++) {
        k[j] = first < (uint)n ? keys[first + j] : SENTINEL;
        pos[j] = KEYS_PER_ITEM * t + j;
    }
    if (t < BINS)
        count[t] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int j = 0; j < KEYS_PER_ITEM; j++)
        atomic_inc(&count[digit_of(k[j], pass)]);
    /* a loop, not four copies: the suite's body is too large for the
     * compilers to unroll, and each key's rank is carried to the next bit */
#pragma unroll 1
    for (int b = DIGIT_BITS * pass; b < DIGIT_BITS * (pass + 1); b++) {
        uint bit[KEYS_PER_ITEM];
        for (int j = 0; j < KEYS_PER_ITEM; j++) {
            bit[j] = (k[j] >> b) & 1u;
            flag[PADDED(pos[j])] = 1u << (16 * bit[j]);
        }
        /* exclusive scan of the 4 * items flag words, two per work-item and level */
        uint stride = 1;
        for (uint live = 2 * items; live > 1; live >>= 1) {
            barrier(CLK_LOCAL_MEM_FENCE);
            if (t < live / 2) {
                uint lo = stride * (2 * t + 1) - 1, hi = stride * (2 * t + 2) - 1;
                flag[PADDED(2 * hi + 1)] += flag[PADDED(2 * lo + 1)];
            }
            stride <<= 1;
        }
        if (t == 0) {
            flag[PADDED(4 * items)] = flag[PADDED(4 * items - 1)];
            flag[PADDED(4 * items - 1)] = 0;
        }
        for (uint live = 1; live <= items; live <<= 1) {
            stride >>= 1;
            barrier(CLK_LOCAL_MEM_FENCE);
            if (t < live) {
                uint lo = PADDED(2 * (stride * (2 * t + 1) - 1) + 1), hi = PADDED(2 * (stride * (2 * t + 2) - 1) + 1);
                uint x = flag[lo];
                flag[lo] = flag[hi];
                flag[hi] += x;
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        uint zeros = flag[PADDED(4 * items)] & 0xffffu;
        for (int j = 0; j < KEYS_PER_ITEM; j++) {
            uint word = flag[PADDED(pos[j])];
            pos[j] = ((word >> (16 * bit[j])) & 0xffffu) + (bit[j] ? zeros : 0);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (first < (uint)n)
        for (int j = 0; j < KEYS_PER_ITEM; j++)
            keys[get_group_id(0) * TILE + pos[j]] = k[j];
    if (t < BINS)
        bin_counts[get_num_groups(0) * t + get_group_id(0)] = count[t];
}

__kernel void split_scatter(int n, int pass, __global const uint *keys_in, __global uint *keys_out,
                            __global const uint *bin_offsets)
{
    __local uint offset[BINS];
    __local uint digits[TILE];
    uint t = get_local_id(0);
    int first = get_group_id(0) * TILE + KEYS_PER_ITEM * get_local_id(0);
    if (t < BINS)
        offset[t] = bin_offsets[get_num_groups(0) * t + get_group_id(0)];
    uint k0 = SENTINEL, k1 = SENTINEL, k2 = SENTINEL, k3 = SENTINEL;
    if (first < n) {
        k0 = keys_in[first];
        k1 = keys_in[first + 1];
        k2 = keys_in[first + 2];
        k3 = keys_in[first + 3];
    }
    uint d0 = digit_of(k0, pass), d1 = digit_of(k1, pass), d2 = digit_of(k2, pass), d3 = digit_of(k3, pass);
    digits[KEYS_PER_ITEM * t] = d0;
    digits[KEYS_PER_ITEM * t + 1] = d1;
    digits[KEYS_PER_ITEM * t + 2] = d2;
    digits[KEYS_PER_ITEM * t + 3] = d3;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint p0 = offset[d0], p1 = offset[d1], p2 = offset[d2], p3 = offset[d3];
    /* equal digits just before this work-item's first key share its bin */
    int back = KEYS_PER_ITEM * get_local_id(0) - 1;
    while (back >= 0) {
        if (digits[back] == d0) {
            p0++;
            back--;
        } else {
            break;
        }
    }
    p1 = d1 == d0 ? p0 + 1 : p1;
    p2 = d2 == d1 ? p1 + 1 : p2;
    p3 = d3 == d2 ? p2 + 1 : p3;
    if (first < n) {
        keys_out[p0] = k0;
        keys_out[p1] = k1;
        keys_out[p2] = k2;
        keys_out[p3] = k3;
    }
}
