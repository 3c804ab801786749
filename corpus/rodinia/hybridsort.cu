/* hybridsort: one pass of the merge stage of a bucket-then-merge sort
 * (Rodinia hybridsort pattern); CUDA twin of hybridsort.cl.  Each thread
 * merges two sorted runs of float4 inside its segment until both are used
 * up, advancing one or the other by comparing loaded heads.  1024 segments
 * of 208 threads, runs of 64 vectors. */
#define SEGMENTS 1024

__device__ static float4 sort4(float4 r)
{
    float4 s = make_float4(fminf(r.x, r.y), fmaxf(r.x, r.y), fminf(r.z, r.w), fmaxf(r.z, r.w));
    float4 t = make_float4(fminf(s.x, s.z), fminf(s.y, s.w), fmaxf(s.x, s.z), fmaxf(s.y, s.w));
    return make_float4(t.x, fminf(t.y, t.z), fmaxf(t.y, t.z), t.w);
}

extern "C" __global__ void merge_pass(const float4 *in, float4 *out, int run, int per_segment, const int *seg_start)
{
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
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
        float4 lo = make_float4(fminf(a.x, b.w), fminf(a.y, b.z), fminf(a.z, b.y), fminf(a.w, b.x));
        float4 hi = make_float4(fmaxf(a.w, b.x), fmaxf(a.z, b.y), fmaxf(a.y, b.z), fmaxf(a.x, b.w));
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
