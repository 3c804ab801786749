/* opencl_compat.h - OpenCL C built-ins whose work the model must see.
 *
 * wgperf compiles .cl files with clang-19 -finclude-default-header, which
 * declares the built-ins; their bodies are libclc's, which is not linked into
 * the kernel model (linking it would replace the math functions the GPU
 * computes in its special-function units by libclc's software versions).
 * `wgperf extract` force-includes this header, which defines the built-ins
 * that are memory accesses or plain arithmetic in terms of what they do, so
 * the plugin sees their loads, stores and operations:
 *   - vloadN / vstoreN (N = 2, 3, 4, 8, 16) for every element type and address
 *     space: element accesses, which the plugin merges into one 8- or 16-byte
 *     access where the backend would (docs/kernel-model.md);
 *   - dot, length, distance, normalize, cross and their fast_ forms.
 * The integer and relational built-ins (select, popcount, mul_hi, ...) are
 * classified by name in the plugin instead.
 */
#ifndef WGPERF_OPENCL_COMPAT_H
#define WGPERF_OPENCL_COMPAT_H

#define __WGP_OVL static inline __attribute__((overloadable, always_inline))

#define __WGP_VLOAD(T, N, AS)                                                            \
  __WGP_OVL T##N vload##N(size_t i, const AS T *p) {                                    \
    const AS T *q = p + i * N;                                                           \
    T##N r;                                                                              \
    for (int k = 0; k < N; k++)                                                          \
      r[k] = q[k];                                                                       \
    return r;                                                                            \
  }
#define __WGP_VSTORE(T, N, AS)                                                           \
  __WGP_OVL void vstore##N(T##N v, size_t i, AS T *p) {                                 \
    AS T *q = p + i * N;                                                                 \
    for (int k = 0; k < N; k++)                                                          \
      q[k] = v[k];                                                                       \
  }
#define __WGP_VMEM_N(T, N)                                                               \
  __WGP_VLOAD(T, N, __global) __WGP_VLOAD(T, N, __local) __WGP_VLOAD(T, N, __constant)  \
  __WGP_VLOAD(T, N, __private) __WGP_VSTORE(T, N, __global) __WGP_VSTORE(T, N, __local) \
  __WGP_VSTORE(T, N, __private)
#define __WGP_VMEM(T)                                                                    \
  __WGP_VMEM_N(T, 2) __WGP_VMEM_N(T, 3) __WGP_VMEM_N(T, 4) __WGP_VMEM_N(T, 8) __WGP_VMEM_N(T, 16)
__WGP_VMEM(char)
__WGP_VMEM(uchar)
__WGP_VMEM(short)
__WGP_VMEM(ushort)
__WGP_VMEM(int)
__WGP_VMEM(uint)
__WGP_VMEM(long)
__WGP_VMEM(ulong)
__WGP_VMEM(float)
#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__WGP_VMEM(double)
#endif

/* Geometric functions: their products and sums, then the square root. */
#define __WGP_GEOM(T)                                                                    \
  __WGP_OVL T dot(T a, T b) { return a * b; }                                           \
  __WGP_OVL T dot(T##2 a, T##2 b) { return a.x * b.x + a.y * b.y; }                     \
  __WGP_OVL T dot(T##3 a, T##3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }         \
  __WGP_OVL T dot(T##4 a, T##4 b) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; } \
  __WGP_GEOM_N(T, ) __WGP_GEOM_N(T, 2) __WGP_GEOM_N(T, 3) __WGP_GEOM_N(T, 4)           \
  __WGP_OVL T##3 cross(T##3 a, T##3 b) {                                                \
    return (T##3)(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x); \
  }                                                                                      \
  __WGP_OVL T##4 cross(T##4 a, T##4 b) {                                                \
    return (T##4)(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x, 0); \
  }
#define __WGP_GEOM_N(T, N)                                                               \
  __WGP_OVL T length(T##N p) { return sqrt(dot(p, p)); }                                \
  __WGP_OVL T distance(T##N a, T##N b) { return length(a - b); }                        \
  __WGP_OVL T##N normalize(T##N p) { return p * rsqrt(dot(p, p)); }
__WGP_GEOM(float)
__WGP_OVL float fast_length(float p) { return native_sqrt(p * p); }
__WGP_OVL float fast_length(float2 p) { return native_sqrt(dot(p, p)); }
__WGP_OVL float fast_length(float3 p) { return native_sqrt(dot(p, p)); }
__WGP_OVL float fast_length(float4 p) { return native_sqrt(dot(p, p)); }
__WGP_OVL float fast_distance(float a, float b) { return fast_length(a - b); }
__WGP_OVL float fast_distance(float2 a, float2 b) { return fast_length(a - b); }
__WGP_OVL float fast_distance(float3 a, float3 b) { return fast_length(a - b); }
__WGP_OVL float fast_distance(float4 a, float4 b) { return fast_length(a - b); }
__WGP_OVL float fast_normalize(float p) { return p * native_rsqrt(p * p); }
__WGP_OVL float2 fast_normalize(float2 p) { return p * native_rsqrt(dot(p, p)); }
__WGP_OVL float3 fast_normalize(float3 p) { return p * native_rsqrt(dot(p, p)); }
__WGP_OVL float4 fast_normalize(float4 p) { return p * native_rsqrt(dot(p, p)); }
#ifdef cl_khr_fp64
__WGP_GEOM(double)
#endif

#undef __WGP_GEOM
#undef __WGP_GEOM_N
#undef __WGP_VMEM
#undef __WGP_VMEM_N
#undef __WGP_VLOAD
#undef __WGP_VSTORE
#undef __WGP_OVL

#endif /* WGPERF_OPENCL_COMPAT_H */
