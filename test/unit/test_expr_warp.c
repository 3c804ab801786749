/* test_expr_warp.c - the warp evaluator (analyzer/expr_warp.c) against the
 * tree walker (wgp_expr_eval): on random expressions over every operation,
 * width and flag, with lane, uniform and constant symbols, known, unknown and
 * failing ones, every lane's known/unknown answer and value must agree. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "expr_warp_internal.h"
#include "wgperf/expr.h"

/* ---- one environment: per-lane and uniform symbol values ------------------ */

typedef struct env {
  int64_t lid[64][2], rv[64];
  uint64_t rv_known;
  int64_t grp, lsz, it;
  unsigned lane; /* for the scalar lookup */
} env;

static bool const_value(const wgp_sym *s, int64_t *v, wgp_eval_status *st) {
  *st = WGP_EVAL_OK;
  switch (s->kind) {
  case WGP_SYM_NGRP: *v = 1000; return true;
  case WGP_SYM_GSZ: *v = 64000; return true;
  case WGP_SYM_ARG:
    if (strcmp(s->name, "N") == 0)
      *v = 100;
    else if (strcmp(s->name, "big") == 0)
      *v = INT64_C(1) << 40;
    else if (strcmp(s->name, "neg") == 0)
      *v = -5;
    else
      *st = WGP_EVAL_ERROR; /* arg.bad: the launch has no value */
    return true;
  case WGP_SYM_LOAD:
    if (s->index == 7)
      *v = 11;
    else
      *st = WGP_EVAL_UNKNOWN;
    return true;
  default: return false;
  }
}

static wgp_eval_status scalar_lookup(void *user, const wgp_sym *s, int64_t *v, char *reason, size_t size) {
  const env *e = user;
  unsigned l = e->lane, d = s->dim < 2 ? s->dim : 0;
  wgp_eval_status st;
  switch (s->kind) {
  case WGP_SYM_LID: *v = e->lid[l][d]; return WGP_EVAL_OK;
  case WGP_SYM_GID: *v = (int64_t)((uint64_t)e->grp * (uint64_t)e->lsz + (uint64_t)e->lid[l][d]); return WGP_EVAL_OK;
  case WGP_SYM_LANEID: *v = l; return WGP_EVAL_OK;
  case WGP_SYM_GRP: *v = e->grp; return WGP_EVAL_OK;
  case WGP_SYM_LSZ: *v = e->lsz; return WGP_EVAL_OK;
  case WGP_SYM_ITER:
    if (e->it < 0)
      return WGP_EVAL_UNKNOWN;
    *v = e->it;
    return WGP_EVAL_OK;
  case WGP_SYM_RECUR:
    if (!(e->rv_known >> l & 1))
      return WGP_EVAL_UNKNOWN;
    *v = e->rv[l];
    return WGP_EVAL_OK;
  default:
    if (const_value(s, v, &st))
      return st;
    snprintf(reason, size, "no value");
    return WGP_EVAL_UNKNOWN;
  }
}

static wgp_xclass classify(void *user, const wgp_sym *s, int64_t *v, wgp_eval_status *st) {
  (void)user;
  switch (s->kind) {
  case WGP_SYM_LID:
  case WGP_SYM_GID:
  case WGP_SYM_LANEID:
  case WGP_SYM_RECUR: return WGP_X_LANE;
  case WGP_SYM_GRP:
  case WGP_SYM_LSZ:
  case WGP_SYM_ITER: return WGP_X_UNIFORM;
  default:
    if (!const_value(s, v, st))
      *st = WGP_EVAL_UNKNOWN;
    return WGP_X_CONST;
  }
}

static void fill(void *user, const wgp_sym *s, uint64_t mask, int64_t *v, uint64_t *ok, uint64_t *err) {
  const env *e = user;
  unsigned d = s->dim < 2 ? s->dim : 0;
  *ok = ~UINT64_C(0);
  *err = 0;
  for (unsigned l = 0; l < 64; l++) {
    if (!(mask >> l & 1))
      continue;
    switch (s->kind) {
    case WGP_SYM_LID: v[l] = e->lid[l][d]; break;
    case WGP_SYM_GID: v[l] = (int64_t)((uint64_t)e->grp * (uint64_t)e->lsz + (uint64_t)e->lid[l][d]); break;
    case WGP_SYM_LANEID: v[l] = l; break;
    case WGP_SYM_RECUR: v[l] = e->rv[l]; break;
    default: break;
    }
  }
  switch (s->kind) {
  case WGP_SYM_GRP: v[0] = e->grp; break;
  case WGP_SYM_LSZ: v[0] = e->lsz; break;
  case WGP_SYM_ITER:
    v[0] = e->it;
    *ok = e->it < 0 ? 0 : *ok;
    break;
  case WGP_SYM_RECUR: *ok = e->rv_known; break;
  default: break;
  }
}

/* lid.x, lid.y, (0), lane as coordinates 0..3; gid.x is an offset plus lid.x */
static bool affine(void *user, const wgp_sym *s, int64_t *base, unsigned *coord) {
  const env *e = user;
  switch (s->kind) {
  case WGP_SYM_LID: *base = 0, *coord = s->dim < 2 ? s->dim : 0; return true;
  case WGP_SYM_GID: *base = (int64_t)((uint64_t)e->grp * (uint64_t)e->lsz), *coord = s->dim < 2 ? s->dim : 0; return true;
  case WGP_SYM_LANEID: *base = 0, *coord = 3; return true;
  default: return false;
  }
}

static void coordinates(const env *e, int64_t *x) {
  for (unsigned l = 0; l < WGP_XLANES; l++) {
    x[0 * WGP_XLANES + l] = e->lid[l][0];
    x[1 * WGP_XLANES + l] = e->lid[l][1];
    x[2 * WGP_XLANES + l] = 0;
    x[3 * WGP_XLANES + l] = l;
  }
}

/* ---- random expressions ------------------------------------------------------ */

static uint64_t rng = 0x2545f4914f6cdd1dull;
static uint64_t rnd(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}
static unsigned pick(unsigned n) { return (unsigned)(rnd() % n); }

typedef struct sbuf {
  char s[8192];
  size_t n;
} sbuf;

static void put(sbuf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(b->s + b->n, sizeof b->s - b->n, fmt, ap);
  va_end(ap);
  if (k > 0 && b->n + (size_t)k < sizeof b->s)
    b->n += (size_t)k;
}

static const unsigned widths[] = {1, 8, 16, 32, 64};

static void gen(sbuf *b, int depth) {
  static const char *const leaves[] = {"lid.x", "lid.y", "gid.x", "laneid", "grp.x", "lsz.x", "it.L0", "rv.L0.0",
                                       "arg.N", "arg.big", "arg.neg", "arg.bad", "ngrp.x", "?x", "(load M7)",
                                       "(load M3)"};
  static const char *const ints[] = {"0", "1", "-1", "2", "3", "7", "31", "32", "63", "64", "255", "-128",
                                     "2147483647", "-2147483648", "1099511627776", "9223372036854775807",
                                     "-9223372036854775808", "4", "16"};
  if (depth <= 0 || pick(4) == 0) {
    if (pick(2))
      put(b, "%s", leaves[pick(sizeof leaves / sizeof *leaves)]);
    else
      put(b, "%s", ints[pick(sizeof ints / sizeof *ints)]);
    return;
  }
  static const char *const wrap[] = {"add", "sub", "mul", "shl"};
  static const char *const plain[] = {"udiv", "sdiv", "urem", "srem", "lshr", "ashr", "eq", "ne", "slt", "sle",
                                      "sgt", "sge", "ult", "ule", "ugt", "uge"};
  static const char *const folds[] = {"and", "or", "xor", "smin", "smax", "umin", "umax"};
  unsigned w = widths[pick(5)];
  switch (pick(9)) {
  case 0:
  case 1: { /* add/sub/mul/shl with flags */
    const char *op = wrap[pick(4)];
    put(b, "(%s", op);
    if (pick(3))
      put(b, ":%u", w);
    unsigned f = pick(4);
    if (f & 1)
      put(b, ":nsw");
    if (f & 2)
      put(b, ":nuw");
    unsigned n = (op[0] == 'a' || op[0] == 'm') ? 2 + pick(3) : 2;
    for (unsigned i = 0; i < n; i++)
      put(b, " "), gen(b, depth - 1);
    put(b, ")");
    return;
  }
  case 2:
  case 3:
    put(b, "(%s:%u ", plain[pick(sizeof plain / sizeof *plain)], w);
    gen(b, depth - 1), put(b, " "), gen(b, depth - 1), put(b, ")");
    return;
  case 4: {
    put(b, "(%s:%u", folds[pick(sizeof folds / sizeof *folds)], w);
    unsigned n = 2 + pick(3);
    for (unsigned i = 0; i < n; i++)
      put(b, " "), gen(b, depth - 1);
    put(b, ")");
    return;
  }
  case 5: { /* casts */
    unsigned a = widths[pick(5)], c = widths[pick(5)];
    unsigned lo = a < c ? a : c, hi = a < c ? c : a;
    unsigned k = pick(4);
    if (k == 0)
      put(b, "(zext:%u:%u ", lo, hi);
    else if (k == 1)
      put(b, "(sext:%u:%u ", lo, hi);
    else if (k == 2)
      put(b, "(trunc:%u:%u ", hi, lo);
    else
      put(b, "(abs:%u ", w);
    gen(b, depth - 1), put(b, ")");
    return;
  }
  case 6:
    put(b, "(select "), gen(b, depth - 1), put(b, " "), gen(b, depth - 1), put(b, " "), gen(b, depth - 1);
    put(b, ")");
    return;
  case 7: {
    put(b, "(addrec");
    if (pick(2))
      put(b, ":%u", w);
    if (pick(3) == 0)
      put(b, ":nsw");
    put(b, " it.L0");
    unsigned n = 2 + pick(2);
    for (unsigned i = 0; i < n; i++)
      put(b, " "), gen(b, depth - 1);
    put(b, ")");
    return;
  }
  default:
    if (pick(3) == 0)
      put(b, "(not "), gen(b, depth - 1), put(b, ")");
    else
      put(b, "(fadd "), gen(b, depth - 1), put(b, " "), gen(b, depth - 1), put(b, ")");
    return;
  }
}

/* Address-like expressions: sums, differences, products and shifts of ids
 * and constants through casts, near the edges of their widths. */
static void gen_affine(sbuf *b, int depth) {
  static const char *const leaves[] = {"lid.x", "lid.y", "gid.x", "laneid", "grp.x", "arg.N", "it.L0", "rv.L0.0"};
  static const char *const ints[] = {"1", "2", "3", "4", "-1", "-4", "16", "100", "127", "-128", "32767",
                                     "2147483632", "-2147483648", "1099511627776", "4611686018427387904"};
  static const unsigned ws[] = {8, 16, 32, 64, 64};
  if (depth <= 0 || pick(5) == 0) {
    put(b, "%s", pick(3) ? leaves[pick(8)] : ints[pick(15)]);
    return;
  }
  unsigned w = ws[pick(5)];
  const char *fl = pick(3) == 0 ? ":nsw" : pick(3) == 0 ? ":nuw" : pick(4) == 0 ? ":nsw:nuw" : "";
  static const char *const cmps[] = {"eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"};
  switch (pick(8)) {
  case 6: /* comparisons, often decided by the lanes' ranges */
    put(b, "(%s:%u ", cmps[pick(10)], w), gen_affine(b, depth - 1), put(b, " "), gen_affine(b, depth - 1), put(b, ")");
    return;
  case 7:
    put(b, "(select (%s:%u ", cmps[pick(10)], w), gen_affine(b, depth - 1), put(b, " "), gen_affine(b, depth - 1);
    put(b, ") "), gen_affine(b, depth - 1), put(b, " "), gen_affine(b, depth - 1), put(b, ")");
    return;
  case 0:
  case 1:
    put(b, "(add:%u%s ", w, fl), gen_affine(b, depth - 1), put(b, " "), gen_affine(b, depth - 1);
    if (pick(3) == 0)
      put(b, " "), gen_affine(b, depth - 1);
    put(b, ")");
    return;
  case 2:
    put(b, "(mul:%u%s %s ", w, fl, ints[pick(15)]), gen_affine(b, depth - 1), put(b, ")");
    return;
  case 3:
    put(b, "(sub:%u%s ", w, fl), gen_affine(b, depth - 1), put(b, " "), gen_affine(b, depth - 1), put(b, ")");
    return;
  case 4:
    put(b, "(shl:%u%s ", w, fl), gen_affine(b, depth - 1), put(b, " %u)", pick(3) ? pick(6) : pick(70));
    return;
  default: {
    unsigned a = ws[pick(5)], c = ws[pick(5)], lo = a < c ? a : c, hi = a < c ? c : a;
    unsigned k = pick(3);
    put(b, k == 0 ? "(sext:%u:%u " : k == 1 ? "(zext:%u:%u " : "(trunc:%u:%u ", k == 2 ? hi : lo, k == 2 ? lo : hi);
    gen_affine(b, depth - 1), put(b, ")");
    return;
  }
  }
}

static void random_env(env *e) {
  static const int64_t big[] = {0, 1, -1, 7, 1000, 65535, 2147483647, -2147483648, INT64_C(1) << 40, INT64_MAX,
                                INT64_MIN};
  bool wild = pick(3) == 0;
  for (unsigned l = 0; l < 64; l++) {
    e->lid[l][0] = wild ? big[pick(11)] : (int64_t)(l % 16);
    e->lid[l][1] = wild ? big[pick(11)] : (int64_t)(l / 16);
    e->rv[l] = wild ? big[pick(11)] : (int64_t)l * 3 - 40;
  }
  e->rv_known = pick(2) ? ~UINT64_C(0) : rnd();
  if (pick(3) == 0) /* a recurrence every lane shares */
    for (unsigned l = 0; l < 64; l++)
      e->rv[l] = e->rv[0];
  e->grp = pick(2) ? (int64_t)pick(100) : big[pick(11)];
  e->lsz = 16;
  e->it = pick(5) == 0 ? -1 : pick(2) ? (int64_t)pick(20) : big[pick(11)];
}

/* ---- tests -------------------------------------------------------------------- */

static void check(const char *text, const env *e0, uint64_t mask, unsigned flags, bool use_affine) {
  wgp_expr *x;
  wgp_diag d;
  if (wgp_expr_parse(text, &x, &d) != WGP_OK)
    fail_msg("parse of '%s': %s", text, d.message);
  env e = *e0;
  wgp_xprog *p;
  assert_int_equal(wgp_xprog_compile(x, flags, classify, &e, &p), WGP_OK);
  int64_t out[64], coord[WGP_XCOORDS * WGP_XLANES];
  coordinates(&e, coord);
  /* ranges over all 64 lanes (a superset of the mask) half of the time */
  int64_t lo[WGP_XCOORDS], hi[WGP_XCOORDS];
  for (unsigned k = 0; k < WGP_XCOORDS; k++) {
    lo[k] = INT64_MAX, hi[k] = INT64_MIN;
    for (unsigned l = 0; l < WGP_XLANES; l++) {
      lo[k] = coord[k * WGP_XLANES + l] < lo[k] ? coord[k * WGP_XLANES + l] : lo[k];
      hi[k] = coord[k * WGP_XLANES + l] > hi[k] ? coord[k * WGP_XLANES + l] : hi[k];
    }
  }
  bool whole = (mask & 1) != 0;
  wgp_xsource src = {fill, &e, use_affine ? affine : NULL, use_affine ? coord : NULL, whole ? lo : NULL,
                     whole ? hi : NULL, 0, 0};
  bool uniform;
  uint64_t known = wgp_xprog_eval(p, &src, mask, out, &uniform);
  assert_int_equal(known & ~mask, 0);
  for (unsigned l = 0; l < 64; l++) {
    if (!(mask >> l & 1))
      continue;
    e.lane = l;
    wgp_eval_env ee = {scalar_lookup, &e, flags};
    wgp_eval_result r;
    wgp_eval_status st = wgp_expr_eval(x, &ee, &r);
    bool k = known >> l & 1;
    if (k != (st == WGP_EVAL_OK))
      fail_msg("'%s' lane %u: tree walker %s (%s), warp evaluator %s", text, l,
               st == WGP_EVAL_OK ? "known" : "unknown", r.reason, k ? "known" : "unknown");
    if (k && out[l] != r.value)
      fail_msg("'%s' lane %u: tree walker %lld, warp evaluator %lld", text, l, (long long)r.value,
               (long long)out[l]);
  }
  wgp_xprog_free(p);
  wgp_expr_free(x);
}

static void test_random_agree(void **state) {
  (void)state;
  env e;
  for (int i = 0; i < 20000; i++) {
    sbuf b = {{0}, 0};
    gen(&b, 1 + (int)pick(5));
    random_env(&e);
    uint64_t mask = pick(4) == 0 ? rnd() : pick(2) ? UINT64_C(0xffffffff) : ~UINT64_C(0);
    unsigned flags = pick(4) == 0 ? WGP_EVAL_WRAP64 : 0;
    check(b.s, &e, mask, flags, false);
    check(b.s, &e, mask, flags, true);
  }
}

static void test_random_affine_agree(void **state) {
  (void)state;
  env e;
  for (int i = 0; i < 20000; i++) {
    sbuf b = {{0}, 0};
    gen_affine(&b, 2 + (int)pick(5));
    random_env(&e);
    uint64_t mask = pick(4) == 0 ? rnd() : UINT64_C(0xffffffff);
    check(b.s, &e, mask, 0, true);
  }
}

/* As classify, with the ids of a warp kept while the epoch stays. */
static wgp_xclass classify_warp(void *user, const wgp_sym *s, int64_t *v, wgp_eval_status *st) {
  switch (s->kind) {
  case WGP_SYM_LID:
  case WGP_SYM_GID:
  case WGP_SYM_LANEID: return WGP_X_WARP_LANE;
  case WGP_SYM_GRP:
  case WGP_SYM_LSZ: return WGP_X_WARP_UNIFORM;
  default: return classify(user, s, v, st);
  }
}

/* Evaluates P for the lanes of MASK and checks every lane against the tree
 * walker on E (WHERE names the evaluation in a failure). */
static void eval_against_walker(const char *text, const wgp_expr *x, wgp_xprog *p, const wgp_xsource *src, env *e,
                                unsigned flags, uint64_t mask, const char *where) {
  int64_t out[64];
  uint64_t known = wgp_xprog_eval(p, src, mask, out, NULL);
  for (unsigned l = 0; l < 64; l++) {
    if (!(mask >> l & 1))
      continue;
    e->lane = l;
    wgp_eval_env ee = {scalar_lookup, e, flags};
    wgp_eval_result r;
    wgp_eval_status st = wgp_expr_eval(x, &ee, &r);
    bool k = known >> l & 1;
    if (k != (st == WGP_EVAL_OK) || (k && out[l] != r.value))
      fail_msg("'%s' %s lane %u: tree walker %s %lld, warp evaluator %s %lld", text, where, l,
               st == WGP_EVAL_OK ? "known" : "unknown", (long long)r.value, k ? "known" : "unknown",
               (long long)out[l]);
  }
}

/* TEXT parsed into *X and compiled with the ids of a warp kept (*E a random
 * environment). */
static wgp_xprog *compile_for_warps(const char *text, unsigned flags, env *e, wgp_expr **x) {
  wgp_diag d;
  if (wgp_expr_parse(text, x, &d) != WGP_OK)
    fail_msg("parse of '%s': %s", text, d.message);
  random_env(e);
  wgp_xprog *p = NULL;
  assert_int_equal(wgp_xprog_compile(*x, flags, classify_warp, e, &p), WGP_OK);
  return p;
}

/* One program evaluated again and again as a tracer does: several warps
 * (epochs), and within each several evaluations with other lanes, loop
 * iterations and recurrences; what it keeps from one evaluation to the next
 * (subtrees of ids and constants) must never change an answer. */
static void check_epochs(const char *text, unsigned flags) {
  wgp_expr *x;
  env e;
  wgp_xprog *p = compile_for_warps(text, flags, &e, &x);
  for (uint64_t epoch = 1; epoch <= 3; epoch++) {
    random_env(&e); /* a new warp: new ids */
    int64_t coord[WGP_XCOORDS * WGP_XLANES], lo[WGP_XCOORDS], hi[WGP_XCOORDS];
    coordinates(&e, coord);
    for (unsigned k = 0; k < WGP_XCOORDS; k++) {
      lo[k] = INT64_MAX, hi[k] = INT64_MIN;
      for (unsigned l = 0; l < WGP_XLANES; l++) {
        lo[k] = coord[k * WGP_XLANES + l] < lo[k] ? coord[k * WGP_XLANES + l] : lo[k];
        hi[k] = coord[k * WGP_XLANES + l] > hi[k] ? coord[k * WGP_XLANES + l] : hi[k];
      }
    }
    wgp_xsource src = {fill, &e, affine, coord, lo, hi, epoch, 0};
    for (int round = 0; round < 4; round++) {
      /* what changes within a warp's trace: iterations, recurrences, lanes */
      e.it = pick(5) == 0 ? -1 : (int64_t)pick(40);
      for (unsigned l = 0; l < 64; l++)
        e.rv[l] = pick(4) == 0 ? e.rv[l] : (int64_t)l * (int64_t)pick(7) - (int64_t)pick(100);
      e.rv_known = pick(2) ? ~UINT64_C(0) : rnd();
      uint64_t mask = pick(3) == 0 ? rnd() : pick(2) ? UINT64_C(0xffffffff) : ~UINT64_C(0);
      char where[64];
      snprintf(where, sizeof where, "epoch %llu round %d", (unsigned long long)epoch, round);
      eval_against_walker(text, x, p, &src, &e, flags, mask, where);
    }
  }
  wgp_xprog_free(p);
  wgp_expr_free(x);
}

/* As a tracer walks a group: its warps (epochs) share one group epoch and a
 * coordinate box over all their lanes; the group's id stays, the lanes'
 * ids change from warp to warp.  What a kept subtree holds as a form or a
 * uniform value is reused by the next warp; values held lane by lane are
 * not. */
static void check_group_epochs(const char *text, unsigned flags) {
  wgp_expr *x;
  env e;
  wgp_xprog *p = compile_for_warps(text, flags, &e, &x);
  uint64_t epoch = 0;
  for (uint64_t group = 1; group <= 3; group++) {
    random_env(&e);
    e.lsz = 16 * (1 + (int64_t)pick(4)); /* a group of lsz x 8 items, 64-lane warps */
    int64_t lx = e.lsz, ly = 8, nwarps = lx * ly / 64;
    int64_t lo[WGP_XCOORDS] = {0, 0, 0, 0}, hi[WGP_XCOORDS] = {lx - 1, ly - 1, 0, 63};
    for (int64_t w = 0; w < nwarps; w++) {
      for (unsigned l = 0; l < 64; l++) {
        int64_t id = w * 64 + l;
        e.lid[l][0] = id % lx;
        e.lid[l][1] = id / lx % ly;
      }
      int64_t coord[WGP_XCOORDS * WGP_XLANES];
      coordinates(&e, coord);
      wgp_xsource src = {fill, &e, affine, coord, lo, hi, ++epoch, group};
      for (int round = 0; round < 3; round++) {
        e.it = pick(5) == 0 ? -1 : (int64_t)pick(40);
        for (unsigned l = 0; l < 64; l++)
          e.rv[l] = pick(4) == 0 ? e.rv[l] : (int64_t)l * (int64_t)pick(7) - (int64_t)pick(100);
        e.rv_known = pick(2) ? ~UINT64_C(0) : rnd();
        uint64_t mask = pick(3) == 0 ? rnd() : pick(2) ? UINT64_C(0xffffffff) : ~UINT64_C(0);
        char where[80];
        snprintf(where, sizeof where, "group %llu warp %lld round %d", (unsigned long long)group, (long long)w,
                 round);
        eval_against_walker(text, x, p, &src, &e, flags, mask, where);
      }
    }
  }
  wgp_xprog_free(p);
  wgp_expr_free(x);
}

static void test_kept_across_evaluations(void **state) {
  (void)state;
  for (int i = 0; i < 4000; i++) {
    sbuf b = {{0}, 0};
    if (pick(2))
      gen(&b, 1 + (int)pick(5));
    else
      gen_affine(&b, 2 + (int)pick(5));
    unsigned flags = pick(4) == 0 ? WGP_EVAL_WRAP64 : 0;
    check_epochs(b.s, flags);
    check_group_epochs(b.s, flags);
  }
}

static void test_fixed_cases(void **state) {
  (void)state;
  env e;
  random_env(&e);
  e.it = 3;
  e.rv_known = 0xf0f0f0f0f0f0f0f0ull;
  const char *cases[] = {
      "(mul:nsw 4 (sext:32:64 (add:32:nsw (mul:32 16 grp.x) (mul:32 arg.N lid.y) lid.x)))",
      "(select (slt:32 lid.x 8) (add lid.x 1) arg.bad)",  /* error only in lanes taking it */
      "(select (slt:32 arg.bad 8) 1 1)",                   /* a failed condition stays an error */
      "(select ?x lid.x lid.x)",                           /* unknown condition, equal arms */
      "(select ?x lid.x 3)",
      "(select (eq rv.L0.0 rv.L0.0) 1 2)",                 /* condition unknown in some lanes */
      "(select ?x 5 5)",
      "(select ?x (add grp.x 1) (add grp.x 1))",
      "(select ?x it.L0 arg.bad)",
      "(addrec it.L0 (mul lid.x 4) 8 (add grp.x 1))",
      "(addrec:32:nsw it.L0 2147483647 1)",
      "(add:64 9223372036854775807 lid.x)",              /* 64-bit overflow in lanes with lid.x > 0 */
      "(udiv:32 100 lid.x)",                               /* division by zero in lane 0 */
      "(shl:32 1 lid.x)",
      "(smin:16 lid.x rv.L0.0 -3)",
      "(add (load M7) lid.x)",
      "(add (load M3) lid.x)",
      "(fadd lid.x 1)",
      "(foeq arg.N (sitofp 100))",
      "(fogt (sitofp lid.x) (sitofp 3))",
      "(fult lid.x arg.N)",
      "(fune (load M3) (sitofp 0))",
      "(foeq arg.bad (sitofp 0))",
      "(sitofp 16777217)",
      "(uitofp (add lid.x -2))",
      "(select (foeq arg.N (sitofp 0)) lid.x lid.y)",
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
    check(cases[i], &e, ~UINT64_C(0), 0, false), check(cases[i], &e, ~UINT64_C(0), 0, true);
}

static void test_folding(void **state) {
  (void)state;
  env e;
  random_env(&e);
  for (unsigned l = 0; l < 64; l++)
    e.lid[l][0] = l % 16, e.lid[l][1] = l / 16;
  /* launch constants fold away: one constant, one symbol, one add */
  wgp_expr *x;
  wgp_diag d;
  assert_int_equal(wgp_expr_parse("(add (mul:32 (udiv:32 arg.N 2) (add arg.N 3)) lid.x)", &x, &d), WGP_OK);
  wgp_xprog *p;
  assert_int_equal(wgp_xprog_compile(x, 0, classify, &e, &p), WGP_OK);
  assert_int_equal(wgp_xprog_size(p), 3);
  int64_t out[64];
  bool uniform = true;
  wgp_xsource src = {fill, &e, NULL, NULL, NULL, NULL, 0, 0};
  assert_int_equal(wgp_xprog_eval(p, &src, 0xff, out, &uniform), 0xff);
  assert_false(uniform);
  assert_int_equal(out[3], 50 * 103 + e.lid[3][0]);
  wgp_xprog_free(p);
  wgp_expr_free(x);
  /* a select on a constant keeps only its arm; a uniform result is flagged */
  assert_int_equal(wgp_expr_parse("(select (eq arg.N 100) (add grp.x 1) lid.x)", &x, &d), WGP_OK);
  assert_int_equal(wgp_xprog_compile(x, 0, classify, &e, &p), WGP_OK);
  assert_int_equal(wgp_xprog_size(p), 3);
  assert_int_equal(wgp_xprog_eval(p, &src, 0x3, out, &uniform), 0x3);
  assert_true(uniform);
  assert_int_equal(out[1], e.grp + 1);
  wgp_xprog_free(p);
  wgp_expr_free(x);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_fixed_cases),
      cmocka_unit_test(test_folding),
      cmocka_unit_test(test_random_agree),
      cmocka_unit_test(test_random_affine_agree),
      cmocka_unit_test(test_kept_across_evaluations),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
