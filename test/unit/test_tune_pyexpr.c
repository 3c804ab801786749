/* test_tune_pyexpr.c - the Python expression subset of T1 space files
 * (tune/pyexpr*.c): Python 3's results for the operators, the displays and
 * comprehensions the files use, and an error with a column for everything
 * else. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "pyexpr_internal.h"

#include <stdio.h>
#include <string.h>

/* a = 6, b = 4, f = 2.5, s = "ab"; P's values are [3, 9, 1] (for max(P)) */
static bool find(void *user, const char *name, pyx_value *out) {
  (void)user;
  static pyx_value vals[3] = {{.kind = PYX_INT, .i = 3}, {.kind = PYX_INT, .i = 9}, {.kind = PYX_INT, .i = 1}};
  if (strcmp(name, "a") == 0)
    *out = (pyx_value){.kind = PYX_INT, .i = 6};
  else if (strcmp(name, "b") == 0)
    *out = (pyx_value){.kind = PYX_INT, .i = 4};
  else if (strcmp(name, "f") == 0)
    *out = (pyx_value){.kind = PYX_FLOAT, .f = 2.5};
  else if (strcmp(name, "s") == 0)
    *out = (pyx_value){.kind = PYX_STR, .s = "ab"};
  else if (strcmp(name, "P") == 0)
    *out = vals[0];
  else if (strcmp(name, "L") == 0)
    *out = (pyx_value){.kind = PYX_LIST, .n = 3, .items = vals};
  else
    return false;
  return true;
}

static bool values(void *user, const char *name, pyx_value *out) {
  (void)user;
  static pyx_value vals[3] = {{.kind = PYX_INT, .i = 3}, {.kind = PYX_INT, .i = 9}, {.kind = PYX_INT, .i = 1}};
  if (strcmp(name, "P") != 0)
    return false;
  *out = (pyx_value){.kind = PYX_LIST, .n = 3, .items = vals};
  return true;
}

static const pyx_env env = {find, values, NULL};

/* TEXT's value as Python's str() writes it (lists as repr), or "ERR: ..." */
static void result(const char *text, char *buf, size_t size) {
  char err[PYX_ERR_SIZE];
  pyx_expr *e = pyx_parse(text, err);
  if (!e) {
    snprintf(buf, size, "ERR: %s", err);
    return;
  }
  pyx_arena *a = pyx_arena_new();
  pyx_value v;
  if (!pyx_eval(e, &env, a, &v, NULL, err))
    snprintf(buf, size, "ERR: %s", err);
  else if (!pyx_str(&v, buf, size))
    snprintf(buf, size, "ERR: too long");
  pyx_arena_free(a);
  pyx_free(e);
}

#define EXPECT(text, want)                                                                                           \
  do {                                                                                                               \
    char got[512];                                                                                                   \
    result(text, got, sizeof got);                                                                                   \
    if (strcmp(got, want) != 0)                                                                                      \
      fail_msg("%s: got '%s', want '%s'", text, got, want);                                                          \
  } while (0)

static void arithmetic(void **state) {
  (void)state;
  EXPECT("1 + 2 * 3", "7");
  EXPECT("(1 + 2) * 3", "9");
  EXPECT("7 // 2", "3");
  EXPECT("-7 // 2", "-4");
  EXPECT("7 // -2", "-4");
  EXPECT("-7 % 3", "2");
  EXPECT("7 % -3", "-2");
  EXPECT("7 / 2", "3.5");
  EXPECT("6 / 3", "2.0");
  EXPECT("2 ** 10", "1024");
  EXPECT("2 ** -1", "0.5");
  EXPECT("-2 ** 2", "-4");
  EXPECT("2 ** 3 ** 2", "512");
  EXPECT("7.5 // 2", "3.0");
  EXPECT("-7.5 % 2", "0.5");
  EXPECT("True + 1", "2");
  EXPECT("a * b - 1", "23");
  EXPECT("f * 2", "5.0");
  EXPECT("0x10 + 0b11 + 1_000", "1019");
  EXPECT("1e3", "1000.0");
  EXPECT("1e16", "1e+16");
  EXPECT("0.0001", "0.0001");
  EXPECT("0.00001", "1e-05");
  EXPECT("1.5e16", "1.5e+16");
  EXPECT("123456789012345.6", "123456789012345.6");
  EXPECT("0.1 + 0.2", "0.30000000000000004");
  EXPECT("s + 'c'", "abc");
  EXPECT("[1] * 3", "[1, 1, 1]");
  EXPECT("[1, 2] + [3]", "[1, 2, 3]");
  EXPECT("2 ** 62 + (2 ** 62 - 1)", "9223372036854775807");
}

static void logic_and_comparisons(void **state) {
  (void)state;
  EXPECT("1 < 2 < 3", "True");
  EXPECT("1 < 3 < 2", "False");
  EXPECT("a*b>=64", "False");
  EXPECT("a*b<=1024 and b % 2 == 0", "True");
  EXPECT("0 or 5", "5");
  EXPECT("3 and 0", "0");
  EXPECT("not a", "False");
  EXPECT("not (a > 100)", "True");
  EXPECT("a in [1, 6]", "True");
  EXPECT("a not in [1, 6]", "False");
  EXPECT("'a' in s", "True");
  EXPECT("1 == 1.0 == True", "True");
  EXPECT("s == 'ab' != 'x'", "True");
  EXPECT("a if a > b else b", "6");
  EXPECT("a if a < b else b", "4");
  /* Kernel Tuner's gemm restrictions: '/' is true division */
  EXPECT("32 % ((8 * 8) / 32) == 0", "True");
  EXPECT("32 % ((8 * 16) / 32) == 0", "True");
}

static void lists_and_functions(void **state) {
  (void)state;
  EXPECT("[1, 2, 4, 8]", "[1, 2, 4, 8]");
  EXPECT("[]", "[]");
  EXPECT("[1, 2,]", "[1, 2]");
  EXPECT("(1, 2)", "[1, 2]");
  EXPECT("range(4)", "[0, 1, 2, 3]");
  EXPECT("range(2, 10, 3)", "[2, 5, 8]");
  EXPECT("range(5, 0, -2)", "[5, 3, 1]");
  EXPECT("range(3, 3)", "[]");
  EXPECT("[2**i for i in range(5)]", "[1, 2, 4, 8, 16]");
  EXPECT("[i for i in range(1, 20) if i % 4 == 0]", "[4, 8, 12, 16]");
  EXPECT("[i * j for i in range(1, 3) for j in [10, 100]]", "[10, 100, 20, 200]");
  EXPECT("[i for i in range(10) if i % 2 if i > 4]", "[5, 7, 9]");
  EXPECT("[a for a in range(3)]", "[0, 1, 2]");
  EXPECT("a", "6");
  EXPECT("max(3, 7, 5)", "7");
  EXPECT("min([3, 7, 5])", "3");
  EXPECT("max(P)", "9");
  EXPECT("min(P)", "1");
  EXPECT("P", "3");
  EXPECT("max(L)", "9");
  EXPECT("len(range(7))", "7");
  EXPECT("abs(-3)", "3");
  EXPECT("int(7.9)", "7");
  EXPECT("int(-7.9)", "-7");
  EXPECT("float(3)", "3.0");
  EXPECT("sum([1, 2, 3])", "6");
  EXPECT("L[1]", "9");
  EXPECT("L[-1]", "1");
  EXPECT("[16, 32][a // 6]", "32");
  EXPECT("str(12)", "12");
  EXPECT("'x'", "x");
}

static void errors(void **state) {
  (void)state;
  EXPECT("a * c", "ERR: unknown name 'c' at column 5");
  EXPECT("1 // 0", "ERR: division by zero in '//' at column 3");
  EXPECT("a % (b - 4)", "ERR: division by zero in '%' at column 3");
  EXPECT("a / 0.0", "ERR: division by zero in '/' at column 3");
  EXPECT("a && b", "ERR: '&' is not Python here (use 'and', 'or', 'not') at column 3");
  EXPECT("!a", "ERR: '!' is not Python here (use 'and', 'or', 'not') at column 1");
  EXPECT("a = 1", "ERR: '=' is an assignment (compare with '==') at column 3");
  EXPECT("(1 + 2", "ERR: expected ')', got the end at column 7");
  EXPECT("1 +", "ERR: expression ends too early at column 4");
  EXPECT("1 2", "ERR: unexpected '2' at column 3");
  EXPECT("[1, 2][5]", "ERR: index 5 out of range (2 items) at column 8");
  EXPECT("L[0:1]", "ERR: slices are not supported at column 4");
  EXPECT("foo(1)", "ERR: unknown function 'foo' at column 1");
  EXPECT("2 ** 63", "ERR: integer overflow in '**' at column 3");
  EXPECT("9223372036854775807 + 1", "ERR: integer overflow in '+' at column 21");
  EXPECT("'a' < 1", "ERR: '<' is not supported between 'str' and 'int' at column 5");
  EXPECT("'a' - 1", "ERR: unsupported operand types for -: 'str' and 'int' at column 5");
  EXPECT("range(10 ** 9)", "ERR: range() of 1000000000 items (at most 10000000) at column 1");
  EXPECT("lambda x: x", "ERR: 'lambda' is not supported at column 1");
  EXPECT("a is 1", "ERR: 'is' is not supported (use '==') at column 3");
  EXPECT("'abc", "ERR: unterminated string at column 1");
  EXPECT("max([])", "ERR: max() of an empty list at column 1");
  EXPECT("[i for i in 5]", "ERR: 'int' object is not iterable at column 13");
}

/* TEXT evaluated with *STEPS left: true when it succeeded; ERR says why not */
static bool within(const char *text, uint64_t *steps, char err[PYX_ERR_SIZE]) {
  pyx_expr *e = pyx_parse(text, err);
  assert_non_null(e);
  pyx_arena *a = pyx_arena_new();
  pyx_value v;
  bool ok = pyx_eval(e, &env, a, &v, steps, err);
  pyx_arena_free(a);
  pyx_free(e);
  return ok;
}

/* Every evaluation spends steps from a budget (the node, each list item made
 * or walked, each pair of values compared) and stops, with a message, when it
 * runs out: a tuning space's conditions are evaluated for every combination of
 * values, so a heavy one must end with an error, not run for hours. */
static void budget(void **state) {
  (void)state;
  char err[PYX_ERR_SIZE];
  uint64_t steps = 1000;
  assert_true(within("a * b - 1", &steps, err));
  assert_int_equal(steps, 1000 - 5); /* BIN(BIN(a, b), 1): five nodes */
  uint64_t after = steps;
  assert_true(within("max(P) > 1", &steps, err));
  assert_int_equal(steps, after - 3 - 3); /* three nodes (the call's argument is not evaluated) and P's three values */
  /* a shared budget runs out over several evaluations, and stays spent */
  steps = 60;
  assert_true(within("[i for i in range(20)]", &steps, err)); /* 3 nodes, 20 items made, 20 evaluated */
  assert_int_equal(steps, 17);
  assert_false(within("[i for i in range(20)]", &steps, err));
  assert_int_equal(steps, 0);
  assert_string_equal(err, "too much to evaluate (more than 17 steps) at column 13");
  assert_false(within("1", &steps, err));
  /* comparisons of lists of lists pay for every pair compared: a million
   * here, from lists of a few thousand items */
  steps = 100000;
  assert_false(within("[[0] * 1000] * 1000 == [[0] * 1000] * 1000", &steps, err));
  assert_string_equal(err, "too much to evaluate (more than 100000 steps) at column 21");
  steps = 100000;
  assert_false(within("[0] * 999 + [1] in [[0] * 1000] * 1000", &steps, err));
  assert_string_equal(err, "too much to evaluate (more than 100000 steps) at column 17");
  steps = 10000000;
  assert_true(within("[0] * 999 + [1] in [[0] * 1000] * 1000", &steps, err));
  assert_true(steps < 10000000 - 1000000);
  /* without a budget of its own an evaluation has PYX_MAX_STEPS: 36 million
   * items filtered away */
  EXPECT("[0 for x in [range(6000)] for i in x for j in x if 0]",
         "ERR: too much to evaluate (more than 30000000 steps) at column 52");
}

/* free names: what a condition depends on, comprehension variables excluded */
static bool collect(void *user, const char *name, size_t column) {
  char *buf = user;
  char item[64];
  snprintf(item, sizeof item, "%s%s@%zu", *buf ? " " : "", name, column + 1);
  strcat(buf, item);
  return true;
}

static void names(void **state) {
  (void)state;
  char err[PYX_ERR_SIZE], buf[256] = "";
  pyx_expr *e = pyx_parse("KWG % ((MDIMC * NDIMC)/MDIMA) == 0 and [x for x in range(KWI) if x < VWM]", err);
  assert_non_null(e);
  assert_true(pyx_names(e, collect, buf));
  assert_string_equal(buf, "KWG@1 MDIMC@9 NDIMC@17 MDIMA@24 KWI@58 VWM@70");
  pyx_free(e);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(arithmetic), cmocka_unit_test(logic_and_comparisons),
                                     cmocka_unit_test(lists_and_functions), cmocka_unit_test(errors),
                                     cmocka_unit_test(budget), cmocka_unit_test(names)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
