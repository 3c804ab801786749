/* cuda_toolkit_compat.h - what nvcc gives a .cu file that clang's CUDA wrappers
 * over a real CUDA toolkit's headers do not.
 *
 * wgperf compiles a .cu file against the headers of a CUDA toolkit clang 19
 * reads (docs/cuda.md):
 *
 *   clang-19 -x cuda --cuda-device-only --cuda-gpu-arch=sm_80 --cuda-path=DIR \
 *            -nocudalib -Xclang -target-sdk-version=11.8 -Wno-register \
 *            -Wno-c++11-narrowing -include cuda_toolkit_compat.h ...
 *
 * clang force-includes its __clang_cuda_runtime_wrapper.h first, which reads
 * the toolkit's cuda_runtime.h and device headers but leaves four things of
 * them out, on purpose or for the host side; this header puts back exactly
 * those, and nothing the toolkit declares otherwise:
 *
 *  - the C headers nvcc's crt/common_functions.h includes for every file and
 *    the wrapper skips (it defines that header's guard): a program that calls
 *    time() or printf without including <time.h> or <stdio.h> compiles with
 *    nvcc;
 *  - the host side of CUDA's min and max: crt/math_functions.hpp declares
 *    them __host__ __device__, the wrapper compiles that file with __host__
 *    taken away, so host code calling max(1, n) finds no candidate.  Host
 *    functions are never compiled in a device-side compile: these only let
 *    the host code parse;
 *  - nvcc's builtin 16-bit compare-and-swap (below);
 *  - the cache-hinted loads and stores of sm_32_intrinsics.h (__ldcs, __ldcg,
 *    __ldca, __ldlu, __ldcv, __stcs, __stcg, __stwb, __stwt), a header the
 *    wrapper does not include because its __ldg conflicts with clang's
 *    (cuda_compat_hinted.h: each a global access with its cache operator).
 */
#ifndef WGPERF_CUDA_TOOLKIT_COMPAT_H
#define WGPERF_CUDA_TOOLKIT_COMPAT_H

#if !defined(__CUDA__) || !defined(__CLANG_CUDA_RUNTIME_WRAPPER_H__)
#error "cuda_toolkit_compat.h is for clang's CUDA compile against a toolkit's headers"
#endif

#include <assert.h>
#include <new>
#include <stdio.h>
#include <time.h>

#define __WGPERF_HOST_MINMAX(R, A, B)                                                   \
  static inline __host__ R min(A a, B b) { return (R)a < (R)b ? (R)a : (R)b; }          \
  static inline __host__ R max(A a, B b) { return (R)a > (R)b ? (R)a : (R)b; }
__WGPERF_HOST_MINMAX(int, int, int)
__WGPERF_HOST_MINMAX(unsigned int, unsigned int, unsigned int)
__WGPERF_HOST_MINMAX(unsigned int, int, unsigned int)
__WGPERF_HOST_MINMAX(unsigned int, unsigned int, int)
__WGPERF_HOST_MINMAX(long, long, long)
__WGPERF_HOST_MINMAX(unsigned long, unsigned long, unsigned long)
__WGPERF_HOST_MINMAX(unsigned long, long, unsigned long)
__WGPERF_HOST_MINMAX(unsigned long, unsigned long, long)
__WGPERF_HOST_MINMAX(long long, long long, long long)
__WGPERF_HOST_MINMAX(unsigned long long, unsigned long long, unsigned long long)
__WGPERF_HOST_MINMAX(unsigned long long, long long, unsigned long long)
__WGPERF_HOST_MINMAX(unsigned long long, unsigned long long, long long)
__WGPERF_HOST_MINMAX(float, float, float)
__WGPERF_HOST_MINMAX(double, double, double)
__WGPERF_HOST_MINMAX(double, float, double)
__WGPERF_HOST_MINMAX(double, double, float)
#undef __WGPERF_HOST_MINMAX

#include "cuda_compat_hinted.h"

/* The 16-bit compare-and-swap that CUDA's sm_70_rt.hpp declares as a builtin of nvcc
 * (__device_builtin__) and calls for atomicCAS on an unsigned short, and cuda_bf16.hpp
 * for atomicAdd on a bfloat16: one 2-byte atomic. */
#if __CUDA_ARCH__ >= 700
extern "C" __device__ unsigned short __usAtomicCAS(unsigned short *p, unsigned short compare, unsigned short v) {
  __atomic_compare_exchange_n(p, &compare, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  return compare;
}
#endif

#endif /* WGPERF_CUDA_TOOLKIT_COMPAT_H */
