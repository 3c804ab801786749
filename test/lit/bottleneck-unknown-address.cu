// An access whose addresses come from loaded data reads places the analysis draws
// at random over its buffer (a hash of the data); when that makes it the
// bottleneck, the line says the cost depends on the data, not that it is
// uncoalesced. A known strided access still is "uncoalesced".
// RUN: %wgperf predict %s --kernel hist --grid 40 --block 256 --arg n=1048576 --buffer hist=1024 --gpu t4 | FileCheck %s
// CHECK: bottleneck  global atomics at {{.*}}bottleneck-unknown-address.cu:{{[0-9]+}} read places that depend on loaded data (taken as spread at random over their buffer; --buffer gives its size): {{[0-9.]+}}x the bytes they use
// RUN: %wgperf predict %s --kernel strided --global 1048576 --local 256 --gpu t4 | FileCheck %s --check-prefix=STRIDE
// STRIDE: bottleneck  global loads at {{.*}}bottleneck-unknown-address.cu:{{[0-9]+}} move {{[0-9.]+}}x the bytes they use: uncoalesced
__global__ void hist(const unsigned char *__restrict__ img, unsigned int *hist, int n) {
  int stride = blockDim.x * gridDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    atomicAdd(&hist[img[i]], 1u);
}
__global__ void strided(const float *x, float *z) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  z[i] = x[i * 8];
}
