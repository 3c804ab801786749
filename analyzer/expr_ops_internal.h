/* expr_ops_internal.h - what each expression operation computes, given its
 * operands' values: shared by the scalar evaluator (expr_eval.c) and the
 * warp evaluator (expr_warp.c) so that both give the same answer by
 * construction.  Semantics: include/wgperf/expr.h and expr_eval.c's header.
 *
 * An operation reports a value it cannot give (poison, overflow of an
 * unflagged 64-bit operation, ...) as WGP_EVAL_UNKNOWN; the reason is written
 * only when the evaluator has somewhere to write it (reason != NULL), since
 * the warp evaluator never needs one and formatting costs more than the
 * arithmetic.
 */
#ifndef WGPERF_EXPR_OPS_INTERNAL_H
#define WGPERF_EXPR_OPS_INTERNAL_H

#include "expr_internal.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#if defined(__GNUC__)
#define WGP_X_INLINE static inline __attribute__((always_inline))
#else
#define WGP_X_INLINE static inline
#endif

typedef struct wgp_evaluator {
  const wgp_eval_env *env; /* symbols (scalar evaluator); NULL in the warp evaluator */
  unsigned flags;          /* WGP_EVAL_WRAP64 */
  char *reason;            /* WGP_EVAL_REASON_SIZE bytes, or NULL: no reasons wanted */
} wgp_evaluator;

WGP_X_INLINE uint64_t wgp_x_mask(unsigned w) { return w >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << w) - 1; }
WGP_X_INLINE uint64_t wgp_x_zx(int64_t v, unsigned w) { return (uint64_t)v & wgp_x_mask(w); }
WGP_X_INLINE int64_t wgp_x_u2s(uint64_t u) {
  /* Two's-complement reinterpretation without implementation-defined casts. */
  return u <= (uint64_t)INT64_MAX ? (int64_t)u : -(int64_t)(~u) - 1;
}
WGP_X_INLINE int64_t wgp_x_sx(int64_t v, unsigned w) {
  uint64_t u = wgp_x_zx(v, w);
  if (w < 64 && ((u >> (w - 1)) & 1))
    u |= ~wgp_x_mask(w);
  return wgp_x_u2s(u);
}
WGP_X_INLINE int64_t wgp_x_canon(uint64_t u, unsigned w) { return w == 1 ? (int64_t)(u & 1) : wgp_x_sx(wgp_x_u2s(u), w); }
WGP_X_INLINE int64_t wgp_x_smin(unsigned w) { return w >= 64 ? INT64_MIN : -(INT64_C(1) << (w - 1)); }
WGP_X_INLINE int64_t wgp_x_smax(unsigned w) { return w >= 64 ? INT64_MAX : (INT64_C(1) << (w - 1)) - 1; }
WGP_X_INLINE int64_t wgp_x_ashr(int64_t v, unsigned amount) {
  /* Arithmetic shift without relying on implementation-defined >> of negatives. */
  return v >= 0 ? v >> amount : -((-(v + 1)) >> amount) - 1;
}

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static inline wgp_eval_status wgp_x_unknown(wgp_evaluator *ev, const char *fmt, ...) {
  if (!ev->reason)
    return WGP_EVAL_UNKNOWN;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(ev->reason, WGP_EVAL_REASON_SIZE, fmt, ap);
  va_end(ap);
  return WGP_EVAL_UNKNOWN;
}

static inline wgp_eval_status wgp_x_broken(wgp_evaluator *ev, const wgp_expr *e, const char *what) {
  if (!ev->reason)
    return WGP_EVAL_UNKNOWN;
  char spec[48];
  wgp_expr_print_opspec(e, spec, sizeof spec);
  return wgp_x_unknown(ev, "%s in '%s'", what, spec);
}

/* After computing the wrapped result, decide whether the exact one fits. */
WGP_X_INLINE wgp_eval_status wgp_x_check_wrap(wgp_evaluator *ev, const wgp_expr *e, bool sovf, bool uovf) {
  if ((e->flags & WGP_EXPR_NSW) && sovf)
    return wgp_x_broken(ev, e, "signed overflow breaks the nsw promise");
  if ((e->flags & WGP_EXPR_NUW) && uovf)
    return wgp_x_broken(ev, e, "unsigned overflow breaks the nuw promise");
  if (e->width == 64 && !e->flags && sovf && !(ev->flags & WGP_EVAL_WRAP64))
    return wgp_x_broken(ev, e, "64-bit overflow");
  return WGP_EVAL_OK;
}

/* ---- add/mul over any number of operands, and addrec ---------------------- */

typedef struct wgp_x_acc {
  uint64_t acc, uacc;
  int64_t sacc;
  bool sovf, uovf;
} wgp_x_acc;

WGP_X_INLINE void wgp_x_nary_start(const wgp_expr *e, wgp_x_acc *a) {
  bool add = e->op == WGP_OP_ADD;
  a->acc = a->uacc = add ? 0 : 1;
  a->sacc = add ? 0 : 1;
  a->sovf = a->uovf = false;
}

WGP_X_INLINE void wgp_x_nary_step(const wgp_expr *e, wgp_x_acc *a, int64_t v) {
  unsigned w = e->width;
  uint64_t u = wgp_x_zx(v, w);
  int64_t s = wgp_x_sx(v, w);
  if (e->op == WGP_OP_ADD) {
    a->acc += u;
    a->sovf = a->sovf || __builtin_add_overflow(a->sacc, s, &a->sacc);
    a->uovf = a->uovf || __builtin_add_overflow(a->uacc, u, &a->uacc);
  } else {
    a->acc *= u;
    a->sovf = a->sovf || __builtin_mul_overflow(a->sacc, s, &a->sacc);
    a->uovf = a->uovf || __builtin_mul_overflow(a->uacc, u, &a->uacc);
  }
}

WGP_X_INLINE wgp_eval_status wgp_x_acc_end(wgp_evaluator *ev, const wgp_expr *e, wgp_x_acc *a, int64_t *out) {
  unsigned w = e->width;
  a->sovf = a->sovf || a->sacc < wgp_x_smin(w) || a->sacc > wgp_x_smax(w);
  a->uovf = a->uovf || a->uacc > wgp_x_mask(w);
  wgp_eval_status st = wgp_x_check_wrap(ev, e, a->sovf, a->uovf);
  if (st == WGP_EVAL_OK)
    *out = wgp_x_canon(a->acc, w);
  return st;
}

/* C(n, k) exactly, false when it does not fit in 64 bits. */
WGP_X_INLINE bool wgp_x_binomial(uint64_t n, uint64_t k, uint64_t *out) {
  if (k > n) {
    *out = 0;
    return true;
  }
  uint64_t c = 1;
  for (uint64_t i = 0; i < k; i++) {
    /* c * (n - i) / (i + 1) is an integer; divide first to stay in range. */
    uint64_t a = c, b = i + 1, g = a, h = b;
    while (h) {
      uint64_t t = g % h;
      g = h;
      h = t;
    }
    a /= g;
    b /= g;
    uint64_t m = (n - i) / b; /* b divides n - i since gcd(a, b) = 1 */
    if (__builtin_mul_overflow(a, m, &c))
      return false;
  }
  *out = c;
  return true;
}

WGP_X_INLINE wgp_eval_status wgp_x_addrec_iter(wgp_evaluator *ev, int64_t it) {
  if (it < 0)
    return wgp_x_unknown(ev, "negative loop iteration %lld in addrec", (long long)it);
  return WGP_EVAL_OK;
}

/* Adds operand J (>= 1) of value V at iteration IT. */
WGP_X_INLINE wgp_eval_status wgp_x_addrec_step(wgp_evaluator *ev, const wgp_expr *e, wgp_x_acc *a, size_t j,
                                                int64_t it, int64_t v) {
  unsigned w = e->width;
  uint64_t c;
  if (!wgp_x_binomial((uint64_t)it, j - 1, &c))
    return wgp_x_unknown(ev, "binomial coefficient C(%lld, %zu) overflows 64 bits in addrec", (long long)it, j - 1);
  uint64_t u = wgp_x_zx(v, w);
  int64_t s = wgp_x_sx(v, w), sterm;
  uint64_t uterm;
  a->acc += u * c;
  a->sovf = a->sovf || c > (uint64_t)INT64_MAX || __builtin_mul_overflow(s, (int64_t)c, &sterm) ||
            __builtin_add_overflow(a->sacc, sterm, &a->sacc);
  a->uovf = a->uovf || __builtin_mul_overflow(u, c, &uterm) || __builtin_add_overflow(a->uacc, uterm, &a->uacc);
  return WGP_EVAL_OK;
}

/* ---- and/or/xor/min/max over any number of operands ------------------------ */

WGP_X_INLINE uint64_t wgp_x_fold_start(const wgp_expr *e, int64_t first) { return wgp_x_zx(first, e->width); }

WGP_X_INLINE uint64_t wgp_x_fold_step(const wgp_expr *e, uint64_t acc, int64_t v) {
  unsigned w = e->width;
  uint64_t u = wgp_x_zx(v, w);
  switch (e->op) {
  case WGP_OP_AND: return acc & u;
  case WGP_OP_OR: return acc | u;
  case WGP_OP_XOR: return acc ^ u;
  case WGP_OP_UMIN: return u < acc ? u : acc;
  case WGP_OP_UMAX: return u > acc ? u : acc;
  case WGP_OP_SMIN: return wgp_x_sx(v, w) < wgp_x_sx(wgp_x_u2s(acc), w) ? u : acc;
  case WGP_OP_SMAX: return wgp_x_sx(v, w) > wgp_x_sx(wgp_x_u2s(acc), w) ? u : acc;
  default: return acc; /* not a fold: callers dispatch on the operation first */
  }
}

/* ---- two operands ----------------------------------------------------------- */

WGP_X_INLINE wgp_eval_status wgp_x_binary(wgp_evaluator *ev, const wgp_expr *e, int64_t a, int64_t b, int64_t *out) {
  unsigned w = e->width;
  uint64_t ua = wgp_x_zx(a, w), ub = wgp_x_zx(b, w);
  int64_t sa = wgp_x_sx(a, w), sb = wgp_x_sx(b, w);
  switch (e->op) {
  case WGP_OP_SUB: {
    int64_t s;
    bool sovf = __builtin_sub_overflow(sa, sb, &s) || s < wgp_x_smin(w) || s > wgp_x_smax(w);
    wgp_eval_status st = wgp_x_check_wrap(ev, e, sovf, ua < ub);
    if (st == WGP_EVAL_OK)
      *out = wgp_x_canon(ua - ub, w);
    return st;
  }
  case WGP_OP_UDIV:
  case WGP_OP_UREM:
    if (ub == 0)
      return wgp_x_broken(ev, e, "division by zero");
    *out = wgp_x_canon(e->op == WGP_OP_UDIV ? ua / ub : ua % ub, w);
    return WGP_EVAL_OK;
  case WGP_OP_SDIV:
  case WGP_OP_SREM:
    if (sb == 0)
      return wgp_x_broken(ev, e, "division by zero");
    if (sa == wgp_x_smin(w) && sb == -1)
      return wgp_x_broken(ev, e, "signed division overflow");
    *out = wgp_x_canon((uint64_t)(e->op == WGP_OP_SDIV ? sa / sb : sa % sb), w);
    return WGP_EVAL_OK;
  case WGP_OP_SHL:
  case WGP_OP_LSHR:
  case WGP_OP_ASHR: {
    if (ub >= w) {
      if (!ev->reason)
        return WGP_EVAL_UNKNOWN;
      char spec[48];
      wgp_expr_print_opspec(e, spec, sizeof spec);
      return wgp_x_unknown(ev, "shift amount %llu >= width %u in '%s'", (unsigned long long)ub, w, spec);
    }
    unsigned n = (unsigned)ub;
    if (e->op == WGP_OP_LSHR) {
      *out = wgp_x_canon(ua >> n, w);
      return WGP_EVAL_OK;
    }
    if (e->op == WGP_OP_ASHR) {
      *out = wgp_x_canon((uint64_t)wgp_x_ashr(sa, n), w);
      return WGP_EVAL_OK;
    }
    uint64_t r = (ua << n) & wgp_x_mask(w);
    bool uovf = (r >> n) != ua;
    bool sovf = wgp_x_ashr(wgp_x_sx(wgp_x_u2s(r), w), n) != sa;
    wgp_eval_status st = wgp_x_check_wrap(ev, e, sovf, uovf);
    if (st == WGP_EVAL_OK)
      *out = wgp_x_canon(r, w);
    return st;
  }
  case WGP_OP_EQ: *out = ua == ub; return WGP_EVAL_OK;
  case WGP_OP_NE: *out = ua != ub; return WGP_EVAL_OK;
  case WGP_OP_SLT: *out = sa < sb; return WGP_EVAL_OK;
  case WGP_OP_SLE: *out = sa <= sb; return WGP_EVAL_OK;
  case WGP_OP_SGT: *out = sa > sb; return WGP_EVAL_OK;
  case WGP_OP_SGE: *out = sa >= sb; return WGP_EVAL_OK;
  case WGP_OP_ULT: *out = ua < ub; return WGP_EVAL_OK;
  case WGP_OP_ULE: *out = ua <= ub; return WGP_EVAL_OK;
  case WGP_OP_UGT: *out = ua > ub; return WGP_EVAL_OK;
  case WGP_OP_UGE: *out = ua >= ub; return WGP_EVAL_OK;
  default: break;
  }
  return wgp_x_unknown(ev, "internal: unexpected binary operation");
}

/* ---- one operand ------------------------------------------------------------ */

WGP_X_INLINE wgp_eval_status wgp_x_unary(wgp_evaluator *ev, const wgp_expr *e, int64_t a, int64_t *out) {
  switch (e->op) {
  case WGP_OP_ABS: {
    int64_t s = wgp_x_sx(a, e->width);
    if (s == wgp_x_smin(e->width) && e->width == 64 && !(ev->flags & WGP_EVAL_WRAP64))
      return wgp_x_broken(ev, e, "64-bit overflow");
    *out = wgp_x_canon(s < 0 ? 0 - wgp_x_zx(a, e->width) : (uint64_t)s, e->width);
    return WGP_EVAL_OK;
  }
  case WGP_OP_ZEXT: *out = wgp_x_canon(wgp_x_zx(a, e->from_width), e->width); return WGP_EVAL_OK;
  case WGP_OP_SEXT: *out = wgp_x_canon((uint64_t)wgp_x_sx(a, e->from_width), e->width); return WGP_EVAL_OK;
  case WGP_OP_TRUNC: *out = wgp_x_canon((uint64_t)a, e->width); return WGP_EVAL_OK;
  case WGP_OP_NOT: *out = a == 0; return WGP_EVAL_OK;
  default: break;
  }
  return wgp_x_unknown(ev, "internal: unexpected unary operation");
}

/* Floating-point operations evaluated exactly: where every operand is a
 * whole number a float holds exactly (|v| <= 2^24: a float argument given
 * as 1 or 1.0, a constant the plugin writes as (sitofp N)), the conversions
 * from integers and the compares (no NaN can arise, so ordered and
 * unordered predicates agree) have exact values.  So `if (beta == 0.0f)`
 * with --arg beta=1 takes one path.  Any other floating-point operation,
 * or an operand outside that range, stays unknown. */
#define WGP_X_FLOAT_EXACT (INT64_C(1) << 24)

typedef enum {
  WGP_FX_NONE, /* not evaluated */
  WGP_FX_SITOFP,
  WGP_FX_UITOFP,
  WGP_FX_FALSE,
  WGP_FX_TRUE,
  WGP_FX_EQ,
  WGP_FX_NE,
  WGP_FX_GT,
  WGP_FX_GE,
  WGP_FX_LT,
  WGP_FX_LE
} wgp_fx;

/* What E computes among the exact operations, by its name: the conversions
 * from integers and LLVM's sixteen fcmp predicates (ordered and unordered
 * alike, ord always true and uno always false: no NaN arises). */
static inline wgp_fx wgp_x_float_exact_op(const wgp_expr *e) {
  static const struct {
    const char *name;
    wgp_fx fx;
  } ops[] = {{"sitofp", WGP_FX_SITOFP}, {"uitofp", WGP_FX_UITOFP}, {"ffalse", WGP_FX_FALSE}, {"ftrue", WGP_FX_TRUE},
             {"ford", WGP_FX_TRUE},     {"funo", WGP_FX_FALSE},     {"foeq", WGP_FX_EQ},      {"fueq", WGP_FX_EQ},
             {"fone", WGP_FX_NE},       {"fune", WGP_FX_NE},        {"fogt", WGP_FX_GT},      {"fugt", WGP_FX_GT},
             {"foge", WGP_FX_GE},       {"fuge", WGP_FX_GE},        {"folt", WGP_FX_LT},      {"fult", WGP_FX_LT},
             {"fole", WGP_FX_LE},       {"fule", WGP_FX_LE}};
  if (e->op != WGP_OP_FLOAT || !e->info)
    return WGP_FX_NONE;
  for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
    if (strcmp(e->info->name, ops[i].name) == 0)
      return ops[i].fx;
  return WGP_FX_NONE;
}

/* E (an operation wgp_x_float_exact_op names) on operand values V with
 * statuses S. */
static inline wgp_eval_status wgp_x_float_exact(wgp_evaluator *ev, const wgp_expr *e, const int64_t *v,
                                                const uint8_t *s, int64_t *out) {
  wgp_fx fx = wgp_x_float_exact_op(e);
  const char *n = e->info->name;
  for (size_t j = 0; j < e->nops; j++) {
    if (s[j] != WGP_EVAL_OK) /* a float argument without a value leaves the compare unknown, never an error */
      return wgp_x_unknown(ev, "floating-point operation '%s' on a value known only at run time", n);
    if (v[j] > WGP_X_FLOAT_EXACT || v[j] < (fx == WGP_FX_UITOFP ? 0 : -WGP_X_FLOAT_EXACT))
      return wgp_x_unknown(ev, "floating-point operation '%s' on %lld, beyond what a float holds exactly", n,
                           (long long)v[j]);
  }
  int64_t a = v[0], b = e->nops > 1 ? v[1] : 0;
  switch (fx) {
  case WGP_FX_SITOFP:
  case WGP_FX_UITOFP: *out = a; return WGP_EVAL_OK;
  case WGP_FX_FALSE: *out = 0; return WGP_EVAL_OK;
  case WGP_FX_TRUE: *out = 1; return WGP_EVAL_OK;
  case WGP_FX_EQ: *out = a == b; return WGP_EVAL_OK;
  case WGP_FX_NE: *out = a != b; return WGP_EVAL_OK;
  case WGP_FX_GT: *out = a > b; return WGP_EVAL_OK;
  case WGP_FX_GE: *out = a >= b; return WGP_EVAL_OK;
  case WGP_FX_LT: *out = a < b; return WGP_EVAL_OK;
  case WGP_FX_LE: *out = a <= b; return WGP_EVAL_OK;
  case WGP_FX_NONE: break;
  }
  return wgp_x_unknown(ev, "floating-point operation '%s' (data-dependent)", n);
}

#endif
