/* bounds.c - best- and worst-case round latency (seeds/004 sec. 6.2, eq. 11-21).
 *
 * The bounds are those of the pipeline this simulator models, so that
 * best <= simulated <= worst holds by construction:
 * - Best case (eq. 11): the largest of the components that cannot overlap
 *   with themselves: the issue slots of each scheduler, the occupancy of each
 *   scheduler's functional units and of the SM's load/store path summed over
 *   the resident warps (eq. 12-13, with the unit's occupancy time per
 *   instruction), and
 *   the longest single warp's chain of latencies with its barrier releases
 *   (the memory component of eq. 14-19: a warp's kappa accesses cost at least
 *   kappa x L_mem).
 * - Worst case (eq. 20-21): nothing overlaps: the sum over every resident
 *   warp of every instruction's issue slot, latency and unit occupancy.  At
 *   every instant of the simulated round some instruction is in one of those
 *   windows (the simulator never idles while a warp could issue), so the
 *   round cannot be longer.
 */
#include "pipeline_internal.h"

#include <math.h>
#include <stdlib.h>

void wgp_sim_round_bounds(const wgp_sim_ctx *c, const wgp_class_totals *tot, const size_t *cls, const unsigned *sched,
                          size_t n, double *best, double *worst) {
  unsigned ns = wgp_gpu_schedulers_per_sm(c->in->gpu);
  double issue[64] = {0}, unit[64][WGP_UNIT_COUNT] = {{0}}, chain = 0, serial = 0;
  for (size_t i = 0; i < n; i++) {
    const wgp_class_totals *t = &tot[cls[i]];
    unsigned s = sched[i] % 64;
    issue[s] += t->issue;
    for (int u = 0; u < WGP_UNIT_COUNT; u++)
      unit[u == WGP_UNIT_LSU ? 0 : s][u] += t->unit[u];
    chain = fmax(chain, t->chain);
    serial += t->serial;
  }
  double b = chain;
  for (unsigned s = 0; s < ns && s < 64; s++) {
    b = fmax(b, issue[s]);
    for (int u = 0; u < WGP_UNIT_COUNT; u++)
      b = fmax(b, unit[s][u]);
  }
  *best = b;
  *worst = serial;
}
