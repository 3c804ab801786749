__kernel void saxpy(__global const float *x, __global float *y, float a, int n) {
  int i = get_global_id(0);
  if (i < n)
    y[i] = a * x[i] + y[i];
}
__kernel void blur(__global const float *in, __global float *out, __local float *tile, int w) {
  int x = get_global_id(0), y = get_global_id(1), lx = get_local_id(0), ly = get_local_id(1);
  tile[ly * get_local_size(0) + lx] = in[y * w + x];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[y * w + x] = tile[ly * get_local_size(0) + lx] * 0.5f;
}
