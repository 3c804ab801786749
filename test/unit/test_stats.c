/* test_stats.c - accuracy statistics: MAPE, geometric-mean relative error,
 * ranks and Spearman's rho with ties, against values worked out by hand. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "wgperf/stats.h"

#define NEAR(a, b) assert_true(fabs((a) - (b)) < 1e-9)

static void mape(void **state) {
  (void)state;
  double p[] = {110, 90, 200}, m[] = {100, 100, 100};
  NEAR(wgp_stats_mape(p, m, 3), (10.0 + 10.0 + 100.0) / 3);
  /* unusable pairs are skipped: a zero, a negative, a NaN measurement, a NaN prediction */
  double p2[] = {110, 5, 5, 5, NAN}, m2[] = {100, 0, -1, NAN, 100};
  NEAR(wgp_stats_mape(p2, m2, 5), 10.0);
  assert_true(isnan(wgp_stats_mape(p, m, 0)));
  assert_true(isnan(wgp_stats_mape(p2 + 1, m2 + 1, 4)));
}

static void geomean(void **state) {
  (void)state;
  /* 2x too slow and 2x too fast both count as 100% */
  double p[] = {200, 50}, m[] = {100, 100};
  NEAR(wgp_stats_geomean_rel_error(p, m, 2), 100.0);
  /* exp(mean(|ln 1.1|, |ln 0.9|)) - 1 */
  double p2[] = {110, 90}, m2[] = {100, 100};
  NEAR(wgp_stats_geomean_rel_error(p2, m2, 2), 100 * (exp((log(1.1) - log(0.9)) / 2) - 1));
  /* a zero prediction has no logarithm: skipped */
  double p3[] = {0, 110}, m3[] = {100, 100};
  NEAR(wgp_stats_geomean_rel_error(p3, m3, 2), 10.0);
  assert_true(isnan(wgp_stats_geomean_rel_error(p3, m3, 1)));
}

static void ranks(void **state) {
  (void)state;
  double x[] = {30, 10, 20, 10, 40}, r[5];
  assert_int_equal(wgp_stats_ranks(x, 5, r), WGP_OK);
  /* 10, 10 share ranks 1 and 2 */
  NEAR(r[0], 4);
  NEAR(r[1], 1.5);
  NEAR(r[2], 3);
  NEAR(r[3], 1.5);
  NEAR(r[4], 5);
  double all[] = {7, 7, 7}, ra[3];
  assert_int_equal(wgp_stats_ranks(all, 3, ra), WGP_OK);
  NEAR(ra[0], 2);
  NEAR(ra[2], 2);
}

static void spearman(void **state) {
  (void)state;
  double rho;
  double x[] = {1, 2, 3, 4, 5}, y[] = {10, 20, 30, 40, 50}, z[] = {5, 4, 3, 2, 1};
  assert_int_equal(wgp_stats_spearman(x, y, 5, &rho), WGP_OK);
  NEAR(rho, 1);
  assert_int_equal(wgp_stats_spearman(x, z, 5, &rho), WGP_OK);
  NEAR(rho, -1);
  /* monotone but not linear: still 1 */
  double sq[] = {1, 4, 9, 16, 1000};
  assert_int_equal(wgp_stats_spearman(x, sq, 5, &rho), WGP_OK);
  NEAR(rho, 1);
  /* ties: x ranks 1.5 1.5 3 4, y ranks 1 2 3 4; Pearson of the ranks by hand:
   * mean 2.5; dx = -1 -1 .5 1.5, dy = -1.5 -.5 .5 1.5; sxy = 1.5+.5+.25+2.25 = 4.5;
   * sxx = 1+1+.25+2.25 = 4.5; syy = 2.25+.25+.25+2.25 = 5 */
  double tx[] = {1, 1, 2, 3}, ty[] = {1, 2, 3, 4};
  assert_int_equal(wgp_stats_spearman(tx, ty, 4, &rho), WGP_OK);
  NEAR(rho, 4.5 / sqrt(4.5 * 5));
  /* undefined: a constant side, or fewer than two items */
  double c[] = {2, 2, 2, 2};
  assert_int_equal(wgp_stats_spearman(c, ty, 4, &rho), WGP_OK);
  assert_true(isnan(rho));
  assert_int_equal(wgp_stats_spearman(x, y, 1, &rho), WGP_OK);
  assert_true(isnan(rho));
}

static void rank_of_and_argmin(void **state) {
  (void)state;
  double p[] = {3, 1, 2, 1};
  assert_int_equal(wgp_stats_argmin(p, 4), 1);
  assert_int_equal(wgp_stats_rank_of(p, 4, 1), 1);
  /* an equal prediction later in the list ranks behind: rank 1 is the one chosen */
  assert_int_equal(wgp_stats_rank_of(p, 4, 3), 2);
  assert_int_equal(wgp_stats_rank_of(p, 4, 2), 3);
  assert_int_equal(wgp_stats_rank_of(p, 4, 0), 4);
  assert_int_equal(wgp_stats_argmin(p, 0), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(mape),     cmocka_unit_test(geomean),           cmocka_unit_test(ranks),
      cmocka_unit_test(spearman), cmocka_unit_test(rank_of_and_argmin),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
