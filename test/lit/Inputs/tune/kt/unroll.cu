// A loop unrolled by a tuning parameter, as Kernel Tuner writes it for CUDA:
// loop_unroll_factor_k is a constexpr int (nvcc does not expand a macro after
// #pragma unroll), and at 0 Kernel Tuner takes the pragma out, leaving the
// compiler's own unrolling (not `#pragma unroll 0`, which clang reads as
// "do not unroll").
#include "unroll_rows.h"

__global__ void sum_rows(const float *in, float *out) {
  int i = blockIdx.x * block_size_x + threadIdx.x;
  float s = 0.0f;
  #pragma unroll loop_unroll_factor_k
  for (int k = 0; k < ROWS; k++)
    s += in[k * COLUMNS + i];
  out[i] = s;
}
