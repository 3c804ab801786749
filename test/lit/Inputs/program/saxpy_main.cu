// A whole CUDA program as a GPU programmer writes it: runtime header, host
// code, <<<...>>> launches.  wgperf models the kernels; the host code only
// has to parse (include/wgperf/cuda/cuda_runtime.h).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                              \
  do {                                                                           \
    cudaError_t e = (call);                                                      \
    if (e != cudaSuccess) {                                                      \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); \
      exit(1);                                                                   \
    }                                                                            \
  } while (0)

__constant__ float coeff[4];

__global__ void saxpy(int n, float a, const float *__restrict__ x, float *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i] * coeff[i % 4];
}

// one warp sum per warp, by shuffles
__global__ void warp_sums(const float *x, float *sums, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.0f;
  for (int o = warpSize / 2; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffffu, v, o);
  if (threadIdx.x % warpSize == 0)
    sums[i / warpSize] = v;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1 << 20;
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  printf("%s: %d SMs, warp %d\n", prop.name, prop.multiProcessorCount, prop.warpSize);
  float *x, *y, *h = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; i++)
    h[i] = 1.0f;
  float c[4] = {1, 2, 3, 4};
  CHECK(cudaMemcpyToSymbol(coeff, c, sizeof c));
  CHECK(cudaMalloc(&x, n * sizeof(float)));
  CHECK(cudaMalloc(&y, n * sizeof(float)));
  CHECK(cudaMemcpy(x, h, n * sizeof(float), cudaMemcpyHostToDevice));
  cudaEvent_t t0, t1;
  cudaEventCreate(&t0);
  cudaEventCreate(&t1);
  cudaEventRecord(t0);
  dim3 block(256), grid((n + block.x - 1) / block.x);
  saxpy<<<grid, block>>>(n, 2.0f, x, y);
  warp_sums<<<grid, block, 0, 0>>>(x, y, n);
  CHECK(cudaGetLastError());
  cudaEventRecord(t1);
  cudaEventSynchronize(t1);
  float ms;
  cudaEventElapsedTime(&ms, t0, t1);
  printf("%.3f ms\n", ms);
  cudaFree(x);
  cudaFree(y);
  free(h);
  return 0;
}
