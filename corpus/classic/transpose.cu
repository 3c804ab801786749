/* transpose: naive and tiled matrix transpose (CUDA SDK transpose
 * pattern); CUDA twin of transpose.cl.  naive: 16x16 blocks; tiled: 32x8
 * blocks over 32x32 tiles. */
#define TILE 32
#define ROWS 8

extern "C" __global__ void transpose_naive(float *odata, const float *idata, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height)
        odata[x * height + y] = idata[y * width + x];
}

extern "C" __global__ void transpose_tiled(float *odata, const float *idata, int width, int height)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        odata[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}
