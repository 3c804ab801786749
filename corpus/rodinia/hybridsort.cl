/* hybridsort: one pass of the merge stage of a bucket-then-merge sort (the
 * pattern of Rodinia's hybridsort, mergeSortPass).  Each work-item merges
 * two sorted runs of float4 vectors inside its segment of the list (the
 * segments' starts are loaded); a loop without a count of its own takes
 * the lower four values of the two heads (min/max networks), writes them
 * and advances one run or the other by comparing the next heads (loaded
 * values), until both runs are used up: at -O0 its exit is a `break` in the
 * last arm of an if-else chain on loaded values.  1024 segments of 208
 * work-items, runs of 64 vectors. */
#define SEGMENTS 1024

static float4 sort4(float4 r)
{
    float4 s = (float4)(fmin(r.x, r.y), fmax(r.x, r.y), fmin(r.z, r.w), fmax(r.z, r.w));
    float4 t = (float4)(fmin(s.x, s.z), fmin(s.y, s.w), fmax(s.x, s.z), fmax(s.y, s.w));
    return (float4)(t.x, fmin(t.y, t.z), fmax(t.y, t.z), t.w);
}

__kernel void merge_pass(__global const float4 *in, __global float4 *out, int run, int per_segment,
                         __global const int *seg_start)
{
    int gid = get_global_id(0);
    int seg = gid / per_segment;
    if (seg >= SEGMENTS)
        return;
    int a0 = seg_start[seg] + (gid - seg * per_segment) * run;
    int b0 = a0 + run / 2;
    int end = seg_start[seg + 1];
    if (a0 >= end)
        return;
    if (b0 >= end) { /* one run only: copied */
        for (int i = 0; i < end - a0; i++)
            out[a0 + i] = in[a0 + i];
        return;
    }
    int ai = 0, bi = 0, o = 0;
    float4 a = in[a0], b = in[b0];
    for (;;) {
        float4 na = in[a0 + ai + 1], nb = in[b0 + bi + 1];
        float4 lo = fmin(a, b.wzyx), hi = fmax(a.wzyx, b);
        a = sort4(lo);
        b = sort4(hi);
        out[a0 + o++] = a;
        bool more_a = ai + 1 < run / 2;
        bool more_b = bi + 1 < run / 2 && b0 + bi + 1 < end;
        if (more_a && more_b) {
            if (na.x < nb.x) {
                ai++;
                a = na;
            } else {
                bi++;
                a = nb;
            }
        } else if (more_a) {
            ai++;
            a = na;
        } else if (more_b) {
            bi++;
            a = nb;
        } else {
            break;
        }
    }
    out[a0 + o] = b;
}
