/* cuda_compat.h - wgperf's stand-in for the CUDA headers where no CUDA toolkit
 * clang 19 reads is installed (docs/cuda.md; with one, the toolkit's headers and
 * cuda_toolkit_compat.h are used instead, and this header is not).
 *
 * The driver then compiles a .cu file with -nocudainc and force-includes this header
 * (the host API's declarations come from include/wgperf/cuda/):
 *
 *   clang-19 -x cuda --cuda-device-only --cuda-gpu-arch=sm_80 -nocudainc -nocudalib \
 *            --cuda-feature=+ptx78 -include cuda_compat.h -isystem include/wgperf/cuda ...
 *
 * What clang 19 ships for CUDA itself is included, not written again: the built-in
 * index variables and warpSize (__clang_cuda_builtin_vars.h), libdevice's declarations,
 * the device functions and intrinsics (__clang_cuda_device_functions.h: barriers with a
 * reduction, fences, bit and integer intrinsics, conversions, reinterpretations,
 * rounding-mode arithmetic, the fast-math and SIMD intrinsics, clock), the C math
 * library (__clang_cuda_math.h) and the warp primitives, __ldg and the funnel shifts
 * (__clang_cuda_intrinsics.h, which includes the warp matches from our
 * cuda/crt/sm_70_rt.hpp as it does CUDA's).  These are the same headers clang's CUDA wrapper
 * includes over a real toolkit, so a kernel compiles to the same IR either way, and the
 * plugin classes their libdevice calls and inline PTX as it does there (Toolkit.cpp).
 * They come without the parts CUDA's own headers declare, which this header writes: the
 * execution-space attributes, dim3 and the vector types, atomicAdd and the other
 * atomics, the C++ float overloads of the math functions and min/max (clang's
 * __clang_cuda_cmath.h has those but needs <limits>), isinf and the like, the
 * <math.h> constants nvcc makes visible everywhere, device printf, assert and malloc,
 * the cache-hinted loads and stores, textures, and, through
 * cuda_compat_intrinsics.h, the dot products.  Kernels that need more of CUDA than this
 * should include their own declarations, or install a toolkit
 * (scripts/install-deps.sh).
 */
#ifndef WGPERF_CUDA_COMPAT_H
#define WGPERF_CUDA_COMPAT_H

#ifndef __CUDA__
#error "cuda_compat.h is for CUDA device compilation (-x cuda)"
#endif

#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __restrict__ __restrict

typedef __SIZE_TYPE__ size_t;
#include <limits.h> /* INT_MAX for __clang_cuda_math.h; nvcc's headers include it too */

struct dim3 {
  unsigned int x, y, z;
  __host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
};

/* Vector types.  CUDA's are structs with .x .y .z .w and the alignment of
 * their size; clang's extended vectors have the same layout and members, and
 * a float4 load is then one 16-byte access as nvcc emits it (ld.v4.f32).
 * Code written for nvcc never uses vector arithmetic, so the extra operators
 * of extended vectors change nothing.  3-element types are plain structs:
 * CUDA's float3 is 12 bytes with 4-byte alignment. */
#define __WGPERF_VEC(T, N, name)                                                        \
  typedef T name __attribute__((ext_vector_type(N)));
#define __WGPERF_VEC_TYPES(T, prefix)                                                   \
  __WGPERF_VEC(T, 2, prefix##2)                                                         \
  __WGPERF_VEC(T, 4, prefix##4)                                                         \
  struct prefix##3 { T x, y, z; };                                                      \
  static __host__ __device__ __forceinline__ prefix##2 make_##prefix##2(T x, T y) {     \
    prefix##2 v = {x, y};                                                               \
    return v;                                                                           \
  }                                                                                     \
  static __host__ __device__ __forceinline__ prefix##3 make_##prefix##3(T x, T y, T z) { \
    prefix##3 v = {x, y, z};                                                            \
    return v;                                                                           \
  }                                                                                     \
  static __host__ __device__ __forceinline__ prefix##4 make_##prefix##4(T x, T y, T z, T w) { \
    prefix##4 v = {x, y, z, w};                                                         \
    return v;                                                                           \
  }
__WGPERF_VEC_TYPES(float, float)
__WGPERF_VEC_TYPES(double, double)
__WGPERF_VEC_TYPES(int, int)
__WGPERF_VEC_TYPES(unsigned int, uint)
__WGPERF_VEC_TYPES(short, short)
__WGPERF_VEC_TYPES(unsigned short, ushort)
__WGPERF_VEC_TYPES(signed char, char)
__WGPERF_VEC_TYPES(unsigned char, uchar)
__WGPERF_VEC_TYPES(long, long)
__WGPERF_VEC_TYPES(unsigned long, ulong)
__WGPERF_VEC_TYPES(long long, longlong)
__WGPERF_VEC_TYPES(unsigned long long, ulonglong)
#undef __WGPERF_VEC_TYPES
#undef __WGPERF_VEC

/* The C math environment nvcc gives every .cu file (its runtime headers include <math.h>):
 * INFINITY, NAN, HUGE_VAL(F), MAXFLOAT and the M_ constants, spelt token for token as glibc
 * spells them so that a later #include <math.h> or <cmath> redefines them silently (and
 * before clang's math header, which uses HUGE_VAL); isinf, isnan, isfinite and signbit
 * below.  <math.h> itself is not included: parsing <cmath> takes clang longer than the
 * rest of a small kernel's compile. */
#ifndef INFINITY
#define INFINITY (__builtin_inff ())
#endif
#ifndef NAN
#define NAN (__builtin_nanf (""))
#endif
#ifndef HUGE_VAL
#define HUGE_VAL (__builtin_huge_val ())
#endif
#ifndef HUGE_VALF
#define HUGE_VALF (__builtin_huge_valf ())
#endif
#ifndef MAXFLOAT
#define MAXFLOAT 3.40282347e+38F
#endif
#ifndef M_PI
#define M_E 2.7182818284590452354
#define M_LOG2E 1.4426950408889634074
#define M_LOG10E 0.43429448190325182765
#define M_LN2 0.69314718055994530942
#define M_LN10 2.30258509299404568402
#define M_PI 3.14159265358979323846
#define M_PI_2 1.57079632679489661923
#define M_PI_4 0.78539816339744830962
#define M_1_PI 0.31830988618379067154
#define M_2_PI 0.63661977236758134308
#define M_2_SQRTPI 1.12837916709551257390
#define M_SQRT2 1.41421356237309504880
#define M_SQRT1_2 0.70710678118654752440
#endif
#ifndef M_PIf
#define M_Ef 2.7182818284590452354f
#define M_LOG2Ef 1.4426950408889634074f
#define M_LOG10Ef 0.43429448190325182765f
#define M_LN2f 0.69314718055994530942f
#define M_LN10f 2.30258509299404568402f
#define M_PIf 3.14159265358979323846f
#define M_PI_2f 1.57079632679489661923f
#define M_PI_4f 0.78539816339744830962f
#define M_1_PIf 0.31830988618379067154f
#define M_2_PIf 0.63661977236758134308f
#define M_2_SQRTPIf 1.12837916709551257390f
#define M_SQRT2f 1.41421356237309504880f
#define M_SQRT1_2f 0.70710678118654752440f
#endif

/* clang's own CUDA headers, in the order its wrapper includes them.  They choose their
 * forms by CUDA_VERSION (the CUDA 9.2 and later ones here, as for CUDA 11.8), which is
 * defined only while they are read: a program's own #if CUDA_VERSION sees none. */
typedef unsigned int cuuint32_t; /* cuda.h's, which __clang_cuda_intrinsics.h uses */
#pragma push_macro("CUDA_VERSION")
#undef CUDA_VERSION
#define CUDA_VERSION 11080
#include <__clang_cuda_builtin_vars.h>
#include <__clang_cuda_libdevice_declares.h>
#include <__clang_cuda_device_functions.h>
#include <__clang_cuda_math.h>
#include <__clang_cuda_intrinsics.h>
#pragma pop_macro("CUDA_VERSION")

/* the built-in variables as dim3 or uint3 (dim3 b = blockDim), which
 * __clang_cuda_builtin_vars.h declares and CUDA's vector types define */
#define __WGPERF_BUILTIN_CONVERSIONS(T)                                                 \
  __device__ inline T::operator dim3() const { return dim3(x, y, z); }                  \
  __device__ inline T::operator uint3() const { return {x, y, z}; }
__WGPERF_BUILTIN_CONVERSIONS(__cuda_builtin_threadIdx_t)
__WGPERF_BUILTIN_CONVERSIONS(__cuda_builtin_blockIdx_t)
__WGPERF_BUILTIN_CONVERSIONS(__cuda_builtin_blockDim_t)
__WGPERF_BUILTIN_CONVERSIONS(__cuda_builtin_gridDim_t)
#undef __WGPERF_BUILTIN_CONVERSIONS

/* Atomics: plain clang builtins give atomicrmw/cmpxchg instructions. */
#define __WGPERF_ATOMIC(name, builtin, T)                                               \
  static __device__ __forceinline__ T name(T *p, T v) { return builtin(p, v, __ATOMIC_RELAXED); }
__WGPERF_ATOMIC(atomicAdd, __atomic_fetch_add, int)
__WGPERF_ATOMIC(atomicAdd, __atomic_fetch_add, unsigned int)
__WGPERF_ATOMIC(atomicAdd, __atomic_fetch_add, unsigned long long)
__WGPERF_ATOMIC(atomicSub, __atomic_fetch_sub, int)
__WGPERF_ATOMIC(atomicSub, __atomic_fetch_sub, unsigned int)
__WGPERF_ATOMIC(atomicMin, __atomic_fetch_min, int)
__WGPERF_ATOMIC(atomicMin, __atomic_fetch_min, unsigned int)
__WGPERF_ATOMIC(atomicMax, __atomic_fetch_max, int)
__WGPERF_ATOMIC(atomicMax, __atomic_fetch_max, unsigned int)
__WGPERF_ATOMIC(atomicAnd, __atomic_fetch_and, int)
__WGPERF_ATOMIC(atomicAnd, __atomic_fetch_and, unsigned int)
__WGPERF_ATOMIC(atomicOr, __atomic_fetch_or, int)
__WGPERF_ATOMIC(atomicOr, __atomic_fetch_or, unsigned int)
__WGPERF_ATOMIC(atomicXor, __atomic_fetch_xor, int)
__WGPERF_ATOMIC(atomicXor, __atomic_fetch_xor, unsigned int)
__WGPERF_ATOMIC(atomicExch, __atomic_exchange_n, int)
__WGPERF_ATOMIC(atomicExch, __atomic_exchange_n, unsigned int)
__WGPERF_ATOMIC(atomicMin, __atomic_fetch_min, long long)
__WGPERF_ATOMIC(atomicMin, __atomic_fetch_min, unsigned long long)
__WGPERF_ATOMIC(atomicMax, __atomic_fetch_max, long long)
__WGPERF_ATOMIC(atomicMax, __atomic_fetch_max, unsigned long long)
__WGPERF_ATOMIC(atomicAnd, __atomic_fetch_and, unsigned long long)
__WGPERF_ATOMIC(atomicOr, __atomic_fetch_or, unsigned long long)
__WGPERF_ATOMIC(atomicXor, __atomic_fetch_xor, unsigned long long)
__WGPERF_ATOMIC(atomicExch, __atomic_exchange_n, unsigned long long)
#undef __WGPERF_ATOMIC
static __device__ __forceinline__ float atomicAdd(float *p, float v) {
  return __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
}
static __device__ __forceinline__ double atomicAdd(double *p, double v) {
  return __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
}
static __device__ __forceinline__ int atomicCAS(int *p, int cmp, int v) {
  __atomic_compare_exchange_n(p, &cmp, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  return cmp;
}
static __device__ __forceinline__ unsigned int atomicCAS(unsigned int *p, unsigned int cmp, unsigned int v) {
  __atomic_compare_exchange_n(p, &cmp, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  return cmp;
}

/* The C++ overloads CUDA's headers add for float (sqrt(float) is sqrtf, not a double
 * sqrt, so a kernel nvcc compiles in single precision is modelled in single precision
 * here too); the C functions themselves are clang's (__clang_cuda_math.h). */
#define __WGPERF_F1(fn) \
  static __device__ __forceinline__ float fn(float x) { return fn##f(x); }
#define __WGPERF_F2(fn) \
  static __device__ __forceinline__ float fn(float x, float y) { return fn##f(x, y); }
__WGPERF_F1(sqrt) __WGPERF_F1(fabs) __WGPERF_F1(floor) __WGPERF_F1(ceil) __WGPERF_F1(trunc)
__WGPERF_F1(round) __WGPERF_F1(rint) __WGPERF_F1(nearbyint) __WGPERF_F1(sin) __WGPERF_F1(cos)
__WGPERF_F1(tan) __WGPERF_F1(exp) __WGPERF_F1(exp2) __WGPERF_F1(log) __WGPERF_F1(log2)
__WGPERF_F1(log10) __WGPERF_F1(atan) __WGPERF_F1(tanh) __WGPERF_F1(asin) __WGPERF_F1(acos)
__WGPERF_F1(sinh) __WGPERF_F1(cosh) __WGPERF_F1(asinh) __WGPERF_F1(acosh) __WGPERF_F1(atanh)
__WGPERF_F1(erf) __WGPERF_F1(erfc) __WGPERF_F1(erfinv) __WGPERF_F1(erfcinv) __WGPERF_F1(expm1)
__WGPERF_F1(log1p) __WGPERF_F1(cbrt) __WGPERF_F1(lgamma) __WGPERF_F1(tgamma) __WGPERF_F1(exp10)
__WGPERF_F1(logb) __WGPERF_F1(normcdf) __WGPERF_F1(normcdfinv) __WGPERF_F1(rcbrt)
__WGPERF_F1(sinpi) __WGPERF_F1(cospi) __WGPERF_F1(cyl_bessel_i0) __WGPERF_F1(cyl_bessel_i1)
__WGPERF_F1(erfcx) __WGPERF_F1(j0) __WGPERF_F1(j1) __WGPERF_F1(y0) __WGPERF_F1(y1)
__WGPERF_F1(rsqrt)
__WGPERF_F2(atan2) __WGPERF_F2(hypot) __WGPERF_F2(fmod) __WGPERF_F2(remainder) __WGPERF_F2(fdim)
__WGPERF_F2(nextafter) __WGPERF_F2(pow) __WGPERF_F2(fmin) __WGPERF_F2(fmax) __WGPERF_F2(copysign)
__WGPERF_F2(rhypot)
#undef __WGPERF_F1
#undef __WGPERF_F2
static __device__ __forceinline__ float fma(float x, float y, float z) { return fmaf(x, y, z); }
static __device__ __forceinline__ float ldexp(float x, int e) { return ldexpf(x, e); }
static __device__ __forceinline__ long lrint(float x) { return lrintf(x); }
static __device__ __forceinline__ long lround(float x) { return lroundf(x); }
static __device__ __forceinline__ long long llrint(float x) { return llrintf(x); }
static __device__ __forceinline__ long long llround(float x) { return llroundf(x); }
static __device__ __forceinline__ float norm3d(float a, float b, float c) { return norm3df(a, b, c); }
static __device__ __forceinline__ float rnorm3d(float a, float b, float c) { return rnorm3df(a, b, c); }
static __device__ __forceinline__ float norm4d(float a, float b, float c, float d) { return norm4df(a, b, c, d); }
static __device__ __forceinline__ float rnorm4d(float a, float b, float c, float d) { return rnorm4df(a, b, c, d); }
#define __WGPERF_FPCLASS(name, builtin)                                                  \
  static __device__ __forceinline__ bool name(float x) { return builtin(x); }           \
  static __device__ __forceinline__ bool name(double x) { return builtin(x); }
__WGPERF_FPCLASS(isinf, __builtin_isinf) __WGPERF_FPCLASS(isnan, __builtin_isnan)
__WGPERF_FPCLASS(isfinite, __builtin_isfinite) __WGPERF_FPCLASS(signbit, __builtin_signbit)
#undef __WGPERF_FPCLASS

/* min and max for the types other than int (clang's) that CUDA overloads them for */
static __device__ __forceinline__ unsigned int min(unsigned int a, unsigned int b) { return a < b ? a : b; }
static __device__ __forceinline__ unsigned int max(unsigned int a, unsigned int b) { return a > b ? a : b; }
#define __WGPERF_MINMAX(T)                                                               \
  static __device__ __forceinline__ T min(T a, T b) { return a < b ? a : b; }           \
  static __device__ __forceinline__ T max(T a, T b) { return a > b ? a : b; }
__WGPERF_MINMAX(long) __WGPERF_MINMAX(unsigned long) __WGPERF_MINMAX(long long)
__WGPERF_MINMAX(unsigned long long)
#undef __WGPERF_MINMAX
static __device__ __forceinline__ float min(float a, float b) { return __builtin_fminf(a, b); }
static __device__ __forceinline__ float max(float a, float b) { return __builtin_fmaxf(a, b); }
static __device__ __forceinline__ double min(double a, double b) { return __builtin_fmin(a, b); }
static __device__ __forceinline__ double max(double a, double b) { return __builtin_fmax(a, b); }
static __device__ __forceinline__ unsigned min(int a, unsigned b) { return min((unsigned)a, b); }
static __device__ __forceinline__ unsigned min(unsigned a, int b) { return min(a, (unsigned)b); }
static __device__ __forceinline__ unsigned max(int a, unsigned b) { return max((unsigned)a, b); }
static __device__ __forceinline__ unsigned max(unsigned a, int b) { return max(a, (unsigned)b); }
static __device__ __forceinline__ double min(float a, double b) { return min((double)a, b); }
static __device__ __forceinline__ double min(double a, float b) { return min(a, (double)b); }
static __device__ __forceinline__ double max(float a, double b) { return max((double)a, b); }
static __device__ __forceinline__ double max(double a, float b) { return max(a, (double)b); }

/* Device printf (clang lowers it to vprintf, as nvcc does) and assert
 * (glibc's macro calls __assert_fail): the host declarations of <cstdio> and
 * <cassert> are not callable from a kernel. */
extern "C" __device__ int printf(const char *, ...);
extern "C" __device__ void __assertfail(const char *, const char *, unsigned, const char *, size_t);
extern "C" __device__ __forceinline__ void __assert_fail(const char *msg, const char *file, unsigned line,
                                                        const char *func) {
  __assertfail(msg, file, line, func, sizeof(char));
}

/* Device-side malloc and free (the heap calls the driver provides; the model reports them
 * as calls it does not cost).  clang's wrapper of <new>, which <algorithm>, <vector> and
 * the other C++ headers include, needs them declared. */
extern "C" __device__ void *malloc(__SIZE_TYPE__) __attribute__((nothrow)) __attribute__((malloc));
extern "C" __device__ void free(void *) __attribute__((nothrow));

/* The cache-hinted loads and stores (__ldcg, __stcs, ...): cuda_compat_hinted.h */
#include "cuda_compat_hinted.h"
/* __ldg for the types clang's overloads (__clang_cuda_intrinsics.h, which win where they
 * apply) leave out, such as __half and structs: a plain load, a global load to the model */
template <typename T> static __device__ __forceinline__ T __ldg(const T *p) { return *p; }

/* More atomics (the 64-bit min/max/and/or/xor/exchange are with the 32-bit ones above):
 * 64-bit compare-and-swap, float exchange, the _block and _system scopes (the same
 * operation to the model), and atomicInc/atomicDec, which are one read-modify-write of a
 * word as an add is: their wrap-around only changes the value returned, which the model
 * takes as loaded data in any case. */
static __device__ __forceinline__ float atomicExch(float *p, float v) {
  return __builtin_bit_cast(float, __atomic_exchange_n((int *)p, __builtin_bit_cast(int, v), __ATOMIC_RELAXED));
}
static __device__ __forceinline__ unsigned long long atomicCAS(unsigned long long *p, unsigned long long cmp,
                                                               unsigned long long v) {
  __atomic_compare_exchange_n(p, &cmp, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  return cmp;
}
static __device__ __forceinline__ unsigned int atomicInc(unsigned int *p, unsigned int) {
  return __atomic_fetch_add(p, 1u, __ATOMIC_RELAXED);
}
static __device__ __forceinline__ unsigned int atomicDec(unsigned int *p, unsigned int) {
  return __atomic_fetch_sub(p, 1u, __ATOMIC_RELAXED);
}
#define __WGPERF_SCOPED(op)                                                                          \
  template <typename T, typename U> static __device__ __forceinline__ T op##_block(T *p, U v) {      \
    return op(p, (T)v);                                                                              \
  }                                                                                                  \
  template <typename T, typename U> static __device__ __forceinline__ T op##_system(T *p, U v) {     \
    return op(p, (T)v);                                                                              \
  }
__WGPERF_SCOPED(atomicAdd) __WGPERF_SCOPED(atomicSub) __WGPERF_SCOPED(atomicMin) __WGPERF_SCOPED(atomicMax)
__WGPERF_SCOPED(atomicAnd) __WGPERF_SCOPED(atomicOr) __WGPERF_SCOPED(atomicXor) __WGPERF_SCOPED(atomicExch)
#undef __WGPERF_SCOPED

/* __nanosleep's wait is not modelled. */
static __device__ __forceinline__ void __nanosleep(unsigned) {}
static __device__ __forceinline__ float __float2float_rn(float x) { return x; }

/* Texture objects.  tex1Dfetch reads element I of the linear memory the object was
 * made on: to the model a global load through the object, which a launch sizes with
 * --buffer NAME=BYTES like a pointer (the handle is a pointer here, an unsigned long long
 * in CUDA: host code that assigns 0, passes it or takes its address reads the same).  The
 * filtered reads of CUDA arrays (tex1D, tex2D, tex3D, their layered and LOD forms) have an
 * opaque memory layout: declared only, they are calls the model reports as not modelled. */
typedef const struct __wgp_texture_object *cudaTextureObject_t;
template <typename T> static __device__ __forceinline__ T tex1Dfetch(cudaTextureObject_t t, int i) {
  return ((const T *)t)[i];
}
template <typename T> __device__ T tex1D(cudaTextureObject_t t, float x);
template <typename T> __device__ T tex2D(cudaTextureObject_t t, float x, float y);
template <typename T> __device__ T tex3D(cudaTextureObject_t t, float x, float y, float z);
template <typename T> __device__ T tex1DLayered(cudaTextureObject_t t, float x, int layer);
template <typename T> __device__ T tex2DLayered(cudaTextureObject_t t, float x, float y, int layer);
template <typename T> __device__ T tex2DLod(cudaTextureObject_t t, float x, float y, float level);

#include "cuda_compat_intrinsics.h"

#endif /* WGPERF_CUDA_COMPAT_H */
