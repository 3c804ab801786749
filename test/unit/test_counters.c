/* test_counters.c - nvprof's counting rules per architecture against the
 * values the amaris-nvprof data shows for address patterns known exactly
 * (docs/counters.md has the table), and the whole-launch counters of a
 * vector add on a Kepler, a Maxwell and an H100 description. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "wgperf/counters.h"
#include "wgperf/estimate.h"
#include "wgperf/launch.h"

#define FULL 0xffffffffull

/* Lane l of a warp of a TW x TW block (tx fastest) at row r(tx, ty), column
 * c(tx, ty) of a W-wide float matrix based at 0. */
static void matrix(uint64_t *addr, unsigned tw, unsigned w, bool coalesced) {
  for (unsigned l = 0; l < 32; l++) {
    unsigned tx = l % tw, ty = l / tw;
    addr[l] = coalesced ? 4ull * (ty * w + tx) : 4ull * (tx * w + ty);
  }
}

static void contiguous(uint64_t *addr) {
  for (unsigned l = 0; l < 32; l++)
    addr[l] = 4ull * l;
}

static void global_rules(void **state) {
  (void)state;
  uint64_t a[32];
  /* vectorAdd: Kepler 1 / 1, Maxwell 8 / 4 (README caveat 3 and every row) */
  contiguous(a);
  assert_int_equal(wgp_count_gld_transactions(WGP_RULES_KEPLER, a, FULL, 32, 4), 1);
  assert_int_equal(wgp_count_gst_transactions(WGP_RULES_KEPLER, a, FULL, 32, 4), 1);
  assert_int_equal(wgp_count_gld_transactions(WGP_RULES_MAXWELL, a, FULL, 32, 4), 8);
  assert_int_equal(wgp_count_gst_transactions(WGP_RULES_MAXWELL, a, FULL, 32, 4), 4);
  assert_int_equal(wgp_count_gld_transactions(WGP_RULES_SECTORS, a, FULL, 32, 4), 4);
  /* matrix_sum_coalesced, TW 8 / 16 / 32: Kepler 4 / 2 / 1 both ways;
   * Maxwell loads 8 / 8 / 8, stores 8 / 4 / 4 */
  static const unsigned tws[] = {8, 16, 32}, kep[] = {4, 2, 1}, mld[] = {8, 8, 8}, mst[] = {8, 4, 4};
  for (int i = 0; i < 3; i++) {
    matrix(a, tws[i], 1024, true);
    assert_int_equal(wgp_count_gld_transactions(WGP_RULES_KEPLER, a, FULL, 32, 4), kep[i]);
    assert_int_equal(wgp_count_gst_transactions(WGP_RULES_KEPLER, a, FULL, 32, 4), kep[i]);
    assert_int_equal(wgp_count_gld_transactions(WGP_RULES_MAXWELL, a, FULL, 32, 4), mld[i]);
    assert_int_equal(wgp_count_gst_transactions(WGP_RULES_MAXWELL, a, FULL, 32, 4), mst[i]);
  }
  /* matrix_sum_normal (x is the row), TW 8 / 16 / 32: Kepler 8 / 16 / 32;
   * Maxwell 16 / 32 / 32 both ways */
  static const unsigned nkep[] = {8, 16, 32}, nmax[] = {16, 32, 32};
  for (int i = 0; i < 3; i++) {
    matrix(a, tws[i], 1024, false);
    assert_int_equal(wgp_count_gld_transactions(WGP_RULES_KEPLER, a, FULL, 32, 4), nkep[i]);
    assert_int_equal(wgp_count_gst_transactions(WGP_RULES_KEPLER, a, FULL, 32, 4), nkep[i]);
    assert_int_equal(wgp_count_gld_transactions(WGP_RULES_MAXWELL, a, FULL, 32, 4), nmax[i]);
    assert_int_equal(wgp_count_gst_transactions(WGP_RULES_MAXWELL, a, FULL, 32, 4), nmax[i]);
  }
  /* a 4x4 block fills half a warp: Maxwell loads 4 (one 16 B piece per row) */
  matrix(a, 4, 1024, true);
  assert_int_equal(wgp_count_gld_transactions(WGP_RULES_MAXWELL, a, 0xffffull, 32, 4), 4);
  assert_int_equal(wgp_count_gld_transactions(WGP_RULES_KEPLER, a, 0xffffull, 32, 4), 4);
  /* one lane: one of everything */
  assert_int_equal(wgp_count_gst_transactions(WGP_RULES_MAXWELL, a, 1, 32, 4), 1);
  assert_int_equal(wgp_count_gld_transactions(WGP_RULES_MAXWELL, a, 1, 32, 4), 1);
  assert_int_equal(wgp_count_gld_transactions(WGP_RULES_KEPLER, a, 0, 32, 4), 0);
}

static void shared_rules(void **state) {
  (void)state;
  uint64_t a[32];
  unsigned free;
  /* matMul_gpu_sharedmem_uncoalesced stores As[tx][ty]: word tx*TW + ty.
   * nvprof: Kepler 1 / 4 / 16, Maxwell 2 / 8 / 32 for TW 8 / 16 / 32 */
  static const unsigned tws[] = {8, 16, 32}, kep[] = {1, 4, 16}, max[] = {2, 8, 32};
  for (int i = 0; i < 3; i++) {
    for (unsigned l = 0; l < 32; l++)
      a[l] = 4ull * ((l % tws[i]) * tws[i] + l / tws[i]);
    assert_int_equal(wgp_count_shared_transactions(WGP_RULES_KEPLER, a, FULL, 32, 4, &free), kep[i]);
    assert_int_equal(free, 1);
    assert_int_equal(wgp_count_shared_transactions(WGP_RULES_MAXWELL, a, FULL, 32, 4, &free), max[i]);
    assert_int_equal(free, 1);
  }
  /* subSeqMax's scan, buf[32 t + m]: Kepler about 16, Maxwell 32 */
  for (unsigned l = 0; l < 32; l++)
    a[l] = 4ull * (32 * l + 5);
  assert_int_equal(wgp_count_shared_transactions(WGP_RULES_KEPLER, a, FULL, 32, 4, &free), 16);
  assert_int_equal(wgp_count_shared_transactions(WGP_RULES_MAXWELL, a, FULL, 32, 4, &free), 32);
  /* broadcast and consecutive words: conflict-free everywhere */
  for (unsigned l = 0; l < 32; l++)
    a[l] = 64;
  assert_int_equal(wgp_count_shared_transactions(WGP_RULES_KEPLER, a, FULL, 32, 4, &free), 1);
  contiguous(a);
  assert_int_equal(wgp_count_shared_transactions(WGP_RULES_MAXWELL, a, FULL, 32, 4, &free), 1);
  assert_int_equal(wgp_count_shared_transactions(WGP_RULES_KEPLER, a, 0, 32, 4, &free), 0);
  assert_int_equal(free, 0);
  /* 16 B loads go a half-warp at a time, a transaction at least each.
   * matMul_gpu_sharedmem_uncoalesced's LDS.128 of As[tx][k..k+3]: lanes
   * (tx, ty) of a TW-wide block read word tx*TW + k.  nvprof on the Tesla
   * K40 (1.2, 2.4 and 4 per request with 4 single loads beside it): 2, 8, 16
   * for TW 8, 16, 32; Maxwell 8, 16, 32. */
  static const unsigned k16[] = {2, 8, 16}, m16[] = {8, 16, 32};
  for (int i = 0; i < 3; i++) {
    for (unsigned l = 0; l < 32; l++)
      a[l] = 4ull * ((l % tws[i]) * tws[i]);
    assert_int_equal(wgp_count_shared_transactions(WGP_RULES_KEPLER, a, FULL, 32, 16, &free), k16[i]);
    assert_int_equal(wgp_count_shared_transactions(WGP_RULES_MAXWELL, a, FULL, 32, 16, &free), m16[i]);
  }
  /* the coalesced multiply's broadcast row reads: 2 on both, also in a
   * 16-lane warp (4x4 tile) */
  for (unsigned l = 0; l < 32; l++)
    a[l] = 64ull * (l / 16);
  assert_int_equal(wgp_count_shared_transactions(WGP_RULES_KEPLER, a, FULL, 32, 16, &free), 2);
  assert_int_equal(free, 2);
  assert_int_equal(wgp_count_shared_transactions(WGP_RULES_MAXWELL, a, FULL, 32, 16, &free), 2);
  for (unsigned l = 0; l < 32; l++)
    a[l] = 16ull * (l / 4);
  assert_int_equal(wgp_count_shared_transactions(WGP_RULES_KEPLER, a, 0xffffull, 32, 16, &free), 2);
  assert_int_equal(wgp_count_shared_transactions(WGP_RULES_MAXWELL, a, 0xffffull, 32, 16, &free), 2);
}

static void names(void **state) {
  (void)state;
  assert_string_equal(wgp_counter_name(WGP_CTR_GLD_PER_REQUEST), "gld_transactions_per_request");
  assert_string_equal(wgp_counter_name(WGP_CTR_DRAM_WRITE_TRANSACTIONS), "dram_write_transactions");
  assert_string_equal(wgp_counter_name(WGP_NUM_COUNTERS), "?");
  assert_string_equal(wgp_counter_rules_name(WGP_RULES_MAXWELL), "maxwell");
}

/* The whole launch: a vector add of 2^20 floats in blocks of 256. */
static void vadd_on(const char *gpu_file, wgp_counter_values *v) {
  wgp_diag d;
  wgp_model *m;
  wgp_gpu *g;
  assert_int_equal(wgp_model_load_file(WGPERF_SOURCE_DIR "/test/unit/data/vadd_cuda.plugin.json", &m, &d), WGP_OK);
  assert_int_equal(wgp_gpu_load_file(gpu_file, &g, &d), WGP_OK);
  wgp_launch *l = wgp_launch_new();
  assert_int_equal(wgp_launch_set_option(l, "--global", "1048576", &d), WGP_OK);
  assert_int_equal(wgp_launch_set_option(l, "--local", "256", &d), WGP_OK);
  assert_int_equal(wgp_launch_set_option(l, "--arg", "n=1048576", &d), WGP_OK);
  uint64_t align[4] = {0}, local[32] = {0};
  wgp_analysis_input in = {0};
  const wgp_kernel *k = wgp_model_kernel(m, 0);
  assert_int_equal(wgp_launch_bind(l, k, &in.launch, align, local, &d), WGP_OK);
  in.kernel = k;
  in.gpu = g;
  in.buffer_align = align;
  in.local_bytes = local;
  wgp_estimate *e;
  assert_int_equal(wgp_estimate_new(&in, 16, &e, &d), WGP_OK);
  assert_int_equal(
      wgp_counters_compute(&in, wgp_estimate_analysis(e), wgp_estimate_cache(e), wgp_estimate_groups(e), v, &d),
      WGP_OK);
  wgp_estimate_free(e);
  wgp_launch_free(l);
  wgp_gpu_free(g);
  wgp_model_free(m);
}

static void whole_launch(void **state) {
  (void)state;
  wgp_counter_values v;
  double warps = 1048576.0 / 32;
  /* Titan (Kepler): as nvprof on every Titan vectorAdd row: 1 / 1, L2 8 and 4 per warp */
  vadd_on(WGPERF_SOURCE_DIR "/gpus/titan.json", &v);
  assert_int_equal(v.rules, WGP_RULES_KEPLER);
  assert_true(v.value[WGP_CTR_GLD_PER_REQUEST] == 1 && v.value[WGP_CTR_GST_PER_REQUEST] == 1);
  assert_true(v.gld_requests == 2 * warps && v.gst_requests == warps);
  assert_true(v.value[WGP_CTR_L2_READ_TRANSACTIONS] == 8 * warps);
  assert_true(v.value[WGP_CTR_L2_WRITE_TRANSACTIONS] == 4 * warps);
  assert_true(v.value[WGP_CTR_SHARED_LD_PER_REQUEST] == 0 && v.value[WGP_CTR_SHARED_ST_BANK_CONFLICT] == 0);
  /* compulsory DRAM traffic, 12 B per element */
  assert_true(fabs(v.value[WGP_CTR_DRAM_READ_TRANSACTIONS] - 8 * warps) <= 0.01 * 8 * warps);
  assert_true(fabs(v.value[WGP_CTR_DRAM_WRITE_TRANSACTIONS] - 4 * warps) <= 0.01 * 4 * warps);
  /* instructions per warp: entry 4 (branch, compare, add, multiply), body 10 (three
   * 64-bit addresses of two instructions each before Volta, the add, 2 loads, a store) */
  assert_true(v.value[WGP_CTR_INST_EXECUTED] == 14 * warps);
  /* GTX 980 (Maxwell): 8 / 4 as every GTX 980 vectorAdd row */
  vadd_on(WGPERF_SOURCE_DIR "/gpus/gtx-980.json", &v);
  assert_int_equal(v.rules, WGP_RULES_MAXWELL);
  assert_true(v.value[WGP_CTR_GLD_PER_REQUEST] == 8 && v.value[WGP_CTR_GST_PER_REQUEST] == 4);
  assert_true(v.value[WGP_CTR_L2_WRITE_TRANSACTIONS] == 4 * warps);
  /* the 32-bit multiply is three XMADs on Maxwell */
  assert_true(v.value[WGP_CTR_INST_EXECUTED] == 16 * warps);
  /* H100: sectors */
  vadd_on(WGPERF_SOURCE_DIR "/gpus/h100-sxm.json", &v);
  assert_int_equal(v.rules, WGP_RULES_SECTORS);
  assert_true(v.value[WGP_CTR_GLD_PER_REQUEST] == 4 && v.value[WGP_CTR_GST_PER_REQUEST] == 4);
  /* one instruction per operation */
  assert_true(v.value[WGP_CTR_INST_EXECUTED] == 11 * warps);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(global_rules),
      cmocka_unit_test(shared_rules),
      cmocka_unit_test(names),
      cmocka_unit_test(whole_launch),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
