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
 *   the iterations it stands for.
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

typedef struct wgp_cache_result {
  size_t num_accesses;
  double *l1_hit; /* per access: fraction of sectors hitting L1, -1 where not applicable */
  double *l2_hit; /* per access: fraction of the sectors that reach L2 hitting there, -1 where not applicable */
  double dram_read_bytes_per_group, dram_write_bytes_per_group; /* in the sample, per work-group */
  size_t groups_simulated;
} wgp_cache_result;

/* IN as for wgp_analyze; RESIDENT_GROUPS_PER_SM from the occupancy. */
wgp_status wgp_cache_analyze(const wgp_analysis_input *in, unsigned resident_groups_per_sm,
                             uint64_t shared_bytes_per_group, wgp_cache_result *out, wgp_diag *diag);
void wgp_cache_result_free(wgp_cache_result *r);

#ifdef __cplusplus
}
#endif

#endif
