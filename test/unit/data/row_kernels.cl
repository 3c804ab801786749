/* Kernels for test_cache.c; row_kernels.json is made from this file by
 *   build/bin/wgperf extract test/unit/data/row_kernels.cl -o test/unit/data/row_kernels.json -- -fno-unroll-loops
 */

/* Two passes over a row of COLS floats per warp (a softmax's max, then its
 * sum): the second finds the first's lines in L1 only if the rows of the
 * groups that share it fit.  The analysis samples the middle of each long
 * pass. */
__kernel void two_pass(__global const float *x, __global float *y, int cols) {
  int row = get_global_id(0) / 32, lane = get_global_id(0) % 32;
  __global const float *in = x + row * cols;
  float m = 0;
  for (int j = lane; j < cols; j += 32)
    m = fmax(m, in[j]);
  float s = 0;
  for (int j = lane; j < cols; j += 32)
    s += in[j] - m;
  y[row * 32 + lane] = s;
}

/* The same with rows of 2048 floats and both passes unrolled: every
 * iteration is traced (volatile: the second pass's loads are not the
 * first's values reused). */
__kernel void two_pass_unrolled(__global const float *x, __global float *y) {
  int row = get_global_id(0) / 32, lane = get_global_id(0) % 32;
  volatile __global const float *in = x + row * 2048;
  float m = 0;
#pragma unroll
  for (int j = 0; j < 2048; j += 32)
    m = fmax(m, in[j + lane]);
  float s = 0;
#pragma unroll
  for (int j = 0; j < 2048; j += 32)
    s += in[j + lane] - m;
  y[row * 32 + lane] = s;
}
