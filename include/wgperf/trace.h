/* trace.h - per-warp execution traces (seeds/004 sec. 4.2, Algorithms 1-3 in
 * spirit): which basic blocks one warp executes, in order, with the active
 * lanes of every block.
 *
 * A trace is structural: a loop is one node holding runs of identical
 * iterations, so a loop of 10^9 iterations costs no more than one of 10.
 * Work-item-dependent branches are evaluated per lane (divergence is
 * exact), loop-variable-dependent ones per iteration.  Conditions that need
 * a loaded value are taken both ways (weight 1 each) unless a taken fraction
 * is given, and the trace is flagged.  Long loops are sampled: the first and
 * last WGP_TRACE_EDGE_ITERATIONS iterations of every stretch with a constant
 * active mask are executed, and the stretch between them is represented by
 * its middle iteration (exact for bodies that are the same every iteration,
 * and for counts that vary linearly with the iteration).  A loop whose
 * count the model leaves to its recurrences (trip_kind "recurrence") gets
 * per-lane counts from its exits evaluated on the recurrences alone:
 * stepped, then searched along the line the recurrences follow, then
 * checked (analyzer/trace.c, probe_trips); it is then sampled like any
 * loop of known count.
 */
#ifndef WGPERF_TRACE_H
#define WGPERF_TRACE_H

#include "wgperf/diag.h"
#include "wgperf/expr.h"
#include "wgperf/model.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define WGP_TRACE_EDGE_ITERATIONS 8
/* Iterations of one entry into a loop the tracer cannot count whose exit
 * has not held yet: past them the trace is flagged truncated.  Such a loop
 * is a modelling failure (an exit that never holds, e.g. after an int
 * overflow, or a non-affine recurrence running long); the cap bounds what
 * it costs, since iterations that differ cannot be sampled. */
#define WGP_TRACE_EXPLICIT_CAP 1024u
/* A loop's max_trip_count that is a constant of at least this is the range
 * of its index type (SCEV's bound for a data-dependent exit), not a bound:
 * the tracer runs such a loop as it runs one without a bound. */
#define WGP_TRACE_TYPE_RANGE_BOUND (INT64_C(1) << 31)
/* Whether loop LP's max_trip_count is a bound worth running (not absent, not the type's range). */
bool wgp_loop_has_real_bound(const wgp_loop *lp);
#define WGP_TRACE_MAX_WARP 64

typedef struct wgp_tracer wgp_tracer;
typedef struct wgp_trace wgp_trace;
typedef struct wgp_tnode wgp_tnode;

/* The launch as the tracer needs it. LOOKUP resolves scalar arguments
 * (WGP_SYM_ARG) and, where the caller has hints, loaded values
 * (WGP_SYM_LOAD); every other symbol is the tracer's. */
typedef struct wgp_trace_launch {
  unsigned dims;       /* 1..3 */
  uint64_t global[3];  /* work-items per dimension (unused dims: 1) */
  uint64_t local[3];   /* work-group size per dimension (unused dims: 1) */
  uint64_t offset[3];  /* global offset */
  unsigned warp_size;  /* 1..WGP_TRACE_MAX_WARP */
  wgp_sym_lookup lookup;
  void *user;
} wgp_trace_launch;

/* The launch's work-items (the product of its global sizes). */
double wgp_launch_items(const wgp_trace_launch *L);
/* Warps per work-group of L (a partial warp counts as one; L->warp_size at least 1). */
size_t wgp_launch_warps_per_group(const wgp_trace_launch *L);

/* What a trace had to assume (wgp_trace_flags). */
#define WGP_TRACE_DATA_BRANCH 1u  /* a branch needed a loaded value: both paths taken */
#define WGP_TRACE_DATA_LOOP 2u    /* a loop count needed a loaded value: hint, bound or 1 used */
#define WGP_TRACE_SAMPLED 4u      /* a long stretch of iterations is represented by a sample */
#define WGP_TRACE_TRUNCATED 8u    /* an iteration or size cap was hit */
#define WGP_TRACE_UNKNOWN 16u     /* a condition could not be evaluated for another reason */

/* Called for every executed block, in execution order: MASK the active lanes,
 * WEIGHT the probability from branch hints (1 without), MULTIPLICITY how many
 * executions this one stands for (above 1 in a sampled stretch). ENV
 * evaluates expressions for LANE (any lane of MASK) at this point. */
typedef void (*wgp_trace_visit)(void *user, size_t block, uint64_t mask, double weight, double multiplicity,
                                wgp_tracer *tracer);

/* KERNEL and LAUNCH are kept (not copied): they must outlive the tracer. */
wgp_status wgp_tracer_new(const wgp_kernel *kernel, const wgp_trace_launch *launch, wgp_tracer **out,
                          wgp_diag *diag);
void wgp_tracer_free(wgp_tracer *t);
/* Hints for what cannot be known statically. */
void wgp_tracer_set_trip_hint(wgp_tracer *t, size_t loop, uint64_t trips);
void wgp_tracer_set_taken_hint(wgp_tracer *t, size_t block, double taken_fraction);
void wgp_tracer_set_visitor(wgp_tracer *t, wgp_trace_visit visit, void *user);
/* Iterations executed at each end of a sampled stretch (default
 * WGP_TRACE_EDGE_ITERATIONS; at least 1): fewer make a cheaper trace whose
 * counts are the same for bodies that do not change with the iteration. */
void wgp_tracer_set_edge_iterations(wgp_tracer *t, unsigned n);
/* Iterations of one entry into a loop whose count is unknown and whose exit
 * does not hold before them (default WGP_TRACE_EXPLICIT_CAP; at least 1);
 * the trace is then flagged WGP_TRACE_TRUNCATED.  The cache analysis lowers
 * it for its sample when over its work budget. */
void wgp_tracer_set_explicit_cap(wgp_tracer *t, unsigned n);

/* Traces warp WARP (0-based, lanes ordered x fastest) of work-group GROUP. */
/* Traces that need not show the loops the visitor would see nothing in:
 * a loop with no access in SPACES (a bit per wgp_space; 0: none skipped),
 * whose exits all lead to one block and whose iteration counts and
 * recurrences (and those of the loops inside it) nothing outside it reads,
 * is left out, its lanes sent to that block (the cache analysis: only
 * global accesses matter to it).  Everything after such a loop is traced as
 * without it; the trace lacks the loop.  False when out of memory (then no
 * loop is skipped). */
bool wgp_tracer_skip_quiet_loops(wgp_tracer *t, unsigned spaces);

/* With ON, the iteration before a sampled middle iteration (the one that
 * stands for a stretch) is visited too, with weight 0 and not in the trace:
 * a cache simulation then sees the sample's reuse of what the iteration
 * before touched, as it would in the stretch (an accumulator a[i] updated
 * every iteration hits; a stream moving on misses). */
void wgp_tracer_warm_samples(wgp_tracer *t, bool on);
/* During a visit: how many iterations of the innermost loop around the
 * block its current iteration stands for (above 1 in a sampled middle
 * iteration; 1 in an explicit iteration, also of a loop nested in a sampled
 * one, and outside loops).  The visit's multiplicity is the product over the
 * loops around the block. */
double wgp_tracer_stretch(const wgp_tracer *t);

wgp_status wgp_tracer_trace(wgp_tracer *t, const uint64_t group[3], size_t warp, wgp_trace **out,
                            wgp_diag *diag);
size_t wgp_tracer_num_warps(const wgp_tracer *t); /* warps per work-group */
uint64_t wgp_tracer_full_mask(const wgp_tracer *t, size_t warp);

/* During a visit: evaluates E for LANE of the warp being traced. */
wgp_eval_status wgp_tracer_eval(wgp_tracer *t, const wgp_expr *e, unsigned lane, wgp_eval_result *out);
/* The same for every lane of MASK at once: writes VALUE[lane] (an array of
 * WGP_TRACE_MAX_WARP) for the lanes whose value is known and returns their
 * mask; values and known lanes are exactly wgp_tracer_eval's.  E is compiled
 * for the launch on first use (launch constants folded; the launch's lookup
 * must answer the same for a symbol while the tracer lives), so this is the
 * fast way for anything evaluated often. */
uint64_t wgp_tracer_eval_warp(wgp_tracer *t, const wgp_expr *e, uint64_t mask, int64_t *value);
/* Loaded values for addresses: from now on the tracer gives each load whose
 * value reaches a global access's address (directly or through other loads)
 * a value per lane when it is visited, a hash of the place it reads (the
 * same place always holds the same value), and wgp_tracer_eval_warp_data
 * evaluates with those values.  A gather x[col[j]] then reads scattered
 * places and a walk val[rowptr[r] + i] a contiguous run from a scattered
 * start, as on real data.  Control flow is untouched (branches and loop
 * counts that depend on data keep their hints and fallbacks).  False when
 * out of memory (nothing tracked). */
bool wgp_tracer_track_loads(wgp_tracer *t);
bool wgp_tracer_tracks_loads(const wgp_tracer *t);
/* As wgp_tracer_eval_warp, with the loaded values of the lanes that loaded
 * one (wgp_tracer_track_loads; without it, the same). */
uint64_t wgp_tracer_eval_warp_data(wgp_tracer *t, const wgp_expr *e, uint64_t mask, int64_t *value);
/* Terms of a warp's affine form: an offset, then one multiple per lane
 * coordinate (local id x, y, z, lane number). */
#define WGP_TRACE_FORM_TERMS 5
/* As wgp_tracer_eval_warp, but when E's value in every lane of MASK is
 * FORM[0] + sum FORM[1 + k] x coordinate k of the lane (wrapping), writes
 * FORM and returns true, VALUE untouched; otherwise writes VALUE and *KNOWN
 * (the known lanes) as wgp_tracer_eval_warp does and returns false. */
bool wgp_tracer_eval_warp_form(wgp_tracer *t, const wgp_expr *e, uint64_t mask, int64_t *value, uint64_t *known,
                               int64_t form[WGP_TRACE_FORM_TERMS]);
/* FORM's values in the lanes of MASK of the warp being traced. */
void wgp_tracer_form_values(const wgp_tracer *t, const int64_t form[WGP_TRACE_FORM_TERMS], uint64_t mask,
                            int64_t *value);
/* The smallest and largest value FORM takes over the coordinates of the
 * warp being traced (a box over its group's lanes: it holds every lane);
 * false when they do not fit in 64 bits. */
bool wgp_tracer_form_span(const wgp_tracer *t, const int64_t form[WGP_TRACE_FORM_TERMS], int64_t *lo, int64_t *hi);
/* Changes with every warp traced (never 0 during a visit): the lane
 * coordinates a form refers to stay the same while it does. */
uint64_t wgp_tracer_warp_epoch(const wgp_tracer *t);

void wgp_trace_free(wgp_trace *tr);
/* Frees TR, a trace of T that is no longer needed, keeping its storage for
 * T's next wgp_tracer_trace (the tracing loops that want only the visits). */
void wgp_tracer_recycle(wgp_tracer *t, wgp_trace *tr);
unsigned wgp_trace_flags(const wgp_trace *tr);
/* The WGP_TRACE_DATA_BRANCH / DATA_LOOP / UNKNOWN flags that the branch
 * ending BLOCK set: which conditions of this trace could not be evaluated;
 * and WGP_TRACE_TRUNCATED on the header of a loop whose exit was not
 * reached within the explicit cap (or its count's search). */
unsigned wgp_trace_block_flags(const wgp_trace *tr, size_t block);
bool wgp_trace_equal(const wgp_trace *a, const wgp_trace *b);
uint64_t wgp_trace_hash(const wgp_trace *tr);
/* The same without loop iteration counts: which blocks run, with which
 * lanes, in which loop structure (for telling where control flow changes). */
uint64_t wgp_trace_shape_hash(const wgp_trace *tr);
/* Warp-level executions of BLOCK (weighted, sampled stretches expanded), and
 * the same counted per active lane. */
double wgp_trace_block_executions(const wgp_trace *tr, size_t block);
double wgp_trace_lane_executions(const wgp_trace *tr, size_t block);
/* Nodes stored (a measure of the trace's size, not of the work it stands for). */
size_t wgp_trace_size(const wgp_trace *tr);

/* Walking the structure. */
typedef enum wgp_tnode_kind { WGP_TNODE_BLOCK, WGP_TNODE_LOOP } wgp_tnode_kind;
size_t wgp_trace_num_nodes(const wgp_trace *tr);
const wgp_tnode *wgp_trace_node(const wgp_trace *tr, size_t i);
wgp_tnode_kind wgp_tnode_get_kind(const wgp_tnode *n);
size_t wgp_tnode_block(const wgp_tnode *n); /* BLOCK */
uint64_t wgp_tnode_mask(const wgp_tnode *n);
double wgp_tnode_weight(const wgp_tnode *n);
size_t wgp_tnode_loop(const wgp_tnode *n);  /* LOOP */
size_t wgp_tnode_num_runs(const wgp_tnode *n);
uint64_t wgp_tnode_run_count(const wgp_tnode *n, size_t run);       /* iterations it stands for */
uint64_t wgp_tnode_run_first(const wgp_tnode *n, size_t run);       /* iteration of its body */
bool wgp_tnode_run_sampled(const wgp_tnode *n, size_t run);
size_t wgp_tnode_run_num_nodes(const wgp_tnode *n, size_t run);
const wgp_tnode *wgp_tnode_run_node(const wgp_tnode *n, size_t run, size_t i);

/* Readable dump, for tests and `wgperf analyze --trace`. */
void wgp_trace_print(const wgp_trace *tr, const wgp_kernel *k, char **buf, size_t *len);

#ifdef __cplusplus
}
#endif

#endif
