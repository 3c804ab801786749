/* jacobi2d: CUDA twin of jacobi2d.cl (PolyBench/GPU pattern, same launch). */
extern "C" __global__ void jacobi_step(const float *a, float *b, int n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= 1 && i < n - 1 && j >= 1 && j < n - 1)
        b[i * n + j] = 0.2f * (a[i * n + j] + a[i * n + (j - 1)] + a[i * n + (j + 1)] + a[(i + 1) * n + j] +
                               a[(i - 1) * n + j]);
}

extern "C" __global__ void jacobi_copy(float *a, const float *b, int n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= 1 && i < n - 1 && j >= 1 && j < n - 1)
        a[i * n + j] = b[i * n + j];
}
