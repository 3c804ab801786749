// OpenCL: Kernel Tuner writes loop_unroll_factor_k as a #define, 0 included
// (its CUDA-only rule takes the pragma out); clang reads `#pragma unroll 0`
// as 1: "do not unroll".
#include "unroll_rows.h"

__kernel void sum_rows(__global const float *in, __global float *out) {
  int i = get_global_id(0);
  float s = 0.0f;
  #pragma unroll loop_unroll_factor_k
  for (int k = 0; k < ROWS; k++)
    s += in[k * COLUMNS + i];
  out[i] = s;
}
