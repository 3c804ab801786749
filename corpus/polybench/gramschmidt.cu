/* gramschmidt: CUDA twin of gramschmidt.cl (PolyBench/GPU pattern, same launch). */
extern "C" __global__ void gs_norm(const float *a, float *r, int k, int m, int n)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid != 0)
        return;
    float nrm = 0.0f;
    for (int i = 0; i < m; i++)
        nrm += a[i * n + k] * a[i * n + k];
    r[k * n + k] = sqrtf(nrm);
}

extern "C" __global__ void gs_normalize(const float *a, const float *r, float *q, int k, int m, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < m)
        q[i * n + k] = a[i * n + k] / r[k * n + k];
}

extern "C" __global__ void gs_update(float *a, float *r, const float *q, int k, int m, int n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j > k && j < n) {
        float s = 0.0f;
        for (int i = 0; i < m; i++)
            s += q[i * n + k] * a[i * n + j];
        r[k * n + j] = s;
        for (int i = 0; i < m; i++)
            a[i * n + j] -= q[i * n + k] * s;
    }
}
