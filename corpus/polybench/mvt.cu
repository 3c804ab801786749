/* mvt: CUDA twin of mvt.cl (PolyBench/GPU pattern, same launch). */
extern "C" __global__ void mvt_kernel1(const float *a, float *x1, const float *y1, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        for (int j = 0; j < n; j++)
            x1[i] += a[i * n + j] * y1[j];
    }
}

extern "C" __global__ void mvt_kernel2(const float *a, float *x2, const float *y2, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        for (int j = 0; j < n; j++)
            x2[i] += a[j * n + i] * y2[j];
    }
}
