typedef struct {
  int n;
  float a;
  int stride;
} P;

__kernel void scale_strided(__global float *x, P p) {
  int i = get_global_id(0);
  if (i < p.n)
    x[i * p.stride] *= p.a;
}

/* a kernel another kernel calls keeps its struct argument (no call site is rebuilt) */
__kernel void inner(__global float *x, P p) {
  int i = get_global_id(0);
  if (i < p.n)
    x[i] *= p.a;
}
__kernel void outer(__global float *x, P p) { inner(x, p); }
