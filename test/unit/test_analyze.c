/* test_analyze.c - memory costs per access against hand-worked values
 * (issue 3's expectations; seeds/002 T1 for the bank cycles of A[t], B[2t],
 * D[16t]) on kernels extracted by the real plugin (data/mem_kernels.cl). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wgperf/analyze.h"

static wgp_model *model;
static wgp_gpu *h100;

static wgp_eval_status args(void *user, const wgp_sym *sym, int64_t *value, char *reason, size_t size) {
  const int64_t *v = user;
  if (sym->kind == WGP_SYM_ARG) {
    if (strcmp(sym->name, "w") == 0) {
      *value = v[0];
      return WGP_EVAL_OK;
    }
    if (strcmp(sym->name, "n") == 0) {
      *value = v[1];
      return WGP_EVAL_OK;
    }
  }
  snprintf(reason, size, "no value");
  return WGP_EVAL_UNKNOWN;
}

static int setup(void **state) {
  wgp_diag d;
  (void)state;
  if (wgp_model_load_file(WGPERF_SOURCE_DIR "/test/unit/data/mem_kernels.json", &model, &d) != WGP_OK)
    return -1;
  return wgp_gpu_load_builtin("h100-sxm", &h100, &d) == WGP_OK ? 0 : -1;
}

static int teardown(void **state) {
  (void)state;
  wgp_model_free(model);
  wgp_gpu_free(h100);
  return 0;
}

static wgp_analysis *run(const char *kernel, uint64_t global, uint64_t local, int64_t *argv) {
  const wgp_kernel *k = wgp_model_find_kernel(model, kernel);
  assert_non_null(k);
  wgp_analysis_input in = {0};
  in.kernel = k;
  in.gpu = h100;
  in.launch = (wgp_trace_launch){1, {global, 1, 1}, {local, 1, 1}, {0, 0, 0}, 0, args, argv};
  wgp_analysis *a;
  wgp_diag d;
  assert_int_equal(wgp_analyze(&in, &a, &d), WGP_OK);
  return a;
}

/* Per-request average of access ID's sectors (global) or wavefronts. */
static double per_request(const wgp_analysis *a, size_t id, bool sectors) {
  const wgp_mem_stats *s = &wgp_analysis_total_stats(a)[id];
  assert_true(s->requests > 0);
  return (sectors ? s->sectors : s->wavefronts) / s->requests;
}

static size_t access_of(const char *kernel, wgp_space space, wgp_access_kind kind) {
  const wgp_kernel *k = wgp_model_find_kernel(model, kernel);
  for (size_t i = 0; i < wgp_kernel_num_accesses(k); i++) {
    const wgp_access *a = wgp_kernel_access(k, i);
    if (wgp_access_space(a) == space && wgp_access_get_kind(a) == kind)
      return i;
  }
  fail_msg("no such access in %s", kernel);
  return 0;
}

static void test_global_coalescing(void **state) {
  (void)state;
  int64_t argv[2] = {1024, 0};
  struct { const char *k; double sectors; } cases[] = {
      {"coalesced", 4}, {"stride2", 8}, {"column", 32}, {"vec4", 16},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    wgp_analysis *a = run(cases[i].k, 4096, 256, argv);
    size_t id = access_of(cases[i].k, WGP_SPACE_GLOBAL, WGP_ACCESS_LOAD);
    assert_true(per_request(a, id, true) == cases[i].sectors);
    /* every warp of the launch executes it once */
    assert_true(wgp_analysis_total_stats(a)[id].executions == 4096 / 32);
    wgp_analysis_free(a);
  }
}

static void test_shared_bank_conflicts(void **state) {
  (void)state;
  int64_t argv[2] = {0, 0};
  /* stride in 4 B words -> conflict degree: seeds/002 T1 gives 1/2/16 for
   * A[t], B[2t], D[16t]; 32 is fully serialized, 33 (padded) conflict-free */
  struct { const char *k; double degree; } cases[] = {
      {"shared1", 1}, {"shared2", 2}, {"shared16", 16}, {"shared32", 32}, {"shared33", 1},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    wgp_analysis *a = run(cases[i].k, 1024, 32, argv);
    size_t st = access_of(cases[i].k, WGP_SPACE_LOCAL, WGP_ACCESS_STORE);
    size_t ld = access_of(cases[i].k, WGP_SPACE_LOCAL, WGP_ACCESS_LOAD);
    assert_true(per_request(a, st, false) == cases[i].degree);
    assert_true(per_request(a, ld, false) == cases[i].degree);
    assert_true(wgp_analysis_total_stats(a)[ld].worst_degree == cases[i].degree);
    wgp_analysis_free(a);
  }
  /* 8 B words: two conflict-free halves of 16 lanes, degree 1 */
  wgp_analysis *a = run("shared_double", 1024, 32, argv);
  size_t ld = access_of("shared_double", WGP_SPACE_LOCAL, WGP_ACCESS_LOAD);
  const wgp_mem_stats *s = &wgp_analysis_total_stats(a)[ld];
  assert_true(s->wavefronts / s->requests == 2.0);
  assert_true(s->wavefronts / s->phases == 1.0);
  wgp_analysis_free(a);
}

static void test_constant_serialization(void **state) {
  (void)state;
  int64_t argv[2] = {0, 0};
  wgp_analysis *a = run("constant_same", 1024, 32, argv);
  assert_true(per_request(a, access_of("constant_same", WGP_SPACE_CONSTANT, WGP_ACCESS_LOAD), false) == 1.0);
  wgp_analysis_free(a);
  a = run("constant_lane", 1024, 32, argv);
  assert_true(per_request(a, access_of("constant_lane", WGP_SPACE_CONSTANT, WGP_ACCESS_LOAD), false) == 32.0);
  wgp_analysis_free(a);
}

static void test_loop_accesses_counted_per_iteration(void **state) {
  (void)state;
  /* a[k*w + i]: coalesced in i, 4 sectors per request in every iteration;
   * executed n times by each of the 32 warps */
  int64_t argv[2] = {1024, 1000};
  wgp_analysis *a = run("loop_column", 1024, 256, argv);
  size_t ld = access_of("loop_column", WGP_SPACE_GLOBAL, WGP_ACCESS_LOAD);
  const wgp_mem_stats *s = &wgp_analysis_total_stats(a)[ld];
  assert_true(s->executions == 32.0 * 1000);
  assert_true(s->sectors / s->requests == 4.0);
  assert_true(s->unknown == 0);
  /* dynamic instruction counts: one fp32 add per iteration per warp */
  assert_true(wgp_analysis_dynamic_count(a, "fp32_add") == 32.0 * 1000);
  wgp_analysis_free(a);
}

static void test_counting_rules_directly(void **state) {
  (void)state;
  uint64_t addr[32];
  double sec, lin, wf, ph, worst;
  /* misaligned coalesced fp32: 32 lanes from byte 16 touch 5 sectors, 2 lines */
  for (unsigned i = 0; i < 32; i++)
    addr[i] = 16 + 4 * i;
  wgp_count_global(addr, 0xffffffffull, 32, 4, 32, 128, &sec, &lin);
  assert_true(sec == 5 && lin == 2);
  /* half the lanes active */
  wgp_count_global(addr, 0x0000ffffull, 32, 4, 32, 128, &sec, &lin);
  assert_true(sec == 3 && lin == 1);
  /* every lane reads the same word: a broadcast */
  for (unsigned i = 0; i < 32; i++)
    addr[i] = 64;
  wgp_count_banks(addr, 0xffffffffull, 32, 4, 32, 4, &wf, &ph, &worst);
  assert_true(wf == 1 && worst == 1);
  assert_true(wgp_count_distinct(addr, 0xffffffffull, 32) == 1);
  /* two words in the same bank, 16 lanes each */
  for (unsigned i = 0; i < 32; i++)
    addr[i] = i < 16 ? 0 : 128;
  wgp_count_banks(addr, 0xffffffffull, 32, 4, 32, 4, &wf, &ph, &worst);
  assert_true(wf == 2 && worst == 2);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_global_coalescing),       cmocka_unit_test(test_shared_bank_conflicts),
      cmocka_unit_test(test_constant_serialization),  cmocka_unit_test(test_loop_accesses_counted_per_iteration),
      cmocka_unit_test(test_counting_rules_directly),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
