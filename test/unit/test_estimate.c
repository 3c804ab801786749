/* test_estimate.c - wgp_estimate runs the modules in the order the tools
 * expect: its result equals the steps done by hand, registers come from the
 * override, else the model, else the IR estimate, and a launch that cannot
 * run fails with a message naming what limits it; wgp_estimate_bounds holds
 * the estimate. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wgperf/estimate.h"
#include "wgperf/launch.h"

static wgp_model *model;
static wgp_gpu *h100;

static int setup(void **state) {
  wgp_diag d;
  (void)state;
  if (wgp_model_load_file(WGPERF_SOURCE_DIR "/test/unit/data/matmul_tiled.plugin.json", &model, &d) != WGP_OK)
    return -1;
  return wgp_gpu_load_builtin("h100-sxm", &h100, &d) == WGP_OK ? 0 : -1;
}

static int teardown(void **state) {
  (void)state;
  wgp_model_free(model);
  wgp_gpu_free(h100);
  return 0;
}

typedef struct bound {
  wgp_launch *l;
  uint64_t align[8], local[32];
  wgp_analysis_input in;
} bound;

static void bind(bound *b, const char *global, const char *local, const char *n) {
  wgp_diag d;
  memset(b, 0, sizeof *b);
  b->l = wgp_launch_new();
  assert_int_equal(wgp_launch_set_option(b->l, "--global", global, &d), WGP_OK);
  assert_int_equal(wgp_launch_set_option(b->l, "--local", local, &d), WGP_OK);
  assert_int_equal(wgp_launch_set_option(b->l, "--arg", n, &d), WGP_OK);
  const wgp_kernel *k = wgp_model_kernel(model, 0);
  assert_int_equal(wgp_launch_bind(b->l, k, &b->in.launch, b->align, b->local, &d), WGP_OK);
  b->in.kernel = k;
  b->in.gpu = h100;
  b->in.buffer_align = b->align;
  b->in.local_bytes = b->local;
}

static void same_as_by_hand(void **state) {
  (void)state;
  bound b;
  bind(&b, "256,256", "16,16", "N=256");
  wgp_diag d;
  wgp_estimate *e;
  assert_int_equal(wgp_estimate_new(&b.in, 32, &e, &d), WGP_OK);
  const char *src;
  assert_int_equal(wgp_estimate_registers(e, &src), 32);
  assert_string_equal(src, "--regs");
  assert_int_equal(wgp_estimate_groups(e), 256);
  wgp_sim_result viaest;
  assert_int_equal(wgp_estimate_simulate(e, 0, &viaest, &d), WGP_OK);

  wgp_analysis *an;
  assert_int_equal(wgp_analyze(&b.in, &an, &d), WGP_OK);
  wgp_occupancy occ;
  wgp_occupancy_request req = {256, 32, (unsigned long)wgp_analysis_local_bytes(an), 0};
  assert_int_equal(wgp_occupancy_compute(h100, &req, &occ, &d), WGP_OK);
  assert_int_equal(occ.active_blocks_per_sm, wgp_estimate_occupancy(e)->active_blocks_per_sm);
  wgp_cache_result cache;
  assert_int_equal(wgp_cache_analyze(&b.in, occ.active_blocks_per_sm, wgp_analysis_local_bytes(an), &cache, &d),
                   WGP_OK);
  /* the inputs the host copied in are in L2 when they fit (the estimate's
   * default) */
  wgp_cache_warm_l2(&cache, b.in.kernel, h100, wgp_analysis_total_stats(an), NULL, NULL);
  wgp_sim_result byhand;
  assert_int_equal(wgp_simulate_analysis(&b.in, an, 32, &cache, -1, 0, &byhand, &d), WGP_OK);
  assert_true(viaest.time_us == byhand.time_us);
  assert_true(viaest.cycles == byhand.cycles);
  assert_int_equal(viaest.active_warps_per_sm, byhand.active_warps_per_sm);
  /* all hits can only be faster than all misses */
  wgp_sim_result hit, miss;
  assert_int_equal(wgp_simulate_analysis(&b.in, an, 32, NULL, 1.0, 0, &hit, &d), WGP_OK);
  assert_int_equal(wgp_simulate_analysis(&b.in, an, 32, NULL, 0.0, 0, &miss, &d), WGP_OK);
  assert_true(hit.time_us < miss.time_us);
  wgp_cache_result_free(&cache);
  wgp_analysis_free(an);
  wgp_estimate_free(e);
  wgp_launch_free(b.l);
}

static void registers_fall_back_to_the_ir_estimate(void **state) {
  (void)state;
  const wgp_kernel *k = wgp_model_kernel(model, 0);
  const char *src;
  /* the model has no ptxas count: the liveness estimate */
  assert_int_equal(wgp_kernel_choose_registers(k, 0, &src), wgp_kernel_register_pressure(k));
  assert_non_null(strstr(src, "IR estimate"));
  assert_int_equal(wgp_kernel_choose_registers(k, 40, &src), 40);
}

static void impossible_launch_names_its_limit(void **state) {
  (void)state;
  bound b;
  bind(&b, "256,256", "32,32", "N=256");
  wgp_diag d;
  wgp_estimate *e = (wgp_estimate *)&b; /* must be reset to NULL on failure */
  /* 1024 threads x 255 registers exceed the H100's 64K-register file */
  assert_int_equal(wgp_estimate_new(&b.in, 255, &e, &d), WGP_ERR_INPUT);
  assert_null(e);
  assert_non_null(strstr(d.message, "register"));
  wgp_launch_free(b.l);
}

/* A count made for another target (the model's ptxas for sm_80) above the
 * GPU's limit is capped at it, as that GPU's compiler would spill, and says
 * so; a count the user gives is not (the launch fails). */
static void registers_over_the_gpu_limit_are_capped(void **state) {
  (void)state;
  wgp_diag d;
  char *text;
  size_t len;
  assert_int_equal(wgp_read_file(WGPERF_SOURCE_DIR "/test/unit/data/matmul_tiled.plugin.json", &text, &len, &d), WGP_OK);
  const char *at = strstr(text, "\"language\"");
  assert_non_null(at);
  const char *reg = "\"registers\": {\"count\": 128, \"source\": \"ptxas -v (test, sm_80)\"},\n";
  size_t pre = (size_t)(at - text), rl = strlen(reg);
  char *mod = malloc(len + rl + 1);
  memcpy(mod, text, pre);
  memcpy(mod + pre, reg, rl);
  memcpy(mod + pre + rl, at, len - pre + 1);
  wgp_model *m;
  assert_int_equal(wgp_model_load_string(mod, len + rl, "capped.json", &m, &d), WGP_OK);
  wgp_gpu *kepler;
  assert_int_equal(wgp_gpu_load_builtin("gtx-680", &kepler, &d), WGP_OK);
  bound b;
  bind(&b, "256,256", "16,16", "N=256");
  b.in.kernel = wgp_model_kernel(m, 0);
  b.in.gpu = kepler;
  wgp_estimate *e;
  assert_int_equal(wgp_estimate_new(&b.in, 0, &e, &d), WGP_OK);
  const char *src;
  assert_int_equal(wgp_estimate_registers(e, &src), 63);
  assert_non_null(strstr(src, "ptxas -v (test, sm_80): 128, capped at NVIDIA GeForce GTX 680's limit of 63"));
  wgp_estimate_free(e);
  b.in.gpu = h100; /* within the H100's 255: as counted */
  assert_int_equal(wgp_estimate_new(&b.in, 0, &e, &d), WGP_OK);
  assert_int_equal(wgp_estimate_registers(e, &src), 128);
  assert_string_equal(src, "ptxas -v (test, sm_80)");
  wgp_estimate_free(e);
  b.in.gpu = kepler;
  assert_int_equal(wgp_estimate_new(&b.in, 128, &e, &d), WGP_ERR_INPUT);
  assert_non_null(strstr(d.message, "128 registers per thread exceed the maximum of 63"));
  wgp_launch_free(b.l);
  wgp_gpu_free(kepler);
  wgp_model_free(m);
  free(mod);
  free(text);
}

/* The model text of matmul_tiled with INSERT before its "language" key. */
static wgp_model *model_with(const char *insert) {
  wgp_diag d;
  char *text;
  size_t len;
  assert_int_equal(wgp_read_file(WGPERF_SOURCE_DIR "/test/unit/data/matmul_tiled.plugin.json", &text, &len, &d), WGP_OK);
  const char *at = strstr(text, "\"language\"");
  assert_non_null(at);
  size_t pre = (size_t)(at - text), rl = strlen(insert);
  char *mod = malloc(len + rl + 1);
  memcpy(mod, text, pre);
  memcpy(mod + pre, insert, rl);
  memcpy(mod + pre + rl, at, len - pre + 1);
  wgp_model *m;
  assert_int_equal(wgp_model_load_string(mod, len + rl, "resources.json", &m, &d), WGP_OK);
  free(mod);
  free(text);
  return m;
}

/* A count with which one group cannot run refuses the launch only when it is
 * nvcc's for this GPU's architecture (Kernel Tuner's RuntimeFailedConfig);
 * any other (ptxas on llc's PTX, another architecture's, the IR estimate) is
 * not what the real compiler makes here: the launch is ranked with what one
 * group may have, and says so.  (The convolution 96x4: ptxas on
 * llc's PTX for sm_80 counted 234 registers, nvcc for sm_86 40.) */
static void registers_never_refused_on_a_count_not_for_this_gpu(void **state) {
  (void)state;
  static const struct {
    const char *insert;
    bool refused;
  } cases[] = {
      {"\"registers\": {\"count\": 255, \"source\": \"ptxas -v (test, sm_80)\"},\n", false},
      {"\"resources\": [{\"arch\": \"sm_90\", \"compiler\": \"ptxas\", \"registers\": 255, \"stack_bytes\": 0, "
       "\"spill_store_bytes\": 0, \"spill_load_bytes\": 0, \"shared_bytes\": 0, \"source\": \"ptxas (test)\"}],\n",
       false},
      {"\"resources\": [{\"arch\": \"sm_86\", \"compiler\": \"nvcc\", \"registers\": 255, \"stack_bytes\": 0, "
       "\"spill_store_bytes\": 0, \"spill_load_bytes\": 0, \"shared_bytes\": 0, \"source\": \"nvcc (test, sm_86)\"}],\n",
       false},
      {"\"resources\": [{\"arch\": \"sm_90\", \"compiler\": \"nvcc\", \"registers\": 255, \"stack_bytes\": 0, "
       "\"spill_store_bytes\": 0, \"spill_load_bytes\": 0, \"shared_bytes\": 0, \"source\": \"nvcc (test, sm_90)\"}],\n",
       true},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    wgp_model *m = model_with(cases[i].insert);
    bound b;
    bind(&b, "256,256", "32,32", "N=256");
    b.in.kernel = wgp_model_kernel(m, 0);
    wgp_diag d;
    wgp_estimate *e = NULL;
    wgp_status st = wgp_estimate_new(&b.in, 0, &e, &d);
    if (cases[i].refused) {
      assert_int_equal(st, WGP_ERR_INPUT);
      assert_non_null(strstr(d.message, "registers"));
    } else {
      if (st != WGP_OK)
        fail_msg("case %zu refused: %s", i, d.message);
      const char *src;
      /* 1024 threads: 64 registers each fill the H100's 65536 */
      assert_int_equal(wgp_estimate_registers(e, &src), 64);
      assert_true(wgp_estimate_registers_fitted(e));
      assert_non_null(strstr(src, "255 would not fit a group of 1024, taken as 64"));
      assert_true(wgp_kernel_registers_for_group(b.in.kernel, h100, 0, 256, NULL, NULL, 0, NULL) == 255);
      wgp_estimate_free(e);
    }
    /* a count the user gives is binding */
    assert_int_equal(wgp_estimate_new(&b.in, 255, &e, &d), WGP_ERR_INPUT);
    wgp_launch_free(b.l);
    wgp_model_free(m);
  }
}

/* wgp_estimate_bounds (wgtune --prune's level): the estimate lies within
 * them for launches of every kind (memory-bound, barrier-bound, one wave or
 * many, the registers from the model or given), the best case every access
 * hitting, the worst every one missing; a launch the estimate refuses is
 * refused with the same message. */
static void bounds_hold_the_estimate(void **state) {
  (void)state;
  static const struct {
    const char *global, *local, *n;
    unsigned regs;
  } cases[] = {
      {"256,256", "16,16", "N=256", 0},  {"1024,1024", "16,16", "N=1024", 0}, {"1024,1024", "32,8", "N=1024", 0},
      {"64,64", "8,8", "N=64", 0},       {"2048,2048", "32,32", "N=2048", 32}, {"512,512", "16,16", "N=512", 128},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    bound b;
    bind(&b, cases[i].global, cases[i].local, cases[i].n);
    wgp_diag d;
    double lo = -1, hi = -1;
    assert_int_equal(wgp_estimate_bounds(&b.in, cases[i].regs, &lo, &hi, &d), WGP_OK);
    wgp_estimate *e;
    wgp_sim_result res;
    assert_int_equal(wgp_estimate_new(&b.in, cases[i].regs, &e, &d), WGP_OK);
    assert_int_equal(wgp_estimate_simulate(e, 0, &res, &d), WGP_OK);
    if (!(lo > 0 && lo <= res.best_us * (1 + 1e-12) && res.time_us <= hi * (1 + 1e-12) && res.worst_us <= hi * (1 + 1e-12)))
      fail_msg("case %zu (%s / %s): bounds %g..%g, estimate %g (its own %g..%g)", i, cases[i].global, cases[i].local,
               lo, hi, res.time_us, res.best_us, res.worst_us);
    wgp_estimate_free(e);
    wgp_launch_free(b.l);
  }
  bound b;
  bind(&b, "256,256", "32,32", "N=256");
  wgp_diag d, d2;
  double lo = -1, hi = -1;
  wgp_estimate *e;
  assert_int_equal(wgp_estimate_bounds(&b.in, 255, &lo, &hi, &d), WGP_ERR_INPUT);
  assert_int_equal(wgp_estimate_new(&b.in, 255, &e, &d2), WGP_ERR_INPUT);
  assert_string_equal(d.message, d2.message);
  assert_true(lo == -1 && hi == -1);
  wgp_launch_free(b.l);
}

/* Binds L to K (ALIGN, LOCAL: room for its arguments and arrays), estimates
 * it on the H100 into R and takes its bounds for any hit rates. */
static void estimate_with_bounds(wgp_launch *l, const wgp_kernel *k, uint64_t *align, uint64_t *local,
                                 wgp_sim_result *r, double *lo, double *hi) {
  wgp_diag d;
  wgp_analysis_input in = {0};
  assert_int_equal(wgp_launch_bind(l, k, &in.launch, align, local, &d), WGP_OK);
  in.kernel = k;
  in.gpu = h100;
  in.buffer_align = align;
  in.local_bytes = local;
  wgp_estimate *e;
  assert_int_equal(wgp_estimate_new(&in, 0, &e, &d), WGP_OK);
  assert_int_equal(wgp_estimate_simulate(e, 0, r, &d), WGP_OK);
  assert_int_equal(wgp_estimate_bounds(&in, 0, lo, hi, &d), WGP_OK);
  wgp_estimate_free(e);
}

/* An atomic whose address comes from a load (b[(int)(a[i] * k)] += 1, a
 * histogram) cannot go before that load returns, even with no arithmetic
 * between them in the block's counts: one warp takes the load's latency and
 * then the atomic's, as the round's best case counts them.  The atomic, a
 * load to the pipeline, went at once after the load before (the block's
 * loads issue back to back), and the estimate fell below its own best case
 * (fuzz/regress/estimate/atomic-after-its-load). */
static void atomic_waits_for_its_index(void **state) {
  (void)state;
  static const char mod[] =
      "{\"format\":\"wgperf-kernel-model\",\"version\":1,\"producer\":\"test\",\"module\":\"histo.cl\","
      "\"source_file\":\"histo.cl\",\"target\":\"nvptx64-nvidia-nvcl\",\"diagnostics\":[],\"kernels\":[{"
      "\"name\":\"histo\",\"symbol\":\"histo\",\"signature\":\"histo\",\"language\":\"opencl\",\"source\":\"histo.cl:1\","
      "\"args\":[{\"index\":0,\"name\":\"a\",\"type\":\"float*\",\"kind\":\"pointer\",\"space\":\"global\","
      "\"elem_bytes\":4,\"elem_bytes_from\":\"type\",\"const\":true},"
      "{\"index\":1,\"name\":\"b\",\"type\":\"float*\",\"kind\":\"pointer\",\"space\":\"global\",\"elem_bytes\":4,"
      "\"elem_bytes_from\":\"type\",\"const\":false}],\"arrays\":[],"
      "\"blocks\":[{\"id\":0,\"name\":\"entry\",\"source\":\"histo.cl:2\",\"loop\":null,"
      "\"counts\":{\"ld.global.32\":1,\"atom.global\":1},\"succs\":[],\"back_edges\":[],\"memory\":[0,1],"
      "\"exit\":true,\"branch\":null}],\"loops\":[],"
      "\"memory\":[{\"id\":0,\"block\":0,\"kind\":\"load\",\"space\":\"global\",\"bytes\":4,"
      "\"base\":{\"kind\":\"arg\",\"name\":\"a\",\"arg\":0},\"offset\":\"(sext:34:64 (mul:34 4 (trunc:64:34 gid.x)))\","
      "\"affine\":true,\"non_affine\":null,\"source\":\"histo.cl:3\"},"
      "{\"id\":1,\"block\":0,\"kind\":\"atomic\",\"space\":\"global\",\"bytes\":4,"
      "\"base\":{\"kind\":\"arg\",\"name\":\"b\",\"arg\":1},"
      "\"offset\":\"(mul:nsw:nuw 4 (zext:4:64 (trunc:32:4 (fptosi (fmul (load M0) ?fconst)))))\",\"affine\":false,"
      "\"non_affine\":\"indirect: depends on values loaded by M0\",\"atomic_op\":\"atomic_add\","
      "\"source\":\"histo.cl:4\"}],"
      "\"calls\":[],\"static_counts\":{\"ld.global.32\":1,\"atom.global\":1},\"irreducible\":false,"
      "\"register_pressure\":4,\"diagnostics\":[]}]}";
  wgp_diag d;
  wgp_model *m;
  assert_int_equal(wgp_model_load_string(mod, strlen(mod), "histo.json", &m, &d), WGP_OK);
  const wgp_kernel *k = wgp_model_kernel(m, 0);
  wgp_launch *l = wgp_launch_new();
  assert_int_equal(wgp_launch_set_option(l, "--global", "128", &d), WGP_OK);
  assert_int_equal(wgp_launch_set_option(l, "--local", "128", &d), WGP_OK);
  uint64_t align[2] = {0}, local[2] = {0};
  wgp_sim_result r;
  double lo, hi;
  estimate_with_bounds(l, k, align, local, &r, &lo, &hi);
  double l2 = wgp_gpu_latency_l2_hit_cycles(h100);
  print_message("one group: round %.1f cycles (L2 latency %.0f), %.4f us within %.4f..%.4f (bounds %.4f..%.4f)\n",
                r.round_cycles, l2, r.time_us, r.best_us, r.worst_us, lo, hi);
  assert_true(r.round_cycles >= 2 * l2);
  assert_true(r.best_us <= r.time_us * (1 + 1e-12) && lo <= r.time_us * (1 + 1e-12));
  wgp_launch_free(l);
  wgp_model_free(m);
}

/* Groups whose warps exit at once leave the rounds when their chain is short
 * beside the longest class's, which grows with the misses: a launch whose
 * 4,063,232 of 4,194,304 groups exit at once by the chain of every miss only
 * had a best case (every access hitting, every group in the rounds) of
 * 6391 us for an estimate of 2520 us and a worst case of 4396 us.  The best
 * case now takes the most such groups, the worst the fewest (a fuzzed
 * stencil, fuzz/regress/estimate/bounds-idle-groups-by-hit-rate: its first
 * line the launch, the rest the model). */
static void bounds_take_groups_that_exit_at_once(void **state) {
  (void)state;
  wgp_diag d;
  char *text;
  size_t len;
  assert_int_equal(
      wgp_read_file(WGPERF_SOURCE_DIR "/fuzz/regress/estimate/bounds-idle-groups-by-hit-rate", &text, &len, &d),
      WGP_OK);
  char *nl = strchr(text, '\n');
  assert_non_null(nl);
  *nl = 0;
  wgp_launch *l;
  wgp_model *m;
  assert_int_equal(wgp_launch_load_string(text, "launch.json", &l, &d), WGP_OK);
  assert_int_equal(wgp_model_load_string(nl + 1, strlen(nl + 1), "model.json", &m, &d), WGP_OK);
  const wgp_kernel *k = wgp_model_kernel(m, 0);
  size_t na = wgp_kernel_num_args(k);
  uint64_t *align = calloc(na + 1, sizeof *align), *local = calloc(na + wgp_kernel_num_arrays(k) + 1, sizeof *local);
  wgp_sim_result r;
  double lo, hi;
  estimate_with_bounds(l, k, align, local, &r, &lo, &hi);
  print_message("%llu idle groups: estimate %.1f us, its own %.1f..%.1f, for any hit rates %.1f..%.1f\n",
                (unsigned long long)r.idle_groups, r.time_us, r.best_us, r.worst_us, lo, hi);
  assert_true(r.idle_groups > 0);
  assert_true(lo <= r.time_us * (1 + 1e-12) && r.time_us <= hi * (1 + 1e-12) && lo <= hi);
  free(align);
  free(local);
  wgp_model_free(m);
  wgp_launch_free(l);
  free(text);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(same_as_by_hand),
      cmocka_unit_test(registers_fall_back_to_the_ir_estimate),
      cmocka_unit_test(impossible_launch_names_its_limit),
      cmocka_unit_test(registers_over_the_gpu_limit_are_capped),
      cmocka_unit_test(registers_never_refused_on_a_count_not_for_this_gpu),
      cmocka_unit_test(bounds_hold_the_estimate),
      cmocka_unit_test(atomic_waits_for_its_index),
      cmocka_unit_test(bounds_take_groups_that_exit_at_once),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
