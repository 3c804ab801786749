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
  const uint64_t *local_bytes;   /* per argument index, size of __local pointer arguments; may be NULL */
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
} wgp_analysis_input;

wgp_status wgp_analyze(const wgp_analysis_input *in, wgp_analysis **out, wgp_diag *diag);
void wgp_analysis_free(wgp_analysis *a);

const wgp_warp_set *wgp_analysis_warps(const wgp_analysis *a);
/* Memory statistics of warp class I (one entry per access id). */
const wgp_mem_stats *wgp_analysis_class_stats(const wgp_analysis *a, size_t i);
/* Launch totals: every class times the warps it stands for. */
const wgp_mem_stats *wgp_analysis_total_stats(const wgp_analysis *a);
/* Dynamic warp-level instructions of cost class CLS in the whole launch. */
double wgp_analysis_dynamic_count(const wgp_analysis *a, const char *cls);
unsigned wgp_analysis_flags(const wgp_analysis *a); /* union of the traces' WGP_TRACE_* flags */
uint64_t wgp_analysis_local_bytes(const wgp_analysis *a);

#ifdef __cplusplus
}
#endif

#endif
