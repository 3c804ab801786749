/* analyze.h - one launch of one kernel: distinct warps, their traces, the
 * memory cost of every access and dynamic instruction counts.
 *
 * Combines the tracer (trace.h), the choice of representative work-groups
 * and grouping of identical warps (warps.h) and the per-access memory rules
 * (metrics.h).  Two warps share a class only when their traces and their
 * memory costs are both identical.
 */
#ifndef WGPERF_ANALYZE_H
#define WGPERF_ANALYZE_H

#include "wgperf/metrics.h"
#include "wgperf/warps.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct wgp_analysis wgp_analysis;

typedef struct wgp_analysis_input {
  const wgp_kernel *kernel;
  const wgp_gpu *gpu;
  wgp_trace_launch launch;       /* warp_size is taken from the GPU when 0 */
  const uint64_t *buffer_align;  /* per argument index, 0 = default; may be NULL */
  const uint64_t *buffer_bytes;  /* per argument index, the buffer's size (--buffer), 0 = not given; may be
                                    NULL.  Where the analysis cannot tell an access's addresses (a gather
                                    x[col[j]]), its lanes are spread over this size (cache.h) */
  const uint64_t *local_bytes;   /* size of __local pointer arguments per argument index, then of dynamic
                                    shared arrays per array index (wgp_launch_bind); may be NULL */
  /* hints, NULL-terminated by count */
  const size_t *trip_loops;
  const uint64_t *trip_counts;
  size_t num_trip_hints;
  const size_t *taken_blocks;
  const double *taken_fractions;
  size_t num_taken_hints;
  /* L2 holds none of the launch's data when it starts (a flushed cache);
   * by default data that fits stays in L2 from whatever wrote it last */
  bool l2_cold;
  /* threads the cache analysis may trace its sample with (0: the process
   * default, wgp_default_threads()); the answer does not depend on it */
  unsigned threads;
  /* stop tracing at the first warp with a lane outside a __local array of
   * known size: the analysis is then partial (wgp_analysis_partial), for a
   * caller that discards such launches (wgprune) */
  bool stop_outside_local;
} wgp_analysis_input;

#define WGP_MAX_THREADS 64u

/* The threads an analysis uses when its input says 0: set by
 * wgp_set_default_threads (the tools' --jobs), else the CPUs this process
 * may run on, at most WGP_MAX_THREADS. */
unsigned wgp_default_threads(void);
void wgp_set_default_threads(unsigned n); /* 0: back to the CPUs */

/* Tunes the C library's allocator for analyses (call once, at the start of
 * a program): blocks up to 64 MiB come from the heap and freed memory stays
 * for the next analysis, instead of a fresh mapping per large block whose
 * unmapping stops every thread (a third of a threaded wgprune search's time
 * was the kernel mapping, clearing and unmapping pages). */
void wgp_tune_allocator(void);

/* The layout of IN's buffers (wgp_layout_new) with the regions its offsets
 * from loaded data fall in (wgp_layout_set_regions: IN's buffer_bytes,
 * else an element per work-item of IN's launch): what every analysis of
 * IN computes addresses with. */
wgp_status wgp_analysis_layout(const wgp_analysis_input *in, wgp_layout **out, wgp_diag *diag);

/* Traces the launch.  A launch the GPU or the kernel would refuse is an
 * error before anything is traced: a work-group past the GPU's block limits,
 * one the kernel's launch attributes forbid (wgp_kernel_allows_local_size),
 * a grid past the GPU's grid limits (wgp_gpu_grid_fits). */
wgp_status wgp_analyze(const wgp_analysis_input *in, wgp_analysis **out, wgp_diag *diag);
void wgp_analysis_free(wgp_analysis *a);

const wgp_warp_set *wgp_analysis_warps(const wgp_analysis *a);
/* stop_outside_local stopped it: counts and costs stand for the warps traced
 * so far, which include one with a lane outside a __local array */
bool wgp_analysis_partial(const wgp_analysis *a);
/* Memory statistics of warp class I (one entry per access id). */
const wgp_mem_stats *wgp_analysis_class_stats(const wgp_analysis *a, size_t i);
/* Launch totals: every class times the warps it stands for. */
const wgp_mem_stats *wgp_analysis_total_stats(const wgp_analysis *a);
/* Dynamic warp-level instructions of cost class CLS in the whole launch. */
double wgp_analysis_dynamic_count(const wgp_analysis *a, const char *cls);
unsigned wgp_analysis_flags(const wgp_analysis *a); /* union of the traces' WGP_TRACE_* flags */
/* The share of the launch's warp-level instructions executed inside LOOP
 * (its blocks and those of the loops nested in it), 0 to 1. */
double wgp_analysis_loop_share(const wgp_analysis *a, size_t loop);

/* Fallbacks: the places this launch executed whose behaviour cannot be
 * known statically, and what the analysis did instead (docs/corpus.md).
 * One entry per branch, loop or call, in block order. */
typedef enum wgp_fallback_kind {
  WGP_FALLBACK_DATA_BRANCH, /* condition on a loaded (or floating-point) value: both paths, or --taken */
  WGP_FALLBACK_DATA_LOOP,   /* loop exit on such a value: --trip, else the loop's bound, else 1 iteration */
  WGP_FALLBACK_UNKNOWN,     /* a condition not computable for another reason: both paths, or the forced count */
  WGP_FALLBACK_CALL,        /* unresolved call: counted as one instruction, the callee's cost not modelled */
  WGP_FALLBACK_UNENDED      /* a loop whose exit was never reached: cut after WGP_TRACE_EXPLICIT_CAP iterations
                             * of an entry, or --trip */
} wgp_fallback_kind;

typedef struct wgp_fallback {
  wgp_fallback_kind kind;
  size_t block;  /* the block that ends in the branch, or holds the call */
  long loop;     /* DATA_LOOP (and an UNKNOWN loop exit): the loop; -1 otherwise */
  long call;     /* CALL: the call's index in the model; -1 otherwise */
  bool hinted;   /* a --taken or --trip hint replaced the default */
  bool bounded;  /* DATA_LOOP without a hint: the model has a bound for the count */
} wgp_fallback;

size_t wgp_analysis_num_fallbacks(const wgp_analysis *a);
const wgp_fallback *wgp_analysis_fallback(const wgp_analysis *a, size_t i);
/* "data-dependent-branch", "data-dependent-loop", "unknown-condition", "unresolved-call", "unended-loop". */
const char *wgp_fallback_kind_name(wgp_fallback_kind k);
uint64_t wgp_analysis_local_bytes(const wgp_analysis *a);

#ifdef __cplusplus
}
#endif

#endif
