/* dwt_haar: multi-level 1-D Haar wavelet decomposition in shared memory
 * (CUDA SDK dwtHaar1D scheme); CUDA twin of dwt_haar.cl, the buffer as
 * dynamic shared memory of 2 floats per thread.  Blocks of 256 threads. */
#define INV_SQRT2 0.70710678118654752440f

extern __shared__ float s[];

extern "C" __global__ void dwt_haar(const float *signal, float *details, float *approx)
{
    int t = threadIdx.x;
    int n = blockDim.x;
    int g = blockIdx.x;
    s[t] = signal[g * 2 * n + t];
    s[t + n] = signal[g * 2 * n + t + n];
    __syncthreads();
    int out_base = 0;
    for (int active = n; active > 0; active >>= 1) {
        float a = 0.0f, d = 0.0f;
        if (t < active) {
            float x0 = s[2 * t], x1 = s[2 * t + 1];
            a = (x0 + x1) * INV_SQRT2;
            d = (x0 - x1) * INV_SQRT2;
            details[out_base + g * active + t] = d;
        }
        __syncthreads();
        if (t < active)
            s[t] = a;
        __syncthreads();
        out_base += active * gridDim.x;
    }
    if (t == 0)
        approx[g] = s[0];
}
