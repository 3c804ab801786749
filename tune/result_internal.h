/* result_internal.h - a ranking of a tuning space as run.c builds it,
 * result.c reads, writes and merges it, report.c and plot.c draw it (tune/
 * only). */
#ifndef WGPERF_TUNE_RESULT_INTERNAL_H
#define WGPERF_TUNE_RESULT_INTERNAL_H

#include "wgperf/tune.h"

struct wgp_tune_result {
  char *space, *kernel, *gpu;
  /* what must agree for shards to merge: the space's file contents, the
   * kernel, the GPU, the flags and the tools (a hash) */
  char *key;
  char *registers; /* where most configurations' registers came from, in words */
  size_t nparams;
  char **params;
  size_t nconfigs;
  wgp_tune_config *configs; /* in the space's order */
  wgp_tune_value *values;   /* nconfigs x nparams; texts in the pool */
  size_t nranked;
  size_t *ranked;           /* indices into configs, fastest first */
  wgp_tune_counts counts;
  /* strings the configurations point to */
  char **pool;
  size_t npool, cappool;
};

/* A copy of S kept with R (NULL when out of memory; S NULL gives NULL). */
const char *tr_keep(wgp_tune_result *r, const char *s);
/* An empty result with these names (NULL when out of memory). */
wgp_tune_result *tr_new(const char *space, const char *kernel, const char *gpu, const char *key, size_t nparams,
                        const char *const *params, size_t nconfigs);
/* Sorts the predicted configurations into R->ranked: time, then index. */
bool tr_rank(wgp_tune_result *r);
/* With prune_top N: a ranked configuration whose lower bound is above the
 * N-th fastest's time (wgp_tune_prune_threshold) is pruned, as one process
 * pruning the whole space would have it (ranked again).  False when out of
 * memory. */
bool tr_prune_trim(wgp_tune_result *r);

/* Text of a value for the reports: its #define text. */
#define TR_VALUE(r, c, p) ((c)->values[p].text)

#endif
