/* A read 16 B off the lines: every request of a warp touches five sectors,
 * the first of which the warp before it already brought in. */
__kernel void offset16(__global const float *a, __global float *out) {
  int i = get_global_id(0);
  out[i] = a[i + 4];
}

/* The same lines read twice: the second request finds all its sectors. */
__kernel void twice(__global const float *a, __global float *out) {
  int i = get_global_id(0);
  out[i] = a[i] + a[(i + 32) % 1048576];
}
