/* prune.h - work-group sizes pruned and ranked without running the kernel
 * (seeds/004 sec. 6, eq. 9-21, Algorithm 4).
 *
 * Given a kernel, a GPU and a launch without a work-group size, the search
 *   1. enumerates the sizes the GPU allows (extents dividing the global size
 *      unless the launch is non-uniform, per-dimension and total limits,
 *      resources for at least one resident group), analyzes each (traces
 *      and memory costs, analyze.h) and bounds its time for any hit rates;
 *   2. takes sizes best-first by lower bound: a size gets its cache analysis
 *      and exact bounds, then its estimate as `wgperf predict` makes it
 *      (estimate.h), until the smallest lower bound left is above the
 *      smallest upper bound (a worst case or a simulated time): stage 2,
 *      inferior pipelines (sec. 6.2, Algorithm 4);
 *   3. skips a size whose round is the same as another's (traces, memory
 *      costs, resident warps, hit rates) with no more rounds and groups:
 *      stage 1, duplicated traces (sec. 6.1); and, without analyzing it, a
 *      1-D size of a non-uniform launch whose last warp has idle lanes when
 *      the size that fills the same warps can run with the same residency
 *      (stage 1, idle lanes);
 *   4. ranks the simulated sizes: the first is the fastest of all.
 * With wgp_prune_options.top = N the first N ranks are exact: step 2 stops
 * only when the smallest lower bound left is above the N-th smallest upper
 * bound of N distinct sizes, and step 3 skips no size that could be among
 * the N fastest (its twin's time is no proof of its own), and leaves sizes
 * with idle lanes in.
 * docs/wgprune.md describes the stages, their assumptions and measured
 * results.
 */
#ifndef WGPERF_PRUNE_H
#define WGPERF_PRUNE_H

#include "wgperf/launch.h"
#include "wgperf/pipeline.h"

#ifdef __cplusplus
extern "C" {
#endif

/* wgp_prune_options.flags */
#define WGP_PRUNE_EXHAUSTIVE 1u /* simulate every size that can run (the stages are still counted) */

typedef struct wgp_prune_options {
  /* The launch without a work-group size: global size, scalar arguments,
   * buffers, fixed __local sizes (--local-mem), --nonuniform (keep).  A
   * global offset is not carried over (launch.h has no way to read it). */
  const wgp_launch *launch;
  /* Non-NULL: the work-groups per dimension are fixed (CUDA's grid, a
   * kernel with a group per row): each size's global size is GRID x the
   * size, every size the GPU allows is a candidate (no divisibility), and
   * LAUNCH's global size must be GRID (a template with groups of 1). */
  const uint64_t *grid;
  /* __local arguments whose size depends on the work-group size: byte counts
   * as expressions of lx, ly, lz (wgp_size_expr_eval). */
  const char *const *local_arg_names;
  const char *const *local_arg_exprs;
  size_t num_local_args;
  /* Sizes the kernel is written for: a size is a candidate only when every
   * one of these conditions of lx, ly, lz (wgp_size_cond_eval) holds, e.g.
   * "lx == 16 && ly == 16" for a kernel with fixed 16x16 tiles. */
  const char *const *restrictions;
  size_t num_restrictions;
  unsigned regs;  /* registers per thread; 0: wgp_kernel_registers_on */
  unsigned flags; /* WGP_PRUNE_* */
  /* How many ranks must be exact.  0: the first (the default search, ties
   * aside: the size ranked first may be another one predicted exactly as
   * fast with as many work-items per group).  N: the first N ranks are the
   * N fastest of every size that can run, in the order the exhaustive search
   * ranks them (ties by work-items per group, fewest first, then enumeration
   * order, as there), at the cost of the sizes whose lower
   * bound is not above the N-th smallest upper bound; SIZE_MAX: every
   * size, none pruned. */
  size_t top;
  /* hints as in wgp_analysis_input (may be NULL with count 0) */
  const size_t *trip_loops;
  const uint64_t *trip_counts;
  size_t num_trip_hints;
  const size_t *taken_blocks;
  const double *taken_fractions;
  size_t num_taken_hints;
  bool l2_cold;
  /* Search the sizes whose last warp has idle lanes as any other (stage 1's
   * idle-lane rule off, WGP_PRUNE_IDLE_LANES; so is it with top > 0, a
   * fixed grid or a uniform launch). */
  bool partial_warps;
  /* threads of the search (0: wgp_default_threads()): with more than one,
   * the others analyze, cache-analyze and simulate the sizes the search
   * will most likely take next; the result and the counts are the same for
   * any number */
  unsigned threads;
  /* Called as the search goes (may be NULL): PHASE is "analyzing",
   * "bounding" (cache analyses) or "simulating", DONE of TOTAL sizes. */
  void (*progress)(void *user, const char *phase, size_t done, size_t total);
  void *progress_user;
} wgp_prune_options;

/* What became of a candidate size. */
typedef enum wgp_prune_stage {
  WGP_PRUNE_INVALID,   /* cannot run: why says */
  WGP_PRUNE_DUPLICATE, /* stage 1: the same round as its batch's representative (rep), no fewer rounds or groups
                          (with top > 0: only a size the bounds also left out of the first top ranks) */
  WGP_PRUNE_BOUND,     /* stage 2: its best case is slower than another size's worst case or simulated time
                          (with top = N: than the N-th smallest such upper bound) */
  WGP_PRUNE_SURVIVOR,  /* survived both stages: simulated */
  WGP_PRUNE_IDLE_LANES /* stage 1, idle lanes: a 1-D size whose last warp is partial, represented by the size
                          that fills the same warps (rep), with the same residency: eq. 10 gives it the same
                          round and no fewer rounds (docs/wgprune.md; options.partial_warps turns it off) */
} wgp_prune_stage;

typedef struct wgp_prune_candidate {
  uint64_t local[3]; /* unused dimensions 1 */
  wgp_prune_stage stage;
  const char *why;   /* INVALID: why it cannot run ("" otherwise) */
  size_t rep;        /* DUPLICATE: the candidate index representing its batch; IDLE_LANES: the size filling
                        its warps */
  uint64_t groups;   /* work-groups of the launch */
  double rounds;     /* eq. 10, sub-item 2: warps on the busiest SM (ceil(groups / SMs) groups) over resident warps */
  unsigned active_warps_per_sm, active_groups_per_sm;
  /* The bounds the search used (us, launch overhead included): from the
   * size's own cache analysis when exact_bounds, otherwise valid for any hit
   * rates (every global access hitting for the best case, missing for the
   * worst). */
  double best_us, worst_us;
  bool exact_bounds;
  bool simulated; /* sim holds its estimate (survivors; every valid size with WGP_PRUNE_EXHAUSTIVE) */
  wgp_sim_result sim;
} wgp_prune_candidate;

typedef struct wgp_prune_counts {
  size_t total;            /* sizes enumerated (the GPU's limits, the global size, the restrictions) */
  size_t restricted;       /* sizes within the GPU's limits and the global size that a restriction excluded */
  bool truncated;          /* more sizes than the 65536 enumerated were allowed (--nonuniform in 3-D) */
  size_t valid;            /* that can run */
  size_t after_duplicates; /* valid sizes that are no duplicate and have no idle lanes (stage 1) */
  size_t idle_lanes;       /* valid sizes stage 1 represented by the size that fills their warps */
  size_t after_bounds;     /* of those, the ones the bounds left to simulate (stage 2) */
  size_t simulated;        /* simulated (after_bounds; every valid size with WGP_PRUNE_EXHAUSTIVE) */
  size_t analyses;         /* sizes analyzed (traces, memory costs): the others were ruled out before */
  size_t cache_analyses;   /* sizes whose cache was analyzed (what stage 2 and 3 cost most) */
  size_t exact_ranks;      /* the first ranks that are those of the exhaustive search: 1 (top 0), min(top,
                              ranked), every rank with WGP_PRUNE_EXHAUSTIVE; 0 when nothing was ranked, or
                              when sizes with idle lanes were left out (idle_lanes > 0, not exhaustive) */
  /* wall milliseconds: enumerating the sizes (launch, residency), the
   * search (analyses, cache analyses, bounds, simulations), and with
   * WGP_PRUNE_EXHAUSTIVE simulating the sizes the search left */
  double enumeration_ms, search_ms, exhaustive_ms;
} wgp_prune_counts;

typedef struct wgp_prune wgp_prune;

/* Runs the search for K on GPU (both keep: they must outlive the result).
 * Fails with WGP_ERR_INPUT and a diagnostic when the launch does not fit the
 * kernel (a missing argument value, an unknown name, a __local argument
 * without a size) or no size can run; a size that alone cannot run is a
 * candidate of stage WGP_PRUNE_INVALID. */
wgp_status wgp_prune_run(const wgp_kernel *k, const wgp_gpu *gpu, const wgp_prune_options *opts, wgp_prune **out,
                         wgp_diag *diag);
void wgp_prune_free(wgp_prune *p);

size_t wgp_prune_num_candidates(const wgp_prune *p);
const wgp_prune_candidate *wgp_prune_candidate_at(const wgp_prune *p, size_t i);
void wgp_prune_get_counts(const wgp_prune *p, wgp_prune_counts *out);
/* Simulated candidates, fastest first (ties: fewer work-items per group
 * first, then enumeration order); the
 * first counts.exact_ranks are exact, the others are the sizes simulated on
 * the way, and a size never simulated may fall between them. */
size_t wgp_prune_num_ranked(const wgp_prune *p);
size_t wgp_prune_ranked(const wgp_prune *p, size_t rank); /* candidate index */
unsigned wgp_prune_registers(const wgp_prune *p);         /* registers per thread used */
/* Whether stage 1's idle-lane rule would have applied (a non-uniform launch,
 * sizes of one row with a partial last warp, neither partial_warps, top nor a
 * fixed grid) but the kernel's control flow reads the group's shape other
 * than through the global id (wgp_kernel_paths_by_global_id), so that every
 * such size was searched; *WHERE (may be NULL) the source of the first
 * branch or loop that does, NULL where unknown. */
bool wgp_prune_idle_rule_refused(const wgp_prune *p, const char **where);
unsigned wgp_prune_dims(const wgp_prune *p);              /* dimensions of the launch */
/* The arguments candidate I's launch (its group size, and its grid where the
 * search fixed the grid) certainly accesses outside the --buffer sizes the
 * launch gives (wgp_footprint_outside; the arguments, bytes and count as
 * there; nothing where no size is given): a grid past the data of a kernel
 * without a bound check.  A check costs about an analysis (isl over the
 * whole launch), so a caller checks the sizes it shows. */
wgp_status wgp_prune_outside(const wgp_prune *p, size_t i, size_t max, size_t *arg, double *lo, double *hi,
                             size_t *count, wgp_diag *diag);

/* The value of TEXT, an expression of lx, ly, lz (L[0..2]), non-negative
 * integers, + - * / (integer division) % and parentheses, comparisons
 * (== != < <= > >=), && || and ! (1 true, 0 false; C's precedence), in OUT;
 * false when it is malformed, divides by zero or is negative or above
 * 10^12. */
bool wgp_size_expr_eval(const char *text, const uint64_t l[3], uint64_t *out);
/* Whether TEXT, an expression as above, is non-zero for L (*HOLDS); false
 * when it is malformed or divides by zero. */
bool wgp_size_cond_eval(const char *text, const uint64_t l[3], bool *holds);
/* Whether TEXT is such an expression (whatever it divides by). */
bool wgp_size_expr_valid(const char *text);

#ifdef __cplusplus
}
#endif

#endif
