/* test_launch.c - launches from the command line and from JSON, and their
 * checks against a kernel. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wgperf/launch.h"
#include "wgperf/metrics.h"

static wgp_model *model;

static int setup(void **state) {
  wgp_diag d;
  (void)state;
  return wgp_model_load_file(WGPERF_SOURCE_DIR "/test/unit/data/trace_kernels.json", &model, &d) == WGP_OK ? 0 : -1;
}

static int teardown(void **state) {
  (void)state;
  wgp_model_free(model);
  return 0;
}

/* Applies OPTS ("--x", "v", ...) and binds to KERNEL; returns the status,
 * the message in D. */
static wgp_status cli(const char *kernel, const char **opts, size_t n, wgp_trace_launch *tl, wgp_diag *d) {
  wgp_launch *l = wgp_launch_new();
  assert_non_null(l);
  wgp_status st = WGP_OK;
  for (size_t i = 0; i < n && st == WGP_OK;) {
    bool val;
    assert_true(wgp_launch_is_option(opts[i], &val));
    st = wgp_launch_set_option(l, opts[i], val ? opts[i + 1] : NULL, d);
    i += val ? 2 : 1;
  }
  uint64_t align[8], local[32];
  if (st == WGP_OK)
    st = wgp_launch_bind(l, wgp_model_find_kernel(model, kernel), tl, align, local, d);
  wgp_launch_free(l);
  return st;
}

static void test_command_line_forms(void **state) {
  (void)state;
  wgp_trace_launch tl;
  wgp_diag d;
  const char *ok[] = {"--global", "1024,1", "--local", "256,1", "--arg", "n=1000", "--buffer", "a=4KiB",
                      "--buffer", "b=4096@512", "--buffer", "c=1M"};
  assert_int_equal(cli("vadd", ok, 12, &tl, &d), WGP_OK);
  assert_int_equal(tl.dims, 2);
  assert_true(tl.global[0] == 1024 && tl.local[0] == 256 && tl.global[2] == 1);
  uint64_t s;
  assert_true(wgp_parse_size("3GiB", &s) && s == 3ull << 30);
  assert_false(wgp_parse_size("3 GiB", &s));
  assert_false(wgp_parse_size("-1", &s));
  const char *local_arg[] = {"--global", "512", "--local", "128", "--local-mem", "scratch=512"};
  assert_int_equal(cli("reduce", local_arg, 6, &tl, &d), WGP_OK);
  const char *nonuni[] = {"--global", "1000", "--local", "256", "--arg", "n=1000", "--nonuniform"};
  assert_int_equal(cli("vadd", nonuni, 7, &tl, &d), WGP_OK);
  /* CUDA style: 4 blocks of 256 are a global size of 1024 */
  const char *cuda[] = {"--grid", "4,2", "--block", "256,1", "--arg", "n=1000"};
  assert_int_equal(cli("vadd", cuda, 6, &tl, &d), WGP_OK);
  assert_true(tl.global[0] == 1024 && tl.global[1] == 2 && tl.local[0] == 256 && tl.dims == 2);
}

static void expect_error(const char *kernel, const char **opts, size_t n, const char *msg) {
  wgp_trace_launch tl;
  wgp_diag d;
  assert_int_equal(cli(kernel, opts, n, &tl, &d), WGP_ERR_INPUT);
  if (!strstr(d.message, msg))
    fail_msg("expected '%s' in '%s'", msg, d.message);
}

static void test_command_line_errors(void **state) {
  (void)state;
  const char *a[] = {"--global", "1000", "--local", "256", "--arg", "n=1"};
  expect_error("vadd", a, 6, "not a multiple of the work-group size 256");
  const char *b[] = {"--global", "1024", "--local", "256"};
  expect_error("vadd", b, 4, "needs a value for its argument 'n' (--arg n=VALUE)");
  const char *c[] = {"--global", "1024", "--local", "256", "--arg", "n=1", "--arg", "m=2"};
  expect_error("vadd", c, 8, "has no argument 'm'");
  const char *d1[] = {"--global", "0", "--local", "1"};
  expect_error("vadd", d1, 4, "sizes must be between 1");
  const char *e[] = {"--global", "1024,1024", "--local", "256", "--arg", "n=1"};
  expect_error("vadd", e, 6, "the global size has 2 dimensions but the work-group size has 1");
  const char *e1[] = {"--global", "1024", "--local", "256,1", "--arg", "n=1"};
  expect_error("vadd", e1, 6, "the global size has 1 dimension but");
  const char *f[] = {"--global", "1,2,3,4"};
  expect_error("vadd", f, 2, "at most 3 dimensions");
  const char *g[] = {"--global", "1024", "--local", "256", "--arg", "n=99999999999"};
  expect_error("vadd", g, 6, "does not fit its 32-bit type");
  const char *h[] = {"--global", "1024", "--local", "256", "--arg", "n=1", "--arg", "n=2"};
  expect_error("vadd", h, 8, "given twice");
  const char *i[] = {"--global", "512", "--local", "128"};
  expect_error("reduce", i, 4, "--local-mem scratch=BYTES");
  const char *j[] = {"--global", "1024", "--local", "256", "--arg", "n=1", "--buffer", "a=4Q"};
  expect_error("vadd", j, 8, "expected BYTES[@ALIGN]");
  const char *k[] = {"--global", "1024", "--local", "256", "--arg", "n=1", "--buffer", "a=64@3"};
  expect_error("vadd", k, 8, "not a power of two");
  const char *l[] = {"--global", "8589934592", "--local", "256", "--arg", "n=1"};
  expect_error("vadd", l, 6, "above 2^32");
  /* an offset near 2^63: global ids would overflow (found by fuzz-launch_json) */
  const char *off[] = {"--global", "1024", "--local", "256", "--arg", "n=1", "--offset", "9223372036854775807"};
  expect_error("vadd", off, 8, "global offset 9223372036854775807 in dimension 0 is above 2^32");
  const char *m[] = {"--global", "256", "--local", "512", "--arg", "n=1"};
  expect_error("vadd", m, 6, "larger than the global size");
  const char *n2[] = {"--global", "1024", "--local", "256", "--arg", "a=1"};
  expect_error("vadd", n2, 6, "is a pointer");
  const char *both[] = {"--global", "1024", "--grid", "4", "--block", "256", "--arg", "n=1"};
  expect_error("vadd", both, 8, "not both");
  /* an integer argument takes an integer; an unsigned one no negative value */
  const char *frac[] = {"--global", "1024", "--local", "256", "--arg", "n=1.5"};
  expect_error("vadd", frac, 6, "argument 'n' of kernel 'vadd' is an integer (int): --arg n=1.5 is not an integer");
}

static void test_cuda_dims_padded(void **state) {
  (void)state;
  wgp_trace_launch tl;
  wgp_diag d;
  /* dim3(256) is 256,1,1: the shorter of --grid and --block is padded with 1s */
  const char *gd[] = {"--grid", "4,4", "--block", "256", "--arg", "n=1"};
  assert_int_equal(cli("vadd", gd, 6, &tl, &d), WGP_OK);
  assert_true(tl.dims == 2 && tl.global[0] == 1024 && tl.global[1] == 4 && tl.local[0] == 256 && tl.local[1] == 1);
  const char *bd[] = {"--grid", "8", "--block", "16,16", "--arg", "n=1"};
  assert_int_equal(cli("vadd", bd, 6, &tl, &d), WGP_OK);
  assert_true(tl.dims == 2 && tl.global[0] == 128 && tl.global[1] == 16 && tl.local[1] == 16);
  /* an exact integer in scientific notation is that integer, known to the
   * analysis */
  wgp_launch *l = wgp_launch_new();
  assert_int_equal(wgp_launch_set_option(l, "--global", "1024", &d), WGP_OK);
  assert_int_equal(wgp_launch_set_option(l, "--local", "256", &d), WGP_OK);
  assert_int_equal(wgp_launch_set_option(l, "--arg", "n=2.5e3", &d), WGP_OK);
  uint64_t align[8], local[32];
  assert_int_equal(wgp_launch_bind(l, wgp_model_find_kernel(model, "vadd"), &tl, align, local, &d), WGP_OK);
  wgp_sym n = {.kind = WGP_SYM_ARG, .name = "n"};
  int64_t v = 0;
  char why[128];
  assert_int_equal(tl.lookup(tl.user, &n, &v, why, sizeof why), WGP_EVAL_OK);
  assert_int_equal(v, 2500);
  wgp_launch_free(l);
}

static void test_command_line_boundaries(void **state) {
  (void)state;
  wgp_trace_launch tl;
  wgp_diag d;
  /* exactly 2^32 work-items in one dimension is a legal launch */
  const char *big[] = {"--global", "4294967296", "--local", "256", "--arg", "n=1"};
  assert_int_equal(cli("vadd", big, 6, &tl, &d), WGP_OK);
  assert_true(tl.global[0] == 1ull << 32);
  const char *bad_num[] = {"--global", "1024", "--local", "256", "--arg", "n=12x"};
  expect_error("vadd", bad_num, 6, "--arg n=12x: not a number");
  /* an integer past 64 bits is an error, not a floating-point value (found by fuzz-launch_cli) */
  const char *huge[] = {"--global", "1024", "--local", "256", "--arg", "n=99999999999999999999"};
  expect_error("vadd", huge, 6, "--arg n=99999999999999999999: out of the 64-bit integer range");
  /* a floating-point value of an integer argument must be an integer a
   * double holds exactly */
  const char *fl[] = {"--global", "1024", "--local", "256", "--arg", "n=1e300"};
  expect_error("vadd", fl, 6, "--arg n=1e300 is not an integer a 64-bit value holds exactly");
  const char *no_eq[] = {"--global", "1024", "--local", "256", "--arg", "n"};
  expect_error("vadd", no_eq, 6, "expected NAME=VALUE");
  const char *zero_buf[] = {"--global", "1024", "--local", "256", "--arg", "n=1", "--buffer", "a=0"};
  expect_error("vadd", zero_buf, 8, "--buffer a: size must be positive");
  const char *no_local[] = {"--global", "1024", "--arg", "n=1"};
  expect_error("vadd", no_local, 4, "no work-group size");
  const char *malformed[] = {"--global", "1024,,2"};
  expect_error("vadd", malformed, 2, "expected sizes like 1024,1024");
  bool val;
  assert_false(wgp_launch_is_option("--globl", &val));
  wgp_launch *l = wgp_launch_new();
  assert_non_null(l);
  assert_int_equal(wgp_launch_set_option(l, "--globl", "x=4", &d), WGP_ERR_INPUT);
  assert_non_null(strstr(d.message, "unknown launch option '--globl'"));
  wgp_launch_free(l);
}

static void test_json(void **state) {
  (void)state;
  wgp_launch *l;
  wgp_diag d;
  const char *good = "{\"global\": [1024], \"local\": [256], \"args\": {\"n\": 1000},"
                     " \"buffers\": {\"a\": \"4MiB\", \"b\": {\"bytes\": 4096, \"align\": 256}, \"c\": 4096}}";
  assert_int_equal(wgp_launch_load_string(good, "l.json", &l, &d), WGP_OK);
  wgp_trace_launch tl;
  uint64_t align[8], local[32];
  assert_int_equal(wgp_launch_bind(l, wgp_model_find_kernel(model, "vadd"), &tl, align, local, &d), WGP_OK);
  assert_true(align[1] == 256);
  wgp_launch_free(l);
  const char *huge_real = "{\"global\": [1024], \"local\": [256], \"args\": {\"n\": -1e300}}";
  assert_int_equal(wgp_launch_load_string(huge_real, "l.json", &l, &d), WGP_OK);
  assert_int_equal(wgp_launch_bind(l, wgp_model_find_kernel(model, "vadd"), &tl, align, local, &d), WGP_ERR_INPUT);
  wgp_launch_free(l);
  struct { const char *text, *msg; } bad[] = {
      {"[1]", "l.json: a launch must be a JSON object"},
      {"{\"global\": [1024], \"lokal\": [2]}", "l.json: unknown key 'lokal'"},
      {"{\"global\": [0]}", "'global'[0] must be a positive integer"},
      {"{\"global\": [1], \"args\": {\"n\": \"x\"}}", "args.n must be a number"},
      {"{\"global\": [1], \"buffers\": {\"a\": {\"bytes\": -1}}}", "buffers.a: expected"},
      {"{\"global\": [1], \"nonuniform\": 1}", "'nonuniform' must be true or false"},
      {"{\"grid\": [4], \"block\": [8], \"local\": [8]}", "'local' and 'block' are the same thing"},
      {"{\"global\": [1,", "l.json:1:"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    assert_int_equal(wgp_launch_load_string(bad[i].text, "l.json", &l, &d), WGP_ERR_INPUT);
    if (!strstr(d.message, bad[i].msg))
      fail_msg("expected '%s' in '%s'", bad[i].msg, d.message);
  }
  assert_int_equal(wgp_launch_load_file("/nonexistent/launch.json", &l, &d), WGP_ERR_IO);
  assert_non_null(strstr(d.message, "/nonexistent/launch.json: cannot open"));
}

/* wgperf-measure binds real arguments and __local sizes by name. */
static void test_real_args_and_local_mem(void **state) {
  (void)state;
  wgp_launch *l;
  wgp_diag d;
  const char *text = "{\"global\": [64], \"args\": {\"a\": 2.5, \"n\": 7}, \"local_mem\": {\"tile\": \"1KiB\"}}";
  assert_int_equal(wgp_launch_load_string(text, "l.json", &l, &d), WGP_OK);
  int64_t v;
  for (size_t i = 0; i < wgp_launch_num_args(l); i++) {
    const char *name = wgp_launch_arg(l, i, &v);
    if (strcmp(name, "a") == 0) {
      assert_int_equal(v, 2);
      assert_true(wgp_launch_arg_real(l, i) == 2.5);
    } else {
      assert_int_equal(v, 7);
      assert_true(wgp_launch_arg_real(l, i) == 7.0);
    }
  }
  uint64_t bytes = 0;
  assert_int_equal(wgp_launch_num_local_mem(l), 1);
  assert_string_equal(wgp_launch_local_mem(l, 0, &bytes), "tile");
  assert_int_equal(bytes, 1024);
  assert_null(wgp_launch_local_mem(l, 1, &bytes));
  wgp_launch_free(l);
  l = wgp_launch_new();
  assert_int_equal(wgp_launch_set_option(l, "--arg", "s=-0.125", &d), WGP_OK);
  assert_int_equal(wgp_launch_set_option(l, "--local-mem", "buf=256", &d), WGP_OK);
  assert_true(wgp_launch_arg_real(l, 0) == -0.125);
  assert_string_equal(wgp_launch_local_mem(l, 0, &bytes), "buf");
  assert_int_equal(bytes, 256);
  wgp_launch_free(l);
}

/* Reads minimal.json (kernel k(A, N) with the local array k.tile of 64
 * bytes); DYNAMIC makes the array a CUDA extern __shared__ one (size 0). */
static wgp_model *minimal_model(bool dynamic) {
  FILE *f = fopen(WGPERF_SOURCE_DIR "/test/unit/data/minimal.json", "r");
  assert_non_null(f);
  static char text[1 << 16];
  size_t n = fread(text, 1, sizeof text - 1, f);
  fclose(f);
  text[n] = '\0';
  if (dynamic) {
    const char *from = "\"bytes\": 64, \"elem_bytes\": 4, \"dims\": [16]";
    const char *to = "\"bytes\": 0,  \"elem_bytes\": 4, \"dims\": [0] "; /* same length */
    char *p = strstr(text, from);
    assert_non_null(p);
    assert_int_equal(strlen(from), strlen(to));
    memcpy(p, to, strlen(to));
  }
  wgp_model *m;
  wgp_diag d;
  assert_int_equal(wgp_model_load_string(text, strlen(text), "minimal.json", &m, &d), WGP_OK);
  return m;
}

/* CUDA's dynamic shared memory (extern __shared__, the third <<<>>>
 * parameter) is sized with --local-mem like a __local pointer argument. */
static void test_dynamic_shared(void **state) {
  (void)state;
  wgp_diag d;
  wgp_trace_launch tl;
  uint64_t align[4], local[4];
  wgp_model *dyn = minimal_model(true), *fixed = minimal_model(false);
  const wgp_kernel *k = wgp_model_find_kernel(dyn, "k");
  wgp_launch *l = wgp_launch_new();
  assert_int_equal(wgp_launch_set_option(l, "--global", "1024", &d), WGP_OK);
  assert_int_equal(wgp_launch_set_option(l, "--local", "128", &d), WGP_OK);
  assert_int_equal(wgp_launch_set_option(l, "--arg", "N=4", &d), WGP_OK);
  /* without a size: a clear error naming the option */
  assert_int_equal(wgp_launch_bind(l, k, &tl, align, local, &d), WGP_ERR_INPUT);
  assert_non_null(strstr(d.message, "dynamic shared array 'tile' (extern __shared__)"));
  assert_non_null(strstr(d.message, "--local-mem tile=BYTES"));
  assert_int_equal(wgp_launch_set_option(l, "--local-mem", "tile=4096", &d), WGP_OK);
  assert_int_equal(wgp_launch_bind(l, k, &tl, align, local, &d), WGP_OK);
  assert_int_equal(local[0], 0);
  assert_int_equal(local[2], 4096); /* after the 2 arguments, array 0 */
  wgp_layout *lay;
  assert_int_equal(wgp_layout_new(k, align, local, &lay, &d), WGP_OK);
  assert_int_equal(wgp_layout_local_bytes(lay), 4096);
  wgp_layout_free(lay);
  /* a fixed-size array cannot be resized */
  assert_int_equal(wgp_launch_bind(l, wgp_model_find_kernel(fixed, "k"), &tl, align, local, &d), WGP_ERR_INPUT);
  assert_non_null(strstr(d.message, "'tile' of kernel 'k' is a shared array of fixed size (64 bytes)"));
  wgp_launch_free(l);
  wgp_model_free(dyn);
  wgp_model_free(fixed);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_command_line_forms),
      cmocka_unit_test(test_command_line_errors),
      cmocka_unit_test(test_command_line_boundaries),
      cmocka_unit_test(test_cuda_dims_padded),
      cmocka_unit_test(test_json),
      cmocka_unit_test(test_real_args_and_local_mem),
      cmocka_unit_test(test_dynamic_shared),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
