// CUDA intrinsics a first kernel meets: reinterpretation (__float_as_int), rounding-mode
// conversions and arithmetic (__float2int_rn, __fmaf_rn), fast math (__powf), min/max on
// floats, clock64, 64-bit and float atomics, atomicInc, the C++ headers <cstdio>, <cmath>,
// <cstdint>, <cfloat>, <climits>. Each is the operation it stands for.
// RUN: %wgperf extract %s -o %t.json --print 2>&1 | FileCheck %s --check-prefixes=CHECK,%cuda_hdrs
// CHECK-NOT: error
// CHECK: atomic global 8B block={{[0-9]+}} base=arg:acc op=fadd
// CHECK: atomic global 8B block={{[0-9]+}} base=arg:t op=umax
// CHECK: atomic global 4B block={{[0-9]+}} base=arg:b op=cmpxchg
// CHECK: atomic global 4B block={{[0-9]+}} base=arg:b op=xchg offset=4
// CHECK: atomic global 4B block={{[0-9]+}} base=arg:b op=min offset=8
// CHECK: atomic global 4B block={{[0-9]+}} base=arg:b op=or offset=12
// atomicInc: the stand-ins make it an add, clang's wrappers ATOM.INC (llvm.nvvm.atomic.load.inc)
// STANDIN: atomic global 4B block={{[0-9]+}} base=arg:b op=add offset=16
// TOOLKIT: atomic global 4B block={{[0-9]+}} base=arg:b op=inc offset=16
// __powf is two MUFU instructions (lg2.approx, ex2.approx: sfu_fast), powf the precise function
// CHECK: totals: {{.*}}sfu_fast=2 sfu_pow=1 sfu_sqrt=1
// RUN: %wgperf predict %t.json --global 65536 --local 256 --arg n=65536 --gpu gtx-980 | FileCheck %s --check-prefix=PRED
// PRED: kernel k1 on NVIDIA GeForce GTX 980
#include <cstdio>
#include <cmath>
#include <cstdint>
#include <cfloat>
#include <climits>
__device__ __forceinline__ float sq(float x) { return x * x; }
__global__ void __launch_bounds__(256, 2) k1(const float *__restrict__ a, float *__restrict__ b, int n, double *acc, unsigned long long *t) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = a[i];
  #pragma unroll 4
  for (int j = 0; j < 8; j++) v = __fmaf_rn(v, 1.0001f, sq(v) * 1e-6f);
  int bits = __float_as_int(v); v = __int_as_float(bits ^ 1);
  v = fmaxf(v, FLT_MIN) + min(3, i) + max(1.0f, v) + fabsf(v) + sqrtf(v) + powf(v, 2.0f) + __powf(v, 1.5f);
  b[i] = v + (float)std::sqrt((double)v) + ::floorf(v) + truncf(v) + rintf(v);
  atomicAdd(acc, (double)v);
  unsigned long long c = clock64(); atomicMax(t, c);
  __threadfence();
  int old = atomicCAS((int *)b, 0, 1); (void)old;
  atomicExch(b + 1, 2.0f); atomicMin((int*)b + 2, i); atomicOr((unsigned*)b + 3, 1u); atomicInc((unsigned*)b + 4, 100u);
  if (i == 0) printf("%f %d\n", v, INT_MAX);
  int64_t q = (int64_t)i * 3; uint32_t r = (uint32_t)q; b[r % n] = __double2float_rn((double)q) + __int2float_rn(r) + __uint2float_rn(r) + __float2int_rn(v);
}

// RUN: %wgperf extract %S/Inputs/cxx/program.cu -o %t.cxx.json 2>&1 | FileCheck %s --check-prefix=CXX
// CXX-NOT: error
// CXX: kernel clamp_scale
