/* test_tune_defines.c - a configuration's definitions as Kernel Tuner gives
 * them (tune/defines.c): the header of stand-ins, their -D values, the
 * loop_unroll_factor pragmas taken out at 0, and what loop pragmas read that
 * clang -E leaves unexpanded. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "defines_internal.h"
#include "wgperf/tune.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static wgp_tune_space *load(const char *language, wgp_diag *d) {
  char text[2048];
  snprintf(text, sizeof text,
           "{\"ConfigurationSpace\": {\"TuningParameters\": ["
           "{\"Name\": \"block_size_x\", \"Values\": \"[32, 64]\"},"
           "{\"Name\": \"loop_unroll_factor_k\", \"Values\": \"[0, 4]\"},"
           "{\"Name\": \"loop_unroll_factor_j\", \"Values\": \"[0, 2]\"},"
           "{\"Name\": \"grid_width\", \"Values\": \"[4096]\"}]},"
           "\"KernelSpecification\": {\"Language\": \"%s\", \"KernelName\": \"k\", \"KernelFile\": \"k.cu\","
           "\"ProblemSize\": [4096], \"GridDivX\": [\"block_size_x\"],"
           "\"Arguments\": [{\"Name\": \"out\", \"Type\": \"float\", \"MemoryType\": \"Vector\", \"Size\": 4096}]}}",
           language);
  wgp_tune_space *s = NULL;
  if (wgp_tune_space_load_string(text, strlen(text), "t.json", "/spaces", &s, d) != WGP_OK)
    return NULL;
  return s;
}

/* load() of LANGUAGE's space, the test failing with the reader's message when it does not load. */
static wgp_tune_space *space(const char *language) {
  wgp_diag d;
  wgp_tune_space *s = load(language, &d);
  if (!s)
    fail_msg("%s", d.message);
  return s;
}

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  char *buf = calloc(1, 65536);
  if (buf)
    fread(buf, 1, 65535, f);
  fclose(f);
  return buf;
}

/* The header: every name to its stand-in, the launch's names where no
 * parameter has them, CUDA's loop_unroll_factor parameters as constexpr ints
 * (OpenCL's as macros), kernel_tuner 1; the same file for the same space. */
static void header_and_defines(void **state) {
  (void)state;
  wgp_diag d;
  wgp_tune_space *s = space("CUDA");
  char dir[] = "/tmp/wgperf-test-defines-XXXXXX";
  assert_non_null(mkdtemp(dir));
  char path[4096], again[4096];
  assert_int_equal(kt_header(s, dir, path, sizeof path, &d), WGP_OK);
  char *h = slurp(path);
  assert_non_null(h);
  assert_non_null(strstr(h, "#define grid_size_x __wgtune_grid_size_x\n"));
  assert_non_null(strstr(h, "#define block_size_y __wgtune_block_size_y\n"));
  const char *first = strstr(h, "#define block_size_x ");
  assert_non_null(first);
  assert_null(strstr(first + 1, "#define block_size_x ")); /* once: the parameter's */
  assert_non_null(strstr(h, "#define grid_width __wgtune_grid_width\n"));
  assert_non_null(strstr(h, "constexpr int loop_unroll_factor_k = __wgtune_loop_unroll_factor_k;\n"));
  assert_non_null(strstr(h, "#define kernel_tuner 1\n"));
  assert_int_equal(kt_header(s, dir, again, sizeof again, &d), WGP_OK);
  assert_string_equal(path, again);
  /* the values of configuration (64, 0, 2, 4096) launched on 64 blocks */
  size_t n = kt_num_defines(s);
  assert_int_equal(n, 5 + 4); /* grid x/y/z, block y/z, four parameters */
  uint16_t v[4] = {1, 0, 1, 0};
  wgp_tune_launch l = {.grid = {64, 1, 1}, .block = {64, 1, 1}};
  char **f = calloc(n, sizeof *f);
  assert_true(kt_defines(s, v, &l, f));
  assert_string_equal(f[0], "-D__wgtune_grid_size_x=64");
  assert_string_equal(f[3], "-D__wgtune_block_size_y=1");
  assert_string_equal(f[5], "-D__wgtune_block_size_x=64");
  assert_string_equal(f[6], "-D__wgtune_loop_unroll_factor_k=0");
  assert_string_equal(f[8], "-D__wgtune_grid_width=4096");
  for (size_t i = 0; i < n; i++)
    free(f[i]);
  free(f);
  /* k at 0 and j at 2: bit 0; both at 0: bits 0 and 1 */
  assert_int_equal(kt_unroll_zeros(s, v), 1u);
  uint16_t both[4] = {0, 0, 0, 0};
  assert_int_equal(kt_unroll_zeros(s, both), 3u);
  unlink(path);
  free(h);
  wgp_tune_space_free(s);
  /* OpenCL: macros, and no zeros taken out */
  s = space("OpenCL");
  assert_int_equal(kt_header(s, dir, path, sizeof path, &d), WGP_OK);
  h = slurp(path);
  assert_non_null(strstr(h, "#define loop_unroll_factor_k __wgtune_loop_unroll_factor_k\n"));
  assert_null(strstr(h, "constexpr"));
  assert_int_equal(kt_unroll_zeros(s, both), 0u);
  unlink(path);
  rmdir(dir);
  free(h);
  wgp_tune_space_free(s);
}

/* Only the pragmas of the parameters at 0, matched whole, at a line's start;
 * every line kept. */
static void strip_unroll(void **state) {
  (void)state;
  wgp_tune_space *s = space("CUDA");
  const char *text = "a\n"
                     "  #pragma unroll loop_unroll_factor_k\n"
                     "\t#pragma  unroll\tloop_unroll_factor_k // k\n"
                     "#pragma unroll loop_unroll_factor_j\n"
                     "#pragma unroll loop_unroll_factor_kk\n"
                     "x = 1; #pragma unroll loop_unroll_factor_k\n"
                     "#pragma unroll 4\n"
                     "#pragma unroll loop_unroll_factor_k";
  size_t n;
  char *out = kt_strip_unroll(s, 1u, text, strlen(text), &n);
  assert_non_null(out);
  assert_string_equal(out, "a\n"
                           "  \n"
                           "\t // k\n"
                           "#pragma unroll loop_unroll_factor_j\n"
                           "#pragma unroll loop_unroll_factor_kk\n"
                           "x = 1; #pragma unroll loop_unroll_factor_k\n"
                           "#pragma unroll 4\n");
  assert_int_equal(n, strlen(out));
  free(out);
  out = kt_strip_unroll(s, 0u, text, strlen(text), &n);
  assert_string_equal(out, text);
  free(out);
  wgp_tune_space_free(s);
}

/* What loop pragmas read: the names' values; every name's for an identifier
 * that is none of them; nothing for other pragmas or a pragma's own words. */
static void pragma_key(void **state) {
  (void)state;
  wgp_tune_space *s = space("OpenCL");
  uint16_t v[4] = {1, 1, 0, 0};
  wgp_tune_launch l = {.grid = {64, 1, 1}, .block = {64, 1, 1}};
  const char *none = "#pragma unroll\n#pragma unroll 4u\n#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
                     "#pragma clang loop unroll(full) vectorize(enable)\nint x = loop_unroll_factor_k;\n";
  char *k = kt_pragma_key(s, v, &l, none, strlen(none));
  assert_non_null(k);
  assert_string_equal(k, "");
  free(k);
  const char *named = "  #pragma unroll loop_unroll_factor_k\n#pragma clang loop unroll_count(grid_size_x)\n";
  k = kt_pragma_key(s, v, &l, named, strlen(named));
  assert_string_equal(k, "loop_unroll_factor_k=4;grid_size_x=64;");
  free(k);
  const char *macro = "#pragma unroll UNROLL\n";
  k = kt_pragma_key(s, v, &l, macro, strlen(macro));
  assert_non_null(strstr(k, "all:"));
  assert_non_null(strstr(k, "block_size_x=64;"));
  assert_non_null(strstr(k, "loop_unroll_factor_j=0;"));
  free(k);
  wgp_tune_space_free(s);
}

/* The text the compile reads: the names loop pragmas read replaced by their
 * values, a kernel's macro kept; nothing to replace, no copy. */
static void expand_pragmas(void **state) {
  (void)state;
  wgp_tune_space *s = space("OpenCL");
  uint16_t v[4] = {1, 1, 0, 0};
  wgp_tune_launch l = {.grid = {64, 1, 1}, .block = {64, 1, 1}};
  const char *text = "int a = loop_unroll_factor_k;\n"
                     "  #pragma unroll loop_unroll_factor_k\n"
                     "#pragma clang loop unroll_count(grid_size_x) vectorize(enable)\n"
                     "#pragma unroll UNROLL // loop_unroll_factor_j\n"
                     "#pragma unroll loop_unroll_factor_j";
  size_t n = 0;
  char *out = kt_expand_pragmas(s, v, &l, text, strlen(text), &n);
  assert_non_null(out);
  assert_string_equal(out, "int a = loop_unroll_factor_k;\n"
                           "  #pragma unroll 4\n"
                           "#pragma clang loop unroll_count(64) vectorize(enable)\n"
                           "#pragma unroll UNROLL // 0\n"
                           "#pragma unroll 0");
  assert_int_equal(n, strlen(out));
  free(out);
  const char *none = "#pragma unroll\n#pragma unroll 4\nint x = loop_unroll_factor_k;\n";
  assert_null(kt_expand_pragmas(s, v, &l, none, strlen(none), &n));
  wgp_tune_space_free(s);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(header_and_defines),
      cmocka_unit_test(strip_unroll),
      cmocka_unit_test(pragma_key),
      cmocka_unit_test(expand_pragmas),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
