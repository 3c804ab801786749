// Half precision through <cuda_fp16.h> (wgperf's own, on clang's _Float16): __half and
// __half2 arithmetic are the fp16 cost classes, a __half2 operation two lanes of them;
// conversions, comparisons, math functions, operators and shuffles of half values compile.
// Against a CUDA toolkit, cuda_fp16.hpp writes each operation as inline PTX (mul.f16,
// fma.rn.f16x2, cvt.rn.f16.f32 in blocks with register moves), which the plugin costs by
// opcode; a * x + y is then the two instructions it writes (ptxas may fuse them).
// RUN: %wgperf extract %s -o %t.json --print 2>&1 | FileCheck %s --check-prefixes=CHECK,%cuda_hdrs
// RUN: env WGPERF_CUDA_PATH= %wgperf extract %s -o %t.standin.json --print 2>&1 | FileCheck %s --check-prefixes=CHECK,STANDIN
// CHECK-NOT: warning: kernel
// CHECK-LABEL: kernel h2axpy
// CHECK: fp16_fma=2
// CHECK-LABEL: kernel haxpy
// STANDIN: fp16_fma=1
// TOOLKIT: fp16_add=1 fp16_mul=1
// CHECK-LABEL: kernel hreduce
// CHECK: shfl=
// A __half or __half2 passed by value is one argument of its type, needing no value.
// RUN: %wgperf extract %s -o %t2.json | FileCheck %s --check-prefix=ARGS
// ARGS: args    n: int (4 B), a: __half2 (4 B), x: global const __half2* (4 B elements)
// ARGS: args    n: int (4 B), a: __half (2 B), x: global const __half* (2 B elements)
// RUN: %wgperf predict %t.json --kernel haxpy --global 1048576 --local 256 --arg n=1048576 --gpu h100-sxm \
// RUN:   | FileCheck %s --check-prefix=PRED
// PRED: kernel haxpy on NVIDIA H100 SXM
#include <cuda_fp16.h>

__global__ void haxpy(int n, __half a, const __half *x, __half *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

__global__ void h2axpy(int n, __half2 a, const __half2 *x, __half2 *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = __hfma2(a, x[i], y[i]);
}

__global__ void hreduce(const half *x, float *out, int n) {
  __shared__ float part[32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  half v = i < n ? x[i] : __float2half(0.0f);
  half2 p = __halves2half2(v, hsqrt(__habs(v)));
  for (int o = 16; o > 0; o /= 2) {
    p = __hadd2(p, __shfl_xor_sync(0xffffffffu, p, o));
    v += __shfl_down_sync(0xffffffffu, v, o);
  }
  if (threadIdx.x % 32 == 0)
    part[threadIdx.x / 32] = __half2float(v) + __low2float(p) + __high2float(p);
  __syncthreads();
  if (threadIdx.x == 0 && __hgt(v, __float2half(0.5f))) {
    float s = 0;
    for (int w = 0; w < blockDim.x / 32; w++)
      s += part[w];
    out[blockIdx.x] = s;
  }
}
