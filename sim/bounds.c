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
 * - Worst case: eq. 20-21 (nothing overlaps: the sum over every resident
 *   warp of every instruction's issue slot, latency and unit occupancy) is
 *   far from any simulated round (median 14x over the 140 launches of
 *   scripts/compare-predictions.sh), so the bound used is the smaller of it
 *   and a list-scheduling bound (Graham's argument) that holds for the same
 *   reason: the simulator never leaves a warp waiting when it could issue.
 *   Follow the warp that finishes last backwards in time: at every instant
 *   it is either waiting for the latency of its own previous instruction (or
 *   of its barrier release), or ready but not issuing because its scheduler
 *   or the unit it needs is busy; at a barrier the path continues with the
 *   warp of the same group that arrived last.  So the round lasts at most
 *   the latencies on that path plus the time the resources it could wait for
 *   were busy.  Per group g:
 *     worst(g) = sum over the distinct warp classes in g of their chain of
 *                latencies (a path visits, between two barrier releases, one
 *                warp, and the pieces of one class's chain that it visits in
 *                different phases do not overlap)
 *              + issue slots and unit occupancy of the schedulers g's warps
 *                use + the occupancy of the SM's load/store path,
 *   and the round's worst case is the largest over its groups.  In a group
 *   without barriers the path never leaves its warp, so its own chain plus
 *   its own scheduler's issue and units and the load/store path suffice.
 */
#include "pipeline_internal.h"

#include <math.h>
#include <stdlib.h>

void wgp_sim_round_bounds(const wgp_sim_ctx *c, const wgp_class_totals *tot, const size_t *cls, const unsigned *sched,
                          size_t n, double *best, double *worst) {
  unsigned ns = wgp_gpu_schedulers_per_sm(c->in->gpu);
  size_t wpg = c->in->warps_per_group ? c->in->warps_per_group : 1;
  double issue[64] = {0}, unit[64][WGP_UNIT_COUNT] = {{0}}, chain = 0, serial = 0;
  for (size_t i = 0; i < n; i++) {
    const wgp_class_totals *t = &tot[cls[i]];
    unsigned s = sched[i] % 64;
    issue[s] += t->issue;
    for (int u = 0; u < WGP_UNIT_COUNT; u++)
      unit[wgp_unit_sm_wide(u) ? 0 : s][u] += t->unit[u];
    chain = fmax(chain, t->chain);
    serial += t->serial;
  }
  double b = chain, busy[64] = {0};
  for (unsigned s = 0; s < ns && s < 64; s++) {
    b = fmax(b, issue[s]);
    busy[s] = issue[s];
    for (int u = 0; u < WGP_UNIT_COUNT; u++) {
      b = fmax(b, unit[s][u]);
      if (!wgp_unit_sm_wide(u))
        busy[s] += unit[s][u];
    }
  }
  /* list-scheduling bound, group by group (warps i*wpg .. of group i) */
  double graham = 0;
  for (size_t g0 = 0; g0 < n; g0 += wpg) {
    size_t g1 = g0 + wpg < n ? g0 + wpg : n;
    uint64_t used = 0;
    bool barriers = false;
    double sm_wide = 0;
    for (int u = 0; u < WGP_UNIT_COUNT; u++)
      if (wgp_unit_sm_wide(u))
        sm_wide += unit[0][u];
    double path = 0, res = sm_wide, alone = 0;
    for (size_t i = g0; i < g1; i++) {
      const wgp_class_totals *t = &tot[cls[i]];
      bool seen = false;
      for (size_t j = g0; j < i && !seen; j++)
        seen = cls[j] == cls[i];
      if (!seen)
        path += t->chain;
      unsigned s = sched[i] % 64;
      if (!(used >> s & 1))
        res += busy[s];
      used |= 1ull << s;
      barriers = barriers || t->barriers > 0;
      /* without barriers the path never leaves its warp, which waits only
       * for its own scheduler, its units and the load/store path */
      alone = fmax(alone, t->chain + busy[s] + sm_wide);
    }
    graham = fmax(graham, barriers ? path + res : alone);
  }
  *best = b;
  *worst = n ? fmin(serial, graham) : serial;
}
