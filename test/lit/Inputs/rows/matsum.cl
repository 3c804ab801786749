/* Element-wise S = A + B over a w x w matrix, two mappings of the 2-D
 * work-item index (as the amaris-nvprof matrix_sum kernels):
 * columns: x is the row, so the lanes of a warp are w floats apart and a
 *          wave of groups touches one 32 B sector of each of many rows;
 * rows:    x is the column, so a warp reads consecutive floats. */
__kernel void columns(__global float *s, __global const float *a, __global const float *b, int w) {
  int i = get_global_id(0), j = get_global_id(1);
  int t = i * w + j;
  s[t] = a[t] + b[t];
}

__kernel void rows(__global float *s, __global const float *a, __global const float *b, int w) {
  int i = get_global_id(1), j = get_global_id(0);
  int t = i * w + j;
  s[t] = a[t] + b[t];
}
