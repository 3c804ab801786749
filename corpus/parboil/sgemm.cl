/* sgemm: register-tiled single-precision GEMM in
 * Parboil's column-major layout, C = alpha*A*B + beta*C (the pattern of
 * Parboil's SGEMM).  A 16x8 work-group computes a 128x16 tile of C: each
 * work-item keeps a column strip of 16 results in registers (a private
 * array indexed by unrolled constants), A is streamed from global memory
 * (coalesced along m) and a 8x16 tile of B is staged in local memory per
 * step of 8 along k.  1024x1024x1024, 8x64 groups of 16x8. */
#define TILE_N 16
#define TILE_TB_HEIGHT 8
#define TILE_M (TILE_N * TILE_TB_HEIGHT)

__kernel void sgemm(__global const float *A, int lda, __global const float *B, int ldb, __global float *C, int ldc,
                    int k, float alpha, float beta)
{
    __local float b_s[TILE_TB_HEIGHT][TILE_N];
    float c[TILE_N];
    for (int i = 0; i < TILE_N; i++)
        c[i] = 0.0f;
    int mid = get_local_id(1) * get_local_size(0) + get_local_id(0);
    int m = get_group_id(0) * TILE_M + mid;
    int n = get_group_id(1) * TILE_N + get_local_id(0);

    for (int i = 0; i < k; i += TILE_TB_HEIGHT) {
        b_s[get_local_id(1)][get_local_id(0)] = B[n + (i + get_local_id(1)) * ldb];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int j = 0; j < TILE_TB_HEIGHT; j++) {
            float a = A[m + (i + j) * lda];
            for (int kk = 0; kk < TILE_N; kk++)
                c[kk] += a * b_s[j][kk];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    int t = ldc * get_group_id(1) * TILE_N + m;
    for (int i = 0; i < TILE_N; i++)
        C[t + i * ldc] = C[t + i * ldc] * beta + alpha * c[i];
}
