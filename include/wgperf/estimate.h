/* estimate.h - one launch end to end: analysis, occupancy, cache analysis and
 * the simulator's per-access costs, then the simulation.
 *
 * The steps every tool repeats (wgperf analyze/predict, wgprune,
 * wgperf-validate) in one place:
 *   wgp_estimate_new      traces and memory costs (analyze.h), registers per
 *                         thread, occupancy (occupancy.h) and the L1/L2 hit
 *                         rates of the first wave (cache.h);
 *   wgp_estimate_simulate the kernel time (pipeline.h).
 * Lower-level pieces (wgp_access_costs_new, wgp_simulate_analysis) serve
 * callers that simulate without a cache analysis, as wgprune's bounds do.
 */
#ifndef WGPERF_ESTIMATE_H
#define WGPERF_ESTIMATE_H

#include "wgperf/analyze.h"
#include "wgperf/cache.h"
#include "wgperf/occupancy.h"
#include "wgperf/pipeline.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Registers per thread for K: OVERRIDE when nonzero, else ptxas' count stored
 * in the model, else the IR liveness estimate.  *SOURCE (may be NULL) says
 * which, in words. */
unsigned wgp_kernel_choose_registers(const wgp_kernel *k, unsigned override, const char **source);
/* The same on GPU: a count the model has (made for sm_80, or the IR
 * estimate) above GPU's limit is capped at it, as that GPU's compiler spills
 * the rest; then *SOURCE points to NOTE (SIZE bytes), which says so, when
 * NOTE is given.  An OVERRIDE is never capped (the occupancy refuses it). */
unsigned wgp_kernel_registers_on(const wgp_kernel *k, const wgp_gpu *gpu, unsigned override, const char **source,
                                 char *note, size_t size);
/* The bytes a NOTE above should have. */
#define WGP_REGS_NOTE_SIZE 320
/* The fewest registers per thread ptxas keeps to for -maxrregcount: CUDA
 * 13.0's ptxas, asked for 8 or 16, allocates 24 for sm_75, sm_80, sm_86 and
 * sm_90 alike (its "Overriding maximum register limit" note). */
#define WGP_PTXAS_MIN_MAXRREG 24u
/* The model's 'resources' entry for GPU's architecture, else the nearest
 * (wgp_kernel_resources_for); NULL when the model has none. */
const wgp_kernel_resources *wgp_kernel_resources_on(const wgp_kernel *k, const wgp_gpu *gpu, bool *exact);
/* Whether the count wgp_kernel_registers_on gives decides if a group can
 * run: an OVERRIDE, or nvcc's own count for GPU's architecture.  Any other
 * (ptxas on llc-19's PTX, another architecture's count, the IR estimate) is
 * not the compiler that builds the kernel for this GPU. */
bool wgp_kernel_registers_binding(const wgp_kernel *k, const wgp_gpu *gpu, unsigned override);
/* wgp_kernel_registers_on for a group of THREADS: a count that is not
 * binding and with which one group cannot run is taken as the most with
 * which it can (*FITTED true, NOTE says so): such a configuration is ranked,
 * flagged, never refused on our count. */
unsigned wgp_kernel_registers_for_group(const wgp_kernel *k, const wgp_gpu *gpu, unsigned override, uint64_t threads,
                                        const char **source, char *note, size_t size, bool *fitted);
/* The local memory NVIDIA's compiler gives K on GPU (the model's resources
 * entry): the stack frame per thread, and its spill loads and stores per
 * instruction of the trace (the spill instructions, taken as 4 bytes, over
 * the machine instructions: the cubin's code bytes by the architecture's
 * instruction size).  All 0 without an entry. */
void wgp_kernel_local_memory_on(const wgp_kernel *k, const wgp_gpu *gpu, double *stack_bytes, double *loads_per_insn,
                                double *stores_per_insn);

/* The simulator's cost of each access (wgp_kernel_num_accesses entries) for
 * one warp class with statistics S.  Hit rates come from CACHE when given,
 * else every global access gets HIT (1: all hit, 0: all miss, negative:
 * unknown, the GPU's default rule).  Give: free(); NULL when out of memory. */
wgp_access_cost *wgp_access_costs_new(const wgp_kernel *k, const wgp_mem_stats *s, const wgp_cache_result *cache,
                                      double hit);

/* Simulates the warp classes of AN (a launch of IN) with REGS registers per
 * thread; hit rates from CACHE or HIT as for wgp_access_costs_new; FLAGS are
 * WGP_SIM_*. */
wgp_status wgp_simulate_analysis(const wgp_analysis_input *in, const wgp_analysis *an, unsigned regs,
                                 const wgp_cache_result *cache, double hit, unsigned flags, wgp_sim_result *out,
                                 wgp_diag *diag);

typedef struct wgp_estimate wgp_estimate;

/* The occupancy request of a group of THREADS threads using LOCAL bytes of
 * shared memory: a CUDA kernel's fixed-size arrays are static shared memory,
 * its extern __shared__ arrays dynamic (up to the opt-in); all of an OpenCL
 * kernel's is static (NVIDIA's OpenCL has no opt-in). */
wgp_occupancy_request wgp_estimate_shared_request(const wgp_kernel *k, unsigned threads, unsigned regs,
                                                  uint64_t local);

/* Analyzes the launch of IN (keep: IN and what it points to must outlive the
 * estimate), with REGS registers per thread (0: wgp_kernel_choose_registers). */
wgp_status wgp_estimate_new(const wgp_analysis_input *in, unsigned regs, wgp_estimate **out, wgp_diag *diag);
/* The same from AN, an analysis of IN made before (take: freed with the
 * estimate, or at once when this fails): what wgprune uses, which analyzes
 * every candidate size first and needs the rest only for some. */
wgp_status wgp_estimate_from_analysis(const wgp_analysis_input *in, wgp_analysis *an, unsigned regs,
                                      wgp_estimate **out, wgp_diag *diag);
/* The same, borrowing AN: it is neither changed nor freed, and must outlive
 * the estimate (wgprune's candidates keep their analyses; a search thread
 * may estimate a size that the search then never needs). */
wgp_status wgp_estimate_with_analysis(const wgp_analysis_input *in, const wgp_analysis *an, unsigned regs,
                                      wgp_estimate **out, wgp_diag *diag);
void wgp_estimate_free(wgp_estimate *e);

const wgp_analysis *wgp_estimate_analysis(const wgp_estimate *e);
const wgp_cache_result *wgp_estimate_cache(const wgp_estimate *e);
const wgp_occupancy *wgp_estimate_occupancy(const wgp_estimate *e);
/* Registers per thread used, and (SOURCE may be NULL) where they came from. */
unsigned wgp_estimate_registers(const wgp_estimate *e, const char **source);
/* Whether those registers were fitted to the group (wgp_kernel_registers_for_group). */
bool wgp_estimate_registers_fitted(const wgp_estimate *e);
/* Work-groups of the launch. */
uint64_t wgp_estimate_groups(const wgp_estimate *e);

/* Simulates the estimate's launch with its cache hit rates (FLAGS: WGP_SIM_*). */
wgp_status wgp_estimate_simulate(const wgp_estimate *e, unsigned flags, wgp_sim_result *out, wgp_diag *diag);

/* The bounds for any hit rates of AN (a launch of IN) with REGS registers
 * per thread, from the round's bounds every global and constant access
 * hitting (BEST_US) and every one missing (WORST_US), the groups that exit at
 * once taken as many as the hit rates can make them (the best case) and as
 * few (the worst).  Any estimate of AN with REGS lies within them
 * (wgprune's level 1, wgp_estimate_bounds). */
wgp_status wgp_analysis_bounds(const wgp_analysis_input *in, const wgp_analysis *an, unsigned regs, double *best_us,
                               double *worst_us, wgp_diag *diag);

/* Bounds on what wgp_estimate_new and wgp_estimate_simulate would give for
 * IN with REGS (0: as they choose), without the cache analysis or the
 * simulation: the analysis, the occupancy (failing as the estimate does for
 * a group that cannot be resident), then the round's bounds for any hit
 * rates, every global and constant access hitting (BEST_US) and every one
 * missing (WORST_US).  Latencies and chip traffic only grow with misses and
 * the estimate lies within its own bounds, so BEST_US <= time_us <= WORST_US
 * (wgprune's level 1; wgtune --prune).  A few milliseconds where the
 * estimate takes a tenth of a second or more. */
wgp_status wgp_estimate_bounds(const wgp_analysis_input *in, unsigned regs, double *best_us, double *worst_us,
                               wgp_diag *diag);

#ifdef __cplusplus
}
#endif

#endif
