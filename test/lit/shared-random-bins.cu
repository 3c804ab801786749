// A shared-memory histogram: the bins come from loaded bytes, so the addresses of the
// atomics are known only at run time. Such lanes are taken to fall at random places in
// the array (256 words over 32 banks: about three lanes on the busiest bank, the mean of
// a fixed set of draws), not all on one bank (32-way, what the histogram was charged
// before).
// RUN: %wgperf analyze %s --kernel histo256 --grid 132 --block 256 --arg n=33792 | FileCheck %s
// CHECK: M{{[0-9]+}} {{.*}} local    atomic histo256::sh {{.*}} [[DEG:[23]\.[0-9]+]] wavefronts, conflict degree [[DEG]] (address unknown: lanes assumed at random places in the array)
// RUN: %wgperf predict %s --kernel histo256 --grid 132 --block 256 --arg n=33792 | FileCheck %s --check-prefix=PRED
// PRED-NOT: bank conflicts
// PRED: bottleneck
#include <cstdint>
__global__ void histo256(const uint8_t *data, unsigned *hist, int n) {
  __shared__ unsigned sh[256];
  for (int b = threadIdx.x; b < 256; b += blockDim.x)
    sh[b] = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&sh[data[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < 256; b += blockDim.x)
    atomicAdd(&hist[b], sh[b]);
}
