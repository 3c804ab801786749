/* mm2: CUDA twin of mm2.cl (PolyBench/GPU pattern, same launch). */
extern "C" __global__ void mm2_kernel1(const float *a, const float *b, float *tmp, float alpha, int ni, int nj,
                                       int nk)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < ni && j < nj) {
        float sum = 0.0f;
        for (int k = 0; k < nk; k++)
            sum += alpha * a[i * nk + k] * b[k * nj + j];
        tmp[i * nj + j] = sum;
    }
}

extern "C" __global__ void mm2_kernel2(const float *tmp, const float *c, float *d, float beta, int ni, int nj,
                                       int nl)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < ni && j < nl) {
        float sum = d[i * nl + j] * beta;
        for (int k = 0; k < nj; k++)
            sum += tmp[i * nj + k] * c[k * nl + j];
        d[i * nl + j] = sum;
    }
}
