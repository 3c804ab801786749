/* test_driver_temp.c - where the tools' temporary files go
 * (wgp_temp_template, include/wgperf/driver.h): $TMPDIR when it is a folder
 * the process may write in, else /tmp; a template that fits its buffer or
 * none. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "wgperf/driver.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char scratch[64];

static int setup(void **state) {
  (void)state;
  snprintf(scratch, sizeof scratch, "/tmp/wgperf-test-temp-XXXXXX");
  return mkdtemp(scratch) ? 0 : -1;
}

static int teardown(void **state) {
  (void)state;
  char file[128];
  snprintf(file, sizeof file, "%s/file", scratch);
  unlink(file);
  rmdir(scratch);
  unsetenv("TMPDIR");
  return 0;
}

static void expect(const char *tmpdir, const char *want) {
  if (tmpdir)
    setenv("TMPDIR", tmpdir, 1);
  else
    unsetenv("TMPDIR");
  char buf[PATH_MAX];
  assert_true(wgp_temp_template(buf, sizeof buf, "wgx", ".json"));
  assert_string_equal(buf, want);
}

static void test_tmpdir_taken(void **state) {
  (void)state;
  char want[128], slashes[128];
  snprintf(want, sizeof want, "%s/wgx-XXXXXX.json", scratch);
  expect(scratch, want);
  snprintf(slashes, sizeof slashes, "%s///", scratch); /* trailing slashes dropped */
  expect(slashes, want);
  expect("/", "/wgx-XXXXXX.json");
  expect("//", "/wgx-XXXXXX.json");
}

static void test_falls_back_to_tmp(void **state) {
  (void)state;
  char file[128], none[128];
  snprintf(file, sizeof file, "%s/file", scratch);
  FILE *f = fopen(file, "w");
  assert_non_null(f);
  fclose(f);
  snprintf(none, sizeof none, "%s/none", scratch);
  expect(NULL, "/tmp/wgx-XXXXXX.json");
  expect("", "/tmp/wgx-XXXXXX.json");
  expect(file, "/tmp/wgx-XXXXXX.json"); /* not a folder */
  expect(none, "/tmp/wgx-XXXXXX.json"); /* not there */
}

static void test_fits_or_fails(void **state) {
  (void)state;
  setenv("TMPDIR", scratch, 1);
  char small[32], tiny[8];
  /* the scratch folder's template does not fit 32 bytes, /tmp's does */
  assert_true(wgp_temp_template(small, sizeof small, "wgx", ""));
  assert_string_equal(small, "/tmp/wgx-XXXXXX");
  assert_false(wgp_temp_template(tiny, sizeof tiny, "wgx", ""));
  /* what the template names can be made */
  char dir[PATH_MAX];
  assert_true(wgp_temp_template(dir, sizeof dir, "wgx", ""));
  assert_non_null(mkdtemp(dir));
  assert_int_equal(strncmp(dir, scratch, strlen(scratch)), 0);
  assert_int_equal(rmdir(dir), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_tmpdir_taken),
      cmocka_unit_test(test_falls_back_to_tmp),
      cmocka_unit_test(test_fits_or_fails),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
