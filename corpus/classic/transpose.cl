/* transpose: matrix transpose, naive and tiled (the classic pair of the
 * CUDA SDK's transpose example).  transpose_naive reads rows and writes
 * columns (the store is uncoalesced).  transpose_tiled stages a 32x32 tile
 * in local memory padded to 33 columns (no bank conflicts on the column
 * read) with 32x8 work-groups, each work-item copying four rows (a loop
 * with a constant trip count).  4096x4096 floats. */
#define TILE 32
#define ROWS 8

__kernel void transpose_naive(__global float *odata, __global const float *idata, int width, int height)
{
    int x = get_global_id(0);
    int y = get_global_id(1);
    if (x < width && y < height)
        odata[x * height + y] = idata[y * width + x];
}

__kernel void transpose_tiled(__global float *odata, __global const float *idata, int width, int height)
{
    __local float tile[TILE][TILE + 1];
    int x = get_group_id(0) * TILE + get_local_id(0);
    int y = get_group_id(1) * TILE + get_local_id(1);
    for (int j = 0; j < TILE; j += ROWS)
        tile[get_local_id(1) + j][get_local_id(0)] = idata[(y + j) * width + x];
    barrier(CLK_LOCAL_MEM_FENCE);
    x = get_group_id(1) * TILE + get_local_id(0);
    y = get_group_id(0) * TILE + get_local_id(1);
    for (int j = 0; j < TILE; j += ROWS)
        odata[(y + j) * height + x] = tile[get_local_id(0)][get_local_id(1) + j];
}
