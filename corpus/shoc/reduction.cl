/* reduction: a double-precision sum (the pattern of SHOC's Reduction, DP
 * variant).  A fixed grid of 64 work-groups strides over the input, each
 * work-item adding two elements per iteration (loop trip count from the
 * size and the grid), then a local tree reduction; the last 32 partial sums
 * are folded without barriers by the first warp through a volatile pointer,
 * as the suite does.  16 Mi doubles, 256 work-items per group. */
#define WG 256

__kernel void reduce_dp(__global const double *g_idata, __global double *g_odata, __local volatile double *sdata,
                        int n)
{
    int tid = get_local_id(0);
    int i = get_group_id(0) * (WG * 2) + tid;
    int gridSize = WG * 2 * get_num_groups(0);
    double sum = 0.0;
    while (i < n) {
        sum += g_idata[i];
        if (i + WG < n)
            sum += g_idata[i + WG];
        i += gridSize;
    }
    sdata[tid] = sum;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = WG / 2; s > 32; s >>= 1) {
        if (tid < s)
            sdata[tid] = sdata[tid] + sdata[tid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (tid < 32) {
        sdata[tid] += sdata[tid + 32];
        sdata[tid] += sdata[tid + 16];
        sdata[tid] += sdata[tid + 8];
        sdata[tid] += sdata[tid + 4];
        sdata[tid] += sdata[tid + 2];
        sdata[tid] += sdata[tid + 1];
    }
    if (tid == 0)
        g_odata[get_group_id(0)] = sdata[0];
}
