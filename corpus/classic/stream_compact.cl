/* stream_compact: keeps the elements above a threshold, in no particular
 * order (the atomic-counter variant of stream compaction): a branch on the
 * loaded value, a global atomic increment that hands out slots, and a
 * store to the slot (an address computed from a loaded value).  16 Mi
 * floats, 256 work-items per group. */
__kernel void compact(__global const float *in, __global float *out, __global uint *count, float threshold, int n)
{
    int i = get_global_id(0);
    if (i >= n)
        return;
    float v = in[i];
    if (v > threshold) {
        uint slot = atomic_inc(count);
        out[slot] = v;
    }
}
