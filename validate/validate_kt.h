/* validate_kt.h - wgtune's ranking of a space against Kernel Tuner's
 * brute-force measurements of it (wgperf-validate --kernel-tuner;
 * docs/validation.md, "Whole tuning spaces").
 *
 * A Kernel Tuner cache file (gzip'd or plain JSON) holds, per configuration
 * (its key: the values in tune_params_keys order, joined by commas), the
 * measured time in ms or the reason it failed ("CompilationFailedConfig",
 * "RuntimeFailedConfig", "InvalidConfig"), and what measuring it cost
 * (compile_time, benchmark_time, framework_time, ms).
 */
#ifndef WGPERF_VALIDATE_KT_H
#define WGPERF_VALIDATE_KT_H

#include "wgperf/diag.h"
#include "wgperf/tune.h"

#include <stdio.h>

typedef struct vkt_cache vkt_cache;

/* Reads FILE (gzip or plain).  Errors name the file and what is wrong. */
wgp_status vkt_load(const char *file, vkt_cache **out, wgp_diag *diag);
void vkt_free(vkt_cache *c);
const char *vkt_device(const vkt_cache *c); /* device_name, "" when absent */
/* The cache says wgperf.not_a_gpu (wgperf-measure --plan timed it on a CPU device). */
bool vkt_not_a_gpu(const vkt_cache *c);
size_t vkt_num_entries(const vkt_cache *c);
/* The sum of compile_time + benchmark_time + framework_time over every
 * entry, ms: what the brute force cost on the GPU machine. */
double vkt_brute_force_ms(const vkt_cache *c);

/* How well one model's times rank and fit the measurements of N
 * configurations (NAN where N is too small). */
typedef struct vkt_figures {
  size_t n;
  double mape, geomean, spearman; /* percent, percent, rho */
  double pick_ratio, top1_ratio, top1_in_top5;
  size_t top1, top5; /* configurations in a 1% and a 5% of N (at least 1) */
} vkt_figures;

/* What the comparison found. */
typedef struct vkt_summary {
  size_t configurations;  /* of the ranking */
  size_t both;            /* predicted by us and measured: the figures below are over these */
  size_t we_cannot_gpu_ran;  /* we list it as cannot run; the GPU ran it */
  size_t we_rank_gpu_failed; /* we rank it; the GPU failed it (compile or launch) */
  size_t both_cannot;        /* both say it cannot run */
  size_t not_in_cache;       /* configurations the cache does not hold */
  double mape, geomean, spearman; /* percent, percent, rho */
  double best_measured_ms;        /* the fastest measured of BOTH */
  double pick_ratio;     /* measured time of our predicted-best of BOTH over the measured best */
  double top1_ratio;     /* the best measured time among our top 1% of BOTH over the measured best */
  double top1_in_top5;   /* share of the measured top 1% of BOTH that is in our top 5% */
  size_t top1, top5;     /* configurations in a 1% and a 5% of BOTH (at least 1) */
  size_t top10_gpu_failed; /* of our 10 predicted fastest, those the GPU failed */
  /* the published baselines (baseline.h) over the configurations of BOTH
   * that have them: BSP with its lambda fitted on one measured
   * configuration (seeds/003: one factor per kernel and GPU), the first of
   * BOTH in the space's order, and the roofline as it is */
  vkt_figures bsp, roofline;
  double bsp_lambda;
  size_t bsp_fit_index; /* the configuration lambda was fitted on (its index in the space) */
} vkt_summary;

typedef struct vkt_report vkt_report;

/* Matches R's configurations (its parameters must be the cache's
 * tune_params_keys, in any order) with the measurements of C. */
wgp_status vkt_compare(const vkt_cache *c, const wgp_tune_result *r, vkt_report **out, wgp_diag *diag);
void vkt_report_free(vkt_report *rep);
const vkt_summary *vkt_report_summary(const vkt_report *rep);

/* The summary as text (CACHE and SPACE name the inputs), as JSON, one CSV
 * row per configuration, predicted against measured time as SVG. */
int vkt_write_text(const vkt_report *rep, const char *cache, FILE *f);
int vkt_write_json(const vkt_report *rep, const char *cache, FILE *f);
int vkt_write_csv(const vkt_report *rep, FILE *f);
int vkt_write_plot(const vkt_report *rep, const char *cache, FILE *f);

#endif
