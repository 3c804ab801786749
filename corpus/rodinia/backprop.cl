/* backprop: the two kernels of a neural-network training step (Rodinia
 * back-propagation pattern).  layerforward: 16x16 work-groups; row 0 loads
 * the input slice into local memory, every work-item multiplies one weight,
 * and a tree reduction down the columns (stride doubles, `ty % (2*s)` picks
 * the active rows) leaves per-group partial sums.  adjust_weights: a 2-D
 * update with momentum; the first row of the first group also updates the
 * bias.  65,536 input nodes, 16 hidden nodes: grid 1x4096 groups of 16x16. */
#define HEIGHT 16
#define WIDTH 16
#define ETA 0.3f
#define MOMENTUM 0.3f

__kernel void layerforward(__global const float *input_units, __global float *input_weights,
                           __global float *hidden_partial_sum, int in, int hid)
{
    __local float input_node[HEIGHT];
    __local float weight_matrix[HEIGHT][WIDTH];
    int by = get_group_id(1);
    int tx = get_local_id(0);
    int ty = get_local_id(1);
    int index = (hid + 1) * HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1);
    int index_in = HEIGHT * by + ty + 1;

    if (tx == 0)
        input_node[ty] = input_units[index_in];
    barrier(CLK_LOCAL_MEM_FENCE);
    weight_matrix[ty][tx] = input_weights[index] * input_node[ty];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = 1; s < HEIGHT; s *= 2) {
        if (ty % (2 * s) == 0)
            weight_matrix[ty][tx] += weight_matrix[ty + s][tx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    input_weights[index] = weight_matrix[ty][tx];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (tx == 0)
        hidden_partial_sum[by * hid + ty] = weight_matrix[tx][ty];
}

__kernel void adjust_weights(__global const float *delta, int hid, __global const float *ly, int in,
                             __global float *w, __global float *oldw)
{
    int by = get_group_id(1);
    int tx = get_local_id(0);
    int ty = get_local_id(1);
    int index = (hid + 1) * HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1);
    int index_y = HEIGHT * by + ty + 1;
    int index_x = tx + 1;

    w[index] += ETA * delta[index_x] * ly[index_y] + MOMENTUM * oldw[index];
    oldw[index] = ETA * delta[index_x] * ly[index_y] + MOMENTUM * oldw[index];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (ty == 0 && by == 0) {
        w[index_x] += ETA * delta[index_x] + MOMENTUM * oldw[index_x];
        oldw[index_x] = ETA * delta[index_x] + MOMENTUM * oldw[index_x];
    }
}
