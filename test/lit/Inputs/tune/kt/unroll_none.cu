// unroll.cu without its #pragma unroll (the same lines): what Kernel Tuner
// compiles for loop_unroll_factor_k = 0.
//
//
//
#include "unroll_rows.h"

__global__ void sum_rows(const float *in, float *out) {
  int i = blockIdx.x * block_size_x + threadIdx.x;
  float s = 0.0f;

  for (int k = 0; k < ROWS; k++)
    s += in[k * COLUMNS + i];
  out[i] = s;
}
