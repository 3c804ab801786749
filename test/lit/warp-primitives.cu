// Warp-level primitives from cuda_compat.h: a shuffle is its own cost class
// (`shfl`: the simulator gives it a shared-memory wavefront and latency),
// votes and __activemask count as integer logic, __syncwarp is no block
// barrier, and the bit intrinsics are LLVM's own operations.
// RUN: %clang_cu -O2 -c -emit-llvm %s -o %t.bc
// RUN: %opt -load-pass-plugin=%plugin -passes='print<wgperf>' -disable-output %t.bc | FileCheck %s
// RUN: %opt -load-pass-plugin=%plugin -passes='print<wgperf>' -disable-output %t.bc 2>&1 >/dev/null \
// RUN:   | FileCheck %s --allow-empty --check-prefix=NOWARN
// NOWARN-NOT: unresolved
// (the kernels print in name order)

// Every shuffle form, on 32- and 64-bit values (two shuffles for a double: five).
// CHECK-LABEL: kernel shuffles
// CHECK: totals: {{.*}}shfl=5
extern "C" __global__ void shuffles(int *a, double *d) {
  int i = threadIdx.x;
  a[i] = __shfl_sync(0xffffffffu, a[i], 0) + __shfl_up_sync(0xffffffffu, a[i], 1) +
         __shfl_xor_sync(0xffffffffu, a[i], 2, 16);
  d[i] = __shfl_down_sync(0xffffffffu, d[i], 4);
}

// Votes and bits: no calls left, no barrier.
// CHECK-LABEL: kernel votes
// CHECK-NOT: call=
// CHECK-NOT: barrier=
// CHECK: totals: {{.*}}int_logic=
extern "C" __global__ void votes(const int *in, unsigned *out) {
  int i = threadIdx.x;
  unsigned b = __ballot_sync(__activemask(), in[i] > 0);
  int any = __any_sync(0xffffffffu, in[i] < 0), all = __all_sync(0xffffffffu, in[i] != 0);
  out[i] = __popc(b) + __clz(in[i]) + __ffs(in[i]) + __brev(b) + any + all + __umulhi(b, 3u) + __ldg(in + i);
}

// A warp reduction: five dependent shuffles and adds, unrolled.
// CHECK-LABEL: kernel warp_sum
// CHECK: block 0 {{.*}} shfl=5
// CHECK-NOT: barrier=
// CHECK: totals:
extern "C" __global__ void warp_sum(const float *in, float *out) {
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, o);
  __syncwarp();
  if ((threadIdx.x & 31) == 0)
    out[(blockIdx.x * blockDim.x + threadIdx.x) / 32] = v;
}


// Device printf and assert compile (with the host's <cstdio> and <cassert>)
// and count as one call each, without a warning.
// CHECK-LABEL: kernel with_printf
// CHECK: totals: {{.*}}call=2
#include <cassert>
#include <cstdio>
extern "C" __global__ void with_printf(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 0)
    printf("n=%d\n", n);
  assert(n > 0);
  a[i] *= 2.0f;
}
