/* stencil2d: weighted 9-point stencil with a local-memory tile and halo
 * (SHOC Stencil2D pattern); CUDA twin of stencil2d.cl.  Blocks of 16x16. */
#define T 16

extern "C" __global__ void stencil9(const float *data, float *newData, int ncols, float wCenter,
                                    float wCardinal, float wDiagonal)
{
    __shared__ float tile[T + 2][T + 2];
    int lx = threadIdx.x, ly = threadIdx.y;
    int gx = (blockIdx.x * blockDim.x + threadIdx.x) + 1, gy = (blockIdx.y * blockDim.y + threadIdx.y) + 1;
    int w = ncols + 2;

    tile[ly + 1][lx + 1] = data[gy * w + gx];
    if (ly == 0)
        tile[0][lx + 1] = data[(gy - 1) * w + gx];
    if (ly == T - 1)
        tile[T + 1][lx + 1] = data[(gy + 1) * w + gx];
    if (lx == 0)
        tile[ly + 1][0] = data[gy * w + gx - 1];
    if (lx == T - 1)
        tile[ly + 1][T + 1] = data[gy * w + gx + 1];
    if (lx == 0 && ly == 0)
        tile[0][0] = data[(gy - 1) * w + gx - 1];
    if (lx == T - 1 && ly == 0)
        tile[0][T + 1] = data[(gy - 1) * w + gx + 1];
    if (lx == 0 && ly == T - 1)
        tile[T + 1][0] = data[(gy + 1) * w + gx - 1];
    if (lx == T - 1 && ly == T - 1)
        tile[T + 1][T + 1] = data[(gy + 1) * w + gx + 1];
    __syncthreads();

    float center = tile[ly + 1][lx + 1];
    float cardinal = tile[ly][lx + 1] + tile[ly + 2][lx + 1] + tile[ly + 1][lx] + tile[ly + 1][lx + 2];
    float diagonal = tile[ly][lx] + tile[ly][lx + 2] + tile[ly + 2][lx] + tile[ly + 2][lx + 2];
    newData[gy * w + gx] = wCenter * center + wCardinal * cardinal + wDiagonal * diagonal;
}
