/* correlation: CUDA twin of correlation.cl (PolyBench/GPU pattern, same launch). */
#define FLOAT_N 3214212.01f
#define EPS 0.005f

extern "C" __global__ void corr_mean(const float *data, float *mean, int m, int n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < m) {
        float s = 0.0f;
        for (int i = 0; i < n; i++)
            s += data[i * m + j];
        mean[j] = s / FLOAT_N;
    }
}

extern "C" __global__ void corr_std(const float *data, const float *mean, float *stddev, int m, int n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < m) {
        float s = 0.0f;
        for (int i = 0; i < n; i++) {
            float d = data[i * m + j] - mean[j];
            s += d * d;
        }
        s = sqrtf(s / FLOAT_N);
        stddev[j] = s <= EPS ? 1.0f : s;
    }
}

extern "C" __global__ void corr_reduce(float *data, const float *mean, const float *stddev, int m, int n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < n && j < m) {
        data[i * m + j] -= mean[j];
        data[i * m + j] /= sqrtf(FLOAT_N) * stddev[j];
    }
}

extern "C" __global__ void corr_corr(const float *data, float *symmat, int m, int n)
{
    int j1 = blockIdx.x * blockDim.x + threadIdx.x;
    if (j1 < m - 1) {
        symmat[j1 * m + j1] = 1.0f;
        for (int j2 = j1 + 1; j2 < m; j2++) {
            float s = 0.0f;
            for (int i = 0; i < n; i++)
                s += data[i * m + j1] * data[i * m + j2];
            symmat[j1 * m + j2] = s;
            symmat[j2 * m + j1] = s;
        }
    }
}
