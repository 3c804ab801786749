// expf, sinf and pow are libdevice calls (__nv_*): ptxas counts registers
// only once libdevice is linked.
extern "C" __global__ void transcendental(float *a, double *d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  a[i] = expf(a[i]) + sinf(a[i]) + logf(a[i]);
  d[i] = pow(d[i], 1.5);
}
