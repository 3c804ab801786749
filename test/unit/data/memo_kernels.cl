/* Kernels for test_analyze.c's kept request costs; memo_kernels.json is made
 * from this file by
 *   build/bin/wgperf extract test/unit/data/memo_kernels.cl -o test/unit/data/memo_kernels.json -- -fno-unroll-loops
 */

/* interleaved addressing: the stride of lid changes, the offset stays 0 */
__kernel void interleaved(__global const float *in, __global float *out, __local float *scratch) {
  unsigned lid = get_local_id(0);
  scratch[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (unsigned s = 1; s < get_local_size(0); s *= 2) {
    if (2 * s * lid < get_local_size(0))
      scratch[2 * s * lid] += scratch[2 * s * lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    out[get_group_id(0)] = scratch[0];
}

/* lane l runs l iterations: each iteration one lane fewer, the same form */
__kernel void lane_trips(__global const float *a, __global float *out, int w) {
  int x = get_global_id(0);
  float s = 0;
  for (int k = 0; k < (int)get_local_id(0); k++)
    s += a[k * w + x];
  out[x] = s;
}

/* branches on the local ids alone (with an argument), and one that also
 * reads the loop counter: the tracer remembers the first kind per warp */
__kernel void lid_branches(__global float *a, int n) {
  int tx = get_local_id(0), ty = get_local_id(1);
  int i = get_global_id(1) * n + get_global_id(0);
  float s = a[i];
  if (tx == 0)
    a[get_group_id(0)] = s;
  if ((ty & 3) == 0 && tx < n)
    a[i + 1] = s;
  for (int k = 0; k < 4; k++)
    if (tx % 3 == k)
      a[k] = s;
}

/* stride-2 shared loads moving by 32 words (128 B) an iteration: on Kepler
 * the words 2l and 2l + 32 share a 64-bit bank row only when they lie in the
 * same 64-word segment, so the conflicts alternate from one request to the
 * next although the form is the same up to the translation */
__kernel void shared_shift(__global float *out, __local float *tile, int n) {
  unsigned lid = get_local_id(0);
  float s = 0;
  for (int i = 0; i < n; i++)
    s += tile[2 * lid + 32 * i];
  out[get_global_id(0)] = s;
}
