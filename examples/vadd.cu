// CUDA vector add, c[i] = a[i] + b[i] for i < n.
//
//   build/bin/wgperf extract examples/vadd.cu
__global__ void vadd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}
