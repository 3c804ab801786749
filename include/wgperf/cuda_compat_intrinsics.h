/* cuda_compat_intrinsics.h - the integer intrinsics of CUDA's sm_61_intrinsics.h that
 * clang's __clang_cuda_device_functions.h and __clang_cuda_intrinsics.h do not define,
 * for wgperf's stand-in headers; part of cuda_compat.h (which includes it; not meant to be
 * included alone).  The others (__byte_perm, __sad, the halving adds, funnel shifts, the
 * SIMD-within-a-word intrinsics, ...) are clang's, as over a real toolkit.
 *
 * As CUDA's own sm_61 header writes them, one line of inline PTX each: the plugin classes
 * a single arithmetic PTX instruction by its opcode (docs/kernel-model.md), and ptxas sees
 * the instruction nvcc would give it.
 */
#ifndef WGPERF_CUDA_COMPAT_INTRINSICS_H
#define WGPERF_CUDA_COMPAT_INTRINSICS_H

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

#endif /* WGPERF_CUDA_COMPAT_INTRINSICS_H */
