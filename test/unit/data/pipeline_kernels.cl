/* Kernels for test_pipeline.c; pipeline_kernels.json is made from this file by
 *   build/bin/wgperf extract test/unit/data/pipeline_kernels.cl -o test/unit/data/pipeline_kernels.json -- -fno-unroll-loops
 */
__kernel void tiled(__global const float *a, __global float *out, __local float *tile, int n) {
  int lid = get_local_id(0);
  float s = 0;
  for (int t = 0; t < n; ++t) {
    tile[lid] = a[t * get_global_size(0) + get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    s += tile[(lid + 1) % get_local_size(0)] * 2.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = s;
}

__kernel void sfu_heavy(__global float *a, int n) {
  int i = get_global_id(0);
  float x = a[i];
  for (int k = 0; k < n; ++k)
    x = sin(x) * exp(x) + sqrt(x);
  a[i] = x;
}

/* Warp specialization: the group's first warp runs one loop, the second
 * another; no two warps are ever in the same loop. */
__kernel void twoloops(__global float *a, int n) {
  int lid = get_local_id(0);
  float s = 0;
  if (lid < 32) {
    for (int j = 0; j < n; j++)
      s += a[j] * 2.0f;
  } else {
    for (int j = 0; j < n; j++)
      s = s * a[j + 1] + 3.0f;
  }
  a[get_global_id(0)] = s;
}

/* Warps at different depths: the first warp runs one loop, the second a
 * nest whose inner loop is long. */
__kernel void nestloops(__global float *a, int n) {
  int lid = get_local_id(0);
  float s = 0;
  if (lid < 32) {
    for (int j = 0; j < n * 1000; j++)
      s += a[j] * 2.0f;
  } else {
    for (int i = 0; i < n; i++)
      for (int j = 0; j < 1000; j++)
        s = s * a[i + j] + 3.0f;
  }
  a[get_global_id(0)] = s;
}

/* The first warp waits at the barrier, outside every loop, while the others
 * loop. */
__kernel void waitloop(__global float *a, __local float *t, int n) {
  int lid = get_local_id(0);
  float s = 0;
  if (lid >= 32)
    for (int j = 0; j < n; j++)
      s = s * a[j] + 1.0f;
  t[lid] = s;
  barrier(CLK_LOCAL_MEM_FENCE);
  a[get_global_id(0)] = t[(lid + 32) % get_local_size(0)];
}

/* Undefined in OpenCL (a barrier that only some warps of the group reach),
 * but a model can say it: the first warp waits at its barrier until the
 * other has left its loop; no steady state to skip. */
__kernel void divbar(__global float *a, int n) {
  int lid = get_local_id(0);
  float s = 0;
  if (lid < 32) {
    for (int j = 0; j < n; j++) {
      s += a[j];
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  } else {
    for (int j = 0; j < n; j++)
      s = s * a[j + 1] + 3.0f;
  }
  a[get_global_id(0)] = s;
}

/* A gather: the load of x needs the value the load of idx returns. */
__kernel void gather(__global const int *idx, __global const float *x, __global float *out) {
  int i = get_global_id(0);
  out[i] = x[idx[i]];
}

/* The same two loads, independent of each other. */
__kernel void pairload(__global const int *idx, __global const float *x, __global float *out) {
  int i = get_global_id(0);
  out[i] = x[i] + (float)idx[i];
}
