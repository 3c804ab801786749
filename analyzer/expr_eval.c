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
#include "expr_ops_internal.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* Evaluation (operation semantics: expr_ops_internal.h)                    */
/* ------------------------------------------------------------------------ */

typedef wgp_evaluator evaluator;

static wgp_eval_status eval(evaluator *ev, const wgp_expr *e, int64_t *out);

static wgp_eval_status eval_sym(evaluator *ev, const wgp_sym *s, int64_t *out) {
  /* The symbol's name is printed only when a reason needs it: this is the
   * evaluator's hot path. */
  char name[96];
  if (s->kind == WGP_SYM_UNKNOWN) {
    wgp_sym_print(s, name, sizeof name);
    return wgp_x_unknown(ev, "unmodelled value %s", name);
  }
  if (!ev->env || !ev->env->lookup) {
    wgp_sym_print(s, name, sizeof name);
    return wgp_x_unknown(ev, "no value for %s", name);
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

static wgp_eval_status eval_nary(evaluator *ev, const wgp_expr *e, int64_t *out) {
  wgp_x_acc a;
  wgp_x_nary_start(e, &a);
  for (size_t i = 0; i < e->nops; i++) {
    int64_t v;
    wgp_eval_status st = eval(ev, e->ops[i], &v);
    if (st != WGP_EVAL_OK)
      return st;
    wgp_x_nary_step(e, &a, v);
  }
  return wgp_x_acc_end(ev, e, &a, out);
}

static wgp_eval_status eval_addrec(evaluator *ev, const wgp_expr *e, int64_t *out) {
  int64_t it;
  wgp_eval_status st = eval(ev, e->ops[0], &it);
  if (st != WGP_EVAL_OK)
    return st;
  if ((st = wgp_x_addrec_iter(ev, it)) != WGP_EVAL_OK)
    return st;
  wgp_x_acc a = {0, 0, 0, false, false};
  for (size_t j = 1; j < e->nops; j++) {
    int64_t v;
    st = eval(ev, e->ops[j], &v);
    if (st != WGP_EVAL_OK)
      return st;
    if ((st = wgp_x_addrec_step(ev, e, &a, j, it, v)) != WGP_EVAL_OK)
      return st;
  }
  return wgp_x_acc_end(ev, e, &a, out);
}

static wgp_eval_status eval_fold(evaluator *ev, const wgp_expr *e, int64_t *out) {
  int64_t first;
  wgp_eval_status st = eval(ev, e->ops[0], &first);
  if (st != WGP_EVAL_OK)
    return st;
  uint64_t acc = wgp_x_fold_start(e, first);
  for (size_t i = 1; i < e->nops; i++) {
    int64_t v;
    st = eval(ev, e->ops[i], &v);
    if (st != WGP_EVAL_OK)
      return st;
    acc = wgp_x_fold_step(e, acc, v);
  }
  *out = wgp_x_canon(acc, e->width);
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
      return wgp_x_unknown(ev, "(load M%u) is a loaded value (data-dependent)", s.index);
    return eval_sym(ev, &s, out);
  }
  case WGP_OP_FLOAT: {
    if (!wgp_x_float_exact_op(e))
      return wgp_x_unknown(ev, "floating-point operation '%s' (data-dependent)", e->info->name);
    int64_t v[2] = {0, 0};
    uint8_t s[2] = {WGP_EVAL_OK, WGP_EVAL_OK};
    for (size_t j = 0; j < e->nops && j < 2; j++)
      s[j] = (uint8_t)eval(ev, e->ops[j], &v[j]);
    return wgp_x_float_exact(ev, e, v, s, out);
  }
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
  case WGP_OP_ABS:
  case WGP_OP_ZEXT:
  case WGP_OP_SEXT:
  case WGP_OP_TRUNC:
  case WGP_OP_NOT:
    if ((st = eval(ev, e->ops[0], &a)) != WGP_EVAL_OK)
      return st;
    return wgp_x_unary(ev, e, a, out);
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
  return wgp_x_binary(ev, e, a, b, out);
}

static unsigned result_width(const wgp_expr *e) {
  switch (e->op) {
  case WGP_OP_EQ: case WGP_OP_NE: case WGP_OP_SLT: case WGP_OP_SLE: case WGP_OP_SGT:
  case WGP_OP_SGE: case WGP_OP_ULT: case WGP_OP_ULE: case WGP_OP_UGT: case WGP_OP_UGE:
  case WGP_OP_NOT:
    return 1;
  case WGP_OP_SELECT: { /* either arm's value: the wider of the two (a model may mix them) */
    unsigned a = result_width(e->ops[1]), b = result_width(e->ops[2]);
    return a > b ? a : b;
  }
  default:
    return e->width;
  }
}

wgp_eval_status wgp_expr_eval(const wgp_expr *e, const wgp_eval_env *env, wgp_eval_result *out) {
  evaluator ev = {env, env ? env->flags : 0, out->reason};
  out->reason[0] = '\0';
  out->value = 0;
  out->width = result_width(e);
  int64_t v = 0;
  wgp_eval_status st = eval(&ev, e, &v);
  if (st == WGP_EVAL_OK)
    out->value = v;
  return st;
}
