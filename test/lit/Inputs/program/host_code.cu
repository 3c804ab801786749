// Host code as real CUDA programs write it, which compiles with nvcc and did not against
// wgperf's stand-in headers (issue 35's list): a <<<...>>> launch without including
// cuda_runtime.h, exit and malloc without <stdlib.h>, time() without <time.h>, UINT_MAX,
// host calls of ceil, sqrt and fabs, max(1, n) in host code, __align__, CUDART_VERSION,
// cudaDeviceProp, events, cudaMemcpyToSymbol, `register` and a narrowing initializer.
#include <limits.h>
#include <math.h>
#if CUDART_VERSION < 3000
struct double3 { double x, y, z; };
#endif
struct __align__(16) particle { float x, y, z, w; };
__constant__ float coeff[4];
__global__ void step(particle *p, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && i < UINT_MAX)
    p[i].x += coeff[0] * p[i].w;
}
int main(int argc, char **argv) {
  register int n = argc > 1 ? atoi(argv[1]) : 1 << 20;
  int dims[2] = {n / 2.0, 2};
  unsigned blocks = (unsigned)ceil(n / 256.0) + (unsigned)sqrt(fabs(-4.0)) * 0 + max(1, dims[1]) * 0;
  srand(time(NULL));
  particle *h = (particle *)malloc(n * sizeof(particle)), *d;
  if (!h)
    exit(1);
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  float c[4] = {1, 2, 3, 4};
  cudaMemcpyToSymbol(coeff, c, sizeof c);
  cudaMalloc((void **)&d, n * sizeof(particle));
  cudaEventRecord(start, 0);
  step<<<blocks, 256>>>(d, n);
  cudaEventRecord(stop, 0);
  cudaEventSynchronize(stop);
  free(h);
  return 0;
}
