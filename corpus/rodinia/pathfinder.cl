/* pathfinder: dynamic programming over a 2-D grid, `iteration` rows per
 * launch with ghost zones (the pattern of Rodinia's pathfinder).  A row of
 * 256 costs lives in local memory; each step takes the minimum of three
 * upper neighbours (clamped at the valid range, which shrinks by one per
 * step), with a barrier per step.  100,000 columns, pyramid height 20:
 * 463 groups of 256 (216 useful columns each). */
#define BLOCK_SIZE 256
#define HALO 1
#define IN_RANGE(x, min, max) ((x) >= (min) && (x) <= (max))
#define MIN(a, b) ((a) <= (b) ? (a) : (b))

__kernel void dynproc(int iteration, __global const int *wall, __global const int *src, __global int *results,
                      int cols, int rows, int start_step, int border)
{
    __local int prev[BLOCK_SIZE];
    __local int result[BLOCK_SIZE];
    int bx = get_group_id(0);
    int tx = get_local_id(0);
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
    barrier(CLK_LOCAL_MEM_FENCE);
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
        barrier(CLK_LOCAL_MEM_FENCE);
        if (i == iteration - 1)
            break;
        if (computed)
            prev[tx] = result[tx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (computed)
        results[xidx] = result[tx];
}
