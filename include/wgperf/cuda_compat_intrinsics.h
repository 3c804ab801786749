/* cuda_compat_intrinsics.h - CUDA's integer and SIMD-within-a-word intrinsics for
 * clang-19, part of cuda_compat.h (which includes it; not meant to be included alone).
 *
 * Each is what nvcc makes of it for sm_80, so that the model counts what the GPU issues:
 *   - one machine instruction where nvcc emits one: __byte_perm (PRMT, llvm.nvvm.prmt),
 *     __sad/__usad (llvm.nvvm.sad.*), __mul64hi/__umul64hi (llvm.nvvm.mulhi.*), __brevll
 *     (llvm.bitreverse); and, as CUDA's own sm_32/sm_61 headers write them, one line of
 *     inline PTX for the funnel shifts (shf), the dot products (dp4a, dp2a) and the byte
 *     absolute differences (vabsdiff4): the plugin classes a single arithmetic PTX
 *     instruction by its opcode (docs/kernel-model.md), and ptxas sees the instruction
 *     nvcc would give it;
 *   - the halving adds (__hadd, __rhadd, __uhadd, __urhadd) as nvcc's four-instruction
 *     sequences;
 *   - the other SIMD intrinsics (__vadd4, __vcmpgtu2, __vmaxs4, ...) as operations on
 *     vectors of 4 bytes or 2 halfwords, which the model counts once per lane: on sm_80
 *     nvcc makes them sequences of 4 to 11 instructions (__vadd4 4, __vcmpgtu4 5,
 *     __vmaxu4 7, __vabsdiffu2 11; counted from the cubin), so a lane each is the right size.
 * Checked against nvcc 13.0 -arch=sm_80 (PTX and cubin sizes of 64 chained calls each).
 */
#ifndef WGPERF_CUDA_COMPAT_INTRINSICS_H
#define WGPERF_CUDA_COMPAT_INTRINSICS_H

static __device__ __forceinline__ unsigned long long __brevll(unsigned long long x) {
  return __builtin_bitreverse64(x);
}
/* PRMT reads 3 bits of each selector nibble: nvcc masks the selector first, as here */
static __device__ __forceinline__ unsigned __byte_perm(unsigned x, unsigned y, unsigned s) {
  return (unsigned)__nvvm_prmt((int)x, (int)y, (int)(s & 0x7777u));
}
static __device__ __forceinline__ unsigned __sad(int x, int y, unsigned z) { return (unsigned)__nvvm_sad_i(x, y, (int)z); }
static __device__ __forceinline__ unsigned __usad(unsigned x, unsigned y, unsigned z) { return __nvvm_sad_ui(x, y, z); }
static __device__ __forceinline__ long long __mul64hi(long long x, long long y) { return __nvvm_mulhi_ll(x, y); }
static __device__ __forceinline__ unsigned long long __umul64hi(unsigned long long x, unsigned long long y) {
  return __nvvm_mulhi_ull(x, y);
}
static __device__ __forceinline__ int __hadd(int x, int y) { return (x & y) + ((x ^ y) >> 1); }
static __device__ __forceinline__ int __rhadd(int x, int y) { return (x | y) - ((x ^ y) >> 1); }
static __device__ __forceinline__ unsigned __uhadd(unsigned x, unsigned y) { return (x & y) + ((x ^ y) >> 1); }
static __device__ __forceinline__ unsigned __urhadd(unsigned x, unsigned y) { return (x | y) - ((x ^ y) >> 1); }

/* Funnel shifts: the 64-bit hi:lo shifted by the amount modulo 32 (wrap) or at most 32
 * (clamp), its high (l) or low (r) word. */
#define __WGPERF_SHF(name, mode)                                                         \
  static __device__ __forceinline__ unsigned name(unsigned lo, unsigned hi, unsigned s) { \
    unsigned r;                                                                          \
    asm("shf." mode ".b32 %0, %1, %2, %3;" : "=r"(r) : "r"(lo), "r"(hi), "r"(s));        \
    return r;                                                                            \
  }
__WGPERF_SHF(__funnelshift_l, "l.wrap") __WGPERF_SHF(__funnelshift_lc, "l.clamp")
__WGPERF_SHF(__funnelshift_r, "r.wrap") __WGPERF_SHF(__funnelshift_rc, "r.clamp")
#undef __WGPERF_SHF

/* Dot products of 4 bytes (dp4a) and of 2 halfwords with 2 bytes of the low or high half
 * (dp2a), accumulated: one IDP each (sm_61 and later). */
#define __WGPERF_DP(name, op, T, A, B)                                                    \
  static __device__ __forceinline__ T name(A a, B b, T c) {                                \
    T r;                                                                                   \
    asm(op " %0, %1, %2, %3;" : "=r"(r) : "r"(__builtin_bit_cast(T, a)), "r"(__builtin_bit_cast(T, b)), "r"(c)); \
    return r;                                                                              \
  }
#define __WGPERF_DPS(name, op, SA, UA, SB, UB)                                            \
  __WGPERF_DP(name, op ".s32.s32", int, int, int)                                          \
  __WGPERF_DP(name, op ".u32.u32", unsigned, unsigned, unsigned)                           \
  __WGPERF_DP(name, op ".s32.s32", int, SA, SB)                                            \
  __WGPERF_DP(name, op ".u32.u32", unsigned, UA, UB)
__WGPERF_DPS(__dp4a, "dp4a", char4, uchar4, char4, uchar4)
__WGPERF_DPS(__dp2a_lo, "dp2a.lo", short2, ushort2, char4, uchar4)
__WGPERF_DPS(__dp2a_hi, "dp2a.hi", short2, ushort2, char4, uchar4)
#undef __WGPERF_DPS
#undef __WGPERF_DP

/* SIMD within a word.  Bytes (4) or halfwords (2) as clang vectors; a compare gives all
 * ones per true lane (__vcmp*) or 1 (__vset*). */
typedef unsigned char __wgperf_u4 __attribute__((ext_vector_type(4)));
typedef signed char __wgperf_s4 __attribute__((ext_vector_type(4)));
typedef unsigned short __wgperf_u2 __attribute__((ext_vector_type(2)));
typedef short __wgperf_s2 __attribute__((ext_vector_type(2)));
#define __WGPERF_V(V, x) __builtin_bit_cast(__wgperf_##V, (x))
#define __WGPERF_W(x) __builtin_bit_cast(unsigned, (x))
#define __WGPERF_SIMD2(name, V, expr)                                                     \
  static __device__ __forceinline__ unsigned name(unsigned a_, unsigned b_) {             \
    __wgperf_##V a = __WGPERF_V(V, a_), b = __WGPERF_V(V, b_);                              \
    (void)b;                                                                               \
    return __WGPERF_W(expr);                                                               \
  }
#define __WGPERF_SIMD1(name, V, expr)                                                     \
  static __device__ __forceinline__ unsigned name(unsigned a_) {                           \
    __wgperf_##V a = __WGPERF_V(V, a_);                                                    \
    return __WGPERF_W(expr);                                                               \
  }
#define __WGPERF_SIMD(n, U, S, SMIN)                                                          \
  __WGPERF_SIMD2(__vadd##n, U, a + b) __WGPERF_SIMD2(__vsub##n, U, a - b)                  \
  __WGPERF_SIMD2(__vaddss##n, S, __builtin_elementwise_add_sat(a, b))                      \
  __WGPERF_SIMD2(__vaddus##n, U, __builtin_elementwise_add_sat(a, b))                      \
  __WGPERF_SIMD2(__vsubss##n, S, __builtin_elementwise_sub_sat(a, b))                      \
  __WGPERF_SIMD2(__vsubus##n, U, __builtin_elementwise_sub_sat(a, b))                      \
  __WGPERF_SIMD2(__vmaxu##n, U, __builtin_elementwise_max(a, b))                           \
  __WGPERF_SIMD2(__vmaxs##n, S, __builtin_elementwise_max(a, b))                           \
  __WGPERF_SIMD2(__vminu##n, U, __builtin_elementwise_min(a, b))                           \
  __WGPERF_SIMD2(__vmins##n, S, __builtin_elementwise_min(a, b))                           \
  __WGPERF_SIMD2(__vhaddu##n, U, (a & b) + ((a ^ b) >> 1))                                 \
  __WGPERF_SIMD2(__vavgu##n, U, (a | b) - ((a ^ b) >> 1))                                  \
  __WGPERF_SIMD2(__vcmpeq##n, U, a == b) __WGPERF_SIMD2(__vcmpne##n, U, a != b)            \
  __WGPERF_SIMD2(__vcmpgeu##n, U, a >= b) __WGPERF_SIMD2(__vcmpgtu##n, U, a > b)           \
  __WGPERF_SIMD2(__vcmpleu##n, U, a <= b) __WGPERF_SIMD2(__vcmpltu##n, U, a < b)           \
  __WGPERF_SIMD2(__vcmpges##n, S, a >= b) __WGPERF_SIMD2(__vcmpgts##n, S, a > b)           \
  __WGPERF_SIMD2(__vcmples##n, S, a <= b) __WGPERF_SIMD2(__vcmplts##n, S, a < b)           \
  __WGPERF_SIMD2(__vseteq##n, U, (a == b) & 1) __WGPERF_SIMD2(__vsetne##n, U, (a != b) & 1) \
  __WGPERF_SIMD2(__vsetgeu##n, U, (a >= b) & 1) __WGPERF_SIMD2(__vsetgtu##n, U, (a > b) & 1) \
  __WGPERF_SIMD2(__vsetleu##n, U, (a <= b) & 1) __WGPERF_SIMD2(__vsetltu##n, U, (a < b) & 1) \
  __WGPERF_SIMD2(__vsetges##n, S, (a >= b) & 1) __WGPERF_SIMD2(__vsetgts##n, S, (a > b) & 1) \
  __WGPERF_SIMD2(__vsetles##n, S, (a <= b) & 1) __WGPERF_SIMD2(__vsetlts##n, S, (a < b) & 1) \
  __WGPERF_SIMD1(__vabs##n, S, __builtin_elementwise_abs(a))                               \
  __WGPERF_SIMD1(__vabsss##n, S, __builtin_elementwise_abs(__builtin_elementwise_max(a, (__wgperf_##S)(SMIN)))) \
  __WGPERF_SIMD1(__vneg##n, S, -a)                                                         \
  __WGPERF_SIMD1(__vnegss##n, S, __builtin_elementwise_sub_sat((__wgperf_##S)0, a))
/* saturated absolute value: the most negative lane becomes the largest positive one */
__WGPERF_SIMD(4, u4, s4, -127)
__WGPERF_SIMD(2, u2, s2, -32767)
/* absolute differences and their sums: VABSDIFF4 for bytes (as nvcc), lanes for the rest */
__WGPERF_SIMD2(__vabsdiffs2, s2, __builtin_elementwise_max(a, b) - __builtin_elementwise_min(a, b))
__WGPERF_SIMD2(__vabsdiffu2, u2, __builtin_elementwise_max(a, b) - __builtin_elementwise_min(a, b))
static __device__ __forceinline__ unsigned __vsads2(unsigned a, unsigned b) {
  __wgperf_u2 d = __WGPERF_V(u2, __vabsdiffs2(a, b));
  return (unsigned)d.x + d.y;
}
static __device__ __forceinline__ unsigned __vsadu2(unsigned a, unsigned b) {
  __wgperf_u2 d = __WGPERF_V(u2, __vabsdiffu2(a, b));
  return (unsigned)d.x + d.y;
}
#define __WGPERF_VABSDIFF4(name, type, mode)                                              \
  static __device__ __forceinline__ unsigned name(unsigned a, unsigned b) {               \
    unsigned r;                                                                            \
    asm("vabsdiff4." type "." type "." type mode " %0, %1, %2, %3;"                        \
        : "=r"(r) : "r"(a), "r"(b), "r"(0u));                                              \
    return r;                                                                              \
  }
__WGPERF_VABSDIFF4(__vabsdiffu4, "u32", "") __WGPERF_VABSDIFF4(__vabsdiffs4, "s32", "")
__WGPERF_VABSDIFF4(__vsadu4, "u32", ".add") __WGPERF_VABSDIFF4(__vsads4, "s32", ".add")
#undef __WGPERF_VABSDIFF4
#undef __WGPERF_SIMD
#undef __WGPERF_SIMD1
#undef __WGPERF_SIMD2
#undef __WGPERF_V
#undef __WGPERF_W

#endif /* WGPERF_CUDA_COMPAT_INTRINSICS_H */
