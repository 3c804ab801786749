/* cuda_compat_hinted.h - the cache-hinted loads and stores of CUDA's
 * sm_32_intrinsics.h for clang, which does not include that header (its __ldg
 * conflicts with clang's own).  cuda_compat.h (no toolkit) and
 * cuda_toolkit_compat.h (a toolkit's headers) include it.
 *
 *   loads:  __ldca (.ca, cached in L1 and L2), __ldcg (.cg, L2 only), __ldcs
 *           (.cs, streaming: evicted first), __ldlu (.lu, last use), __ldcv
 *           (.cv, fetched again every time)
 *   stores: __stwb (.wb, write-back), __stcg (.cg), __stcs (.cs), __stwt (.wt)
 *
 * Each is one PTX ld.global.OP or st.global.OP of the whole value as inline
 * assembly (asm volatile: never merged with another access, moved or removed),
 * as nvcc's header writes them.  The plugin reads such a statement as the
 * global access it is, with its cache operator (docs/kernel-model.md, "Cache
 * operators"), and the simulator keeps the line where the operator says.
 * Templates over the value's size (1, 2, 4, 8 or 16 bytes), so that every
 * scalar and vector type nvcc overloads them for works; a store converts its
 * value to the pointer's type as the overloads do.
 */
#ifndef WGPERF_CUDA_COMPAT_HINTED_H
#define WGPERF_CUDA_COMPAT_HINTED_H

/* One access of N bytes with cache operator OP: ld(P, V) copies the N bytes at
 * global address P into V, st(P, V) the N bytes at V to P.  Up to 8 bytes one
 * register of type R (constraint C) holds them, PTX type T (a byte in the
 * low bits of a 32-bit register: NVPTX is little-endian); 16 bytes are four
 * 32-bit registers, one .v4 access. */
#define __WGPERF_HINTED_LD_N(OP, N, R, T, C)                                                             \
  template <> struct __wgperf_ld_##OP<N> {                                                               \
    static __device__ __forceinline__ void ld(const void *p, void *v) {                                  \
      R r;                                                                                               \
      asm volatile("ld.global." #OP "." T " %0, [%1];" : "=" C(r) : "l"(p));                             \
      __builtin_memcpy(v, &r, N);                                                                        \
    }                                                                                                    \
  };
#define __WGPERF_HINTED_ST_N(OP, N, R, T, C)                                                             \
  template <> struct __wgperf_st_##OP<N> {                                                               \
    static __device__ __forceinline__ void st(void *p, const void *v) {                                  \
      R r = 0;                                                                                           \
      __builtin_memcpy(&r, v, N);                                                                        \
      asm volatile("st.global." #OP "." T " [%0], %1;" ::"l"(p), C(r));                                  \
    }                                                                                                    \
  };
/* M(OP, N, R, T, C) for each size up to 8 bytes, in one register each */
#define __WGPERF_HINTED_SIZES(M, OP)                                                                    \
  M(OP, 1, unsigned int, "u8", "r")                                                                      \
  M(OP, 2, unsigned short, "u16", "h")                                                                   \
  M(OP, 4, unsigned int, "u32", "r")                                                                     \
  M(OP, 8, unsigned long long, "u64", "l")
#define __WGPERF_HINTED_LD(OP)                                                                           \
  template <int N> struct __wgperf_ld_##OP;                                                              \
  __WGPERF_HINTED_SIZES(__WGPERF_HINTED_LD_N, OP)                                                        \
  template <> struct __wgperf_ld_##OP<16> {                                                              \
    static __device__ __forceinline__ void ld(const void *p, void *v) {                                  \
      unsigned int r[4];                                                                                 \
      asm volatile("ld.global." #OP ".v4.u32 {%0,%1,%2,%3}, [%4];"                                      \
                   : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])                                      \
                   : "l"(p));                                                                            \
      __builtin_memcpy(v, r, 16);                                                                        \
    }                                                                                                    \
  };
#define __WGPERF_HINTED_ST(OP)                                                                           \
  template <int N> struct __wgperf_st_##OP;                                                              \
  __WGPERF_HINTED_SIZES(__WGPERF_HINTED_ST_N, OP)                                                        \
  template <> struct __wgperf_st_##OP<16> {                                                              \
    static __device__ __forceinline__ void st(void *p, const void *v) {                                  \
      unsigned int r[4];                                                                                 \
      __builtin_memcpy(r, v, 16);                                                                        \
      asm volatile("st.global." #OP ".v4.u32 [%0], {%1,%2,%3,%4};" ::"l"(p), "r"(r[0]), "r"(r[1]), "r"(r[2]), \
                   "r"(r[3]));                                                                           \
    }                                                                                                    \
  };
__WGPERF_HINTED_LD(ca) __WGPERF_HINTED_LD(cg) __WGPERF_HINTED_LD(cs) __WGPERF_HINTED_LD(lu) __WGPERF_HINTED_LD(cv)
__WGPERF_HINTED_ST(wb) __WGPERF_HINTED_ST(cg) __WGPERF_HINTED_ST(cs) __WGPERF_HINTED_ST(wt)
#undef __WGPERF_HINTED_LD
#undef __WGPERF_HINTED_ST
#undef __WGPERF_HINTED_LD_N
#undef __WGPERF_HINTED_ST_N
#undef __WGPERF_HINTED_SIZES

template <typename T> struct __wgperf_same { typedef T type; };
#define __WGPERF_LD(name, OP)                                          \
  template <typename T> static __device__ __forceinline__ T name(const T *p) { \
    T v;                                                               \
    __wgperf_ld_##OP<sizeof(T)>::ld(p, &v);                            \
    return v;                                                          \
  }
#define __WGPERF_ST(name, OP)                                                            \
  template <typename T>                                                                  \
  static __device__ __forceinline__ void name(T *p, typename __wgperf_same<T>::type v) { \
    __wgperf_st_##OP<sizeof(T)>::st(p, &v);                                              \
  }
__WGPERF_LD(__ldca, ca) __WGPERF_LD(__ldcg, cg) __WGPERF_LD(__ldcs, cs) __WGPERF_LD(__ldlu, lu) __WGPERF_LD(__ldcv, cv)
__WGPERF_ST(__stwb, wb) __WGPERF_ST(__stcg, cg) __WGPERF_ST(__stcs, cs) __WGPERF_ST(__stwt, wt)
#undef __WGPERF_LD
#undef __WGPERF_ST

#endif /* WGPERF_CUDA_COMPAT_HINTED_H */
