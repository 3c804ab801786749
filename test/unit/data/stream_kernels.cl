/* Kernels for test_cache.c; stream_kernels.json is made from this file by
 *   build/bin/wgperf extract test/unit/data/stream_kernels.cl -o test/unit/data/stream_kernels.json
 */

/* A warp per group reads a table of 1024 floats (4 KB) twice over, 32
 * iterations apart, and a stream of new lines of big in between: the table's
 * lines stay in L1 for their second read only if the stream's lines do not
 * push them out first (volatile: the second read is a load). */
__kernel void table_and_stream(__global const float *table_, __global const float *big, __global float *out, int n) {
  int lane = get_local_id(0), g = get_group_id(0);
  volatile __global const float *table = table_; /* read again, not reused from registers */
  float s = 0;
#pragma unroll
  for (int j = 0; j < 64; j++)
    s += table[lane + 32 * (j % 32)] * big[g * 32 + lane + j * n];
  out[g * 32 + lane] = s;
}
