/* conv_separable: separable row and column convolution with local-memory
 * halos (CUDA SDK convolutionSeparable scheme); CUDA twin of
 * conv_separable.cl with the filter in a __constant__ array.  Rows: blocks
 * of 16x4; columns: blocks of 16x8. */
#define KERNEL_RADIUS 8
#define ROWS_BX 16
#define ROWS_BY 4
#define ROWS_STEPS 8
#define ROWS_HALO 1
#define COLS_BX 16
#define COLS_BY 8
#define COLS_STEPS 8
#define COLS_HALO 1

__constant__ float c_kernel[2 * KERNEL_RADIUS + 1];

extern "C" __global__ void conv_rows(float *dst, const float *src, int imageW, int imageH, int pitch)
{
    __shared__ float s[ROWS_BY][(ROWS_STEPS + 2 * ROWS_HALO) * ROWS_BX];
    int tx = threadIdx.x, ty = threadIdx.y;
    int baseX = (blockIdx.x * ROWS_STEPS - ROWS_HALO) * ROWS_BX + tx;
    int baseY = blockIdx.y * ROWS_BY + ty;
    src += baseY * pitch + baseX;
    dst += baseY * pitch + baseX;

    for (int i = ROWS_HALO; i < ROWS_HALO + ROWS_STEPS; i++)
        s[ty][tx + i * ROWS_BX] = src[i * ROWS_BX];
    for (int i = 0; i < ROWS_HALO; i++)
        s[ty][tx + i * ROWS_BX] = (baseX >= -i * ROWS_BX) ? src[i * ROWS_BX] : 0.0f;
    for (int i = ROWS_HALO + ROWS_STEPS; i < ROWS_HALO + ROWS_STEPS + ROWS_HALO; i++)
        s[ty][tx + i * ROWS_BX] = (imageW - baseX > i * ROWS_BX) ? src[i * ROWS_BX] : 0.0f;
    __syncthreads();
    for (int i = ROWS_HALO; i < ROWS_HALO + ROWS_STEPS; i++) {
        float sum = 0.0f;
        for (int j = -KERNEL_RADIUS; j <= KERNEL_RADIUS; j++)
            sum += c_kernel[KERNEL_RADIUS - j] * s[ty][tx + i * ROWS_BX + j];
        dst[i * ROWS_BX] = sum;
    }
}

extern "C" __global__ void conv_cols(float *dst, const float *src, int imageW, int imageH, int pitch)
{
    __shared__ float s[COLS_BX][(COLS_STEPS + 2 * COLS_HALO) * COLS_BY + 1];
    int tx = threadIdx.x, ty = threadIdx.y;
    int baseX = blockIdx.x * COLS_BX + tx;
    int baseY = (blockIdx.y * COLS_STEPS - COLS_HALO) * COLS_BY + ty;
    src += baseY * pitch + baseX;
    dst += baseY * pitch + baseX;

    for (int i = COLS_HALO; i < COLS_HALO + COLS_STEPS; i++)
        s[tx][ty + i * COLS_BY] = src[i * COLS_BY * pitch];
    for (int i = 0; i < COLS_HALO; i++)
        s[tx][ty + i * COLS_BY] = (baseY >= -i * COLS_BY) ? src[i * COLS_BY * pitch] : 0.0f;
    for (int i = COLS_HALO + COLS_STEPS; i < COLS_HALO + COLS_STEPS + COLS_HALO; i++)
        s[tx][ty + i * COLS_BY] = (imageH - baseY > i * COLS_BY) ? src[i * COLS_BY * pitch] : 0.0f;
    __syncthreads();
    for (int i = COLS_HALO; i < COLS_HALO + COLS_STEPS; i++) {
        float sum = 0.0f;
        for (int j = -KERNEL_RADIUS; j <= KERNEL_RADIUS; j++)
            sum += c_kernel[KERNEL_RADIUS - j] * s[tx][ty + i * COLS_BY + j];
        dst[i * COLS_BY * pitch] = sum;
    }
}
