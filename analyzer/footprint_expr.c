/* footprint_expr.c - kernel model expressions as isl piecewise affine
 * functions of the group ids, local ids and loop iterations, for one launch
 * (used by footprint_sets.c).
 *
 * Assumptions: launch sizes and scalar arguments are folded to constants
 * first; a W-bit operation equals its exact integer value where the value is
 * in range, and every place that interprets a W-bit value (casts, divisions,
 * shifts, compares, min/max, the address itself) is checked with isl over
 * the block's domain, so no result is built on a wrapped value.
 */
#include "footprint_internal.h"

#include <isl/aff.h>
#include <isl/ilp.h>
#include <isl/local_space.h>
#include <isl/space.h>
#include <isl/val.h>

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ---- folding launch constants ------------------------------------------------ */

static wgp_eval_status fold_lookup(void *user, const wgp_sym *sym, int64_t *v, char *reason, size_t size) {
  const conv *s = user;
  unsigned d = sym->dim < 3 ? sym->dim : 0;
  const wgp_trace_launch *L = s->L;
  switch (sym->kind) {
  case WGP_SYM_LSZ:
    if (s->partial[d])
      break; /* the last group is shorter: not a constant */
    *v = (int64_t)L->local[d];
    return WGP_EVAL_OK;
  case WGP_SYM_NGRP: *v = (int64_t)s->ngrp[d]; return WGP_EVAL_OK;
  case WGP_SYM_GSZ: *v = (int64_t)L->global[d]; return WGP_EVAL_OK;
  case WGP_SYM_GOFF: *v = (int64_t)L->offset[d]; return WGP_EVAL_OK;
  case WGP_SYM_WDIM: *v = L->dims; return WGP_EVAL_OK;
  case WGP_SYM_WARPSIZE: *v = L->warp_size; return WGP_EVAL_OK;
  case WGP_SYM_ARG:
    if (L->lookup)
      return L->lookup(L->user, sym, v, reason, size);
    break;
  default:
    break;
  }
  snprintf(reason, size, "not a launch constant");
  return WGP_EVAL_UNKNOWN;
}

/* ---- expressions -> isl ------------------------------------------------------ */

static val fail(conv *c, const char *fmt, ...) {
  if (!c->why[0]) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->why, FP_REASON, fmt, ap);
    va_end(ap);
  }
  return (val){NULL, false};
}

isl_pw_aff *pa_const(conv *c, int64_t v) {
  return isl_pw_aff_val_on_domain(isl_set_universe(isl_space_copy(c->space)), isl_val_int_from_si(c->ctx, v));
}

isl_pw_aff *pa_var(conv *c, unsigned pos) {
  return isl_pw_aff_var_on_domain(isl_local_space_from_space(isl_space_copy(c->space)), isl_dim_set, pos);
}

static void val_free(val v) { isl_pw_aff_free(v.pa); }

/* ---- intervals: a range proven without isl ---------------------------------- */

/* Most values an address is built from are far inside their type (an index
 * of a few million in 32 bits), and isl proves it per operand by testing a
 * set for emptiness over the block's domain: with clamps (min/max) that is
 * piecewise and costly (Parboil SAD: half of `wgperf analyze`'s time, for
 * 32 clamped loads).  An interval over the box of the ids (the launch's
 * sizes) and of the loops' iterations (their largest over the domain, from
 * isl once per loop) contains every value the expression takes where the
 * block executes; when it lies inside the range, the range holds, and isl
 * is asked only otherwise. */

typedef __int128 i128;
#define IV_BIG ((i128)1 << 100)

static bool iv_ok(i128 lo, i128 hi) { return lo <= hi && lo > -IV_BIG && hi < IV_BIG; }

static bool iter_hi(conv *c, unsigned j, int64_t *hi) {
  if (j >= 16 || !c->dom)
    return false;
  if (c->it_bad >> j & 1)
    return false;
  if (!(c->it_known >> j & 1)) {
    isl_val *m = isl_set_dim_max_val(isl_set_copy(c->dom), (int)(FP_IDS + j));
    bool ok = m && isl_val_is_int(m) == isl_bool_true;
    long v = ok ? isl_val_get_num_si(m) : 0;
    ok = ok && isl_val_cmp_si(m, v) == 0;
    isl_val_free(m);
    if (!ok) {
      c->it_bad |= 1u << j;
      return false;
    }
    c->it_hi[j] = v;
    c->it_known |= 1u << j;
  }
  *hi = c->it_hi[j];
  return true;
}

static bool iv_sym(conv *c, const wgp_sym *sym, i128 *lo, i128 *hi) {
  unsigned d = sym->dim < 3 ? sym->dim : 0;
  const wgp_trace_launch *L = c->L;
  switch (sym->kind) {
  case WGP_SYM_GRP: *lo = 0, *hi = (i128)c->ngrp[d] - 1; return true;
  case WGP_SYM_LID: *lo = 0, *hi = (i128)L->local[d] - 1; return true;
  case WGP_SYM_GID:
    *lo = (i128)L->offset[d];
    *hi = (i128)L->offset[d] + (i128)c->ngrp[d] * (i128)L->local[d] - 1;
    return true;
  case WGP_SYM_LSZ: {
    i128 full = (i128)L->local[d], last = (i128)L->global[d] - ((i128)c->ngrp[d] - 1) * full;
    *lo = last < full ? last : full, *hi = full;
    return true;
  }
  case WGP_SYM_LANEID: *lo = 0, *hi = (i128)L->warp_size - 1; return true;
  case WGP_SYM_ITER:
    for (unsigned j = 0; j < c->depth; j++)
      if (c->nest[j] == (long)sym->loop) {
        int64_t h;
        if (!iter_hi(c, j, &h))
          return false;
        *lo = 0, *hi = h < 0 ? 0 : h;
        return true;
      }
    return false;
  default: return false;
  }
}

static bool iv_cst(conv *c, const wgp_expr *e, i128 *k);

/* An interval holding every value of E over the block's domain (exact
 * integer semantics, as conv_expr's); false when none is found. */
static bool iv_of(conv *c, const wgp_expr *e, i128 *lo, i128 *hi, int depth) {
  if (depth > 48)
    return false;
  unsigned uses = wgp_expr_uses(e);
  if (uses & (WGP_USES_DATA | WGP_USES_UNKNOWN))
    return false;
  i128 k;
  if (!(uses & (WGP_USES_WORK_ITEM | WGP_USES_LOOP)) && iv_cst(c, e, &k)) {
    *lo = *hi = k;
    return true;
  }
  wgp_expr_op op = wgp_expr_get_op(e);
  size_t n = wgp_expr_num_operands(e);
  i128 al, ah, bl, bh;
#define SUB_IV(i, l, h) iv_of(c, wgp_expr_operand(e, i), &(l), &(h), depth + 1)
  switch (op) {
  case WGP_OP_INT: *lo = *hi = wgp_expr_int(e); return true;
  case WGP_OP_SYM: return iv_sym(c, wgp_expr_symbol(e), lo, hi);
  case WGP_OP_ADD:
  case WGP_OP_MUL:
    if (!SUB_IV(0, al, ah))
      return false;
    for (size_t i = 1; i < n; i++) {
      if (!SUB_IV(i, bl, bh))
        return false;
      if (op == WGP_OP_ADD) {
        al += bl, ah += bh;
      } else {
        i128 p[4] = {al * bl, al * bh, ah * bl, ah * bh};
        al = ah = p[0];
        for (int q = 1; q < 4; q++)
          al = p[q] < al ? p[q] : al, ah = p[q] > ah ? p[q] : ah;
      }
      if (!iv_ok(al, ah))
        return false;
    }
    *lo = al, *hi = ah;
    return true;
  case WGP_OP_SUB:
    if (!SUB_IV(0, al, ah) || !SUB_IV(1, bl, bh))
      return false;
    *lo = al - bh, *hi = ah - bl;
    return iv_ok(*lo, *hi);
  case WGP_OP_UDIV:
  case WGP_OP_SDIV:
  case WGP_OP_UREM:
  case WGP_OP_SREM: {
    if (!SUB_IV(0, al, ah) || !SUB_IV(1, bl, bh) || bl != bh || bl == 0)
      return false;
    bool u = op == WGP_OP_UDIV || op == WGP_OP_UREM;
    if (u && (al < 0 || bl < 0))
      return false;
    i128 d = bl < 0 ? -bl : bl;
    if (op == WGP_OP_UREM || op == WGP_OP_SREM) {
      *lo = al >= 0 ? 0 : -(d - 1);
      *hi = ah <= 0 ? 0 : (ah < d - 1 ? ah : d - 1);
      if (al >= 0 && ah < d) /* no wrap: the value itself */
        *lo = al;
      return true;
    }
    /* truncation towards zero is monotone */
    i128 x = al / d, y = ah / d;
    *lo = bl < 0 ? -y : x, *hi = bl < 0 ? -x : y;
    return true;
  }
  case WGP_OP_SHL:
  case WGP_OP_LSHR:
  case WGP_OP_ASHR: {
    if (!SUB_IV(0, al, ah) || !SUB_IV(1, bl, bh) || bl != bh || bl < 0 || bl > 62)
      return false;
    i128 m = (i128)1 << (int)bl;
    if (op == WGP_OP_SHL) {
      *lo = al * m, *hi = ah * m;
      return iv_ok(*lo, *hi);
    }
    if (op == WGP_OP_LSHR && al < 0)
      return false;
    /* floor division by a power of two */
    *lo = al >= 0 ? al / m : -((-al + m - 1) / m);
    *hi = ah >= 0 ? ah / m : -((-ah + m - 1) / m);
    return true;
  }
  case WGP_OP_SMIN:
  case WGP_OP_SMAX:
  case WGP_OP_UMIN:
  case WGP_OP_UMAX:
    if (!SUB_IV(0, al, ah))
      return false;
    for (size_t i = 1; i < n; i++) {
      if (!SUB_IV(i, bl, bh))
        return false;
      if ((op == WGP_OP_UMIN || op == WGP_OP_UMAX) && (al < 0 || bl < 0))
        return false;
      if (op == WGP_OP_SMIN || op == WGP_OP_UMIN)
        al = bl < al ? bl : al, ah = bh < ah ? bh : ah;
      else
        al = bl > al ? bl : al, ah = bh > ah ? bh : ah;
    }
    *lo = al, *hi = ah;
    return true;
  case WGP_OP_ABS:
    if (!SUB_IV(0, al, ah))
      return false;
    *lo = al >= 0 ? al : ah <= 0 ? -ah : 0;
    *hi = -al > ah ? -al : ah;
    return true;
  case WGP_OP_ZEXT:
  case WGP_OP_SEXT: {
    unsigned from = wgp_expr_from_width(e);
    const wgp_expr *x = wgp_expr_operand(e, 0);
    if (from == 1) {
      *lo = op == WGP_OP_SEXT ? -1 : 0, *hi = op == WGP_OP_SEXT ? 0 : 1;
      return true;
    }
    if (from >= 63)
      return false;
    if (wgp_expr_get_op(x) == WGP_OP_TRUNC && wgp_expr_width(x) == from)
      x = wgp_expr_operand(x, 0);
    i128 rlo = op == WGP_OP_ZEXT ? 0 : -((i128)1 << (from - 1));
    i128 rhi = op == WGP_OP_ZEXT ? ((i128)1 << from) - 1 : ((i128)1 << (from - 1)) - 1;
    if (iv_of(c, x, &al, &ah, depth + 1) && al >= rlo && ah <= rhi) {
      *lo = al, *hi = ah;
      return true;
    }
    *lo = rlo, *hi = rhi; /* whatever it is, it reads as a FROM-bit value */
    return true;
  }
  case WGP_OP_TRUNC:
    if (wgp_expr_width(e) == 1) {
      *lo = 0, *hi = 1;
      return true;
    }
    return SUB_IV(0, *lo, *hi); /* the exact value (conv_expr's) */
  case WGP_OP_EQ: case WGP_OP_NE: case WGP_OP_SLT: case WGP_OP_SLE: case WGP_OP_SGT: case WGP_OP_SGE:
  case WGP_OP_ULT: case WGP_OP_ULE: case WGP_OP_UGT: case WGP_OP_UGE: case WGP_OP_NOT:
    *lo = 0, *hi = 1;
    return true;
  case WGP_OP_SELECT:
    if (!SUB_IV(1, al, ah) || !SUB_IV(2, bl, bh))
      return false;
    *lo = al < bl ? al : bl, *hi = ah > bh ? ah : bh;
    return true;
  case WGP_OP_AND:
    if (wgp_expr_width(e) == 1) {
      *lo = 0, *hi = 1;
      return true;
    }
    /* a non-negative value masked by a non-negative one: at most either */
    if (n != 2 || !SUB_IV(0, al, ah) || !SUB_IV(1, bl, bh) || al < 0 || bl < 0)
      return false;
    *lo = 0, *hi = ah < bh ? ah : bh;
    return true;
  case WGP_OP_OR:
  case WGP_OP_XOR:
    if (wgp_expr_width(e) == 1) {
      *lo = 0, *hi = 1;
      return true;
    }
    return false;
  default:
    return false;
  }
#undef SUB_IV
}

static bool iv_cst(conv *c, const wgp_expr *e, i128 *k) {
  wgp_eval_env env = {fold_lookup, c, 0};
  wgp_eval_result r;
  if (wgp_expr_eval(e, &env, &r) != WGP_EVAL_OK)
    return false;
  *k = r.value;
  return true;
}

/* Whether E's values (E may be NULL) are proven in [LO, HI] by intervals. */
static bool iv_within(conv *c, const wgp_expr *e, int64_t lo, int64_t hi) {
  i128 a, b;
  return e && iv_of(c, e, &a, &b, 0) && a >= lo && b <= hi;
}

/* Whether PA (keep) stays in [LO, HI] wherever the block executes (no
 * reason recorded when not). */
static bool fits(conv *c, const wgp_expr *e, isl_pw_aff *pa, int64_t lo, int64_t hi) {
  if (iv_within(c, e, lo, hi))
    return true;
  isl_set *bad = isl_set_union(isl_pw_aff_lt_set(isl_pw_aff_copy(pa), pa_const(c, lo)),
                               isl_pw_aff_gt_set(isl_pw_aff_copy(pa), pa_const(c, hi)));
  bad = isl_set_intersect(bad, isl_set_copy(c->dom));
  isl_bool empty = isl_set_is_empty(bad);
  isl_set_free(bad);
  return empty == isl_bool_true;
}

/* Whether PA (keep), E's value, stays in [LO, HI] wherever the block executes. */
static bool in_range(conv *c, const wgp_expr *e, isl_pw_aff *pa, int64_t lo, int64_t hi, const char *what,
                     unsigned width) {
  if (iv_within(c, e, lo, hi))
    return true;
  isl_set *bad = isl_set_union(isl_pw_aff_lt_set(isl_pw_aff_copy(pa), pa_const(c, lo)),
                               isl_pw_aff_gt_set(isl_pw_aff_copy(pa), pa_const(c, hi)));
  bad = isl_set_intersect(bad, isl_set_copy(c->dom));
  isl_bool empty = isl_set_is_empty(bad);
  isl_set_free(bad);
  if (empty == isl_bool_true)
    return true;
  if (empty == isl_bool_error)
    fail(c, "isl gave up on the range of a %u-bit value", width);
  else
    fail(c, "%s of a %u-bit value may wrap for some lane", what, width);
  return false;
}

bool signed_ok(conv *c, const wgp_expr *e, isl_pw_aff *pa, unsigned w, const char *what) {
  if (w >= 64)
    return true; /* 64-bit offsets do not overflow in practice; the evaluator reports it */
  return in_range(c, e, pa, -(INT64_C(1) << (w - 1)), (INT64_C(1) << (w - 1)) - 1, what, w);
}

static bool unsigned_ok(conv *c, const wgp_expr *e, isl_pw_aff *pa, unsigned w, const char *what) {
  if (w >= 64)
    return in_range(c, e, pa, 0, INT64_MAX, what, w);
  return in_range(c, e, pa, 0, (INT64_C(1) << w) - 1, what, w);
}

static bool is_cst(isl_pw_aff *pa, int64_t *v) {
  if (isl_pw_aff_is_cst(pa) != isl_bool_true || isl_pw_aff_n_piece(pa) != 1)
    return false;
  isl_val *m = isl_pw_aff_max_val(isl_pw_aff_copy(pa));
  bool ok = m && isl_val_is_int(m) == isl_bool_true;
  if (ok)
    *v = isl_val_get_num_si(m);
  isl_val_free(m);
  return ok;
}


/* The signed or unsigned value of an operand of width W: a constant is read
 * in the interpretation asked for, a variable is checked to be in range. */
static val operand(conv *c, const wgp_expr *e, unsigned w, bool is_unsigned, const char *what) {
  val v = conv_expr(c, e);
  if (!v.pa)
    return v;
  int64_t k;
  if (is_cst(v.pa, &k)) {
    if (is_unsigned && k < 0 && w < 64) {
      val_free(v);
      return (val){pa_const(c, k + (INT64_C(1) << w)), false};
    }
    return v;
  }
  if (!(is_unsigned ? unsigned_ok(c, e, v.pa, w, what) : signed_ok(c, e, v.pa, w, what))) {
    val_free(v);
    return (val){NULL, false};
  }
  return v;
}

static isl_set *cmp_set(wgp_expr_op op, isl_pw_aff *a, isl_pw_aff *b) {
  switch (op) {
  case WGP_OP_EQ: return isl_pw_aff_eq_set(a, b);
  case WGP_OP_NE: return isl_pw_aff_ne_set(a, b);
  case WGP_OP_SLT: case WGP_OP_ULT: return isl_pw_aff_lt_set(a, b);
  case WGP_OP_SLE: case WGP_OP_ULE: return isl_pw_aff_le_set(a, b);
  case WGP_OP_SGT: case WGP_OP_UGT: return isl_pw_aff_gt_set(a, b);
  default: return isl_pw_aff_ge_set(a, b);
  }
}

static val sym_value(conv *c, const wgp_sym *sym) {
  unsigned d = sym->dim < 3 ? sym->dim : 0;
  switch (sym->kind) {
  case WGP_SYM_GRP: return (val){pa_var(c, d), false};
  case WGP_SYM_LID: return (val){pa_var(c, 3 + d), false};
  case WGP_SYM_LSZ: {
    /* Only reached in a dimension whose last group is short. */
    int64_t full = (int64_t)c->L->local[d];
    int64_t last = (int64_t)(c->L->global[d] - (c->ngrp[d] - 1) * c->L->local[d]);
    isl_set *is_last = isl_pw_aff_eq_set(pa_var(c, d), pa_const(c, (int64_t)c->ngrp[d] - 1));
    return (val){isl_pw_aff_cond(isl_set_indicator_function(is_last), pa_const(c, last), pa_const(c, full)), false};
  }
  case WGP_SYM_GID: {
    /* grp * local + lid + goff: with the full local size, since a short group is the last */
    isl_pw_aff *g = isl_pw_aff_scale_val(pa_var(c, d), isl_val_int_from_si(c->ctx, (long)c->L->local[d]));
    return (val){isl_pw_aff_add(isl_pw_aff_add(g, pa_var(c, 3 + d)), pa_const(c, (int64_t)c->L->offset[d])), false};
  }
  case WGP_SYM_LANEID: {
    if (c->partial[0] || c->partial[1] || c->partial[2])
      return fail(c, "laneid in a launch with short work-groups");
    isl_pw_aff *lin = isl_pw_aff_add(
        pa_var(c, 3),
        isl_pw_aff_scale_val(
            isl_pw_aff_add(pa_var(c, 4), isl_pw_aff_scale_val(pa_var(c, 5), isl_val_int_from_si(c->ctx, (long)c->L->local[1]))),
            isl_val_int_from_si(c->ctx, (long)c->L->local[0])));
    return (val){isl_pw_aff_mod_val(lin, isl_val_int_from_si(c->ctx, (long)c->L->warp_size)), false};
  }
  case WGP_SYM_ITER:
    for (unsigned j = 0; j < c->depth; j++)
      if (c->nest[j] == (long)sym->loop)
        return (val){pa_var(c, FP_IDS + j), false};
    return fail(c, "it.L%u is used outside its loop", sym->loop);
  case WGP_SYM_RECUR:
    return fail(c, "rv.L%u.%u is a recurrence, not an affine function of the iteration", sym->loop, sym->index);
  case WGP_SYM_LOAD:
    return fail(c, "depends on the value loaded by M%u", sym->index);
  case WGP_SYM_UNKNOWN:
    return fail(c, "unknown value ?%s", sym->name ? sym->name : "");
  default:
    return fail(c, "symbol has no value for this launch");
  }
}

/* The first access whose loaded value E uses, -1 when none does. */
static long first_load(const wgp_expr *e) {
  if (wgp_expr_get_op(e) == WGP_OP_LOAD)
    return (long)wgp_expr_int(e);
  const wgp_sym *sym = wgp_expr_symbol(e);
  if (sym && sym->kind == WGP_SYM_LOAD)
    return (long)sym->index;
  for (size_t i = 0; i < wgp_expr_num_operands(e); i++) {
    long l = first_load(wgp_expr_operand(e, i));
    if (l >= 0)
      return l;
  }
  return -1;
}

val conv_expr(conv *c, const wgp_expr *e) {
  unsigned uses = wgp_expr_uses(e);
  if (uses & WGP_USES_DATA) {
    long l = first_load(e);
    return l >= 0 ? fail(c, "depends on the value loaded by M%ld", l) : fail(c, "depends on a floating-point value");
  }
  if (uses & WGP_USES_UNKNOWN)
    return fail(c, "contains an unknown value");
  if (!(uses & (WGP_USES_WORK_ITEM | WGP_USES_LOOP))) {
    wgp_eval_env env = {fold_lookup, c, 0};
    wgp_eval_result r;
    if (wgp_expr_eval(e, &env, &r) == WGP_EVAL_OK)
      return (val){pa_const(c, r.value), r.width == 1};
    /* not a constant (a short group's lsz): convert it structurally */
  }
  wgp_expr_op op = wgp_expr_get_op(e);
  unsigned w = wgp_expr_width(e);
  size_t n = wgp_expr_num_operands(e);
  switch (op) {
  case WGP_OP_INT: return (val){pa_const(c, wgp_expr_int(e)), false};
  case WGP_OP_SYM: return sym_value(c, wgp_expr_symbol(e));
  case WGP_OP_ADD:
  case WGP_OP_MUL: {
    val acc = conv_expr(c, wgp_expr_operand(e, 0));
    for (size_t i = 1; i < n && acc.pa; i++) {
      val b = conv_expr(c, wgp_expr_operand(e, i));
      if (!b.pa) {
        val_free(acc);
        return b;
      }
      if (op == WGP_OP_MUL && isl_pw_aff_is_cst(acc.pa) != isl_bool_true &&
          isl_pw_aff_is_cst(b.pa) != isl_bool_true) {
        val_free(acc), val_free(b);
        return fail(c, "non-linear: product of variables");
      }
      acc.pa = op == WGP_OP_ADD ? isl_pw_aff_add(acc.pa, b.pa) : isl_pw_aff_mul(acc.pa, b.pa);
      acc.boolean = false;
    }
    return acc;
  }
  case WGP_OP_SUB: {
    val a = conv_expr(c, wgp_expr_operand(e, 0));
    if (!a.pa)
      return a;
    val b = conv_expr(c, wgp_expr_operand(e, 1));
    if (!b.pa) {
      val_free(a);
      return b;
    }
    return (val){isl_pw_aff_sub(a.pa, b.pa), false};
  }
  case WGP_OP_UDIV:
  case WGP_OP_SDIV:
  case WGP_OP_UREM:
  case WGP_OP_SREM: {
    bool u = op == WGP_OP_UDIV || op == WGP_OP_UREM, rem = op == WGP_OP_UREM || op == WGP_OP_SREM;
    val b = operand(c, wgp_expr_operand(e, 1), w, u, "divisor");
    if (!b.pa)
      return b;
    int64_t d;
    if (!is_cst(b.pa, &d) || d == 0) {
      val_free(b);
      return fail(c, "non-linear: division by a variable");
    }
    val a = operand(c, wgp_expr_operand(e, 0), w, u, "dividend");
    if (!a.pa) {
      val_free(b);
      return a;
    }
    if (d < 0) { /* C semantics: a / -d = -(a / d), a % -d = a % d */
      isl_pw_aff_free(b.pa);
      b.pa = pa_const(c, -d);
      isl_pw_aff *r = rem ? isl_pw_aff_tdiv_r(a.pa, b.pa) : isl_pw_aff_neg(isl_pw_aff_tdiv_q(a.pa, b.pa));
      return (val){r, false};
    }
    return (val){rem ? isl_pw_aff_tdiv_r(a.pa, b.pa) : isl_pw_aff_tdiv_q(a.pa, b.pa), false};
  }
  case WGP_OP_SHL:
  case WGP_OP_LSHR:
  case WGP_OP_ASHR: {
    val b = conv_expr(c, wgp_expr_operand(e, 1));
    if (!b.pa)
      return b;
    int64_t sh;
    bool cst = is_cst(b.pa, &sh);
    val_free(b);
    if (!cst || sh < 0 || sh >= (int64_t)w || sh > 62)
      return fail(c, "non-linear: shift by a variable amount");
    if (op == WGP_OP_SHL) {
      val a = conv_expr(c, wgp_expr_operand(e, 0));
      if (a.pa)
        a.pa = isl_pw_aff_scale_val(a.pa, isl_val_int_from_si(c->ctx, (long)(INT64_C(1) << sh))), a.boolean = false;
      return a;
    }
    val a = operand(c, wgp_expr_operand(e, 0), w, op == WGP_OP_LSHR, "shifted value");
    if (!a.pa)
      return a;
    /* an arithmetic shift right is a floor division */
    isl_pw_aff *q = isl_pw_aff_floor(isl_pw_aff_scale_down_val(a.pa, isl_val_int_from_si(c->ctx, (long)(INT64_C(1) << sh))));
    return (val){q, false};
  }
  case WGP_OP_AND:
  case WGP_OP_OR:
  case WGP_OP_XOR: {
    val a = conv_expr(c, wgp_expr_operand(e, 0));
    if (!a.pa)
      return a;
    for (size_t i = 1; i < n; i++) {
      val b = conv_expr(c, wgp_expr_operand(e, i));
      if (!b.pa) {
        val_free(a);
        return b;
      }
      if (a.boolean && b.boolean) {
        if (op == WGP_OP_AND)
          a.pa = isl_pw_aff_min(a.pa, b.pa);
        else if (op == WGP_OP_OR)
          a.pa = isl_pw_aff_max(a.pa, b.pa);
        else
          a.pa = isl_pw_aff_mod_val(isl_pw_aff_add(a.pa, b.pa), isl_val_int_from_si(c->ctx, 2));
        continue;
      }
      int64_t m;
      val *var = &a, *k = &b;
      if (!is_cst(k->pa, &m))
        var = &b, k = &a;
      if (!is_cst(k->pa, &m) || op == WGP_OP_XOR) {
        val_free(a), val_free(b);
        return fail(c, "non-linear: bitwise %s of variables", wgp_expr_op_name(e));
      }
      isl_pw_aff *x = var->pa;
      isl_pw_aff_free(k->pa);
      if (op == WGP_OP_AND && m > 0 && (m & (m + 1)) == 0) {
        /* low bits: a remainder, the same for the wrapped and the exact value */
        a.pa = isl_pw_aff_mod_val(x, isl_val_int_from_si(c->ctx, (long)(m + 1)));
      } else if (op == WGP_OP_AND && m < 0 && ((-m) & (-m - 1)) == 0) {
        /* high bits: clear the low ones */
        isl_pw_aff *low = isl_pw_aff_mod_val(isl_pw_aff_copy(x), isl_val_int_from_si(c->ctx, (long)-m));
        a.pa = isl_pw_aff_sub(x, low);
      } else if (op == WGP_OP_OR && m >= 0) {
        /* an or of bits the other operand never has is an add */
        int64_t p = 1;
        while (p <= m && p < (INT64_C(1) << 62))
          p <<= 1;
        isl_set *nz = isl_pw_aff_non_zero_set(isl_pw_aff_mod_val(isl_pw_aff_copy(x), isl_val_int_from_si(c->ctx, (long)p)));
        nz = isl_set_intersect(nz, isl_set_copy(c->dom));
        isl_bool empty = isl_set_is_empty(nz);
        isl_set_free(nz);
        if (empty != isl_bool_true) {
          isl_pw_aff_free(x);
          return fail(c, "non-linear: bitwise or of overlapping bits");
        }
        a.pa = isl_pw_aff_add(x, pa_const(c, m));
      } else {
        isl_pw_aff_free(x);
        return fail(c, "non-linear: bitwise %s with mask %lld", wgp_expr_op_name(e), (long long)m);
      }
      a.boolean = false;
    }
    return a;
  }
  case WGP_OP_SMIN:
  case WGP_OP_SMAX:
  case WGP_OP_UMIN:
  case WGP_OP_UMAX: {
    bool u = op == WGP_OP_UMIN || op == WGP_OP_UMAX, mn = op == WGP_OP_SMIN || op == WGP_OP_UMIN;
    val a = operand(c, wgp_expr_operand(e, 0), w, u, "operand of min/max");
    for (size_t i = 1; i < n && a.pa; i++) {
      val b = operand(c, wgp_expr_operand(e, i), w, u, "operand of min/max");
      if (!b.pa) {
        val_free(a);
        return b;
      }
      a.pa = mn ? isl_pw_aff_min(a.pa, b.pa) : isl_pw_aff_max(a.pa, b.pa);
      a.boolean = a.boolean && b.boolean;
    }
    return a;
  }
  case WGP_OP_ABS: {
    val a = operand(c, wgp_expr_operand(e, 0), w, false, "operand of abs");
    if (!a.pa)
      return a;
    return (val){isl_pw_aff_max(isl_pw_aff_copy(a.pa), isl_pw_aff_neg(a.pa)), false};
  }
  case WGP_OP_ZEXT:
  case WGP_OP_SEXT: {
    unsigned from = wgp_expr_from_width(e);
    const wgp_expr *x = wgp_expr_operand(e, 0);
    val a;
    if (wgp_expr_get_op(x) == WGP_OP_TRUNC && wgp_expr_width(x) == from && from < 63) {
      /* extending a truncation: the low FROM bits of the exact value, read
       * unsigned (a remainder) or signed (a remainder shifted by half); the
       * value itself where it is in range anyway (no division for isl) */
      a = conv_expr(c, wgp_expr_operand(x, 0));
      int64_t lo = op == WGP_OP_ZEXT ? 0 : -(INT64_C(1) << (from - 1));
      int64_t hi = op == WGP_OP_ZEXT ? (INT64_C(1) << from) - 1 : (INT64_C(1) << (from - 1)) - 1;
      if (a.pa && !a.boolean && !fits(c, wgp_expr_operand(x, 0), a.pa, lo, hi)) {
        isl_val *m = isl_val_int_from_si(c->ctx, (long)(INT64_C(1) << from));
        if (op == WGP_OP_ZEXT) {
          a.pa = isl_pw_aff_mod_val(a.pa, m);
        } else {
          int64_t half = INT64_C(1) << (from - 1);
          a.pa = isl_pw_aff_sub(isl_pw_aff_mod_val(isl_pw_aff_add(a.pa, pa_const(c, half)), m), pa_const(c, half));
        }
      }
    } else if (from == 1) {
      a = conv_expr(c, x);
    } else {
      a = operand(c, x, from, op == WGP_OP_ZEXT, "extension");
    }
    if (a.pa && from == 1)
      a.boolean = true;
    if (a.pa && op == WGP_OP_SEXT && from == 1) /* an i1 true sign-extends to -1 */
      a.pa = isl_pw_aff_neg(a.pa), a.boolean = false;
    return a;
  }
  case WGP_OP_TRUNC: {
    /* the exact value; whoever interprets the narrow one checks its range
     * (a single bit is the value's parity) */
    val a = conv_expr(c, wgp_expr_operand(e, 0));
    if (a.pa && w == 1 && !a.boolean)
      a.pa = isl_pw_aff_mod_val(a.pa, isl_val_int_from_si(c->ctx, 2)), a.boolean = true;
    return a;
  }
  case WGP_OP_EQ: case WGP_OP_NE: case WGP_OP_SLT: case WGP_OP_SLE: case WGP_OP_SGT: case WGP_OP_SGE:
  case WGP_OP_ULT: case WGP_OP_ULE: case WGP_OP_UGT: case WGP_OP_UGE: {
    bool u = op >= WGP_OP_ULT;
    val a = operand(c, wgp_expr_operand(e, 0), w, u, "compared value");
    if (!a.pa)
      return a;
    val b = operand(c, wgp_expr_operand(e, 1), w, u, "compared value");
    if (!b.pa) {
      val_free(a);
      return b;
    }
    return (val){isl_set_indicator_function(cmp_set(op, a.pa, b.pa)), true};
  }
  case WGP_OP_NOT: {
    val a = conv_expr(c, wgp_expr_operand(e, 0));
    if (!a.pa)
      return a;
    return (val){isl_set_indicator_function(isl_pw_aff_zero_set(a.pa)), true};
  }
  case WGP_OP_SELECT: {
    val cnd = conv_expr(c, wgp_expr_operand(e, 0));
    if (!cnd.pa)
      return cnd;
    val a = conv_expr(c, wgp_expr_operand(e, 1));
    if (!a.pa) {
      val_free(cnd);
      return a;
    }
    val b = conv_expr(c, wgp_expr_operand(e, 2));
    if (!b.pa) {
      val_free(cnd), val_free(a);
      return b;
    }
    return (val){isl_pw_aff_cond(cnd.pa, a.pa, b.pa), a.boolean && b.boolean};
  }
  case WGP_OP_ADDREC: {
    /* (addrec it.L<n> c0 c1 ...): affine only while c2... are zero */
    if (n < 2)
      return fail(c, "malformed addrec");
    val it = conv_expr(c, wgp_expr_operand(e, 0));
    if (!it.pa)
      return it;
    val acc = conv_expr(c, wgp_expr_operand(e, 1));
    if (!acc.pa) {
      val_free(it);
      return acc;
    }
    for (size_t i = 2; i < n; i++) {
      val k = conv_expr(c, wgp_expr_operand(e, i));
      int64_t kv;
      if (!k.pa || !is_cst(k.pa, &kv) || (i > 2 && kv != 0)) {
        val_free(k), val_free(it), val_free(acc);
        return fail(c, "non-linear: polynomial recurrence");
      }
      acc.pa = isl_pw_aff_add(acc.pa, isl_pw_aff_mul(isl_pw_aff_copy(it.pa), k.pa));
    }
    val_free(it);
    acc.boolean = false;
    return acc;
  }
  case WGP_OP_LOAD: return fail(c, "depends on the value loaded by M%lld", (long long)wgp_expr_int(e));
  default: return fail(c, "floating-point value");
  }
}

