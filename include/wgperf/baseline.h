/* baseline.h - two published models, computed from the same analysis of a
 * launch as ours, so wgperf-validate compares all three on the same rows.
 *
 * BSP (seeds/003, Amaris et al.; eq. 3-5):
 *   T = t (Comp + Comm_GM + Comm_SM) / (R P lambda)
 *   Comm_GM = (ld1 + st1) g_GM,  Comm_SM = (ld0 + st0) g_SM
 * t threads launched; Comp cycles per thread, with the paper's costs of
 * 2 cycles per FMA, 24 per addition, 32 per multiplication, 96 per division
 * (floating point: the operations its hand counts of these kernels list;
 * integer and address arithmetic are not counted); ld/st the global (1) and
 * shared (0) loads and stores per thread; g_GM = 500, g_SM = 5 cycles (the
 * paper's values); R the clock, P the cores (SMs x FP32 lanes per SM, the
 * description's fp32_fma throughput).  Cache hits are left out as the paper
 * did ("In practice Comm_GM = (ld1+st1) g_GM").  Our analysis supplies the
 * counts the paper took from the source by hand (lane-level, averaged over
 * the threads); lambda, one factor per kernel and GPU fitted on one measured
 * run, is the caller's: wgp_baseline_bsp returns T for lambda = 1.
 *
 * Roofline in the spirit of seeds/002 (Warpspeed): the time is the largest
 * of the data volume through each memory level divided by its bandwidth and
 * the operations divided by the peak rate, with no latency term:
 *   DRAM   (read + write bytes of the cache analysis) / dram_bandwidth
 *   L2     (sectors of global loads that miss L1, and of stores) x sector / l2_bandwidth
 *   L1     (shared-memory wavefronts + L1 tag lookups of global requests) / (SMs x clock),
 *          one wavefront or lookup per cycle per SM (seeds/002: L1 cycles)
 *   ops    sum over arithmetic classes of lane operations / (throughput per SM x SMs x clock)
 * Volumes come from our per-access sectors, lines, wavefronts and the cache
 * analysis' hit rates, so the roofline differs from our model only in how
 * the time is made from them.
 */
#ifndef WGPERF_BASELINE_H
#define WGPERF_BASELINE_H

#include "wgperf/analyze.h"
#include "wgperf/cache.h"

#ifdef __cplusplus
extern "C" {
#endif

/* seeds/003's constants. */
#define WGP_BSP_G_GLOBAL_CYCLES 500.0
#define WGP_BSP_G_SHARED_CYCLES 5.0
#define WGP_BSP_FMA_CYCLES 2.0
#define WGP_BSP_ADD_CYCLES 24.0
#define WGP_BSP_MUL_CYCLES 32.0
#define WGP_BSP_DIV_CYCLES 96.0

typedef struct wgp_bsp_result {
  double threads;        /* t */
  double comp_cycles;    /* Comp, per thread */
  double ld_global, st_global, ld_shared, st_shared; /* per thread */
  double cores;          /* P */
  double time_s;         /* eq. 3 with lambda = 1 */
} wgp_bsp_result;

/* The BSP time of the launch analysed in AN (of kernel K on GPU) with
 * THREADS threads. */
wgp_status wgp_baseline_bsp(const wgp_kernel *k, const wgp_gpu *gpu, const wgp_analysis *an, uint64_t threads,
                            wgp_bsp_result *out, wgp_diag *diag);

typedef struct wgp_roofline_result {
  double dram_bytes, l2_bytes, l1_cycles, lane_ops; /* whole launch */
  double dram_s, l2_s, l1_s, ops_s;
  double time_s;        /* the largest */
  const char *limiter;  /* "dram", "l2", "l1", "ops" */
} wgp_roofline_result;

/* The roofline time of the launch analysed in AN with the hit rates of
 * CACHE, GROUPS work-groups in the grid. */
wgp_status wgp_baseline_roofline(const wgp_kernel *k, const wgp_gpu *gpu, const wgp_analysis *an,
                                 const wgp_cache_result *cache, uint64_t groups, wgp_roofline_result *out,
                                 wgp_diag *diag);

/* Lane-level executions of arithmetic class C in the launch (every warp
 * class times the warps it stands for, each block's count of C times the
 * active lanes that ran it). */
double wgp_analysis_lane_ops(const wgp_kernel *k, const wgp_analysis *an, wgp_op_class c);

#ifdef __cplusplus
}
#endif

#endif
