/* tpacf: two-point angular correlation function (Parboil TPACF pattern);
 * CUDA twin of tpacf.cl, bin boundaries in a __constant__ array.  Blocks of
 * 256 threads. */
#define NUM_BINS 20

__constant__ double binb[NUM_BINS + 1];

extern "C" __global__ void gen_hists(const double *x1, const double *y1, const double *z1, const double *x2,
                                     const double *y2, const double *z2, int n1, int n2, unsigned *hists)
{
    __shared__ unsigned hist[NUM_BINS];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < NUM_BINS)
        hist[t] = 0;
    __syncthreads();
    if (i < n1) {
        double xi = x1[i], yi = y1[i], zi = z1[i];
        for (int j = 0; j < n2; j++) {
            double dot = xi * x2[j] + yi * y2[j] + zi * z2[j];
            int lo = 0, hi = NUM_BINS;
            while (hi > lo + 1) {
                int k = (lo + hi) / 2;
                if (dot >= binb[k])
                    hi = k;
                else
                    lo = k;
            }
            atomicAdd(&hist[lo], 1u);
        }
    }
    __syncthreads();
    if (t < NUM_BINS)
        atomicAdd(&hists[t], hist[t]);
}
