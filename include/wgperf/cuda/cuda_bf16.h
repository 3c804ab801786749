/* cuda_bf16.h - bfloat16 (__nv_bfloat16, __nv_bfloat162) for wgperf's device-side compile.
 *
 * See cuda_fp16.h: the toolkit's header is not used.  This one is written on clang's
 * __bf16, so an operation on __nv_bfloat16 is an LLVM bfloat operation (the fp16_* cost
 * classes: the GPU runs them on its half-precision pipe, HFMA2.BF16) and one on
 * __nv_bfloat162 a two-lane vector of them.
 *
 * clang computes a __bf16 expression in float and rounds once at its end (excess
 * precision), where CUDA rounds each operation to bfloat16.  So the arithmetic here is
 * written as fused multiply-adds, which clang keeps in bfloat16 and which round once, as
 * the GPU does (sm_80 adds, subtracts and multiplies bfloat16 with its fma instruction):
 * a + b is fma(a, 1, b), a - b is fma(b, -1, a), a * b is fma(a, b, -0) (LLVM folds the
 * first and the last to an fadd and an fmul).  Division and the math functions go through float, as CUDA's do: a quotient
 * rounded from float to bfloat16 is the correctly rounded one (24 bits are more than
 * 2 x 8 + 2).  Conversions round as their suffix says; a conversion to an integer type of
 * a value out of its range is undefined here, where the GPU saturates.
 */
#ifndef WGPERF_CUDA_BF16_H
#define WGPERF_CUDA_BF16_H

#ifndef WGPERF_CUDA_COMPAT_H
#include "../cuda_compat.h"
#endif

#define __WGP_BF__ static __host__ __device__ __forceinline__

typedef __bf16 __wgp_b2v __attribute__((ext_vector_type(2)));

typedef struct __nv_bfloat16_raw {
  unsigned short x;
} __nv_bfloat16_raw;
typedef struct __nv_bfloat162_raw {
  unsigned short x, y;
} __nv_bfloat162_raw;

struct __attribute__((aligned(2))) __nv_bfloat16 {
  __bf16 __x;
  __nv_bfloat16() = default;
  __host__ __device__ __nv_bfloat16(__bf16 v) : __x(v) {}
  __host__ __device__ __nv_bfloat16(float v) : __x((__bf16)v) {}
  __host__ __device__ __nv_bfloat16(double v) : __x((__bf16)v) {}
  __host__ __device__ __nv_bfloat16(int v) : __x((__bf16)v) {}
  __host__ __device__ __nv_bfloat16(unsigned int v) : __x((__bf16)v) {}
  __host__ __device__ __nv_bfloat16(long v) : __x((__bf16)v) {}
  __host__ __device__ __nv_bfloat16(unsigned long v) : __x((__bf16)v) {}
  __host__ __device__ __nv_bfloat16(long long v) : __x((__bf16)v) {}
  __host__ __device__ __nv_bfloat16(unsigned long long v) : __x((__bf16)v) {}
  __host__ __device__ __nv_bfloat16(short v) : __x((__bf16)v) {}
  __host__ __device__ __nv_bfloat16(unsigned short v) : __x((__bf16)v) {}
  __host__ __device__ __nv_bfloat16(__nv_bfloat16_raw r) : __x(__builtin_bit_cast(__bf16, r.x)) {}
  __host__ __device__ operator __nv_bfloat16_raw() const {
    __nv_bfloat16_raw r = {__builtin_bit_cast(unsigned short, __x)};
    return r;
  }
  __host__ __device__ operator float() const { return (float)__x; }
  __host__ __device__ __nv_bfloat16 &operator=(float v) {
    __x = (__bf16)v;
    return *this;
  }
};

struct __attribute__((aligned(4))) __nv_bfloat162 {
  union {
    struct {
      __nv_bfloat16 x, y;
    };
    __wgp_b2v __v;
  };
  __nv_bfloat162() = default;
  __host__ __device__ __nv_bfloat162(__nv_bfloat16 a, __nv_bfloat16 b) : x(a), y(b) {}
  __host__ __device__ __nv_bfloat162(__wgp_b2v v) : __v(v) {}
  __host__ __device__ __nv_bfloat162(__nv_bfloat162_raw r)
      : x(__nv_bfloat16_raw{r.x}), y(__nv_bfloat16_raw{r.y}) {}
  __host__ __device__ operator __nv_bfloat162_raw() const {
    __nv_bfloat162_raw r = {__builtin_bit_cast(unsigned short, x.__x), __builtin_bit_cast(unsigned short, y.__x)};
    return r;
  }
};

typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;

/* reinterpretation */
__WGP_BF__ short __bfloat16_as_short(__nv_bfloat16 a) { return __builtin_bit_cast(short, a.__x); }
__WGP_BF__ unsigned short __bfloat16_as_ushort(__nv_bfloat16 a) { return __builtin_bit_cast(unsigned short, a.__x); }
__WGP_BF__ __nv_bfloat16 __short_as_bfloat16(short a) { return __nv_bfloat16(__builtin_bit_cast(__bf16, a)); }
__WGP_BF__ __nv_bfloat16 __ushort_as_bfloat16(unsigned short a) {
  return __nv_bfloat16(__builtin_bit_cast(__bf16, a));
}

#define CUDART_INF_BF16 __ushort_as_bfloat16((unsigned short)0x7f80u)
#define CUDART_NAN_BF16 __ushort_as_bfloat16((unsigned short)0x7fffu)
#define CUDART_MIN_DENORM_BF16 __ushort_as_bfloat16((unsigned short)0x0001u)
#define CUDART_MAX_NORMAL_BF16 __ushort_as_bfloat16((unsigned short)0x7f7fu)
#define CUDART_NEG_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x8000u)
#define CUDART_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x0000u)
#define CUDART_ONE_BF16 __ushort_as_bfloat16((unsigned short)0x3f80u)

/* Directed rounding to bfloat16, DIR -1 down, 0 toward zero, 1 up.  A float's upper half
 * is its bfloat16 truncated toward zero; rounding away from zero adds one to that
 * magnitude, which carries into the exponent (and past the largest finite value to
 * infinity) as it should. */
__WGP_BF__ bool __wgp_bf16_bump(bool inexact, bool neg, int dir) {
  return inexact && (dir > 0 ? !neg : dir < 0 && neg);
}
__WGP_BF__ __nv_bfloat16 __wgp_float2bf16_dir(float a, int dir) {
  unsigned u = __builtin_bit_cast(unsigned, a);
  unsigned short h = (unsigned short)((u >> 16) + __wgp_bf16_bump((u & 0xffffu) != 0, u >> 31, dir));
  return __ushort_as_bfloat16((u & 0x7fffffffu) > 0x7f800000u ? (unsigned short)0x7fffu : h);
}
/* the integer -1^NEG x M: the leading 1 of M becomes the hidden bit, the next 7 the
 * fraction, the rest decides the rounding (no integer overflows bfloat16) */
__WGP_BF__ __nv_bfloat16 __wgp_int2bf16_dir(unsigned long long m, bool neg, int dir) {
  int e = 63 - __builtin_clzll(m | 1);
  unsigned long long f = e <= 7 ? m << (7 - e) : m >> (e - 7);
  bool inexact = e > 7 && (m & ((1ull << (e - 7)) - 1)) != 0;
  unsigned h = ((unsigned)(e + 127) << 7 | (unsigned)(f & 0x7f)) + __wgp_bf16_bump(inexact, neg, dir);
  return __ushort_as_bfloat16((unsigned short)(m == 0 ? 0u : h | (neg ? 0x8000u : 0u)));
}

/* conversions */
__WGP_BF__ __nv_bfloat16 __float2bfloat16(float a) { return __nv_bfloat16(a); }
__WGP_BF__ __nv_bfloat16 __float2bfloat16_rn(float a) { return __nv_bfloat16(a); }
__WGP_BF__ __nv_bfloat16 __float2bfloat16_rz(float a) { return __wgp_float2bf16_dir(a, 0); }
__WGP_BF__ __nv_bfloat16 __float2bfloat16_rd(float a) { return __wgp_float2bf16_dir(a, -1); }
__WGP_BF__ __nv_bfloat16 __float2bfloat16_ru(float a) { return __wgp_float2bf16_dir(a, 1); }
__WGP_BF__ __nv_bfloat16 __double2bfloat16(double a) { return __nv_bfloat16(a); }
__WGP_BF__ float __bfloat162float(__nv_bfloat16 a) { return (float)a.__x; }
__WGP_BF__ __nv_bfloat162 __float2bfloat162_rn(float a) { return __nv_bfloat162(__nv_bfloat16(a), __nv_bfloat16(a)); }
__WGP_BF__ __nv_bfloat162 __floats2bfloat162_rn(float a, float b) {
  return __nv_bfloat162(__nv_bfloat16(a), __nv_bfloat16(b));
}
__WGP_BF__ __nv_bfloat162 __float22bfloat162_rn(float2 a) {
  return __nv_bfloat162(__nv_bfloat16(a.x), __nv_bfloat16(a.y));
}
__WGP_BF__ float2 __bfloat1622float2(__nv_bfloat162 a) { return make_float2((float)a.x.__x, (float)a.y.__x); }
__WGP_BF__ float __low2float(__nv_bfloat162 a) { return (float)a.x.__x; }
__WGP_BF__ float __high2float(__nv_bfloat162 a) { return (float)a.y.__x; }
__WGP_BF__ __nv_bfloat16 __low2bfloat16(__nv_bfloat162 a) { return a.x; }
__WGP_BF__ __nv_bfloat16 __high2bfloat16(__nv_bfloat162 a) { return a.y; }
__WGP_BF__ __nv_bfloat162 __low2bfloat162(__nv_bfloat162 a) { return __nv_bfloat162(a.x, a.x); }
__WGP_BF__ __nv_bfloat162 __high2bfloat162(__nv_bfloat162 a) { return __nv_bfloat162(a.y, a.y); }
__WGP_BF__ __nv_bfloat162 __lows2bfloat162(__nv_bfloat162 a, __nv_bfloat162 b) { return __nv_bfloat162(a.x, b.x); }
__WGP_BF__ __nv_bfloat162 __highs2bfloat162(__nv_bfloat162 a, __nv_bfloat162 b) { return __nv_bfloat162(a.y, b.y); }
__WGP_BF__ __nv_bfloat162 __halves2bfloat162(__nv_bfloat16 a, __nv_bfloat16 b) { return __nv_bfloat162(a, b); }
__WGP_BF__ __nv_bfloat162 __bfloat162bfloat162(__nv_bfloat16 a) { return __nv_bfloat162(a, a); }
__WGP_BF__ __nv_bfloat162 make_bfloat162(__nv_bfloat16 a, __nv_bfloat16 b) { return __nv_bfloat162(a, b); }
__WGP_BF__ __nv_bfloat162 __lowhigh2highlow(__nv_bfloat162 a) { return __nv_bfloat162(a.y, a.x); }
/* integers: a bfloat16 is exact in float and rounded there as the suffix says; an
 * integer rounds once, by LLVM's conversion (_rn) or by __wgp_int2bf16_dir */
#define __WGP_BFCVT(name, T)                                                                                      \
  __WGP_BF__ T __bfloat162##name##_rn(__nv_bfloat16 a) { return (T)__builtin_rintf((float)a.__x); }               \
  __WGP_BF__ T __bfloat162##name##_rz(__nv_bfloat16 a) { return (T)(float)a.__x; }                                \
  __WGP_BF__ T __bfloat162##name##_rd(__nv_bfloat16 a) { return (T)__builtin_floorf((float)a.__x); }              \
  __WGP_BF__ T __bfloat162##name##_ru(__nv_bfloat16 a) { return (T)__builtin_ceilf((float)a.__x); }               \
  __WGP_BF__ __nv_bfloat16 __##name##2bfloat16_rn(T a) { return __nv_bfloat16((__bf16)a); }                       \
  __WGP_BF__ __nv_bfloat16 __##name##2bfloat16_rz(T a) {                                                          \
    return __wgp_int2bf16_dir(a < 0 ? 0 - (unsigned long long)a : (unsigned long long)a, a < 0, 0);              \
  }                                                                                                              \
  __WGP_BF__ __nv_bfloat16 __##name##2bfloat16_rd(T a) {                                                          \
    return __wgp_int2bf16_dir(a < 0 ? 0 - (unsigned long long)a : (unsigned long long)a, a < 0, -1);             \
  }                                                                                                              \
  __WGP_BF__ __nv_bfloat16 __##name##2bfloat16_ru(T a) {                                                          \
    return __wgp_int2bf16_dir(a < 0 ? 0 - (unsigned long long)a : (unsigned long long)a, a < 0, 1);              \
  }
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wtautological-unsigned-zero-compare"
__WGP_BFCVT(int, int)
__WGP_BFCVT(uint, unsigned int)
__WGP_BFCVT(short, short)
__WGP_BFCVT(ushort, unsigned short)
__WGP_BFCVT(ll, long long)
__WGP_BFCVT(ull, unsigned long long)
#pragma clang diagnostic pop
#undef __WGP_BFCVT

/* arithmetic: __nv_bfloat16, each operation rounded once (see the top) */
__WGP_BF__ __bf16 __wgp_bfma(__bf16 a, __bf16 b, __bf16 c) { return __builtin_elementwise_fma(a, b, c); }
__WGP_BF__ __nv_bfloat16 __wgp_bf16_sat(__bf16 r) {
  return __nv_bfloat16(r > (__bf16)0.0f ? (r < (__bf16)1.0f ? r : (__bf16)1.0f) : (__bf16)0.0f);
}
__WGP_BF__ __nv_bfloat16 __hadd(__nv_bfloat16 a, __nv_bfloat16 b) {
  return __nv_bfloat16(__wgp_bfma(a.__x, (__bf16)1.0f, b.__x));
}
__WGP_BF__ __nv_bfloat16 __hsub(__nv_bfloat16 a, __nv_bfloat16 b) {
  return __nv_bfloat16(__wgp_bfma(b.__x, (__bf16)-1.0f, a.__x));
}
__WGP_BF__ __nv_bfloat16 __hmul(__nv_bfloat16 a, __nv_bfloat16 b) {
  return __nv_bfloat16(__wgp_bfma(a.__x, b.__x, (__bf16)-0.0f));
}
__WGP_BF__ __nv_bfloat16 __hdiv(__nv_bfloat16 a, __nv_bfloat16 b) {
  return __nv_bfloat16((float)a.__x / (float)b.__x);
}
__WGP_BF__ __nv_bfloat16 __hfma(__nv_bfloat16 a, __nv_bfloat16 b, __nv_bfloat16 c) {
  return __nv_bfloat16(__wgp_bfma(a.__x, b.__x, c.__x));
}
__WGP_BF__ __nv_bfloat16 __hadd_rn(__nv_bfloat16 a, __nv_bfloat16 b) { return __hadd(a, b); }
__WGP_BF__ __nv_bfloat16 __hsub_rn(__nv_bfloat16 a, __nv_bfloat16 b) { return __hsub(a, b); }
__WGP_BF__ __nv_bfloat16 __hmul_rn(__nv_bfloat16 a, __nv_bfloat16 b) { return __hmul(a, b); }
/* _sat: clamped to [0, 1], a NaN to +0 */
__WGP_BF__ __nv_bfloat16 __hadd_sat(__nv_bfloat16 a, __nv_bfloat16 b) { return __wgp_bf16_sat(__hadd(a, b).__x); }
__WGP_BF__ __nv_bfloat16 __hsub_sat(__nv_bfloat16 a, __nv_bfloat16 b) { return __wgp_bf16_sat(__hsub(a, b).__x); }
__WGP_BF__ __nv_bfloat16 __hmul_sat(__nv_bfloat16 a, __nv_bfloat16 b) { return __wgp_bf16_sat(__hmul(a, b).__x); }
__WGP_BF__ __nv_bfloat16 __hfma_sat(__nv_bfloat16 a, __nv_bfloat16 b, __nv_bfloat16 c) {
  return __wgp_bf16_sat(__wgp_bfma(a.__x, b.__x, c.__x));
}
__WGP_BF__ __nv_bfloat16 __hfma_relu(__nv_bfloat16 a, __nv_bfloat16 b, __nv_bfloat16 c) {
  __bf16 r = __wgp_bfma(a.__x, b.__x, c.__x);
  return __nv_bfloat16(r < (__bf16)0.0f ? (__bf16)0.0f : r);
}
__WGP_BF__ __nv_bfloat16 __hneg(__nv_bfloat16 a) { return __nv_bfloat16(-a.__x); }
__WGP_BF__ __nv_bfloat16 __habs(__nv_bfloat16 a) { return __nv_bfloat16(__builtin_elementwise_abs(a.__x)); }
/* max and min return the other operand when one is NaN; the _nan forms return NaN */
__WGP_BF__ __nv_bfloat16 __hmax(__nv_bfloat16 a, __nv_bfloat16 b) {
  return __nv_bfloat16(__builtin_elementwise_max(a.__x, b.__x));
}
__WGP_BF__ __nv_bfloat16 __hmin(__nv_bfloat16 a, __nv_bfloat16 b) {
  return __nv_bfloat16(__builtin_elementwise_min(a.__x, b.__x));
}
__WGP_BF__ __nv_bfloat16 __hmax_nan(__nv_bfloat16 a, __nv_bfloat16 b) {
  return a.__x != a.__x || b.__x != b.__x ? CUDART_NAN_BF16 : __hmax(a, b);
}
__WGP_BF__ __nv_bfloat16 __hmin_nan(__nv_bfloat16 a, __nv_bfloat16 b) {
  return a.__x != a.__x || b.__x != b.__x ? CUDART_NAN_BF16 : __hmin(a, b);
}

/* arithmetic: __nv_bfloat162, two lanes */
__WGP_BF__ __wgp_b2v __wgp_b2splat(float v) { return (__wgp_b2v){(__bf16)v, (__bf16)v}; }
__WGP_BF__ __nv_bfloat162 __hadd2(__nv_bfloat162 a, __nv_bfloat162 b) {
  return __nv_bfloat162(__builtin_elementwise_fma(a.__v, __wgp_b2splat(1.0f), b.__v));
}
__WGP_BF__ __nv_bfloat162 __hsub2(__nv_bfloat162 a, __nv_bfloat162 b) {
  return __nv_bfloat162(__builtin_elementwise_fma(b.__v, __wgp_b2splat(-1.0f), a.__v));
}
__WGP_BF__ __nv_bfloat162 __hmul2(__nv_bfloat162 a, __nv_bfloat162 b) {
  return __nv_bfloat162(__builtin_elementwise_fma(a.__v, b.__v, __wgp_b2splat(-0.0f)));
}
__WGP_BF__ __nv_bfloat162 __h2div(__nv_bfloat162 a, __nv_bfloat162 b) {
  return __nv_bfloat162(__hdiv(a.x, b.x), __hdiv(a.y, b.y));
}
__WGP_BF__ __nv_bfloat162 __hfma2(__nv_bfloat162 a, __nv_bfloat162 b, __nv_bfloat162 c) {
  return __nv_bfloat162(__builtin_elementwise_fma(a.__v, b.__v, c.__v));
}
__WGP_BF__ __nv_bfloat162 __hadd2_rn(__nv_bfloat162 a, __nv_bfloat162 b) { return __hadd2(a, b); }
__WGP_BF__ __nv_bfloat162 __hsub2_rn(__nv_bfloat162 a, __nv_bfloat162 b) { return __hsub2(a, b); }
__WGP_BF__ __nv_bfloat162 __hmul2_rn(__nv_bfloat162 a, __nv_bfloat162 b) { return __hmul2(a, b); }
#define __WGP_BF2SAT(name, op)                                                                                    \
  __WGP_BF__ __nv_bfloat162 name(__nv_bfloat162 a, __nv_bfloat162 b) {                                            \
    __nv_bfloat162 r = op(a, b);                                                                                 \
    return __nv_bfloat162(__wgp_bf16_sat(r.x.__x), __wgp_bf16_sat(r.y.__x));                                     \
  }
__WGP_BF2SAT(__hadd2_sat, __hadd2)
__WGP_BF2SAT(__hsub2_sat, __hsub2)
__WGP_BF2SAT(__hmul2_sat, __hmul2)
#undef __WGP_BF2SAT
__WGP_BF__ __nv_bfloat162 __hfma2_sat(__nv_bfloat162 a, __nv_bfloat162 b, __nv_bfloat162 c) {
  __nv_bfloat162 r = __hfma2(a, b, c);
  return __nv_bfloat162(__wgp_bf16_sat(r.x.__x), __wgp_bf16_sat(r.y.__x));
}
__WGP_BF__ __nv_bfloat162 __hfma2_relu(__nv_bfloat162 a, __nv_bfloat162 b, __nv_bfloat162 c) {
  __nv_bfloat162 r = __hfma2(a, b, c);
  return __nv_bfloat162(r.x.__x < (__bf16)0.0f ? __nv_bfloat16(0.0f) : r.x,
                        r.y.__x < (__bf16)0.0f ? __nv_bfloat16(0.0f) : r.y);
}
__WGP_BF__ __nv_bfloat162 __hneg2(__nv_bfloat162 a) { return __nv_bfloat162(-a.__v); }
__WGP_BF__ __nv_bfloat162 __habs2(__nv_bfloat162 a) { return __nv_bfloat162(__builtin_elementwise_abs(a.__v)); }
__WGP_BF__ __nv_bfloat162 __hmax2(__nv_bfloat162 a, __nv_bfloat162 b) {
  return __nv_bfloat162(__builtin_elementwise_max(a.__v, b.__v));
}
__WGP_BF__ __nv_bfloat162 __hmin2(__nv_bfloat162 a, __nv_bfloat162 b) {
  return __nv_bfloat162(__builtin_elementwise_min(a.__v, b.__v));
}
__WGP_BF__ __nv_bfloat162 __hmax2_nan(__nv_bfloat162 a, __nv_bfloat162 b) {
  return __nv_bfloat162(__hmax_nan(a.x, b.x), __hmax_nan(a.y, b.y));
}
__WGP_BF__ __nv_bfloat162 __hmin2_nan(__nv_bfloat162 a, __nv_bfloat162 b) {
  return __nv_bfloat162(__hmin_nan(a.x, b.x), __hmin_nan(a.y, b.y));
}

/* comparisons: the plain ones are ordered (false on a NaN), the u ones unordered */
__WGP_BF__ bool __heq(__nv_bfloat16 a, __nv_bfloat16 b) { return a.__x == b.__x; }
__WGP_BF__ bool __hne(__nv_bfloat16 a, __nv_bfloat16 b) { return a.__x < b.__x || a.__x > b.__x; }
__WGP_BF__ bool __hlt(__nv_bfloat16 a, __nv_bfloat16 b) { return a.__x < b.__x; }
__WGP_BF__ bool __hle(__nv_bfloat16 a, __nv_bfloat16 b) { return a.__x <= b.__x; }
__WGP_BF__ bool __hgt(__nv_bfloat16 a, __nv_bfloat16 b) { return a.__x > b.__x; }
__WGP_BF__ bool __hge(__nv_bfloat16 a, __nv_bfloat16 b) { return a.__x >= b.__x; }
__WGP_BF__ bool __hequ(__nv_bfloat16 a, __nv_bfloat16 b) { return !(a.__x < b.__x || a.__x > b.__x); }
__WGP_BF__ bool __hneu(__nv_bfloat16 a, __nv_bfloat16 b) { return a.__x != b.__x; }
__WGP_BF__ bool __hltu(__nv_bfloat16 a, __nv_bfloat16 b) { return !(a.__x >= b.__x); }
__WGP_BF__ bool __hleu(__nv_bfloat16 a, __nv_bfloat16 b) { return !(a.__x > b.__x); }
__WGP_BF__ bool __hgtu(__nv_bfloat16 a, __nv_bfloat16 b) { return !(a.__x <= b.__x); }
__WGP_BF__ bool __hgeu(__nv_bfloat16 a, __nv_bfloat16 b) { return !(a.__x < b.__x); }
__WGP_BF__ bool __hisnan(__nv_bfloat16 a) { return a.__x != a.__x; }
__WGP_BF__ int __hisinf(__nv_bfloat16 a) {
  return a.__x == (__bf16)__builtin_inff() ? 1 : a.__x == -(__bf16)__builtin_inff() ? -1 : 0;
}
/* __nv_bfloat162: per lane 1.0 or 0.0 (__heq2 ...), or true when both lanes are (__hbeq2 ...) */
#define __WGP_BFCMP2(op)                                                                                          \
  __WGP_BF__ __nv_bfloat162 __h##op##2(__nv_bfloat162 a, __nv_bfloat162 b) {                                      \
    return __nv_bfloat162(__nv_bfloat16(__h##op(a.x, b.x) ? 1.0f : 0.0f),                                         \
                          __nv_bfloat16(__h##op(a.y, b.y) ? 1.0f : 0.0f));                                        \
  }                                                                                                              \
  __WGP_BF__ bool __hb##op##2(__nv_bfloat162 a, __nv_bfloat162 b) { return __h##op(a.x, b.x) && __h##op(a.y, b.y); }
#define __WGP_BFCMP2_PAIR(op) __WGP_BFCMP2(op) __WGP_BFCMP2(op##u)
__WGP_BFCMP2_PAIR(eq)
__WGP_BFCMP2_PAIR(ne)
__WGP_BFCMP2_PAIR(lt)
__WGP_BFCMP2_PAIR(le)
__WGP_BFCMP2_PAIR(gt)
__WGP_BFCMP2_PAIR(ge)
#undef __WGP_BFCMP2_PAIR
#undef __WGP_BFCMP2
__WGP_BF__ __nv_bfloat162 __hisnan2(__nv_bfloat162 a) {
  return __nv_bfloat162(__nv_bfloat16(__hisnan(a.x) ? 1.0f : 0.0f), __nv_bfloat16(__hisnan(a.y) ? 1.0f : 0.0f));
}

/* math: computed in single precision, as the hardware's bfloat16 functions are */
#define __WGP_BFMATH(h, h2, f)                                                                                    \
  static __device__ __forceinline__ __nv_bfloat16 h(__nv_bfloat16 a) { return __nv_bfloat16(f((float)a.__x)); }   \
  static __device__ __forceinline__ __nv_bfloat162 h2(__nv_bfloat162 a) { return __nv_bfloat162(h(a.x), h(a.y)); }
__WGP_BFMATH(hsqrt, h2sqrt, sqrtf)
__WGP_BFMATH(hrsqrt, h2rsqrt, rsqrtf)
__WGP_BFMATH(hrcp, h2rcp, 1.0f /)
__WGP_BFMATH(hexp, h2exp, expf)
__WGP_BFMATH(hexp2, h2exp2, exp2f)
__WGP_BFMATH(hexp10, h2exp10, exp10f)
__WGP_BFMATH(hlog, h2log, logf)
__WGP_BFMATH(hlog2, h2log2, log2f)
__WGP_BFMATH(hlog10, h2log10, log10f)
__WGP_BFMATH(hsin, h2sin, sinf)
__WGP_BFMATH(hcos, h2cos, cosf)
__WGP_BFMATH(htanh_approx, h2tanh_approx, tanhf)
__WGP_BFMATH(hfloor, h2floor, floorf)
__WGP_BFMATH(hceil, h2ceil, ceilf)
__WGP_BFMATH(htrunc, h2trunc, truncf)
__WGP_BFMATH(hrint, h2rint, rintf)
#undef __WGP_BFMATH

/* operators, as CUDA's header defines them for device code */
__WGP_BF__ __nv_bfloat16 operator+(__nv_bfloat16 a, __nv_bfloat16 b) { return __hadd(a, b); }
__WGP_BF__ __nv_bfloat16 operator-(__nv_bfloat16 a, __nv_bfloat16 b) { return __hsub(a, b); }
__WGP_BF__ __nv_bfloat16 operator*(__nv_bfloat16 a, __nv_bfloat16 b) { return __hmul(a, b); }
__WGP_BF__ __nv_bfloat16 operator/(__nv_bfloat16 a, __nv_bfloat16 b) { return __hdiv(a, b); }
__WGP_BF__ __nv_bfloat16 operator-(__nv_bfloat16 a) { return __hneg(a); }
__WGP_BF__ __nv_bfloat16 operator+(__nv_bfloat16 a) { return a; }
__WGP_BF__ __nv_bfloat16 &operator+=(__nv_bfloat16 &a, __nv_bfloat16 b) { return a = __hadd(a, b); }
__WGP_BF__ __nv_bfloat16 &operator-=(__nv_bfloat16 &a, __nv_bfloat16 b) { return a = __hsub(a, b); }
__WGP_BF__ __nv_bfloat16 &operator*=(__nv_bfloat16 &a, __nv_bfloat16 b) { return a = __hmul(a, b); }
__WGP_BF__ __nv_bfloat16 &operator/=(__nv_bfloat16 &a, __nv_bfloat16 b) { return a = __hdiv(a, b); }
__WGP_BF__ __nv_bfloat16 &operator++(__nv_bfloat16 &a) { return a = __hadd(a, CUDART_ONE_BF16); }
__WGP_BF__ __nv_bfloat16 &operator--(__nv_bfloat16 &a) { return a = __hsub(a, CUDART_ONE_BF16); }
__WGP_BF__ __nv_bfloat16 operator++(__nv_bfloat16 &a, int) {
  __nv_bfloat16 old = a;
  a = __hadd(a, CUDART_ONE_BF16);
  return old;
}
__WGP_BF__ __nv_bfloat16 operator--(__nv_bfloat16 &a, int) {
  __nv_bfloat16 old = a;
  a = __hsub(a, CUDART_ONE_BF16);
  return old;
}
__WGP_BF__ bool operator==(__nv_bfloat16 a, __nv_bfloat16 b) { return __heq(a, b); }
__WGP_BF__ bool operator!=(__nv_bfloat16 a, __nv_bfloat16 b) { return __hneu(a, b); }
__WGP_BF__ bool operator<(__nv_bfloat16 a, __nv_bfloat16 b) { return __hlt(a, b); }
__WGP_BF__ bool operator<=(__nv_bfloat16 a, __nv_bfloat16 b) { return __hle(a, b); }
__WGP_BF__ bool operator>(__nv_bfloat16 a, __nv_bfloat16 b) { return __hgt(a, b); }
__WGP_BF__ bool operator>=(__nv_bfloat16 a, __nv_bfloat16 b) { return __hge(a, b); }
__WGP_BF__ __nv_bfloat162 operator+(__nv_bfloat162 a, __nv_bfloat162 b) { return __hadd2(a, b); }
__WGP_BF__ __nv_bfloat162 operator-(__nv_bfloat162 a, __nv_bfloat162 b) { return __hsub2(a, b); }
__WGP_BF__ __nv_bfloat162 operator*(__nv_bfloat162 a, __nv_bfloat162 b) { return __hmul2(a, b); }
__WGP_BF__ __nv_bfloat162 operator/(__nv_bfloat162 a, __nv_bfloat162 b) { return __h2div(a, b); }
__WGP_BF__ __nv_bfloat162 operator-(__nv_bfloat162 a) { return __hneg2(a); }
__WGP_BF__ __nv_bfloat162 operator+(__nv_bfloat162 a) { return a; }
__WGP_BF__ __nv_bfloat162 &operator+=(__nv_bfloat162 &a, __nv_bfloat162 b) { return a = __hadd2(a, b); }
__WGP_BF__ __nv_bfloat162 &operator-=(__nv_bfloat162 &a, __nv_bfloat162 b) { return a = __hsub2(a, b); }
__WGP_BF__ __nv_bfloat162 &operator*=(__nv_bfloat162 &a, __nv_bfloat162 b) { return a = __hmul2(a, b); }
__WGP_BF__ __nv_bfloat162 &operator/=(__nv_bfloat162 &a, __nv_bfloat162 b) { return a = __h2div(a, b); }
__WGP_BF__ bool operator==(__nv_bfloat162 a, __nv_bfloat162 b) { return __hbeq2(a, b); }
__WGP_BF__ bool operator!=(__nv_bfloat162 a, __nv_bfloat162 b) { return __hbneu2(a, b); }
__WGP_BF__ bool operator<(__nv_bfloat162 a, __nv_bfloat162 b) { return __hblt2(a, b); }
__WGP_BF__ bool operator<=(__nv_bfloat162 a, __nv_bfloat162 b) { return __hble2(a, b); }
__WGP_BF__ bool operator>(__nv_bfloat162 a, __nv_bfloat162 b) { return __hbgt2(a, b); }
__WGP_BF__ bool operator>=(__nv_bfloat162 a, __nv_bfloat162 b) { return __hbge2(a, b); }

/* Atomic adds: one read-modify-write of the 2-byte value (an atomicrmw fadd; sm_90 has
 * the instruction, sm_80 a compare-and-swap loop, which the model does not tell apart).
 * For a pair, CUDA makes each lane atomic by itself, not the 4-byte word: two adds here,
 * where sm_90 issues one bf16x2 atomic. */
static __device__ __forceinline__ __nv_bfloat16 atomicAdd(__nv_bfloat16 *p, __nv_bfloat16 v) {
  return __nv_bfloat16(__atomic_fetch_add(&p->__x, v.__x, __ATOMIC_RELAXED));
}
static __device__ __forceinline__ __nv_bfloat162 atomicAdd(__nv_bfloat162 *p, __nv_bfloat162 v) {
  __nv_bfloat16 lo = atomicAdd(&p->x, v.x), hi = atomicAdd(&p->y, v.y);
  return __nv_bfloat162(lo, hi);
}

/* warp shuffles: a bfloat16 moves in the low 16 bits, a pair as one 32-bit word; the offset
 * of up and down is unsigned, as in clang's shuffles */
#define __WGP_BFSHFL(name, Off)                                                                                  \
  static __device__ __forceinline__ __nv_bfloat16 name(unsigned m, __nv_bfloat16 v, Off o, int w = 32) {         \
    return __ushort_as_bfloat16((unsigned short)name(m, (int)__bfloat16_as_ushort(v), o, w));                    \
  }                                                                                                              \
  static __device__ __forceinline__ __nv_bfloat162 name(unsigned m, __nv_bfloat162 v, Off o, int w = 32) {       \
    return __nv_bfloat162(__builtin_bit_cast(__wgp_b2v, name(m, __builtin_bit_cast(int, v.__v), o, w)));         \
  }
__WGP_BFSHFL(__shfl_sync, int)
__WGP_BFSHFL(__shfl_xor_sync, int)
__WGP_BFSHFL(__shfl_up_sync, unsigned)
__WGP_BFSHFL(__shfl_down_sync, unsigned)
#undef __WGP_BFSHFL

#undef __WGP_BF__
#endif
