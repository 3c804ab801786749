/* footprint.h - DRAM traffic of global accesses from exact footprints of
 * waves of work-groups (seeds/002, Ernst et al., sec. 4.4), counted with isl.
 *
 * Model (docs/footprints.md has the whole of it, with its limits):
 * - A wave is the work-groups resident at once: resident groups per SM x
 *   SMs, taken in dispatch order (x fastest, then y, then z).  Inside a wave
 *   every access happens at once and in no order.
 * - The footprint of an access in a wave is the set of 32 B sectors that the
 *   lanes of the wave touch, over every iteration of the loops around it and
 *   only where its block executes (affine branch conditions, loop bounds and
 *   the launch's edges are part of the set).  Buffers do not alias; each
 *   starts on a 256 B boundary, as the rest of the analyzer assumes.
 * - Without reuse between waves, a wave reads every sector its loads touch
 *   and writes back every sector its stores touch, once (the L2 is write-back
 *   and keeps a wave's whole footprint: capacity misses inside a wave are not
 *   modelled).
 * - Reuse between consecutive waves (the layer condition): the part of a
 *   wave's footprint that the previous wave touched is still in L2 when the
 *   two waves' footprints, allocated in 128 B lines, fit it: it hits fully
 *   when their union O = lines x 128 B / L2 size is at most 1, not at all
 *   from O = 2, and in proportion between (seeds/002 fig. 17: the z-layer
 *   overlap hit rate is ~1 below O = 1 and ~0 above O = 2).
 * - Counting is exact and never enumerates lanes or iterations: isl builds
 *   the sets of sectors (in a mixed-radix view of rows and planes) and they
 *   are counted piece by piece, in independent groups of dimensions; the cost
 *   depends on the shapes of the sets, not on trip counts or the grid.  A
 *   launch of more than WGP_FOOTPRINT_EXACT_WAVES waves counts the first and
 *   last wave and WGP_FOOTPRINT_SAMPLES interior waves evenly spread, each
 *   standing for its share of the interior.
 * - An access whose address or control flow is not affine (a loaded index,
 *   a product of work-item ids, a loop count that needs data) has no
 *   footprint: it falls back to the LRU result (cache.h) and says why.  An
 *   access behind a data-dependent branch gets the footprint of both paths
 *   (an upper bound, as the traces take both ways).
 */
#ifndef WGPERF_FOOTPRINT_H
#define WGPERF_FOOTPRINT_H

#include "wgperf/analyze.h"
#include "wgperf/cache.h"

#ifdef __cplusplus
extern "C" {
#endif

#define WGP_FOOTPRINT_EXACT_WAVES 8
#define WGP_FOOTPRINT_SAMPLES 3

typedef struct wgp_footprint wgp_footprint;

typedef struct wgp_footprint_options {
  /* Groups per wave; 0: resident_groups_per_sm x the GPU's SMs. */
  uint64_t groups_per_wave;
  unsigned resident_groups_per_sm;
  /* 0: the GPU description's L2 size, sector and line sizes. */
  double l2_bytes;
  unsigned sector_bytes, line_bytes;
  /* The analysis' launch totals (may be NULL): the sectors of accesses
   * without a footprint count against the L2 capacity. */
  const wgp_mem_stats *totals;
} wgp_footprint_options;

typedef enum wgp_footprint_kind {
  WGP_FOOTPRINT_NONE,     /* not a global access (shared, constant, private) */
  WGP_FOOTPRINT_EXACT,    /* exact footprint */
  WGP_FOOTPRINT_BOUND,    /* footprint of both ways of a data-dependent branch: an upper bound */
  WGP_FOOTPRINT_FALLBACK  /* no footprint: the LRU result stands; reason says why */
} wgp_footprint_kind;

/* Per access (read only; lives as long as the footprint). */
typedef struct wgp_footprint_access {
  wgp_footprint_kind kind;
  const char *reason;            /* why not exact (BOUND, FALLBACK); NULL otherwise */
  long buffer;                   /* index of its buffer, -1 without one */
  /* In the representative wave: */
  double bytes_requested_per_wave; /* lanes x iterations x bytes per lane: counted exactly without
                                    * totals, else the wave's share of the traces' launch total */
  double sectors_per_wave;         /* unique sectors this access touches, alone */
  double dram_bytes_per_wave;      /* its share of its buffer's traffic, no reuse between waves */
  double dram_bytes_per_wave_reuse; /* the same with reuse from the previous wave */
  /* Whole launch (its share of its buffer's traffic: the buffer's sectors
   * are charged to the first access in program order that touches them): */
  double dram_bytes;          /* with reuse between waves */
  double dram_bytes_no_reuse; /* without */
} wgp_footprint_access;

/* Per buffer (a pointer argument or global array with at least one
 * access that has a footprint). */
typedef struct wgp_footprint_buffer {
  const char *name;
  bool exact;                      /* every access of it is EXACT */
  size_t accesses;                 /* its accesses with a footprint */
  /* In the representative wave: */
  double bytes_requested_per_wave;
  double read_sectors_per_wave;    /* unique sectors of its loads */
  double write_sectors_per_wave;   /* unique sectors of its stores and atomics */
  double reused_read_sectors;      /* read sectors the previous wave touched too */
  double lines_two_waves;          /* 128 B lines of this and the previous wave */
  double dram_read_bytes_per_wave, dram_read_bytes_per_wave_reuse;
  double dram_write_bytes_per_wave, dram_write_bytes_per_wave_reuse;
  /* Whole launch: */
  double dram_read_bytes, dram_write_bytes;                   /* with reuse between waves */
  double dram_read_bytes_no_reuse, dram_write_bytes_no_reuse;
  double compulsory_read_bytes, compulsory_write_bytes;       /* every sector once: perfect reuse */
} wgp_footprint_buffer;

typedef struct wgp_footprint_launch {
  uint64_t groups, groups_per_wave, waves;
  uint64_t representative_wave; /* the middle wave */
  size_t waves_counted;         /* waves whose footprints were counted */
  bool sampled;                 /* interior waves stand for others */
  double l2_bytes;
  /* The representative wave and its predecessor: their lines over the L2
   * size (all buffers, plus the lines that the requests of accesses
   * without a footprint touch), and the fraction of the overlap that hits. */
  double occupancy, reuse_fraction;
  /* Totals of the buffers with footprints: */
  double dram_read_bytes, dram_write_bytes;
  double dram_read_bytes_no_reuse, dram_write_bytes_no_reuse;
  double compulsory_read_bytes, compulsory_write_bytes;
  size_t exact_accesses, bound_accesses, fallback_accesses; /* global accesses by kind */
} wgp_footprint_launch;

/* Counts the footprints of IN's launch (keep: IN must outlive the call
 * only).  OPT may be NULL for the defaults (then the resident groups per SM
 * are 1).  Accesses that cannot be counted are marked FALLBACK; the call
 * itself fails only on bad input or out of memory. */
wgp_status wgp_footprint_analyze(const wgp_analysis_input *in, const wgp_footprint_options *opt,
                                 wgp_footprint **out, wgp_diag *diag);
void wgp_footprint_free(wgp_footprint *f);

size_t wgp_footprint_num_accesses(const wgp_footprint *f);
const wgp_footprint_access *wgp_footprint_access_at(const wgp_footprint *f, size_t id);
size_t wgp_footprint_num_buffers(const wgp_footprint *f);
const wgp_footprint_buffer *wgp_footprint_buffer_at(const wgp_footprint *f, size_t i);
const wgp_footprint_launch *wgp_footprint_launch_totals(const wgp_footprint *f);

/* What the LRU model (CACHE, with the launch totals TOT of the analysis)
 * says access ID moves to or from DRAM over the whole launch: its sectors
 * missing L1 (loads) and then L2, x SECTOR bytes; 0 for non-global accesses. */
double wgp_lru_dram_bytes(const wgp_kernel *k, size_t id, const wgp_mem_stats *tot, const wgp_cache_result *cache,
                          unsigned sector);

/* For the simulator: the launch's DRAM bytes with reuse between waves, from
 * the footprints where there are some and from the LRU model for the other
 * accesses (READ, WRITE may be NULL). */
void wgp_footprint_dram_bytes(const wgp_footprint *f, const wgp_kernel *k, const wgp_mem_stats *tot,
                              const wgp_cache_result *cache, double *read, double *write);

/* For the simulator: per access, the L2 hit rate that makes the sectors
 * reaching L2 (TOT's sectors, less L1 hits of CACHE) produce the footprint's
 * DRAM traffic; the LRU rate where there is no footprint.  L2_HIT has
 * wgp_kernel_num_accesses entries; -1 where not applicable. */
void wgp_footprint_l2_hit_rates(const wgp_footprint *f, const wgp_kernel *k, const wgp_mem_stats *tot,
                                const wgp_cache_result *cache, double *l2_hit);

/* Where the two models disagree on access ID's DRAM bytes over the launch
 * by more than WGP_FOOTPRINT_DISAGREEMENT (either way): the reason, in
 * words, with *RATIO = LRU bytes / footprint bytes (infinite when the
 * footprint moves nothing); NULL when they agree or ID has no footprint. */
#define WGP_FOOTPRINT_DISAGREEMENT 2.0
const char *wgp_footprint_disagreement(const wgp_footprint *f, const wgp_kernel *k, size_t id,
                                       const wgp_mem_stats *tot, const wgp_cache_result *cache, double *ratio);

/* Per pointer argument of IN's kernel (EXTENT has wgp_kernel_num_args
 * entries): the bytes from the lowest to the highest sector its global
 * accesses touch over the whole launch, an upper bound on what the launch
 * touches in it; 0 where it has no access or one of them has no footprint
 * (not affine, or isl gave up).  No set is counted: a lower and an upper
 * bound per access, cheap beside wgp_footprint_analyze. */
wgp_status wgp_footprint_extents(const wgp_analysis_input *in, double *extent, wgp_diag *diag);

/* Per pointer argument of IN's kernel (LO and HI have wgp_kernel_num_args
 * entries): the lowest and highest byte, from the argument's address, that
 * its global accesses certainly touch over the whole launch, from the
 * accesses whose sets are exact (an affine address, executed where affine
 * conditions hold: none under a branch on loaded data taken both ways);
 * LO > HI where there is none.  A byte below 0 or at the buffer's size or
 * past it is an access outside the buffer the launch gives. */
wgp_status wgp_footprint_reach(const wgp_analysis_input *in, double *lo, double *hi, wgp_diag *diag);

/* The arguments whose size IN gives (buffer_bytes) the launch certainly
 * accesses outside of (wgp_footprint_reach): a kernel not written for this
 * launch (a grid past the data without a bound check) or a size too small.
 * Up to MAX of them, in argument order, in ARG with their bytes in LO and
 * HI; *COUNT of them.  Nothing is computed where IN gives no size. */
wgp_status wgp_footprint_outside(const wgp_analysis_input *in, size_t max, size_t *arg, double *lo, double *hi,
                                 size_t *count, wgp_diag *diag);

const char *wgp_footprint_kind_name(wgp_footprint_kind kind); /* "none", "exact", "bound", "fallback" */

#ifdef __cplusplus
}
#endif

#endif
