// bfloat16 through <cuda_bf16.h> (wgperf's own, on clang's __bf16), in one file with
// <cuda_fp16.h>: __nv_bfloat16 arithmetic is the fp16 cost classes (rounded to bfloat16 at
// each operation, not computed in float), a __nv_bfloat162 operation two lanes of them;
// conversions to and from float are one conversion each, atomicAdd on 16-bit values is
// one 2-byte atomic and on a pair one per lane (CUDA makes each lane atomic by itself).
// These are the stand-in headers' (the compile without a CUDA toolkit); bf16-toolkit.cu
// checks the same kernels against a toolkit's cuda_bf16.h.
// RUN: env WGPERF_CUDA_PATH= %wgperf extract %s -o %t.json --print | FileCheck %s
// RUN: env WGPERF_CUDA_PATH= %wgperf extract %s -o %t2.json | FileCheck %s --check-prefix=ARGS
// RUN: env WGPERF_CUDA_PATH= %wgperf extract %s -o %t3.json 2>&1 >/dev/null | FileCheck %s --check-prefix=QUIET
// the one line is the driver's: compiled against the stand-ins
// QUIET: warning: {{.*}}bf16.cu: no CUDA toolkit that clang 19 reads (WGPERF_CUDA_PATH is empty); compiled against wgperf's stand-ins{{.*}}
// QUIET-NOT: {{.}}
// RUN: %wgperf predict %t.json --kernel bias_gelu2 --global 1048576 --local 256 --arg n2=1048576 \
// RUN:   --arg cols2=512 --gpu h100-sxm | FileCheck %s --check-prefix=PRED
// RUN: %wgperf analyze %t.json --kernel atomics16 --global 65536 --local 256 --arg n=65536 \
// RUN:   | FileCheck %s --check-prefix=ATOM
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#ifndef CUDART_ZERO_BF16 // CUDA 12's cuda_bf16.h defines them, 11.8's neither (as 12 does)
#define CUDART_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x0000U)
#define CUDART_INF_BF16 __ushort_as_bfloat16((unsigned short)0x7F80U)
#endif

// Each 16-bit atomic add is an fadd of 2 bytes; a pair's are at +0 and +2.
// CHECK-LABEL: kernel atomics16
// CHECK-DAG: mem M{{[0-9]+}} atomic global 2B block={{[0-9]+}} base=arg:h2 op=fadd offset=(mul:nsw 4 {{.*}}
// CHECK-DAG: mem M{{[0-9]+}} atomic global 2B block={{[0-9]+}} base=arg:h2 op=fadd offset=(add:nsw:nuw 2 (mul:nsw 4 {{.*}}
// CHECK-DAG: mem M{{[0-9]+}} atomic global 2B block={{[0-9]+}} base=arg:h op=fadd offset=0 affine
// CHECK-DAG: mem M{{[0-9]+}} atomic global 2B block={{[0-9]+}} base=arg:b op=fadd offset=0 affine
// CHECK-DAG: mem M{{[0-9]+}} atomic global 2B block={{[0-9]+}} base=arg:b2 op=fadd offset=0 affine
// CHECK-DAG: mem M{{[0-9]+}} atomic global 2B block={{[0-9]+}} base=arg:b2 op=fadd offset=2 affine
// CHECK: totals: {{.*}}atom.global=6
// A warp's adds to 32 pairs 4 bytes apart touch 4 sectors, to one pair 1 sector.
// ATOM: M1 {{.*}} global atomic h2 2 2048 4.00 sectors
// ATOM: M2 {{.*}} global atomic h2 2 2048 4.00 sectors
// ATOM: M5 {{.*}} global atomic b2 2 2048 1.00 sectors
// ATOM: M6 {{.*}} global atomic b2 2 2048 1.00 sectors
__global__ void atomics16(const __half2 *g, __half2 *h2, __half *h, __nv_bfloat16 *b, __nv_bfloat162 *b2, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    __half2 v = g[i];
    atomicAdd(h2 + i % 64, v);
    atomicAdd(h, __low2half(v));
    atomicAdd(b, __float2bfloat16(__high2float(v)));
    atomicAdd(b2, __floats2bfloat162_rn(__low2float(v), 1.0f));
  }
}

// y = a x + b on pairs, a and b passed by value: one two-lane fma.
// CHECK-LABEL: kernel axpb2
// CHECK: totals: {{.*}}fp16_fma=2 {{.*}}ld.global.32=1 {{.*}}st.global.32=1
__global__ void axpb2(int n2, __nv_bfloat162 a, __nv_bfloat16 b, __nv_bfloat162 *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n2)
    x[i] = __hfma2(a, x[i], __bfloat162bfloat162(b));
}

// Bias and GELU on bfloat16 values, the arithmetic in float: two loads and a store of 2
// bytes, a conversion for each, the tanh as a special function.
// CHECK-LABEL: kernel bias_gelu
// CHECK: block 1 if.then {{.*}}conv=3 fp32_add=2 {{.*}}ld.global.16=2 sfu_exp=1 st.global.16=1
__device__ __forceinline__ float gelu(float x) {
  return 0.5f * x * (1.0f + tanhf(0.7978845608f * (x + 0.044715f * x * x * x)));
}
__global__ void bias_gelu(__nv_bfloat16 *out, const __nv_bfloat16 *in, const __nv_bfloat16 *bias, int n, int cols) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = __float2bfloat16(gelu(__bfloat162float(in[i]) + __bfloat162float(bias[i % cols])));
}

// The same on pairs: the bias add is one two-lane bfloat16 add (in float it would be
// four conversions and two more fp32 adds), the pair moves as 4 bytes.
// CHECK-LABEL: kernel bias_gelu2
// CHECK: block 1 if.then {{.*}}conv=4 fp16_add=2 fp32_add=2 {{.*}}ld.global.32=2 sfu_exp=2 st.global.32=1
// PRED: kernel bias_gelu2 on NVIDIA H100 SXM
// PRED: time
__global__ void bias_gelu2(__nv_bfloat162 *out, const __nv_bfloat162 *in, const __nv_bfloat162 *bias, int n2, int cols2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n2) {
    float2 x = __bfloat1622float2(__hadd2(in[i], bias[i % cols2]));
    out[i] = __floats2bfloat162_rn(gelu(x.x), gelu(x.y));
  }
}

// Dequantization: an int8 code to bfloat16 (one conversion), times the row's scale in
// bfloat16 (one fp16 multiply); the 1-byte load and the 2-byte store.
// CHECK-LABEL: kernel dequant
// CHECK: totals: {{.*}}conv=1 {{.*}}fp16_mul=1 {{.*}}ld.global.16=1 ld.global.8=1 {{.*}}st.global.16=1
__global__ void dequant(__nv_bfloat16 *w, const signed char *q, const __nv_bfloat16 *scale, int n, int cols) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    w[i] = __int2bfloat16_rn(q[i]) * scale[i / cols];
}

// A dot product with float accumulation: per element two conversions and an fp32 FMA in
// the loop, then a warp reduction by shuffles and one float atomic per warp.
// CHECK-LABEL: kernel dot
// CHECK: block {{[0-9]+}} for.body {{.*}}conv=2 {{.*}}fp32_fma=1 {{.*}}ld.global.16=2
// CHECK: atomic global 4B {{.*}}base=arg:out op=fadd
// CHECK: totals: {{.*}}shfl=5
__global__ void dot(const __nv_bfloat16 *a, const __nv_bfloat16 *b, float *out, int n) {
  float acc = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    acc = fmaf(__bfloat162float(a[i]), __bfloat162float(b[i]), acc);
  for (int o = 16; o > 0; o /= 2)
    acc += __shfl_xor_sync(0xffffffffu, acc, o);
  if (threadIdx.x % 32 == 0)
    atomicAdd(out, acc);
}

// Pairs multiplied and accumulated in bfloat16 (__hfma2: two fp16 FMAs), reduced over
// the warp by shuffling the pair as one word, summed in float at the end.
// CHECK-LABEL: kernel dot2
// CHECK: block {{[0-9]+}} for.body {{.*}}fp16_fma=2 {{.*}}ld.global.32=2
// CHECK: totals: {{.*}}fp16_add=10 fp16_fma=2 {{.*}}shfl=5
__global__ void dot2(const __nv_bfloat162 *a, const __nv_bfloat162 *b, float *out, int n2) {
  __nv_bfloat162 acc = __float2bfloat162_rn(0.0f);
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n2; i += gridDim.x * blockDim.x)
    acc = __hfma2(a[i], b[i], acc);
  for (int o = 16; o > 0; o /= 2)
    acc += __shfl_xor_sync(0xffffffffu, acc, o);
  if (threadIdx.x % 32 == 0)
    out[blockIdx.x * blockDim.x / 32 + threadIdx.x / 32] = __low2float(acc) + __high2float(acc);
}

// Half and bfloat16 side by side: the overloads (__hadd, __hmax, __heq, hsqrt, the
// operators) pick their type, a conversion between the two goes through float, and the
// bfloat16 comparisons, min/max, negation and the rounding-mode conversions compile.
// CHECK-LABEL: kernel mixed
// CHECK-NOT: call=
// CHECK: totals: {{.*}}fp16_div=1 {{.*}}sfu_sqrt=1
__global__ void mixed(const __half *x, const __nv_bfloat16 *y, __half *hx, __nv_bfloat16 *by, int *flags, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  __half h = __hadd(x[i], __hmax(x[i], __float2half(0.0f)));
  __nv_bfloat16 b = __hadd(y[i], __hmax(y[i], CUDART_ZERO_BF16));
  b = -hsqrt(__habs(b)) / __float2bfloat16_rz(3.0f) + __float2bfloat16(__half2float(h));
  b -= __hmin_nan(b, __ushort_as_bfloat16(__bfloat16_as_ushort(b) ^ 1));
  __nv_bfloat162 p = __halves2bfloat162(b, __float2bfloat16_ru(__half2float(h)));
  p = __hmax2(__hmul2(p, p), __lowhigh2highlow(p)) - __hneg2(p);
  hx[i] = h * h;
  by[i] = __hfma(__low2bfloat16(p), __high2bfloat16(p), b);
  flags[i] = (b > __high2bfloat16(p)) | __hbeq2(p, p) << 1 | __hisnan(b) << 2 | __heq(h, h) << 3 |
             __bfloat162int_rn(b) << 4 | __hltu(b, CUDART_INF_BF16) << 5;
}

// A bfloat16 or a pair passed by value is one argument of its type (axpb2).  No warning
// (QUIET): where a CUDA toolkit is installed, llc lowers every bfloat16 operation here for
// sm_80 and ptxas counts the registers.
// ARGS: kernel atomics16
// ARGS: args    g: global const __half2* (4 B elements), h2: global __half2* (4 B elements), h: global __half* (2 B elements), b: global __nv_bfloat16* (2 B elements), b2: global __nv_bfloat162* (4 B elements), n: int (4 B)
// ARGS: kernel axpb2
// ARGS: args    n2: int (4 B), a: __nv_bfloat162 (4 B), b: __nv_bfloat16 (2 B), x: global __nv_bfloat162* (4 B elements)
// ARGS: kernel bias_gelu2
// ARGS: args    out: global __nv_bfloat162* (4 B elements), in: global const __nv_bfloat162* (4 B elements)
