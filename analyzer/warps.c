/* warps.c - representative work-groups and the distinct warps of a launch
 * (see include/wgperf/warps.h for the rules). */
#include "wgperf/warps.h"
#include "mix_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

struct wgp_warp_set {
  const wgp_warp_payload *pl;
  wgp_warp_class *v;
  uint64_t *hash; /* of each class's trace */
  size_t n, cap;
  wgp_group_choice how;
  size_t traced;
  double total;
  bool stopped;
};

static bool is_group_sym(const wgp_expr *e) {
  const wgp_sym *s = wgp_expr_symbol(e);
  return s && (s->kind == WGP_SYM_GRP || s->kind == WGP_SYM_GID);
}

static bool is_zero(const wgp_expr *e) { return wgp_expr_get_op(e) == WGP_OP_INT && wgp_expr_int(e) == 0; }

/* The dependence of E == 0 when E is a bitwise or: (a | b) == 0 is a == 0
 * and b == 0 (compilers fold ty == 0 && by == 0 so), so each operand counts
 * as compared with 0 on its own. */
static int zero_test_dependence(const wgp_expr *e) {
  if (wgp_expr_get_op(e) != WGP_OP_OR)
    return wgp_expr_group_dependence(e);
  int worst = 0;
  for (size_t i = 0; i < wgp_expr_num_operands(e); i++) {
    int d = zero_test_dependence(wgp_expr_operand(e, i));
    worst = d > worst ? d : worst;
  }
  return worst;
}

/* Whether E can never be evaluated by the tracer: it needs a loaded or a
 * floating-point value, or an unmodelled one, where the evaluator needs
 * every operand (expr_eval.c: all but a select whose arms agree). */
static bool never_known(const wgp_expr *e) {
  wgp_expr_op op = wgp_expr_get_op(e);
  if (op == WGP_OP_LOAD || op == WGP_OP_FLOAT)
    return true;
  const wgp_sym *s = wgp_expr_symbol(e);
  if (s)
    return s->kind == WGP_SYM_LOAD || s->kind == WGP_SYM_UNKNOWN;
  size_t n = wgp_expr_num_operands(e);
  if (op == WGP_OP_SELECT && n == 3) {
    bool c = never_known(wgp_expr_operand(e, 0)), a = never_known(wgp_expr_operand(e, 1)),
         b = never_known(wgp_expr_operand(e, 2));
    return (a && b) || (c && (a || b));
  }
  for (size_t i = 0; i < n; i++)
    if (never_known(wgp_expr_operand(e, i)))
      return true;
  return false;
}

int wgp_expr_group_dependence(const wgp_expr *e) {
  if (!e)
    return 0;
  /* A condition that needs a loaded value is a fallback in every group
   * alike (both ways, or a loop's bound), whatever the group id does to
   * its other operands: Parboil's radix-sort rearrangement compares a
   * loaded digit with a key selected by a bounds check on the group id and
   * masked (and: not monotone), and traced all 4096 groups, 2666 distinct
   * warps, 22-36 s per estimate. */
  if (never_known(e))
    return 0;
  wgp_expr_op op = wgp_expr_get_op(e);
  if ((op == WGP_OP_EQ || op == WGP_OP_NE) && wgp_expr_num_operands(e) == 2) {
    const wgp_expr *a = wgp_expr_operand(e, 0), *b = wgp_expr_operand(e, 1);
    if (is_zero(b) && wgp_expr_get_op(a) == WGP_OP_OR)
      return zero_test_dependence(a);
    if (is_zero(a) && wgp_expr_get_op(b) == WGP_OP_OR)
      return zero_test_dependence(b);
  }
  if (op == WGP_OP_SYM)
    return is_group_sym(e) ? 1 : 0;
  /* a loaded or floating-point value is never evaluated (the branch is a
   * fallback in every group alike), whatever its address depends on */
  if (op == WGP_OP_LOAD || op == WGP_OP_FLOAT)
    return 0;
  int worst = 0;
  for (size_t i = 0; i < wgp_expr_num_operands(e); i++) {
    int d = wgp_expr_group_dependence(wgp_expr_operand(e, i));
    if (d > worst)
      worst = d;
  }
  if (worst == 0)
    return 0;
  switch (op) {
  case WGP_OP_ADD: case WGP_OP_SUB: case WGP_OP_MUL: case WGP_OP_SMIN: case WGP_OP_SMAX:
  case WGP_OP_UMIN: case WGP_OP_UMAX: case WGP_OP_ZEXT: case WGP_OP_SEXT: case WGP_OP_TRUNC:
  case WGP_OP_EQ: case WGP_OP_NE: case WGP_OP_SLT: case WGP_OP_SLE: case WGP_OP_SGT: case WGP_OP_SGE:
  case WGP_OP_ULT: case WGP_OP_ULE: case WGP_OP_UGT: case WGP_OP_UGE: case WGP_OP_NOT: case WGP_OP_SELECT:
  case WGP_OP_ADDREC:
    return worst;
  case WGP_OP_AND: case WGP_OP_OR: case WGP_OP_XOR:
    /* of conditions (1 bit): which of them hold, as they would each */
    return wgp_expr_width(e) == 1 ? worst : 2;
  case WGP_OP_UDIV: case WGP_OP_SDIV: case WGP_OP_SHL: case WGP_OP_LSHR: case WGP_OP_ASHR:
    /* monotone when the divisor or shift does not depend on the group */
    return wgp_expr_group_dependence(wgp_expr_operand(e, 1)) == 0 ? worst : 2;
  default:
    return 2; /* remainders and bit operations: periodic, not monotone */
  }
}

/* A fixed pseudo-random number for stretch I of dimension D. */
static uint64_t stretch_hash(uint64_t i, unsigned d) { return wgp_mix64(i * 0x9e3779b97f4a7c15ull + d + 1); }

/* The worst group dependence of everything that steers control flow. */
static int control_group_dependence(const wgp_kernel *k) {
  int worst = 0;
#define TAKE(e)                                                                                                \
  do {                                                                                                         \
    int d_ = wgp_expr_group_dependence(e);                                                                     \
    if (d_ > worst)                                                                                            \
      worst = d_;                                                                                              \
  } while (0)
  for (size_t b = 0; b < wgp_kernel_num_blocks(k); b++) {
    const wgp_branch *br = wgp_block_branch(wgp_kernel_block(k, b));
    if (br)
      TAKE(wgp_branch_cond(br));
  }
  for (size_t l = 0; l < wgp_kernel_num_loops(k); l++) {
    const wgp_loop *lp = wgp_kernel_loop(k, l);
    TAKE(wgp_loop_trip_count(lp));
    TAKE(wgp_loop_max_trip_count(lp));
    for (size_t i = 0; i < wgp_loop_num_recurrences(lp); i++) {
      const wgp_expr *init, *next;
      wgp_loop_recurrence(lp, i, &init, &next);
      TAKE(init);
      TAKE(next);
    }
    for (size_t i = 0; i < wgp_loop_num_exits(lp); i++) {
      size_t blk;
      TAKE(wgp_loop_exit(lp, i, &blk));
    }
  }
#undef TAKE
  return worst;
}

/* Data the set does not keep: recycled where the payload can, else freed. */
static void drop_payload(const wgp_warp_payload *pl, void *p) {
  if (pl->recycle && p)
    pl->recycle(pl->user, p);
  else
    pl->free(p);
}

static wgp_status add_warp(wgp_warp_set *s, wgp_tracer *t, const uint64_t g[3], size_t warp, double count,
                           wgp_trace *tr) {
  void *p = NULL;
  if (s->pl) {
    p = s->pl->take(s->pl->user);
    if (!p) {
      wgp_trace_free(tr);
      return WGP_ERR_NOMEM;
    }
  }
  if (s->pl && s->pl->stop && s->pl->stop(p))
    s->stopped = true;
  uint64_t h = wgp_trace_hash(tr);
  for (size_t i = 0; i < s->n; i++)
    if (s->hash[i] == h && wgp_trace_equal(s->v[i].trace, tr) &&
        (!s->pl || s->pl->equal(s->v[i].payload, p))) {
      s->v[i].count += count;
      wgp_tracer_recycle(t, tr);
      if (s->pl)
        drop_payload(s->pl, p);
      return WGP_OK;
    }
  if (s->n == s->cap) {
    size_t cap = s->cap ? 2 * s->cap : 8;
    wgp_warp_class *v = realloc(s->v, cap * sizeof *v);
    if (v)
      s->v = v;
    uint64_t *hv = v ? realloc(s->hash, cap * sizeof *hv) : NULL;
    if (!hv) {
      wgp_trace_free(tr);
      if (s->pl)
        s->pl->free(p);
      return WGP_ERR_NOMEM;
    }
    s->hash = hv;
    s->cap = cap;
  }
  s->hash[s->n] = h;
  s->v[s->n++] = (wgp_warp_class){{g[0], g[1], g[2]}, warp, count, tr, p};
  return WGP_OK;
}

/* Whether a loop count of K can change with the group id of dimension D:
 * a count, bound, exit or recurrence reads it. */
static bool sym_group_dim(const wgp_expr *e, unsigned d) {
  if (!e)
    return false;
  const wgp_sym *s = wgp_expr_symbol(e);
  if (s)
    return (s->kind == WGP_SYM_GRP || s->kind == WGP_SYM_GID) && s->dim == d;
  for (size_t i = 0; i < wgp_expr_num_operands(e); i++)
    if (sym_group_dim(wgp_expr_operand(e, i), d))
      return true;
  return false;
}

static bool loop_counts_use_group(const wgp_kernel *k, unsigned d) {
  for (size_t l = 0; l < wgp_kernel_num_loops(k); l++) {
    const wgp_loop *lp = wgp_kernel_loop(k, l);
    if (sym_group_dim(wgp_loop_trip_count(lp), d) || sym_group_dim(wgp_loop_max_trip_count(lp), d))
      return true;
    for (size_t i = 0; i < wgp_loop_num_recurrences(lp); i++) {
      const wgp_expr *init, *next;
      wgp_loop_recurrence(lp, i, &init, &next);
      if (sym_group_dim(init, d) || sym_group_dim(next, d))
        return true;
    }
    for (size_t i = 0; i < wgp_loop_num_exits(lp); i++) {
      size_t blk;
      if (sym_group_dim(wgp_loop_exit(lp, i, &blk), d))
        return true;
    }
  }
  return false;
}

/* The run of alike groups A..B (A <= B) stood for by its central group, or,
 * when MEAN and its length is even, by its two central groups with half its
 * count each: their mean is the run's mean for anything linear in the group
 * id (a loop count of the global id: for (j = 0; j < gid; j++) runs
 * 64 g + 31 times in a group of 64 on the group's last warp; the upper central
 * group alone counted half a group too many per group of the run).  Writes
 * PICK and CNT from *K on. */
static void central_groups(uint64_t a, uint64_t b, bool mean, uint64_t *pick, double *cnt, size_t *k) {
  uint64_t len = b - a + 1;
  if (mean && len % 2 == 0) {
    pick[*k] = a + len / 2 - 1, cnt[(*k)++] = (double)(len / 2);
    pick[*k] = a + len / 2, cnt[(*k)++] = (double)(len / 2);
    return;
  }
  pick[*k] = a + len / 2, cnt[(*k)++] = (double)len;
}

/* Groups to trace in one dimension of NGRP groups: values and counts (at
 * most 4: the first, the interior's central one or two (MEAN:
 * central_groups), the last). */
static size_t edge_groups(uint64_t ngrp, bool mean, uint64_t pick[4], double cnt[4]) {
  if (ngrp == 1) {
    pick[0] = 0, cnt[0] = 1;
    return 1;
  }
  if (ngrp == 2) {
    pick[0] = 0, cnt[0] = 1, pick[1] = 1, cnt[1] = 1;
    return 2;
  }
  size_t k = 0;
  pick[k] = 0, cnt[k++] = 1;
  central_groups(1, ngrp - 2, mean, pick, cnt, &k);
  pick[k] = ngrp - 1, cnt[k++] = 1;
  return k;
}

static uint64_t mix64(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  h ^= h >> 31;
  return h * 0xbf58476d1ce4e5b9ull;
}

/* Picks of one split dimension at most: the first and last group, and of
 * the 2 + WGP_WARPS_SPLIT_PROBES groups probed between them, two per run of
 * alike groups and two per unresolved stretch between two runs. */
#define SPLIT_PICKS (2 + 2 * (2 * (2 + WGP_WARPS_SPLIT_PROBES) - 1))

/* Probing the groups of one dimension (the others at their first group). */
typedef struct prober {
  wgp_tracer *t;
  const wgp_warp_payload *pl;
  unsigned d;
  bool mean; /* runs stood for by their two central groups when even (central_groups) */
} prober;

/* What group GI of the dimension does, up to loop counts: the shapes of its
 * first and last warps' traces (with monotone conditions the warps between
 * them follow). */
static wgp_status group_shape(prober *p, uint64_t gi, uint64_t *sig, wgp_diag *diag) {
  uint64_t g[3] = {0, 0, 0};
  g[p->d] = gi;
  uint64_t h = 0x51ed27;
  size_t wpg = wgp_tracer_num_warps(p->t), ws[2] = {0, wpg ? wpg - 1 : 0};
  for (int i = 0; i < (ws[1] > 0 ? 2 : 1); i++) {
    wgp_trace *tr = NULL;
    wgp_diag d2;
    wgp_status ts;
    size_t w = ws[i];
    /* a smaller last group (non-uniform launches) has fewer warps */
    while ((ts = wgp_tracer_trace(p->t, g, w, &tr, &d2)) == WGP_ERR_INPUT && w > 0)
      w--;
    if (ts != WGP_OK)
      return wgp_diag_set(diag, ts, "%s", d2.message);
    if (p->pl) /* the visitor's data of a probe belongs to no class (nor stops the build: a
                  * stopped set holds the warp that stopped it) */
      drop_payload(p->pl, p->pl->take(p->pl->user));
    h = mix64(mix64(h, w), wgp_trace_shape_hash(tr));
    wgp_tracer_recycle(p->t, tr);
  }
  *sig = h;
  return WGP_OK;
}

/* Groups to trace in one dimension of NGRP > 3 groups whose control flow
 * depends monotonically on the group id.  The first and last groups are
 * their own (borders); if groups 1 and NGRP-2 behave alike, so does every
 * group between them, and the middle one stands for them all.  Otherwise
 * the change points between them (a bounds check gid < n with n well inside
 * the grid) are found by bisection, WGP_WARPS_SPLIT_PROBES probes at most,
 * and each run of groups that behave alike is represented by its central
 * group or two (central_groups); a stretch left unresolved likewise.  PICK
 * and CNT need room for SPLIT_PICKS entries. */
static wgp_status split_groups(prober *p, uint64_t ngrp, uint64_t *pick, double *cnt, size_t *np, bool *split,
                               wgp_diag *diag) {
  enum { MAXP = WGP_WARPS_SPLIT_PROBES };
  uint64_t at[MAXP + 2], sig[MAXP + 2];
  size_t n = 2;
  at[0] = 1, at[1] = ngrp - 2;
  wgp_status st = group_shape(p, at[0], &sig[0], diag);
  if (st == WGP_OK)
    st = group_shape(p, at[1], &sig[1], diag);
  *split = false;
  /* bisect the leftmost unresolved stretch while probes remain */
  while (st == WGP_OK && n < MAXP + 2) {
    size_t i = 0;
    while (i + 1 < n && (sig[i] == sig[i + 1] || at[i + 1] - at[i] < 2))
      i++;
    if (i + 1 >= n)
      break;
    uint64_t m = at[i] + (at[i + 1] - at[i]) / 2, sm;
    if ((st = group_shape(p, m, &sm, diag)) != WGP_OK)
      break;
    for (size_t j = n; j > i + 1; j--)
      at[j] = at[j - 1], sig[j] = sig[j - 1];
    at[i + 1] = m, sig[i + 1] = sm;
    n++;
    *split = true;
  }
  if (st != WGP_OK)
    return st;
  size_t k = 0;
  pick[k] = 0, cnt[k++] = 1;
  for (size_t i = 0; i < n;) {
    /* a run of known points behaving alike: at[i] .. at[j] */
    size_t j = i;
    while (j + 1 < n && sig[j + 1] == sig[i])
      j++;
    central_groups(at[i], at[j], p->mean, pick, cnt, &k);
    if (j + 1 < n && at[j + 1] - at[j] > 1) /* unresolved between two runs */
      central_groups(at[j] + 1, at[j + 1] - 1, p->mean, pick, cnt, &k);
    i = j + 1;
  }
  pick[k] = ngrp - 1, cnt[k++] = 1;
  *np = k;
  return WGP_OK;
}

wgp_status wgp_warp_set_build(wgp_tracer *t, const wgp_kernel *k, const wgp_trace_launch *L,
                              const wgp_warp_payload *payload, wgp_warp_set **out, wgp_diag *diag) {
  *out = NULL;
  wgp_warp_set *s = calloc(1, sizeof *s);
  if (!s)
    return wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
  s->pl = payload;
  uint64_t ngrp[3];
  for (unsigned d = 0; d < 3; d++)
    ngrp[d] = (L->global[d] + L->local[d] - 1) / L->local[d];
  int dep = control_group_dependence(k);
  bool split_dim[3] = {false, false, false}, mean[3];
  for (unsigned d = 0; d < 3; d++)
    mean[d] = dep == 1 && loop_counts_use_group(k, d);
  /* Lists of (group index, count) per dimension. */
  uint64_t *pick[3] = {NULL, NULL, NULL};
  double *cnt[3] = {NULL, NULL, NULL};
  size_t np[3];
  wgp_status st = WGP_OK;
  for (unsigned d = 0; d < 3 && st == WGP_OK; d++) {
    size_t want = dep == 0   ? 1
                  : dep == 1 ? SPLIT_PICKS
                             : (size_t)(ngrp[d] < WGP_WARPS_MAX_GROUPS ? ngrp[d] : WGP_WARPS_MAX_GROUPS);
    pick[d] = malloc(want * sizeof **pick);
    cnt[d] = malloc(want * sizeof **cnt);
    if (!pick[d] || !cnt[d]) {
      st = WGP_ERR_NOMEM;
      break;
    }
    if (dep == 0) {
      pick[d][0] = 0, cnt[d][0] = (double)ngrp[d], np[d] = 1;
    } else if (dep == 1 && ngrp[d] > 3) {
      prober pr = {t, payload, d, mean[d]};
      st = split_groups(&pr, ngrp[d], pick[d], cnt[d], &np[d], &split_dim[d], diag);
    } else if (dep == 1) {
      np[d] = edge_groups(ngrp[d], mean[d], pick[d], cnt[d]);
    } else {
      /* a group per stretch of NGRP / WANT, picked in it by a hash (one at
       * the same place in every stretch would see one phase of a pattern
       * whose period divides the stretch: a bitonic step's active half) */
      np[d] = want;
      for (size_t i = 0; i < want; i++) {
        uint64_t lo = (uint64_t)((double)i * (double)ngrp[d] / (double)want);
        uint64_t hi = (uint64_t)((double)(i + 1) * (double)ngrp[d] / (double)want);
        pick[d][i] = lo + (hi > lo + 1 ? stretch_hash(i, d) % (hi - lo) : 0);
        cnt[d][i] = (double)ngrp[d] / (double)want;
      }
    }
  }
  /* Split dimensions whose groups together would be too many: the outer ones
   * back to their first, central and last groups (two split ones of at most
   * 52 picks stay; three would be 140000 groups). */
  for (unsigned d = 3; st == WGP_OK && dep == 1 && d-- > 0;)
    if ((double)np[0] * (double)np[1] * (double)np[2] > WGP_WARPS_MAX_GROUPS && split_dim[d]) {
      np[d] = edge_groups(ngrp[d], mean[d], pick[d], cnt[d]);
      split_dim[d] = false;
    }
  bool split = split_dim[0] || split_dim[1] || split_dim[2];
  s->how = dep == 0 ? WGP_GROUPS_ONE : dep == 1 ? (split ? WGP_GROUPS_SPLIT : WGP_GROUPS_EDGES) : WGP_GROUPS_ALL;
  if (st == WGP_OK && dep == 2 && (double)np[0] * (double)np[1] * (double)np[2] > WGP_WARPS_MAX_GROUPS) {
    /* Too many: keep the first dimensions' choices and thin the outer ones,
     * halving until they fit, each kept group one of its stretch picked by
     * a hash as above. */
    size_t keep[3] = {np[0], np[1], np[2]};
    while ((double)keep[0] * (double)keep[1] * (double)keep[2] > WGP_WARPS_MAX_GROUPS) {
      unsigned d = keep[2] > 1 ? 2 : keep[1] > 1 ? 1 : 0;
      keep[d] = keep[d] / 2 ? keep[d] / 2 : 1;
    }
    for (unsigned d = 0; d < 3; d++) {
      if (keep[d] == np[d])
        continue;
      for (size_t i = 0; i < keep[d]; i++) {
        size_t lo = i * np[d] / keep[d], hi = (i + 1) * np[d] / keep[d];
        pick[d][i] = pick[d][lo + (hi > lo ? (size_t)(stretch_hash(i, d) % (hi - lo)) : 0)];
        cnt[d][i] = (double)ngrp[d] / (double)keep[d];
      }
      np[d] = keep[d];
    }
  }
  if (st == WGP_OK && dep == 2)
    for (unsigned d = 0; d < 3; d++)
      if (np[d] < ngrp[d])
        s->how = WGP_GROUPS_SAMPLED;
  for (size_t z = 0; st == WGP_OK && !s->stopped && z < np[2]; z++)
    for (size_t y = 0; st == WGP_OK && !s->stopped && y < np[1]; y++)
      for (size_t x = 0; st == WGP_OK && !s->stopped && x < np[0]; x++) {
        uint64_t g[3] = {pick[0][x], pick[1][y], pick[2][z]};
        double gc = cnt[0][x] * cnt[1][y] * cnt[2][z];
        for (size_t w = 0;; w++) {
          wgp_trace *tr;
          wgp_diag d2;
          wgp_status ts = wgp_tracer_trace(t, g, w, &tr, &d2);
          if (ts == WGP_ERR_INPUT)
            break; /* past the group's last warp */
          if (ts != WGP_OK) {
            st = wgp_diag_set(diag, ts, "%s", d2.message);
            break;
          }
          s->traced++;
          s->total += gc;
          if ((st = add_warp(s, t, g, w, gc, tr)) != WGP_OK || s->stopped)
            break;
        }
      }
  for (unsigned d = 0; d < 3; d++)
    free(pick[d]), free(cnt[d]);
  if (st != WGP_OK) {
    wgp_warp_set_free(s);
    if (st == WGP_ERR_NOMEM)
      return wgp_diag_set(diag, st, "wgperf: error: out of memory");
    return st;
  }
  *out = s;
  return WGP_OK;
}

void wgp_warp_set_free(wgp_warp_set *s) {
  if (!s)
    return;
  for (size_t i = 0; i < s->n; i++) {
    wgp_trace_free(s->v[i].trace);
    if (s->pl && s->v[i].payload)
      s->pl->free(s->v[i].payload);
  }
  free(s->v);
  free(s->hash);
  free(s);
}

size_t wgp_warp_set_size(const wgp_warp_set *s) { return s->n; }
const wgp_warp_class *wgp_warp_set_class(const wgp_warp_set *s, size_t i) { return i < s->n ? &s->v[i] : NULL; }
wgp_group_choice wgp_warp_set_how(const wgp_warp_set *s) { return s->how; }
size_t wgp_warp_set_traced(const wgp_warp_set *s) { return s->traced; }
bool wgp_warp_set_stopped(const wgp_warp_set *s) { return s->stopped; }
double wgp_warp_set_total(const wgp_warp_set *s) { return s->total; }
