/* test_expr.c - unit tests of the expression parser, printer and evaluator. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "wgperf/expr.h"

/* ---- helpers ------------------------------------------------------------ */

static wgp_expr *parse_ok(const char *text) {
  wgp_expr *e = NULL;
  wgp_diag d;
  wgp_status st = wgp_expr_parse(text, &e, &d);
  if (st != WGP_OK)
    fail_msg("parse of '%s' failed: %s", text, d.message);
  return e;
}

static void expect_parse_error(const char *text, const char *needle) {
  wgp_expr *e = NULL;
  wgp_diag d;
  d.message[0] = '\0';
  wgp_status st = wgp_expr_parse(text, &e, &d);
  if (st == WGP_OK) {
    wgp_expr_free(e);
    fail_msg("'%s' parsed but should not", text);
  }
  assert_int_equal(st, WGP_ERR_INPUT);
  assert_null(e);
  if (!strstr(d.message, needle))
    fail_msg("error for '%s' is '%s', expected it to mention '%s'", text, d.message, needle);
}

/* Symbols: lid.x=5 lid.y=2 lsz.x=16 grp.x=3 arg.N=100 arg.big=2^40 it.L0=4 rv.L0.1=-7; arg.bad errors. */
static wgp_eval_status lookup(void *user, const wgp_sym *s, int64_t *v, char *reason, size_t size) {
  int *calls = user;
  if (calls)
    (*calls)++;
  switch (s->kind) {
  case WGP_SYM_LID: *v = s->dim == 0 ? 5 : 2; return WGP_EVAL_OK;
  case WGP_SYM_LSZ: *v = 16; return WGP_EVAL_OK;
  case WGP_SYM_GRP: *v = 3; return WGP_EVAL_OK;
  case WGP_SYM_ITER: *v = s->loop == 0 ? 4 : (INT64_C(1) << 40); return WGP_EVAL_OK;
  case WGP_SYM_RECUR: *v = -7; return WGP_EVAL_OK;
  case WGP_SYM_ARG:
    if (strcmp(s->name, "N") == 0) {
      *v = 100;
      return WGP_EVAL_OK;
    }
    if (strcmp(s->name, "big") == 0) {
      *v = INT64_C(1) << 40;
      return WGP_EVAL_OK;
    }
    snprintf(reason, size, "argument '%s' has no value", s->name);
    return WGP_EVAL_ERROR;
  case WGP_SYM_LOAD:
    if (s->index == 7) {
      *v = 11;
      return WGP_EVAL_OK;
    }
    return WGP_EVAL_UNKNOWN;
  default:
    return WGP_EVAL_UNKNOWN;
  }
}

static wgp_eval_status eval_flags(const char *text, unsigned flags, wgp_eval_result *r) {
  wgp_expr *e = parse_ok(text);
  wgp_eval_env env = {lookup, NULL, flags};
  wgp_eval_status st = wgp_expr_eval(e, &env, r);
  wgp_expr_free(e);
  return st;
}

static void expect_eq(const char *text, int64_t want) {
  wgp_eval_result r;
  wgp_eval_status st = eval_flags(text, 0, &r);
  if (st != WGP_EVAL_OK)
    fail_msg("'%s' did not evaluate: %s", text, r.reason);
  if (r.value != want)
    fail_msg("'%s' = %lld, expected %lld", text, (long long)r.value, (long long)want);
}

static void expect_unk(const char *text, const char *needle) {
  wgp_eval_result r;
  wgp_eval_status st = eval_flags(text, 0, &r);
  if (st != WGP_EVAL_UNKNOWN)
    fail_msg("'%s' gave status %d (value %lld), expected unknown", text, (int)st, (long long)r.value);
  if (!strstr(r.reason, needle))
    fail_msg("reason for '%s' is '%s', expected it to mention '%s'", text, r.reason, needle);
}

/* ---- parser ------------------------------------------------------------- */

static const char *const round_trip_cases[] = {
    "0", "-1", "9223372036854775807", "-9223372036854775808", "lid.x", "grp.y", "lsz.z", "ngrp.x", "gid.y",
    "gsz.z", "goff.x", "wdim", "laneid", "warpsize", "arg.N", "arg.my_arg2", "it.L0", "it.L12", "rv.L3.0",
    "rv.L10.7", "?", "?phi", "?call.foo", "?global.x.y",
    "(add 1 2)", "(add 1 2 3 4)", "(add:32 1 it.L0)", "(add:32:nsw 1 2)", "(add:32:nuw 1 2)",
    "(add:nsw:nuw 1 (zext:32:64 (add:32:nsw -1 (sdiv:32 arg.N 16))))", "(sub:16:nsw 1 2)", "(mul:8 1 2 3)",
    "(udiv 1 2)", "(sdiv:32 1 2)", "(urem:64 1 2)", "(srem:7 1 2)", "(shl:32:nsw:nuw 1 2)", "(lshr 1 2)",
    "(ashr:32 1 2)", "(and:1 1 0)", "(or 1 2 4)", "(xor:32 1 2)", "(smin 1 2)", "(smax:32 1 2 3)",
    "(umin:1 1 0)", "(umax 1 2)", "(abs:32 -5)", "(zext:1:32 1)", "(sext:8:64 1)", "(trunc:64:32 lid.x)",
    "(trunc:32:32 1)", "(eq:32 1 2)", "(ne 1 2)", "(slt:32 1 2)", "(sle 1 2)", "(sgt:32 arg.N 15)",
    "(sge 1 2)", "(ult 1 2)", "(ule 1 2)", "(ugt 1 2)", "(uge:8 1 2)", "(not (eq 1 2))",
    "(select (slt 1 2) lid.x lid.y)", "(addrec it.L0 1 2 3)", "(addrec:32:nsw it.L1 0 1 1)",
    "(load M0)", "(load M123)", "(mul:nsw 4 (sext:32:64 (load M3)))", "(fadd ?fconst (load M1))",
    "(fsub 1 2)", "(fmul 1 2)", "(fdiv 1 2)", "(frem 1 2)", "(sitofp 1)", "(uitofp 1)", "(fptosi 1)",
    "(fptoui 1)", "(fogt (load M0) ?fconst)", "(fult 1 2)", "(foeq 1 2)", "(fune 1 2)", "(ftrue 1 2)",
    "(ffalse 1 2)", "(ford 1 2)", "(funo 1 2)",
};

static void test_parse_round_trip(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof round_trip_cases / sizeof round_trip_cases[0]; i++) {
    wgp_expr *e = parse_ok(round_trip_cases[i]);
    char *s = wgp_expr_to_string(e);
    assert_non_null(s);
    if (strcmp(s, round_trip_cases[i]) != 0)
      fail_msg("round trip of '%s' gave '%s'", round_trip_cases[i], s);
    free(s);
    wgp_expr_free(e);
  }
}

static void test_parse_whitespace(void **state) {
  (void)state;
  wgp_expr *e = parse_ok("  (add:32\t1\n  (mul 2 lid.x) )  ");
  char buf[64];
  wgp_expr_print(e, buf, sizeof buf);
  assert_string_equal(buf, "(add:32 1 (mul 2 lid.x))");
  wgp_expr_free(e);
}

static void test_parse_structure(void **state) {
  (void)state;
  wgp_expr *e = parse_ok("(add:32:nsw:nuw (zext:8:64 arg.N) rv.L2.5 (load M4) -3)");
  assert_int_equal(wgp_expr_get_op(e), WGP_OP_ADD);
  assert_string_equal(wgp_expr_op_name(e), "add");
  assert_int_equal(wgp_expr_width(e), 32);
  assert_int_equal(wgp_expr_flags(e), WGP_EXPR_NSW | WGP_EXPR_NUW);
  assert_int_equal(wgp_expr_num_operands(e), 4);
  const wgp_expr *z = wgp_expr_operand(e, 0);
  assert_int_equal(wgp_expr_get_op(z), WGP_OP_ZEXT);
  assert_int_equal(wgp_expr_from_width(z), 8);
  assert_int_equal(wgp_expr_width(z), 64);
  const wgp_sym *arg = wgp_expr_symbol(wgp_expr_operand(z, 0));
  assert_non_null(arg);
  assert_int_equal(arg->kind, WGP_SYM_ARG);
  assert_string_equal(arg->name, "N");
  const wgp_sym *rv = wgp_expr_symbol(wgp_expr_operand(e, 1));
  assert_int_equal(rv->kind, WGP_SYM_RECUR);
  assert_int_equal(rv->loop, 2);
  assert_int_equal(rv->index, 5);
  assert_int_equal(wgp_expr_get_op(wgp_expr_operand(e, 2)), WGP_OP_LOAD);
  assert_int_equal(wgp_expr_int(wgp_expr_operand(e, 2)), 4);
  assert_int_equal(wgp_expr_int(wgp_expr_operand(e, 3)), -3);
  assert_null(wgp_expr_operand(e, 4));
  assert_null(wgp_expr_symbol(e));
  wgp_expr_free(e);

  e = parse_ok("gid.z");
  assert_int_equal(wgp_expr_symbol(e)->kind, WGP_SYM_GID);
  assert_int_equal(wgp_expr_symbol(e)->dim, 2);
  wgp_expr_free(e);
  e = parse_ok("(fogt 1 2)");
  assert_int_equal(wgp_expr_get_op(e), WGP_OP_FLOAT);
  assert_string_equal(wgp_expr_op_name(e), "fogt");
  wgp_expr_free(e);
}

static void test_parse_errors(void **state) {
  (void)state;
  expect_parse_error("", "empty expression");
  expect_parse_error("   ", "empty expression");
  expect_parse_error("(add 1 2", "missing ')'");
  expect_parse_error("(add 1 (mul 2 3)", "missing ')'");
  expect_parse_error("(add 1 2))", "unbalanced ')'");
  expect_parse_error(")", "unexpected ')'");
  expect_parse_error("1 2", "trailing text");
  expect_parse_error("()", "missing operation");
  expect_parse_error("( add 1 2)", "missing operation");
  expect_parse_error("(foo 1 2)", "unknown operation 'foo'");
  expect_parse_error("(Add 1 2)", "unknown operation");
  expect_parse_error("(add 1)", "at least 2 operands");
  expect_parse_error("(sub 1 2 3)", "needs 2 operands");
  expect_parse_error("(select 1 2)", "needs 3 operands");
  expect_parse_error("(not)", "needs 1 operand");
  expect_parse_error("(addrec it.L0 1)", "at least 3 operands");
  expect_parse_error("(addrec lid.x 1 2)", "iteration symbol");
  expect_parse_error("(add:65 1 2)", "bad bit width");
  expect_parse_error("(add:0 1 2)", "bad bit width");
  expect_parse_error("(add:032 1 2)", "bad bit width");
  expect_parse_error("(add:nuw:nsw 1 2)", "unexpected suffix ':nsw'");
  expect_parse_error("(add:nsw:32 1 2)", "unexpected suffix ':32'");
  expect_parse_error("(add:nsw:nsw 1 2)", "unexpected suffix");
  expect_parse_error("(add: 1 2)", "unexpected suffix ':' on 'add'");
  expect_parse_error("(udiv:nsw 1 2)", "unexpected suffix ':nsw'");
  expect_parse_error("(select:32 1 2 3)", "unexpected suffix");
  expect_parse_error("(zext 1)", "':FROM:TO'");
  expect_parse_error("(zext:32 1)", "':FROM:TO'");
  expect_parse_error("(zext:64:32 1)", "does not widen");
  expect_parse_error("(trunc:32:64 1)", "does not narrow");
  expect_parse_error("(sext:32:65 1)", "':FROM:TO'");
  expect_parse_error("99999999999999999999", "out of 64-bit range");
  expect_parse_error("9223372036854775808", "out of 64-bit range");
  expect_parse_error("-9223372036854775809", "out of 64-bit range");
  expect_parse_error("007", "non-canonical");
  expect_parse_error("-0", "non-canonical");
  expect_parse_error("12abc", "bad integer");
  expect_parse_error("bogus", "unknown symbol 'bogus'");
  expect_parse_error("lid.w", "unknown symbol");
  expect_parse_error("lid", "unknown symbol");
  expect_parse_error("arg.", "unknown symbol");
  expect_parse_error("it.L", "unknown symbol");
  expect_parse_error("it.L01", "unknown symbol");
  expect_parse_error("it.Lx", "unknown symbol");
  expect_parse_error("rv.L1", "unknown symbol");
  expect_parse_error("rv.L1.", "unknown symbol");
  expect_parse_error("(load X1)", "access M<k>");
  expect_parse_error("(load M)", "access M<k>");
  expect_parse_error("(load M1 M2)", "1 operand");
  expect_parse_error("(load M1", "missing ')'");
  expect_parse_error("M1", "unknown symbol");
  expect_parse_error("(add (load M1) M2)", "unknown symbol 'M2'");
}

static char *nested(int depth) {
  size_t n = (size_t)depth * 5 + 8 + (size_t)depth;
  char *s = malloc(n);
  assert_non_null(s);
  s[0] = '\0';
  for (int i = 0; i < depth; i++)
    strcat(s, "(not ");
  strcat(s, "0");
  for (int i = 0; i < depth; i++)
    strcat(s, ")");
  return s;
}

static void test_parse_depth_limit(void **state) {
  (void)state;
  char *ok = nested(WGP_EXPR_MAX_DEPTH);
  wgp_expr *e = parse_ok(ok);
  wgp_eval_result r;
  wgp_eval_env env = {NULL, NULL, 0};
  assert_int_equal(wgp_expr_eval(e, &env, &r), WGP_EVAL_OK);
  assert_int_equal(r.value, WGP_EXPR_MAX_DEPTH % 2 == 0 ? 0 : 1);
  wgp_expr_free(e);
  free(ok);
  char *deep = nested(WGP_EXPR_MAX_DEPTH + 1);
  expect_parse_error(deep, "nested deeper");
  free(deep);
  char *very = nested(100000);
  expect_parse_error(very, "nested deeper");
  free(very);
}

static void test_print_truncation(void **state) {
  (void)state;
  wgp_expr *e = parse_ok("(add:32 lid.x 12345)");
  char buf[8];
  size_t n = wgp_expr_print(e, buf, sizeof buf);
  assert_int_equal(n, strlen("(add:32 lid.x 12345)"));
  assert_string_equal(buf, "(add:32");
  assert_int_equal(wgp_expr_print(e, NULL, 0), n);
  wgp_expr_free(e);
}

static void test_uses(void **state) {
  (void)state;
  static const struct {
    const char *text;
    unsigned uses;
  } cases[] = {
      {"42", 0},
      {"(add lid.x arg.N)", WGP_USES_WORK_ITEM | WGP_USES_ARG},
      {"(mul gid.y lsz.x)", WGP_USES_WORK_ITEM | WGP_USES_LAUNCH},
      {"(add laneid warpsize)", WGP_USES_WORK_ITEM | WGP_USES_LAUNCH},
      {"(slt it.L0 rv.L1.0)", WGP_USES_LOOP},
      {"(mul 4 (load M1))", WGP_USES_DATA},
      {"(fogt 1 2)", WGP_USES_DATA},
      {"(add ?phi grp.x)", WGP_USES_UNKNOWN | WGP_USES_WORK_ITEM},
      {"(select (eq ngrp.x 1) goff.x (addrec it.L2 wdim gsz.x))", WGP_USES_LAUNCH | WGP_USES_LOOP},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    wgp_expr *e = parse_ok(cases[i].text);
    if (wgp_expr_uses(e) != cases[i].uses)
      fail_msg("uses of '%s' = %#x, expected %#x", cases[i].text, wgp_expr_uses(e), cases[i].uses);
    wgp_expr_free(e);
  }
}

/* ---- evaluator ---------------------------------------------------------- */

static void test_eval_arith(void **state) {
  (void)state;
  expect_eq("(add 1 2 3)", 6);
  expect_eq("(sub 1 10)", -9);
  expect_eq("(mul -3 4 5)", -60);
  expect_eq("(add lid.x (mul lsz.x grp.x))", 53);
  expect_eq("(add:32 2147483647 1)", INT32_MIN);
  expect_eq("(mul:32 65536 65536)", 0);
  expect_eq("(sub:32 -2147483648 1)", INT32_MAX);
  expect_eq("(add:8 127 1)", -128);
  expect_eq("(add:32 1 it.L0)", 5);
  expect_eq("(add:32 4294967296 7)", 7); /* operands read at 32 bits */
  expect_eq("(and:32 -1 255)", 255);
  expect_eq("(or 1 2 4)", 7);
  expect_eq("(xor:8 255 1)", -2);
  expect_eq("(and:1 1 1)", 1); /* 1-bit results are 0/1, not -1 */
}

static void test_eval_wrap_flags(void **state) {
  (void)state;
  expect_unk("(add:32:nsw 2147483647 1)", "nsw");
  expect_eq("(add:32:nsw 2147483646 1)", INT32_MAX);
  expect_unk("(add:32:nuw -1 1)", "nuw");
  expect_eq("(add:32:nuw 2147483647 1)", INT32_MIN); /* unsigned fits, signed wraps */
  expect_unk("(sub:32:nuw 1 2)", "nuw");
  expect_eq("(sub:32:nsw 1 2)", -1);
  expect_unk("(mul:16:nsw 256 128)", "nsw");
  expect_eq("(mul:16 256 128)", INT16_MIN);
  expect_unk("(mul:nsw 4294967296 4294967296)", "nsw");
  expect_unk("(add:nuw -1 1)", "nuw");
  expect_eq("(add:nsw -1 1)", 0);
}

static void test_eval_overflow64(void **state) {
  (void)state;
  wgp_eval_result r;
  expect_unk("(add 9223372036854775807 1)", "64-bit overflow");
  expect_unk("(mul 4294967296 4294967296)", "64-bit overflow");
  expect_unk("(sub -9223372036854775808 1)", "64-bit overflow");
  expect_unk("(shl 1 63)", "64-bit overflow");
  expect_unk("(abs -9223372036854775808)", "64-bit overflow");
  expect_unk("(mul arg.big arg.big)", "64-bit overflow");
  assert_int_equal(eval_flags("(add 9223372036854775807 1)", WGP_EVAL_WRAP64, &r), WGP_EVAL_OK);
  assert_int_equal(r.value, INT64_MIN);
  assert_int_equal(eval_flags("(mul 4294967296 4294967296)", WGP_EVAL_WRAP64, &r), WGP_EVAL_OK);
  assert_int_equal(r.value, 0);
  assert_int_equal(eval_flags("(abs -9223372036854775808)", WGP_EVAL_WRAP64, &r), WGP_EVAL_OK);
  assert_int_equal(r.value, INT64_MIN);
  /* nsw is about the promise, not the flag-free rule */
  assert_int_equal(eval_flags("(add:nsw 9223372036854775807 1)", WGP_EVAL_WRAP64, &r), WGP_EVAL_UNKNOWN);
}

static void test_eval_casts(void **state) {
  (void)state;
  expect_eq("(zext:32:64 -1)", INT64_C(4294967295));
  expect_eq("(sext:32:64 4294967295)", -1);
  expect_eq("(sext:8:64 255)", -1);
  expect_eq("(sext:8:32 127)", 127);
  expect_eq("(zext:8:32 -1)", 255);
  expect_eq("(zext:1:32 1)", 1);
  expect_eq("(sext:1:32 1)", -1);
  expect_eq("(trunc:64:32 4294967297)", 1);
  expect_eq("(trunc:64:8 200)", -56);
  expect_eq("(trunc:32:1 3)", 1);
  expect_eq("(trunc:32:1 2)", 0);
  expect_eq("(zext:32:64 (add:32 -1 0))", INT64_C(4294967295));
}

static void test_eval_division(void **state) {
  (void)state;
  expect_eq("(sdiv -7 2)", -3);
  expect_eq("(srem -7 2)", -1);
  expect_eq("(sdiv 7 -2)", -3);
  expect_eq("(srem 7 -2)", 1);
  expect_eq("(sdiv:32 -7 2)", -3);
  expect_eq("(udiv -1 2)", INT64_MAX);
  expect_eq("(udiv:32 -1 2)", INT32_MAX);
  expect_eq("(urem:32 -1 10)", 5);
  expect_eq("(urem 7 3)", 1);
  expect_eq("(udiv:8 -2 2)", 127);
  expect_unk("(udiv 1 0)", "division by zero");
  expect_unk("(sdiv 1 0)", "division by zero");
  expect_unk("(urem:32 1 4294967296)", "division by zero"); /* the divisor is 0 at 32 bits */
  expect_unk("(srem 1 (sub 2 2))", "division by zero");
  expect_unk("(sdiv:32 -2147483648 -1)", "overflow");
  expect_unk("(sdiv -9223372036854775808 -1)", "overflow");
  expect_unk("(srem -9223372036854775808 -1)", "overflow");
  expect_eq("(sdiv:64 -9223372036854775808 1)", INT64_MIN);
}

static void test_eval_shifts(void **state) {
  (void)state;
  expect_eq("(shl:32 1 31)", INT32_MIN);
  expect_eq("(shl 3 4)", 48);
  expect_eq("(lshr:32 -1 28)", 15);
  expect_eq("(lshr -1 60)", 15);
  expect_eq("(ashr:32 -16 2)", -4);
  expect_eq("(ashr -1 63)", -1);
  expect_eq("(ashr:8 -128 7)", -1);
  expect_unk("(shl:32 1 32)", "shift amount 32 >= width 32");
  expect_unk("(lshr 1 64)", "shift amount");
  expect_unk("(ashr:16 1 -1)", "shift amount 65535");
  expect_unk("(shl:32:nuw 3 31)", "nuw");
  expect_unk("(shl:32:nsw 1 31)", "nsw");
  expect_eq("(shl:32:nsw -1 31)", INT32_MIN);
  expect_eq("(shl:32:nuw 1 31)", INT32_MIN);
}

static void test_eval_compare_select(void **state) {
  (void)state;
  wgp_eval_result r;
  expect_eq("(slt:32 -1 0)", 1);
  expect_eq("(ult:32 -1 0)", 0);
  expect_eq("(ugt 0 -1)", 0);
  expect_eq("(eq:8 256 0)", 1);
  expect_eq("(ne 1 1)", 0);
  expect_eq("(sle 2 2)", 1);
  expect_eq("(sgt:32 arg.N 15)", 1);
  expect_eq("(sge:32 4294967295 0)", 0);
  expect_eq("(uge:32 4294967295 0)", 1);
  expect_eq("(ule 3 2)", 0);
  expect_eq("(not 0)", 1);
  expect_eq("(not 5)", 0);
  expect_eq("(select (slt lid.x 10) lid.x lid.y)", 5);
  expect_eq("(select (sgt lid.x 10) lid.x lid.y)", 2);
  /* only the chosen operand is evaluated */
  expect_eq("(select 1 7 (udiv 1 0))", 7);
  /* an unknown condition with equal operands is still known */
  expect_eq("(select (eq (load M1) 0) 3 3)", 3);
  expect_unk("(select (eq (load M1) 0) 3 4)", "load M1");
  assert_int_equal(eval_flags("(slt:32 1 2)", 0, &r), WGP_EVAL_OK);
  assert_int_equal(r.width, 1);
  assert_int_equal(eval_flags("(add:16 1 2)", 0, &r), WGP_EVAL_OK);
  assert_int_equal(r.width, 16);
  /* arms of different widths (fuzz-expr): the result is as wide as the
   * wider arm, so the 32-bit arm's value fits it */
  assert_int_equal(eval_flags("(select (slt 1 0) (add:8 1 2) (add:32 100000 1))", 0, &r), WGP_EVAL_OK);
  assert_int_equal(r.width, 32);
  assert_true(r.value == 100001);
}

static void test_eval_minmax_abs(void **state) {
  (void)state;
  expect_eq("(umin:32 -1 5)", 5);
  expect_eq("(smin:32 -1 5)", -1);
  expect_eq("(umax:32 -1 5)", -1);
  expect_eq("(smax 3 9 -4 7)", 9);
  expect_eq("(umin 3 9 7)", 3);
  expect_eq("(smax:8 200 1)", 1); /* 200 is -56 at 8 bits */
  expect_eq("(abs:32 -5)", 5);
  expect_eq("(abs 5)", 5);
  expect_eq("(abs:32 -2147483648)", INT32_MIN);
  expect_eq("(umin:1 1 0)", 0);
}

static void test_eval_addrec(void **state) {
  (void)state;
  /* 1 + 2*C(4,1) + 3*C(4,2) = 1 + 8 + 18 */
  expect_eq("(addrec it.L0 1 2 3)", 27);
  /* it.L0 = 4: 0 + 0*4 + 1*C(4,2) + 1*C(4,3) = 6 + 4 */
  expect_eq("(addrec it.L0 0 0 1 1)", 10);
  expect_eq("(addrec:8 it.L0 100 10 10)", (int8_t)(100 + 40 + 60));
  expect_unk("(addrec:8:nsw it.L0 100 10 10)", "nsw");
  expect_eq("(addrec it.L1 5 1)", (INT64_C(1) << 40) + 5);
  /* C(2^40, 3) needs 118 bits */
  expect_unk("(addrec it.L1 0 0 0 1)", "binomial");
  expect_unk("(addrec ?loop 1 2)", "unmodelled");
}

static void test_eval_unknowns(void **state) {
  (void)state;
  wgp_eval_result r;
  expect_unk("?phi", "unmodelled value ?phi");
  expect_unk("(add 1 ?)", "unmodelled value ?");
  expect_unk("(mul 4 (load M3))", "load M3");
  expect_eq("(mul 4 (load M7))", 44); /* a binding supplied by the environment */
  expect_unk("(fadd 1 2)", "floating-point");
  expect_unk("(fogt (load M0) ?fconst)", "floating-point");
  /* compares and conversions of whole numbers a float holds exactly: a
   * float argument given as 100 against the plugin's (sitofp N) constants */
  expect_eq("(foeq arg.N (sitofp 100))", 1);
  expect_eq("(fune arg.N (sitofp 100))", 0);
  expect_eq("(fogt arg.N (sitofp 100))", 0);
  expect_eq("(fuge arg.N (sitofp 100))", 1);
  expect_eq("(folt (sitofp -3) (sitofp 2))", 1);
  expect_eq("(fule (sitofp 2) (sitofp -3))", 0);
  expect_eq("(ford arg.N (sitofp 1))", 1);
  expect_eq("(funo arg.N (sitofp 1))", 0);
  expect_eq("(ftrue arg.N (sitofp 1))", 1);
  expect_eq("(ffalse arg.N (sitofp 1))", 0);
  expect_eq("(uitofp 7)", 7);
  expect_eq("(sitofp -16777216)", -16777216);
  expect_unk("(sitofp 16777217)", "beyond what a float holds exactly");
  expect_unk("(uitofp -1)", "beyond what a float holds exactly");
  expect_unk("(foeq arg.big (sitofp 0))", "beyond what a float holds exactly");
  expect_unk("(foeq arg.missing (sitofp 0))", "known only at run time"); /* never an error */
  expect_unk("(foeq arg.N ?fconst)", "known only at run time");
  expect_unk("(fptosi (sitofp 3))", "floating-point");
  expect_unk("laneid", "no value for laneid");
  assert_int_equal(eval_flags("(add 1 arg.missing)", 0, &r), WGP_EVAL_ERROR);
  assert_non_null(strstr(r.reason, "argument 'missing' has no value"));
  expect_eq("(add:32 rv.L0.1 1)", -6);

  /* no environment at all */
  wgp_expr *e = parse_ok("(add lid.x 1)");
  assert_int_equal(wgp_expr_eval(e, NULL, &r), WGP_EVAL_UNKNOWN);
  assert_non_null(strstr(r.reason, "no value for lid.x"));
  wgp_expr_free(e);
  e = parse_ok("(add 40 2)");
  assert_int_equal(wgp_expr_eval(e, NULL, &r), WGP_EVAL_OK);
  assert_int_equal(r.value, 42);
  wgp_expr_free(e);
}

static void test_eval_lookup_calls(void **state) {
  (void)state;
  int calls = 0;
  wgp_expr *e = parse_ok("(add lid.x lid.y (mul 2 lid.x))");
  wgp_eval_env env = {lookup, &calls, 0};
  wgp_eval_result r;
  assert_int_equal(wgp_expr_eval(e, &env, &r), WGP_EVAL_OK);
  assert_int_equal(r.value, 5 + 2 + 10);
  assert_int_equal(calls, 3);
  wgp_expr_free(e);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_parse_round_trip),   cmocka_unit_test(test_parse_whitespace),
      cmocka_unit_test(test_parse_structure),    cmocka_unit_test(test_parse_errors),
      cmocka_unit_test(test_parse_depth_limit),  cmocka_unit_test(test_print_truncation),
      cmocka_unit_test(test_uses),               cmocka_unit_test(test_eval_arith),
      cmocka_unit_test(test_eval_wrap_flags),    cmocka_unit_test(test_eval_overflow64),
      cmocka_unit_test(test_eval_casts),         cmocka_unit_test(test_eval_division),
      cmocka_unit_test(test_eval_shifts),        cmocka_unit_test(test_eval_compare_select),
      cmocka_unit_test(test_eval_minmax_abs),    cmocka_unit_test(test_eval_addrec),
      cmocka_unit_test(test_eval_unknowns),      cmocka_unit_test(test_eval_lookup_calls),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
