// Each thread sums a 15x15 window for ROWS output rows STRIDE rows apart,
// reading a tile staged in shared memory; the loops unroll fully, and the
// rows' sums read the same staged values at filter rows STRIDE apart
// (register-estimate.test).
#ifndef ROWS
#define ROWS 5
#endif
#define STRIDE 8
#define WIN 15
#define BX 16

__constant__ float weights[WIN * WIN];

__global__ void row_sums(float *out, const float *in, int width) {
  __shared__ float tile[ROWS * STRIDE + WIN - 1][BX + WIN - 1];
  int tx = threadIdx.x, ty = threadIdx.y;
  int x0 = blockIdx.x * BX, y0 = blockIdx.y * ROWS * STRIDE;
  for (int r = ty; r < ROWS * STRIDE + WIN - 1; r += STRIDE)
    for (int c = tx; c < BX + WIN - 1; c += BX)
      tile[r][c] = in[(y0 + r) * width + x0 + c];
  __syncthreads();
  float acc[ROWS];
#pragma unroll
  for (int k = 0; k < ROWS; k++)
    acc[k] = 0.0f;
#pragma unroll
  for (int i = 0; i < WIN; i++)
#pragma unroll
    for (int j = 0; j < WIN; j++)
#pragma unroll
      for (int k = 0; k < ROWS; k++)
        acc[k] += tile[ty + k * STRIDE + i][tx + j] * weights[i * WIN + j];
#pragma unroll
  for (int k = 0; k < ROWS; k++)
    out[(y0 + ty + k * STRIDE) * width + x0 + tx] = acc[k];
}
