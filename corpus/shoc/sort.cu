/* sort: one 4-bit digit pass of an LSD radix sort (SHOC Sort style); CUDA
 * twin of sort.cl.  64 blocks of 256 threads. */
#define RADIX 16
#define WG 256

extern "C" __global__ void sort_reduce(const unsigned *keys, unsigned *counts, int n, int shift)
{
    __shared__ unsigned hist[RADIX];
    unsigned mine[RADIX];
    int t = threadIdx.x;
    for (int d = 0; d < RADIX; d++)
        mine[d] = 0;
    if (t < RADIX)
        hist[t] = 0;
    __syncthreads();
    int region = n / gridDim.x;
    int start = blockIdx.x * region;
    for (int i = start + t; i < start + region; i += WG)
        mine[(keys[i] >> shift) & (RADIX - 1)]++;
    for (int d = 0; d < RADIX; d++)
        atomicAdd(&hist[d], mine[d]);
    __syncthreads();
    if (t < RADIX)
        counts[t * gridDim.x + blockIdx.x] = hist[t];
}

extern "C" __global__ void sort_scatter(const unsigned *keys, const unsigned *offsets, unsigned *out, int n,
                                        int shift)
{
    __shared__ unsigned base[RADIX];
    int t = threadIdx.x;
    int region = n / gridDim.x;
    int start = blockIdx.x * region;
    if (t < RADIX)
        base[t] = offsets[t * gridDim.x + blockIdx.x];
    __syncthreads();
    for (int i = start + t; i < start + region; i += WG) {
        unsigned k = keys[i];
        unsigned pos = atomicAdd(&base[(k >> shift) & (RADIX - 1)], 1u);
        out[pos] = k;
    }
}
