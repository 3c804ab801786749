// CUDA's integer intrinsics: __byte_perm (PRMT), the funnel shifts (SHF), __dp4a and
// __dp2a_lo/_hi (IDP), __sad/__usad, __vabsdiffu4 and __vsadu4 (VABSDIFF4), __brevll,
// __mul64hi: one instruction each, as nvcc emits them for sm_80 (the funnel shifts, dot
// products and byte differences as one line of inline PTX each, like CUDA's own headers,
// which the plugin classes by opcode instead of leaving them unmodelled); the halving
// adds as nvcc's 4-instruction sequences; the other SIMD intrinsics once per lane.
// Against a CUDA toolkit's headers and the stand-ins alike, clang's own headers make the
// integer intrinsics calls of libdevice (__nv_byte_perm, __nv_hadd, ...), which the plugin
// costs as libdevice's definitions, and the SIMD ones inline PTX (vadd4,
// vset4.u32.u32.gt), which it costs by opcode (passes/Toolkit.cpp).
// RUN: %wgperf extract %s -o %t.json --print 2>&1 | FileCheck %s
// RUN: env WGPERF_CUDA_PATH= %wgperf extract %s -o %t.standin.json --print 2>&1 | FileCheck %s
// RUN: %wgperf analyze %t.json --kernel pack --global 4096 --local 128 | FileCheck %s --check-prefix=AN
// CHECK-NOT: warning: kernel

// The vector forms of __dp4a: char4 and uchar4 operands, as nvcc's overloads take them.
// CHECK-LABEL: kernel dot_bytes
// CHECK-NOT: call
// CHECK: totals: {{.*}}int_mul=2
__global__ void dot_bytes(const char4 *a, const uchar4 *b, int *out) {
  int i = threadIdx.x;
  out[i] = __dp4a(a[i], a[i + 1], 0) + (int)__dp4a(b[i], b[i + 1], 0u);
}

// Halving adds: and or or, xor, shift, add or sub each, nvcc's sequence (the xor, the and
// and the or are shared by the signed and unsigned forms: 3 + 2 shifts).
// CHECK-LABEL: kernel halves
// CHECK-NOT: call
// libdevice's calls (clang's headers make them, over a toolkit and with the stand-ins)
// each cost their whole sequence: the xor and the and/or an inlined form would share
// are counted in each of the four
// CHECK: totals: {{.*}}int_add=4 {{.*}}int_logic=12
__global__ void halves(const int *a, int *h, int *rh, unsigned *uh, unsigned *urh) {
  int i = threadIdx.x;
  int x = a[i], y = a[i + 32];
  h[i] = __hadd(x, y);
  rh[i] = __rhadd(x, y);
  uh[i] = __uhadd(x, y);
  urh[i] = __urhadd(x, y);
}

// One 4-byte load each of a, b and k, one store; nothing left as a call or as assembly.
// CHECK-LABEL: kernel pack
// CHECK-NOT: call
// int64_mul: mul.hi.s64 and the two 64-bit products it takes; int_add: SAD x2, VABSDIFF4 x2,
// the eight adds that sum the results and the index add; int_logic: SHF x4, PRMT and its
// selector mask, BREV, the shift and or that build the 64-bit value and the five xors;
// int_mul: IDP x3 and the index multiply.
// CHECK: totals: {{.*}}int64_mul=3 int_add=13 int_logic=14 int_mul=4
// 128 warps, three loads each; no call left unresolved in the report
// AN-NOT: unresolved
// AN-NOT: fallback
// AN: ld.global.32=384
__global__ void pack(const unsigned *a, const unsigned *b, const unsigned *k, unsigned *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned x = a[i], y = b[i], s = k[i];
  unsigned r = __funnelshift_l(x, y, s) ^ __funnelshift_r(x, y, s) ^ __funnelshift_lc(x, y, s) ^
               __funnelshift_rc(x, y, s) ^ __byte_perm(x, y, s) ^ (unsigned)__brevll(((unsigned long long)x << 32) | y);
  r += (unsigned)__dp4a((int)x, (int)y, 0) + __dp2a_lo(x, y, 1u) + (unsigned)__dp2a_hi((int)x, (int)y, 2);
  r += __sad((int)x, (int)y, 3u) + __usad(x, y, 4u) + __vabsdiffu4(x, y) + __vsadu4(x, s);
  r += (unsigned)__mul64hi((long long)x * s, (long long)y * s);
  out[i] = r;
}

// SIMD within a word: a lane each (4 bytes or 2 halfwords): the wrapping add (4), the
// saturating signed byte subtract (4), the unsigned halfword maximum (2) and the byte
// compare, whose 0xff per lane needs no more than its compare (4).
// CHECK-LABEL: kernel simd
// CHECK-NOT: call
// CHECK: totals: {{.*}}cmp_select=4 {{.*}}int_add=10
// CHECK-NOT: int_logic
__global__ void simd(const unsigned *a, unsigned *add, unsigned *sub, unsigned *max, unsigned *gt) {
  int i = threadIdx.x;
  unsigned x = a[i], y = a[i + 32];
  add[i] = __vadd4(x, y);
  sub[i] = __vsubss4(x, y);
  max[i] = __vmaxu2(x, y);
  gt[i] = __vcmpgtu4(x, y);
}
