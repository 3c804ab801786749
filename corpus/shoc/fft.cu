/* fft: batched 1024-point complex FFTs (SHOC FFT shape); CUDA twin of
 * fft.cl.  Blocks of 512 threads, one transform per block. */
#define N 1024
#define LOG2N 10

__device__ unsigned reverse_bits(unsigned x)
{
    unsigned r = 0;
    for (int b = 0; b < LOG2N; b++) {
        r = (r << 1) | (x & 1u);
        x >>= 1;
    }
    return r;
}

__device__ float2 cmul(float2 a, float2 b)
{
    return make_float2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}

extern "C" __global__ void fft1024(float2 *data, int sign)
{
    __shared__ float2 s[N];
    int t = threadIdx.x;
    float2 *d = data + blockIdx.x * N;

    s[reverse_bits(t)] = d[t];
    s[reverse_bits(t + N / 2)] = d[t + N / 2];
    __syncthreads();
    for (int span = 1; span < N; span <<= 1) {
        int pos = t % span;
        int i = (t / span) * 2 * span + pos;
        float a = sign * 3.14159265f * pos / span;
        float c = cosf(a), sn = sinf(a);
        float2 w = make_float2(c, sn);
        float2 u = s[i];
        float2 v = cmul(w, s[i + span]);
        __syncthreads();
        s[i] = make_float2(u.x + v.x, u.y + v.y);
        s[i + span] = make_float2(u.x - v.x, u.y - v.y);
        __syncthreads();
    }
    d[t] = s[t];
    d[t + N / 2] = s[t + N / 2];
}
