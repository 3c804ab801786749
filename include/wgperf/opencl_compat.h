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
 *   - dot, length, distance, normalize, cross and their fast_ forms;
 *   - vload_halfN / vstore_halfN (and vloada_, vstorea_, rounding suffixes).
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

/* Half-precision storage (OpenCL 1.2 core, no cl_khr_fp16 needed): vload_halfN reads N
 * 16-bit values and widens them to float, vstore_halfN narrows and writes them; the
 * vloada_/vstorea_ forms step by a 4-element stride for N = 3.  A 16-bit access and a
 * conversion per element, as the hardware does; the rounding-mode suffixes all round to
 * nearest here, which changes no address, branch or count wgperf models. */
#define __WGP_H2F(x) ((float)__builtin_bit_cast(_Float16, (x)))
#define __WGP_F2H(x) __builtin_bit_cast(ushort, (_Float16)(x))
#define __WGP_VLOAD_HALF(N, STEP, NAME, AS)                                              \
  __WGP_OVL float##N NAME(size_t i, const AS half *p) {                                 \
    const AS ushort *q = (const AS ushort *)p + i * STEP;                                \
    float##N r;                                                                          \
    for (int k = 0; k < N; k++)                                                          \
      r[k] = __WGP_H2F(q[k]);                                                            \
    return r;                                                                            \
  }
#define __WGP_VSTORE_HALF(T, N, STEP, NAME, AS)                                          \
  __WGP_OVL void NAME(T##N v, size_t i, AS half *p) {                                    \
    AS ushort *q = (AS ushort *)p + i * STEP;                                            \
    for (int k = 0; k < N; k++)                                                          \
      q[k] = __WGP_F2H(v[k]);                                                            \
  }
#define __WGP_VSTORE_HALF_MODES(T, N, STEP, NAME, AS)                                    \
  __WGP_VSTORE_HALF(T, N, STEP, NAME, AS) __WGP_VSTORE_HALF(T, N, STEP, NAME##_rte, AS)  \
  __WGP_VSTORE_HALF(T, N, STEP, NAME##_rtz, AS) __WGP_VSTORE_HALF(T, N, STEP, NAME##_rtp, AS) \
  __WGP_VSTORE_HALF(T, N, STEP, NAME##_rtn, AS)
#define __WGP_HALF_N(N, STEP, ASTEP, AS)                                                 \
  __WGP_VLOAD_HALF(N, N, vload_half##N, AS) __WGP_VLOAD_HALF(N, ASTEP, vloada_half##N, AS)
#define __WGP_HALF_ST_N(T, N, ASTEP, AS)                                                 \
  __WGP_VSTORE_HALF_MODES(T, N, N, vstore_half##N, AS)                                   \
  __WGP_VSTORE_HALF_MODES(T, N, ASTEP, vstorea_half##N, AS)
#define __WGP_HALF_AS(AS)                                                                \
  __WGP_OVL float vload_half(size_t i, const AS half *p) { return __WGP_H2F(((const AS ushort *)p)[i]); } \
  __WGP_OVL float vloada_half(size_t i, const AS half *p) { return __WGP_H2F(((const AS ushort *)p)[i]); } \
  __WGP_HALF_N(2, 2, 2, AS) __WGP_HALF_N(3, 3, 4, AS) __WGP_HALF_N(4, 4, 4, AS)           \
  __WGP_HALF_N(8, 8, 8, AS) __WGP_HALF_N(16, 16, 16, AS)
#define __WGP_HALF_ST1(T, NAME, AS)                                                      \
  __WGP_OVL void NAME(T v, size_t i, AS half *p) { ((AS ushort *)p)[i] = __WGP_F2H(v); }
#define __WGP_HALF_ST_AS(T, AS)                                                          \
  __WGP_HALF_ST1(T, vstore_half, AS) __WGP_HALF_ST1(T, vstore_half_rte, AS)              \
  __WGP_HALF_ST1(T, vstore_half_rtz, AS) __WGP_HALF_ST1(T, vstore_half_rtp, AS)          \
  __WGP_HALF_ST1(T, vstore_half_rtn, AS) __WGP_HALF_ST1(T, vstorea_half, AS)             \
  __WGP_HALF_ST_N(T, 2, 2, AS) __WGP_HALF_ST_N(T, 3, 4, AS) __WGP_HALF_ST_N(T, 4, 4, AS) \
  __WGP_HALF_ST_N(T, 8, 8, AS) __WGP_HALF_ST_N(T, 16, 16, AS)
__WGP_HALF_AS(__global)
__WGP_HALF_AS(__local)
__WGP_HALF_AS(__constant)
__WGP_HALF_AS(__private)
__WGP_HALF_ST_AS(float, __global)
__WGP_HALF_ST_AS(float, __local)
__WGP_HALF_ST_AS(float, __private)
#ifdef cl_khr_fp64
__WGP_HALF_ST_AS(double, __global)
__WGP_HALF_ST_AS(double, __local)
__WGP_HALF_ST_AS(double, __private)
#endif
#undef __WGP_HALF_ST_AS
#undef __WGP_HALF_ST1
#undef __WGP_HALF_AS
#undef __WGP_HALF_ST_N
#undef __WGP_HALF_N
#undef __WGP_VSTORE_HALF_MODES
#undef __WGP_VSTORE_HALF
#undef __WGP_VLOAD_HALF
#undef __WGP_F2H
#undef __WGP_H2F

#undef __WGP_GEOM
#undef __WGP_GEOM_N
#undef __WGP_VMEM
#undef __WGP_VMEM_N
#undef __WGP_VLOAD
#undef __WGP_VSTORE
#undef __WGP_OVL

#endif /* WGPERF_OPENCL_COMPAT_H */
