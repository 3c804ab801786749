/* lu: CUDA twin of lu.cl (PolyBench/GPU pattern, same launch). */
extern "C" __global__ void lu_scale(float *a, int k, int n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j > k && j < n)
        a[k * n + j] = a[k * n + j] / a[k * n + k];
}

extern "C" __global__ void lu_update(float *a, int k, int n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i > k && j > k && i < n && j < n)
        a[i * n + j] = a[i * n + j] - a[i * n + k] * a[k * n + j];
}
