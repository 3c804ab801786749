/* validate_thresholds.h - accuracy thresholds recorded in the repository
 * (validation/thresholds.json) and checked against a report of
 * wgperf-validate, so CI fails when accuracy regresses.
 *
 *   {"format": "wgperf-validate-thresholds", "version": 1,
 *    "recorded": {"command": "...", "figures": {"overall.mape": 41.6, ...}},
 *    "max": {"overall.mape": 46.8, ...}, "min": {"overall.spearman": 0.86, ...}}
 *
 * Keys are dot paths into the --json report ("per_gpu.Titan.mape").  A value
 * that is missing or null in the report fails its check.  Limits written by
 * vthresh_write: MAPE-like figures (percent) 1.1 x the figure + 1 point,
 * Spearman the figure - 0.05, mean slowdowns the figure + 0.03.
 */
#ifndef WGPERF_VALIDATE_THRESHOLDS_H
#define WGPERF_VALIDATE_THRESHOLDS_H

#include "wgperf/diag.h"
#include <jansson.h>
#include <stdio.h>

/* Checks REPORT against FILE, one line per check on LOG; the number of
 * failed checks, or -1 with DIAG filled when FILE is unusable. */
int vthresh_check(json_t *report, const char *file, FILE *log, wgp_diag *diag);

/* Writes FILE with the figures of REPORT and limits around them; COMMAND
 * says how the figures were made. */
wgp_status vthresh_write(json_t *report, const char *file, const char *command, wgp_diag *diag);

#endif
