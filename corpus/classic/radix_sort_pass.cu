/* radix_sort_pass: one 8-bit radix-sort pass, per-block digit histogram and
 * atomics-based scatter; CUDA twin of radix_sort_pass.cl.  Blocks of 256. */
#define BINS 256

extern "C" __global__ void radix_count(const unsigned *keys, unsigned *hist, int shift)
{
    __shared__ unsigned local_hist[BINS];
    int t = threadIdx.x;
    local_hist[t] = 0;
    __syncthreads();
    unsigned digit = (keys[blockIdx.x * blockDim.x + t] >> shift) & (BINS - 1);
    atomicAdd(&local_hist[digit], 1u);
    __syncthreads();
    hist[t * gridDim.x + blockIdx.x] = local_hist[t];
}

extern "C" __global__ void radix_scatter(const unsigned *keys, unsigned *out, unsigned *offsets, int shift)
{
    unsigned k = keys[blockIdx.x * blockDim.x + threadIdx.x];
    unsigned digit = (k >> shift) & (BINS - 1);
    unsigned pos = atomicAdd(&offsets[digit], 1u);
    out[pos] = k;
}
