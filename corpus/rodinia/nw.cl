/* nw: Needleman-Wunsch sequence alignment, one anti-diagonal of 16x16
 * blocks per launch (the pattern of Rodinia's nw).  Each work-group loads
 * its block of the reference matrix and the block's top row and left
 * column of scores into local memory, then sweeps the block's anti-
 * diagonals: in step m only work-items tx <= m work (a divergent,
 * loop-variable branch), with a barrier per step, first growing then
 * shrinking.  A helper returns the maximum of three.  2048x2048 alignment
 * (max_cols 2049), penalty 10; nw_top runs the upper-left half (block
 * diagonal i has i blocks), nw_bottom the lower-right half. */
#define BLOCK_SIZE 16

static int maximum(int a, int b, int c)
{
    int k = a <= b ? b : a;
    return k <= c ? c : k;
}

static void nw_block(__global const int *reference, __global int *matrix, int cols, int penalty, int b_index_x,
                     int b_index_y, __local int (*temp)[BLOCK_SIZE + 1], __local int (*ref)[BLOCK_SIZE])
{
    int tx = get_local_id(0);
    int index = cols * BLOCK_SIZE * b_index_y + BLOCK_SIZE * b_index_x + tx + (cols + 1);
    int index_n = cols * BLOCK_SIZE * b_index_y + BLOCK_SIZE * b_index_x + tx + 1;
    int index_w = cols * BLOCK_SIZE * b_index_y + BLOCK_SIZE * b_index_x + cols;
    int index_nw = cols * BLOCK_SIZE * b_index_y + BLOCK_SIZE * b_index_x;

    if (tx == 0)
        temp[0][0] = matrix[index_nw];
    for (int ty = 0; ty < BLOCK_SIZE; ty++)
        ref[ty][tx] = reference[index + cols * ty];
    barrier(CLK_LOCAL_MEM_FENCE);
    temp[tx + 1][0] = matrix[index_w + cols * tx];
    barrier(CLK_LOCAL_MEM_FENCE);
    temp[0][tx + 1] = matrix[index_n];
    barrier(CLK_LOCAL_MEM_FENCE);

    for (int m = 0; m < BLOCK_SIZE; m++) {
        if (tx <= m) {
            int t_index_x = tx + 1;
            int t_index_y = m - tx + 1;
            temp[t_index_y][t_index_x] = maximum(temp[t_index_y - 1][t_index_x - 1] + ref[t_index_y - 1][t_index_x - 1],
                                                 temp[t_index_y][t_index_x - 1] - penalty,
                                                 temp[t_index_y - 1][t_index_x] - penalty);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    for (int m = BLOCK_SIZE - 2; m >= 0; m--) {
        if (tx <= m) {
            int t_index_x = tx + BLOCK_SIZE - m;
            int t_index_y = BLOCK_SIZE - tx;
            temp[t_index_y][t_index_x] = maximum(temp[t_index_y - 1][t_index_x - 1] + ref[t_index_y - 1][t_index_x - 1],
                                                 temp[t_index_y][t_index_x - 1] - penalty,
                                                 temp[t_index_y - 1][t_index_x] - penalty);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    for (int ty = 0; ty < BLOCK_SIZE; ty++)
        matrix[index + ty * cols] = temp[ty + 1][tx + 1];
}

__kernel void nw_top(__global const int *reference, __global int *matrix, int cols, int penalty, int i)
{
    __local int temp[BLOCK_SIZE + 1][BLOCK_SIZE + 1];
    __local int ref[BLOCK_SIZE][BLOCK_SIZE];
    int bx = get_group_id(0);
    nw_block(reference, matrix, cols, penalty, bx, i - 1 - bx, temp, ref);
}

__kernel void nw_bottom(__global const int *reference, __global int *matrix, int cols, int penalty, int i,
                        int block_width)
{
    __local int temp[BLOCK_SIZE + 1][BLOCK_SIZE + 1];
    __local int ref[BLOCK_SIZE][BLOCK_SIZE];
    int bx = get_group_id(0);
    nw_block(reference, matrix, cols, penalty, bx + block_width - i, block_width - bx - 1, temp, ref);
}
