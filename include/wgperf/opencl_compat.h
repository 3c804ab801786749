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
 *   - vload_halfN / vstore_halfN (and vloada_, vstorea_, rounding suffixes);
 *   - async_work_group_copy, async_work_group_strided_copy, wait_group_events and
 *     prefetch: the group's cooperative copy and its barrier;
 *   - shuffle and shuffle2 (vector permutes), and mad_hi, which libclc lacks.
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

/* Asynchronous copies between global and local memory, as a GPU performs them: the
 * work-items of the group copy cooperatively (the one with linear local id L copies
 * elements L, L + S, L + 2S, ... of the S work-items' group), and wait_group_events is the
 * group's barrier.  So the model sees the global loads and local stores of the copy.
 * prefetch is a hint that moves no data into registers: nothing, as libclc makes it. */
/* (32-bit: a group has at most 1024 work-items, and NVIDIA's compiler keeps ids in 32 bits) */
#define __WGP_GROUP_LINEAR_ID                                                            \
  (((uint)get_local_id(2) * (uint)get_local_size(1) + (uint)get_local_id(1)) * (uint)get_local_size(0) + \
   (uint)get_local_id(0))
#define __WGP_GROUP_SIZE ((uint)get_local_size(0) * (uint)get_local_size(1) * (uint)get_local_size(2))
#define __WGP_ASYNC(T)                                                                   \
  __WGP_OVL event_t async_work_group_copy(__local T *d, const __global T *s, size_t n, event_t e) { \
    for (size_t i = __WGP_GROUP_LINEAR_ID; i < n; i += __WGP_GROUP_SIZE)                 \
      d[i] = s[i];                                                                       \
    return e;                                                                            \
  }                                                                                      \
  __WGP_OVL event_t async_work_group_copy(__global T *d, const __local T *s, size_t n, event_t e) { \
    for (size_t i = __WGP_GROUP_LINEAR_ID; i < n; i += __WGP_GROUP_SIZE)                 \
      d[i] = s[i];                                                                       \
    return e;                                                                            \
  }                                                                                      \
  __WGP_OVL event_t async_work_group_strided_copy(__local T *d, const __global T *s, size_t n, size_t stride, \
                                                  event_t e) {                           \
    for (size_t i = __WGP_GROUP_LINEAR_ID; i < n; i += __WGP_GROUP_SIZE)                 \
      d[i] = s[i * stride];                                                              \
    return e;                                                                            \
  }                                                                                      \
  __WGP_OVL event_t async_work_group_strided_copy(__global T *d, const __local T *s, size_t n, size_t stride, \
                                                  event_t e) {                           \
    for (size_t i = __WGP_GROUP_LINEAR_ID; i < n; i += __WGP_GROUP_SIZE)                 \
      d[i * stride] = s[i];                                                              \
    return e;                                                                            \
  }                                                                                      \
  __WGP_OVL void prefetch(const __global T *p, size_t n) {                             \
    (void)p, (void)n;                                                                    \
  }
#define __WGP_ASYNC_N(T)                                                                 \
  __WGP_ASYNC(T) __WGP_ASYNC(T##2) __WGP_ASYNC(T##3) __WGP_ASYNC(T##4) __WGP_ASYNC(T##8) \
  __WGP_ASYNC(T##16)
__WGP_ASYNC_N(char)
__WGP_ASYNC_N(uchar)
__WGP_ASYNC_N(short)
__WGP_ASYNC_N(ushort)
__WGP_ASYNC_N(int)
__WGP_ASYNC_N(uint)
__WGP_ASYNC_N(long)
__WGP_ASYNC_N(ulong)
__WGP_ASYNC_N(float)
#ifdef cl_khr_fp64
__WGP_ASYNC_N(double)
#endif
__WGP_OVL void wait_group_events(int n, event_t *events) {
  (void)n, (void)events;
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
}
#undef __WGP_ASYNC_N
#undef __WGP_ASYNC
#undef __WGP_GROUP_SIZE
#undef __WGP_GROUP_LINEAR_ID

/* shuffle and shuffle2: result element k is element mask[k] of x (of x then y), the mask
 * taken modulo the number of elements.  With a constant mask the optimizer makes this one
 * shufflevector, which costs nothing (register naming, as the backend does it). */
#define __WGP_SHUFFLE(T, U, N, M)                                                        \
  __WGP_OVL T##M shuffle(T##N x, U##M m) {                                               \
    T##M r;                                                                              \
    for (int k = 0; k < M; k++)                                                          \
      r[k] = x[m[k] & (N - 1)];                                                          \
    return r;                                                                            \
  }                                                                                      \
  __WGP_OVL T##M shuffle2(T##N x, T##N y, U##M m) {                                      \
    T##M r;                                                                              \
    for (int k = 0; k < M; k++) {                                                        \
      U i = m[k] & (2 * N - 1);                                                          \
      r[k] = i < N ? x[i] : y[i - N];                                                    \
    }                                                                                    \
    return r;                                                                            \
  }
#define __WGP_SHUFFLE_N(T, U, N)                                                         \
  __WGP_SHUFFLE(T, U, N, 2) __WGP_SHUFFLE(T, U, N, 4) __WGP_SHUFFLE(T, U, N, 8) __WGP_SHUFFLE(T, U, N, 16)
#define __WGP_SHUFFLES(T, U)                                                             \
  __WGP_SHUFFLE_N(T, U, 2) __WGP_SHUFFLE_N(T, U, 4) __WGP_SHUFFLE_N(T, U, 8) __WGP_SHUFFLE_N(T, U, 16)
__WGP_SHUFFLES(char, uchar)
__WGP_SHUFFLES(uchar, uchar)
__WGP_SHUFFLES(short, ushort)
__WGP_SHUFFLES(ushort, ushort)
__WGP_SHUFFLES(int, uint)
__WGP_SHUFFLES(uint, uint)
__WGP_SHUFFLES(long, ulong)
__WGP_SHUFFLES(ulong, ulong)
__WGP_SHUFFLES(float, uint)
#ifdef cl_khr_fp64
__WGP_SHUFFLES(double, ulong)
#endif
#undef __WGP_SHUFFLES
#undef __WGP_SHUFFLE_N
#undef __WGP_SHUFFLE

/* mad_hi: libclc for NVPTX has mul_hi but no mad_hi, which left ptxas an unresolved call;
 * the high half of the product, then the add (nvcc's mad.hi is one IMAD.HI: the model
 * counts one instruction more). */
#define __WGP_MAD_HI(T)                                                                  \
  __WGP_OVL T mad_hi(T a, T b, T c) { return mul_hi(a, b) + c; }
#define __WGP_MAD_HI_N(T)                                                                \
  __WGP_MAD_HI(T) __WGP_MAD_HI(T##2) __WGP_MAD_HI(T##3) __WGP_MAD_HI(T##4) __WGP_MAD_HI(T##8) \
  __WGP_MAD_HI(T##16)
__WGP_MAD_HI_N(char)
__WGP_MAD_HI_N(uchar)
__WGP_MAD_HI_N(short)
__WGP_MAD_HI_N(ushort)
__WGP_MAD_HI_N(int)
__WGP_MAD_HI_N(uint)
__WGP_MAD_HI_N(long)
__WGP_MAD_HI_N(ulong)
#undef __WGP_MAD_HI_N
#undef __WGP_MAD_HI

#undef __WGP_GEOM
#undef __WGP_GEOM_N
#undef __WGP_VMEM
#undef __WGP_VMEM_N
#undef __WGP_VLOAD
#undef __WGP_VSTORE
#undef __WGP_OVL

#endif /* WGPERF_OPENCL_COMPAT_H */
