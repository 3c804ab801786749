/* sgemm: register-tiled SGEMM (Parboil SGEMM pattern); CUDA twin of
 * sgemm.cl.  Blocks of 16x8, grid m/128 x n/16. */
#define TILE_N 16
#define TILE_TB_HEIGHT 8
#define TILE_M (TILE_N * TILE_TB_HEIGHT)

extern "C" __global__ void sgemm(const float *A, int lda, const float *B, int ldb, float *C, int ldc, int k,
                                 float alpha, float beta)
{
    __shared__ float b_s[TILE_TB_HEIGHT][TILE_N];
    float c[TILE_N];
    for (int i = 0; i < TILE_N; i++)
        c[i] = 0.0f;
    int mid = threadIdx.y * blockDim.x + threadIdx.x;
    int m = blockIdx.x * TILE_M + mid;
    int n = blockIdx.y * TILE_N + threadIdx.x;

    for (int i = 0; i < k; i += TILE_TB_HEIGHT) {
        b_s[threadIdx.y][threadIdx.x] = B[n + (i + threadIdx.y) * ldb];
        __syncthreads();
        for (int j = 0; j < TILE_TB_HEIGHT; j++) {
            float a = A[m + (i + j) * lda];
            for (int kk = 0; kk < TILE_N; kk++)
                c[kk] += a * b_s[j][kk];
        }
        __syncthreads();
    }
    int t = ldc * blockIdx.y * TILE_N + m;
    for (int i = 0; i < TILE_N; i++)
        C[t + i * ldc] = C[t + i * ldc] * beta + alpha * c[i];
}
