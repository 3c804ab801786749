__kernel void report(__global const float *x, int n) {
  int i = get_global_id(0);
  if (i == 0)
    printf("first %f of %d\n", x[0], n);
}
