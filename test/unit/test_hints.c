/* test_hints.c - source lines as the tools' hints name them
 * (wgp_source_at, wgp_source_at_valid; include/wgperf/hints.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "wgperf/hints.h"

static void test_valid(void **state) {
  (void)state;
  assert_true(wgp_source_at_valid("17"));
  assert_true(wgp_source_at_valid("spmv.cu:17"));
  assert_true(wgp_source_at_valid("/src/a:b/spmv.cu:17"));
  assert_false(wgp_source_at_valid("0"));
  assert_false(wgp_source_at_valid(""));
  assert_false(wgp_source_at_valid("spmv.cu"));
  assert_false(wgp_source_at_valid("spmv.cu:"));
  assert_false(wgp_source_at_valid(":17"));
  assert_false(wgp_source_at_valid("spmv.cu:1x"));
  assert_false(wgp_source_at_valid(NULL));
}

static void test_at(void **state) {
  (void)state;
  const char *src = "test/tune/hints.cu:17";
  assert_true(wgp_source_at(src, "17"));
  assert_true(wgp_source_at(src, "hints.cu:17"));
  assert_true(wgp_source_at(src, "tune/hints.cu:17"));
  assert_true(wgp_source_at(src, "test/tune/hints.cu:17"));
  assert_true(wgp_source_at(src, "/work/test/tune/hints.cu:17")); /* the model's path relative */
  assert_true(wgp_source_at("/work/test/tune/hints.cu:17", "hints.cu:17"));
  assert_false(wgp_source_at(src, "18"));
  assert_false(wgp_source_at(src, "hints.cu:1"));
  assert_false(wgp_source_at(src, "ints.cu:17"));      /* not at a '/' */
  assert_false(wgp_source_at(src, "other/hints.cu:17")); /* another folder */
  assert_false(wgp_source_at(src, "/work/x/hints.cu:17"));
  assert_false(wgp_source_at(NULL, "17"));
  assert_false(wgp_source_at("hints.cu", "17"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_valid),
      cmocka_unit_test(test_at),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
