/* reduction: double-precision sum (SHOC Reduction DP pattern); CUDA twin of
 * reduction.cl, with the local buffer as dynamic shared memory (2048 bytes
 * at launch).  64 blocks of 256 threads. */
#define WG 256

extern __shared__ double sdata[];

extern "C" __global__ void reduce_dp(const double *g_idata, double *g_odata, int n)
{
    volatile double *sm = sdata;
    int tid = threadIdx.x;
    int i = blockIdx.x * (WG * 2) + tid;
    int gridSize = WG * 2 * gridDim.x;
    double sum = 0.0;
    while (i < n) {
        sum += g_idata[i];
        if (i + WG < n)
            sum += g_idata[i + WG];
        i += gridSize;
    }
    sm[tid] = sum;
    __syncthreads();
    for (int s = WG / 2; s > 32; s >>= 1) {
        if (tid < s)
            sm[tid] = sm[tid] + sm[tid + s];
        __syncthreads();
    }
    if (tid < 32) {
        sm[tid] += sm[tid + 32];
        sm[tid] += sm[tid + 16];
        sm[tid] += sm[tid + 8];
        sm[tid] += sm[tid + 4];
        sm[tid] += sm[tid + 2];
        sm[tid] += sm[tid + 1];
    }
    if (tid == 0)
        g_odata[blockIdx.x] = sm[0];
}
