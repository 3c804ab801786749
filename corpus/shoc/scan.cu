/* scan: large exclusive prefix sum in three kernels (SHOC Scan pattern);
 * CUDA twin of scan.cl.  64 blocks of 256 threads (scan_top: 1 block). */
#define WG 256

extern "C" __global__ void scan_reduce(const float *in, float *isums, int n)
{
    __shared__ float sdata[WG];
    int region = n / gridDim.x;
    int start = blockIdx.x * region;
    int end = start + region;
    float sum = 0.0f;
    for (int i = start + threadIdx.x; i < end; i += WG)
        sum += in[i];
    sdata[threadIdx.x] = sum;
    __syncthreads();
    for (int s = WG / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            sdata[threadIdx.x] += sdata[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        isums[blockIdx.x] = sdata[0];
}

__device__ float scan_local(float *s, float val)
{
    int t = threadIdx.x;
    s[t] = val;
    __syncthreads();
    for (int off = 1; off < WG; off *= 2) {
        float add = t >= off ? s[t - off] : 0.0f;
        __syncthreads();
        s[t] += add;
        __syncthreads();
    }
    return s[t] - val;
}

extern "C" __global__ void scan_top(float *isums, int nblocks)
{
    __shared__ float s[WG];
    int t = threadIdx.x;
    float v = t < nblocks ? isums[t] : 0.0f;
    float r = scan_local(s, v);
    if (t < nblocks)
        isums[t] = r;
}

extern "C" __global__ void scan_bottom(const float4 *in, const float *isums, float4 *out, int n)
{
    __shared__ float s[WG];
    int region4 = n / 4 / gridDim.x;
    int start = blockIdx.x * region4;
    float carry = isums[blockIdx.x];
    for (int base = start; base < start + region4; base += WG) {
        int i = base + threadIdx.x;
        float4 v = in[i];
        v.y += v.x;
        v.z += v.y;
        v.w += v.z;
        float excl = scan_local(s, v.w) + carry;
        out[i] = make_float4(excl, excl + v.x, excl + v.y, excl + v.z);
        __syncthreads();
        carry += s[WG - 1];
        __syncthreads();
    }
}
