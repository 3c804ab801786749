/* bench_arith.cu - arithmetic latency and throughput per operation class.
 *
 *   arith_latency     one warp, one dependent chain x = step(x): SM cycles per step
 *   arith_throughput  full occupancy, 8 independent chains per thread: thread-ops per
 *                     cycle per SM, cycles from each SM's clock64() span (first block
 *                     start to last block end: a clock that drops under load does not
 *                     bias it); the note gives SM cycles over event time, to show a drop
 *
 * A step is one operation of its class on runtime operands (y, z are kernel
 * arguments), so nothing folds. Where one operation cannot form a chain by itself the
 * step adds the cheapest glue and the row's note says so (log: + FADD; div/rem: +
 * IADD). Integer ops use inline PTX so LLVM cannot rewrite the chain (n additions of
 * y into one multiply, x*y*y into x*(y*y)). Results reach memory only when the
 * runtime argument `flag` is set: timed runs pass 0, one extra run passes 1 and its
 * results are checked against the host (bit-exact where the operation is exact,
 * close for converging approximate chains, finite and bounded otherwise).
 *
 * Instruction check. The build machine has no cuobjdump; PTX was checked here and the
 * SASS on an H100 machine (run-device.sh logs an opcode count per kernel). Loop bodies,
 * per step: FADD, FMUL, FFMA, DADD, DMUL, DFMA, LOP3.LUT, IMAD (imul), I2FP.F32.S32,
 * F2I.TRUNC.NTZ, F2F.F64.F32, MUFU.RSQ + 2 FMUL (rsqrtf), FMUL.RZ + MUFU.SIN/COS,
 * 3 FMUL + MUFU.EX2 (__expf), MUFU.LG2 + FMUL + FFMA (__logf + y), MUFU.RCP + 2 FMUL
 * (__fdividef); sqrtf: MUFU.RSQ + FFMA/FMUL fix-ups + a called slow path; IEEE
 * division: MUFU.RCP + FFMA Newton steps + FCHK + a called slow path; idiv/irem:
 * IMAD.HI-based sequences (~8 ops); sinf/cosf/expf/logf: libdevice sequences.
 * Findings that shaped the code: (1) ptxas folds a chain x = x + y (y loop-invariant)
 * into x + k*y (IMAD/LEA), so iadd is a Fibonacci chain; ptxas then splits it between
 * IADD3 and IMAD.IADD, so iadd throughput exceeds the 64/clk/SM of the INT32 pipe;
 * (2) a warp-uniform chain runs on the uniform datapath (UIADD3), so every chain
 * starts from a lane-dependent value; with that, sqrtf, IEEE division and sinf/cosf
 * got slower (branchy fix-up paths), as in real kernels.
 *
 * Run: wgbench -o out.csv --group arith
 */
#include "common.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define HD __host__ __device__ __forceinline__

typedef unsigned long long u64;

enum check_kind { CHECK_EXACT, CHECK_CLOSE, CHECK_BOUNDED };

static HD float bits_f(int i)
{
#ifdef __CUDA_ARCH__
  return __int_as_float(i);
#else
  float f;
  memcpy(&f, &i, sizeof f);
  return f;
#endif
}

static HD int bits_i(float f)
{
#ifdef __CUDA_ARCH__
  return __float_as_int(f);
#else
  int i;
  memcpy(&i, &f, sizeof i);
  return i;
#endif
}

struct op_fadd {
  typedef float T;
  static HD T step(T x, T y, T) { return x + y; }
};
struct op_fmul {
  typedef float T;
  static HD T step(T x, T y, T) { return x * y; }
};
struct op_ffma {
  typedef float T;
  static HD T step(T x, T y, T z) { return fmaf(x, y, z); }
};
struct op_dadd {
  typedef double T;
  static HD T step(T x, T y, T) { return x + y; }
};
struct op_dmul {
  typedef double T;
  static HD T step(T x, T y, T) { return x * y; }
};
struct op_dfma {
  typedef double T;
  static HD T step(T x, T y, T z) { return fma(x, y, z); }
};
/* x(n+1) = x(n) + x(n-1), the pair packed in 64 bits (hi = previous): a chain of
 * x = x + y with y loop-invariant is folded by ptxas into x + k*y (IMAD/LEA). */
struct op_iadd {
  typedef unsigned long long T;
  static HD T step(T v, T, T)
  {
    unsigned lo = (unsigned)v, hi = (unsigned)(v >> 32), r;
#ifdef __CUDA_ARCH__
    asm("add.u32 %0, %1, %2;" : "=r"(r) : "r"(lo), "r"(hi));
#else
    r = lo + hi;
#endif
    return ((T)lo << 32) | r;
  }
};
struct op_lop3 {
  typedef int T;
  static HD T step(T x, T y, T z)
  {
#ifdef __CUDA_ARCH__
    int r;
    asm("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(r) : "r"(x), "r"(y), "r"(z));
    return r;
#else
    return x ^ y ^ z;
#endif
  }
};
struct op_imul {
  typedef int T;
  static HD T step(T x, T y, T)
  {
#ifdef __CUDA_ARCH__
    int r;
    asm("mul.lo.s32 %0, %1, %2;" : "=r"(r) : "r"(x), "r"(y));
    return r;
#else
    return (int)((unsigned)x * (unsigned)y);
#endif
  }
};
struct op_idiv {
  typedef int T;
  static HD T step(T x, T y, T z) { return x / y + z; }
};
struct op_irem {
  typedef int T;
  static HD T step(T x, T y, T z) { return x % y + z; }
};
struct op_i2f {
  typedef float T;
  static HD T step(T x, T, T) { return (float)bits_i(x); }
};
struct op_f2i {
  typedef int T;
  static HD T step(T x, T, T)
  {
    float f = bits_f(x);
#ifdef __CUDA_ARCH__
    return (int)f;
#else
    if (f != f)
      return 0;
    if (f >= 2147483648.0f)
      return 2147483647;
    if (f < -2147483648.0f)
      return (int)0x80000000u;
    return (int)f;
#endif
  }
};
struct op_f2d {
  typedef double T;
  static HD T step(T x, T, T)
  {
#ifdef __CUDA_ARCH__
    return (double)__int_as_float(__double2hiint(x));
#else
    u64 b;
    memcpy(&b, &x, sizeof b);
    return (double)bits_f((int)(unsigned)(b >> 32));
#endif
  }
};
struct op_sqrt {
  typedef float T;
  static HD T step(T x, T, T) { return sqrtf(x); }
};
struct op_rsqrt {
  typedef float T;
  static HD T step(T x, T, T)
  {
#ifdef __CUDA_ARCH__
    return rsqrtf(x);
#else
    return 1.0f / sqrtf(x);
#endif
  }
};
struct op_sin_fast {
  typedef float T;
  static HD T step(T x, T, T)
  {
#ifdef __CUDA_ARCH__
    return __sinf(x);
#else
    return sinf(x);
#endif
  }
};
struct op_cos_fast {
  typedef float T;
  static HD T step(T x, T, T)
  {
#ifdef __CUDA_ARCH__
    return __cosf(x);
#else
    return cosf(x);
#endif
  }
};
struct op_sin {
  typedef float T;
  static HD T step(T x, T, T) { return sinf(x); }
};
struct op_cos {
  typedef float T;
  static HD T step(T x, T, T) { return cosf(x); }
};
struct op_exp_fast {
  typedef float T;
  static HD T step(T x, T, T)
  {
#ifdef __CUDA_ARCH__
    return __expf(-x);
#else
    return expf(-x);
#endif
  }
};
struct op_exp {
  typedef float T;
  static HD T step(T x, T, T) { return expf(-x); }
};
struct op_log_fast {
  typedef float T;
  static HD T step(T x, T y, T)
  {
#ifdef __CUDA_ARCH__
    return __logf(x) + y;
#else
    return logf(x) + y;
#endif
  }
};
struct op_log {
  typedef float T;
  static HD T step(T x, T y, T) { return logf(x) + y; }
};
struct op_div {
  typedef float T;
  static HD T step(T x, T y, T) { return y / x; }
};
struct op_div_fast {
  typedef float T;
  static HD T step(T x, T y, T)
  {
#ifdef __CUDA_ARCH__
    return __fdividef(y, x);
#else
    return y / x;
#endif
  }
};

template <class Op>
__global__ void lat_kernel(typename Op::T x0, typename Op::T y, typename Op::T z,
                           typename Op::T delta, int iters, int flag, typename Op::T *out,
                           u64 *cycles)
{
  /* lane-dependent start: a warp-uniform chain would run on the uniform datapath */
  typename Op::T x = x0 + (typename Op::T)threadIdx.x * delta;
  long long t0 = clock64();
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int k = 0; k < 16; ++k)
      x = Op::step(x, y, z);
  }
  long long t1 = clock64();
  if (threadIdx.x == 0)
    cycles[0] = (u64)(t1 - t0);
  if (flag)
    out[threadIdx.x] = x;
}

#define ILP 8
template <class Op>
__global__ void tput_kernel(typename Op::T x0, typename Op::T y, typename Op::T z,
                            typename Op::T delta, int iters, int flag, typename Op::T *out,
                            u64 *cycles)
{
  typedef typename Op::T T;
  T x[ILP];
#pragma unroll
  for (int k = 0; k < ILP; ++k)
    x[k] = x0 + (T)(k + ILP * threadIdx.x) * delta; /* distinct, not warp-uniform */
  __syncthreads();
  long long t0 = clock64();
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int k = 0; k < ILP; ++k)
      x[k] = Op::step(x[k], y, z);
  }
  __syncthreads();
  long long t1 = clock64();
  if (threadIdx.x == 0) {
    wgb_record_span(cycles, t0, t1);
  }
  if (flag) {
    long t = (blockIdx.x * (long)blockDim.x + threadIdx.x) * ILP;
#pragma unroll
    for (int k = 0; k < ILP; ++k)
      out[t + k] = x[k];
  }
}

template <class T> static int value_ok(T got, T want, enum check_kind ck, double bound)
{
  double g = (double)got, w = (double)want;
  if (ck == CHECK_EXACT)
    return memcmp(&got, &want, sizeof got) == 0;
  if (!(g == g) || isinf(g))
    return 0;
  if (ck == CHECK_CLOSE)
    return fabs(g - w) <= 1e-2 * fabs(w) + 1e-4;
  return fabs(g) <= bound;
}

template <class T> static int all_finite(const T *v, long n, double bound)
{
  for (long i = 0; i < n; ++i) {
    double g = (double)v[i];
    if (!(g == g) || isinf(g) || fabs(g) > bound)
      return 0;
  }
  return 1;
}

struct op_info {
  const char *name;
  enum check_kind check;
  double bound; /* |result| bound for CHECK_BOUNDED and the finite scan */
  const char *desc;
};

/* Run latency and throughput of one op; returns -1 on a CUDA failure. */
template <class Op>
static int run_op(const struct op_info *info, typename Op::T x0, typename Op::T y,
                  typename Op::T z, typename Op::T delta)
{
  typedef typename Op::T T;
  char param[64];
  snprintf(param, sizeof param, "op=%s", info->name);

  /* ---- latency: one warp ---- */
  T *out;
  u64 *cyc;
  int block = 256, per_sm = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, tput_kernel<Op>, block, 0));
  if (per_sm < 1)
    per_sm = 1;
  int grid = g_dev.sm_count * per_sm;
  long nout = (long)grid * block * ILP;
  if (dev_alloc((void **)&out, (size_t)nout * sizeof(T)) ||
      dev_alloc((void **)&cyc, (size_t)grid * 3 * sizeof(u64)))
    return -1;

  u64 hc;
  int iters = 64;
  lat_kernel<Op><<<1, 32>>>(x0, y, z, delta, iters, 0, out, cyc); /* probe and warm-up */
  CK_LAUNCH();
  CK(cudaMemcpy(&hc, cyc, sizeof hc, cudaMemcpyDeviceToHost));
  double target = g_quick ? 5e5 : 2e6; /* cycles */
  double scale = target / (hc > 0 ? (double)hc : 1.0);
  iters = (int)fmin(fmax(iters * scale, 64.0), 1 << 20);
  double v[WGB_MAX_REPEATS];
  for (int r = -1; r < g_repeats; ++r) {
    lat_kernel<Op><<<1, 32>>>(x0, y, z, delta, iters, r < 0, out, cyc);
    CK_LAUNCH();
    CK(cudaMemcpy(&hc, cyc, sizeof hc, cudaMemcpyDeviceToHost));
    if (r < 0) {
      T got, want = x0;
      CK(cudaMemcpy(&got, out, sizeof got, cudaMemcpyDeviceToHost));
      for (long i = 0; i < (long)iters * 16; ++i)
        want = Op::step(want, y, z);
      if (!value_ok(got, want, info->check, info->bound)) {
        wgb_error_row("arith_latency", param,
                      "result %.9g differs from host %.9g after %ld steps", (double)got,
                      (double)want, (long)iters * 16);
        return 0;
      }
      continue;
    }
    v[r] = (double)hc / ((double)iters * 16);
  }
  struct wgb_stats s;
  wgb_stats_of(v, g_repeats, &s);
  char note[320];
  snprintf(note, sizeof note, "%s; 1 warp; dependent chain; %d steps", info->desc,
           iters * 16);
  wgb_row("arith_latency", param, "cycles", &s, note);

  /* ---- throughput: full occupancy ---- */
  u64 *hcyc = (u64 *)malloc((size_t)grid * 3 * sizeof(u64));
  T *hout = (T *)malloc((size_t)nout * sizeof(T));
  if (!hcyc || !hout) {
    free(hcyc);
    free(hout);
    wgb_set_err("host out of memory");
    return -1;
  }
  int rc = 0;
  double ms = 0, tv[WGB_MAX_REPEATS], mhz[WGB_MAX_REPEATS];
  iters = 16;
  for (int r = -3; r < g_repeats && rc == 0; ++r) {
    cudaError_t e = cudaEventRecord(g_ev0);
    if (e == cudaSuccess) {
      tput_kernel<Op><<<grid, block>>>(x0, y, z, delta, iters, r == -1, out, cyc);
      e = cudaGetLastError();
    }
    if (e == cudaSuccess)
      e = cudaEventRecord(g_ev1);
    if (e == cudaSuccess)
      e = cudaEventSynchronize(g_ev1);
    float fm = 0;
    if (e == cudaSuccess)
      e = cudaEventElapsedTime(&fm, g_ev0, g_ev1);
    if (e == cudaSuccess)
      e = cudaMemcpy(hcyc, cyc, (size_t)grid * 3 * sizeof(u64), cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) {
      wgb_set_err("throughput %s: %s", info->name, cudaGetErrorString(e));
      rc = -1;
      break;
    }
    ms = fm;
    if (r <= -2) { /* two probes: size for ~4 ms (the first is launch-bound) */
      double sc = (g_quick ? 1.5 : 4.0) / (ms > 1e-3 ? ms : 1e-3);
      iters = (int)fmin(fmax(iters * sc, 16.0), (double)(1 << 22));
      continue;
    }
    if (r == -1) { /* checked run with stores enabled */
      e = cudaMemcpy(hout, out, (size_t)nout * sizeof(T), cudaMemcpyDeviceToHost);
      if (e != cudaSuccess) {
        wgb_set_err("throughput %s: %s", info->name, cudaGetErrorString(e));
        rc = -1;
        break;
      }
      T want = x0;
      for (long i = 0; i < iters; ++i)
        want = Op::step(want, y, z);
      int ok = value_ok(hout[0], want, info->check, info->bound);
      if (ok && info->check != CHECK_EXACT)
        ok = all_finite(hout, nout, info->bound);
      if (!ok) {
        wgb_error_row("arith_throughput", param,
                      "result %.9g differs from host %.9g after %d steps", (double)hout[0],
                      (double)want, iters);
        rc = 1;
        break;
      }
      continue;
    }
    tv[r] = wgb_sm_rate(hcyc, grid, (double)block * ILP * (double)iters);
    /* SM cycles over event time: the clock under this load (launch gap included) */
    mhz[r] = tv[r] > 0 ? (double)per_sm * block * ILP * iters / tv[r] / (ms * 1e3) : 0;
  }
  free(hcyc);
  free(hout);
  if (rc < 0)
    return -1;
  if (rc > 0)
    return 0;
  wgb_stats_of(tv, g_repeats, &s);
  snprintf(note, sizeof note,
           "%s; %d threads/SM x %d chains; %d steps each; SM span over event time "
           "%.0f MHz",
           info->desc, per_sm * block, ILP, iters, wgb_median(mhz, g_repeats));
  wgb_row("arith_throughput", param, "ops/cycle/SM", &s, note);
  return 0;
}

#define RUN(OP, NAME, CHECK, BOUND, DESC, X0, Y, Z, DELTA)                            \
  do {                                                                             \
    static const struct op_info info_ = {NAME, CHECK, BOUND, DESC};                \
    if (!g_only || strcmp(g_only, NAME) == 0)                                      \
      if (run_op<OP>(&info_, X0, Y, Z, DELTA) < 0) {                               \
        wgb_error_row("arith", "op=" NAME, "%s", g_err);                           \
        if (cudaPeekAtLastError() != cudaSuccess ||                                \
            cudaDeviceSynchronize() != cudaSuccess)                                \
          return -1; /* context lost */                                            \
      }                                                                            \
    dev_free_all();                                                                \
  } while (0)

static const char *g_only = NULL;

int bench_arith(void)
{
  g_only = getenv("WGBENCH_ARITH_OP"); /* run one op: for debugging */
  const double B = 1e30;
  RUN(op_fadd, "fadd", CHECK_EXACT, B, "x+y (FADD)", 1.0f, 1e-3f, 0.0f, 1e-3f);
  RUN(op_fmul, "fmul", CHECK_EXACT, B, "x*y (FMUL)", 1.0f, 0.9999999f, 0.0f, 1e-3f);
  RUN(op_ffma, "ffma", CHECK_EXACT, B, "fmaf(x;y;z) (FFMA)", 2.0f, 0.5f, 0.5f, 1e-3f);
  RUN(op_dadd, "dadd", CHECK_EXACT, B, "x+y (DADD)", 1.0, 1e-3, 0.0, 1e-3);
  RUN(op_dmul, "dmul", CHECK_EXACT, B, "x*y (DMUL)", 1.0, 0.9999999, 0.0, 1e-3);
  RUN(op_dfma, "dfma", CHECK_EXACT, B, "fma(x;y;z) (DFMA)", 2.0, 0.5, 0.5, 1e-3);
  RUN(op_iadd, "iadd", CHECK_EXACT, B, "Fibonacci add.u32 x(n)+x(n-1) (IADD3)",
      0x100000001ULL, 0ULL, 0ULL, 0x100000001ULL);
  RUN(op_lop3, "lop3", CHECK_EXACT, B, "x^y^z as one lop3.b32 (LOP3)", 1, 0x5a5a5a5a,
      0x0f0f0f0f, 1);
  RUN(op_imul, "imul", CHECK_EXACT, B, "mul.lo.s32 x;y (IMAD)", 1, (int)0x9E3779B1, 0, 1);
  RUN(op_idiv, "idiv", CHECK_EXACT, B,
      "x/y+z; s32 division by a runtime divisor (multi-instruction) + IADD", 12345, 7,
      1 << 20, 1);
  RUN(op_irem, "irem", CHECK_EXACT, B, "x%y+z; s32 remainder by a runtime divisor + IADD",
      12345, 1000003, 1 << 24, 1);
  RUN(op_i2f, "i2f", CHECK_EXACT, B, "(float)(int bits of x) (I2F.S32)", 1.0f, 0.0f, 0.0f,
      1e-3f);
  RUN(op_f2i, "f2i", CHECK_EXACT, B, "(int)(float bits of x) (F2I.TRUNC)", 0x4B000001, 0,
      0, 1);
  RUN(op_f2d, "f2d", CHECK_EXACT, B, "(double)(float from high word of x) (F2F.F64.F32)",
      1.0, 0.0, 0.0, 1e-3);
  RUN(op_sqrt, "sqrt", CHECK_EXACT, B, "sqrtf IEEE (MUFU.RSQ + fix-ups)", 2.0f, 0.0f, 0.0f,
      1e-3f);
  RUN(op_rsqrt, "rsqrt", CHECK_CLOSE, B, "rsqrtf (MUFU.RSQ)", 2.0f, 0.0f, 0.0f, 1e-3f);
  RUN(op_sin_fast, "sin_fast", CHECK_BOUNDED, 1.01, "__sinf (MUFU.SIN)", 1.0f, 0.0f, 0.0f,
      1e-3f);
  RUN(op_cos_fast, "cos_fast", CHECK_CLOSE, 1.01, "__cosf (MUFU.COS)", 1.0f, 0.0f, 0.0f,
      1e-3f);
  RUN(op_sin, "sin", CHECK_BOUNDED, 1.01, "sinf (libdevice; small arguments)", 1.0f, 0.0f,
      0.0f, 1e-3f);
  RUN(op_cos, "cos", CHECK_CLOSE, 1.01, "cosf (libdevice; small arguments)", 1.0f, 0.0f,
      0.0f, 1e-3f);
  RUN(op_exp_fast, "exp_fast", CHECK_CLOSE, B, "__expf(-x) (FMUL + MUFU.EX2)", 1.0f, 0.0f,
      0.0f, 1e-3f);
  RUN(op_exp, "exp", CHECK_CLOSE, B, "expf(-x) (libdevice)", 1.0f, 0.0f, 0.0f, 1e-3f);
  RUN(op_log_fast, "log_fast", CHECK_CLOSE, B, "__logf(x)+y (MUFU.LG2 + one FFMA: the ln2 scale and +y fuse)",
      3.0f, 2.0f, 0.0f, 1e-3f);
  RUN(op_log, "log", CHECK_CLOSE, B, "logf(x)+y (libdevice) + FADD", 3.0f, 2.0f, 0.0f,
      1e-3f);
  RUN(op_div, "div", CHECK_EXACT, B, "y/x IEEE fp32 division (MUFU.RCP + Newton)", 1.5f,
      2.0f, 0.0f, 1e-3f);
  RUN(op_div_fast, "div_fast", CHECK_CLOSE, B, "__fdividef(y;x)", 1.5f, 2.0f, 0.0f, 1e-3f);
  return 0;
}
