/* fuzz_space.c - the T1 tuning-space reader (tune/space.c) and its Python
 * expression subset (tune/pyexpr*.c) on any bytes.
 *
 * Input: a T1 space file (what `wgtune --space` reads).  A space that loads is
 * read through every accessor, its configurations enumerated and the
 * launches of up to 16 of them computed (up to the first that fails), all within small budgets (a million
 * steps of evaluation for the Values lists and as many for the conditions,
 * at most 100,000 configurations: the public limits, 100 million, a billion
 * and 50 million, take seconds to reach, which libFuzzer would take for
 * hangs; test_tune_pyexpr and lit tune-errors.test check those).  Checks, besides crashes and sanitizer reports: every error names
 * the file; the enumeration gives at least one and at most the Cartesian
 * product of configurations, each a valid index per parameter; a launch has
 * positive block and grid extents and at most 32 arguments.
 */
#include "fuzz.h"

#include "space_internal.h"

#include <stdlib.h>

#define NAME "fuzz-space.json"

static void walk(const wgp_tune_space *s) {
  volatile size_t sink = 0;
  sink += wgp_tune_space_name(s) != NULL;
  sink += wgp_tune_space_benchmark(s) != NULL;
  sink += wgp_tune_space_kernel_name(s) != NULL;
  sink += (size_t)wgp_tune_space_language(s);
  for (size_t i = 0; i < wgp_tune_space_num_kernel_files(s); i++)
    sink += wgp_tune_space_kernel_file(s, i)[0];
  for (size_t i = 0; i < wgp_tune_space_num_compiler_flags(s); i++)
    sink += wgp_tune_space_compiler_flag(s, i)[0];
  for (size_t i = 0; i < wgp_tune_space_num_ignored_options(s); i++)
    sink += wgp_tune_space_ignored_option(s, i)[0];
  for (size_t i = 0; i < wgp_tune_space_num_symbols(s); i++)
    sink += wgp_tune_space_symbol(s, i)[0];
  for (size_t p = 0; p < wgp_tune_space_num_params(s); p++) {
    const char *name = wgp_tune_space_param(s, p);
    if (wgp_tune_space_find_param(s, name) != p)
      fuzz_fail("parameter %zu ('%s') is not found by its name", p, name);
    size_t n = wgp_tune_space_num_values(s, p);
    if (n == 0)
      fuzz_fail("parameter '%s' has no values", name);
    for (size_t v = 0; v < n; v++) {
      const wgp_tune_value *x = wgp_tune_space_value(s, p, v);
      if (!x->text)
        fuzz_fail("value %zu of '%s' has no text", v, name);
      sink += x->text[0];
    }
  }
  (void)sink;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  wgp_tune_space *s;
  wgp_diag d;
  wgp_status st = sp_load_string((const char *)data, size, NAME, "/nonexistent", 1000000, &s, &d);
  fuzz_check_diag(st, &d, NAME, "sp_load_string");
  if (st != WGP_OK)
    return 0;
  walk(s);
  uint16_t *idx;
  size_t count;
  uint64_t raw;
  st = sp_enumerate(s, 1000000, 100000, &idx, &count, &raw, &d);
  fuzz_check_diag(st, &d, NAME, "sp_enumerate");
  if (st == WGP_OK) {
    size_t np = wgp_tune_space_num_params(s);
    if (count == 0 || (uint64_t)count > raw)
      fuzz_fail("%zu configurations of %llu combinations", count, (unsigned long long)raw);
    for (size_t c = 0; c < count; c++)
      for (size_t p = 0; p < np; p++)
        if (idx[c * np + p] >= wgp_tune_space_num_values(s, p))
          fuzz_fail("configuration %zu: value %u of parameter %zu, which has %zu", c, idx[c * np + p], p,
                    wgp_tune_space_num_values(s, p));
    size_t step = count > 16 ? count / 16 : 1;
    for (size_t c = 0; c < count; c += step) {
      wgp_tune_launch l;
      st = wgp_tune_space_launch(s, idx + c * np, &l, &d);
      fuzz_check_diag(st, &d, NAME, "wgp_tune_space_launch");
      /* the first failure ends the launches: an expression too heavy to
       * evaluate fails after its million steps for every configuration, 16
       * of which took 24 s with the sanitizers on a loaded machine
       * (fuzz/regress/space/heavy-launch-in-every-configuration) */
      if (st != WGP_OK)
        break;
      for (int k = 0; k < 3; k++)
        if (l.grid[k] == 0 || l.block[k] == 0)
          fuzz_fail("configuration %zu: grid %llu or block %llu in dimension %d", c, (unsigned long long)l.grid[k],
                    (unsigned long long)l.block[k], k);
      if (l.num_args > sizeof l.args / sizeof l.args[0])
        fuzz_fail("configuration %zu: %zu arguments", c, l.num_args);
    }
    free(idx);
  }
  wgp_tune_space_free(s);
  return 0;
}
