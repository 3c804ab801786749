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
