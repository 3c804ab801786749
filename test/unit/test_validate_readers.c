/* test_validate_readers.c - the readers of wgperf-validate: manifest
 * expressions, CSV tables (quotes, CRLF, errors with file:line) and the
 * manifest (launch sequences, options, hints, load-time checks). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validate_csv.h"
#include "validate_expr.h"
#include "validate_manifest.h"

static int64_t ev(const char *text, const vx_var *v, size_t n) {
  int64_t out;
  char err[128];
  if (!vx_eval(text, v, n, &out, err, sizeof err))
    fail_msg("'%s': %s", text, err);
  return out;
}

static void expect_eval_error(const char *text, const char *needle) {
  vx_var v[] = {{"N", 1024}};
  int64_t out;
  char err[128] = "";
  assert_false(vx_eval(text, v, 1, &out, err, sizeof err));
  if (!strstr(err, needle))
    fail_msg("'%s': error '%s', expected '%s'", text, err, needle);
}

static void expressions(void **state) {
  (void)state;
  vx_var v[] = {{"N", 1024}, {"block_x", 256}, {"k", 8}, {"k", 16} /* the later binding wins */};
  assert_int_equal(ev("N/32", v, 4), 32);
  assert_int_equal(ev("2 + 3 * 4", v, 4), 14);
  assert_int_equal(ev("(2 + 3) * 4", v, 4), 20);
  assert_int_equal(ev("-7 / 2", v, 4), -3); /* C truncation */
  assert_int_equal(ev("-7 % 2", v, 4), -1);
  assert_int_equal(ev("sqrt(block_x)", v, 4), 16);
  assert_int_equal(ev("sqrt(1000)", v, 4), 31);
  assert_int_equal(ev("log2(N)", v, 4), 10);
  assert_int_equal(ev("log2(N - 1)", v, 4), 9);
  assert_int_equal(ev("min(N, 3) + max(2, k)", v, 4), 19);
  assert_int_equal(ev("k <= N", v, 4), 1);
  assert_int_equal(ev("k == 8", v, 4), 0);
  assert_int_equal(ev("N*N/200 + 1", v, 4), 5243);
  assert_int_equal(ev("  42  ", v, 4), 42);
  expect_eval_error("N / 0", "division by zero");
  expect_eval_error("N % (N - N)", "division by zero");
  expect_eval_error("q + 1", "unknown name 'q'");
  expect_eval_error("9223372036854775807 + 1", "overflow");
  expect_eval_error("99999999999999999999", "integer too large");
  expect_eval_error("log2(0)", "log2 of 0");
  expect_eval_error("sqrt(-1)", "sqrt of -1");
  expect_eval_error("pow(2, 3)", "unknown function 'pow'");
  expect_eval_error("min(1)", "'min' takes 2 arguments");
  expect_eval_error("(1 + 2", "expected ')'");
  expect_eval_error("1 +", "unexpected end");
  expect_eval_error("", "empty expression");
  expect_eval_error("1 2", "unexpected '2'");
  expect_eval_error("1 < 2 < 3", "unexpected '<'");
  char deep[400];
  memset(deep, '(', 200);
  strcpy(deep + 200, "1");
  expect_eval_error(deep, "nested too deeply");
  /* checking: names only, no arithmetic faults */
  const char *names[] = {"N", "j"};
  char err[128];
  assert_true(vx_check("N / (j - j)", names, 2, err, sizeof err));
  assert_false(vx_check("N / W", names, 2, err, sizeof err));
  assert_non_null(strstr(err, "unknown name 'W'"));
}

static vcsv *read_ok(const char *text) {
  vcsv *t = NULL;
  wgp_diag d;
  if (vcsv_read_string(text, strlen(text), "m.csv", &t, &d) != WGP_OK)
    fail_msg("%s", d.message);
  return t;
}

static void expect_csv_error(const char *text, const char *needle) {
  vcsv *t = NULL;
  wgp_diag d;
  d.message[0] = '\0';
  assert_int_equal(vcsv_read_string(text, strlen(text), "m.csv", &t, &d), WGP_ERR_INPUT);
  assert_null(t);
  if (!strstr(d.message, needle))
    fail_msg("error '%s', expected '%s'", d.message, needle);
}

static void csv(void **state) {
  (void)state;
  vcsv *t = read_ok("\xEF\xBB\xBFgpu,kernel,notes\r\nGTX-980,vectorAdd,\r\n\r\n\"Ti,tan\",\"say \"\"hi\"\"\",\"two\nlines\"\nX,Y,Z");
  assert_int_equal(vcsv_num_columns(t), 3);
  assert_string_equal(vcsv_column(t, 0), "gpu");
  assert_int_equal(vcsv_find_column(t, "notes"), 2);
  assert_int_equal(vcsv_find_column(t, "nope"), -1);
  assert_int_equal(vcsv_num_rows(t), 3);
  assert_string_equal(vcsv_field(t, 0, 1), "vectorAdd");
  assert_string_equal(vcsv_field(t, 0, 2), "");
  assert_int_equal(vcsv_line(t, 0), 2);
  assert_string_equal(vcsv_field(t, 1, 0), "Ti,tan");
  assert_string_equal(vcsv_field(t, 1, 1), "say \"hi\"");
  assert_string_equal(vcsv_field(t, 1, 2), "two\nlines");
  assert_int_equal(vcsv_line(t, 1), 4); /* after the blank line */
  assert_int_equal(vcsv_line(t, 2), 6);
  assert_string_equal(vcsv_field(t, 2, 2), "Z");
  assert_string_equal(vcsv_field(t, 9, 0), "");
  vcsv_free(t);
  expect_csv_error("a,b\n1,2\n3\n", "m.csv:3: 1 field, the header has 2");
  expect_csv_error("a,b\n1,2,3\n", "m.csv:2: 3 fields, the header has 2");
  expect_csv_error("a,b\n\"1,2\n", "m.csv:2: a quoted field is not closed");
  expect_csv_error("a,b\n\"1\"x,2\n", "m.csv:2: text after the closing quote");
  expect_csv_error("a,b\n1\"x,2\n", "m.csv:2: a quote inside an unquoted field");
  expect_csv_error("a,,b\n", "m.csv:1: column 2 of the header has no name");
  expect_csv_error("a,b,a\n", "m.csv:1: the header names column 'a' twice");
  expect_csv_error("", "m.csv: empty file");
  expect_csv_error("a\r1\n", "carriage return");
  wgp_diag d;
  assert_int_equal(vcsv_read_file("/nonexistent/m.csv", &t, &d), WGP_ERR_IO);
  assert_non_null(strstr(d.message, "/nonexistent/m.csv"));
}

static const char *manifest_text =
    "{\"format\": \"wgperf-validate-manifest\", \"version\": 1, \"kernels\": {"
    " \"mm\": {\"source\": \"mm.cu\", \"opencl\": \"mm.cl\", \"size\": \"W\", \"macros\": {\"TW\": \"block_x\"},"
    "   \"args\": {\"W\": \"W\"}, \"buffers\": {\"P\": \"4*W*W\"}},"
    " \"dot\": {\"source\": \"/abs/dot.cu\", \"function\": \"dotProd\", \"size\": \"N\","
    "   \"macros\": {\"TW\": \"sqrt(block_x)\"}, \"args\": {\"N\": \"N\"}, \"taken\": {\"B2\": 0.5}},"
    " \"sort\": {\"source\": \"sort.cu\", \"size\": \"N\","
    "   \"launches\": [{\"var\": \"k\", \"from\": \"2\", \"while\": \"k <= N\", \"next\": \"2*k\"},"
    "                {\"var\": \"j\", \"from\": \"k/2\", \"while\": \"j >= 1\", \"next\": \"j/2\"}],"
    "   \"args\": {\"j\": \"j\", \"k\": \"k\"}, \"trip\": {\"line:12\": \"N/k\"}, \"taken\": {\"B3\": 0.5},"
    "   \"opencl_trip\": {\"line:9\": \"2*N/k\"}, \"opencl_taken\": {\"B4\": 0.25, \"line:7\": 1}}}}";

static vm_manifest *load_ok(const char *text) {
  vm_manifest *m = NULL;
  wgp_diag d;
  if (vm_load_string(text, "man.json", "/kernels", &m, &d) != WGP_OK)
    fail_msg("%s", d.message);
  return m;
}

static void manifest(void **state) {
  (void)state;
  vm_manifest *m = load_ok(manifest_text);
  assert_int_equal(vm_num_kernels(m), 3);
  const vm_kernel *mm = vm_find(m, "mm"), *dot = vm_find(m, "dot"), *sort = vm_find(m, "sort");
  assert_non_null(mm);
  assert_null(vm_find(m, "nope"));
  assert_string_equal(vm_kernel_source(mm, false), "/kernels/mm.cu");
  assert_string_equal(vm_kernel_source(mm, true), "/kernels/mm.cl");
  assert_null(vm_kernel_source(dot, true));
  assert_string_equal(vm_kernel_source(dot, false), "/abs/dot.cu");
  assert_string_equal(vm_kernel_function(dot), "dotProd");
  assert_string_equal(vm_kernel_function(mm), "mm");
  char err[256];
  char flags[8][64];
  vm_row row = {1024, {64, 64, 1}, {16, 16, 1}};
  assert_int_equal(vm_macros(mm, &row, flags, 8, err, sizeof err), 1);
  assert_string_equal(flags[0], "TW=16");
  vm_row drow = {1048576, {4096, 1, 1}, {256, 1, 1}};
  assert_int_equal(vm_macros(dot, &drow, flags, 8, err, sizeof err), 1);
  assert_string_equal(flags[0], "TW=16");
  char opt[8][2][96];
  vm_launch one[4];
  assert_int_equal(vm_launches(mm, &row, one, 4, err, sizeof err), 1);
  assert_int_equal(vm_launch_options(mm, &row, &one[0], opt, 8, err, sizeof err), 2);
  assert_string_equal(opt[0][0], "--arg");
  assert_string_equal(opt[0][1], "W=1024");
  assert_string_equal(opt[1][0], "--buffer");
  assert_string_equal(opt[1][1], "P=4194304");
  /* a bitonic sort of 16: k = 2, 4, 8, 16 and j = k/2 .. 1: 1 + 2 + 3 + 4 launches */
  vm_row srow = {16, {1, 1, 1}, {16, 1, 1}};
  vm_launch l[16];
  assert_int_equal(vm_launches(sort, &srow, l, 16, err, sizeof err), 10);
  assert_int_equal(vm_launch_options(sort, &srow, &l[9], opt, 8, err, sizeof err), 2);
  assert_string_equal(opt[0][1], "j=1");
  assert_string_equal(opt[1][1], "k=16");
  assert_int_equal(vm_launch_options(sort, &srow, &l[3], opt, 8, err, sizeof err), 2);
  assert_string_equal(opt[0][1], "j=4"); /* k = 8: j = 4, 2, 1 */
  assert_int_equal(vm_launches(sort, &srow, l, 9, err, sizeof err), -1);
  assert_non_null(strstr(err, "more than 9 launches"));
  assert_int_equal(vm_num_trip_hints(sort, false), 1);
  int64_t c;
  assert_string_equal(vm_trip_hint(sort, false, 0, &srow, &l[3], &c, err, sizeof err), "line:12");
  assert_int_equal(c, 2);
  double fr;
  assert_string_equal(vm_taken_hint(sort, false, 0, &fr), "B3");
  assert_true(fr == 0.5);
  assert_null(vm_taken_hint(sort, false, 1, &fr));
  /* the OpenCL twin's own hints (its lines and blocks differ) */
  assert_int_equal(vm_num_trip_hints(sort, true), 1);
  assert_string_equal(vm_trip_hint(sort, true, 0, &srow, &l[3], &c, err, sizeof err), "line:9");
  assert_int_equal(c, 4);
  assert_int_equal(vm_num_taken_hints(sort, true), 2);
  assert_string_equal(vm_taken_hint(sort, true, 0, &fr), "B4");
  assert_true(fr == 0.25);
  assert_string_equal(vm_taken_hint(sort, true, 1, &fr), "line:7");
  assert_true(fr == 1);
  /* a kernel without them gives the OpenCL twin its CUDA hints */
  assert_int_equal(vm_num_taken_hints(dot, true), 1);
  assert_string_equal(vm_taken_hint(dot, true, 0, &fr), "B2");
  /* a value error names the expression */
  vm_row zero = {0, {1, 1, 1}, {0, 1, 1}};
  assert_int_equal(vm_macros(dot, &zero, flags, 8, err, sizeof err), 1);
  assert_string_equal(flags[0], "TW=0");
  vm_free(m);
}

static void expect_manifest_error(const char *text, const char *needle) {
  vm_manifest *m = NULL;
  wgp_diag d;
  d.message[0] = '\0';
  assert_int_equal(vm_load_string(text, "man.json", "", &m, &d), WGP_ERR_INPUT);
  assert_null(m);
  if (!strstr(d.message, needle))
    fail_msg("error '%s', expected '%s'", d.message, needle);
}

#define HEAD "{\"format\": \"wgperf-validate-manifest\", \"version\": 1, \"kernels\": {"

static void manifest_errors(void **state) {
  (void)state;
  expect_manifest_error("{\"format\": \"x\"}", "man.json: not a validation manifest");
  expect_manifest_error("{\"format\": \"wgperf-validate-manifest\", \"version\": 2, \"kernels\": {}}",
                        "manifest version must be 1");
  expect_manifest_error(HEAD "}}", "'kernels' must be an object with one member per kernel");
  expect_manifest_error(HEAD "\"k\": {\"args\": {}}}}", "man.json: kernel 'k': has no 'source'");
  expect_manifest_error(HEAD "\"k\": {\"source\": \"k.cu\", \"arg\": {}}}}", "kernel 'k': unknown member 'arg'");
  expect_manifest_error(HEAD "\"k\": {\"source\": \"k.cu\", \"args\": {\"n\": \"W/2\"}}}}",
                        "kernel 'k': 'args.n': unknown name 'W' in \"W/2\"");
  expect_manifest_error(HEAD "\"k\": {\"source\": \"k.cu\", \"size\": \"N\", \"args\": {\"n\": \"N/\"}}}}",
                        "'args.n': unexpected end of the expression");
  expect_manifest_error(HEAD "\"k\": {\"source\": \"k.cu\", \"args\": {\"n\": 1.5}}}}",
                        "'args.n' must be an expression (a string) or an integer");
  expect_manifest_error(HEAD "\"k\": {\"source\": \"k.cu\", \"macros\": {\"1TW\": \"4\"}}}}",
                        "macro name '1TW' is not an identifier");
  expect_manifest_error(HEAD "\"k\": {\"source\": \"k.cu\", \"trip\": {\"B3\": \"4\"}}}}",
                        "trip: 'B3' is not a loop");
  expect_manifest_error(HEAD "\"k\": {\"source\": \"k.cu\", \"taken\": {\"B3\": 2}}}}",
                        "taken.B3 must be a fraction between 0 and 1");
  expect_manifest_error(HEAD "\"k\": {\"source\": \"k.cu\", \"taken\": {\"line:x\": 0.5}}}}",
                        "taken: 'line:x' is not a branch");
  expect_manifest_error(HEAD "\"k\": {\"source\": \"k.cu\", \"opencl_taken\": {\"B1\": -1}}}}",
                        "opencl_taken.B1 must be a fraction between 0 and 1");
  expect_manifest_error(HEAD "\"k\": {\"source\": \"k.cu\", \"opencl_trip\": {\"B2\": \"4\"}}}}",
                        "opencl_trip: 'B2' is not a loop");
  expect_manifest_error(HEAD "\"k\": {\"source\": \"k.cu\", \"launches\": [{\"var\": \"j\", \"from\": \"j\", "
                        "\"while\": \"1\", \"next\": \"1\"}]}}}",
                        "'launches[0].from': unknown name 'j'");
  expect_manifest_error(HEAD "\"k\": {\"source\": \"k.cu\", \"launches\": [{\"var\": \"block_x\", \"from\": \"1\", "
                        "\"while\": \"1\", \"next\": \"1\"}]}}}",
                        "launches[0]: variable 'block_x' is already a name");
  expect_manifest_error(HEAD "\"k\": {\"source\": \"k.cu\", \"macros\": {\"TW\": \"j\"}, \"launches\": [{\"var\": "
                        "\"j\", \"from\": \"1\", \"while\": \"j < 2\", \"next\": \"j+1\"}]}}}",
                        "'macros.TW': unknown name 'j'");
  expect_manifest_error("{\"format\": 1,}", "man.json:1:");
  /* a loop that never ends is cut off with a message */
  vm_manifest *m = load_ok(HEAD "\"k\": {\"source\": \"k.cu\", \"launches\": [{\"var\": \"j\", \"from\": \"1\", "
                           "\"while\": \"1\", \"next\": \"j\"}]}}}");
  vm_row row = {16, {1, 1, 1}, {1, 1, 1}};
  vm_launch l[8];
  char err[256];
  assert_int_equal(vm_launches(vm_find(m, "k"), &row, l, 8, err, sizeof err), -1);
  assert_non_null(strstr(err, "more than 8"));
  vm_free(m);
  /* the shipped manifest loads */
  wgp_diag d;
  assert_int_equal(vm_load_file(WGPERF_SOURCE_DIR "/validation/kernels/manifest.json", &m, &d), WGP_OK);
  assert_int_equal(vm_num_kernels(m), 11);
  vm_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(expressions),
      cmocka_unit_test(csv),
      cmocka_unit_test(manifest),
      cmocka_unit_test(manifest_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
