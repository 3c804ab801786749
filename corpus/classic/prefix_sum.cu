/* prefix_sum: per-block Hillis-Steele scan, double-buffered in dynamic
 * shared memory, and the add-back of block sums; CUDA twin of
 * prefix_sum.cl.  Blocks of 512 threads, 2*512*4 bytes of dynamic shared
 * memory. */
extern __shared__ int buf[];

extern "C" __global__ void scan_block(const int *in, int *out, int *block_sums)
{
    int t = threadIdx.x;
    int n = blockDim.x;
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    int pout = 0, pin = 1;
    buf[t] = in[gid];
    __syncthreads();
    for (int offset = 1; offset < n; offset *= 2) {
        pout = 1 - pout;
        pin = 1 - pout;
        if (t >= offset)
            buf[pout * n + t] = buf[pin * n + t] + buf[pin * n + t - offset];
        else
            buf[pout * n + t] = buf[pin * n + t];
        __syncthreads();
    }
    out[gid] = buf[pout * n + t];
    if (t == n - 1)
        block_sums[blockIdx.x] = buf[pout * n + t];
}

extern "C" __global__ void add_block_sums(int *out, const int *scanned_sums)
{
    int g = blockIdx.x;
    if (g > 0)
        out[blockIdx.x * blockDim.x + threadIdx.x] += scanned_sums[g - 1];
}
