/* dwt_haar: a multi-level 1-D Haar wavelet decomposition of signal blocks
 * in local memory (the scheme of the CUDA SDK's dwtHaar1D sample): each
 * work-group loads 2x its size of samples, and each level halves the active
 * work-items (a loop whose count follows the group size, and a branch on
 * the work-item that narrows every level), writing the detail coefficients
 * of the level to global memory at a level-dependent offset.  4 Mi samples,
 * 256 work-items per group (9 levels). */
#define INV_SQRT2 0.70710678118654752440f

__kernel void dwt_haar(__global const float *signal, __global float *details, __global float *approx,
                       __local float *s)
{
    int t = get_local_id(0);
    int n = get_local_size(0);
    int g = get_group_id(0);
    s[t] = signal[g * 2 * n + t];
    s[t + n] = signal[g * 2 * n + t + n];
    barrier(CLK_LOCAL_MEM_FENCE);
    int out_base = 0;
    for (int active = n; active > 0; active >>= 1) {
        float a = 0.0f, d = 0.0f;
        if (t < active) {
            float x0 = s[2 * t], x1 = s[2 * t + 1];
            a = (x0 + x1) * INV_SQRT2;
            d = (x0 - x1) * INV_SQRT2;
            details[out_base + g * active + t] = d;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (t < active)
            s[t] = a;
        barrier(CLK_LOCAL_MEM_FENCE);
        out_base += active * get_num_groups(0);
    }
    if (t == 0)
        approx[g] = s[0];
}
