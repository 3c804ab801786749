/* validate_predict.h - one measurement row of wgperf-validate: its parsed
 * values, and our prediction of it (time, the two baselines' raw figures,
 * nvprof-equivalent counters) made in-process through the library.
 */
#ifndef WGPERF_VALIDATE_PREDICT_H
#define WGPERF_VALIDATE_PREDICT_H

#include "validate_csv.h"
#include "validate_manifest.h"
#include "wgperf/counters.h"
#include "wgperf/diag.h"
#include "wgperf/driver.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A row of the measurement CSV. */
typedef struct vrow {
  size_t line;
  const char *gpu, *kernel; /* point into the CSV table */
  vm_row r;                 /* input size, grid, block */
  unsigned regs;            /* regs_per_thread, 0 when absent */
  double duration_s;        /* median duration of one launch; NaN when absent */
  double duration_sum_s;    /* duration_sum_per_run_s: all launches of one run; NaN when absent */
  long launches_per_run;    /* 0 when absent */
  double counters[WGP_NUM_COUNTERS]; /* measured (the columns named by wgp_counter_name); NaN when empty */
} vrow;

/* Reads the rows of T (required columns: gpu, kernel, input_size, grid_x..z,
 * block_x..z, duration_s; the others are optional).  A malformed cell fails
 * with "FILE:LINE: column 'NAME': ...". */
wgp_status vrows_parse(const vcsv *t, vrow **out, size_t *n, wgp_diag *diag);

/* What one row became. */
typedef struct vresult {
  int ok;                  /* 1 when predicted; else REASON says why not */
  char reason[240];
  double pred_s;           /* our prediction for the row's measured quantity (one launch, or a whole run) */
  double overhead_s;       /* the launch overhead included in pred_s (all launches) */
  double bsp_raw_s;        /* seeds/003 BSP time with lambda = 1 */
  double roofline_s;       /* seeds/002-style data-volume roofline */
  double pipeline_s;       /* the simulated pipeline alone, without the floors and the overhead */
  double counters[WGP_NUM_COUNTERS]; /* predicted for one launch (the median over a run's launches) */
  int counter_rules;       /* wgp_counter_rules */
  unsigned regs;           /* registers per thread used */
  int launches, launches_simulated;
  char bound[24];          /* what limited our prediction (the simulator's "bound") */
} vresult;

typedef struct vpredictor vpredictor;

typedef struct vpredict_opts {
  const vm_manifest *manifest;
  bool opencl;          /* compile the .cl twins */
  bool regs_from_model; /* ignore the row's regs_per_thread */
  bool no_overhead;     /* leave the launch overhead out of the prediction */
  int max_launches;     /* simulate at most this many launches of a run (0: all) */
  const char *cache_dir; /* NULL: a temporary folder removed by vpredictor_free */
  const char *const *gpu_map; /* "NAME=FILE_OR_NAME" pairs */
  size_t ngpu_map;
  bool verbose;
  /* what building the models has to say: with VERBOSE each extraction, the
   * driver's warnings, and the error an extraction failed with (the rows'
   * reason then says it is printed above); NULL drops them */
  wgp_message_fn message;
  void *message_user;
} vpredict_opts;

wgp_status vpredictor_new(const vpredict_opts *o, vpredictor **out, wgp_diag *diag);
void vpredictor_free(vpredictor *p);

/* Builds (or finds in the cache) every model the rows need, so that forked
 * workers share them; rows whose model cannot be built will say why. */
void vpredictor_prepare(vpredictor *p, const vrow *rows, const size_t *idx, size_t n);

/* Predicts ROW into RES; never fails as a whole: what cannot be predicted is
 * RES->ok = 0 with a reason. */
void vpredict_row(vpredictor *p, const vrow *row, vresult *res);

/* The measured quantity PRED_S is compared with: duration_sum_per_run_s for
 * runs of several launches when present, else duration_s. */
double vrow_measured_s(const vrow *row);

#endif
