/* cache.h - L1 and L2 hit rates of global accesses by simulating the caches
 * on the address stream of the first work-groups of a wave.
 *
 * Model:
 * - The stream: the work-groups of the first wave in dispatch order (resident
 *   groups per SM x SMs); above WGP_CACHE_MAX_GROUPS only the wave's groups
 *   in its first columns (x below a limit) are kept, so every row of the wave
 *   is still there and reuse along y keeps its count.  Their warps are
 *   interleaved round-robin one memory instruction at a time, each
 *   instruction contributing the distinct sectors its active lanes touch.
 *   Sampled loop stretches contribute their sample iteration, weighted by
 *   the iterations it stands for.  Above a work budget (WGP_CACHE_MAX_EVENTS)
 *   loops keep fewer iterations at the ends of sampled stretches (the result
 *   says so: sampled); hit rates then differ from the full sample's by at
 *   most WGP_CACHE_SAMPLED_TOLERANCE on the kernels of test_cache.c.
 * - L1: per work-group, a share of the SM's L1 (its capacity minus the
 *   shared memory of the resident groups where L1 and shared memory are
 *   one array, divided by the resident groups); line-tagged, sectored (a
 *   miss fills only its sector), LRU.  Only loads are cached; a store
 *   invalidates the line (write-through).  GPUs whose L1 does not cache
 *   global loads skip it.
 * - L2: one LRU cache for the sample, its capacity scaled by S / wave so the
 *   sample's footprint meets the capacity in the same proportion as the
 *   wave's; loads that miss L1 and every store go through it.
 * - Reuse between waves is not modelled (seeds/002's layer conditions would
 *   be the next step), nor associativity conflicts.
 */
#ifndef WGPERF_CACHE_H
#define WGPERF_CACHE_H

#include "wgperf/analyze.h"

#ifdef __cplusplus
extern "C" {
#endif

#define WGP_CACHE_MAX_GROUPS 128
/* The work budget of wgp_cache_analyze: blocks traced plus warp-level
 * accesses simulated.  Above it, the sample's long loops keep
 * WGP_CACHE_SAMPLED_EDGE iterations at each end of a sampled stretch instead
 * of WGP_TRACE_EDGE_ITERATIONS, then 1 (the middle is represented by its
 * sample iteration, weighted, as always); the groups stay.  The work is then
 * bounded by WGP_CACHE_MAX_GROUPS groups of 3 iterations per loop level. */
#define WGP_CACHE_MAX_EVENTS 32768
#define WGP_CACHE_SAMPLED_EDGE 2
/* What a sampled hit rate may differ from the full sample's (absolute), as
 * test/unit/test_cache.c checks. */
#define WGP_CACHE_SAMPLED_TOLERANCE 0.1

typedef struct wgp_cache_result {
  size_t num_accesses;
  double *l1_hit; /* per access: fraction of sectors hitting L1, -1 where not applicable */
  double *l2_hit; /* per access: fraction of the sectors that reach L2 hitting there, -1 where not applicable */
  double dram_read_bytes_per_group, dram_write_bytes_per_group; /* in the sample, per work-group */
  size_t groups_simulated;
  bool sampled; /* the work budget narrowed the sample */
} wgp_cache_result;

/* IN as for wgp_analyze; RESIDENT_GROUPS_PER_SM from the occupancy. */
wgp_status wgp_cache_analyze(const wgp_analysis_input *in, unsigned resident_groups_per_sm,
                             uint64_t shared_bytes_per_group, wgp_cache_result *out, wgp_diag *diag);
/* The same with a work budget of MAX_EVENTS warp-level accesses (0: none,
 * only the WGP_CACHE_MAX_GROUPS limit). */
wgp_status wgp_cache_analyze_budget(const wgp_analysis_input *in, unsigned resident_groups_per_sm,
                                    uint64_t shared_bytes_per_group, size_t max_events, wgp_cache_result *out,
                                    wgp_diag *diag);
void wgp_cache_result_free(wgp_cache_result *r);

#ifdef __cplusplus
}
#endif

#endif
