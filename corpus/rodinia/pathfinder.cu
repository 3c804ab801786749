/* pathfinder: row-by-row dynamic programming with ghost zones (Rodinia
 * pathfinder pattern); CUDA twin of pathfinder.cl.  Blocks of 256. */
#define BLOCK_SIZE 256
#define HALO 1
#define IN_RANGE(x, min, max) ((x) >= (min) && (x) <= (max))
#define MIN(a, b) ((a) <= (b) ? (a) : (b))

extern "C" __global__ void dynproc(int iteration, const int *wall, const int *src, int *results, int cols,
                                   int rows, int start_step, int border)
{
    __shared__ int prev[BLOCK_SIZE];
    __shared__ int result[BLOCK_SIZE];
    int bx = blockIdx.x;
    int tx = threadIdx.x;
    int small_block_cols = BLOCK_SIZE - iteration * HALO * 2;
    int blkX = small_block_cols * bx - border;
    int blkXmax = blkX + BLOCK_SIZE - 1;
    int xidx = blkX + tx;
    int validXmin = (blkX < 0) ? -blkX : 0;
    int validXmax = (blkXmax > cols - 1) ? BLOCK_SIZE - 1 - (blkXmax - cols + 1) : BLOCK_SIZE - 1;
    int W = tx - 1;
    int E = tx + 1;
    W = (W < validXmin) ? validXmin : W;
    E = (E > validXmax) ? validXmax : E;
    bool is_valid = IN_RANGE(tx, validXmin, validXmax);

    if (IN_RANGE(xidx, 0, cols - 1))
        prev[tx] = src[xidx];
    __syncthreads();
    bool computed;
    for (int i = 0; i < iteration; i++) {
        computed = false;
        if (IN_RANGE(tx, i + 1, BLOCK_SIZE - i - 2) && is_valid) {
            computed = true;
            int left = prev[W];
            int up = prev[tx];
            int right = prev[E];
            int shortest = MIN(left, up);
            shortest = MIN(shortest, right);
            int index = cols * (start_step + i) + xidx;
            result[tx] = shortest + wall[index];
        }
        __syncthreads();
        if (i == iteration - 1)
            break;
        if (computed)
            prev[tx] = result[tx];
        __syncthreads();
    }
    if (computed)
        results[xidx] = result[tx];
}
