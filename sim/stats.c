/* stats.c - accuracy statistics (include/wgperf/stats.h). */
#include "wgperf/stats.h"

#include <math.h>
#include <stdlib.h>

static int usable(double p, double m) { return isfinite(p) && isfinite(m) && m > 0; }

double wgp_stats_mape(const double *pred, const double *meas, size_t n) {
  double sum = 0;
  size_t k = 0;
  for (size_t i = 0; i < n; i++)
    if (usable(pred[i], meas[i])) {
      sum += fabs(pred[i] - meas[i]) / meas[i];
      k++;
    }
  return k ? 100 * sum / (double)k : NAN;
}

double wgp_stats_geomean_rel_error(const double *pred, const double *meas, size_t n) {
  double sum = 0;
  size_t k = 0;
  for (size_t i = 0; i < n; i++)
    if (usable(pred[i], meas[i]) && pred[i] > 0) {
      sum += fabs(log(pred[i] / meas[i]));
      k++;
    }
  return k ? 100 * (exp(sum / (double)k) - 1) : NAN;
}

typedef struct keyed {
  double v;
  size_t i;
} keyed;

static int cmp_keyed(const void *a, const void *b) {
  const keyed *x = a, *y = b;
  if (x->v < y->v)
    return -1;
  if (x->v > y->v)
    return 1;
  return x->i < y->i ? -1 : x->i > y->i; /* stable: equal values keep their order */
}

wgp_status wgp_stats_ranks(const double *x, size_t n, double *rank) {
  if (n == 0)
    return WGP_OK;
  keyed *k = malloc(n * sizeof *k);
  if (!k)
    return WGP_ERR_NOMEM;
  for (size_t i = 0; i < n; i++)
    k[i] = (keyed){x[i], i};
  qsort(k, n, sizeof *k, cmp_keyed);
  for (size_t a = 0; a < n;) {
    size_t b = a + 1;
    while (b < n && k[b].v == k[a].v)
      b++;
    /* positions a..b-1 hold one value: ranks a+1..b, mean (a+1+b)/2 */
    double r = ((double)a + 1 + (double)b) / 2;
    for (size_t j = a; j < b; j++)
      rank[k[j].i] = r;
    a = b;
  }
  free(k);
  return WGP_OK;
}

wgp_status wgp_stats_spearman(const double *x, const double *y, size_t n, double *rho) {
  *rho = NAN;
  if (n < 2)
    return WGP_OK;
  double *rx = malloc(2 * n * sizeof *rx);
  if (!rx)
    return WGP_ERR_NOMEM;
  double *ry = rx + n;
  if (wgp_stats_ranks(x, n, rx) != WGP_OK || wgp_stats_ranks(y, n, ry) != WGP_OK) {
    free(rx);
    return WGP_ERR_NOMEM;
  }
  double mean = ((double)n + 1) / 2, sxy = 0, sxx = 0, syy = 0;
  for (size_t i = 0; i < n; i++) {
    double a = rx[i] - mean, b = ry[i] - mean;
    sxy += a * b;
    sxx += a * a;
    syy += b * b;
  }
  free(rx);
  if (sxx > 0 && syy > 0)
    *rho = sxy / sqrt(sxx * syy);
  return WGP_OK;
}

size_t wgp_stats_rank_of(const double *pred, size_t n, size_t i) {
  size_t r = 1;
  for (size_t j = 0; j < n; j++)
    if (pred[j] < pred[i] || (pred[j] == pred[i] && j < i))
      r++;
  return r;
}

size_t wgp_stats_argmin(const double *x, size_t n) {
  size_t best = 0;
  for (size_t i = 1; i < n; i++)
    if (x[i] < x[best])
      best = i;
  return best;
}
