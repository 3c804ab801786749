/* scan: a large exclusive prefix sum in three kernels (the pattern of
 * SHOC's Scan).  A fixed grid of 64 work-groups splits the input into
 * contiguous regions; scan_reduce sums each region with a strided loop
 * (trip count from arguments) and a local tree; scan_top scans the 64 block
 * sums in one work-group; scan_bottom rescans every region in chunks of
 * float4 (a Hillis-Steele scan of per-work-item sums in local memory per
 * chunk) and adds the region's carry.  16 Mi floats, 256 work-items. */
#define WG 256

__kernel void scan_reduce(__global const float *in, __global float *isums, int n)
{
    __local float sdata[WG];
    int region = n / get_num_groups(0);
    int start = get_group_id(0) * region;
    int end = start + region;
    float sum = 0.0f;
    for (int i = start + get_local_id(0); i < end; i += WG)
        sum += in[i];
    sdata[get_local_id(0)] = sum;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = WG / 2; s > 0; s >>= 1) {
        if (get_local_id(0) < s)
            sdata[get_local_id(0)] += sdata[get_local_id(0) + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (get_local_id(0) == 0)
        isums[get_group_id(0)] = sdata[0];
}

static float scan_local(__local float *s, float val)
{
    int t = get_local_id(0);
    s[t] = val;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int off = 1; off < WG; off *= 2) {
        float add = t >= off ? s[t - off] : 0.0f;
        barrier(CLK_LOCAL_MEM_FENCE);
        s[t] += add;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    return s[t] - val;
}

__kernel void scan_top(__global float *isums, int nblocks)
{
    __local float s[WG];
    int t = get_local_id(0);
    float v = t < nblocks ? isums[t] : 0.0f;
    float r = scan_local(s, v);
    if (t < nblocks)
        isums[t] = r;
}

__kernel void scan_bottom(__global const float4 *in, __global const float *isums, __global float4 *out, int n)
{
    __local float s[WG];
    int region4 = n / 4 / get_num_groups(0);
    int start = get_group_id(0) * region4;
    float carry = isums[get_group_id(0)];
    for (int base = start; base < start + region4; base += WG) {
        int i = base + get_local_id(0);
        float4 v = in[i];
        v.y += v.x;
        v.z += v.y;
        v.w += v.z;
        float excl = scan_local(s, v.w) + carry;
        out[i] = (float4)(excl, excl + v.x, excl + v.y, excl + v.z);
        barrier(CLK_LOCAL_MEM_FENCE);
        carry += s[WG - 1];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}
