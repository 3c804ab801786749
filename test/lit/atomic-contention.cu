// Global atomics on one address are applied one at a time by the L2 slice that holds it
// (memory.atomic_same_address_per_cycle, 0.69 per cycle when the description does not say:
// measured on the H100). Every thread adding into one sum is bound by that; adding within
// the block first leaves one atomic per block and no such bound.
// RUN: %wgperf predict %s --kernel sum_naive --global 16777216 --local 256 --arg n=16777216 | FileCheck %s
// CHECK: time        1.2{{[0-9]*}}e+04 us
// CHECK: limited by atomic_contention
// CHECK: bottleneck  atomics on one address: 16.8 million atomic operations on the busiest address
// RUN: %wgperf predict %s --kernel sum_naive --global 16777216 --local 256 --arg n=16777216 --json | FileCheck %s --check-prefix=JSON
// JSON: "atomic_us": 12{{[0-9][0-9][0-9]}}.{{[0-9]+}}
// JSON: "bound": "atomic_contention"
// RUN: %wgperf predict %s --kernel sum_block --global 16777216 --local 256 --arg n=16777216 | FileCheck %s --check-prefix=BLOCK
// BLOCK-NOT: atomic_contention
// BLOCK: time {{ *}}{{[0-9]+(\.[0-9]+)?}} us
__global__ void sum_naive(const float *x, float *total, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(total, x[i]);
}
__global__ void sum_block(const float *x, float *total, int n) {
  __shared__ float s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i < n ? x[i] : 0.0f;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k /= 2) {
    if (threadIdx.x < k)
      s[threadIdx.x] += s[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    atomicAdd(total, s[0]);
}
