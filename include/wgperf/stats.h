/* stats.h - accuracy statistics of predictions against measurements, as
 * wgperf-validate reports them (docs/validation.md).
 *
 * Percent errors compare a prediction P with a measurement M > 0:
 *   MAPE = mean |P - M| / M x 100;
 *   geometric-mean relative error = (exp(mean |ln(P / M)|) - 1) x 100, which
 *     treats 2x too slow and 2x too fast alike (both 100%) where MAPE does
 *     not (100% and 50%);
 *   Spearman's rank correlation: Pearson's correlation of the ranks, tied
 *     values taking the mean of the ranks they span.
 * Pairs whose measurement is not positive and finite, or whose prediction is
 * not positive and finite (for the geometric mean; MAPE needs only a finite
 * one), are skipped; a statistic of no pair is NaN.
 */
#ifndef WGPERF_STATS_H
#define WGPERF_STATS_H

#include "wgperf/diag.h"
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

double wgp_stats_mape(const double *pred, const double *meas, size_t n);
double wgp_stats_geomean_rel_error(const double *pred, const double *meas, size_t n);

/* Ranks of X[0..n) into RANK (1 = smallest; ties share their mean rank). */
wgp_status wgp_stats_ranks(const double *x, size_t n, double *rank);

/* Spearman's rho of X and Y into *RHO: NaN when n < 2 or when either side
 * has all values equal (the correlation is undefined).  WGP_ERR_NOMEM when
 * out of memory. */
wgp_status wgp_stats_spearman(const double *x, const double *y, size_t n, double *rho);

/* Where the prediction places item I: its position (1 = predicted fastest)
 * when PRED[0..n) is ordered by value, equal values by index, the order in
 * which wgp_stats_argmin picks (so rank 1 is exactly the item chosen). */
size_t wgp_stats_rank_of(const double *pred, size_t n, size_t i);

/* The index of the smallest of X[0..n) (the first on ties); 0 when n == 0. */
size_t wgp_stats_argmin(const double *x, size_t n);

#ifdef __cplusplus
}
#endif

#endif
