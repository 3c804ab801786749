/* hotspot: thermal simulation with pyramid blocking (Rodinia hotspot
 * pattern); CUDA twin of hotspot.cl.  Blocks of 16x16. */
#define BLOCK_SIZE 16
#define IN_RANGE(x, min, max) ((x) >= (min) && (x) <= (max))
#define CLAMP_RANGE(x, min, max) x = (x < (min)) ? min : ((x > (max)) ? max : x)

extern "C" __global__ void calculate_temp(int iteration, const float *power, const float *temp_src,
                                          float *temp_dst, int grid_cols, int grid_rows, int border_cols,
                                          int border_rows, float Cap, float Rx, float Ry, float Rz, float step)
{
    __shared__ float temp_on[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float power_on[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float temp_t[BLOCK_SIZE][BLOCK_SIZE];
    float amb_temp = 80.0f;
    float step_div_Cap = step / Cap;
    float Rx_1 = 1.0f / Rx, Ry_1 = 1.0f / Ry, Rz_1 = 1.0f / Rz;
    int bx = blockIdx.x, by = blockIdx.y;
    int tx = threadIdx.x, ty = threadIdx.y;
    int small_block_rows = BLOCK_SIZE - iteration * 2;
    int small_block_cols = BLOCK_SIZE - iteration * 2;
    int blkY = small_block_rows * by - border_rows;
    int blkX = small_block_cols * bx - border_cols;
    int yidx = blkY + ty, xidx = blkX + tx;
    int index = grid_cols * yidx + xidx;

    if (IN_RANGE(yidx, 0, grid_rows - 1) && IN_RANGE(xidx, 0, grid_cols - 1)) {
        temp_on[ty][tx] = temp_src[index];
        power_on[ty][tx] = power[index];
    }
    __syncthreads();

    int validYmin = (blkY < 0) ? -blkY : 0;
    int validYmax = (blkY + BLOCK_SIZE - 1 > grid_rows - 1) ? BLOCK_SIZE - 1 - (blkY + BLOCK_SIZE - 1 - grid_rows + 1)
                                                             : BLOCK_SIZE - 1;
    int validXmin = (blkX < 0) ? -blkX : 0;
    int validXmax = (blkX + BLOCK_SIZE - 1 > grid_cols - 1) ? BLOCK_SIZE - 1 - (blkX + BLOCK_SIZE - 1 - grid_cols + 1)
                                                             : BLOCK_SIZE - 1;
    int N = ty - 1, S = ty + 1, W = tx - 1, E = tx + 1;
    CLAMP_RANGE(N, validYmin, validYmax);
    CLAMP_RANGE(S, validYmin, validYmax);
    CLAMP_RANGE(W, validXmin, validXmax);
    CLAMP_RANGE(E, validXmin, validXmax);

    bool computed = false;
    for (int i = 0; i < iteration; i++) {
        computed = false;
        if (IN_RANGE(tx, i + 1, BLOCK_SIZE - i - 2) && IN_RANGE(ty, i + 1, BLOCK_SIZE - i - 2) &&
            IN_RANGE(tx, validXmin, validXmax) && IN_RANGE(ty, validYmin, validYmax)) {
            computed = true;
            temp_t[ty][tx] = temp_on[ty][tx] +
                             step_div_Cap * (power_on[ty][tx] + (temp_on[S][tx] + temp_on[N][tx] - 2.0f * temp_on[ty][tx]) * Ry_1 +
                                             (temp_on[ty][E] + temp_on[ty][W] - 2.0f * temp_on[ty][tx]) * Rx_1 +
                                             (amb_temp - temp_on[ty][tx]) * Rz_1);
        }
        __syncthreads();
        if (i == iteration - 1)
            break;
        if (computed)
            temp_on[ty][tx] = temp_t[ty][tx];
        __syncthreads();
    }
    if (computed)
        temp_dst[index] = temp_t[ty][tx];
}
