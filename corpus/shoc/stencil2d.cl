/* stencil2d: one sweep of a weighted 9-point stencil (the pattern of
 * SHOC's Stencil2D).  Each 16x16 work-group stages an 18x18 tile with a
 * one-cell halo in local memory: every work-item loads its cell, edge
 * work-items load the halo rows and columns and the four corners load the
 * diagonal cells (work-item branches), then all read nine local values.
 * The grid has a fixed one-cell border that the NDRange skips.  4096x4096
 * interior, 16x16 work-groups. */
#define T 16

__kernel void stencil9(__global const float *data, __global float *newData, int ncols, float wCenter,
                       float wCardinal, float wDiagonal)
{
    __local float tile[T + 2][T + 2];
    int lx = get_local_id(0), ly = get_local_id(1);
    int gx = get_global_id(0) + 1, gy = get_global_id(1) + 1;
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
    barrier(CLK_LOCAL_MEM_FENCE);

    float center = tile[ly + 1][lx + 1];
    float cardinal = tile[ly][lx + 1] + tile[ly + 2][lx + 1] + tile[ly + 1][lx] + tile[ly + 1][lx + 2];
    float diagonal = tile[ly][lx] + tile[ly][lx + 2] + tile[ly + 2][lx] + tile[ly + 2][lx + 2];
    newData[gy * w + gx] = wCenter * center + wCardinal * cardinal + wDiagonal * diagonal;
}
