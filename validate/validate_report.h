/* validate_report.h - the accuracy report of wgperf-validate: statistics per
 * scope (overall, per GPU, per kernel, per GPU and kernel) for our model and
 * the two baselines, the launch-shape choice of every (gpu, kernel,
 * input_size), the counter errors, and the outputs (text, JSON, CSV, SVG).
 * Names and meanings: docs/validation.md.
 */
#ifndef WGPERF_VALIDATE_REPORT_H
#define WGPERF_VALIDATE_REPORT_H

#include "validate_predict.h"
#include <stdio.h>

enum { VR_OURS, VR_BSP, VR_ROOFLINE, VR_NMODELS };

typedef struct vr_stats {
  size_t rows; /* rows this model predicted and that were scored */
  double mape, geomean;  /* percent; NaN without rows */
  double spearman;       /* mean over the scope's groups of >= 3 shapes; NaN without one */
  size_t spearman_groups;
  size_t choice_groups;  /* groups of >= 2 shapes */
  size_t best_rank1;     /* ... where the measured-best shape is also predicted best */
  size_t within_105;     /* ... where the predicted-best shape is within 1.05x of the measured best */
  double mean_slowdown, max_slowdown; /* measured time of the predicted-best shape / measured best */
} vr_stats;

/* Errors of one predicted counter against nvprof over a scope's rows. */
typedef struct vr_counter_stats {
  size_t rows;       /* rows with the counter measured and predicted */
  double mape;       /* over the rows whose measurement is above 0; NaN without one */
  size_t within_5;   /* rows predicted within 5% (a measured 0 needs a predicted 0) */
} vr_counter_stats;

typedef struct vreport vreport;

typedef struct vreport_input {
  const char *csv_name;
  const vrow *rows;
  const size_t *idx; /* the selected rows, in file order */
  const vresult *res; /* one per selected row */
  size_t n;
  size_t total_rows; /* rows in the file, before selection */
  const char *selection; /* how rows were selected, in words ("" for all) */
} vreport_input;

wgp_status vreport_build(const vreport_input *in, vreport **out, wgp_diag *diag);
void vreport_free(vreport *r);

/* Whole-run statistics (overall) of model M. */
const vr_stats *vreport_overall(const vreport *r, int m);

void vreport_text(const vreport *r, FILE *f, bool all_groups);
/* The same as JSON (stable names: docs/validation.md): the tree (give:
 * json_decref), and written out. */
#include <jansson.h>
json_t *vreport_to_json(const vreport *r);
void vreport_json(const vreport *r, FILE *f);
/* One CSV line per selected row: measured, predicted, baselines, counters. */
void vreport_csv(const vreport *r, FILE *f);
/* Predicted vs measured, log-log, one colour per kernel; 0 or an errno. */
int vreport_svg(const vreport *r, const char *file);

#endif
