/* matmul_padded: tiled matrix multiply for sizes that are not multiples of
 * the tile (the classic shared-memory matmul with zero padding).  16x16
 * tiles of A and B are staged in local memory; loads beyond the matrix
 * store 0 instead (work-item branches on the last tile row and column),
 * the tile loop runs ceil(K/16) times (an argument expression), and only
 * in-range work-items write C.  1000x1000x1000 on a 1008x1008 NDRange,
 * 16x16 work-groups. */
#define TILE 16

__kernel void matmul_padded(__global const float *A, __global const float *B, __global float *C, int M, int N, int K)
{
    __local float As[TILE][TILE];
    __local float Bs[TILE][TILE];
    int col = get_global_id(0), row = get_global_id(1);
    int tx = get_local_id(0), ty = get_local_id(1);
    float acc = 0.0f;
    int ntiles = (K + TILE - 1) / TILE;
    for (int t = 0; t < ntiles; t++) {
        int ak = t * TILE + tx, bk = t * TILE + ty;
        As[ty][tx] = (row < M && ak < K) ? A[row * K + ak] : 0.0f;
        Bs[ty][tx] = (bk < K && col < N) ? B[bk * N + col] : 0.0f;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TILE; k++)
            acc = mad(As[ty][k], Bs[k][tx], acc);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}
