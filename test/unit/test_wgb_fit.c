/* test_wgb_fit.c - the microbenchmark result table and the fit (microbench/fit).
 *
 * The end-to-end case fits the CUDA suite's committed H100 run and compares every
 * fitted field with the shipped description that was written by hand from the same
 * rows (gpus/h100-sxm.json): the fit must reproduce it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "wgb_fit.h"
#include "wgb_table.h"
#include "wgperf/gpu.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void test_line(void **state) {
  (void)state;
  double x[] = {1, 2, 4, 8}, y[4], a, b;
  for (int i = 0; i < 4; i++)
    y[i] = 3 + 2 * x[i];
  assert_true(wgb_fit_line(x, y, 4, &a, &b));
  assert_true(fabs(a - 3) < 1e-12 && fabs(b - 2) < 1e-12);
  assert_false(wgb_fit_line(x, y, 1, &a, &b));
  double same[] = {5, 5, 5};
  assert_false(wgb_fit_line(same, y, 3, &a, &b));
}

static void test_knee(void **state) {
  (void)state;
  double x[] = {64, 1, 2, 4, 8, 16, 32}, y[7], s, p;
  for (int i = 0; i < 7; i++)
    y[i] = fmin(5 * x[i], 100);
  assert_true(wgb_fit_knee(x, y, 7, &s, &p));
  assert_true(fabs(s - 5) < 1e-9);
  assert_true(fabs(p - 100) < 1e-9);
  /* never saturating: the peak is the last point's */
  double y2[7];
  for (int i = 0; i < 7; i++)
    y2[i] = 3 * x[i];
  assert_true(wgb_fit_knee(x, y2, 7, &s, &p));
  assert_true(fabs(s - 3) < 1e-9 && fabs(p - 192) < 1e-9);
  double bad[] = {0, 1};
  assert_false(wgb_fit_knee(bad, y, 2, &s, &p));
}

static void test_levels(void **state) {
  (void)state;
  double fp[40], lat[40];
  int n = 0;
  for (double f = 8192; f <= 256.0 * (1 << 20); f *= 2, n++) {
    fp[n] = f;
    lat[n] = f < 262144 ? 32 : f < 48.0 * (1 << 20) ? 270 : 650;
  }
  double a, b;
  wgb_detect_levels(fp, lat, n, &a, &b);
  assert_true(a == 262144);
  assert_true(b == 64.0 * (1 << 20));
  for (int i = 0; i < n; i++)
    lat[i] = 30;
  wgb_detect_levels(fp, lat, n, &a, &b);
  assert_true(a == 0 && b == 0);
  /* one jump only */
  for (int i = 0; i < n; i++)
    lat[i] = fp[i] < 1e6 ? 30 : 100;
  wgb_detect_levels(fp, lat, n, &a, &b);
  assert_true(a == 1048576 && b == 0);
}

static void test_granule(void **state) {
  (void)state;
  /* the H100 L1 stride sweep of microbench/results/h100-2026-11-22 */
  double st[] = {8, 16, 32, 64, 128, 256, 512, 1024};
  double lat[] = {92.7, 153.3, 274.8, 271.1, 271.9, 272.0, 272.1, 271.9};
  assert_true(wgb_detect_granule(st, lat, 8) == 32);
  double flat[] = {10, 10, 10, 10, 10, 10, 10, 11};
  assert_true(wgb_detect_granule(st, flat, 8) == 0);
}

static char *tmp_path(const char *name) {
  static char buf[256];
  snprintf(buf, sizeof buf, "/tmp/wgb_fit_test_%d_%s", (int)getpid(), name);
  return buf;
}

static void test_table_round_trip(void **state) {
  (void)state;
  wgb_table t;
  wgb_table_init(&t);
  assert_int_equal(wgb_table_set_header(&t, "gpu", "Some GPU, rev 2"), 0);
  assert_int_equal(wgb_table_set_header(&t, "sm_count", "4"), 0);
  assert_int_equal(wgb_table_set_header(&t, "sm_count", "8"), 0);
  double v[] = {3, 1, 2};
  assert_int_equal(wgb_table_add_stats(&t, "lat_l1", "footprint_bytes=16384;stride_bytes=128", "cycles", v, 3,
                                       "a note, with a comma"),
                   0);
  assert_int_equal(wgb_table_add_error(&t, "lat_l2", "", "chain ended at 5, expected 7"), 0);
  assert_true(t.rows[0].median == 2 && t.rows[0].min == 1 && t.rows[0].max == 3);
  char *path = tmp_path("rt.csv");
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  assert_int_equal(wgb_table_write_csv(&t, f), 0);
  fclose(f);
  wgb_table r;
  wgb_table_init(&r);
  char err[256];
  assert_int_equal(wgb_table_read_csv(&r, path, err, sizeof err), 0);
  assert_int_equal(r.n, 2);
  assert_string_equal(wgb_table_header(&r, "gpu"), "Some GPU; rev 2");
  assert_string_equal(wgb_table_header(&r, "sm_count"), "8");
  assert_true(r.rows[0].ok && r.rows[0].median == 2 && r.rows[0].repeats == 3);
  assert_string_equal(r.rows[0].note, "a note; with a comma");
  double fp = 0;
  char s[32];
  assert_true(wgb_row_param(&r.rows[0], "footprint_bytes", &fp) && fp == 16384);
  assert_true(wgb_row_param_str(&r.rows[0], "stride_bytes", s, sizeof s) && strcmp(s, "128") == 0);
  assert_false(wgb_row_param(&r.rows[0], "stride", &fp));
  assert_false(r.rows[1].ok);
  assert_string_equal(r.rows[1].note, "chain ended at 5; expected 7");
  wgb_table_free(&r);
  wgb_table_free(&t);

  /* malformed files name the line */
  struct {
    const char *text, *msg;
  } bad[] = {
      {"# a=1\nbench,param\n", ":2: expected the column line"},
      {WGB_CSV_COLUMNS "\nlat,,1,cycles\n", ":2: expected 10 columns, got 4"},
      {WGB_CSV_COLUMNS "\nlat,,1,cycles,1,1,1,1,maybe,\n", ":2: status must be 'ok' or 'error', got 'maybe'"},
      {WGB_CSV_COLUMNS "\nlat,,,cycles,,,,1,ok,\n", ":2: 'lat' row has no median"},
      {"# only a header\n", "no column line"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    f = fopen(path, "w");
    fputs(bad[i].text, f);
    fclose(f);
    wgb_table_init(&r);
    assert_int_equal(wgb_table_read_csv(&r, path, err, sizeof err), -1);
    if (!strstr(err, bad[i].msg))
      fail_msg("expected '%s' in '%s'", bad[i].msg, err);
    wgb_table_free(&r);
  }
  remove(path);
  wgb_table_init(&r);
  assert_int_equal(wgb_table_read_csv(&r, "/nonexistent/x.csv", err, sizeof err), -1);
  assert_non_null(strstr(err, "/nonexistent/x.csv: cannot open"));
  wgb_table_free(&r);
}

static void add(wgb_table *t, const char *bench, const char *param, const char *unit, double v) {
  assert_int_equal(wgb_table_add_value(t, bench, param, unit, v, ""), 0);
}

/* OpenCL-style rows: per-step operations, barrier and launch fits, geometry from the
 * curve, the latency split. */
static void test_fit_synthetic(void **state) {
  (void)state;
  wgb_table t;
  wgb_table_init(&t);
  wgb_table_set_header(&t, "gpu", "Test GPU");
  wgb_table_set_header(&t, "sm_count", "10");
  wgb_table_set_header(&t, "warp_size", "32");
  wgb_table_set_header(&t, "compute_capability", "8.6");
  add(&t, "clock_attr", "", "MHz", 1500);
  add(&t, "arith_latency", "op=rotxor", "cycles", 9);
  add(&t, "arith_throughput", "op=rotxor", "ops/cycle/SM", 30);
  add(&t, "arith_latency", "op=select", "cycles", 8);
  add(&t, "arith_throughput", "op=select", "ops/cycle/SM", 32);
  add(&t, "arith_latency", "op=fadd", "cycles", 4);   /* no throughput row: not fitted */
  for (int b = 32; b <= 1024; b *= 2) {
    char p[64];
    snprintf(p, sizeof p, "block=%d;blocks_per_sm=1", b);
    add(&t, "barrier", p, "cycles", 10 + 2.5 * (b / 32));
    snprintf(p, sizeof p, "block=%d;blocks_per_sm=4", b);
    add(&t, "barrier", p, "cycles", 999); /* throughput view: not in the fit */
  }
  add(&t, "launch_throughput", "blocks=1", "us", 4.5);
  for (int g = 1; g <= 10000; g *= 10) {
    char p[64];
    snprintf(p, sizeof p, "blocks=%d;block=256", g);
    add(&t, "launch_blocks", p, "us", 4 + 0.002 * g);
  }
  for (double f = 4096; f <= 64.0 * (1 << 20); f *= 2) {
    char p[64];
    snprintf(p, sizeof p, "footprint_bytes=%.0f;stride_bytes=128", f);
    add(&t, "geom_curve", p, "cycles", f < 131072 ? 30 : f < 4.0 * (1 << 20) ? 200 : 500);
  }
  add(&t, "lat_shared_conflict", "ways=1;pitch_words=33", "cycles", 30);
  add(&t, "lat_shared_conflict", "ways=32;pitch_words=32", "cycles", 30 + 31 * 2.5);
  add(&t, "lat_dram", "footprint_bytes=134217728;stride_bytes=256", "cycles", 600);
  add(&t, "lat_dram", "footprint_bytes=67108864;stride_bytes=256", "cycles", 580);
  /* DRAM bandwidth vs warps: 2 GB/s per warp per SM... saturating at 300 GB/s */
  for (int w = 1; w <= 64; w *= 2) {
    char p[96];
    snprintf(p, sizeof p, "warps_per_sm=%d;ilp=1;bytes_per_lane=16", w);
    add(&t, "bw_dram_occupancy", p, "GB/s", fmin(20.0 * w, 300));
    snprintf(p, sizeof p, "warps_per_sm=%d;ilp=4;bytes_per_lane=16", w);
    add(&t, "bw_dram_occupancy", p, "GB/s", 1); /* ilp 4: ignored */
  }
  /* one SM's reads from L2: its port, bytes per cycle as measured */
  add(&t, "bw_l2_port", "bytes=8388608;passes=16;block=1024", "B/cycle/SM", 29.5);
  /* random sectors at 2 per ns; no bus width yet: no row geometry */
  add(&t, "bw_dram_scatter", "bytes=1073741824;loads=1048576", "sectors/ns", 2);
  wgb_fit fit;
  wgb_fit_options o = {true, 128, 128};
  assert_int_equal(wgb_fit_run(&t, "unit test", &o, &fit), 0);
  assert_null(wgb_fit_get(&fit, "memory.dram_devices"));
  assert_null(wgb_fit_get(&fit, "memory.dram_activate_window_ns"));
  wgb_fit_free(&fit);
  /* a 384-bit bus: 12 devices, 4 activations per window each, 2 per ns in all */
  assert_int_equal(wgb_table_set_header(&t, "bus_width_bits", "384"), 0);
  assert_int_equal(wgb_fit_run(&t, "unit test", &o, &fit), 0);
  assert_true(wgb_fit_get(&fit, "memory.dram_devices")->value == 12);
  assert_true(wgb_fit_get(&fit, "memory.l2_port_bytes_per_cycle")->value == 29.5);
  assert_non_null(strstr(wgb_fit_get(&fit, "memory.l2_port_bytes_per_cycle")->source, "bw_l2_port"));
  assert_true(fabs(wgb_fit_get(&fit, "memory.dram_activate_window_ns")->value - 24) < 1e-9);
  assert_non_null(strstr(wgb_fit_get(&fit, "memory.dram_activate_window_ns")->source, "bw_dram_scatter"));
  assert_true(wgb_fit_get(&fit, "memory.dram_banks_per_device")->value == 16);
  /* the assumed row geometry is not passed off as measured */
  assert_true(strncmp(wgb_fit_get(&fit, "memory.dram_banks_per_device")->source, "assumed:", 8) == 0);
  assert_true(strncmp(wgb_fit_get(&fit, "memory.dram_row_bytes")->source, "assumed:", 8) == 0);
  assert_true(strncmp(wgb_fit_get(&fit, "memory.dram_activate_window_ns")->source, "measured:", 9) == 0);
  assert_true(wgb_fit_get(&fit, "memory.dram_row_bytes")->value == 2048);
  assert_true(wgb_fit_get(&fit, "memory.dram_interleave_bytes")->value == 256);
  const wgb_field *f;
  assert_non_null(f = wgb_fit_get(&fit, "ops.int_logic.latency_cycles"));
  assert_true(f->value == 4.5);
  assert_non_null(strstr(f->source, "measured: unit test (arith_latency/arith_throughput op=rotxor"));
  assert_true(wgb_fit_get(&fit, "ops.int_logic.throughput_per_cycle")->value == 60);
  assert_true(wgb_fit_get(&fit, "ops.cmp_select.latency_cycles")->value == 4);
  assert_true(wgb_fit_get(&fit, "ops.cmp_select.throughput_per_cycle")->value == 64);
  assert_null(wgb_fit_get(&fit, "ops.fp32_add.latency_cycles"));
  assert_true(fabs(wgb_fit_get(&fit, "sync.barrier_base_cycles")->value - 10) < 1e-9);
  assert_true(fabs(wgb_fit_get(&fit, "sync.barrier_per_warp_cycles")->value - 2.5) < 1e-9);
  assert_true(wgb_fit_get(&fit, "launch.overhead_us")->value == 4.5);
  assert_true(fabs(wgb_fit_get(&fit, "launch.per_block_ns")->value - 2) < 1e-6);
  assert_true(wgb_fit_get(&fit, "memory.l1_bytes")->value == 131072);
  assert_true(wgb_fit_get(&fit, "memory.l2_bytes")->value == 4194304);
  assert_true(wgb_fit_get(&fit, "chip.core_clock_mhz")->value == 1500);
  assert_true(wgb_fit_get(&fit, "chip.sm_count")->value == 10);
  assert_string_equal(wgb_fit_get(&fit, "identity.architecture")->str, "ampere");
  assert_string_equal(wgb_fit_get(&fit, "identity.compute_capability")->str, "8.6");
  assert_true(wgb_fit_get(&fit, "latencies.dram_cycles")->value == 580); /* the smallest footprint */
  /* each of the 31 extra wavefronts of a 32-way conflict adds 2.5 cycles */
  assert_true(fabs(wgb_fit_get(&fit, "latencies.shared_replay_cycles")->value - 2.5) < 1e-9);
  assert_non_null(strstr(wgb_fit_get(&fit, "latencies.shared_replay_cycles")->source, "lat_shared_conflict"));
  /* Little's law: 20 GB/s per warp over 10 SMs at 1.5 GHz = 4/3 B/cycle per warp;
   * 32 lanes x 16 B in flight -> 384 cycles loaded; peak 300 GB/s = 20 B/cycle/SM ->
   * pre-wait 6.4 cycles; delay 580 - 6.4; loaded < chain: no post-wait */
  f = wgb_fit_get(&fit, "latencies.dram_cycles");
  assert_non_null(strstr(f->note, "pre-wait 6.4 + delay 573.6 cycles"));
  bool split = false;
  for (size_t i = 0; i < fit.nlines; i++)
    split |= strstr(fit.lines[i], "loaded latency 384 cycles") != NULL;
  assert_true(split);
  wgb_fit_free(&fit);

  /* Kepler-like: global loads bypass L1, so the only jump is L2's */
  o.l1_caches_global_loads = false;
  assert_int_equal(wgb_fit_run(&t, "unit test", &o, &fit), 0);
  assert_null(wgb_fit_get(&fit, "memory.l1_bytes"));
  assert_true(wgb_fit_get(&fit, "memory.l2_bytes")->value == 131072);
  wgb_fit_free(&fit);
  /* a Kepler: its 64-bit bank rows serve the one-bank chase in 16
   * transactions, so the same difference is 15 replays */
  assert_int_equal(wgb_table_set_header(&t, "compute_capability", "3.5"), 0);
  assert_int_equal(wgb_fit_run(&t, "unit test", &o, &fit), 0);
  assert_true(fabs(wgb_fit_get(&fit, "latencies.shared_replay_cycles")->value - 31 * 2.5 / 15) < 1e-9);
  assert_string_equal(wgb_fit_get(&fit, "identity.architecture")->str, "kepler");
  wgb_fit_free(&fit);
  wgb_table_free(&t);
}

static bool near(double a, double b, double rel) { return fabs(a - b) <= rel * fabs(b); }

/* The CUDA suite's H100 run, fitted, gives the hand-written H100 description. */
static void test_fit_h100_run(void **state) {
  (void)state;
  wgb_table t;
  wgb_table_init(&t);
  char err[512];
  const char *csv = WGPERF_SOURCE_DIR "/microbench/results/h100-2026-11-22/microbench/microbench-h100.csv";
  if (wgb_table_read_csv(&t, csv, err, sizeof err))
    fail_msg("%s", err);
  assert_int_equal(t.n, 212);
  wgp_gpu *g;
  wgp_diag d;
  if (wgp_gpu_load_file(WGPERF_SOURCE_DIR "/gpus/h100-sxm.json", &g, &d) != WGP_OK)
    fail_msg("%s", d.message);
  wgb_fit fit;
  wgb_fit_options o = {true, 128, 128};
  assert_int_equal(wgb_fit_run(&t, "h100 run", &o, &fit), 0);
  struct {
    const char *key;
    double want, tol;
  } cases[] = {
      {"chip.sm_count", wgp_gpu_sm_count(g), 0},
      {"chip.core_clock_mhz", wgp_gpu_core_clock_mhz(g), 1e-4},
      {"latencies.shared_cycles", wgp_gpu_latency_shared_cycles(g), 0.01},
      {"latencies.l1_hit_cycles", wgp_gpu_latency_l1_hit_cycles(g), 0.01},
      {"latencies.l2_hit_cycles", wgp_gpu_latency_l2_hit_cycles(g), 0.01},
      {"latencies.dram_cycles", wgp_gpu_latency_dram_cycles(g), 0.01},
      {"latencies.constant_hit_cycles", wgp_gpu_latency_constant_hit_cycles(g), 0.01},
      {"latencies.constant_miss_cycles", wgp_gpu_latency_constant_miss_cycles(g), 0.01},
      {"memory.l1_bytes", wgp_gpu_l1_bytes(g), 0},
      {"memory.l2_bytes", wgp_gpu_l2_bytes(g), 0},
      {"memory.l1_sector_bytes", wgp_gpu_l1_sector_bytes(g), 0},
      {"memory.dram_bandwidth_gbps", wgp_gpu_dram_bandwidth_gbps(g), 0.01},
      {"memory.dram_copy_bandwidth_gbps", wgp_gpu_dram_copy_bandwidth_gbps(g), 0.01},
      {"memory.l2_bandwidth_gbps", wgp_gpu_l2_bandwidth_gbps(g), 0.01},
      {"memory.shared_bandwidth_bytes_per_cycle", wgp_gpu_shared_bandwidth_bytes_per_cycle(g), 0.01},
      {"sync.barrier_base_cycles", wgp_gpu_barrier_base_cycles(g), 0.01},
      {"sync.barrier_per_warp_cycles", wgp_gpu_barrier_per_warp_cycles(g), 0.01},
      {"launch.overhead_us", wgp_gpu_launch_overhead_us(g), 0.01},
      {"launch.per_block_ns", wgp_gpu_launch_per_block_ns(g), 0.05},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const wgb_field *f = wgb_fit_get(&fit, cases[i].key);
    if (!f)
      fail_msg("%s not fitted", cases[i].key);
    if (!near(f->value, cases[i].want, cases[i].tol))
      fail_msg("%s: fitted %g, description has %g", cases[i].key, f->value, cases[i].want);
  }
  /* every class the CUDA suite measures (20 with the fast intrinsics, sfu_fast) */
  size_t nmeasured = 0;
  for (int c = 0; c < WGP_OP_COUNT; c++) {
    char key[96];
    snprintf(key, sizeof key, "ops.%s.latency_cycles", wgp_op_class_name((wgp_op_class)c));
    const wgb_field *lat = wgb_fit_get(&fit, key);
    snprintf(key, sizeof key, "ops.%s.throughput_per_cycle", wgp_op_class_name((wgp_op_class)c));
    const wgb_field *thr = wgb_fit_get(&fit, key);
    assert_true((lat == NULL) == (thr == NULL));
    if (!lat)
      continue;
    nmeasured++;
    if (!near(lat->value, wgp_gpu_op_latency_cycles(g, (wgp_op_class)c), 0.01) ||
        !near(thr->value, wgp_gpu_op_throughput_per_cycle(g, (wgp_op_class)c), 0.01))
      fail_msg("%s: fitted %g / %g, description has %g / %g", wgp_op_class_name((wgp_op_class)c), lat->value,
               thr->value, wgp_gpu_op_latency_cycles(g, (wgp_op_class)c),
               wgp_gpu_op_throughput_per_cycle(g, (wgp_op_class)c));
  }
  assert_int_equal(nmeasured, 20);
  wgb_fit_free(&fit);
  wgp_gpu_free(g);
  wgb_table_free(&t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_line),        cmocka_unit_test(test_knee),
      cmocka_unit_test(test_levels),      cmocka_unit_test(test_granule),
      cmocka_unit_test(test_table_round_trip), cmocka_unit_test(test_fit_synthetic),
      cmocka_unit_test(test_fit_h100_run),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
