/* gridding_sort: one 4-bit pass of the radix sort that bins the samples
 * of a non-Cartesian MRI scan (Parboil MRI-Gridding sort pattern); CUDA
 * twin of gridding_sort.cl.  split_digits ranks a tile's keys bit by bit
 * with a padded work-efficient scan in shared memory and counts its digits;
 * split_scatter walks back over the tile's digits while they match and
 * scatters the keys.  4096 blocks of 256 threads sort 2^22 keys. */
#define DIGIT_BITS 4
#define BINS (1 << DIGIT_BITS)
#define KEYS_PER_ITEM 4
#define GROUP_ITEMS 256
#define TILE (KEYS_PER_ITEM * GROUP_ITEMS)
#define SENTINEL 0x3fffffffu
#define PADDED(i) ((i) + ((unsigned)(i) >> 4))
#define FLAG_WORDS (PADDED(TILE) + 1)

__device__ static unsigned digit_of(unsigned key, int pass)
{
    return (key & ((1u << (DIGIT_BITS * (pass + 1))) - 1)) >> (DIGIT_BITS * pass);
}

extern "C" __global__ void split_digits(int n, int pass, unsigned *keys, unsigned *bin_counts)
{
    __shared__ unsigned flag[FLAG_WORDS];
    __shared__ unsigned count[BINS];
    unsigned t = threadIdx.x, items = blockDim.x;
    unsigned first = blockIdx.x * TILE + KEYS_PER_ITEM * t;
    unsigned k[KEYS_PER_ITEM], pos[KEYS_PER_ITEM];
    for (int j = 0; j < KEYS_PER_ITEM; j++) {
        k[j] = first < (unsigned)n ? keys[first + j] : SENTINEL;
        pos[j] = KEYS_PER_ITEM * t + j;
    }
    if (t < BINS)
        count[t] = 0;
    __syncthreads();
    for (int j = 0; j < KEYS_PER_ITEM; j++)
        atomicAdd(&count[digit_of(k[j], pass)], 1u);
    /* a loop, not four copies: the suite's body is too large for the
     * compilers to unroll, and each key's rank is carried to the next bit */
#pragma unroll 1
    for (int b = DIGIT_BITS * pass; b < DIGIT_BITS * (pass + 1); b++) {
        unsigned bit[KEYS_PER_ITEM];
        for (int j = 0; j < KEYS_PER_ITEM; j++) {
            bit[j] = (k[j] >> b) & 1u;
            flag[PADDED(pos[j])] = 1u << (16 * bit[j]);
        }
        /* exclusive scan of the 4 * items flag words, two per thread and level */
        unsigned stride = 1;
        for (unsigned live = 2 * items; live > 1; live >>= 1) {
            __syncthreads();
            if (t < live / 2) {
                unsigned lo = stride * (2 * t + 1) - 1, hi = stride * (2 * t + 2) - 1;
                flag[PADDED(2 * hi + 1)] += flag[PADDED(2 * lo + 1)];
            }
            stride <<= 1;
        }
        if (t == 0) {
            flag[PADDED(4 * items)] = flag[PADDED(4 * items - 1)];
            flag[PADDED(4 * items - 1)] = 0;
        }
        for (unsigned live = 1; live <= items; live <<= 1) {
            stride >>= 1;
            __syncthreads();
            if (t < live) {
                unsigned lo = PADDED(2 * (stride * (2 * t + 1) - 1) + 1);
                unsigned hi = PADDED(2 * (stride * (2 * t + 2) - 1) + 1);
                unsigned x = flag[lo];
                flag[lo] = flag[hi];
                flag[hi] += x;
            }
        }
        __syncthreads();
        unsigned zeros = flag[PADDED(4 * items)] & 0xffffu;
        for (int j = 0; j < KEYS_PER_ITEM; j++) {
            unsigned word = flag[PADDED(pos[j])];
            pos[j] = ((word >> (16 * bit[j])) & 0xffffu) + (bit[j] ? zeros : 0);
        }
        __syncthreads();
    }
    if (first < (unsigned)n)
        for (int j = 0; j < KEYS_PER_ITEM; j++)
            keys[blockIdx.x * TILE + pos[j]] = k[j];
    if (t < BINS)
        bin_counts[gridDim.x * t + blockIdx.x] = count[t];
}

extern "C" __global__ void split_scatter(int n, int pass, const unsigned *keys_in, unsigned *keys_out,
                                         const unsigned *bin_offsets)
{
    __shared__ unsigned offset[BINS];
    __shared__ unsigned digits[TILE];
    unsigned t = threadIdx.x;
    int first = blockIdx.x * TILE + KEYS_PER_ITEM * threadIdx.x;
    if (t < BINS)
        offset[t] = bin_offsets[gridDim.x * t + blockIdx.x];
    unsigned k0 = SENTINEL, k1 = SENTINEL, k2 = SENTINEL, k3 = SENTINEL;
    if (first < n) {
        k0 = keys_in[first];
        k1 = keys_in[first + 1];
        k2 = keys_in[first + 2];
        k3 = keys_in[first + 3];
    }
    unsigned d0 = digit_of(k0, pass), d1 = digit_of(k1, pass), d2 = digit_of(k2, pass), d3 = digit_of(k3, pass);
    digits[KEYS_PER_ITEM * t] = d0;
    digits[KEYS_PER_ITEM * t + 1] = d1;
    digits[KEYS_PER_ITEM * t + 2] = d2;
    digits[KEYS_PER_ITEM * t + 3] = d3;
    __syncthreads();
    unsigned p0 = offset[d0], p1 = offset[d1], p2 = offset[d2], p3 = offset[d3];
    /* equal digits just before this thread's first key share its bin */
    int back = KEYS_PER_ITEM * threadIdx.x - 1;
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
