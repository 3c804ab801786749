/* mm3: CUDA twin of mm3.cl (PolyBench/GPU pattern, same launch). */
extern "C" __global__ void mm3_kernel1(const float *a, const float *b, float *e, int ni, int nj, int nk)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < ni && j < nj) {
        float sum = 0.0f;
        for (int k = 0; k < nk; k++)
            sum += a[i * nk + k] * b[k * nj + j];
        e[i * nj + j] = sum;
    }
}

extern "C" __global__ void mm3_kernel2(const float *c, const float *d, float *f, int nj, int nl, int nm)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < nj && j < nl) {
        float sum = 0.0f;
        for (int k = 0; k < nm; k++)
            sum += c[i * nm + k] * d[k * nl + j];
        f[i * nl + j] = sum;
    }
}

extern "C" __global__ void mm3_kernel3(const float *e, const float *f, float *g, int ni, int nl, int nj)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < ni && j < nl) {
        float sum = 0.0f;
        for (int k = 0; k < nj; k++)
            sum += e[i * nj + k] * f[k * nl + j];
        g[i * nl + j] = sum;
    }
}
