// A __noinline__ helper: the model inlines every call (its normalization), which
// nvcc does not do for this one; the plugin says so, naming it (BAT's FFT and
// Sort spaces tune INLINE switches that the model therefore cannot tell apart).
// A __forceinline__ helper is not named, nor is anything at -O0 (every function
// noinline there).
// RUN: %wgperf predict %s --global 1024 --local 128 --buffer out=4096 --buffer in=4096 2>&1 | FileCheck %s
// CHECK: wgperf: warning: kernel 'k': calls 'twice(float)' (__noinline__), which the model takes as inlined: nvcc keeps the call, whose cost (and arguments passed through local memory) is not modelled
// CHECK-NOT: thrice
// CHECK: time
// RUN: %wgperf predict %s -O0 --global 1024 --local 128 --buffer out=4096 --buffer in=4096 2>&1 | FileCheck %s --check-prefix=O0
// O0-NOT: warning
// O0: time
__device__ __noinline__ float twice(float x) { return 2.0f * x; }
__device__ __forceinline__ float thrice(float x) { return 3.0f * x; }

extern "C" __global__ void k(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = twice(in[i]) + thrice(in[i]);
}
