// A kernel that stores nothing its work-group does not own (a store left out,
// or commented out as in one version of BAT's GEMM): the optimizer removes the
// work whose results are never stored, so the prediction is of an almost
// empty kernel, and the plugin says why.  Stores to shared or private memory
// alone do not count; a global store or an atomic does, and then nothing is said.
// RUN: %wgperf predict %s --kernel discards --global 1048576 --local 256 --buffer in=4194304 --arg n=1048576 2>&1 | FileCheck %s
// CHECK: wgperf: warning: kernel 'discards': stores nothing that outlives a work-group (no store to global memory, atomic or call that may write): the optimizer removed the work whose results are never stored, and what is predicted is what is left
// CHECK: time
// RUN: %wgperf predict %s --kernel shared_only --global 1048576 --local 256 --buffer in=4194304 --arg n=1048576 2>&1 | FileCheck %s --check-prefix=SHARED
// SHARED: wgperf: warning: kernel 'shared_only': stores nothing that outlives a work-group
// (the plugin speaks of every kernel of the module it compiled)
// RUN: %wgperf predict %s --kernel stores --global 1048576 --local 256 --buffer in=4194304 --buffer out=4194304 --arg n=1048576 2>&1 | FileCheck %s --check-prefix=STORES
// RUN: %wgperf predict %s --kernel adds --global 1048576 --local 256 --buffer in=4194304 --buffer total=4 --arg n=1048576 2>&1 | FileCheck %s --check-prefix=STORES
// STORES-NOT: kernel 'stores': stores nothing
// STORES-NOT: kernel 'adds': stores nothing
// STORES: time
__global__ void discards(const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.0f;
  for (int k = 0; k < 64; k++)
    s += in[(i + k) % n] * 2.0f;
  (void)s;
}
__global__ void shared_only(const float *in, int n) {
  __shared__ float t[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  t[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
}
__global__ void stores(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * 2.0f;
}
__global__ void adds(float *total, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(total, in[i]);
}
