/* bench_arith.c - latency and throughput of each arithmetic operation (kernels in
 * kernels/arith.cl).
 *
 *   arith_latency     one warp-sized work-group, one dependent chain per work-item:
 *                     cycles per step = (t(2n) - t(n)) / (n x steps per iteration)
 *   arith_throughput  a full grid, 8 independent chains per work-item: work-item
 *                     operations per cycle per compute unit, from the same difference
 *
 * The op names are those of the CUDA suite where the operation is the same (fadd,
 * ffma, idiv, ...), so one fit (wgb_fit.h: wgb_op_table) maps both to cost classes.
 * Checks: the chains of the warm-up runs are recomputed on the host: bit-exact for exact
 * operations (integer, add, mul, fma, conversions), within 1% for chains that
 * converge (sqrt, cos, exp, log, division, ...), bounded for sin; every other float
 * result of the grid must be finite.
 */
#define _POSIX_C_SOURCE 200809L
#include "wgb.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXREP 64

typedef enum vt { VT_F32, VT_F64, VT_I32, VT_U32, VT_I64, VT_U64, VT_U32X2, VT_U64X2 } vt;

typedef union val {
  float f;
  double d;
  int32_t i;
  uint32_t u;
  int64_t l;
  uint64_t ul;
  uint32_t u2[2];
  uint64_t ul2[2];
} val;

typedef enum check { EXACT, CLOSE, BOUNDED } check;

typedef enum opid {
  O_FADD, O_FMUL, O_FFMA, O_DIV, O_DIV_FAST, O_SQRT, O_SQRT_FAST, O_RSQRT, O_SIN, O_SIN_FAST, O_COS, O_COS_FAST,
  O_TAN, O_EXP, O_EXP_FAST, O_LOG, O_LOG_FAST, O_POW, O_IADD, O_LADD, O_IMUL, O_LMUL, O_IDIV, O_IREM, O_LDIV,
  O_ROTXOR, O_SELECT, O_I2F, O_F2I, O_DADD, O_DMUL, O_DFMA, O_DDIV, O_DEXP, O_F2D
} opid;

typedef struct op {
  opid id;
  const char *name;
  vt t;
  int unroll; /* steps per loop iteration of lat_NAME (arith.cl) */
  bool fp64;
  check ck;
  val x0, y, z, w, delta;
  const char *desc;
} op;

#define F(v) {.f = (v)}
#define D(v) {.d = (v)}
#define I(v) {.i = (v)}
#define U(v) {.u = (v)}
#define L(v) {.l = (v)}
#define UL(v) {.ul = (v)}
#define Z {.ul2 = {0, 0}}

static const op ops[] = {
    {O_FADD, "fadd", VT_F32, 16, false, EXACT, F(1), F(1e-3f), Z, Z, F(1e-3f), "x+y"},
    {O_FMUL, "fmul", VT_F32, 16, false, EXACT, F(1), F(0.9999999f), Z, Z, F(1e-3f), "x*y"},
    {O_FFMA, "ffma", VT_F32, 16, false, EXACT, F(2), F(0.5f), F(0.5f), Z, F(1e-3f), "fma(x;y;z)"},
    {O_DIV, "div", VT_F32, 16, false, CLOSE, F(1.5f), F(2), Z, Z, F(1e-3f), "y/x (OpenCL default precision)"},
    {O_DIV_FAST, "div_fast", VT_F32, 16, false, CLOSE, F(1.5f), F(2), Z, Z, F(1e-3f), "native_divide(y;x)"},
    {O_SQRT, "sqrt", VT_F32, 16, false, CLOSE, F(2), Z, Z, Z, F(1e-3f), "sqrt(x)"},
    {O_SQRT_FAST, "sqrt_fast", VT_F32, 16, false, CLOSE, F(2), Z, Z, Z, F(1e-3f), "native_sqrt(x)"},
    {O_RSQRT, "rsqrt", VT_F32, 16, false, CLOSE, F(2), Z, Z, Z, F(1e-3f), "rsqrt(x)"},
    {O_SIN, "sin", VT_F32, 4, false, BOUNDED, F(1), Z, Z, Z, F(1e-3f), "sin(x) (small arguments)"},
    {O_SIN_FAST, "sin_fast", VT_F32, 16, false, BOUNDED, F(1), Z, Z, Z, F(1e-3f), "native_sin(x)"},
    {O_COS, "cos", VT_F32, 4, false, CLOSE, F(1), Z, Z, Z, F(1e-3f), "cos(x)"},
    {O_COS_FAST, "cos_fast", VT_F32, 16, false, CLOSE, F(1), Z, Z, Z, F(1e-3f), "native_cos(x)"},
    {O_TAN, "tan", VT_F32, 4, false, CLOSE, F(0.3f), F(0.25f), F(0.25f), Z, F(1e-4f), "fma(tan(x);y;z)"},
    {O_EXP, "exp", VT_F32, 4, false, CLOSE, F(1), Z, Z, Z, F(1e-3f), "exp(-x)"},
    {O_EXP_FAST, "exp_fast", VT_F32, 16, false, CLOSE, F(1), Z, Z, Z, F(1e-3f), "native_exp(-x)"},
    {O_LOG, "log", VT_F32, 4, false, CLOSE, F(3), F(2), Z, Z, F(1e-3f), "log(x)+y"},
    {O_LOG_FAST, "log_fast", VT_F32, 16, false, CLOSE, F(3), F(2), Z, Z, F(1e-3f), "native_log(x)+y"},
    {O_POW, "pow", VT_F32, 4, false, CLOSE, F(1), F(0.5f), F(0.5f), Z, F(1e-3f), "pow(x;y)+z"},
    {O_IADD, "iadd", VT_U32X2, 16, false, EXACT, {.u2 = {1, 1}}, Z, Z, Z, {.u2 = {1, 1}},
     "Fibonacci step (a;b) -> (b;a+b) in 32 bits"},
    {O_LADD, "ladd", VT_U64X2, 16, false, EXACT, {.ul2 = {1, 1}}, Z, Z, Z, {.ul2 = {1, 1}},
     "Fibonacci step (a;b) -> (b;a+b) in 64 bits"},
    {O_IMUL, "imul", VT_U32, 16, false, EXACT, U(1), U(0x9E3779B1u), Z, U(12345), U(1), "x*y+w (32-bit; one IMAD)"},
    {O_LMUL, "lmul", VT_U64, 16, false, EXACT, UL(1), UL(0x9E3779B97F4A7C15ull), Z, UL(12345), UL(1),
     "x*y+w (64-bit)"},
    {O_IDIV, "idiv", VT_I32, 16, false, EXACT, I(12345), I(7), I(1 << 20), Z, I(1),
     "x/y+z; 32-bit division by a runtime divisor + add"},
    {O_IREM, "irem", VT_I32, 16, false, EXACT, I(12345), I(1000003), I(1 << 24), Z, I(1),
     "x%y+z; 32-bit remainder + add"},
    {O_LDIV, "ldiv", VT_I64, 4, false, EXACT, L(12345), L(7), L(1ll << 40), Z, L(1),
     "x/y+z; 64-bit division + add"},
    {O_ROTXOR, "rotxor", VT_U32, 16, false, EXACT, U(1), Z, U(0x5a5a5a5au), Z, U(1),
     "rotate(x;x)^z: two logic operations"},
    {O_SELECT, "select", VT_I32, 16, false, EXACT, I(0), I(5), I(10), I(1), I(1),
     "x>y ? z : w: a compare and a select"},
    {O_I2F, "i2f", VT_F32, 16, false, EXACT, F(1), Z, Z, Z, F(1e-3f), "(float)(int bits of x)"},
    {O_F2I, "f2i", VT_I32, 16, false, EXACT, I(0x4B000001), Z, Z, Z, I(1), "(int)(float bits of x)"},
    {O_DADD, "dadd", VT_F64, 16, true, EXACT, D(1), D(1e-3), Z, Z, D(1e-3), "x+y in double"},
    {O_DMUL, "dmul", VT_F64, 16, true, EXACT, D(1), D(0.9999999), Z, Z, D(1e-3), "x*y in double"},
    {O_DFMA, "dfma", VT_F64, 16, true, EXACT, D(2), D(0.5), D(0.5), Z, D(1e-3), "fma(x;y;z) in double"},
    {O_DDIV, "ddiv", VT_F64, 16, true, CLOSE, D(1.5), D(2), Z, Z, D(1e-3), "y/x in double"},
    {O_DEXP, "dexp", VT_F64, 4, true, CLOSE, D(1), Z, Z, Z, D(1e-3), "exp(-x) in double"},
    {O_F2D, "f2d", VT_F64, 16, true, EXACT, D(1), Z, Z, Z, D(1e-3), "(double)(float from the high word of x)"},
};

static size_t vt_size(vt t) {
  switch (t) {
  case VT_F32:
  case VT_I32:
  case VT_U32: return 4;
  case VT_U64X2: return 16;
  default: return 8;
  }
}

static bool vt_float(vt t) { return t == VT_F32 || t == VT_F64; }

static float bits_f(int32_t i) {
  float f;
  memcpy(&f, &i, sizeof f);
  return f;
}
static int32_t bits_i(float f) {
  int32_t i;
  memcpy(&i, &f, sizeof i);
  return i;
}

static void step(const op *o, val *x) {
  switch (o->id) {
  case O_FADD: x->f = x->f + o->y.f; break;
  case O_FMUL: x->f = x->f * o->y.f; break;
  case O_FFMA: x->f = fmaf(x->f, o->y.f, o->z.f); break;
  case O_DIV:
  case O_DIV_FAST: x->f = o->y.f / x->f; break;
  case O_SQRT:
  case O_SQRT_FAST: x->f = sqrtf(x->f); break;
  case O_RSQRT: x->f = 1.0f / sqrtf(x->f); break;
  case O_SIN:
  case O_SIN_FAST: x->f = sinf(x->f); break;
  case O_COS:
  case O_COS_FAST: x->f = cosf(x->f); break;
  case O_TAN: x->f = fmaf(tanf(x->f), o->y.f, o->z.f); break;
  case O_EXP:
  case O_EXP_FAST: x->f = expf(-x->f); break;
  case O_LOG:
  case O_LOG_FAST: x->f = logf(x->f) + o->y.f; break;
  case O_POW: x->f = powf(x->f, o->y.f) + o->z.f; break;
  case O_IADD: {
    uint32_t a = x->u2[0], b = x->u2[1];
    x->u2[0] = b;
    x->u2[1] = a + b;
    break;
  }
  case O_LADD: {
    uint64_t a = x->ul2[0], b = x->ul2[1];
    x->ul2[0] = b;
    x->ul2[1] = a + b;
    break;
  }
  case O_IMUL: x->u = x->u * o->y.u + o->w.u; break;
  case O_LMUL: x->ul = x->ul * o->y.ul + o->w.ul; break;
  case O_IDIV: x->i = x->i / o->y.i + o->z.i; break;
  case O_IREM: x->i = x->i % o->y.i + o->z.i; break;
  case O_LDIV: x->l = x->l / o->y.l + o->z.l; break;
  case O_ROTXOR: {
    uint32_t r = x->u & 31;
    x->u = ((x->u << r) | (x->u >> ((32 - r) & 31))) ^ o->z.u;
    break;
  }
  case O_SELECT: x->i = x->i > o->y.i ? o->z.i : o->w.i; break;
  case O_I2F: x->f = (float)bits_i(x->f); break;
  case O_F2I: x->i = (int32_t)bits_f(x->i); break;
  case O_DADD: x->d = x->d + o->y.d; break;
  case O_DMUL: x->d = x->d * o->y.d; break;
  case O_DFMA: x->d = fma(x->d, o->y.d, o->z.d); break;
  case O_DDIV: x->d = o->y.d / x->d; break;
  case O_DEXP: x->d = exp(-x->d); break;
  case O_F2D: {
    int64_t bits;
    memcpy(&bits, &x->d, sizeof bits);
    x->d = (double)bits_f((int32_t)(bits >> 32));
    break;
  }
  }
}

static double as_double(vt t, const val *v) {
  switch (t) {
  case VT_F32: return v->f;
  case VT_F64: return v->d;
  case VT_I32: return v->i;
  case VT_U32: return v->u;
  case VT_I64: return (double)v->l;
  case VT_U64: return (double)v->ul;
  case VT_U32X2: return v->u2[1];
  case VT_U64X2: return (double)v->ul2[1];
  }
  return 0;
}

/* Whether GOT agrees with the host chain WANT under O's check. */
static bool agrees(const op *o, const val *got, const val *want) {
  if (o->ck == EXACT)
    return memcmp(got, want, vt_size(o->t)) == 0;
  double g = as_double(o->t, got), w = as_double(o->t, want);
  if (!isfinite(g))
    return false;
  if (o->ck == CLOSE)
    return fabs(g - w) <= 1e-2 * fabs(w) + 1e-4;
  return fabs(g) <= 1.01;
}

static bool finite_bounded(const op *o, const val *v) {
  if (!vt_float(o->t))
    return true;
  double g = as_double(o->t, v);
  return isfinite(g) && (o->ck != BOUNDED || fabs(g) <= 1.01);
}

typedef struct kpair {
  cl_kernel lat, thr;
  cl_mem out;
} kpair;

static int set_common(wgb *b, cl_kernel k, const op *o, cl_mem out) {
  size_t s = vt_size(o->t);
  if (wgb_arg(b, k, 0, s, &o->x0) || wgb_arg(b, k, 1, s, &o->y) || wgb_arg(b, k, 2, s, &o->z) ||
      wgb_arg(b, k, 3, s, &o->w) || wgb_arg(b, k, 4, s, &o->delta) || WGB_ARG(b, k, 6, out))
    return -1;
  return 0;
}

static int run_iters(wgb *b, cl_kernel k, cl_uint iters, size_t global, size_t local, double *ns) {
  if (WGB_ARG(b, k, 5, iters))
    return -1;
  return wgb_run(b, k, 1, &global, &local, ns);
}

/* Iterations for about TARGET ns of work: from two probe runs of 16 and 32. */
static int size_iters(wgb *b, cl_kernel k, size_t global, size_t local, double target, cl_uint *iters) {
  double t1, t2;
  if (run_iters(b, k, 16, global, local, &t1) || run_iters(b, k, 32, global, local, &t2))
    return -1;
  double per = (t2 - t1) / 16;
  if (!(per > 0))
    per = t2 / 32;
  double it = target / (per > 0 ? per : 1);
  *iters = (cl_uint)fmin(fmax(it, 4), 1 << 22);
  return 0;
}

/* One op: latency then throughput rows. */
static int run_op(wgb *b, cl_program p, const op *o) {
  char kname[64], param[64], note[400], why[300] = "";
  snprintf(param, sizeof param, "op=%s", o->name);
  snprintf(kname, sizeof kname, "lat_%s", o->name);
  cl_kernel lat = wgb_kernel(b, p, kname);
  snprintf(kname, sizeof kname, "thr_%s", o->name);
  cl_kernel thr = lat ? wgb_kernel(b, p, kname) : NULL;
  size_t tl = 256 <= b->d->max_wg ? 256 : b->d->max_wg;
  size_t tg = tl * b->d->compute_units * wgb_groups_per_cu(b, tl);
  size_t ll = b->warp, lg = b->warp;
  size_t esz = vt_size(o->t);
  cl_mem out = thr ? wgb_buffer(b, tg * 8 * esz, NULL) : NULL;
  val *h = out ? malloc(tg * 8 * esz) : NULL;
  int rc = h ? 0 : -1;
  if (out && !h)
    rc = wgb_fail(b, "host out of memory");
  double target = b->quick ? 5e5 : 2e6;
  if (!b->d->is_gpu)
    target = b->quick ? 2e5 : 1e6;
  double v[MAXREP];
  bool bad = false;
  /* latency */
  cl_uint iters = 16;
  if (!rc)
    rc = set_common(b, lat, o, out) || size_iters(b, lat, lg, ll, target, &iters) ? -1 : 0;
  for (int r = -1; r < b->repeats && !rc && !bad; r++) {
    double t1, t2;
    rc = run_iters(b, lat, iters, lg, ll, &t1) || run_iters(b, lat, 2 * iters, lg, ll, &t2) ? -1 : 0;
    if (rc)
      break;
    if (r < 0) {
      if ((rc = wgb_read(b, out, lg * esz, h)))
        break;
      val want = o->x0;
      long steps = 2L * iters * o->unroll; /* the buffer holds the second run's chains */
      for (long i = 0; i < steps; i++)
        step(o, &want);
      val got;
      memcpy(&got, h, esz);
      if (!agrees(o, &got, &want)) {
        snprintf(why, sizeof why, "work-item 0: %.9g, the host's chain gives %.9g after %ld steps",
                 as_double(o->t, &got), as_double(o->t, &want), steps);
        bad = true;
      }
      continue;
    }
    v[r] = wgb_cycles(b, (t2 - t1) / ((double)iters * o->unroll));
  }
  if (!rc && bad)
    rc = wgb_error(b, "arith_latency", param, "%s", why);
  else if (!rc) {
    snprintf(note, sizeof note, "%s; one work-group of %zu; dependent chain; %u x %d steps", o->desc, ll, iters,
             o->unroll);
    rc = wgb_add(b, "arith_latency", param, "cycles", v, b->repeats, note);
  }
  /* throughput */
  bad = false;
  if (!rc)
    rc = set_common(b, thr, o, out) || size_iters(b, thr, tg, tl, target, &iters) ? -1 : 0;
  for (int r = -1; r < b->repeats && !rc && !bad; r++) {
    double t1, t2;
    rc = run_iters(b, thr, iters, tg, tl, &t1) || run_iters(b, thr, 2 * iters, tg, tl, &t2) ? -1 : 0;
    if (rc)
      break;
    if (r < 0) {
      if ((rc = wgb_read(b, out, tg * 8 * esz, h)))
        break;
      val want = o->x0;
      for (long i = 0; i < 2L * iters; i++)
        step(o, &want);
      val got;
      memcpy(&got, h, esz);
      if (!agrees(o, &got, &want)) {
        snprintf(why, sizeof why, "chain 0: %.9g, the host's chain gives %.9g after %u steps",
                 as_double(o->t, &got), as_double(o->t, &want), 2 * iters);
        bad = true;
      }
      for (size_t i = 1; i < tg * 8 && !bad; i++) {
        memcpy(&got, (char *)h + i * esz, esz);
        if (!finite_bounded(o, &got)) {
          snprintf(why, sizeof why, "chain %zu ended at %.9g (not finite or out of bounds)", i,
                   as_double(o->t, &got));
          bad = true;
        }
      }
      continue;
    }
    double nops = (double)tg * 8 * iters;
    v[r] = nops / wgb_cycles(b, t2 - t1) / b->d->compute_units;
  }
  if (!rc && bad)
    rc = wgb_error(b, "arith_throughput", param, "%s", why);
  else if (!rc) {
    snprintf(note, sizeof note, "%s; %zu work-items x 8 independent chains; %u steps each", o->desc, tg, iters);
    rc = wgb_add(b, "arith_throughput", param, "ops/cycle/SM", v, b->repeats, note);
  }
  free(h);
  if (out)
    clReleaseMemObject(out);
  if (thr)
    clReleaseKernel(thr);
  if (lat)
    clReleaseKernel(lat);
  return rc;
}

int wgb_bench_arith(wgb *b) {
  cl_program p = wgb_program(b, wgb_src_arith, NULL);
  if (!p)
    return -1;
  const char *only = getenv("WGBENCH_ARITH_OP"); /* one op, for debugging */
  int rc = 0;
  for (size_t i = 0; i < sizeof ops / sizeof ops[0] && !rc; i++) {
    if (ops[i].fp64 && !b->d->fp64)
      continue;
    if (only && strcmp(only, ops[i].name) != 0)
      continue;
    rc = run_op(b, p, &ops[i]);
    if (rc) { /* one op's OpenCL failure is its row, the others still run */
      char prm[64];
      snprintf(prm, sizeof prm, "op=%s", ops[i].name);
      rc = wgb_error(b, "arith", prm, "%s", b->err);
    }
  }
  clReleaseProgram(p);
  return rc;
}
