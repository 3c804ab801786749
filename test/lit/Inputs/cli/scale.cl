// Needs -DFACTOR=... from the command line (wgperf extract ... -- -DFACTOR=2).
#ifndef FACTOR
#error FACTOR must be defined
#endif
__kernel void scale(__global float *x, int n) {
  int i = get_global_id(0);
  if (i < n)
    x[i] *= FACTOR;
}
