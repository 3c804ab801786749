/* atax: CUDA twin of atax.cl (PolyBench/GPU pattern, same launch). */
extern "C" __global__ void atax_kernel1(const float *a, const float *x, float *tmp, int nx, int ny)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < nx) {
        float sum = 0.0f;
        for (int j = 0; j < ny; j++)
            sum += a[i * ny + j] * x[j];
        tmp[i] = sum;
    }
}

extern "C" __global__ void atax_kernel2(const float *a, float *y, const float *tmp, int nx, int ny)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < ny) {
        float sum = 0.0f;
        for (int i = 0; i < nx; i++)
            sum += a[i * ny + j] * tmp[i];
        y[j] = sum;
    }
}
