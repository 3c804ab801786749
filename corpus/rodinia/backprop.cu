/* backprop: neural-network training step (Rodinia back-propagation
 * pattern); CUDA twin of backprop.cl.  Blocks of 16x16, grid 1 x in/16. */
#define HEIGHT 16
#define WIDTH 16
#define ETA 0.3f
#define MOMENTUM 0.3f

__global__ void layerforward(const float *input_units, float *input_weights, float *hidden_partial_sum, int in,
                             int hid)
{
    __shared__ float input_node[HEIGHT];
    __shared__ float weight_matrix[HEIGHT][WIDTH];
    int by = blockIdx.y;
    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int index = (hid + 1) * HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1);
    int index_in = HEIGHT * by + ty + 1;

    if (tx == 0)
        input_node[ty] = input_units[index_in];
    __syncthreads();
    weight_matrix[ty][tx] = input_weights[index] * input_node[ty];
    __syncthreads();
    for (int s = 1; s < HEIGHT; s *= 2) {
        if (ty % (2 * s) == 0)
            weight_matrix[ty][tx] += weight_matrix[ty + s][tx];
        __syncthreads();
    }
    input_weights[index] = weight_matrix[ty][tx];
    __syncthreads();
    if (tx == 0)
        hidden_partial_sum[by * hid + ty] = weight_matrix[tx][ty];
}

__global__ void adjust_weights(const float *delta, int hid, const float *ly, int in, float *w, float *oldw)
{
    int by = blockIdx.y;
    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int index = (hid + 1) * HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1);
    int index_y = HEIGHT * by + ty + 1;
    int index_x = tx + 1;

    w[index] += ETA * delta[index_x] * ly[index_y] + MOMENTUM * oldw[index];
    oldw[index] = ETA * delta[index_x] * ly[index_y] + MOMENTUM * oldw[index];
    __syncthreads();
    if (ty == 0 && by == 0) {
        w[index_x] += ETA * delta[index_x] + MOMENTUM * oldw[index_x];
        oldw[index_x] = ETA * delta[index_x] + MOMENTUM * oldw[index_x];
    }
}
