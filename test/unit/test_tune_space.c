/* test_tune_space.c - T1 space files (tune/space.c): the values, Kernel
 * Tuner's order under the conditions, each configuration's launch by Kernel
 * Tuner's rules, and errors that name the field, the expression and the
 * column. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "space_internal.h"
#include "wgperf/tune.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static wgp_tune_space *load(const char *text, wgp_diag *d) {
  wgp_tune_space *s = NULL;
  if (wgp_tune_space_load_string(text, strlen(text), "t.json", "/spaces", &s, d) != WGP_OK)
    return NULL;
  return s;
}

#define SPEC_CUDA                                                                                                    \
  "\"KernelSpecification\": {\"Language\": \"CUDA\", \"KernelName\": \"k\", \"KernelFile\": \"k.cu\", "            \
  "\"ProblemSize\": [1000, 64], \"GridDivX\": [\"bx\", \"t\"], "                                                      \
  "\"LocalSize\": {\"X\": \"bx\", \"Y\": \"2\"}, \"SharedMemory\": \"bx * 4\", "                                       \
  "\"Arguments\": [{\"Name\": \"out\", \"Type\": \"float4\", \"MemoryType\": \"Vector\", \"Size\": \"ProblemSize[0] * max(t)\"}, " \
  "{\"Name\": \"n\", \"Type\": \"int32\", \"MemoryType\": \"Scalar\", \"FillValue\": 1000}]}"

static void values_order_and_launch(void **state) {
  (void)state;
  wgp_diag d;
  wgp_tune_space *s = load("{\"ConfigurationSpace\": {\"TuningParameters\": ["
                           "{\"Name\": \"bx\", \"Values\": \"[2**i for i in range(5, 8)]\"},"
                           "{\"Name\": \"t\", \"Values\": [1, 3]},"
                           "{\"Name\": \"mode\", \"Values\": \"['fast', 'safe']\"},"
                           "{\"Name\": \"f\", \"Values\": \"[0.5, 1.0]\"}],"
                           "\"Conditions\": [{\"Expression\": \"bx * t <= 192\", \"Parameters\": [\"bx\", \"t\"]},"
                           "{\"Expression\": \"mode == 'fast' or f > 0.5\"}]}, " SPEC_CUDA "}",
                           &d);
  if (!s)
    fail_msg("%s", d.message);
  assert_int_equal(wgp_tune_space_num_params(s), 4);
  assert_string_equal(wgp_tune_space_kernel_file(s, 0), "/spaces/k.cu");
  assert_int_equal(wgp_tune_space_language(s), WGP_SOURCE_CUDA);
  /* #define texts are Python's str() */
  assert_string_equal(wgp_tune_space_value(s, 2, 1)->text, "safe");
  assert_string_equal(wgp_tune_space_value(s, 3, 1)->text, "1.0");
  assert_int_equal(wgp_tune_space_value(s, 0, 2)->i, 128);
  uint16_t *idx;
  size_t n;
  uint64_t raw;
  assert_int_equal(wgp_tune_space_enumerate(s, &idx, &n, &raw, &d), WGP_OK);
  assert_int_equal(raw, 3 * 2 * 2 * 2);
  /* bx 32 (t 1, 3), 64 (t 1, 3), 128 (t 1): 5 x 3 of the 4 (mode, f) pairs */
  assert_int_equal(n, 15);
  /* the first parameter varies slowest */
  uint16_t first[4] = {0, 0, 0, 0}, second[4] = {0, 0, 0, 1}, third[4] = {0, 0, 1, 1}, last[4] = {2, 0, 1, 1};
  assert_memory_equal(idx, first, sizeof first);
  assert_memory_equal(idx + 4, second, sizeof second);
  assert_memory_equal(idx + 8, third, sizeof third);
  assert_memory_equal(idx + 14 * 4, last, sizeof last);
  /* bx 64, t 3: block (64, 2, 1), grid ceil(1000 / 192) x ceil(64 / 2) */
  uint16_t c[4] = {1, 1, 0, 0};
  wgp_tune_launch l;
  assert_int_equal(wgp_tune_space_launch(s, c, &l, &d), WGP_OK);
  assert_int_equal(l.block[0], 64);
  assert_int_equal(l.block[1], 2);
  assert_int_equal(l.block[2], 1);
  assert_int_equal(l.grid[0], 6);
  assert_int_equal(l.grid[1], 32);
  assert_int_equal(l.grid[2], 1);
  assert_int_equal(l.shared_bytes, 256);
  assert_int_equal(l.num_args, 2);
  assert_int_equal(l.args[0].kind, WGP_TUNE_ARG_BUFFER);
  assert_int_equal(l.args[0].bytes, 1000 * 3 * 16); /* max(t) = 3, float4 */
  assert_int_equal(l.args[1].kind, WGP_TUNE_ARG_SCALAR);
  assert_true(l.args[1].value == 1000);
  free(idx);
  wgp_tune_space_free(s);
}

/* no LocalSize: block_size_x/y/z, and 256 x 1 x 1 without them; no GridDiv:
 * the grid divides by the block; GlobalSize when no GridDiv is given */
static void defaults(void **state) {
  (void)state;
  wgp_diag d;
  wgp_tune_space *s = load("{\"ConfigurationSpace\": {\"TuningParameters\": [{\"Name\": \"block_size_y\", \"Values\": \"[4]\"}]},"
                           "\"KernelSpecification\": {\"Language\": \"OpenCL\", \"KernelName\": \"k\", "
                           "\"ProblemSize\": [1000, 10]}}",
                           &d);
  if (!s)
    fail_msg("%s", d.message);
  uint16_t c[1] = {0};
  wgp_tune_launch l;
  assert_int_equal(wgp_tune_space_launch(s, c, &l, &d), WGP_OK);
  assert_int_equal(l.block[0], 256);
  assert_int_equal(l.block[1], 4);
  assert_int_equal(l.grid[0], 4);
  assert_int_equal(l.grid[1], 3);
  wgp_tune_space_free(s);
  s = load("{\"ConfigurationSpace\": {\"TuningParameters\": [{\"Name\": \"b\", \"Values\": \"[64]\"}]},"
           "\"KernelSpecification\": {\"Language\": \"OpenCL\", \"KernelName\": \"k\", \"GlobalSizeType\": \"OpenCL\","
           "\"LocalSize\": {\"X\": \"b\"}, \"GlobalSize\": {\"X\": \"1000\"}}}",
           &d);
  if (!s)
    fail_msg("%s", d.message);
  assert_int_equal(wgp_tune_space_launch(s, c, &l, &d), WGP_OK);
  assert_int_equal(l.grid[0], 16); /* 1000 work-items in groups of 64 */
  wgp_tune_space_free(s);
}

#define EXPECT_ERROR(text, want)                                                                                     \
  do {                                                                                                               \
    wgp_diag d_;                                                                                                     \
    wgp_tune_space *s_ = load(text, &d_);                                                                            \
    assert_null(s_);                                                                                                 \
    if (!strstr(d_.message, want))                                                                                   \
      fail_msg("got '%s', want '%s'", d_.message, want);                                                             \
  } while (0)

static void errors(void **state) {
  (void)state;
  EXPECT_ERROR("{", "t.json: line 1, column 1: malformed JSON");
  EXPECT_ERROR("{\"ConfigurationSpace\": {}}", "t.json: ConfigurationSpace.TuningParameters: expected a list");
  EXPECT_ERROR("{\"ConfigurationSpace\": {\"TuningParameters\": [{\"Name\": \"a b\", \"Values\": \"[1]\"}]}}",
               "Name 'a b' is not an identifier");
  EXPECT_ERROR("{\"ConfigurationSpace\": {\"TuningParameters\": [{\"Name\": \"a\", \"Values\": \"[1]\"},"
               "{\"Name\": \"a\", \"Values\": \"[2]\"}]}}",
               "parameter 'a' is defined twice");
  EXPECT_ERROR("{\"ConfigurationSpace\": {\"TuningParameters\": [{\"Name\": \"a\", \"Values\": \"[]\"}]}}",
               "TuningParameters[0] (a).Values: the parameter has no values");
  EXPECT_ERROR("{\"ConfigurationSpace\": {\"TuningParameters\": [{\"Name\": \"a\", \"Values\": \"[1, 1]\"}]}}",
               "value 1 is listed twice");
  /* the first value, in order, that repeats one before it; '1' and '1.0' are two values (two #defines) */
  EXPECT_ERROR("{\"ConfigurationSpace\": {\"TuningParameters\": [{\"Name\": \"a\", \"Values\": \"[3, 1.0, 1, 2, 1, 3]\"}]}}",
               "value 1 is listed twice");
  EXPECT_ERROR("{\"ConfigurationSpace\": {\"TuningParameters\": [{\"Name\": \"a\", "
               "\"Values\": \"list(range(60000)) + [59999]\"}]}}",
               "value 59999 is listed twice");
  EXPECT_ERROR("{\"ConfigurationSpace\": {\"TuningParameters\": [{\"Name\": \"a\", \"Values\": \"4\"}]}}",
               "TuningParameters[0] (a).Values '4': expected a list, got 'int'");
  EXPECT_ERROR("{\"ConfigurationSpace\": {\"TuningParameters\": [{\"Name\": \"a\", \"Values\": \"[b]\"}]}}",
               "TuningParameters[0] (a).Values '[b]': unknown name 'b' at column 2");
  EXPECT_ERROR("{\"ConfigurationSpace\": {\"TuningParameters\": [{\"Name\": \"a\", \"Values\": \"[1]\"}],"
               "\"Conditions\": [{\"Expression\": \"a > \"}]}}",
               "Conditions[0].Expression 'a > ': expression ends too early at column 5");
  EXPECT_ERROR("{\"ConfigurationSpace\": {\"TuningParameters\": [{\"Name\": \"a\", \"Values\": \"[1]\"}]},"
               "\"KernelSpecification\": {\"Language\": \"CUDA\", \"KernelName\": \"k\", \"ProblemSize\": [\"a * z\"]}}",
               "ProblemSize[0] 'a * z': unknown name 'z' at column 5");
  EXPECT_ERROR("{\"ConfigurationSpace\": {\"TuningParameters\": [{\"Name\": \"a\", \"Values\": \"[1]\"}]},"
               "\"KernelSpecification\": {\"Language\": \"CUDA\", \"KernelName\": \"k\"}}",
               "no ProblemSize (or GlobalSize): the grid is unknown");
  EXPECT_ERROR("{\"ConfigurationSpace\": {\"TuningParameters\": [{\"Name\": \"a\", \"Values\": \"[1]\"}]},"
               "\"KernelSpecification\": {\"Language\": \"CUDA\", \"ProblemSize\": [8],"
               "\"Arguments\": [{\"Name\": \"x\", \"MemoryType\": \"Image\"}]}}",
               "Arguments[0] (x).MemoryType: 'Image' is not Vector, Scalar, Local or Symbol");
}

/* a condition or a size that fails for some values names them; a space the
 * conditions empty is an error */
static void value_errors(void **state) {
  (void)state;
  wgp_diag d;
  wgp_tune_space *s = load("{\"ConfigurationSpace\": {\"TuningParameters\": [{\"Name\": \"a\", \"Values\": \"[2, 1]\"},"
                           "{\"Name\": \"b\", \"Values\": \"[0, 3]\"}],"
                           "\"Conditions\": [{\"Expression\": \"a // b >= 0\"}]},"
                           "\"KernelSpecification\": {\"Language\": \"CUDA\", \"ProblemSize\": [8]}}",
                           &d);
  if (!s)
    fail_msg("%s", d.message);
  uint16_t *idx = NULL;
  size_t n;
  assert_int_equal(wgp_tune_space_enumerate(s, &idx, &n, NULL, &d), WGP_ERR_INPUT);
  assert_string_equal(d.message, "wgperf: error: t.json: Conditions[0].Expression 'a // b >= 0': division by zero in "
                                 "'//' at column 3 (for a=2, b=0)");
  wgp_tune_space_free(s);
  s = load("{\"ConfigurationSpace\": {\"TuningParameters\": [{\"Name\": \"a\", \"Values\": \"[2, 1]\"}],"
           "\"Conditions\": [{\"Expression\": \"a > 5\"}]},"
           "\"KernelSpecification\": {\"Language\": \"CUDA\", \"ProblemSize\": [8]}}",
           &d);
  if (!s)
    fail_msg("%s", d.message);
  assert_int_equal(wgp_tune_space_enumerate(s, &idx, &n, NULL, &d), WGP_ERR_INPUT);
  assert_string_equal(d.message, "wgperf: error: t.json: no configuration satisfies the conditions (2 combinations "
                                 "of the values, 1 condition)");
  wgp_tune_space_free(s);
  s = load("{\"ConfigurationSpace\": {\"TuningParameters\": [{\"Name\": \"a\", \"Values\": \"[2, 0]\"}]},"
           "\"KernelSpecification\": {\"Language\": \"CUDA\", \"ProblemSize\": [8], \"LocalSize\": {\"X\": \"a\"}}}",
           &d);
  if (!s)
    fail_msg("%s", d.message);
  uint16_t c[1] = {1};
  wgp_tune_launch l;
  assert_int_equal(wgp_tune_space_launch(s, c, &l, &d), WGP_ERR_INPUT);
  assert_string_equal(d.message, "wgperf: error: t.json: LocalSize.X 'a': 0 is not a positive integer (for a=0)");
  wgp_tune_space_free(s);
}

/* The budgets that keep a space from running for hours (tune/space.c): the
 * Values lists share one, the enumeration's conditions another, and at most
 * so many configurations may satisfy them; the public functions' budgets are
 * large (lit tune-errors.test reaches the enumeration's), these small. */
static void budgets(void **state) {
  (void)state;
  const char *two = "{\"ConfigurationSpace\": {\"TuningParameters\": ["
                    "{\"Name\": \"a\", \"Values\": \"[i for i in range(10)]\"},"
                    "{\"Name\": \"b\", \"Values\": \"[i for i in range(10)]\"}],"
                    "\"Conditions\": [{\"Expression\": \"a + b < 0\", \"Parameters\": [\"a\", \"b\"]}]},"
                    "\"KernelSpecification\": {\"Language\": \"OpenCL\", \"KernelName\": \"k\", \"GlobalSizeType\": \"OpenCL\","
                    "\"LocalSize\": {\"X\": \"1\"}, \"GlobalSize\": {\"X\": \"64\"}}}";
  wgp_tune_space *s;
  wgp_diag d;
  /* each list: the comprehension, range(10) and its argument, 10 items made, 10 evaluated: 23 */
  assert_int_equal(sp_load_string(two, strlen(two), "t.json", NULL, 45, &s, &d), WGP_ERR_INPUT);
  assert_string_equal(d.message, "wgperf: error: t.json: TuningParameters[1] (b).Values '[i for i in range(10)]': "
                                 "the Values lists take more than 45 steps of evaluation");
  assert_int_equal(sp_load_string(two, strlen(two), "t.json", NULL, 46, &s, &d), WGP_OK);
  /* 100 evaluations of 'a + b < 0' (5 steps each): 500 steps, every one rejected */
  uint16_t *idx;
  size_t count;
  uint64_t raw;
  assert_int_equal(sp_enumerate(s, 500, 1000, &idx, &count, &raw, &d), WGP_ERR_INPUT);
  assert_string_equal(d.message, "wgperf: error: t.json: no configuration satisfies the conditions (100 combinations "
                                 "of the values, 1 condition)");
  assert_int_equal(sp_enumerate(s, 499, 1000, &idx, &count, &raw, &d), WGP_ERR_INPUT);
  assert_string_equal(d.message, "wgperf: error: t.json: checking the conditions takes more than 499 steps of "
                                 "evaluation (100 combinations of the values); a condition is checked as soon as the "
                                 "parameters it reads are set, so list the parameters the conditions restrict most "
                                 "first");
  wgp_tune_space_free(s);
  const char *open = "{\"ConfigurationSpace\": {\"TuningParameters\": ["
                     "{\"Name\": \"a\", \"Values\": \"range(10)\"}, {\"Name\": \"b\", \"Values\": \"range(10)\"}]},"
                     "\"KernelSpecification\": {\"Language\": \"OpenCL\", \"KernelName\": \"k\", \"GlobalSizeType\": \"OpenCL\","
                     "\"LocalSize\": {\"X\": \"1\"}, \"GlobalSize\": {\"X\": \"64\"}}}";
  assert_int_equal(sp_load_string(open, strlen(open), "t.json", NULL, 1000, &s, &d), WGP_OK);
  assert_int_equal(sp_enumerate(s, 1000, 100, &idx, &count, &raw, &d), WGP_OK);
  assert_int_equal(count, 100);
  free(idx);
  assert_int_equal(sp_enumerate(s, 1000, 99, &idx, &count, &raw, &d), WGP_ERR_INPUT);
  assert_string_equal(d.message, "wgperf: error: t.json: 100 combinations of the values and no Conditions: more than "
                                 "the 99 configurations wgtune enumerates (before any sample is drawn, so --sample "
                                 "does not avoid this); restrict the space with Conditions or fewer Values");
  wgp_tune_space_free(s);
  /* with a condition that holds for all: found while enumerating */
  const char *cond = "{\"ConfigurationSpace\": {\"TuningParameters\": ["
                     "{\"Name\": \"a\", \"Values\": \"range(10)\"}, {\"Name\": \"b\", \"Values\": \"range(10)\"}],"
                     "\"Conditions\": [{\"Expression\": \"a >= 0\", \"Parameters\": [\"a\"]}]},"
                     "\"KernelSpecification\": {\"Language\": \"OpenCL\", \"KernelName\": \"k\", \"GlobalSizeType\": \"OpenCL\","
                     "\"LocalSize\": {\"X\": \"1\"}, \"GlobalSize\": {\"X\": \"64\"}}}";
  assert_int_equal(sp_load_string(cond, strlen(cond), "t.json", NULL, 1000, &s, &d), WGP_OK);
  assert_int_equal(sp_enumerate(s, 1000, 99, &idx, &count, &raw, &d), WGP_ERR_INPUT);
  assert_string_equal(d.message, "wgperf: error: t.json: more than 99 configurations satisfy the conditions (of 100 "
                                 "combinations of the values): the space is enumerated before any sample is drawn, so "
                                 "--sample does not avoid this; restrict it with Conditions or fewer Values");
  wgp_tune_space_free(s);
}

/* Numbers past what their integer can hold are errors, never an undefined
 * conversion (found by fuzz-space: GridDivX [1e308]). */
static void out_of_range(void **state) {
  (void)state;
  const char *spec = "{\"ConfigurationSpace\": {\"TuningParameters\": [{\"Name\": \"b\", \"Values\": \"[64]\"}]},"
                     "\"KernelSpecification\": {\"Language\": \"OpenCL\", \"KernelName\": \"k\", "
                     "\"GlobalSizeType\": \"OpenCL\", \"LocalSize\": {\"X\": \"b\"}, \"ProblemSize\": [1000], "
                     "\"GridDivX\": [%s]}}";
  char text[1024];
  wgp_diag d;
  snprintf(text, sizeof text, spec, "1e308");
  assert_null(load(text, &d));
  assert_string_equal(d.message, "wgperf: error: t.json: GridDivX[0]: 1e+308 is out of the 64-bit "
                                 "integer range");
  snprintf(text, sizeof text, spec, "\"1e-300\"");
  wgp_tune_space *s = load(text, &d);
  if (!s)
    fail_msg("%s", d.message);
  uint16_t c[1] = {0};
  wgp_tune_launch l;
  assert_int_equal(wgp_tune_space_launch(s, c, &l, &d), WGP_ERR_INPUT);
  assert_string_equal(d.message, "wgperf: error: t.json: ProblemSize / GridDivX gives a grid of 1e+303 "
                                 "blocks (for b=64)");
  wgp_tune_space_free(s);
}

/* Arguments: FillType, FillValue and MemType reach the launch (the plan's
 * harnesses fill buffers by them); KTT's fills of data from elsewhere are
 * kept as such; an unknown FillType is an error. */
static void arguments_fill(void **state) {
  (void)state;
  const char *spec =
      "{\"ConfigurationSpace\": {\"TuningParameters\": [{\"Name\": \"b\", \"Values\": \"[64]\"}]},"
      "\"KernelSpecification\": {\"Language\": \"CUDA\", \"KernelName\": \"k\", \"ProblemSize\": [1000], "
      "\"LocalSize\": {\"X\": \"b\"}, \"Arguments\": ["
      "{\"Name\": \"x\", \"Type\": \"float\", \"MemoryType\": \"Vector\", \"Size\": 10, \"FillType\": \"%s\", "
      "\"FillValue\": 2.5},"
      "{\"Name\": \"y\", \"Type\": \"int32\", \"MemoryType\": \"Vector\", \"Size\": 4, \"MemType\": \"Constant\"},"
      "{\"Name\": \"n\", \"Type\": \"int32\", \"MemoryType\": \"Scalar\", \"FillValue\": 7}]}}";
  char text[2048];
  wgp_diag d;
  snprintf(text, sizeof text, spec, "Random");
  wgp_tune_space *s = load(text, &d);
  if (!s)
    fail_msg("%s", d.message);
  uint16_t c[1] = {0};
  wgp_tune_launch l;
  assert_int_equal(wgp_tune_space_launch(s, c, &l, &d), WGP_OK);
  assert_int_equal(l.num_args, 3);
  assert_string_equal(l.args[0].type, "float");
  assert_true(l.args[0].random);
  assert_false(l.args[0].constant);
  assert_true(l.args[0].value == 2.5);
  assert_int_equal(l.args[0].bytes, 40);
  assert_false(l.args[1].random); /* no FillType: Constant, FillValue 0 */
  assert_true(l.args[1].value == 0);
  assert_true(l.args[1].constant);
  assert_string_equal(l.args[2].type, "int32");
  assert_true(l.args[2].value == 7);
  wgp_tune_space_free(s);
  snprintf(text, sizeof text, spec, "Gaussian");
  assert_null(load(text, &d));
  assert_string_equal(d.message, "wgperf: error: t.json: Arguments[0] (x).FillType: 'Gaussian' is not Random, "
                                 "Constant, Generator, Script, BinaryRaw or BinaryHDF");
  /* KTT's data from elsewhere: ranked (fill_from), a plan refuses it */
  snprintf(text, sizeof text, spec, "BinaryRaw");
  assert_non_null(s = load(text, &d));
  assert_int_equal(wgp_tune_space_launch(s, c, &l, &d), WGP_OK);
  assert_string_equal(l.args[0].fill_from, "BinaryRaw");
  assert_null(l.args[1].fill_from);
  wgp_tune_space_free(s);
  /* KTT's Symbol: a global set by name, not among the launch's arguments */
  const char *sym =
      "{\"ConfigurationSpace\": {\"TuningParameters\": [{\"Name\": \"b\", \"Values\": \"[64]\"}]},"
      "\"KernelSpecification\": {\"Language\": \"CUDA\", \"KernelName\": \"k\", \"ProblemSize\": [1000], "
      "\"LocalSize\": {\"X\": \"b\"}, \"Arguments\": ["
      "{\"Name\": \"x\", \"Type\": \"float\", \"MemoryType\": \"Vector\", \"Size\": 10},"
      "{\"Name\": \"coeffs\", \"Type\": \"float\", \"MemoryType\": \"Symbol\", \"Size\": 16},"
      "{\"Name\": \"n\", \"Type\": \"int32\", \"MemoryType\": \"Scalar\", \"FillValue\": 7}]}}";
  assert_non_null(s = load(sym, &d));
  assert_int_equal(wgp_tune_space_num_symbols(s), 1);
  assert_string_equal(wgp_tune_space_symbol(s, 0), "coeffs");
  assert_int_equal(wgp_tune_space_launch(s, c, &l, &d), WGP_OK);
  assert_int_equal(l.num_args, 2);
  assert_string_equal(l.args[0].name, "x");
  assert_string_equal(l.args[1].name, "n");
  assert_int_equal(l.args[1].kind, WGP_TUNE_ARG_SCALAR);
  wgp_tune_space_free(s);
}

/* wgp_tune_pick: the sample is the same for the same seed, ascending and
 * distinct; the shards of it, in order, are the sample. */
static void pick(void **state) {
  (void)state;
  wgp_tune_options o = {0};
  size_t *a = NULL, *b = NULL, n = 0, m = 0;
  assert_true(wgp_tune_pick(100, &o, &a, &n));
  assert_int_equal(n, 100);
  assert_int_equal(a[0], 0);
  assert_int_equal(a[99], 99);
  free(a);
  o.sample = 10, o.seed = 7;
  assert_true(wgp_tune_pick(100, &o, &a, &n));
  assert_true(wgp_tune_pick(100, &o, &b, &m));
  assert_int_equal(n, 10);
  assert_memory_equal(a, b, 10 * sizeof *a);
  for (size_t i = 1; i < n; i++)
    assert_true(a[i - 1] < a[i] && a[i] < 100);
  free(b);
  size_t got = 0;
  for (unsigned k = 1; k <= 3; k++) {
    o.shard = k, o.shards = 3;
    assert_true(wgp_tune_pick(100, &o, &b, &m));
    assert_memory_equal(b, a + got, m * sizeof *b);
    got += m;
    free(b);
  }
  assert_int_equal(got, 10);
  free(a);
  o.shard = o.shards = 0;
  o.sample = 500; /* a sample of more than the space: the whole space */
  assert_true(wgp_tune_pick(100, &o, &a, &n));
  assert_int_equal(n, 100);
  free(a);
}

/* A plan's fields are tab-separated: a value holding a tab is refused. */
static void plan_refuses_tabs(void **state) {
  (void)state;
  const char *text =
      "{\"ConfigurationSpace\": {\"TuningParameters\": [{\"Name\": \"m\", \"Values\": [\"a\\tb\", \"c\"]}]},"
      "\"KernelSpecification\": {\"Language\": \"CUDA\", \"KernelName\": \"k\", \"KernelFile\": \"/dev/null\", "
      "\"ProblemSize\": [1000], \"LocalSize\": {\"X\": \"64\"}}}";
  wgp_diag d;
  wgp_tune_space *s = load(text, &d);
  if (!s)
    fail_msg("%s", d.message);
  wgp_tune_options o = {0};
  size_t n = 9;
  FILE *f = tmpfile();
  assert_non_null(f);
  assert_int_equal(wgp_tune_write_plan(s, &o, f, "p.tsv", &n, &d), WGP_ERR_INPUT);
  assert_int_equal(n, 0);
  assert_string_equal(d.message, "wgperf: error: t.json: a value of 'm' holds a tab or a line break, which a plan "
                                 "cannot");
  fclose(f);
  wgp_tune_space_free(s);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(values_order_and_launch), cmocka_unit_test(defaults),
                                     cmocka_unit_test(errors), cmocka_unit_test(budgets), cmocka_unit_test(out_of_range), cmocka_unit_test(value_errors),
                                     cmocka_unit_test(arguments_fill), cmocka_unit_test(pick),
                                     cmocka_unit_test(plan_refuses_tabs)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
