/* tpacf: two-point angular correlation function (the pattern of Parboil's
 * TPACF).  Every work-item takes one point of the data set and walks all
 * points of a second set (an argument trip count); the angular distance is
 * a double-precision dot product of unit vectors, and its bin is found by
 * a binary search over bin boundaries held in constant memory (a loop that
 * exits on compared loaded values), then counted in the work-group's
 * local histogram with a local atomic.  At the end the group adds its
 * histogram to global memory with 32-bit atomics (the only width OpenCL 1.2
 * has).  97,178 points against 97,178,
 * 20 bins, 256 work-items per group. */
#define NUM_BINS 20

__kernel void gen_hists(__global const double *x1, __global const double *y1, __global const double *z1,
                        __global const double *x2, __global const double *y2, __global const double *z2,
                        int n1, int n2, __constant double *binb, __global uint *hists)
{
    __local uint hist[NUM_BINS];
    int t = get_local_id(0);
    int i = get_global_id(0);
    if (t < NUM_BINS)
        hist[t] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
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
            atomic_inc(&hist[lo]);
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (t < NUM_BINS)
        atomic_add(&hists[t], hist[t]);
}
