/* gaussian: forward elimination (Rodinia gaussian pattern); CUDA twin of
 * gaussian.cl.  fan1: blocks of 512; fan2: blocks of 4x4 (BLOCK_SIZE_XY). */
extern "C" __global__ void fan1(float *m, const float *a, int size, int t)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= size - 1 - t)
        return;
    m[size * (i + t + 1) + t] = a[size * (i + t + 1) + t] / a[size * t + t];
}

extern "C" __global__ void fan2(const float *m, float *a, float *b, int size, int t)
{
    int xidx = blockIdx.x * blockDim.x + threadIdx.x;
    int yidx = blockIdx.y * blockDim.y + threadIdx.y;
    if (xidx >= size - 1 - t || yidx >= size - t)
        return;
    a[size * (xidx + 1 + t) + (yidx + t)] -= m[size * (xidx + 1 + t) + t] * a[size * t + (yidx + t)];
    if (yidx == 0)
        b[xidx + 1 + t] -= m[size * (xidx + 1 + t) + (yidx + t)] * b[t];
}
