/* fdtd2d: CUDA twin of fdtd2d.cl (PolyBench/GPU pattern, same launch). */
extern "C" __global__ void fdtd_step1(const float *fict, const float *hz, float *ey, int nx, int ny, int t)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < nx && j < ny) {
        if (i == 0)
            ey[i * ny + j] = fict[t];
        else
            ey[i * ny + j] = ey[i * ny + j] - 0.5f * (hz[i * ny + j] - hz[(i - 1) * ny + j]);
    }
}

extern "C" __global__ void fdtd_step2(float *ex, const float *hz, int nx, int ny)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < nx && j < ny && j > 0)
        ex[i * (ny + 1) + j] = ex[i * (ny + 1) + j] - 0.5f * (hz[i * ny + j] - hz[i * ny + (j - 1)]);
}

extern "C" __global__ void fdtd_step3(const float *ex, const float *ey, float *hz, int nx, int ny)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < nx && j < ny)
        hz[i * ny + j] = hz[i * ny + j] - 0.7f * (ex[i * (ny + 1) + (j + 1)] - ex[i * (ny + 1) + j] +
                                                  ey[(i + 1) * ny + j] - ey[i * ny + j]);
}
