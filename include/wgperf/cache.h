/* cache.h - L1 and L2 hit rates of global accesses by simulating the caches
 * on the address stream of the first work-groups of a wave.
 *
 * Model:
 * - The stream: the work-groups of the first wave in dispatch order (resident
 *   groups per SM x SMs), in whole groups, at most WGP_CACHE_MAX_WARPS
 *   warps of them (512 groups of one warp, 16 of 1024 work-items): every
 *   size of a search gets a sample of the same work, and reuse at the same
 *   distance is seen alike (with 128 groups whatever their size, a
 *   1024-work-item group's sample was 32 times a warp-sized one's, and
 *   sample-size effects, such as the L2 hits of gathers, favoured large
 *   groups); above that only the wave's groups
 *   in its first columns (x below a limit) are kept, so every row of the wave
 *   is still there and reuse along y keeps its count.  Their warps are
 *   interleaved round-robin one memory instruction at a time, each
 *   instruction contributing the distinct sectors its active lanes touch.
 *   Sampled loop stretches contribute their sample iteration, weighted by
 *   the iterations it stands for, after the iteration before it (weight 1:
 *   the sample sees its reuse of what that one touched, as the iterations of
 *   the stretch do, and that one's misses count once, as the stretch's first
 *   touches do where nothing before it touched the data).  The iterations
 *   of the stretch that are not traced still pass through the caches, as
 *   phantom lines: a batch of lines that nothing hits goes in at the most
 *   recent end of the group's L1 (loads, where L1 caches them) and of the
 *   L2 (loads and stores: the data misses L1), ageing what is there as the
 *   skipped iterations' misses would; more than a cache holds flushes it.
 *   They go in after the sample's own lookups, at the end of its round of
 *   the stream, so that every warp's sample (the warps are in the same
 *   iteration in a round) finds what the iteration before it and the other
 *   warps' samples touched, and where two samples stand for an even middle,
 *   after the second.  Warps whose samples start on the same line walk the
 *   same data (a matrix column every group of a grid column reads, a vector
 *   every warp reads): their batches in one cache count once.  Phantom lines
 *   count in no hit rate, DRAM traffic or row statistic (the weighted sample
 *   stands for those).  Their number comes from how far the access's lowest
 *   address moved since its event in the iteration before (D bytes an
 *   iteration, lines of L bytes): each run of consecutive sectors of the
 *   sample brings min(lines it spans, |D| / L) new lines an iteration (a
 *   coalesced row walk: 1; a column walk by 4 B: the warp's 32 lines every
 *   32 iterations; a loop-invariant address: none), at most the lines of
 *   the region the stretch sweeps beyond the sample's span (lanes whose
 *   walks overlap), times the iterations of the stretch traced neither as a
 *   sample nor as the iteration before it, rounded up.  Only the innermost
 *   loop's stretch counts (wgp_tracer_stretch): a sampled outer loop's
 *   skipped iterations bring phantom lines through the accesses directly in
 *   its body, not through the loops nested in it.  A softmax walking rows of
 *   16 KB three times, 64 warps per SM of the H100: the second pass's L1 hit
 *   rate went from 100% (only the first pass's traced iterations were in
 *   L1) to 0%.  Loops with no global access whose results nothing
 *   after them reads are not traced (wgp_tracer_skip_quiet_loops).  The
 *   groups are traced on several threads (wgp_analysis_input.threads) and
 *   joined in order: the same stream for any number.  Above a work budget (WGP_CACHE_MAX_EVENTS)
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
 *   wave's; loads that miss L1 and every store go through it.  It is
 *   write-back: a store to a sector not yet written since it came in (read
 *   before, as in a read-modify-write, or allocated by the store) writes it
 *   back to DRAM once; a store to a sector already written is the store's
 *   L2 "hit" (it adds no DRAM traffic).
 * - DRAM rows (GPUs with memory.dram_devices, gpu.h): the sectors that miss
 *   L2 (loads) reach DRAM, and the lines L2 evicts with sectors written
 *   since they came in (one write-back per line, its dirty sectors together:
 *   one row; the lines still dirty at the end leave least recent first).  Each round of the stream (one instruction of every warp)
 *   hands them over in the order the SMs issue them, all SMs at once (a
 *   group runs on SM group mod SMs, an SM takes its warps in turn), as the
 *   memory sees the wave's requests from every SM interleaved.  A sector's
 *   address goes to a device in chunks of dram_interleave_bytes (rotated by
 *   a hash of the higher bits, as the GPUs' address hashing spreads strides
 *   over the partitions), to a row of dram_row_bytes of that device, and to
 *   a bank by a hash of the row; each bank keeps its last row open, and a
 *   sector of another row opens its own: one activation.  Per access,
 *   activations per DRAM sector.  A coalesced stream opens a row per 2 KB of
 *   each device; a column walk (the lanes of a warp in different rows of a
 *   matrix, the next sector of each row touched only by the next wave) one
 *   per sector.  The sample covers the first columns of a wave only, so a
 *   wide stream's rows look shorter than they are (a GTX 980's wave of 8x8
 *   groups reads 16 KB of each of 8 matrix rows, its sample 4 KB: 4x the
 *   activations per sector): harmless, as such streams stay far from the
 *   activation rate.
 * - A first wave that makes no global access (a 3-D stencil whose first
 *   wave is the z = 0 face it returns from) is replaced by the wave in the
 *   middle of the grid (whole rows of groups moved; middle_wave).
 * - Addresses from loaded data (docs/analyzer-rules.md): their sectors go
 *   through the caches as any other; one that misses the sample's LRU hits
 *   anyway with chance C / R (C: the SM's L1, 3/4 of the L2; R: the
 *   access's region, wgp_layout_set_regions) times the share of re-reads
 *   among the launch's reads of the region (none for an address that also
 *   walks with the work-item or the iteration), and one the warp asked for
 *   earlier in the same block visit hits (its loads go out back to back).
 *   Lanes whose address stays unknown take those chances alone.
 * - Reuse between waves is not modelled (seeds/002's layer conditions would
 *   be the next step), nor associativity conflicts.
 * - Data from before the launch (wgp_cache_warm_l2): the buffers were just
 *   written, by a host copy or an earlier kernel, so when the launch's whole
 *   footprint fits in 3/4 of the L2 every global access hits L2.  A
 *   footprint near the capacity does not stay: the L2's hashing and
 *   replacement keep no such share across launches (an H100 kept 28 MB of
 *   repeatedly launched streams and lost 50 MB, microbench/results/
 *   h100-2026-11-22/validation; a GTX 980 right after the copies kept
 *   1.5 MB of its 2 MB and half of 3 MB, amaris-nvprof vectorAdd).  The
 *   footprint of a buffer is its whole-launch traffic times the share of
 *   distinct sectors among the sectors the sample touched in it (reuse
 *   within a wave, across its accesses, as in a stencil or an uncoalesced
 *   walk); reuse between waves is not seen, so a footprint is too large
 *   rather than too small, and the launch is then taken as cold.  A buffer
 *   whose size the launch gives (BUFFER_BYTES, per argument, 0 where none)
 *   counts at most that size: the sample, a column of the wave's groups,
 *   does not see that the groups of other columns read the same rows (a
 *   naive multiply's M: 153 MB from the sample, 4 MiB in all).  The
 *   estimate (sim/estimate.c) then decides again with the extents of the
 *   buffers' addresses (wgp_footprint_extents) in place of the sample's.
 */
#ifndef WGPERF_CACHE_H
#define WGPERF_CACHE_H

#include "wgperf/analyze.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The sample's groups: at most this many, and at most WGP_CACHE_MAX_WARPS
 * warps of them in whole groups (one group at least). */
#define WGP_CACHE_MAX_GROUPS 512
#define WGP_CACHE_MAX_WARPS 512
/* The work budget of wgp_cache_analyze: blocks traced plus warp-level
 * accesses simulated.  Above it, the sample's long loops keep
 * WGP_CACHE_SAMPLED_EDGE iterations at each end of a sampled stretch instead
 * of WGP_TRACE_EDGE_ITERATIONS, then 1 (the middle is represented by its
 * sample iteration, weighted, as always); the groups stay.  The work is then
 * bounded by WGP_CACHE_MAX_WARPS warps of 3 iterations per loop level. */
#define WGP_CACHE_MAX_EVENTS 32768
#define WGP_CACHE_SAMPLED_EDGE 2
/* Iterations of one entry into a loop of unknown count that the sample
 * traces above the work budget (below it, the tracer's own
 * WGP_TRACE_EXPLICIT_CAP).  Such a trace is flagged truncated anyway; its
 * first iterations stand for the loop's hit rates. */
#define WGP_CACHE_SAMPLED_EXPLICIT_CAP 64u
/* What a sampled hit rate may differ from the full sample's (absolute), as
 * test/unit/test_cache.c checks. */
#define WGP_CACHE_SAMPLED_TOLERANCE 0.1

typedef struct wgp_cache_result {
  size_t num_accesses;
  double *l1_hit; /* per access: fraction of sectors hitting L1, -1 where not applicable */
  double *l2_hit; /* per access: fraction of the sectors that reach L2 hitting there, -1 where not applicable */
  /* per global load: of its warp requests, the share whose every sector hit
   * L1 (last_l1) and the share with a sector from DRAM (last_dram): a
   * request completes when its last sector arrives, so its latency is that
   * of the slowest level it touched (a hit on a sector another warp's miss
   * brought in during the same round of the stream waits for that fill:
   * the level it came from); -1 where not applicable */
  double *last_l1, *last_dram;
  double *dram_rows; /* per access: DRAM row activations per sector it moves to or from DRAM (0..1), -1 where
                      * it moves none in the sample or the GPU has no row geometry */
  double dram_read_bytes_per_group, dram_write_bytes_per_group; /* in the sample, per work-group */
  size_t groups_simulated;
  double *distinct;       /* per argument index (num_args + 1: the last for other bases): distinct sectors
                           * / sectors touched in the sample, 0 where none was touched */
  double *span;           /* per argument index, as distinct: the sectors from the lowest to the highest
                           * one of known address the sample touched, a lower bound on the extent of the
                           * launch's (wgp_footprint_extents); 0 where none */
  size_t num_bases;
  /* per access: the share of its sectors (in the sample) from lanes whose
   * address the analysis cannot tell, and the region in bytes those are
   * taken to fall in at random (0 where it has none) */
  double *unknown_share, *unknown_region;
  double footprint_bytes; /* the launch's global footprint (wgp_cache_warm_l2), 0 until computed */
  bool l2_warm;           /* wgp_cache_warm_l2 found it in L2: every global access hits there */
  bool sampled; /* the work budget narrowed the sample */
  bool middle_wave; /* the first wave made no global access: the sample is the middle wave's */
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
/* Data from before the launch: computes R's footprint from the launch totals
 * TOTALS (wgp_analysis_total_stats) and, when it fits in 3/4 of the L2 of
 * GPU, makes every global access of R hit L2.  Returns R->l2_warm.
 * BUFFER_BYTES (per argument, 0 = not given; may be NULL): the --buffer
 * sizes, each a bound.  EXTENT (per argument, 0 = unknown; may be NULL):
 * the extent of each buffer's addresses over the launch
 * (wgp_footprint_extents), which replaces the sample's estimate. */
bool wgp_cache_warm_l2(wgp_cache_result *r, const wgp_kernel *k, const wgp_gpu *gpu, const wgp_mem_stats *totals,
                       const uint64_t *buffer_bytes, const double *extent);

#ifdef __cplusplus
}
#endif

#endif
