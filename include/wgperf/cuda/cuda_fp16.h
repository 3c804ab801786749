/* cuda_fp16.h - half precision (__half, __half2) for wgperf's device-side compile.
 *
 * wgperf compiles .cu files with clang-19 -nocudainc, so the CUDA toolkit's
 * header is not used (clang-19 cannot parse CUDA 13's).  This one gives the
 * names kernels use, written on clang's _Float16: an operation on __half is
 * an LLVM half-precision operation (the fp16_* cost classes), one on __half2
 * a two-lane vector of them.  Values are exact IEEE binary16 arithmetic; the
 * rounding-mode suffixes (_rn, _rz, _rd, _ru) all round to nearest here, which
 * changes no address, branch or count wgperf models.
 */
#ifndef WGPERF_CUDA_FP16_H
#define WGPERF_CUDA_FP16_H

#ifndef WGPERF_CUDA_COMPAT_H
#include "../cuda_compat.h"
#endif

#define __WGP_H__ static __host__ __device__ __forceinline__

typedef _Float16 __wgp_h2v __attribute__((ext_vector_type(2)));

struct __attribute__((aligned(2))) __half {
  _Float16 __x;
  __half() = default;
  __host__ __device__ __half(_Float16 v) : __x(v) {}
  __host__ __device__ __half(float v) : __x((_Float16)v) {}
  __host__ __device__ __half(double v) : __x((_Float16)v) {}
  __host__ __device__ __half(int v) : __x((_Float16)v) {}
  __host__ __device__ __half(unsigned int v) : __x((_Float16)v) {}
  __host__ __device__ __half(long long v) : __x((_Float16)v) {}
  __host__ __device__ __half(unsigned long long v) : __x((_Float16)v) {}
  __host__ __device__ __half(short v) : __x((_Float16)v) {}
  __host__ __device__ __half(unsigned short v) : __x((_Float16)v) {}
  __host__ __device__ operator float() const { return (float)__x; }
  __host__ __device__ __half &operator=(float v) {
    __x = (_Float16)v;
    return *this;
  }
};

struct __attribute__((aligned(4))) __half2 {
  union {
    struct {
      __half x, y;
    };
    __wgp_h2v __v;
  };
  __half2() = default;
  __host__ __device__ __half2(__half a, __half b) : x(a), y(b) {}
  __host__ __device__ __half2(__wgp_h2v v) : __v(v) {}
};

typedef __half half;
typedef __half2 half2;
typedef struct __half __nv_half;
typedef struct __half2 __nv_half2;

/* conversions */
__WGP_H__ __half __float2half(float a) { return __half(a); }
__WGP_H__ __half __float2half_rn(float a) { return __half(a); }
__WGP_H__ __half __float2half_rz(float a) { return __half(a); }
__WGP_H__ __half __float2half_rd(float a) { return __half(a); }
__WGP_H__ __half __float2half_ru(float a) { return __half(a); }
__WGP_H__ __half __double2half(double a) { return __half(a); }
__WGP_H__ float __half2float(__half a) { return (float)a.__x; }
__WGP_H__ __half2 __float2half2_rn(float a) { return __half2(__half(a), __half(a)); }
__WGP_H__ __half2 __floats2half2_rn(float a, float b) { return __half2(__half(a), __half(b)); }
__WGP_H__ __half2 __float22half2_rn(float2 a) { return __half2(__half(a.x), __half(a.y)); }
__WGP_H__ float2 __half22float2(__half2 a) { return make_float2((float)a.x.__x, (float)a.y.__x); }
__WGP_H__ float __low2float(__half2 a) { return (float)a.x.__x; }
__WGP_H__ float __high2float(__half2 a) { return (float)a.y.__x; }
__WGP_H__ __half __low2half(__half2 a) { return a.x; }
__WGP_H__ __half __high2half(__half2 a) { return a.y; }
__WGP_H__ __half2 __low2half2(__half2 a) { return __half2(a.x, a.x); }
__WGP_H__ __half2 __high2half2(__half2 a) { return __half2(a.y, a.y); }
__WGP_H__ __half2 __lows2half2(__half2 a, __half2 b) { return __half2(a.x, b.x); }
__WGP_H__ __half2 __highs2half2(__half2 a, __half2 b) { return __half2(a.y, b.y); }
__WGP_H__ __half2 __halves2half2(__half a, __half b) { return __half2(a, b); }
__WGP_H__ __half2 __half2half2(__half a) { return __half2(a, a); }
__WGP_H__ __half2 make_half2(__half a, __half b) { return __half2(a, b); }
__WGP_H__ __half2 __lowhigh2highlow(__half2 a) { return __half2(a.y, a.x); }
#define __WGP_HCVT(name, T)                                                                                       \
  __WGP_H__ T __half2##name##_rn(__half a) { return (T)a.__x; }                                                  \
  __WGP_H__ T __half2##name##_rz(__half a) { return (T)a.__x; }                                                  \
  __WGP_H__ T __half2##name##_rd(__half a) { return (T)a.__x; }                                                  \
  __WGP_H__ T __half2##name##_ru(__half a) { return (T)a.__x; }                                                  \
  __WGP_H__ __half __##name##2half_rn(T a) { return __half((_Float16)a); }                                       \
  __WGP_H__ __half __##name##2half_rz(T a) { return __half((_Float16)a); }                                       \
  __WGP_H__ __half __##name##2half_rd(T a) { return __half((_Float16)a); }                                       \
  __WGP_H__ __half __##name##2half_ru(T a) { return __half((_Float16)a); }
__WGP_HCVT(int, int)
__WGP_HCVT(uint, unsigned int)
__WGP_HCVT(short, short)
__WGP_HCVT(ushort, unsigned short)
__WGP_HCVT(ll, long long)
__WGP_HCVT(ull, unsigned long long)
#undef __WGP_HCVT
__WGP_H__ short __half_as_short(__half a) { return __builtin_bit_cast(short, a.__x); }
__WGP_H__ unsigned short __half_as_ushort(__half a) { return __builtin_bit_cast(unsigned short, a.__x); }
__WGP_H__ __half __short_as_half(short a) { return __half(__builtin_bit_cast(_Float16, a)); }
__WGP_H__ __half __ushort_as_half(unsigned short a) { return __half(__builtin_bit_cast(_Float16, a)); }

/* arithmetic: __half */
__WGP_H__ __half __hadd(__half a, __half b) { return __half(a.__x + b.__x); }
__WGP_H__ __half __hsub(__half a, __half b) { return __half(a.__x - b.__x); }
__WGP_H__ __half __hmul(__half a, __half b) { return __half(a.__x * b.__x); }
__WGP_H__ __half __hdiv(__half a, __half b) { return __half(a.__x / b.__x); }
__WGP_H__ __half __hadd_sat(__half a, __half b) {
  _Float16 r = a.__x + b.__x;
  return __half(r < (_Float16)0 ? (_Float16)0 : r > (_Float16)1 ? (_Float16)1 : r);
}
__WGP_H__ __half __hfma(__half a, __half b, __half c) { return __half(__builtin_fmaf16(a.__x, b.__x, c.__x)); }
__WGP_H__ __half __hneg(__half a) { return __half(-a.__x); }
__WGP_H__ __half __habs(__half a) { return __half(__builtin_fabsf16(a.__x)); }
__WGP_H__ __half __hmax(__half a, __half b) { return __half(__builtin_fmaxf16(a.__x, b.__x)); }
__WGP_H__ __half __hmin(__half a, __half b) { return __half(__builtin_fminf16(a.__x, b.__x)); }

/* arithmetic: __half2, two lanes */
__WGP_H__ __half2 __hadd2(__half2 a, __half2 b) { return __half2(a.__v + b.__v); }
__WGP_H__ __half2 __hsub2(__half2 a, __half2 b) { return __half2(a.__v - b.__v); }
__WGP_H__ __half2 __hmul2(__half2 a, __half2 b) { return __half2(a.__v * b.__v); }
__WGP_H__ __half2 __h2div(__half2 a, __half2 b) { return __half2(a.__v / b.__v); }
__WGP_H__ __half2 __hfma2(__half2 a, __half2 b, __half2 c) { return __half2(a.__v * b.__v + c.__v); }
__WGP_H__ __half2 __hneg2(__half2 a) { return __half2(-a.__v); }
__WGP_H__ __half2 __habs2(__half2 a) { return __half2(__habs(a.x), __habs(a.y)); }
__WGP_H__ __half2 __hmax2(__half2 a, __half2 b) { return __half2(__hmax(a.x, b.x), __hmax(a.y, b.y)); }
__WGP_H__ __half2 __hmin2(__half2 a, __half2 b) { return __half2(__hmin(a.x, b.x), __hmin(a.y, b.y)); }

/* comparisons */
__WGP_H__ bool __heq(__half a, __half b) { return a.__x == b.__x; }
__WGP_H__ bool __hne(__half a, __half b) { return a.__x != b.__x; }
__WGP_H__ bool __hlt(__half a, __half b) { return a.__x < b.__x; }
__WGP_H__ bool __hle(__half a, __half b) { return a.__x <= b.__x; }
__WGP_H__ bool __hgt(__half a, __half b) { return a.__x > b.__x; }
__WGP_H__ bool __hge(__half a, __half b) { return a.__x >= b.__x; }
__WGP_H__ bool __hisnan(__half a) { return a.__x != a.__x; }
__WGP_H__ int __hisinf(__half a) {
  return a.__x == (_Float16)__builtin_inff() ? 1 : a.__x == -(_Float16)__builtin_inff() ? -1 : 0;
}
__WGP_H__ bool __hbeq2(__half2 a, __half2 b) { return __heq(a.x, b.x) && __heq(a.y, b.y); }
__WGP_H__ bool __hbne2(__half2 a, __half2 b) { return __hne(a.x, b.x) && __hne(a.y, b.y); }
__WGP_H__ bool __hblt2(__half2 a, __half2 b) { return __hlt(a.x, b.x) && __hlt(a.y, b.y); }
__WGP_H__ bool __hble2(__half2 a, __half2 b) { return __hle(a.x, b.x) && __hle(a.y, b.y); }
__WGP_H__ bool __hbgt2(__half2 a, __half2 b) { return __hgt(a.x, b.x) && __hgt(a.y, b.y); }
__WGP_H__ bool __hbge2(__half2 a, __half2 b) { return __hge(a.x, b.x) && __hge(a.y, b.y); }

/* math: computed in single precision, as the hardware's half functions are */
#define __WGP_HMATH(h, h2, f)                                                                                    \
  static __device__ __forceinline__ __half h(__half a) { return __half(f((float)a.__x)); }                      \
  static __device__ __forceinline__ __half2 h2(__half2 a) { return __half2(h(a.x), h(a.y)); }
__WGP_HMATH(hsqrt, h2sqrt, sqrtf)
__WGP_HMATH(hrsqrt, h2rsqrt, rsqrtf)
__WGP_HMATH(hrcp, h2rcp, 1.0f /)
__WGP_HMATH(hexp, h2exp, expf)
__WGP_HMATH(hexp2, h2exp2, exp2f)
__WGP_HMATH(hexp10, h2exp10, exp10f)
__WGP_HMATH(hlog, h2log, logf)
__WGP_HMATH(hlog2, h2log2, log2f)
__WGP_HMATH(hlog10, h2log10, log10f)
__WGP_HMATH(hsin, h2sin, sinf)
__WGP_HMATH(hcos, h2cos, cosf)
__WGP_HMATH(htanh_approx, h2tanh_approx, tanhf)
__WGP_HMATH(hfloor, h2floor, floorf)
__WGP_HMATH(hceil, h2ceil, ceilf)
__WGP_HMATH(htrunc, h2trunc, truncf)
__WGP_HMATH(hrint, h2rint, rintf)
#undef __WGP_HMATH

/* operators, as CUDA's header defines them for device code */
__WGP_H__ __half operator+(__half a, __half b) { return __hadd(a, b); }
__WGP_H__ __half operator-(__half a, __half b) { return __hsub(a, b); }
__WGP_H__ __half operator*(__half a, __half b) { return __hmul(a, b); }
__WGP_H__ __half operator/(__half a, __half b) { return __hdiv(a, b); }
__WGP_H__ __half operator-(__half a) { return __hneg(a); }
__WGP_H__ __half operator+(__half a) { return a; }
__WGP_H__ __half &operator+=(__half &a, __half b) { return a = __hadd(a, b); }
__WGP_H__ __half &operator-=(__half &a, __half b) { return a = __hsub(a, b); }
__WGP_H__ __half &operator*=(__half &a, __half b) { return a = __hmul(a, b); }
__WGP_H__ __half &operator/=(__half &a, __half b) { return a = __hdiv(a, b); }
__WGP_H__ bool operator==(__half a, __half b) { return __heq(a, b); }
__WGP_H__ bool operator!=(__half a, __half b) { return __hne(a, b); }
__WGP_H__ bool operator<(__half a, __half b) { return __hlt(a, b); }
__WGP_H__ bool operator<=(__half a, __half b) { return __hle(a, b); }
__WGP_H__ bool operator>(__half a, __half b) { return __hgt(a, b); }
__WGP_H__ bool operator>=(__half a, __half b) { return __hge(a, b); }
__WGP_H__ __half2 operator+(__half2 a, __half2 b) { return __hadd2(a, b); }
__WGP_H__ __half2 operator-(__half2 a, __half2 b) { return __hsub2(a, b); }
__WGP_H__ __half2 operator*(__half2 a, __half2 b) { return __hmul2(a, b); }
__WGP_H__ __half2 operator/(__half2 a, __half2 b) { return __h2div(a, b); }
__WGP_H__ __half2 operator-(__half2 a) { return __hneg2(a); }
__WGP_H__ __half2 &operator+=(__half2 &a, __half2 b) { return a = __hadd2(a, b); }
__WGP_H__ __half2 &operator-=(__half2 &a, __half2 b) { return a = __hsub2(a, b); }
__WGP_H__ __half2 &operator*=(__half2 &a, __half2 b) { return a = __hmul2(a, b); }
__WGP_H__ __half2 &operator/=(__half2 &a, __half2 b) { return a = __h2div(a, b); }

/* Atomic adds: one read-modify-write of the 2-byte value (an atomicrmw fadd, the GPU's
 * atom.add.noftz.f16).  For a __half2 CUDA makes each half atomic by itself, not the
 * 4-byte word: two adds here, where sm_60 and later issue one f16x2 atomic. */
static __device__ __forceinline__ __half atomicAdd(__half *p, __half v) {
  return __half(__atomic_fetch_add(&p->__x, v.__x, __ATOMIC_RELAXED));
}
static __device__ __forceinline__ __half2 atomicAdd(__half2 *p, __half2 v) {
  __half lo = atomicAdd(&p->x, v.x), hi = atomicAdd(&p->y, v.y);
  return __half2(lo, hi);
}

/* warp shuffles: a half moves in the low 16 bits, a half2 as one 32-bit word; the offset
 * of up and down is unsigned, as in clang's shuffles (__ldg is cuda_compat.h's template) */
#define __WGP_HSHFL(name, Off)                                                                                  \
  static __device__ __forceinline__ __half name(unsigned m, __half v, Off o, int w = 32) {                      \
    return __ushort_as_half((unsigned short)name(m, (int)__half_as_ushort(v), o, w));                           \
  }                                                                                                             \
  static __device__ __forceinline__ __half2 name(unsigned m, __half2 v, Off o, int w = 32) {                    \
    return __half2(__builtin_bit_cast(__wgp_h2v, name(m, __builtin_bit_cast(int, v.__v), o, w)));               \
  }
__WGP_HSHFL(__shfl_sync, int)
__WGP_HSHFL(__shfl_xor_sync, int)
__WGP_HSHFL(__shfl_up_sync, unsigned)
__WGP_HSHFL(__shfl_down_sync, unsigned)
#undef __WGP_HSHFL

#undef __WGP_H__
#endif
