/* crt/sm_70_rt.hpp - wgperf's stand-in for the CUDA header of that name, which clang's
 * __clang_cuda_intrinsics.h includes for the warp matches (sm_70 and later) once it has
 * defined their 32- and 64-bit builtins; only where no CUDA toolkit is used (cuda_compat.h).
 *
 * __match_any_sync gives the lanes of the mask that hold the same value as this one,
 * __match_all_sync the mask when all of them do (and *pred set): one MATCH each
 * (llvm.nvvm.match.*), as CUDA's header makes them.  Values compare as 32 or 64 bits,
 * floats and doubles by their bits.
 */
#ifndef WGPERF_CUDA_SM_70_RT_HPP
#define WGPERF_CUDA_SM_70_RT_HPP

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

#endif /* WGPERF_CUDA_SM_70_RT_HPP */
