/* matmul_padded: tiled matrix multiply with zero padding for ragged
 * sizes; CUDA twin of matmul_padded.cl.  Blocks of 16x16. */
#define TILE 16

extern "C" __global__ void matmul_padded(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int col = (blockIdx.x * blockDim.x + threadIdx.x), row = blockIdx.y * blockDim.y + threadIdx.y;
    int tx = threadIdx.x, ty = threadIdx.y;
    float acc = 0.0f;
    int ntiles = (K + TILE - 1) / TILE;
    for (int t = 0; t < ntiles; t++) {
        int ak = t * TILE + tx, bk = t * TILE + ty;
        As[ty][tx] = (row < M && ak < K) ? A[row * K + ak] : 0.0f;
        Bs[ty][tx] = (bk < K && col < N) ? B[bk * N + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; k++)
            acc = fmaf(As[ty][k], Bs[k][tx], acc);
        __syncthreads();
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}
