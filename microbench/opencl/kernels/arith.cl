/* arith.cl - arithmetic latency and throughput per operation (microbench/opencl,
 * OpenCL C 1.2).
 *
 * lat_OP: each work-item of one warp-sized group runs one dependent chain x = step(x);
 *         the loop body holds U steps (U = 16, or 4 for library functions).
 * thr_OP: every work-item of a full grid runs 8 independent chains, one step each per
 *         iteration.
 * Operands y, z, w are kernel arguments, so nothing folds at compile time; chains
 * start from a work-item-dependent value (a uniform chain could run on NVIDIA's
 * uniform datapath). Every result is stored: a store made conditional on a run-time
 * flag lets LLVM sink the whole loop under the condition (seen with PoCL), so the
 * untimed chain would vanish. The host recomputes the stored chains.
 * Steps an optimizer could collapse are avoided: integer x*y chains reassociate into
 * x*y^16 (so imul is x*y+w, one IMAD on NVIDIA), x+y chains fold into x+k*y (so
 * integer adds are Fibonacci steps), rotations by a constant combine (so rotxor
 * rotates by the value itself).
 */
#ifdef WGB_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

#define R4(s) s s s s
#define R16(s) R4(s) R4(s) R4(s) R4(s)

#define LAT(KNAME, T, STEP, REP)                                                           \
    __kernel void KNAME(T x0, T y, T z, T w, T delta, uint iters, __global T *out)         \
    {                                                                                     \
        T x = x0 + (T)(get_local_id(0)) * delta;                                          \
        for (uint i = 0; i < iters; i++) {                                                \
            REP(STEP(x))                                                                  \
        }                                                                                 \
        out[get_local_id(0)] = x;                                                         \
    }

#define THR(KNAME, T, STEP)                                                                \
    __kernel void KNAME(T x0, T y, T z, T w, T delta, uint iters, __global T *out)         \
    {                                                                                     \
        uint g = get_global_id(0);                                                        \
        T a0 = x0 + (T)(8 * g + 0) * delta, a1 = x0 + (T)(8 * g + 1) * delta;             \
        T a2 = x0 + (T)(8 * g + 2) * delta, a3 = x0 + (T)(8 * g + 3) * delta;             \
        T a4 = x0 + (T)(8 * g + 4) * delta, a5 = x0 + (T)(8 * g + 5) * delta;             \
        T a6 = x0 + (T)(8 * g + 6) * delta, a7 = x0 + (T)(8 * g + 7) * delta;             \
        for (uint i = 0; i < iters; i++) {                                                \
            STEP(a0) STEP(a1) STEP(a2) STEP(a3) STEP(a4) STEP(a5) STEP(a6) STEP(a7)       \
        }                                                                                 \
        out[8 * g + 0] = a0;                                                              \
        out[8 * g + 1] = a1;                                                              \
        out[8 * g + 2] = a2;                                                              \
        out[8 * g + 3] = a3;                                                              \
        out[8 * g + 4] = a4;                                                              \
        out[8 * g + 5] = a5;                                                              \
        out[8 * g + 6] = a6;                                                              \
        out[8 * g + 7] = a7;                                                              \
    }

/* the names are pasted here, before any expansion: sqrt, sin, select... are also
 * builtins that a compiler's headers may define as macros */
#define OP(NAME, T, STEP, REP) LAT(lat_##NAME, T, STEP, REP) THR(thr_##NAME, T, STEP)

/* single precision */
#define S_fadd(v) v = v + y;
#define S_fmul(v) v = v * y;
#define S_ffma(v) v = fma(v, y, z);
#define S_div(v) v = y / v;
#define S_div_fast(v) v = native_divide(y, v);
#define S_sqrt(v) v = sqrt(v);
#define S_sqrt_fast(v) v = native_sqrt(v);
#define S_rsqrt(v) v = rsqrt(v);
#define S_sin(v) v = sin(v);
#define S_sin_fast(v) v = native_sin(v);
#define S_cos(v) v = cos(v);
#define S_cos_fast(v) v = native_cos(v);
#define S_tan(v) v = fma(tan(v), y, z);
#define S_exp(v) v = exp(-v);
#define S_exp_fast(v) v = native_exp(-v);
#define S_log(v) v = log(v) + y;
#define S_log_fast(v) v = native_log(v) + y;
#define S_pow(v) v = pow(v, y) + z;
OP(fadd, float, S_fadd, R16)
OP(fmul, float, S_fmul, R16)
OP(ffma, float, S_ffma, R16)
OP(div, float, S_div, R16)
OP(div_fast, float, S_div_fast, R16)
OP(sqrt, float, S_sqrt, R16)
OP(sqrt_fast, float, S_sqrt_fast, R16)
OP(rsqrt, float, S_rsqrt, R16)
OP(sin, float, S_sin, R4)
OP(sin_fast, float, S_sin_fast, R16)
OP(cos, float, S_cos, R4)
OP(cos_fast, float, S_cos_fast, R16)
OP(tan, float, S_tan, R4)
OP(exp, float, S_exp, R4)
OP(exp_fast, float, S_exp_fast, R16)
OP(log, float, S_log, R4)
OP(log_fast, float, S_log_fast, R16)
OP(pow, float, S_pow, R4)

/* integers: Fibonacci pairs (a chain x = x + y with y invariant folds into x + k*y) */
#define S_iadd(v) v = (uint2)(v.s1, v.s0 + v.s1);
#define S_ladd(v) v = (ulong2)(v.s1, v.s0 + v.s1);
#define S_imul(v) v = v * y + w;
#define S_lmul(v) v = v * y + w;
#define S_idiv(v) v = v / y + z;
#define S_irem(v) v = v % y + z;
#define S_ldiv(v) v = v / y + z;
#define S_rotxor(v) v = rotate(v, v) ^ z;
#define S_select(v) v = v > y ? z : w;
OP(iadd, uint2, S_iadd, R16)
OP(ladd, ulong2, S_ladd, R16)
OP(imul, uint, S_imul, R16)
OP(lmul, ulong, S_lmul, R16)
OP(idiv, int, S_idiv, R16)
OP(irem, int, S_irem, R16)
OP(ldiv, long, S_ldiv, R4)
OP(rotxor, uint, S_rotxor, R16)
OP(select, int, S_select, R16)

/* conversions */
#define S_i2f(v) v = (float)as_int(v);
#define S_f2i(v) v = (int)as_float(v);
OP(i2f, float, S_i2f, R16)
OP(f2i, int, S_f2i, R16)

#ifdef WGB_FP64
#define S_dadd(v) v = v + y;
#define S_dmul(v) v = v * y;
#define S_dfma(v) v = fma(v, y, z);
#define S_ddiv(v) v = y / v;
#define S_dexp(v) v = exp(-v);
#define S_f2d(v) v = (double)as_float((int)(as_long(v) >> 32));
OP(dadd, double, S_dadd, R16)
OP(dmul, double, S_dmul, R16)
OP(dfma, double, S_dfma, R16)
OP(ddiv, double, S_ddiv, R16)
OP(dexp, double, S_dexp, R4)
OP(f2d, double, S_f2d, R16)
#endif
