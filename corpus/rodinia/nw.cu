/* nw: Needleman-Wunsch alignment, one anti-diagonal of 16x16 blocks per
 * launch (Rodinia nw pattern); CUDA twin of nw.cl.  Blocks of 16 threads. */
#define BLOCK_SIZE 16

__device__ int maximum(int a, int b, int c)
{
    int k = a <= b ? b : a;
    return k <= c ? c : k;
}

__device__ void nw_block(const int *reference, int *matrix, int cols, int penalty, int b_index_x, int b_index_y,
                         int (*temp)[BLOCK_SIZE + 1], int (*ref)[BLOCK_SIZE])
{
    int tx = threadIdx.x;
    int index = cols * BLOCK_SIZE * b_index_y + BLOCK_SIZE * b_index_x + tx + (cols + 1);
    int index_n = cols * BLOCK_SIZE * b_index_y + BLOCK_SIZE * b_index_x + tx + 1;
    int index_w = cols * BLOCK_SIZE * b_index_y + BLOCK_SIZE * b_index_x + cols;
    int index_nw = cols * BLOCK_SIZE * b_index_y + BLOCK_SIZE * b_index_x;

    if (tx == 0)
        temp[0][0] = matrix[index_nw];
    for (int ty = 0; ty < BLOCK_SIZE; ty++)
        ref[ty][tx] = reference[index + cols * ty];
    __syncthreads();
    temp[tx + 1][0] = matrix[index_w + cols * tx];
    __syncthreads();
    temp[0][tx + 1] = matrix[index_n];
    __syncthreads();

    for (int m = 0; m < BLOCK_SIZE; m++) {
        if (tx <= m) {
            int t_index_x = tx + 1;
            int t_index_y = m - tx + 1;
            temp[t_index_y][t_index_x] = maximum(temp[t_index_y - 1][t_index_x - 1] + ref[t_index_y - 1][t_index_x - 1],
                                                 temp[t_index_y][t_index_x - 1] - penalty,
                                                 temp[t_index_y - 1][t_index_x] - penalty);
        }
        __syncthreads();
    }
    for (int m = BLOCK_SIZE - 2; m >= 0; m--) {
        if (tx <= m) {
            int t_index_x = tx + BLOCK_SIZE - m;
            int t_index_y = BLOCK_SIZE - tx;
            temp[t_index_y][t_index_x] = maximum(temp[t_index_y - 1][t_index_x - 1] + ref[t_index_y - 1][t_index_x - 1],
                                                 temp[t_index_y][t_index_x - 1] - penalty,
                                                 temp[t_index_y - 1][t_index_x] - penalty);
        }
        __syncthreads();
    }
    for (int ty = 0; ty < BLOCK_SIZE; ty++)
        matrix[index + ty * cols] = temp[ty + 1][tx + 1];
}

extern "C" __global__ void nw_top(const int *reference, int *matrix, int cols, int penalty, int i)
{
    __shared__ int temp[BLOCK_SIZE + 1][BLOCK_SIZE + 1];
    __shared__ int ref[BLOCK_SIZE][BLOCK_SIZE];
    int bx = blockIdx.x;
    nw_block(reference, matrix, cols, penalty, bx, i - 1 - bx, temp, ref);
}

extern "C" __global__ void nw_bottom(const int *reference, int *matrix, int cols, int penalty, int i,
                                     int block_width)
{
    __shared__ int temp[BLOCK_SIZE + 1][BLOCK_SIZE + 1];
    __shared__ int ref[BLOCK_SIZE][BLOCK_SIZE];
    int bx = blockIdx.x;
    nw_block(reference, matrix, cols, penalty, bx + block_width - i, block_width - bx - 1, temp, ref);
}
