/* cuda_compat.h - just enough of CUDA's device environment for clang-19.
 *
 * clang-19 cannot parse the CUDA 13 headers installed on these machines, so
 * wgperf compiles .cu kernels with -nocudainc -nocudalib and force-includes
 * this header instead:
 *
 *   clang-19 -x cuda --cuda-device-only --cuda-gpu-arch=sm_80 -nocudainc \
 *            -nocudalib -include cuda_compat.h -fpass-plugin=libwgperf.so k.cu
 *
 * It provides the execution-space attributes, the built-in index variables,
 * __syncthreads (and its _count/_and/_or forms), fences, atomics, warp shuffles,
 * votes, matches and reductions, bit intrinsics, __ldg and the cache-hinted loads
 * and stores, the fp32/fp64 math functions (mapped to clang builtins so the plugin
 * sees llvm.sqrt, llvm.sin, ... or libdevice-style calls it can classify), the
 * <math.h> names nvcc makes visible everywhere (INFINITY, M_PI, isnan, ...), and,
 * through cuda_compat_intrinsics.h, the integer and SIMD intrinsics.  Kernels that
 * need more of CUDA than this should include their own declarations.
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

struct dim3 {
  unsigned int x, y, z;
  __host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
};

#define __WGPERF_SREG(name, reg)                                                        \
  struct __wgperf_##name##_t {                                                         \
    __declspec(property(get = __fetch_x)) unsigned int x;                              \
    __declspec(property(get = __fetch_y)) unsigned int y;                              \
    __declspec(property(get = __fetch_z)) unsigned int z;                              \
    static __device__ __forceinline__ unsigned int __fetch_x() { return __nvvm_read_ptx_sreg_##reg##_x(); } \
    static __device__ __forceinline__ unsigned int __fetch_y() { return __nvvm_read_ptx_sreg_##reg##_y(); } \
    static __device__ __forceinline__ unsigned int __fetch_z() { return __nvvm_read_ptx_sreg_##reg##_z(); } \
  };                                                                                   \
  extern const __device__ __attribute__((weak)) __wgperf_##name##_t name;

__WGPERF_SREG(threadIdx, tid)
__WGPERF_SREG(blockIdx, ctaid)
__WGPERF_SREG(blockDim, ntid)
__WGPERF_SREG(gridDim, nctaid)
#undef __WGPERF_SREG

/* a constant, not a macro: host code names cudaDeviceProp::warpSize */
static constexpr int warpSize = 32;

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

/* __syncthreads is a clang builtin in CUDA mode (llvm.nvvm.barrier0).  The barriers that
 * also reduce a predicate over the block are one BAR.RED each (llvm.nvvm.barrier0.popc,
 * .and, .or): a barrier to the model, and the reduction's result an integer operation. */
static __device__ __forceinline__ int __syncthreads_count(int p) { return __nvvm_bar0_popc(p); }
static __device__ __forceinline__ int __syncthreads_and(int p) { return __nvvm_bar0_and(p); }
static __device__ __forceinline__ int __syncthreads_or(int p) { return __nvvm_bar0_or(p); }
static __device__ __forceinline__ void __threadfence(void) { __nvvm_membar_gl(); }
static __device__ __forceinline__ void __threadfence_block(void) { __nvvm_membar_cta(); }

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

/* Math.  Functions the GPU computes with a few instructions go through
 * clang builtins (llvm.sqrt, llvm.floor, ...).  The others are calls to
 * libdevice's __nv_* functions, as clang's and nvcc's own headers make
 * them, declared const (they touch no memory, so loads on either side of
 * them still combine): the plugin classifies them by name, and `wgperf extract` links
 * libdevice before asking ptxas for register counts (llc cannot lower
 * llvm.exp or llvm.sin by itself).  CUDA's C++ headers also overload the
 * plain names for float (sqrt(float) is sqrtf, not a double sqrt), so a
 * kernel nvcc compiles in single precision is modelled in single precision
 * here too. */
#define __WGPERF_MATH_BUILTIN(fn)                                                        \
  static __device__ __forceinline__ float fn##f(float x) { return __builtin_##fn##f(x); } \
  static __device__ __forceinline__ double fn(double x) { return __builtin_##fn(x); }    \
  static __device__ __forceinline__ float fn(float x) { return __builtin_##fn##f(x); }
#define __WGPERF_MATH_NV(fn)                                                             \
  extern "C" __device__ __attribute__((const)) float __nv_##fn##f(float);               \
  extern "C" __device__ __attribute__((const)) double __nv_##fn(double);                \
  static __device__ __forceinline__ float fn##f(float x) { return __nv_##fn##f(x); }     \
  static __device__ __forceinline__ double fn(double x) { return __nv_##fn(x); }         \
  static __device__ __forceinline__ float fn(float x) { return __nv_##fn##f(x); }
__WGPERF_MATH_BUILTIN(sqrt) __WGPERF_MATH_BUILTIN(fabs) __WGPERF_MATH_BUILTIN(floor)
__WGPERF_MATH_BUILTIN(ceil) __WGPERF_MATH_BUILTIN(trunc) __WGPERF_MATH_BUILTIN(round)
__WGPERF_MATH_NV(sin) __WGPERF_MATH_NV(cos) __WGPERF_MATH_NV(tan) __WGPERF_MATH_NV(exp)
__WGPERF_MATH_NV(exp2) __WGPERF_MATH_NV(log) __WGPERF_MATH_NV(log2) __WGPERF_MATH_NV(log10)
__WGPERF_MATH_NV(atan) __WGPERF_MATH_NV(tanh) __WGPERF_MATH_NV(asin) __WGPERF_MATH_NV(acos)
__WGPERF_MATH_NV(sinh) __WGPERF_MATH_NV(cosh) __WGPERF_MATH_NV(asinh) __WGPERF_MATH_NV(acosh)
__WGPERF_MATH_NV(atanh) __WGPERF_MATH_NV(erf) __WGPERF_MATH_NV(erfc) __WGPERF_MATH_NV(erfinv)
__WGPERF_MATH_NV(erfcinv) __WGPERF_MATH_NV(expm1) __WGPERF_MATH_NV(log1p) __WGPERF_MATH_NV(cbrt)
__WGPERF_MATH_NV(lgamma) __WGPERF_MATH_NV(tgamma) __WGPERF_MATH_NV(exp10) __WGPERF_MATH_NV(logb)
/* the rest of the math library nvcc offers (normcdf, Bessel, ...) */
__WGPERF_MATH_NV(normcdf) __WGPERF_MATH_NV(normcdfinv) __WGPERF_MATH_NV(rcbrt) __WGPERF_MATH_NV(sinpi)
__WGPERF_MATH_NV(cospi) __WGPERF_MATH_NV(cyl_bessel_i0) __WGPERF_MATH_NV(cyl_bessel_i1) __WGPERF_MATH_NV(erfcx)
__WGPERF_MATH_NV(j0) __WGPERF_MATH_NV(j1) __WGPERF_MATH_NV(y0) __WGPERF_MATH_NV(y1)
__WGPERF_MATH_BUILTIN(rint) __WGPERF_MATH_BUILTIN(nearbyint)
#define __WGPERF_MATH_NV2(fn)                                                            \
  extern "C" __device__ __attribute__((const)) float __nv_##fn##f(float, float);        \
  extern "C" __device__ __attribute__((const)) double __nv_##fn(double, double);        \
  static __device__ __forceinline__ float fn##f(float x, float y) { return __nv_##fn##f(x, y); } \
  static __device__ __forceinline__ double fn(double x, double y) { return __nv_##fn(x, y); }    \
  static __device__ __forceinline__ float fn(float x, float y) { return __nv_##fn##f(x, y); }
__WGPERF_MATH_NV2(atan2) __WGPERF_MATH_NV2(hypot) __WGPERF_MATH_NV2(fmod) __WGPERF_MATH_NV2(remainder)
__WGPERF_MATH_NV2(fdim) __WGPERF_MATH_NV2(nextafter)
#undef __WGPERF_MATH_BUILTIN
#undef __WGPERF_MATH_NV
#undef __WGPERF_MATH_NV2
static __device__ __forceinline__ float copysignf(float x, float y) { return __builtin_copysignf(x, y); }
static __device__ __forceinline__ double copysign(double x, double y) { return __builtin_copysign(x, y); }
static __device__ __forceinline__ float ldexpf(float x, int e) { return __builtin_ldexpf(x, e); }
static __device__ __forceinline__ double ldexp(double x, int e) { return __builtin_ldexp(x, e); }
extern "C" __device__ void __nv_sincosf(float, float *, float *);
extern "C" __device__ void __nv_sincos(double, double *, double *);
static __device__ __forceinline__ void sincosf(float x, float *s, float *c) { __nv_sincosf(x, s, c); }
static __device__ __forceinline__ void sincos(double x, double *s, double *c) { __nv_sincos(x, s, c); }
extern "C" __device__ __attribute__((const)) float __nv_powf(float, float);
extern "C" __device__ __attribute__((const)) double __nv_pow(double, double);
static __device__ __forceinline__ float powf(float x, float y) { return __nv_powf(x, y); }
static __device__ __forceinline__ double pow(double x, double y) { return __nv_pow(x, y); }
static __device__ __forceinline__ float pow(float x, float y) { return __nv_powf(x, y); }
static __device__ __forceinline__ float fminf(float x, float y) { return __builtin_fminf(x, y); }
static __device__ __forceinline__ float fmaxf(float x, float y) { return __builtin_fmaxf(x, y); }
static __device__ __forceinline__ double fmin(double x, double y) { return __builtin_fmin(x, y); }
static __device__ __forceinline__ double fmax(double x, double y) { return __builtin_fmax(x, y); }
static __device__ __forceinline__ float fmaf(float x, float y, float z) { return __builtin_fmaf(x, y, z); }
static __device__ __forceinline__ double fma(double x, double y, double z) { return __builtin_fma(x, y, z); }
static __device__ __forceinline__ float rsqrtf(float x) { return __nvvm_rsqrt_approx_f(x); }
static __device__ __forceinline__ double rsqrt(double x) { return __nvvm_rsqrt_approx_d(x); }
static __device__ __forceinline__ float __expf(float x) { return __nvvm_ex2_approx_f(x * 1.4426950408889634f); }
static __device__ __forceinline__ float __logf(float x) { return __nvvm_lg2_approx_f(x) * 0.6931471805599453f; }
static __device__ __forceinline__ float __sinf(float x) { return __nvvm_sin_approx_f(x); }
static __device__ __forceinline__ float __cosf(float x) { return __nvvm_cos_approx_f(x); }
static __device__ __forceinline__ float __fdividef(float x, float y) { return __nvvm_div_approx_f(x, y); }
static __device__ __forceinline__ int abs(int a) { return a < 0 ? -a : a; }
static __device__ __forceinline__ long labs(long a) { return a < 0 ? -a : a; }
static __device__ __forceinline__ long long llabs(long long a) { return a < 0 ? -a : a; }
static __device__ __forceinline__ float fmin(float x, float y) { return __builtin_fminf(x, y); }
static __device__ __forceinline__ float fmax(float x, float y) { return __builtin_fmaxf(x, y); }
static __device__ __forceinline__ int min(int a, int b) { return a < b ? a : b; }
static __device__ __forceinline__ int max(int a, int b) { return a > b ? a : b; }
static __device__ __forceinline__ unsigned int min(unsigned int a, unsigned int b) { return a < b ? a : b; }
static __device__ __forceinline__ unsigned int max(unsigned int a, unsigned int b) { return a > b ? a : b; }

/* Warp-level primitives (CUDA 9 and later), through clang's NVVM builtins:
 * shuffles become llvm.nvvm.shfl.sync.*, votes llvm.nvvm.vote.*.  The last
 * operand of a shuffle packs the segment mask ((32 - width) << 8) and the
 * clamp (31 for idx/down/xor, 0 for up), as CUDA's own headers do.  64-bit
 * values move as two 32-bit halves. */
#define __WGPERF_SHFL(name, kind, clamp)                                                    \
  static __device__ __forceinline__ int name(unsigned m, int v, int o, int w = 32) {         \
    return __nvvm_shfl_sync_##kind##_i32(m, v, o, ((32 - w) << 8) | (clamp));                \
  }                                                                                          \
  static __device__ __forceinline__ unsigned name(unsigned m, unsigned v, int o, int w = 32) { \
    return (unsigned)__nvvm_shfl_sync_##kind##_i32(m, (int)v, o, ((32 - w) << 8) | (clamp)); \
  }                                                                                          \
  static __device__ __forceinline__ float name(unsigned m, float v, int o, int w = 32) {     \
    return __nvvm_shfl_sync_##kind##_f32(m, v, o, ((32 - w) << 8) | (clamp));                \
  }                                                                                          \
  static __device__ __forceinline__ long long name(unsigned m, long long v, int o, int w = 32) { \
    int lo = name(m, (int)v, o, w), hi = name(m, (int)(v >> 32), o, w);                      \
    return ((long long)hi << 32) | (unsigned)lo;                                             \
  }                                                                                          \
  static __device__ __forceinline__ unsigned long long name(unsigned m, unsigned long long v, int o, int w = 32) { \
    return (unsigned long long)name(m, (long long)v, o, w);                                  \
  }                                                                                          \
  static __device__ __forceinline__ double name(unsigned m, double v, int o, int w = 32) {   \
    return __builtin_bit_cast(double, name(m, __builtin_bit_cast(long long, v), o, w));     \
  }
__WGPERF_SHFL(__shfl_sync, idx, 0x1f)
__WGPERF_SHFL(__shfl_up_sync, up, 0)
__WGPERF_SHFL(__shfl_down_sync, down, 0x1f)
__WGPERF_SHFL(__shfl_xor_sync, bfly, 0x1f)
#undef __WGPERF_SHFL
static __device__ __forceinline__ unsigned __ballot_sync(unsigned m, int p) { return __nvvm_vote_ballot_sync(m, p); }
static __device__ __forceinline__ int __any_sync(unsigned m, int p) { return __nvvm_vote_any_sync(m, p); }
static __device__ __forceinline__ int __all_sync(unsigned m, int p) { return __nvvm_vote_all_sync(m, p); }
static __device__ __forceinline__ unsigned __activemask(void) { return __nvvm_activemask(); }
static __device__ __forceinline__ void __syncwarp(unsigned m = 0xffffffffu) { __nvvm_bar_warp_sync(m); }

/* Warp matches (sm_70 and later): the lanes of the mask that hold the same value as this
 * one, or the mask when all of them do (and *pred set), one MATCH each
 * (llvm.nvvm.match.*).  Values compare as 32 or 64 bits, floats and doubles by their
 * bits.  Warp reductions (sm_80 and later) over the lanes of the mask, one REDUX each
 * (llvm.nvvm.redux.sync.*): add, min and max of int or unsigned, and, or and xor of
 * unsigned.  As CUDA's, they are declared only for the GPUs that have them. */
#if __CUDA_ARCH__ >= 700
#define __WGPERF_MATCH(T, bits, As)                                                                  \
  static __device__ __forceinline__ unsigned __match_any_sync(unsigned m, T v) {                     \
    return __nvvm_match_any_sync_i##bits(m, As(v));                                                  \
  }                                                                                                  \
  static __device__ __forceinline__ unsigned __match_all_sync(unsigned m, T v, int *pred) {          \
    return __nvvm_match_all_sync_i##bits##p(m, As(v), pred);                                         \
  }
#define __WGPERF_AS_INT(v) ((int)(v))
#define __WGPERF_AS_LL(v) ((long long)(v))
#define __WGPERF_BITS_INT(v) __builtin_bit_cast(int, v)
#define __WGPERF_BITS_LL(v) __builtin_bit_cast(long long, v)
__WGPERF_MATCH(int, 32, __WGPERF_AS_INT) __WGPERF_MATCH(unsigned int, 32, __WGPERF_AS_INT)
__WGPERF_MATCH(long, 64, __WGPERF_AS_LL) __WGPERF_MATCH(unsigned long, 64, __WGPERF_AS_LL)
__WGPERF_MATCH(long long, 64, __WGPERF_AS_LL) __WGPERF_MATCH(unsigned long long, 64, __WGPERF_AS_LL)
__WGPERF_MATCH(float, 32, __WGPERF_BITS_INT) __WGPERF_MATCH(double, 64, __WGPERF_BITS_LL)
#undef __WGPERF_MATCH
#undef __WGPERF_AS_INT
#undef __WGPERF_AS_LL
#undef __WGPERF_BITS_INT
#undef __WGPERF_BITS_LL
#endif
#if __CUDA_ARCH__ >= 800
#define __WGPERF_REDUX(name, sop, uop)                                                               \
  static __device__ __forceinline__ int name(unsigned m, int v) { return __nvvm_redux_sync_##sop(v, m); } \
  static __device__ __forceinline__ unsigned name(unsigned m, unsigned v) {                          \
    return (unsigned)__nvvm_redux_sync_##uop(v, m);                                                  \
  }
__WGPERF_REDUX(__reduce_add_sync, add, add)
__WGPERF_REDUX(__reduce_min_sync, min, umin)
__WGPERF_REDUX(__reduce_max_sync, max, umax)
#undef __WGPERF_REDUX
static __device__ __forceinline__ unsigned __reduce_and_sync(unsigned m, unsigned v) {
  return (unsigned)__nvvm_redux_sync_and((int)v, m);
}
static __device__ __forceinline__ unsigned __reduce_or_sync(unsigned m, unsigned v) {
  return (unsigned)__nvvm_redux_sync_or((int)v, m);
}
static __device__ __forceinline__ unsigned __reduce_xor_sync(unsigned m, unsigned v) {
  return (unsigned)__nvvm_redux_sync_xor((int)v, m);
}
#endif

/* Bit and integer intrinsics: LLVM's own operations, which the model counts. */
static __device__ __forceinline__ int __popc(unsigned x) { return __builtin_popcount(x); }
static __device__ __forceinline__ int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
static __device__ __forceinline__ int __clz(int x) { return x ? __builtin_clz((unsigned)x) : 32; }
static __device__ __forceinline__ int __clzll(long long x) { return x ? __builtin_clzll((unsigned long long)x) : 64; }
static __device__ __forceinline__ int __ffs(int x) { return __builtin_ffs(x); }
static __device__ __forceinline__ int __ffsll(long long x) { return __builtin_ffsll(x); }
static __device__ __forceinline__ unsigned __brev(unsigned x) { return __builtin_bitreverse32(x); }
static __device__ __forceinline__ unsigned __umulhi(unsigned a, unsigned b) {
  return (unsigned)(((unsigned long long)a * b) >> 32);
}
static __device__ __forceinline__ int __mulhi(int a, int b) { return (int)(((long long)a * b) >> 32); }
static __device__ __forceinline__ int __mul24(int a, int b) { return ((a << 8) >> 8) * ((b << 8) >> 8); }
static __device__ __forceinline__ unsigned __umul24(unsigned a, unsigned b) { return (a & 0xffffffu) * (b & 0xffffffu); }
static __device__ __forceinline__ float __saturatef(float x) { return __builtin_fminf(__builtin_fmaxf(x, 0.0f), 1.0f); }

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

/* __ldg: a load through the read-only path; to the model a global load.  The cache-hinted
 * loads and stores (sm_32_intrinsics.h: .cs streaming, .cg global, .ca all levels, .lu last
 * use, .cv volatile; .wb write-back, .wt write-through) are global accesses too: the hint
 * changes where a line is kept, which the model does not distinguish.  __ldcv fetches
 * again every time, so it is a volatile load (never merged with another).  Templates, so
 * every scalar and vector type nvcc overloads them for works; a store converts its value
 * to the pointer's type as the overloads do. */
template <typename T> static __device__ __forceinline__ T __ldg(const T *p) { return *p; }
template <typename T> struct __wgperf_same { typedef T type; };
#define __WGPERF_LD(name)                                                                \
  template <typename T> static __device__ __forceinline__ T name(const T *p) { return *p; }
#define __WGPERF_ST(name)                                                                \
  template <typename T>                                                                  \
  static __device__ __forceinline__ void name(T *p, typename __wgperf_same<T>::type v) { \
    *p = v;                                                                              \
  }
__WGPERF_LD(__ldcs) __WGPERF_LD(__ldcg) __WGPERF_LD(__ldca) __WGPERF_LD(__ldlu)
__WGPERF_ST(__stcs) __WGPERF_ST(__stcg) __WGPERF_ST(__stwb) __WGPERF_ST(__stwt)
#undef __WGPERF_LD
#undef __WGPERF_ST
template <typename T> static __device__ __forceinline__ T __ldcv(const T *p) { return *(const volatile T *)p; }

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

/* Reinterpretation (free), conversions with a rounding mode, and the rounding-mode
 * arithmetic intrinsics: the operation itself (the rounding mode changes no cost). */
static __device__ __forceinline__ int __float_as_int(float x) { return __builtin_bit_cast(int, x); }
static __device__ __forceinline__ unsigned __float_as_uint(float x) { return __builtin_bit_cast(unsigned, x); }
static __device__ __forceinline__ float __int_as_float(int x) { return __builtin_bit_cast(float, x); }
static __device__ __forceinline__ float __uint_as_float(unsigned x) { return __builtin_bit_cast(float, x); }
static __device__ __forceinline__ long long __double_as_longlong(double x) { return __builtin_bit_cast(long long, x); }
static __device__ __forceinline__ double __longlong_as_double(long long x) { return __builtin_bit_cast(double, x); }
static __device__ __forceinline__ int __double2hiint(double x) { return (int)(__double_as_longlong(x) >> 32); }
static __device__ __forceinline__ int __double2loint(double x) { return (int)__double_as_longlong(x); }
static __device__ __forceinline__ double __hiloint2double(int hi, int lo) {
  return __longlong_as_double((long long)((unsigned long long)(unsigned)hi << 32 | (unsigned)lo));
}
#define __WGPERF_CVT(name, From, To)                                                    \
  static __device__ __forceinline__ To name##_rn(From x) { return (To)__builtin_rint((double)x); } \
  static __device__ __forceinline__ To name##_rz(From x) { return (To)x; }              \
  static __device__ __forceinline__ To name##_rd(From x) { return (To)__builtin_floor((double)x); } \
  static __device__ __forceinline__ To name##_ru(From x) { return (To)__builtin_ceil((double)x); }
#define __WGPERF_CVTF(name, From, To)                                                   \
  static __device__ __forceinline__ To name##_rn(From x) { return (To)__builtin_rintf(x); } \
  static __device__ __forceinline__ To name##_rz(From x) { return (To)x; }              \
  static __device__ __forceinline__ To name##_rd(From x) { return (To)__builtin_floorf(x); } \
  static __device__ __forceinline__ To name##_ru(From x) { return (To)__builtin_ceilf(x); }
#define __WGPERF_CVTI(name, From, To)                                                   \
  static __device__ __forceinline__ To name##_rn(From x) { return (To)x; }              \
  static __device__ __forceinline__ To name##_rz(From x) { return (To)x; }              \
  static __device__ __forceinline__ To name##_rd(From x) { return (To)x; }              \
  static __device__ __forceinline__ To name##_ru(From x) { return (To)x; }
__WGPERF_CVTF(__float2int, float, int) __WGPERF_CVTF(__float2uint, float, unsigned)
__WGPERF_CVTF(__float2ll, float, long long) __WGPERF_CVTF(__float2ull, float, unsigned long long)
__WGPERF_CVT(__double2int, double, int) __WGPERF_CVT(__double2uint, double, unsigned)
__WGPERF_CVT(__double2ll, double, long long) __WGPERF_CVT(__double2ull, double, unsigned long long)
__WGPERF_CVTI(__int2float, int, float) __WGPERF_CVTI(__uint2float, unsigned, float)
__WGPERF_CVTI(__ll2float, long long, float) __WGPERF_CVTI(__ull2float, unsigned long long, float)
__WGPERF_CVTI(__double2float, double, float) __WGPERF_CVTI(__ll2double, long long, double)
__WGPERF_CVTI(__ull2double, unsigned long long, double)
#undef __WGPERF_CVT
#undef __WGPERF_CVTF
#undef __WGPERF_CVTI
static __device__ __forceinline__ double __int2double_rn(int x) { return (double)x; }
static __device__ __forceinline__ double __uint2double_rn(unsigned x) { return (double)x; }
static __device__ __forceinline__ float __float2float_rn(float x) { return x; }
#define __WGPERF_RND(sfx)                                                                \
  static __device__ __forceinline__ float __fadd_##sfx(float a, float b) { return a + b; } \
  static __device__ __forceinline__ float __fsub_##sfx(float a, float b) { return a - b; } \
  static __device__ __forceinline__ float __fmul_##sfx(float a, float b) { return a * b; } \
  static __device__ __forceinline__ float __fdiv_##sfx(float a, float b) { return a / b; } \
  static __device__ __forceinline__ float __fmaf_##sfx(float a, float b, float c) { return __builtin_fmaf(a, b, c); } \
  static __device__ __forceinline__ float __frcp_##sfx(float a) { return 1.0f / a; }    \
  static __device__ __forceinline__ float __fsqrt_##sfx(float a) { return __builtin_sqrtf(a); } \
  static __device__ __forceinline__ double __dadd_##sfx(double a, double b) { return a + b; } \
  static __device__ __forceinline__ double __dsub_##sfx(double a, double b) { return a - b; } \
  static __device__ __forceinline__ double __dmul_##sfx(double a, double b) { return a * b; } \
  static __device__ __forceinline__ double __ddiv_##sfx(double a, double b) { return a / b; } \
  static __device__ __forceinline__ double __fma_##sfx(double a, double b, double c) { return __builtin_fma(a, b, c); } \
  static __device__ __forceinline__ double __drcp_##sfx(double a) { return 1.0 / a; }   \
  static __device__ __forceinline__ double __dsqrt_##sfx(double a) { return __builtin_sqrt(a); }
__WGPERF_RND(rn) __WGPERF_RND(rz) __WGPERF_RND(rd) __WGPERF_RND(ru)
#undef __WGPERF_RND
static __device__ __forceinline__ float __frsqrt_rn(float a) { return rsqrtf(a); }

/* Fast-math intrinsics on the special-function unit, as CUDA defines them. */
static __device__ __forceinline__ float __log2f(float x) { return __nvvm_lg2_approx_f(x); }
static __device__ __forceinline__ float __log10f(float x) { return __nvvm_lg2_approx_f(x) * 0.30102999566398120f; }
static __device__ __forceinline__ float __exp10f(float x) { return __nvvm_ex2_approx_f(x * 3.3219280948873623f); }
static __device__ __forceinline__ float __powf(float x, float y) {
  return __nvvm_ex2_approx_f(y * __nvvm_lg2_approx_f(x));
}
static __device__ __forceinline__ float __tanf(float x) { return __nvvm_sin_approx_f(x) / __nvvm_cos_approx_f(x); }
static __device__ __forceinline__ void __sincosf(float x, float *s, float *c) {
  *s = __nvvm_sin_approx_f(x);
  *c = __nvvm_cos_approx_f(x);
}

/* More of CUDA's math library, through libdevice as above: the rounding conversions
 * (lrintf is one cvt.rni), the normal distribution, 3D/4D norms and reciprocal norms,
 * sinpi/cospi, the reciprocal cube root and hypotenuse, Bessel and scaled complementary
 * error functions.  The plugin classes each by name (docs/kernel-model.md). */
#define __WGPERF_MATH_NV_TO(R, fn)                                                       \
  extern "C" __device__ __attribute__((const)) R __nv_##fn##f(float);                   \
  extern "C" __device__ __attribute__((const)) R __nv_##fn(double);                     \
  static __device__ __forceinline__ R fn##f(float x) { return __nv_##fn##f(x); }         \
  static __device__ __forceinline__ R fn(double x) { return __nv_##fn(x); }             \
  static __device__ __forceinline__ R fn(float x) { return __nv_##fn##f(x); }
__WGPERF_MATH_NV_TO(long long, llrint) __WGPERF_MATH_NV_TO(long long, llround)
#undef __WGPERF_MATH_NV_TO
static __device__ __forceinline__ long lrintf(float x) { return (long)__nv_llrintf(x); }
static __device__ __forceinline__ long lrint(double x) { return (long)__nv_llrint(x); }
static __device__ __forceinline__ long lrint(float x) { return (long)__nv_llrintf(x); }
static __device__ __forceinline__ long lroundf(float x) { return (long)__nv_llroundf(x); }
static __device__ __forceinline__ long lround(double x) { return (long)__nv_llround(x); }
static __device__ __forceinline__ long lround(float x) { return (long)__nv_llroundf(x); }
#define __WGPERF_MATH_NVN(fn, params, args)                                              \
  extern "C" __device__ __attribute__((const)) float __nv_##fn##f params(float);        \
  extern "C" __device__ __attribute__((const)) double __nv_##fn params(double);         \
  static __device__ __forceinline__ float fn##f params(float) { return __nv_##fn##f args; } \
  static __device__ __forceinline__ double fn params(double) { return __nv_##fn args; }  \
  static __device__ __forceinline__ float fn params(float) { return __nv_##fn##f args; }
#define __WGPERF_P2(T) (T a, T b)
#define __WGPERF_P3(T) (T a, T b, T c)
#define __WGPERF_P4(T) (T a, T b, T c, T d)
__WGPERF_MATH_NVN(rhypot, __WGPERF_P2, (a, b))
__WGPERF_MATH_NVN(norm3d, __WGPERF_P3, (a, b, c)) __WGPERF_MATH_NVN(rnorm3d, __WGPERF_P3, (a, b, c))
__WGPERF_MATH_NVN(norm4d, __WGPERF_P4, (a, b, c, d)) __WGPERF_MATH_NVN(rnorm4d, __WGPERF_P4, (a, b, c, d))
#undef __WGPERF_MATH_NVN
#undef __WGPERF_P2
#undef __WGPERF_P3
#undef __WGPERF_P4
static __device__ __forceinline__ void sincospif(float x, float *s, float *c) {
  *s = sinpif(x);
  *c = cospif(x);
}
static __device__ __forceinline__ void sincospi(double x, double *s, double *c) {
  *s = sinpi(x);
  *c = cospi(x);
}
static __device__ __forceinline__ float fdividef(float x, float y) { return __nvvm_div_approx_f(x, y); }
static __device__ __forceinline__ float scalbnf(float x, int n) { return __builtin_ldexpf(x, n); }
static __device__ __forceinline__ double scalbn(double x, int n) { return __builtin_ldexp(x, n); }
static __device__ __forceinline__ float nanf(const char *) { return __builtin_nanf(""); }
static __device__ __forceinline__ double nan(const char *) { return __builtin_nan(""); }

/* The C math environment nvcc gives every .cu file (its runtime headers include <math.h>):
 * INFINITY, NAN, HUGE_VAL(F), MAXFLOAT and the M_ constants, spelt token for token as glibc
 * spells them so that a later #include <math.h> or <cmath> redefines them silently; and
 * isinf, isnan, isfinite and signbit as device functions (a compare or a sign test each).
 * <math.h> itself is not included: parsing <cmath> takes clang longer than the rest of a
 * small kernel's compile. */
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
#define __WGPERF_FPCLASS(name, builtin)                                                  \
  static __device__ __forceinline__ bool name(float x) { return builtin(x); }           \
  static __device__ __forceinline__ bool name(double x) { return builtin(x); }
__WGPERF_FPCLASS(isinf, __builtin_isinf) __WGPERF_FPCLASS(isnan, __builtin_isnan)
__WGPERF_FPCLASS(isfinite, __builtin_isfinite) __WGPERF_FPCLASS(signbit, __builtin_signbit)
#undef __WGPERF_FPCLASS

/* min and max for the other types CUDA overloads them for */
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

/* The SM's cycle counter: special-register reads.  __nanosleep's wait is not modelled. */
static __device__ __forceinline__ long long clock64(void) { return (long long)__nvvm_read_ptx_sreg_clock64(); }
static __device__ __forceinline__ long clock(void) { return (long)__nvvm_read_ptx_sreg_clock(); }
static __device__ __forceinline__ void __nanosleep(unsigned) {}

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
