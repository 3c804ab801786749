/* fft: batched 1024-point complex FFTs, one per work-group of 512 work-
 * items (the shape of SHOC's FFT benchmark, written as a radix-2 Stockham-
 * free in-place transform).  Each work-item loads two points in bit-
 * reversed order (a helper with a fixed 10-step loop), then the group runs
 * log2(1024) butterfly stages in local memory: the span doubles every
 * stage (a loop the compiler cannot count without evaluating it), twiddles
 * come from sincos, data are float2, and a barrier closes each stage.
 * 8,192 transforms (64 MiB of float2), 512 work-items per group. */
#define N 1024
#define LOG2N 10

static unsigned reverse_bits(unsigned x)
{
    unsigned r = 0;
    for (int b = 0; b < LOG2N; b++) {
        r = (r << 1) | (x & 1u);
        x >>= 1;
    }
    return r;
}

static float2 cmul(float2 a, float2 b)
{
    return (float2)(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}

__kernel void fft1024(__global float2 *data, int sign)
{
    __local float2 s[N];
    int t = get_local_id(0);
    __global float2 *d = data + get_group_id(0) * N;

    s[reverse_bits(t)] = d[t];
    s[reverse_bits(t + N / 2)] = d[t + N / 2];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int span = 1; span < N; span <<= 1) {
        int pos = t % span;
        int i = (t / span) * 2 * span + pos;
        float c;
        float sn = sincos(sign * 3.14159265f * pos / span, &c);
        float2 w = (float2)(c, sn);
        float2 u = s[i];
        float2 v = cmul(w, s[i + span]);
        barrier(CLK_LOCAL_MEM_FENCE);
        s[i] = u + v;
        s[i + span] = u - v;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    d[t] = s[t];
    d[t + N / 2] = s[t + N / 2];
}
