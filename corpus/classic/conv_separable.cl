/* conv_separable: separable convolution, rows then columns (the scheme of
 * the CUDA SDK's convolutionSeparable sample).  Each work-group stages its
 * result tile plus a halo of one block on each side in local memory; halo
 * loads outside the image store 0 (work-item branches at the image edge),
 * then every work-item forms 8 results with a 17-tap filter from constant
 * memory (a broadcast).  3072x3072 image; rows: 16x4 groups, 8 results per
 * work-item along x; columns: 16x8 groups, 8 results along y. */
#define KERNEL_RADIUS 8
#define ROWS_BX 16
#define ROWS_BY 4
#define ROWS_STEPS 8
#define ROWS_HALO 1
#define COLS_BX 16
#define COLS_BY 8
#define COLS_STEPS 8
#define COLS_HALO 1

__kernel void conv_rows(__global float *dst, __global const float *src, __constant float *c_kernel, int imageW,
                        int imageH, int pitch)
{
    __local float s[ROWS_BY][(ROWS_STEPS + 2 * ROWS_HALO) * ROWS_BX];
    int tx = get_local_id(0), ty = get_local_id(1);
    int baseX = (get_group_id(0) * ROWS_STEPS - ROWS_HALO) * ROWS_BX + tx;
    int baseY = get_group_id(1) * ROWS_BY + ty;
    src += baseY * pitch + baseX;
    dst += baseY * pitch + baseX;

    for (int i = ROWS_HALO; i < ROWS_HALO + ROWS_STEPS; i++)
        s[ty][tx + i * ROWS_BX] = src[i * ROWS_BX];
    for (int i = 0; i < ROWS_HALO; i++)
        s[ty][tx + i * ROWS_BX] = (baseX >= -i * ROWS_BX) ? src[i * ROWS_BX] : 0.0f;
    for (int i = ROWS_HALO + ROWS_STEPS; i < ROWS_HALO + ROWS_STEPS + ROWS_HALO; i++)
        s[ty][tx + i * ROWS_BX] = (imageW - baseX > i * ROWS_BX) ? src[i * ROWS_BX] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = ROWS_HALO; i < ROWS_HALO + ROWS_STEPS; i++) {
        float sum = 0.0f;
        for (int j = -KERNEL_RADIUS; j <= KERNEL_RADIUS; j++)
            sum += c_kernel[KERNEL_RADIUS - j] * s[ty][tx + i * ROWS_BX + j];
        dst[i * ROWS_BX] = sum;
    }
}

__kernel void conv_cols(__global float *dst, __global const float *src, __constant float *c_kernel, int imageW,
                        int imageH, int pitch)
{
    __local float s[COLS_BX][(COLS_STEPS + 2 * COLS_HALO) * COLS_BY + 1];
    int tx = get_local_id(0), ty = get_local_id(1);
    int baseX = get_group_id(0) * COLS_BX + tx;
    int baseY = (get_group_id(1) * COLS_STEPS - COLS_HALO) * COLS_BY + ty;
    src += baseY * pitch + baseX;
    dst += baseY * pitch + baseX;

    for (int i = COLS_HALO; i < COLS_HALO + COLS_STEPS; i++)
        s[tx][ty + i * COLS_BY] = src[i * COLS_BY * pitch];
    for (int i = 0; i < COLS_HALO; i++)
        s[tx][ty + i * COLS_BY] = (baseY >= -i * COLS_BY) ? src[i * COLS_BY * pitch] : 0.0f;
    for (int i = COLS_HALO + COLS_STEPS; i < COLS_HALO + COLS_STEPS + COLS_HALO; i++)
        s[tx][ty + i * COLS_BY] = (imageH - baseY > i * COLS_BY) ? src[i * COLS_BY * pitch] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = COLS_HALO; i < COLS_HALO + COLS_STEPS; i++) {
        float sum = 0.0f;
        for (int j = -KERNEL_RADIUS; j <= KERNEL_RADIUS; j++)
            sum += c_kernel[KERNEL_RADIUS - j] * s[tx][ty + i * COLS_BY + j];
        dst[i * COLS_BY * pitch] = sum;
    }
}
