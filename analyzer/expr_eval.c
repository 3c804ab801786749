/* expr_eval.c - evaluate kernel-model expressions.
 *
 * Grammar: docs/kernel-model.md, "Expressions".  Semantics follow LLVM IR
 * exactly where the IR is defined; where it is not (poison, immediate UB)
 * or where the value is not static, evaluation answers WGP_EVAL_UNKNOWN
 * with a reason.  Assumptions, beyond the IR:
 *   - symbols are 64-bit values; an operation of width W reads the low W
 *     bits of each operand (so `(add:32 1 it.L0)` is well defined);
 *   - a result of width W is returned sign-extended, 1-bit results as 0/1;
 *   - `select` and `not` have no width: they pass values through / test the
 *     whole 64-bit value for zero;
 *   - an unflagged 64-bit add/sub/mul/shl/abs whose exact result does not
 *     fit in int64 is unknown (offsets and counts are meant as mathematical
 *     integers; a 64-bit wrap means the model left its domain), unless the
 *     environment asks for IR wrapping with WGP_EVAL_WRAP64;
 *   - `select` with a known condition evaluates only the chosen operand.
 */
#include "expr_internal.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* Evaluation                                                               */
/* ------------------------------------------------------------------------ */

typedef struct evaluator {
  const wgp_eval_env *env;
  char *reason;
} evaluator;

static uint64_t mask(unsigned w) { return w >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << w) - 1; }
static uint64_t zx(int64_t v, unsigned w) { return (uint64_t)v & mask(w); }
static int64_t u2s(uint64_t u) {
  /* Two's-complement reinterpretation without implementation-defined casts. */
  return u <= (uint64_t)INT64_MAX ? (int64_t)u : -(int64_t)(~u) - 1;
}
static int64_t sx(int64_t v, unsigned w) {
  uint64_t u = zx(v, w);
  if (w < 64 && ((u >> (w - 1)) & 1))
    u |= ~mask(w);
  return u2s(u);
}
static int64_t canon(uint64_t u, unsigned w) { return w == 1 ? (int64_t)(u & 1) : sx(u2s(u), w); }
static int64_t smin_of(unsigned w) { return w >= 64 ? INT64_MIN : -(INT64_C(1) << (w - 1)); }
static int64_t smax_of(unsigned w) { return w >= 64 ? INT64_MAX : (INT64_C(1) << (w - 1)) - 1; }

static wgp_eval_status unknown(evaluator *ev, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(ev->reason, WGP_EVAL_REASON_SIZE, fmt, ap);
  va_end(ap);
  return WGP_EVAL_UNKNOWN;
}

static const char *opspec(const wgp_expr *e, char *buf, size_t size) {
  wgp_expr_print_opspec(e, buf, size);
  return buf;
}

static wgp_eval_status broken(evaluator *ev, const wgp_expr *e, const char *what) {
  char spec[48];
  return unknown(ev, "%s in '%s'", what, opspec(e, spec, sizeof spec));
}

static wgp_eval_status eval(evaluator *ev, const wgp_expr *e, int64_t *out);

static wgp_eval_status eval_sym(evaluator *ev, const wgp_sym *s, int64_t *out) {
  /* The symbol's name is printed only when a reason needs it: this is the
   * evaluator's hot path. */
  char name[96];
  if (s->kind == WGP_SYM_UNKNOWN) {
    wgp_sym_print(s, name, sizeof name);
    return unknown(ev, "unmodelled value %s", name);
  }
  if (!ev->env || !ev->env->lookup) {
    wgp_sym_print(s, name, sizeof name);
    return unknown(ev, "no value for %s", name);
  }
  ev->reason[0] = '\0';
  wgp_eval_status st = ev->env->lookup(ev->env->user, s, out, ev->reason, WGP_EVAL_REASON_SIZE);
  if (st == WGP_EVAL_OK)
    return WGP_EVAL_OK;
  if (ev->reason[0] == '\0') {
    wgp_sym_print(s, name, sizeof name);
    snprintf(ev->reason, WGP_EVAL_REASON_SIZE,
             s->kind == WGP_SYM_LOAD ? "no value for (load %s): data-dependent" : "no value for %s", name);
  }
  ev->reason[WGP_EVAL_REASON_SIZE - 1] = '\0';
  return st == WGP_EVAL_ERROR ? WGP_EVAL_ERROR : WGP_EVAL_UNKNOWN;
}

static bool wrap64(const evaluator *ev) { return ev->env && (ev->env->flags & WGP_EVAL_WRAP64); }

/* After computing the wrapped result, decide whether the exact one fits. */
static wgp_eval_status check_wrap(evaluator *ev, const wgp_expr *e, bool sovf, bool uovf) {
  if ((e->flags & WGP_EXPR_NSW) && sovf)
    return broken(ev, e, "signed overflow breaks the nsw promise");
  if ((e->flags & WGP_EXPR_NUW) && uovf)
    return broken(ev, e, "unsigned overflow breaks the nuw promise");
  if (e->width == 64 && !e->flags && sovf && !wrap64(ev))
    return broken(ev, e, "64-bit overflow");
  return WGP_EVAL_OK;
}

/* C(n, k) exactly, false when it does not fit in 64 bits. */
static bool binomial(uint64_t n, uint64_t k, uint64_t *out) {
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

static wgp_eval_status eval_nary(evaluator *ev, const wgp_expr *e, int64_t *out) {
  unsigned w = e->width;
  bool is_add = e->op == WGP_OP_ADD;
  uint64_t acc = is_add ? 0 : 1, uacc = acc;
  int64_t sacc = is_add ? 0 : 1;
  bool sovf = false, uovf = false;
  for (size_t i = 0; i < e->nops; i++) {
    int64_t v;
    wgp_eval_status st = eval(ev, e->ops[i], &v);
    if (st != WGP_EVAL_OK)
      return st;
    uint64_t u = zx(v, w);
    int64_t s = sx(v, w);
    if (is_add) {
      acc += u;
      sovf = sovf || __builtin_add_overflow(sacc, s, &sacc);
      uovf = uovf || __builtin_add_overflow(uacc, u, &uacc);
    } else {
      acc *= u;
      sovf = sovf || __builtin_mul_overflow(sacc, s, &sacc);
      uovf = uovf || __builtin_mul_overflow(uacc, u, &uacc);
    }
  }
  sovf = sovf || sacc < smin_of(w) || sacc > smax_of(w);
  uovf = uovf || uacc > mask(w);
  wgp_eval_status st = check_wrap(ev, e, sovf, uovf);
  if (st == WGP_EVAL_OK)
    *out = canon(acc, w);
  return st;
}

static wgp_eval_status eval_addrec(evaluator *ev, const wgp_expr *e, int64_t *out) {
  unsigned w = e->width;
  int64_t it;
  wgp_eval_status st = eval(ev, e->ops[0], &it);
  if (st != WGP_EVAL_OK)
    return st;
  if (it < 0)
    return unknown(ev, "negative loop iteration %lld in addrec", (long long)it);
  uint64_t acc = 0, uacc = 0;
  int64_t sacc = 0;
  bool sovf = false, uovf = false;
  for (size_t j = 1; j < e->nops; j++) {
    int64_t v;
    st = eval(ev, e->ops[j], &v);
    if (st != WGP_EVAL_OK)
      return st;
    uint64_t c;
    if (!binomial((uint64_t)it, j - 1, &c))
      return unknown(ev, "binomial coefficient C(%lld, %zu) overflows 64 bits in addrec", (long long)it, j - 1);
    uint64_t u = zx(v, w);
    int64_t s = sx(v, w), sterm;
    uint64_t uterm;
    acc += u * c;
    sovf = sovf || c > (uint64_t)INT64_MAX || __builtin_mul_overflow(s, (int64_t)c, &sterm) ||
           __builtin_add_overflow(sacc, sterm, &sacc);
    uovf = uovf || __builtin_mul_overflow(u, c, &uterm) || __builtin_add_overflow(uacc, uterm, &uacc);
  }
  sovf = sovf || sacc < smin_of(w) || sacc > smax_of(w);
  uovf = uovf || uacc > mask(w);
  st = check_wrap(ev, e, sovf, uovf);
  if (st == WGP_EVAL_OK)
    *out = canon(acc, w);
  return st;
}

static int64_t ashr(int64_t v, unsigned amount) {
  /* Arithmetic shift without relying on implementation-defined >> of negatives. */
  return v >= 0 ? v >> amount : -((-(v + 1)) >> amount) - 1;
}

static wgp_eval_status eval_binary(evaluator *ev, const wgp_expr *e, int64_t a, int64_t b, int64_t *out) {
  unsigned w = e->width;
  uint64_t ua = zx(a, w), ub = zx(b, w);
  int64_t sa = sx(a, w), sb = sx(b, w);
  switch (e->op) {
  case WGP_OP_SUB: {
    int64_t s;
    bool sovf = __builtin_sub_overflow(sa, sb, &s) || s < smin_of(w) || s > smax_of(w);
    wgp_eval_status st = check_wrap(ev, e, sovf, ua < ub);
    if (st == WGP_EVAL_OK)
      *out = canon(ua - ub, w);
    return st;
  }
  case WGP_OP_UDIV:
  case WGP_OP_UREM:
    if (ub == 0)
      return broken(ev, e, "division by zero");
    *out = canon(e->op == WGP_OP_UDIV ? ua / ub : ua % ub, w);
    return WGP_EVAL_OK;
  case WGP_OP_SDIV:
  case WGP_OP_SREM:
    if (sb == 0)
      return broken(ev, e, "division by zero");
    if (sa == smin_of(w) && sb == -1)
      return broken(ev, e, "signed division overflow");
    *out = canon((uint64_t)(e->op == WGP_OP_SDIV ? sa / sb : sa % sb), w);
    return WGP_EVAL_OK;
  case WGP_OP_SHL:
  case WGP_OP_LSHR:
  case WGP_OP_ASHR: {
    if (ub >= w) {
      char spec[48];
      return unknown(ev, "shift amount %llu >= width %u in '%s'", (unsigned long long)ub, w,
                     opspec(e, spec, sizeof spec));
    }
    unsigned n = (unsigned)ub;
    if (e->op == WGP_OP_LSHR) {
      *out = canon(ua >> n, w);
      return WGP_EVAL_OK;
    }
    if (e->op == WGP_OP_ASHR) {
      *out = canon((uint64_t)ashr(sa, n), w);
      return WGP_EVAL_OK;
    }
    uint64_t r = (ua << n) & mask(w);
    bool uovf = (r >> n) != ua;
    bool sovf = ashr(sx(u2s(r), w), n) != sa;
    wgp_eval_status st = check_wrap(ev, e, sovf, uovf);
    if (st == WGP_EVAL_OK)
      *out = canon(r, w);
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
  return unknown(ev, "internal: unexpected binary operation");
}

static wgp_eval_status eval_fold(evaluator *ev, const wgp_expr *e, int64_t *out) {
  unsigned w = e->width;
  int64_t first;
  wgp_eval_status st = eval(ev, e->ops[0], &first);
  if (st != WGP_EVAL_OK)
    return st;
  uint64_t acc = zx(first, w);
  for (size_t i = 1; i < e->nops; i++) {
    int64_t v;
    st = eval(ev, e->ops[i], &v);
    if (st != WGP_EVAL_OK)
      return st;
    uint64_t u = zx(v, w);
    switch (e->op) {
    case WGP_OP_AND: acc &= u; break;
    case WGP_OP_OR: acc |= u; break;
    case WGP_OP_XOR: acc ^= u; break;
    case WGP_OP_UMIN: acc = u < acc ? u : acc; break;
    case WGP_OP_UMAX: acc = u > acc ? u : acc; break;
    case WGP_OP_SMIN: acc = sx(v, w) < sx(u2s(acc), w) ? u : acc; break;
    case WGP_OP_SMAX: acc = sx(v, w) > sx(u2s(acc), w) ? u : acc; break;
    default: return unknown(ev, "internal: unexpected fold");
    }
  }
  *out = canon(acc, w);
  return WGP_EVAL_OK;
}

static wgp_eval_status eval(evaluator *ev, const wgp_expr *e, int64_t *out) {
  int64_t a, b;
  wgp_eval_status st;
  switch (e->op) {
  case WGP_OP_INT:
    *out = e->ival;
    return WGP_EVAL_OK;
  case WGP_OP_SYM:
    return eval_sym(ev, &e->sym, out);
  case WGP_OP_LOAD: {
    wgp_sym s = {WGP_SYM_LOAD, 0, 0, (unsigned)e->ival, NULL};
    if (!ev->env || !ev->env->lookup)
      return unknown(ev, "(load M%u) is a loaded value (data-dependent)", s.index);
    return eval_sym(ev, &s, out);
  }
  case WGP_OP_FLOAT:
    return unknown(ev, "floating-point operation '%s' (data-dependent)", e->info->name);
  case WGP_OP_ADD:
  case WGP_OP_MUL:
    return eval_nary(ev, e, out);
  case WGP_OP_ADDREC:
    return eval_addrec(ev, e, out);
  case WGP_OP_AND:
  case WGP_OP_OR:
  case WGP_OP_XOR:
  case WGP_OP_SMIN:
  case WGP_OP_SMAX:
  case WGP_OP_UMIN:
  case WGP_OP_UMAX:
    return eval_fold(ev, e, out);
  case WGP_OP_ABS: {
    if ((st = eval(ev, e->ops[0], &a)) != WGP_EVAL_OK)
      return st;
    int64_t s = sx(a, e->width);
    if (s == smin_of(e->width) && e->width == 64 && !wrap64(ev))
      return broken(ev, e, "64-bit overflow");
    *out = canon(s < 0 ? 0 - zx(a, e->width) : (uint64_t)s, e->width);
    return WGP_EVAL_OK;
  }
  case WGP_OP_ZEXT:
  case WGP_OP_SEXT:
  case WGP_OP_TRUNC:
    if ((st = eval(ev, e->ops[0], &a)) != WGP_EVAL_OK)
      return st;
    if (e->op == WGP_OP_ZEXT)
      *out = canon(zx(a, e->from_width), e->width);
    else if (e->op == WGP_OP_SEXT)
      *out = canon((uint64_t)sx(a, e->from_width), e->width);
    else
      *out = canon((uint64_t)a, e->width);
    return WGP_EVAL_OK;
  case WGP_OP_NOT:
    if ((st = eval(ev, e->ops[0], &a)) != WGP_EVAL_OK)
      return st;
    *out = a == 0;
    return WGP_EVAL_OK;
  case WGP_OP_SELECT: {
    st = eval(ev, e->ops[0], &a);
    if (st == WGP_EVAL_ERROR)
      return st;
    if (st == WGP_EVAL_OK)
      return eval(ev, e->ops[a != 0 ? 1 : 2], out);
    /* Unknown condition: known only when both arms agree. */
    char saved[WGP_EVAL_REASON_SIZE];
    memcpy(saved, ev->reason, sizeof saved);
    if (eval(ev, e->ops[1], &a) == WGP_EVAL_OK && eval(ev, e->ops[2], &b) == WGP_EVAL_OK && a == b) {
      *out = a;
      return WGP_EVAL_OK;
    }
    memcpy(ev->reason, saved, sizeof saved);
    return WGP_EVAL_UNKNOWN;
  }
  default:
    break;
  }
  if ((st = eval(ev, e->ops[0], &a)) != WGP_EVAL_OK)
    return st;
  if ((st = eval(ev, e->ops[1], &b)) != WGP_EVAL_OK)
    return st;
  return eval_binary(ev, e, a, b, out);
}

static unsigned result_width(const wgp_expr *e) {
  switch (e->op) {
  case WGP_OP_EQ: case WGP_OP_NE: case WGP_OP_SLT: case WGP_OP_SLE: case WGP_OP_SGT:
  case WGP_OP_SGE: case WGP_OP_ULT: case WGP_OP_ULE: case WGP_OP_UGT: case WGP_OP_UGE:
  case WGP_OP_NOT:
    return 1;
  case WGP_OP_SELECT:
    return result_width(e->ops[1]);
  default:
    return e->width;
  }
}

wgp_eval_status wgp_expr_eval(const wgp_expr *e, const wgp_eval_env *env, wgp_eval_result *out) {
  evaluator ev = {env, out->reason};
  out->reason[0] = '\0';
  out->value = 0;
  out->width = result_width(e);
  int64_t v = 0;
  wgp_eval_status st = eval(&ev, e, &v);
  if (st == WGP_EVAL_OK)
    out->value = v;
  return st;
}
