/* warps.h - the distinct warps of a launch.
 *
 * Warps with identical traces are grouped, so analysis costs grow with the
 * number of distinct warps, not with the grid.  Which work-groups are traced
 * depends on how the kernel's control flow uses the group id:
 * - not at all: one work-group stands for all;
 * - only through comparisons of sums, products, and divisions or shifts by
 *   amounts that do not depend on the group (bounds checks such as gid < n,
 *   borders of a stencil, grid-stride loop counts; (ty | by) == 0, which is
 *   how compilers write ty == 0 && by == 0; conditions of 1 bit combined by
 *   and, or, xor): per dimension the first,
 *   one interior and the last group, the interior one standing for all
 *   interior groups, unless the second and the last but one group differ in
 *   control flow (a bounds check gid < n with n well inside the grid): then
 *   the interior is split by bisection where it changes (at most
 *   WGP_WARPS_SPLIT_PROBES groups probed per dimension, the others at their
 *   first group), each run of alike groups represented by its middle one;
 * - otherwise (parity, modulo, bit tests of the group id): every group, up to
 *   WGP_WARPS_MAX_GROUPS groups spread over the grid, one per even stretch
 *   of groups, picked in it by a fixed hash so that no pattern of the
 *   group id with a period dividing the stretch is seen in one phase only
 *   (flagged).
 */
#ifndef WGPERF_WARPS_H
#define WGPERF_WARPS_H

#include "wgperf/trace.h"

#ifdef __cplusplus
extern "C" {
#endif

#define WGP_WARPS_MAX_GROUPS 4096
#define WGP_WARPS_SPLIT_PROBES 24

typedef struct wgp_warp_class {
  uint64_t group[3]; /* a representative */
  size_t warp;
  double count;      /* warps of the grid it stands for */
  wgp_trace *trace;  /* owned by the set */
  void *payload;     /* what the payload hooks attached (owned by the set), or NULL */
} wgp_warp_class;

/* Optional: data gathered while a warp is traced (e.g. memory metrics from
 * the tracer's visitor) that must also match for two warps to be one class.
 * TAKE is called after each trace and returns the data (give) or NULL when
 * out of memory. */
typedef struct wgp_warp_payload {
  void *(*take)(void *user);
  bool (*equal)(const void *a, const void *b);
  void (*free)(void *p);
  void *user;
  /* optional: true when a warp's data ends the build (the set is then
   * partial: wgp_warp_set_stopped) */
  bool (*stop)(const void *p);
  /* optional: takes back data the set does not keep (a duplicate's, a
   * probe's) for a later TAKE to reuse; else FREE frees it */
  void (*recycle)(void *user, void *p);
} wgp_warp_payload;

typedef struct wgp_warp_set wgp_warp_set;

/* How groups were chosen (wgp_warp_set_how). */
typedef enum wgp_group_choice {
  WGP_GROUPS_ONE,
  WGP_GROUPS_EDGES,
  WGP_GROUPS_ALL,
  WGP_GROUPS_SAMPLED,
  WGP_GROUPS_SPLIT /* as EDGES, the interior split where control flow changes */
} wgp_group_choice;

/* Traces the warps of the representative groups with TRACER (keep; its
 * visitor, if any, sees every traced warp) and groups identical traces. */
wgp_status wgp_warp_set_build(wgp_tracer *tracer, const wgp_kernel *k, const wgp_trace_launch *launch,
                              const wgp_warp_payload *payload, wgp_warp_set **out, wgp_diag *diag);
void wgp_warp_set_free(wgp_warp_set *s);
size_t wgp_warp_set_size(const wgp_warp_set *s);
const wgp_warp_class *wgp_warp_set_class(const wgp_warp_set *s, size_t i);
wgp_group_choice wgp_warp_set_how(const wgp_warp_set *s);
size_t wgp_warp_set_traced(const wgp_warp_set *s); /* warps traced */
bool wgp_warp_set_stopped(const wgp_warp_set *s);  /* the payload's stop ended the build */
double wgp_warp_set_total(const wgp_warp_set *s);  /* warps in the grid */

/* Whether E's value depends on the group id, and if so whether only through
 * add/sub/mul/min/max/casts/compares and divisions or shifts by group-
 * independent amounts (1) or otherwise (2); 0 when not (loaded and
 * floating-point values count as independent: they are never evaluated). */
int wgp_expr_group_dependence(const wgp_expr *e);

#ifdef __cplusplus
}
#endif

#endif
