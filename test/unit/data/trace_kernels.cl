/* Kernels for test_trace.c; trace_kernels.json is made from this file by
 *   build/bin/wgperf extract test/unit/data/trace_kernels.cl -o test/unit/data/trace_kernels.json -- -fno-unroll-loops
 */
__kernel void vadd(__global const float *a, __global const float *b, __global float *c, int n) {
  int i = get_global_id(0);
  if (i < n)
    c[i] = a[i] + b[i];
}

__kernel void reduce(__global const float *in, __global float *out, __local float *scratch) {
  unsigned lid = get_local_id(0);
  scratch[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (unsigned s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (lid < s)
      scratch[lid] += scratch[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    out[get_group_id(0)] = scratch[0];
}

__kernel void tri(__global float *a, int n) {
  int i = get_global_id(0);
  for (int r = 0; r < n; ++r)
    for (int c = 0; c <= r; ++c)
      a[i] += (float)c;
}

__kernel void gridstride(__global float *a, int n) {
  for (int i = get_global_id(0); i < n; i += get_global_size(0))
    a[i] *= 2.0f;
}

__kernel void spmv(__global const int *rowptr, __global const int *col, __global const float *val,
                   __global const float *x, __global float *y, int n) {
  int i = get_global_id(0);
  if (i >= n)
    return;
  float s = 0;
  for (int j = rowptr[i]; j < rowptr[i + 1]; ++j)
    s += val[j] * x[col[j]];
  y[i] = s;
}

__kernel void evenodd(__global float *a, int n) {
  int i = get_global_id(0);
  for (int k = 0; k < n; ++k) {
    if (k < 3)
      barrier(CLK_GLOBAL_MEM_FENCE);
    else
      a[i] *= 3.0f;
  }
}

/* a loop without global accesses whose result an address after it uses:
 * the cache analysis must not skip it */
__kernel void quiet_then_index(__global float *a, int n) {
  unsigned j = 1;
  for (int k = 0; k < n; ++k)
    j = j * 3u + (unsigned)k;
  a[get_global_id(0) + (j & 63u)] = 1.0f;
}
