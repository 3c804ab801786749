/* test_baseline.c - the BSP model of seeds/003 and the seeds/002-style
 * roofline on a vector add whose counts are known by hand, and on a launch
 * with a partial last group (the guarded lanes do no work). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "wgperf/baseline.h"
#include "wgperf/estimate.h"
#include "wgperf/launch.h"

static wgp_model *model;
static wgp_gpu *gpu;

static int setup(void **state) {
  wgp_diag d;
  (void)state;
  if (wgp_model_load_file(WGPERF_SOURCE_DIR "/test/unit/data/vadd_cuda.plugin.json", &model, &d) != WGP_OK)
    return -1;
  return wgp_gpu_load_file(WGPERF_SOURCE_DIR "/gpus/gtx-980.json", &gpu, &d) == WGP_OK ? 0 : -1;
}

static int teardown(void **state) {
  (void)state;
  wgp_model_free(model);
  wgp_gpu_free(gpu);
  return 0;
}

typedef struct run {
  wgp_launch *l;
  uint64_t align[4], local[32];
  wgp_analysis_input in;
  wgp_estimate *e;
} run;

static void start(run *r, const char *global, const char *n) {
  wgp_diag d;
  memset(r, 0, sizeof *r);
  r->l = wgp_launch_new();
  assert_int_equal(wgp_launch_set_option(r->l, "--global", global, &d), WGP_OK);
  assert_int_equal(wgp_launch_set_option(r->l, "--local", "256", &d), WGP_OK);
  assert_int_equal(wgp_launch_set_option(r->l, "--arg", n, &d), WGP_OK);
  const wgp_kernel *k = wgp_model_kernel(model, 0);
  assert_int_equal(wgp_launch_bind(r->l, k, &r->in.launch, r->align, r->local, &d), WGP_OK);
  r->in.kernel = k;
  r->in.gpu = gpu;
  r->in.buffer_align = r->align;
  r->in.local_bytes = r->local;
  assert_int_equal(wgp_estimate_new(&r->in, 16, &r->e, &d), WGP_OK);
}

static void stop(run *r) {
  wgp_estimate_free(r->e);
  wgp_launch_free(r->l);
}

#define NEAR(a, b) assert_true(fabs((a) - (double)(b)) <= 1e-9 * fabs((double)(b)))

static void bsp_by_hand(void **state) {
  (void)state;
  run r;
  start(&r, "1048576", "n=1048576");
  const wgp_kernel *k = r.in.kernel;
  wgp_bsp_result b;
  wgp_diag d;
  assert_int_equal(wgp_baseline_bsp(k, gpu, wgp_estimate_analysis(r.e), 1048576, &b, &d), WGP_OK);
  /* one FP32 add, two global loads and one store per thread, no shared memory */
  NEAR(b.comp_cycles, 24);
  NEAR(b.ld_global, 2);
  NEAR(b.st_global, 1);
  assert_true(b.ld_shared == 0 && b.st_shared == 0);
  NEAR(b.cores, 16 * 128);
  NEAR(b.time_s, 1048576.0 * (24 + 3 * 500) / (wgp_gpu_core_clock_mhz(gpu) * 1e6 * 2048));
  assert_true(wgp_analysis_lane_ops(k, wgp_estimate_analysis(r.e), WGP_OP_FP32_ADD) == 1048576);
  stop(&r);
  /* 1000 threads of work in 1024: the per-thread averages see the 24 idle lanes */
  start(&r, "1024", "n=1000");
  assert_int_equal(wgp_baseline_bsp(k, gpu, wgp_estimate_analysis(r.e), 1024, &b, &d), WGP_OK);
  NEAR(b.ld_global, 2 * 1000.0 / 1024);
  NEAR(b.comp_cycles, 24 * 1000.0 / 1024);
  assert_int_equal(wgp_baseline_bsp(k, gpu, wgp_estimate_analysis(r.e), 0, &b, &d), WGP_ERR_INPUT);
  stop(&r);
}

static void roofline_by_hand(void **state) {
  (void)state;
  run r;
  start(&r, "4194304", "n=4194304");
  const wgp_kernel *k = r.in.kernel;
  wgp_roofline_result f;
  wgp_diag d;
  assert_int_equal(
      wgp_baseline_roofline(k, gpu, wgp_estimate_analysis(r.e), wgp_estimate_cache(r.e), 16384, &f, &d), WGP_OK);
  /* streaming, no reuse: 12 bytes per element through L2 and DRAM */
  NEAR(f.l2_bytes, 12.0 * 4194304);
  assert_true(fabs(f.dram_bytes - 12.0 * 4194304) < 0.01 * 12.0 * 4194304);
  NEAR(f.dram_s, f.dram_bytes / (wgp_gpu_dram_bandwidth_gbps(gpu) * 1e9));
  /* one L1 lookup per warp request: 3 per warp */
  NEAR(f.l1_cycles, 3.0 * 4194304 / 32);
  assert_string_equal(f.limiter, "dram");
  NEAR(f.time_s, f.dram_s);
  assert_true(f.ops_s > 0 && f.ops_s < f.dram_s);
  /* a cache result of another kernel is refused */
  wgp_cache_result other = *wgp_estimate_cache(r.e);
  other.num_accesses++;
  assert_int_equal(wgp_baseline_roofline(k, gpu, wgp_estimate_analysis(r.e), &other, 16384, &f, &d), WGP_ERR_INPUT);
  assert_non_null(strstr(d.message, "cache result for 4 accesses, kernel has 3"));
  stop(&r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(bsp_by_hand),
      cmocka_unit_test(roofline_by_hand),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
