/* test_pipeline.c - the round simulation, kernel time and bounds (sim/pipeline.c,
 * sim/bounds.c) on kernels extracted by the real plugin
 * (test/unit/data/trace_kernels.json, pipeline_kernels.json). */
/* cmocka.h needs these first */
/* clang-format off */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
/* clang-format on */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wgperf/gpu.h"
#include "wgperf/model.h"
#include "wgperf/pipeline.h"
#include "wgperf/warps.h"

static wgp_model *model, *model2, *model3, *cur;
static wgp_gpu *h100;
static int64_t arg_n;

static wgp_eval_status args(void *user, const wgp_sym *sym, int64_t *value, char *reason, size_t size) {
  (void)user;
  if (sym->kind == WGP_SYM_ARG && strcmp(sym->name, "n") == 0) {
    *value = arg_n;
    return WGP_EVAL_OK;
  }
  snprintf(reason, size, "no value");
  return WGP_EVAL_UNKNOWN;
}

static int setup(void **state) {
  wgp_diag d;
  (void)state;
  if (wgp_model_load_file(WGPERF_SOURCE_DIR "/test/unit/data/trace_kernels.json", &model, &d) != WGP_OK)
    return -1;
  if (wgp_model_load_file(WGPERF_SOURCE_DIR "/test/unit/data/pipeline_kernels.json", &model2, &d) != WGP_OK)
    return -1;
  if (wgp_model_load_file(WGPERF_SOURCE_DIR "/test/unit/data/warp_kernels.json", &model3, &d) != WGP_OK)
    return -1;
  cur = model;
  return wgp_gpu_load_builtin("h100-sxm", &h100, &d) == WGP_OK ? 0 : -1;
}

static int teardown(void **state) {
  (void)state;
  wgp_model_free(model);
  wgp_model_free(model2);
  wgp_model_free(model3);
  wgp_gpu_free(h100);
  return 0;
}

/* Memory costs written by hand, the same for every access of a space:
 * global: 1 request and SECTORS sectors with hit rates L1/L2; local
 * (shared): WAVES wavefronts; constant: 1 address. */
typedef struct costs_spec {
  double sectors, waves, l1, l2;
} costs_spec;

typedef struct launch {
  const wgp_kernel *k;
  wgp_trace_launch L;
  wgp_tracer *tracer;
  wgp_warp_set *set;
  wgp_access_cost *costs;
  wgp_sim_warp *warps;
  wgp_sim_input in;
} launch;

static void launch_make(launch *l, const char *kernel, uint64_t global, uint64_t local, int64_t n, costs_spec cs) {
  wgp_diag d;
  memset(l, 0, sizeof *l);
  arg_n = n;
  l->k = wgp_model_find_kernel(model, kernel);
  if (!l->k)
    l->k = wgp_model_find_kernel(model2, kernel);
  if (!l->k)
    l->k = wgp_model_find_kernel(model3, kernel);
  assert_non_null(l->k);
  l->L = (wgp_trace_launch){1, {global, 1, 1}, {local, 1, 1}, {0, 0, 0}, 32, args, NULL};
  assert_int_equal(wgp_tracer_new(l->k, &l->L, &l->tracer, &d), WGP_OK);
  assert_int_equal(wgp_warp_set_build(l->tracer, l->k, &l->L, NULL, &l->set, &d), WGP_OK);
  size_t na = wgp_kernel_num_accesses(l->k), nc = wgp_warp_set_size(l->set);
  l->costs = calloc(na ? na : 1, sizeof *l->costs);
  for (size_t a = 0; a < na; a++) {
    wgp_space sp = wgp_access_space(wgp_kernel_access(l->k, a));
    wgp_access_cost *c = &l->costs[a];
    *c = (wgp_access_cost){.requests = 1, .l1_hit = -1, .l2_hit = -1};
    if (sp == WGP_SPACE_GLOBAL || sp == WGP_SPACE_GENERIC) {
      c->sectors = cs.sectors;
      c->l1_hit = cs.l1;
      c->l2_hit = cs.l2;
    } else if (sp == WGP_SPACE_LOCAL) {
      c->wavefronts = cs.waves;
    } else if (sp == WGP_SPACE_CONSTANT) {
      c->wavefronts = 1;
    }
  }
  l->warps = calloc(nc, sizeof *l->warps);
  for (size_t i = 0; i < nc; i++) {
    const wgp_warp_class *wc = wgp_warp_set_class(l->set, i);
    l->warps[i] = (wgp_sim_warp){wc->trace, l->costs, wc->count, {wc->group[0], wc->group[1], wc->group[2]}, wc->warp};
  }
  l->in = (wgp_sim_input){.kernel = l->k,
                          .gpu = h100,
                          .warps = l->warps,
                          .num_warps = nc,
                          .groups_total = (global + local - 1) / local,
                          .warps_per_group = (unsigned)((local + 31) / 32),
                          .regs_per_thread = 32,
                          .smem_per_group_bytes = 0,
                          .threads_per_group = local};
}

static void launch_free(launch *l) {
  wgp_warp_set_free(l->set);
  wgp_tracer_free(l->tracer);
  free(l->costs);
  free(l->warps);
}

static const costs_spec coalesced = {4, 1, -1, -1};

static wgp_sim_result run_ok(const wgp_sim_input *in) {
  wgp_sim_result r;
  wgp_diag d = {{0}};
  wgp_status st = wgp_simulate(in, &r, &d);
  if (st != WGP_OK)
    fail_msg("%s", d.message);
  assert_true(r.time_us > 0 && r.cycles > 0 && r.round_cycles > 0);
  /* eq. 11-21: the simulated time lies between the bounds */
  if (!(r.best_us <= r.time_us * (1 + 1e-9) && r.time_us <= r.worst_us * (1 + 1e-9)))
    fail_msg("bounds violated: best %g time %g worst %g", r.best_us, r.time_us, r.worst_us);
  assert_true(r.best_round_cycles <= r.round_cycles * (1 + 1e-9));
  assert_true(r.round_cycles <= r.worst_round_cycles * (1 + 1e-9));
  return r;
}

static void test_vadd_basic_and_deterministic(void **state) {
  (void)state;
  launch l;
  launch_make(&l, "vadd", 1 << 16, 256, 1 << 16, coalesced);
  wgp_sim_result a = run_ok(&l.in), b = run_ok(&l.in);
  assert_memory_equal(&a, &b, sizeof a); /* same input, same bytes */
  assert_int_equal(a.active_groups_per_sm, 8);
  assert_int_equal(a.active_warps_per_sm, 64);
  assert_string_equal(a.limiter, "warps");
  assert_true(a.launch_overhead_us >= wgp_gpu_launch_overhead_us(h100));
  /* 256 groups on 132 SMs: the busiest SM runs 2 groups in one partial round */
  assert_int_equal(a.groups_per_sm, 2);
  assert_true(fabs(a.rounds - 1.0) < 1e-12);
  /* loads wait for DRAM: the round takes at least one DRAM latency */
  assert_true(a.round_cycles >= wgp_gpu_latency_dram_cycles(h100));
  assert_true(a.mem_stall_cycles[WGP_STALL_DRAM] > 0);
  /* 3 accesses of 4 sectors of 32 B per warp, 2048 warps, all to DRAM */
  assert_true(fabs(a.dram_bytes - 2048.0 * 3 * 128) < 1e-6);
  launch_free(&l);
}

static void test_memory_bound_hits_dram_bound(void **state) {
  (void)state;
  launch l;
  launch_make(&l, "vadd", 1 << 24, 256, 1 << 24, coalesced);
  wgp_sim_result r = run_ok(&l.in);
  assert_string_equal(r.bound, "dram_bandwidth");
  double bytes = 3.0 * 4 * (1 << 24);
  assert_true(fabs(r.dram_bytes - bytes) < 1);
  /* reads at the read bandwidth, the third written at what a write adds to
   * a copy (memory.dram_copy_bandwidth_gbps: the H100's copy is 8% below its
   * reads, the bus turning around) */
  assert_true(fabs(r.dram_write_bytes - bytes / 3) < 1);
  double rd = wgp_gpu_dram_bandwidth_gbps(h100), copy = wgp_gpu_dram_copy_bandwidth_gbps(h100);
  assert_true(copy > 0 && copy < rd);
  double floor_us = (bytes * 2 / 3 / rd + bytes / 3 * (2 / copy - 1 / rd)) / 1e3;
  assert_true(fabs(r.time_us - r.launch_overhead_us - floor_us) < 1e-9 * floor_us);
  assert_true(floor_us > bytes / rd / 1e3 * 1.05);
  assert_true(r.pipeline_us < floor_us);
  /* full rounds plus none partial: 65536 groups / 132 SMs = 497 groups, 8 resident */
  assert_int_equal(r.groups_per_sm, 497);
  assert_true(r.rounds > 62 && r.rounds < 63);
  /* L2 hits take the traffic off DRAM: L2 bandwidth decides then (1024-wide
   * groups, so that dispatching 16384 of them takes less than that) */
  launch_free(&l);
  launch_make(&l, "vadd", 1 << 24, 1024, 1 << 24, (costs_spec){4, 1, 0, 1});
  wgp_sim_result h = run_ok(&l.in);
  assert_true(h.dram_bytes == 0);
  assert_true(fabs(h.l2_bytes - bytes) < 1);
  assert_string_equal(h.bound, "l2_bandwidth");
  assert_true(h.time_us < r.time_us);
  launch_free(&l);
  /* the same with 32-wide groups: 524288 groups take longer to dispatch
   * (launch.per_block_ns each) than the data takes to move */
  launch_make(&l, "vadd", 1 << 24, 32, 1 << 24, (costs_spec){4, 1, 0, 1});
  wgp_sim_result d = run_ok(&l.in);
  assert_string_equal(d.bound, "block_dispatch");
  assert_true(fabs(d.time_us - d.launch_overhead_us - wgp_gpu_launch_per_block_ns(h100) * 524288 / 1e3) < 1e-6);
  launch_free(&l);
}

/* Bandwidth as a queue (docs/simulator.md): a group frees its place only when
 * its last warp is done, so an SM's two groups of 1024 leave its share of
 * DRAM idle while they drain, where eight groups of 256 keep it busy: the
 * same bytes take longer with the larger groups, above both the pipeline and
 * the bandwidth; the bounds still hold. */
static void test_groups_queue_at_dram(void **state) {
  (void)state;
  launch l;
  launch_make(&l, "vadd", 1 << 24, 256, 1 << 24, coalesced);
  wgp_sim_result s = run_ok(&l.in);
  launch_free(&l);
  launch_make(&l, "vadd", 1 << 24, 1024, 1 << 24, coalesced);
  wgp_sim_result b = run_ok(&l.in);
  launch_free(&l);
  assert_true(fabs(s.dram_bytes - b.dram_bytes) < 1);
  assert_true(fabs(s.dram_us - b.dram_us) < 1e-9 * s.dram_us);
  assert_int_equal(b.active_warps_per_sm, s.active_warps_per_sm);
  double floor_b = fmax(b.pipeline_us, b.dram_us);
  assert_true(b.time_us - b.launch_overhead_us > 1.01 * floor_b);
  assert_true(b.time_us > 1.01 * s.time_us);
  assert_string_equal(b.bound, "dram_bandwidth");
  assert_true(b.best_us <= b.time_us && b.time_us <= b.worst_us);
  /* loads that hit L1 and few groups: only the stores reach L2, far below
   * its bandwidth; the pipeline decides, the queue adds under 1% */
  launch_make(&l, "vadd", 1 << 12, 1024, 1 << 12, (costs_spec){4, 1, 1, 1});
  wgp_sim_result h = run_ok(&l.in);
  launch_free(&l);
  assert_true(h.dram_bytes == 0);
  assert_string_equal(h.bound, "pipeline");
  double t = h.time_us - h.launch_overhead_us;
  assert_true(t >= h.pipeline_us * (1 - 1e-12) && t < 1.01 * h.pipeline_us);
}

static void test_more_sectors_not_faster(void **state) {
  (void)state;
  double prev = 0;
  const double sectors[] = {1, 4, 8, 16, 32};
  for (size_t i = 0; i < 5; i++) {
    launch l;
    launch_make(&l, "gridstride", 1 << 14, 128, 1 << 18, (costs_spec){sectors[i], 1, 0.5, 0.5});
    wgp_sim_result r = run_ok(&l.in);
    assert_true(r.time_us >= prev);
    prev = r.time_us;
    launch_free(&l);
  }
}

static void test_occupancy_limited(void **state) {
  (void)state;
  launch l;
  launch_make(&l, "vadd", 1 << 22, 256, 1 << 22, coalesced);
  wgp_sim_result free_r = run_ok(&l.in);
  assert_string_equal(free_r.limiter, "warps");
  l.in.regs_per_thread = 128; /* 4096 registers per warp: 16 warps, 2 groups */
  wgp_sim_result regs = run_ok(&l.in);
  assert_string_equal(regs.limiter, "registers");
  assert_int_equal(regs.active_groups_per_sm, 2);
  assert_true(regs.rounds > free_r.rounds);
  assert_true(regs.pipeline_us > free_r.pipeline_us);
  l.in.regs_per_thread = 32;
  l.in.smem_per_group_bytes = 100000; /* two groups fit in 228 KiB */
  wgp_sim_result sm = run_ok(&l.in);
  assert_string_equal(sm.limiter, "shared_memory");
  assert_int_equal(sm.active_groups_per_sm, 2);
  launch_free(&l);
}

static void test_zero_occupancy_is_an_error(void **state) {
  (void)state;
  launch l;
  launch_make(&l, "vadd", 1 << 16, 1024, 1 << 16, coalesced);
  l.in.regs_per_thread = 64; /* fits: exactly the register file */
  run_ok(&l.in);
  l.in.regs_per_thread = 72; /* 32 warps of 2304 registers do not */
  wgp_sim_result r;
  wgp_diag d = {{0}};
  assert_int_equal(wgp_simulate(&l.in, &r, &d), WGP_ERR_INPUT);
  assert_non_null(strstr(d.message, "register"));
  l.in.regs_per_thread = 32;
  l.in.smem_per_group_bytes = 240000; /* more than an SM has */
  assert_int_equal(wgp_simulate(&l.in, &r, &d), WGP_ERR_INPUT);
  assert_non_null(strstr(d.message, "shared memory"));
  launch_free(&l);
}

static void test_barrier_heavy_reduction(void **state) {
  (void)state;
  launch l;
  launch_make(&l, "reduce", 1 << 20, 256, 0, coalesced);
  l.in.smem_per_group_bytes = 1024;
  wgp_sim_result r = run_ok(&l.in);
  assert_true(r.barrier_cycles > 0);
  assert_true(r.mem_stall_cycles[WGP_STALL_SHARED_L1] > 0);
  /* 9 barriers per group: at least 9 releases on every warp's path */
  double cost = wgp_gpu_barrier_base_cycles(h100) + 8 * wgp_gpu_barrier_per_warp_cycles(h100);
  assert_true(r.round_cycles >= 9 * cost);
  /* bank conflicts make it slower */
  launch_free(&l);
  launch_make(&l, "reduce", 1 << 20, 256, 0, (costs_spec){4, 16, -1, -1});
  l.in.smem_per_group_bytes = 1024;
  wgp_sim_result c = run_ok(&l.in);
  assert_true(c.round_cycles > r.round_cycles);
  launch_free(&l);
}

/* Extrapolated within TOL of the full simulation, simulating at most
 * MAX_SHARE of its instructions. */
static void check_extrapolation(const char *kernel, uint64_t global, uint64_t local, int64_t n, costs_spec cs,
                                double tol, double max_share) {
  launch l;
  launch_make(&l, kernel, global, local, n, cs);
  wgp_sim_result fast = run_ok(&l.in);
  l.in.flags = WGP_SIM_FULL;
  wgp_sim_result full = run_ok(&l.in);
  assert_true(fast.extrapolated);
  assert_false(full.extrapolated);
  double err = fabs(fast.round_cycles - full.round_cycles) / full.round_cycles;
  print_message("%s: extrapolated %.0f, full %.0f cycles (%.3f%%), %.0f vs %.0f instructions simulated\n", kernel,
                fast.round_cycles, full.round_cycles, 100 * err, fast.simulated_instructions,
                full.simulated_instructions);
  if (err > tol)
    fail_msg("%s: extrapolated %g vs full %g cycles", kernel, fast.round_cycles, full.round_cycles);
  /* fewer instructions simulated */
  assert_true(fast.simulated_instructions < max_share * full.simulated_instructions);
  assert_true(fabs(fast.instructions - full.instructions) <= 0.01 * full.instructions);
  launch_free(&l);
}

static void test_extrapolation_matches_full(void **state) {
  (void)state;
  /* 400 iterations per warp of a grid-stride loop, 64 warps resident */
  check_extrapolation("gridstride", 132 * 2048, 256, 132 * 2048 * 400, coalesced, 0.01, 1.0);
  /* the load/store path contended: L1 hits make loads short */
  check_extrapolation("gridstride", 132 * 2048, 256, 132 * 2048 * 400, (costs_spec){4, 1, 0.9, 0.5}, 0.01, 1.0);
  /* a nested triangular loop: 120 x 121 / 2 inner iterations */
  check_extrapolation("tri", 132 * 256, 256, 120, (costs_spec){4, 1, 1, 1}, 0.01, 1.0);
  /* a loop whose barrier is skipped after three iterations */
  check_extrapolation("evenodd", 132 * 512, 512, 300, (costs_spec){4, 1, 1, 1}, 0.01, 1.0);
  /* two barriers in every iteration of a long loop, 2 groups of 16 warps */
  check_extrapolation("tiled", 132 * 512 * 2, 512, 300, (costs_spec){4, 1, -1, -1}, 0.01, 1.0);
  /* long-latency SFU chains */
  check_extrapolation("sfu_heavy", 132 * 2048, 256, 1000, coalesced, 0.01, 1.0);
  /* 128 iterations are traced as runs of 8, 56, 56 and 8 (the ends of a
   * sampled stretch and two samples of its middle) with the same body: one
   * stretch for the steady state, no run alone is long enough */
  check_extrapolation("tiled", 132 * 512 * 2, 512, 128, (costs_spec){4, 1, -1, -1}, 0.01, 0.5);
}

static void test_barriers_in_loop_and_compute_bound(void **state) {
  (void)state;
  launch l;
  launch_make(&l, "tiled", 1 << 20, 256, 64, coalesced);
  l.in.smem_per_group_bytes = 1024;
  wgp_sim_result r = run_ok(&l.in);
  /* 128 barriers per warp: waiting for the group is a visible part */
  assert_true(r.barrier_cycles > 128 * (wgp_gpu_barrier_base_cycles(h100) + 8 * wgp_gpu_barrier_per_warp_cycles(h100)));
  launch_free(&l);
  /* sin, exp and sqrt in a loop: compute decides, not bandwidth */
  launch_make(&l, "sfu_heavy", 1 << 20, 256, 1000, coalesced);
  wgp_sim_result c = run_ok(&l.in);
  assert_string_equal(c.bound, "pipeline");
  assert_true(c.compute_cycles > 10 * c.mem_stall_cycles[WGP_STALL_DRAM]);
  /* the SFU throughput limits a full SM: the round is no shorter than the
   * SFU occupancy of 64 warps x 1000 x (sin + exp + sqrt) */
  double sfu = 32 / wgp_gpu_op_throughput_per_cycle(h100, WGP_OP_SFU_SIN) +
               32 / wgp_gpu_op_throughput_per_cycle(h100, WGP_OP_SFU_EXP) +
               32 / wgp_gpu_op_throughput_per_cycle(h100, WGP_OP_SFU_SQRT);
  assert_true(c.round_cycles >= 64 * 1000 * sfu);
  assert_true(c.best_round_cycles >= 64 * 1000 * sfu * 0.999);
  launch_free(&l);
}

static void test_time_does_not_grow_with_trip_count(void **state) {
  (void)state;
  /* 5 x 10^11 inner iterations per warp simulate in few instructions */
  launch l;
  launch_make(&l, "tri", 132 * 256, 256, 1000000, coalesced);
  wgp_sim_result r = run_ok(&l.in);
  assert_true(r.extrapolated);
  assert_true(r.simulated_instructions < 1e6);
  assert_true(r.instructions > 1e11);
  launch_free(&l);
}

static void test_bounds_hold_at_huge_trip_counts(void **state) {
  (void)state;
  /* 5 x 10^15 and 5 x 10^17 inner iterations per warp: the round takes over
   * 10^17 cycles, where a double no longer holds a single cycle; the
   * simulated time must still lie between the bounds (it fell below the best
   * case when the skipped time was added to the running clock). */
  const int64_t ns[] = {100000000, 1000000000};
  for (int i = 0; i < 2; i++) {
    launch l;
    launch_make(&l, "tri", 132 * 256, 256, ns[i], coalesced);
    wgp_sim_result r = run_ok(&l.in);
    assert_true(r.extrapolated);
    assert_true(r.instructions > 1e15);
    if (!(r.best_us <= r.time_us && r.time_us <= r.worst_us))
      fail_msg("n = %lld: time %.17g us outside [%.17g, %.17g]", (long long)ns[i], r.time_us, r.best_us, r.worst_us);
    assert_true(r.best_round_cycles <= r.round_cycles && r.round_cycles <= r.worst_round_cycles);
    launch_free(&l);
  }
}

static void test_gto_and_partial_wave(void **state) {
  (void)state;
  launch l;
  /* 132 x 9 groups of 256: 8 resident, a partial round of one group */
  launch_make(&l, "gridstride", 132 * 9 * 256, 256, 132 * 9 * 256 * 3, coalesced);
  wgp_sim_result rr = run_ok(&l.in);
  assert_int_equal(rr.groups_per_sm, 9);
  assert_true(rr.rounds > 1.0 && rr.rounds < 2.0);
  l.in.flags = WGP_SIM_GTO;
  wgp_sim_result gto = run_ok(&l.in);
  assert_true(gto.round_cycles > 0);
  launch_free(&l);
}

static void test_bad_input(void **state) {
  (void)state;
  launch l;
  launch_make(&l, "vadd", 1024, 256, 1024, coalesced);
  wgp_sim_result r;
  wgp_diag d;
  l.warps[0].costs = NULL;
  assert_int_equal(wgp_simulate(&l.in, &r, &d), WGP_ERR_INPUT);
  assert_non_null(strstr(d.message, "memory costs"));
  l.warps[0].costs = l.costs;
  l.in.warps_per_group = 3;
  assert_int_equal(wgp_simulate(&l.in, &r, &d), WGP_ERR_INPUT);
  l.in.warps_per_group = 8;
  l.costs[0].sectors = -1;
  assert_int_equal(wgp_simulate(&l.in, &r, &d), WGP_ERR_INPUT);
  l.costs[0].sectors = 4;
  l.costs[0].phases = NAN;
  assert_int_equal(wgp_simulate(&l.in, &r, &d), WGP_ERR_INPUT);
  assert_non_null(strstr(d.message, "must be finite and non-negative"));
  l.costs[0].phases = 0;
  l.in.num_warps = 0;
  assert_int_equal(wgp_simulate(&l.in, &r, &d), WGP_ERR_INPUT);
  launch_free(&l);
}

static void test_bounds_on_other_gpus(void **state) {
  (void)state;
  const char *gpus[] = {"quadro-k600", "gtx-750", "v100", "a100"};
  for (size_t i = 0; i < 4; i++) {
    wgp_gpu *g;
    wgp_diag d;
    assert_int_equal(wgp_gpu_load_builtin(gpus[i], &g, &d), WGP_OK);
    const char *kernels[] = {"vadd", "reduce", "gridstride", "spmv"};
    for (size_t k = 0; k < 4; k++) {
      launch l;
      launch_make(&l, kernels[k], 1 << 15, 128, 1 << 15, (costs_spec){8, 2, 0.3, 0.6});
      l.in.gpu = g;
      l.in.smem_per_group_bytes = 512;
      run_ok(&l.in);
      launch_free(&l);
    }
    wgp_gpu_free(g);
  }
}

/* TEXT with the value of KEY changed from CURRENT to VALUE: a new string.
 * KEY names the keys to find in turn, joined by dots ("addr.instructions":
 * the first "instructions" after "addr"). */
static char *edited(const char *text, const char *key, const char *current, const char *value) {
  char pat[64], path[64];
  snprintf(path, sizeof path, "%s", key);
  const char *at = text;
  for (char *part = strtok(path, "."); part; part = strtok(NULL, ".")) {
    snprintf(pat, sizeof pat, "\"%s\"", part);
    at = strstr(at, pat);
    assert_non_null(at);
  }
  snprintf(pat, sizeof pat, "\"value\": %s,", current);
  at = strstr(at, pat);
  assert_non_null(at);
  size_t len = strlen(text), head = (size_t)(at - text) + strlen("\"value\": "), tail = head + strlen(current);
  char *out = malloc(len - strlen(current) + strlen(value) + 1);
  assert_non_null(out);
  memcpy(out, text, head);
  strcpy(out + head, value);
  strcpy(out + head + strlen(value), text + tail);
  return out;
}

/* The shipped description NAME with N values changed (KEYS[i] from
 * CURRENT[i] to VALUES[i], as edited() does). */
static wgp_gpu *shipped_edited(const char *name, size_t n, const char *const *keys, const char *const *current,
                               const char *const *values) {
  wgp_diag d;
  char *text, file[256];
  size_t len;
  snprintf(file, sizeof file, "%s/gpus/%s.json", WGPERF_SOURCE_DIR, name);
  assert_int_equal(wgp_read_file(file, &text, &len, &d), WGP_OK);
  for (size_t i = 0; i < n; i++) {
    char *out = edited(text, keys[i], current[i], values[i]);
    free(text);
    text = out;
  }
  wgp_gpu *g;
  assert_int_equal(wgp_gpu_load_string(text, strlen(text), file, &g, &d), WGP_OK);
  free(text);
  return g;
}

/* The shipped description NAME with the value of KEY changed from CURRENT to VALUE. */
static wgp_gpu *shipped_with(const char *name, const char *key, const char *current, const char *value) {
  return shipped_edited(name, 1, &key, &current, &value);
}

/* The shipped K40 description with KEY's value changed from CURRENT to VALUE. */
static wgp_gpu *k40_with(const char *key, const char *current, const char *value) {
  return shipped_with("tesla-k40", key, current, value);
}

/* The round's scheduler loop keeps each scheduler's warps and the cycle
 * modulo the schedulers without dividing where their count is a power of
 * two; other counts divide, and a scheduler with more than 64 warps scans
 * them without the bit mask.  An SFU-heavy loop (sin, exp and sqrt) on a full
 * H100 SM of 64 warps: with 4, 3 or 2 schedulers, which share the SM's units,
 * the time moves by less than 5%; one scheduler issues the whole SM's
 * instructions, so its round is never shorter than its warps' issue slots and
 * the kernel more than 5% slower than with four; and one scheduler holding
 * 128 warps (an SM that holds 128, more than 64 on one scheduler) gives the
 * same kernel time within 5%, in rounds about twice as long. */
static void test_scheduler_counts_and_many_warps(void **state) {
  (void)state;
  const char *keys[] = {"schedulers_per_sm", "max_warps_per_sm"};
  const char *was[] = {"4", "64"};
  struct {
    const char *schedulers, *warps;
    unsigned regs;
  } sm[] = {{"4", "64", 32}, {"3", "64", 32}, {"2", "64", 32}, {"1", "64", 32}, {"1", "128", 16}};
  wgp_sim_result r[5];
  for (size_t i = 0; i < 5; i++) {
    const char *vals[] = {sm[i].schedulers, sm[i].warps};
    wgp_gpu *g = shipped_edited("h100-sxm", 2, keys, was, vals);
    assert_int_equal(wgp_gpu_schedulers_per_sm(g), (unsigned)atoi(sm[i].schedulers));
    launch l;
    launch_make(&l, "sfu_heavy", 1 << 20, 256, 1000, coalesced);
    l.in.gpu = g;
    l.in.regs_per_thread = sm[i].regs;
    r[i] = run_ok(&l.in);
    wgp_sim_result again = run_ok(&l.in);
    assert_true(r[i].cycles == again.cycles); /* deterministic */
    l.in.flags = WGP_SIM_GTO; /* greedy-then-oldest takes the scan's other branch: within the bounds too */
    run_ok(&l.in);
    assert_int_equal(r[i].active_warps_per_sm, (unsigned)atoi(sm[i].warps));
    printf("%s schedulers, %3s warps: %g cycles, rounds of %g, %g issue slots a warp\n", sm[i].schedulers, sm[i].warps,
           r[i].cycles, r[i].round_cycles, r[i].issue_cycles);
    launch_free(&l);
    wgp_gpu_free(g);
  }
  for (size_t i = 1; i < 3; i++)
    assert_true(fabs(r[i].cycles / r[0].cycles - 1) < 0.05);
  for (size_t i = 3; i < 5; i++) {
    /* one scheduler issues every warp's instructions: never fewer cycles */
    assert_true(r[i].round_cycles >= r[i].active_warps_per_sm * r[i].issue_cycles * 0.999);
    assert_true(r[i].cycles > r[0].cycles * 1.05);
  }
  assert_true(fabs(r[4].cycles / r[3].cycles - 1) < 0.05);
  assert_true(fabs(r[4].round_cycles / r[3].round_cycles - 2) < 0.1);
}

/* Uncoalesced requests hold the load/store path per distinct line they
 * touch: on a Kepler SM, whose path spends 2 cycles per line, a grid-stride
 * loop whose loads touch 32 lines each takes about twice as long as with one
 * cycle per line; with coalesced requests (1 line) the path is not what
 * limits the loop, and the time hardly changes. */
static void test_line_cycles_of_uncoalesced_requests(void **state) {
  (void)state;
  wgp_gpu *two = k40_with("global_line_cycles", "2", "2"), *one = k40_with("global_line_cycles", "2", "1");
  assert_true(wgp_gpu_global_line_cycles(two) == 2 && wgp_gpu_global_line_cycles(one) == 1);
  double t[2][2];
  const double lines[2] = {32, 1};
  for (int k = 0; k < 2; k++)
    for (int g = 0; g < 2; g++) {
      launch l;
      launch_make(&l, "gridstride", 1 << 14, 256, 1 << 20, (costs_spec){lines[k], 1, 0, 1});
      for (size_t a = 0; a < wgp_kernel_num_accesses(l.k); a++)
        if (wgp_access_space(wgp_kernel_access(l.k, a)) == WGP_SPACE_GLOBAL)
          l.costs[a].wavefronts = lines[k];
      l.in.gpu = g ? one : two;
      wgp_sim_result r = run_ok(&l.in);
      t[k][g] = r.time_us - r.launch_overhead_us;
      assert_true(r.best_us <= r.time_us && r.time_us <= r.worst_us);
      launch_free(&l);
    }
  assert_true(t[0][0] > 1.8 * t[0][1]);
  assert_true(fabs(t[1][0] - t[1][1]) <= 0.05 * t[1][1]);
  wgp_gpu_free(two);
  wgp_gpu_free(one);
}

/* Kepler and Maxwell replay a conflicting shared-memory load once per extra
 * wavefront, and the warp waits for every replay: in one group of the tree
 * reduction (256 work-items, a barrier after each of its 8 levels, warp 0
 * working in all of them) 16-way conflicts with 24 cycles per replay
 * lengthen the round by at least 15 x 24 cycles per level; conflict-free
 * loads (1 wavefront), and 16 wavefronts that a wide access needs anyway
 * (phases 16), wait no more than without replays. */
static void test_shared_replays_lengthen_the_wait(void **state) {
  (void)state;
  wgp_gpu *with = k40_with("shared_replay_cycles", "48", "24"), *none = k40_with("shared_replay_cycles", "48", "0");
  assert_true(wgp_gpu_latency_shared_replay_cycles(with) == 24 && wgp_gpu_latency_shared_replay_cycles(none) == 0);
  const double waves[3] = {16, 1, 16}, phases[3] = {0, 0, 16};
  double round[3][2];
  for (int k = 0; k < 3; k++)
    for (int g = 0; g < 2; g++) {
      launch l;
      launch_make(&l, "reduce", 256, 256, 0, (costs_spec){4, waves[k], -1, -1});
      for (size_t a = 0; a < wgp_kernel_num_accesses(l.k); a++)
        l.costs[a].phases = wgp_access_space(wgp_kernel_access(l.k, a)) == WGP_SPACE_LOCAL ? phases[k] : 0;
      l.in.smem_per_group_bytes = 1024;
      l.in.gpu = g ? none : with;
      round[k][g] = run_ok(&l.in).round_cycles;
      launch_free(&l);
    }
  assert_true(round[0][0] >= round[0][1] + 8 * 15 * 24);
  assert_true(round[1][0] == round[1][1]);
  assert_true(round[2][0] == round[2][1]);
  wgp_gpu_free(with);
  wgp_gpu_free(none);
}

/* Maxwell's shared memory is its own unit (memory.shared_own_pipe): a
 * shared request's bank conflicts queue in its pipe while global requests
 * use the load/store path, instead of both taking turns on one unit.  tiled
 * on a GTX 980, a full SM of groups of 256: with 16-way conflicted shared
 * accesses and uncoalesced global loads (32 lines a request) the round is
 * shorter with the pipe; conflict-free, the pipe changes little. */
static void test_shared_pipe_overlaps_global(void **state) {
  (void)state;
  wgp_gpu *own = shipped_with("gtx-980", "shared_own_pipe", "true", "true"),
          *one = shipped_with("gtx-980", "shared_own_pipe", "true", "false");
  assert_true(wgp_gpu_shared_own_pipe(own) && !wgp_gpu_shared_own_pipe(one));
  const double waves[2] = {16, 1};
  double round[2][2];
  for (int k = 0; k < 2; k++)
    for (int g = 0; g < 2; g++) {
      launch l;
      launch_make(&l, "tiled", 16 * 256 * 8, 256, 64, (costs_spec){32, waves[k], -1, -1});
      for (size_t a = 0; a < wgp_kernel_num_accesses(l.k); a++) {
        wgp_space sp = wgp_access_space(wgp_kernel_access(l.k, a));
        if (sp == WGP_SPACE_LOCAL)
          l.costs[a].phases = 1;
        else if (sp == WGP_SPACE_GLOBAL)
          l.costs[a].wavefronts = 32;
      }
      l.in.gpu = g ? one : own;
      l.in.smem_per_group_bytes = 1024;
      round[k][g] = run_ok(&l.in).round_cycles;
      launch_free(&l);
    }
  print_message("tiled on a GTX 980: 16-way conflicts %.0f cycles with the pipe, %.0f without; conflict-free %.0f, "
                "%.0f\n",
                round[0][0], round[0][1], round[1][0], round[1][1]);
  assert_true(round[0][0] < 0.9 * round[0][1]);
  assert_true(fabs(round[1][0] - round[1][1]) <= 0.05 * round[1][1]);
  wgp_gpu_free(own);
  wgp_gpu_free(one);
}

/* What an SM loads from L2 passes its port in turn (memory.l2_port_bytes_per_cycle),
 * loads inbound and stores outbound at the same time.  gridstride on a K40,
 * a full round of 64 warps, 64 iterations each, every access 4 sectors (128 B)
 * that hit L2: at 8 B per cycle a load and its store hold the two directions
 * 16 cycles each, so the round takes about 64 x 64 x 16 cycles, not twice
 * that, and the port is busy nearly all of it; with a port that limits nothing
 * the round is far shorter and the port idle. */
static void test_l2_port_serves_in_turn(void **state) {
  (void)state;
  wgp_gpu *narrow = k40_with("l2_port_bytes_per_cycle", "32", "8"),
          *wide = k40_with("l2_port_bytes_per_cycle", "32", "100000");
  assert_true(wgp_gpu_l2_port_bytes_per_cycle(narrow) == 8);
  double round[2], busy[2];
  for (int g = 0; g < 2; g++) {
    launch l;
    launch_make(&l, "gridstride", 1 << 16, 256, 1 << 22, (costs_spec){4, 1, 0, 1});
    l.in.gpu = g ? wide : narrow;
    wgp_sim_result r = run_ok(&l.in);
    assert_int_equal(r.active_warps_per_sm, 64);
    round[g] = r.round_cycles, busy[g] = r.l2_port_busy;
    launch_free(&l);
  }
  double port = 64.0 * 64 * 16;
  print_message("gridstride on a K40: round %.0f cycles at 8 B per cycle (port busy %.2f), %.0f unlimited (%.3f)\n",
                round[0], busy[0], round[1], busy[1]);
  assert_true(round[0] >= 0.95 * port && round[0] <= 1.25 * port);
  assert_true(busy[0] >= 0.9 && busy[0] <= 1 + 1e-9);
  assert_true(round[1] < 0.5 * round[0]);
  assert_true(busy[1] < 0.01);
  wgp_gpu_free(narrow);
  wgp_gpu_free(wide);
}

/* A load completes with its slowest sector: with the cache analysis' count
 * of requests that waited on DRAM (last_known), eight sectors of which one
 * misses wait as long as eight that all miss, not the sector-weighted mean
 * of L2 and DRAM; none waiting on DRAM is the L2 latency alone.  (32 warps
 * per SM, a latency-bound loop, hits L1 nowhere.) */
static void test_requests_wait_for_their_slowest_sector(void **state) {
  (void)state;
  double round[4];
  for (int v = 0; v < 4; v++) {
    launch l;
    /* 0: 7/8 of the sectors hit L2, by sector; 1: the same, every request
     * waiting on DRAM; 2: none hits; 3: 7/8 hit, no request waits on DRAM */
    launch_make(&l, "gridstride", 1 << 14, 128, 1 << 18, (costs_spec){8, 1, 0, v == 2 ? 0 : 0.875});
    for (size_t a = 0; a < wgp_kernel_num_accesses(l.k); a++)
      if (v == 1 || v == 3) {
        l.costs[a].last_known = true;
        l.costs[a].last_dram = v == 1 ? 1 : 0;
      }
    wgp_sim_result r = run_ok(&l.in);
    round[v] = r.round_cycles;
    launch_free(&l);
  }
  print_message("gridstride rounds: by sector %.0f, all waiting on DRAM %.0f, all missing %.0f, none waiting %.0f\n",
                round[0], round[1], round[2], round[3]);
  assert_true(fabs(round[1] - round[2]) < 0.02 * round[2]);
  assert_true(round[0] < 0.8 * round[1]);
  assert_true(round[3] < round[0]);
  /* shares that cannot be */
  launch l;
  launch_make(&l, "gridstride", 1 << 14, 128, 1 << 18, (costs_spec){8, 1, 0, 0.875});
  for (size_t a = 0; a < wgp_kernel_num_accesses(l.k); a++)
    l.costs[a] = (wgp_access_cost){.requests = 1, .sectors = 8, .l1_hit = 0.5, .l2_hit = 0.5, .last_known = true,
                                   .last_l1 = 0.7, .last_dram = 0.6};
  wgp_sim_result r;
  wgp_diag d;
  assert_int_equal(wgp_simulate(&l.in, &r, &d), WGP_ERR_INPUT);
  assert_non_null(strstr(d.message, "shares of requests served by L1 and DRAM"));
  launch_free(&l);
}

/* An operation of several machine instructions takes as many issue slots:
 * on a K40 a 64-bit address is two (ops.addr.instructions), so every warp
 * issues one more slot per address operation than with one. */
static void test_multi_instruction_ops_take_issue_slots(void **state) {
  (void)state;
  wgp_gpu *two = k40_with("addr.instructions", "2", "2"), *one = k40_with("addr.instructions", "2", "1");
  assert_int_equal(wgp_gpu_op_instructions(two, WGP_OP_ADDR), 2);
  assert_int_equal(wgp_gpu_op_instructions(one, WGP_OP_ADDR), 1);
  launch l;
  launch_make(&l, "gridstride", 1 << 14, 256, 1 << 16, (costs_spec){4, 1, 0, 1});
  double addr = 0; /* address operations in the kernel */
  for (size_t b = 0; b < wgp_kernel_num_blocks(l.k); b++) {
    const wgp_block *blk = wgp_kernel_block(l.k, b);
    for (size_t i = 0; i < wgp_block_num_counts(blk); i++) {
      const char *name;
      uint64_t n = wgp_block_count(blk, i, &name);
      if (strcmp(name, "addr") == 0)
        addr += (double)n;
    }
  }
  assert_true(addr > 0);
  l.in.gpu = two;
  wgp_sim_result r2 = run_ok(&l.in);
  l.in.gpu = one;
  wgp_sim_result r1 = run_ok(&l.in);
  assert_true(r2.issue_cycles > r1.issue_cycles);
  assert_true(r2.best_us >= r1.best_us);
  launch_free(&l);
  wgp_gpu_free(two);
  wgp_gpu_free(one);
}

/* best <= time <= worst on many launches: every kernel of the test data at
 * several work-group sizes (full and partial waves), memory costs from
 * coalesced to conflicted, hit rates from none to all, on three GPUs, with
 * round-robin and greedy-then-oldest issue.  WGP_SIM_FULL: an extrapolated
 * round is clamped into its bounds, a fully simulated one is not, so a bound
 * that does not hold fails here.  The worst case is also checked to be
 * useful: median worst / time below 2 (eq. 20's sum of every latency of every
 * warp was 14x over the 140 launches of scripts/compare-predictions.sh). */
/* Warps of a group in different loops (twoloops: warp specialization), at
 * different depths (nestloops: one loop against a nest whose inner loop is
 * long) or one waiting at a barrier outside every loop while the others loop
 * (waitloop): the steady state is found all the same, each warp advancing at
 * its own rate.  The simulation ran every iteration before (10^9 of them). */
static void test_warps_in_different_loops(void **state) {
  (void)state;
  const struct {
    const char *name;
    int64_t n, big; /* iterations: the loops run 20000 / 10^9 times (nestloops: x 1000) */
    double tol;     /* nestloops' history restarts with every entry of the inner loop: 1.0% */
  } ks[] = {{"twoloops", 20000, 1000000000, 0.01},
            {"waitloop", 20000, 1000000000, 0.01},
            {"nestloops", 20, 1000000, 0.015}};
  for (int k = 0; k < 3; k++) {
    check_extrapolation(ks[k].name, 132 * 64 * 8, 64, ks[k].n, coalesced, ks[k].tol, 0.25);
    launch l;
    launch_make(&l, ks[k].name, 132 * 64 * 8, 64, ks[k].big / 10000, coalesced);
    wgp_sim_result small = run_ok(&l.in);
    launch_free(&l);
    launch_make(&l, ks[k].name, 132 * 64 * 8, 64, ks[k].big, coalesced);
    wgp_sim_result big = run_ok(&l.in);
    launch_free(&l);
    print_message("%s: n = %lld %.6g us, n = %lld %.6g us, %.0f instructions simulated\n", ks[k].name,
                  (long long)(ks[k].big / 10000), small.time_us, (long long)ks[k].big, big.time_us,
                  big.simulated_instructions);
    assert_true(big.extrapolated && !big.stopped);
    assert_true(big.simulated_instructions < 1e6);
    assert_true(big.instructions > 1e9);
    /* the loops' time grows with their trip count */
    double ratio = big.time_us / small.time_us;
    if (!(ratio > 1e4 * 0.98 && ratio < 1e4 * 1.02))
      fail_msg("%s: 10^4 times the iterations take %g times as long", ks[k].name, ratio);
  }
}

/* A round with no steady state to skip: divbar's first warp waits at its
 * in-loop barrier until the other warp has left its loop (a barrier only
 * some warps reach).  The round stops at the budget of simulated
 * instructions, says so, and its rest is taken at the rate so far. */
static void test_round_without_steady_state_stops(void **state) {
  (void)state;
  launch l;
  launch_make(&l, "divbar", 132 * 64 * 8, 64, 20000, coalesced);
  wgp_sim_result small = run_ok(&l.in);
  launch_free(&l);
  assert_false(small.stopped);
  launch_make(&l, "divbar", 132 * 64 * 8, 64, 100000000, coalesced);
  wgp_sim_result big = run_ok(&l.in);
  launch_free(&l);
  print_message("divbar: 2 x 10^4 iterations %.6g us, 10^8 %.6g us (%.6g..%.6g), %.0f instructions simulated\n",
                small.time_us, big.time_us, big.best_us, big.worst_us, big.simulated_instructions);
  assert_true(big.stopped);
  assert_true(big.simulated_instructions <= 2 * (WGP_SIM_MAX_ISSUED + 1));
  double ratio = big.time_us / small.time_us;
  if (!(ratio > 5000 / 2 && ratio < 5000 * 2))
    fail_msg("divbar: 10^8 / (2 x 10^4) iterations take %g times as long", ratio);
}

/* A gather (x[idx[i]]) cannot load x before idx returns: one warp takes
 * two DRAM latencies, the same two loads independent of each other one.
 * Both loads were issued back to back before (the block's loads hoisted and
 * overlapped), the gather as fast as the independent pair. */
static void test_gather_waits_for_its_indices(void **state) {
  (void)state;
  double dram = wgp_gpu_latency_dram_cycles(h100), cycles[2];
  const char *ks[] = {"gather", "pairload"};
  for (int k = 0; k < 2; k++) {
    launch l;
    launch_make(&l, ks[k], 32, 32, 0, coalesced); /* hit rates unknown: the loads go to DRAM */
    wgp_sim_result r = run_ok(&l.in);
    cycles[k] = r.round_cycles;
    launch_free(&l);
  }
  print_message("one warp: gather %.0f cycles, independent pair %.0f (DRAM latency %.0f)\n", cycles[0], cycles[1], dram);
  assert_true(cycles[0] >= 2 * dram);
  assert_true(cycles[1] < 1.5 * dram);
}

/* A warp shuffle waits as long as a shared load (it crosses the lanes through
 * the shared-memory crossbar): one warp's chain of shuffle + add per
 * iteration is longer than the add alone by the shared latency, on the H100
 * and on the GTX 980, whose shuffles queue in shared memory's own pipe. */
static void test_shuffle_waits_like_shared_memory(void **state) {
  (void)state;
  wgp_gpu *gm;
  wgp_diag d;
  assert_int_equal(wgp_gpu_load_builtin("gtx-980", &gm, &d), WGP_OK);
  const wgp_gpu *gpus[] = {h100, gm};
  const int64_t iters = 2000;
  for (int gi = 0; gi < 2; gi++) {
    double cycles[2];
    const char *ks[] = {"shfl_chain", "add_chain"};
    for (int k = 0; k < 2; k++) {
      launch l;
      launch_make(&l, ks[k], 32, 32, iters, coalesced);
      l.in.gpu = gpus[gi];
      wgp_sim_result r = run_ok(&l.in);
      cycles[k] = r.round_cycles;
      launch_free(&l);
    }
    double per = (cycles[0] - cycles[1]) / (double)iters, lat = wgp_gpu_latency_shared_cycles(gpus[gi]);
    print_message("%s: shuffle chain %.0f, add chain %.0f cycles: %.2f more per iteration (shared latency %.0f)\n",
                  wgp_gpu_name(gpus[gi]), cycles[0], cycles[1], per, lat);
    assert_true(fabs(per - lat) < 0.05 * lat);
  }
  wgp_gpu_free(gm);
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Local memory (docs/simulator.md, "Local memory"): the compiler's spills
 * are local-memory accesses, a warp's 4-byte spill one 128 B request, that
 * hit L1 and L2 at the share of the resident threads' stack frames each
 * holds.  Frames that fit in L1 add load/store-path time but no L2 or DRAM
 * traffic; frames far beyond L2 send every spill's bytes on (the issue's
 * convolution with 7.9 KB of spills per thread: 17x too fast without). */
static void test_spills_go_through_the_caches(void **state) {
  (void)state;
  launch l;
  launch_make(&l, "vadd", 1 << 22, 256, 1 << 22, coalesced);
  wgp_sim_result none = run_ok(&l.in);
  /* 64 resident warps per SM: 2048 threads x 64 B = 128 KB, within the H100's L1 */
  l.in.stack_bytes = 64;
  l.in.spill_loads_per_insn = 0.25;
  l.in.spill_stores_per_insn = 0.25;
  wgp_sim_result small = run_ok(&l.in);
  assert_true(fabs(small.l2_bytes - none.l2_bytes) < 1e-6 * none.l2_bytes);
  assert_true(fabs(small.dram_bytes - none.dram_bytes) < 1e-6 * none.dram_bytes);
  assert_true(small.pipeline_us > none.pipeline_us);
  /* 16 KB frames: L1 holds 256 KB of 32 MB, L2 50 MB of 132 x 32 MB */
  l.in.stack_bytes = 16384;
  wgp_sim_result big = run_ok(&l.in);
  double frames = 16384.0 * 2048, h1 = wgp_gpu_l1_bytes(h100) / frames,
         h2 = (double)wgp_gpu_l2_bytes(h100) / (frames * wgp_gpu_sm_count(h100));
  double l2_spill = big.l2_bytes - none.l2_bytes, dram_spill = big.dram_bytes - none.dram_bytes;
  assert_true(l2_spill > 0);
  assert_true(fabs(dram_spill - l2_spill * (1 - h2)) < 1e-6 * dram_spill);
  /* every spill instruction moves 128 B; the stores among them are written back */
  assert_true(fabs(big.dram_write_bytes - none.dram_write_bytes - dram_spill / 2) < 1e-6 * dram_spill);
  assert_true(big.time_us > small.time_us);
  /* twice the spills, twice the traffic */
  l.in.spill_loads_per_insn = l.in.spill_stores_per_insn = 0.5;
  wgp_sim_result twice = run_ok(&l.in);
  assert_true(fabs(twice.l2_bytes - none.l2_bytes - 2 * l2_spill) < 1e-6 * l2_spill);
  /* L1 holds its share of the frames: with frames of twice the size, the
   * bytes that pass on to L2 grow from (1 - h1) to (1 - h1 / 2) */
  l.in.spill_loads_per_insn = l.in.spill_stores_per_insn = 0.25;
  l.in.stack_bytes = 32768;
  wgp_sim_result bigger = run_ok(&l.in);
  double l2_bigger = bigger.l2_bytes - none.l2_bytes;
  assert_true(fabs(l2_bigger / l2_spill - (1 - h1 / 2) / (1 - h1)) < 1e-6);
  /* nonsense is refused */
  l.in.stack_bytes = -1;
  wgp_sim_result r;
  wgp_diag d;
  assert_int_equal(wgp_simulate(&l.in, &r, &d), WGP_ERR_INPUT);
  assert_non_null(strstr(d.message, "local memory"));
  launch_free(&l);
}

/* Work-groups that exit at once (docs/simulator.md): vadd's bounds check
 * fails for every lane of the second half of a grid twice as large as n.
 * Those groups give their place to the next group at once: the rounds run
 * the first half only (the pipeline as for a grid of n), where before every
 * wave was priced like the first and the pipeline doubled; the dispatch of
 * every group still counts. */
static void test_groups_that_exit_at_once_leave_the_rounds(void **state) {
  (void)state;
  launch l;
  const costs_spec hits = {4, 1, 0, 1}; /* from L2: the pipeline, not DRAM, sets the pace */
  launch_make(&l, "vadd", 1 << 20, 256, 1 << 20, hits);
  wgp_sim_result exact = run_ok(&l.in);
  assert_int_equal(exact.idle_groups, 0);
  launch_free(&l);
  launch_make(&l, "vadd", 1 << 21, 256, 1 << 20, hits);
  wgp_sim_result twice = run_ok(&l.in);
  assert_int_equal(twice.idle_groups, 4096);
  assert_true(fabs(twice.pipeline_us - exact.pipeline_us) < 0.02 * exact.pipeline_us);
  assert_true(twice.l2_bytes == exact.l2_bytes);
  launch_free(&l);
  /* a grid where every group works is not changed: twice the work, twice the rounds */
  launch_make(&l, "vadd", 1 << 21, 256, 1 << 21, hits);
  wgp_sim_result full = run_ok(&l.in);
  assert_int_equal(full.idle_groups, 0);
  assert_true(full.pipeline_us > 1.8 * exact.pipeline_us);
  launch_free(&l);
}

static void test_bounds_hold_on_many_launches(void **state) {
  (void)state;
  static const struct {
    const char *kernel;
    int64_t n; /* 0: the global size */
    unsigned smem_per_thread;
  } ks[] = {{"vadd", 0, 0},      {"reduce", 0, 4}, {"tri", 16, 0},   {"gridstride", -6, 0},
            {"spmv", 0, 0},      {"evenodd", 9, 0}, {"tiled", 6, 4}, {"sfu_heavy", 5, 0}};
  static const uint64_t locals[] = {32, 96, 128, 256, 1024};
  static const costs_spec specs[] = {{4, 1, -1, -1}, {8, 2, 0.3, 0.6}, {32, 16, 0, 0}, {1, 1, 1, 1}};
  const char *gpus[] = {"h100-sxm", "gtx-680", "v100", "gtx-980"};
  double ratio[2048];
  size_t nr = 0;
  for (size_t gi = 0; gi < sizeof gpus / sizeof *gpus; gi++) {
    wgp_gpu *g;
    wgp_diag d;
    assert_int_equal(wgp_gpu_load_builtin(gpus[gi], &g, &d), WGP_OK);
    for (size_t k = 0; k < sizeof ks / sizeof ks[0]; k++)
      for (size_t li = 0; li < sizeof locals / sizeof locals[0]; li++)
        for (size_t c = 0; c < sizeof specs / sizeof specs[0]; c++) {
          uint64_t local = locals[li], global = local * (5 * (li + 1) + 3 * c + k); /* partial waves */
          int64_t n = ks[k].n > 0 ? ks[k].n : ks[k].n < 0 ? (int64_t)global * -ks[k].n : (int64_t)global;
          launch l;
          launch_make(&l, ks[k].kernel, global, local, n, specs[c]);
          l.in.gpu = g;
          l.in.smem_per_group_bytes = local * ks[k].smem_per_thread;
          for (unsigned f = 0; f < 2; f++) {
            l.in.flags = WGP_SIM_FULL | (f ? WGP_SIM_GTO : 0);
            wgp_sim_result r;
            if (wgp_simulate(&l.in, &r, &d) != WGP_OK)
              fail_msg("%s local %llu on %s: %s", ks[k].kernel, (unsigned long long)local, gpus[gi], d.message);
            if (!(r.best_round_cycles <= r.round_cycles * (1 + 1e-12) &&
                  r.round_cycles <= r.worst_round_cycles * (1 + 1e-12)))
              fail_msg("%s local %llu spec %zu on %s flags %u: round %.17g outside [%.17g, %.17g]", ks[k].kernel,
                       (unsigned long long)local, c, gpus[gi], l.in.flags, r.round_cycles, r.best_round_cycles,
                       r.worst_round_cycles);
            assert_true(r.best_us <= r.time_us * (1 + 1e-12) && r.time_us <= r.worst_us * (1 + 1e-12));
            if (nr < sizeof ratio / sizeof ratio[0])
              ratio[nr++] = r.worst_round_cycles / r.round_cycles;
          }
          launch_free(&l);
        }
    wgp_gpu_free(g);
  }
  qsort(ratio, nr, sizeof *ratio, cmp_double);
  print_message("%zu rounds: worst / simulated median %.2f, max %.2f\n", nr, ratio[nr / 2], ratio[nr - 1]);
  assert_true(ratio[nr / 2] < 2);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_vadd_basic_and_deterministic),
      cmocka_unit_test(test_memory_bound_hits_dram_bound),
      cmocka_unit_test(test_groups_queue_at_dram),
      cmocka_unit_test(test_more_sectors_not_faster),
      cmocka_unit_test(test_occupancy_limited),
      cmocka_unit_test(test_zero_occupancy_is_an_error),
      cmocka_unit_test(test_barrier_heavy_reduction),
      cmocka_unit_test(test_extrapolation_matches_full),
      cmocka_unit_test(test_barriers_in_loop_and_compute_bound),
      cmocka_unit_test(test_time_does_not_grow_with_trip_count),
      cmocka_unit_test(test_bounds_hold_at_huge_trip_counts),
      cmocka_unit_test(test_gto_and_partial_wave),
      cmocka_unit_test(test_scheduler_counts_and_many_warps),
      cmocka_unit_test(test_bad_input),
      cmocka_unit_test(test_bounds_on_other_gpus),
      cmocka_unit_test(test_line_cycles_of_uncoalesced_requests),
      cmocka_unit_test(test_shared_replays_lengthen_the_wait),
      cmocka_unit_test(test_shared_pipe_overlaps_global),
      cmocka_unit_test(test_l2_port_serves_in_turn),
      cmocka_unit_test(test_requests_wait_for_their_slowest_sector),
      cmocka_unit_test(test_multi_instruction_ops_take_issue_slots),
      cmocka_unit_test(test_bounds_hold_on_many_launches),
      cmocka_unit_test(test_warps_in_different_loops),
      cmocka_unit_test(test_round_without_steady_state_stops),
      cmocka_unit_test(test_gather_waits_for_its_indices),
      cmocka_unit_test(test_shuffle_waits_like_shared_memory),
      cmocka_unit_test(test_spills_go_through_the_caches),
      cmocka_unit_test(test_groups_that_exit_at_once_leave_the_rounds),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
