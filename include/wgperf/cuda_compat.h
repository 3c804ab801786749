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
 * __syncthreads, atomics and the common fp32/fp64 math functions (mapped to
 * clang builtins so the plugin sees llvm.sqrt, llvm.sin, ... or libdevice-
 * style calls it can classify).  Kernels that need more of CUDA than this
 * should include their own declarations.
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

struct __wgperf_uint3 { unsigned int x, y, z; };
struct dim3 {
  unsigned int x, y, z;
  __host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
};
typedef struct __wgperf_uint3 uint3;

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

#define warpSize 32

/* __syncthreads is a clang builtin in CUDA mode (llvm.nvvm.barrier0). */
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

/* Math: fp32 and fp64 forms through clang builtins. */
#define __WGPERF_MATH1(fn)                                                               \
  static __device__ __forceinline__ float fn##f(float x) { return __builtin_##fn##f(x); } \
  static __device__ __forceinline__ double fn(double x) { return __builtin_##fn(x); }
__WGPERF_MATH1(sqrt) __WGPERF_MATH1(sin) __WGPERF_MATH1(cos) __WGPERF_MATH1(tan)
__WGPERF_MATH1(exp) __WGPERF_MATH1(exp2) __WGPERF_MATH1(log) __WGPERF_MATH1(log2)
__WGPERF_MATH1(log10) __WGPERF_MATH1(fabs) __WGPERF_MATH1(floor) __WGPERF_MATH1(ceil)
__WGPERF_MATH1(trunc) __WGPERF_MATH1(round) __WGPERF_MATH1(atan) __WGPERF_MATH1(tanh)
#undef __WGPERF_MATH1
static __device__ __forceinline__ float powf(float x, float y) { return __builtin_powf(x, y); }
static __device__ __forceinline__ double pow(double x, double y) { return __builtin_pow(x, y); }
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
static __device__ __forceinline__ int min(int a, int b) { return a < b ? a : b; }
static __device__ __forceinline__ int max(int a, int b) { return a > b ? a : b; }
static __device__ __forceinline__ unsigned int min(unsigned int a, unsigned int b) { return a < b ? a : b; }
static __device__ __forceinline__ unsigned int max(unsigned int a, unsigned int b) { return a > b ? a : b; }

#endif /* WGPERF_CUDA_COMPAT_H */
