/* bitonic_local: per-block bitonic sort in shared memory; CUDA twin of
 * bitonic_local.cl.  Blocks of 512 threads. */
extern "C" __global__ void bitonic_local(unsigned *data)
{
    __shared__ unsigned s[512];
    int t = threadIdx.x;
    int n = blockDim.x;
    int base = blockIdx.x * n;
    s[t] = data[base + t];
    __syncthreads();
    for (int k = 2; k <= n; k <<= 1) {
        for (int j = k >> 1; j > 0; j >>= 1) {
            int p = t ^ j;
            if (p > t) {
                unsigned a = s[t], b = s[p];
                bool up = (t & k) == 0;
                if ((a > b) == up) {
                    s[t] = b;
                    s[p] = a;
                }
            }
            __syncthreads();
        }
    }
    data[base + t] = s[t];
}
