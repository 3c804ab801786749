/* test_driver_instances.c - the source that instantiates a template kernel
 * by name (wgp_instance_source, include/wgperf/driver.h): what it holds, the
 * same file for the same request (not written again), the names it
 * refuses, and an instance's name with the compile's macros expanded. */
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
#include <sys/stat.h>
#include <unistd.h>

static char scratch[64], kernel[128], dir[128];

static int setup(void **state) {
  (void)state;
  snprintf(scratch, sizeof scratch, "/tmp/wgperf-test-inst-XXXXXX");
  if (!mkdtemp(scratch))
    return -1;
  snprintf(kernel, sizeof kernel, "%s/k.cu", scratch);
  snprintf(dir, sizeof dir, "%s/inst", scratch);
  FILE *f = fopen(kernel, "w");
  if (!f)
    return -1;
  fputs("template <typename T> __global__ void k(T *x) { x[threadIdx.x] = T(1); }\n", f);
  return fclose(f);
}

static int teardown(void **state) {
  (void)state;
  char cmd[256];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", scratch);
  return system(cmd) == 0 ? 0 : -1;
}

static char *slurp(const char *path) {
  static char buf[4096];
  FILE *f = fopen(path, "r");
  assert_non_null(f);
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  buf[n] = 0;
  fclose(f);
  return buf;
}

static void test_source_includes_and_instantiates(void **state) {
  (void)state;
  const char *names[2] = {"k<float>", "k<double>"};
  char out[PATH_MAX], want[512];
  wgp_diag d;
  assert_int_equal(wgp_instance_source(kernel, names, 2, dir, out, sizeof out, &d), WGP_OK);
  assert_int_equal(strncmp(out, dir, strlen(dir)), 0);
  assert_non_null(strstr(out, "/wgperf-instances-"));
  const char *text = slurp(out);
  snprintf(want, sizeof want, "#include \"%s\"\n", kernel);
  assert_non_null(strstr(text, want));
  assert_non_null(strstr(text, "static void *const __wgperf_instance_0 = (void *)&k<float>;\n"));
  assert_non_null(strstr(text, "static void *const __wgperf_instance_1 = (void *)&k<double>;\n"));
}

static void test_same_request_same_file(void **state) {
  (void)state;
  const char *names[1] = {"k<int, 4>"};
  char a[PATH_MAX], b[PATH_MAX], c[PATH_MAX];
  wgp_diag d;
  assert_int_equal(wgp_instance_source(kernel, names, 1, dir, a, sizeof a, &d), WGP_OK);
  struct stat s1, s2;
  assert_int_equal(stat(a, &s1), 0);
  usleep(20000);
  /* the same file by another path to it: the same source, not written again */
  char other[PATH_MAX];
  snprintf(other, sizeof other, "%s/../%s/k.cu", scratch, strrchr(scratch, '/') + 1);
  assert_int_equal(wgp_instance_source(other, names, 1, dir, b, sizeof b, &d), WGP_OK);
  assert_string_equal(a, b);
  assert_int_equal(stat(b, &s2), 0);
  assert_true(s1.st_mtim.tv_sec == s2.st_mtim.tv_sec && s1.st_mtim.tv_nsec == s2.st_mtim.tv_nsec);
  /* another instance, another file */
  const char *other_names[1] = {"k<int, 8>"};
  assert_int_equal(wgp_instance_source(kernel, other_names, 1, dir, c, sizeof c, &d), WGP_OK);
  assert_string_not_equal(a, c);
}

static void refused(const char *name, const char *why) {
  const char *names[1] = {name};
  char out[PATH_MAX];
  wgp_diag d;
  assert_int_equal(wgp_instance_source(kernel, names, 1, dir, out, sizeof out, &d), WGP_ERR_INPUT);
  assert_non_null(strstr(d.message, why));
}

static void test_names_refused(void **state) {
  (void)state;
  refused("k<float", "do not pair up");
  refused("k<float>>", "something after the template's arguments");
  refused("<float>", "does not start with the template's name");
  refused("k", "no '<' after the template's name");
  refused("k<float>; int x", "something after the template's arguments");
  refused("k<float;>", "a character template arguments are not written with");
  refused("k<\"s\">", "a character template arguments are not written with");
  assert_true(wgp_is_instance_name("k<float>"));
  assert_false(wgp_is_instance_name("k"));
  assert_false(wgp_is_instance_name(NULL));
  /* what instances are written with passes */
  const char *ok[] = {"k<float>", "ns::k<ns::T, 4>", "k<unsigned int, -1, true>", "::k<float *, 2u>", "k<k2<int>>"};
  char out[PATH_MAX];
  wgp_diag d;
  for (size_t i = 0; i < sizeof ok / sizeof *ok; i++)
    assert_int_equal(wgp_instance_source(kernel, &ok[i], 1, dir, out, sizeof out, &d), WGP_OK);
}

static const char *macros(void *user, const char *name, size_t len) {
  (void)user;
  if (len == 2 && strncmp(name, "BS", 2) == 0)
    return "64";
  if (len == 1 && strncmp(name, "T", 1) == 0)
    return "float";
  return NULL;
}

static void test_expand_macros(void **state) {
  (void)state;
  char out[64];
  assert_true(wgp_instance_expand("scale<T, BS>", macros, NULL, out, sizeof out));
  assert_string_equal(out, "scale<float, 64>");
  /* only the arguments: a template named like a macro stays; BSX is no BS */
  assert_true(wgp_instance_expand("BS<BS, BSX>", macros, NULL, out, sizeof out));
  assert_string_equal(out, "BS<64, BSX>");
  assert_false(wgp_instance_expand("scale<float, 4>", macros, NULL, out, sizeof out));
  assert_false(wgp_instance_expand("scale", macros, NULL, out, sizeof out));
  char small[8];
  assert_false(wgp_instance_expand("scale<T, BS>", macros, NULL, small, sizeof small));
}

static void test_missing_file(void **state) {
  (void)state;
  const char *names[1] = {"k<float>"};
  char out[PATH_MAX], missing[160];
  snprintf(missing, sizeof missing, "%s/none.cu", scratch);
  wgp_diag d;
  assert_int_equal(wgp_instance_source(missing, names, 1, dir, out, sizeof out, &d), WGP_ERR_IO);
  assert_non_null(strstr(d.message, "none.cu: No such file or directory"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_source_includes_and_instantiates),
      cmocka_unit_test(test_same_request_same_file),
      cmocka_unit_test(test_names_refused),
      cmocka_unit_test(test_expand_macros),
      cmocka_unit_test(test_missing_file),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
