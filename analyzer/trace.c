/* trace.c - per-warp execution traces.
 *
 * Model (see include/wgperf/trace.h for what a trace is):
 * - SIMT: a warp executes a region (the function, or one loop's body with its
 *   inner loops collapsed to single nodes) in reverse post-order of the CFG;
 *   each block runs once with the union of the lanes that reached it, so
 *   diverged paths reconverge at the first block both reach, which is the
 *   immediate post-dominator for structured code.  The order of the two
 *   sides of a divergent branch is block order, not necessarily the
 *   hardware's; counts and masks are exact.
 * - Loops: all lanes that reach a header enter together and share the
 *   iteration number (it.L<n>); a lane leaves when its exit condition holds.
 *   Recurrences (rv.L<n>.<k>) are kept per lane.
 * - A condition that cannot be evaluated (a loaded value, an unknown) sends
 *   the lanes both ways, unless it decides a loop exit: then the loop runs
 *   the hinted, bounded or (flagged) single iteration count.
 * - Long loops are sampled (trace.h); stretches are cut where some lane's
 *   count ends, so every stretch has a constant active mask.
 */
#include "wgperf/trace.h"

#include "expr_warp_internal.h"
#include "mix_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NODES (1u << 22)      /* nodes in one trace */
#define RECURRENCE_STEP_CAP (1u << 20)
#define PROBE_STEPS 64u             /* recurrence steps probed one by one before a jump */
#define PROBE_LIMIT (INT64_C(1) << 48) /* trip counts the affine search looks for */

typedef struct nodelist {
  wgp_tnode *v;
  size_t n, cap;
} nodelist;

typedef struct run {
  uint64_t count, first;
  bool sampled;
  nodelist body;
} run;

struct wgp_tnode {
  wgp_tnode_kind kind;
  size_t block;
  uint64_t mask;
  double weight;
  size_t loop;
  run *runs;
  size_t nruns, rcap;
};

struct wgp_trace {
  nodelist top;
  unsigned flags;
  size_t nblocks;
  double *exec, *lane_exec;
  unsigned char *fallback; /* per block: the WGP_TRACE_* flags its branch set */
  size_t size;
};

typedef struct scratch {
  uint64_t *mask;
  double *w;
  size_t *touched;
  size_t ntouched;
} scratch;

/* Compiled expressions by the expression's address (open addressing): CAP
 * slots, N used. */
typedef struct xtable {
  const wgp_expr **key;
  wgp_xprog **val;
  size_t cap, n;
} xtable;

struct wgp_tracer {
  const wgp_kernel *k;
  wgp_trace *spare; /* a trace given back by wgp_tracer_recycle, its storage reused */
  const wgp_trace_launch *L;
  size_t nblocks, nloops;
  size_t *order, *rpo;      /* blocks in reverse post-order; position of each */
  long *block_loop, *loop_parent;
  size_t *loop_header;
  unsigned *loop_depth, max_depth;
  size_t *rv_off, nrv;
  uint64_t *trip_hint;
  bool *has_trip_hint;
  double *taken_hint;
  bool *has_taken_hint;
  wgp_trace_visit visit;
  void *visit_user;
  scratch *arrive, *exits; /* per depth */
  char *scratch_mem;        /* their arrays, in one block */
  /* state of the trace being made */
  uint64_t group[3];
  uint64_t extent[3]; /* this group's size: smaller than local for the last group of a non-uniform launch */
  unsigned nlanes;
  int64_t lid[WGP_TRACE_MAX_WARP][3];
  uint64_t valid;
  int64_t *iter;     /* per loop */
  int64_t *rv;       /* [lane * nrv + off] */
  uint8_t *rv_known;
  int64_t *forced;   /* per loop: iterations used when an exit cannot be evaluated */
  uint8_t *forcing;  /* per loop: it runs iteration by iteration for its forced count (no count known) */
  uint8_t *exit_reach; /* per block: an exit of its own loop is reachable from it without the back-edge */
  int64_t *rv_delta; /* [lane * nrv + off]: per-iteration step of an affine recurrence */
  uint8_t *rv_affine; /* per loop: its recurrences follow rv_delta while it runs */
  unsigned cur_lane;
  wgp_trace *tr;
  double mult;
  double stretch; /* wgp_tracer_stretch */
  bool abort;
  /* expressions compiled for this launch, by address */
  xtable xt;
  int64_t *stepv; /* step_recurrences: [recurrence][lane] */
  int64_t coord[WGP_XCOORDS * WGP_TRACE_MAX_WARP]; /* lid.x, lid.y, lid.z, lane of each lane */
  int64_t coord_lo[WGP_XCOORDS], coord_hi[WGP_XCOORDS]; /* over the warp's lanes */
  wgp_xsource xsrc;
  uint64_t epoch; /* of xsrc: one per traced warp */
  uint64_t gepoch, epoch_group[3], epoch_extent[3]; /* of xsrc: one per group, and its group */
  long *quiet_exit; /* per loop: the one block its lanes leave to when it may be skipped, else -1 (NULL: none) */
  bool warm; /* a sampled middle iteration is preceded by its predecessor, visited with weight 0 */
  unsigned edge; /* iterations executed at each end of a long stretch */
  unsigned explicit_cap; /* iterations of one loop entry without a known count */
  uint8_t *cond_data;    /* per block: 0 not yet known, 1 its condition uses no loaded data, 2 it does */
  /* Branches whose condition reads only local ids, lane numbers, launch
   * constants and arguments go the same way in warp W of every group of
   * one extent: per block (0 not yet known, 1 such, 2 not) and, for such a
   * block, per warp of the group its lanes known and taken, filled at
   * LID_EPOCH (a new one with every change of the group's extent). */
  uint8_t *cond_lid;
  struct lid_branch **lid_memo;
  size_t lid_warps;
  uint64_t lid_epoch, lid_ext[3];
  size_t cur_warp;
  uint64_t cur_full;
  /* wgp_tracer_track_loads: per access whether its loaded value reaches a
   * global address (NULL: not tracking), the value each lane loaded last
   * ([access * WGP_TRACE_MAX_WARP + lane]) and the lanes that loaded one,
   * and the expressions compiled with loads as lane values */
  uint8_t *feeds;
  int64_t *load_val;
  uint64_t *load_ok;
  size_t naccesses;
  bool data_mode; /* while compiling into dt: loads are lane values */
  xtable dt;      /* the expressions compiled so */
};

typedef struct lid_branch {
  uint64_t stamp, known, taken;
} lid_branch;

/* ---- small helpers ---------------------------------------------------- */

static unsigned popcount64(uint64_t x) {
  unsigned n = 0;
  for (; x; x &= x - 1)
    n++;
  return n;
}

static bool push_node(nodelist *l, const wgp_tnode *n) {
  if (l->n == l->cap) {
    size_t cap = l->cap ? 2 * l->cap : 8;
    wgp_tnode *v = realloc(l->v, cap * sizeof *v);
    if (!v)
      return false;
    l->v = v;
    l->cap = cap;
  }
  l->v[l->n++] = *n;
  return true;
}

static void free_list(nodelist *l);

static void free_node(wgp_tnode *n) {
  if (n->kind != WGP_TNODE_LOOP)
    return;
  for (size_t r = 0; r < n->nruns; r++)
    free_list(&n->runs[r].body);
  free(n->runs);
}

static void free_list(nodelist *l) {
  for (size_t i = 0; i < l->n; i++)
    free_node(&l->v[i]);
  free(l->v);
  l->v = NULL;
  l->n = l->cap = 0;
}

static bool list_equal(const nodelist *a, const nodelist *b);

static bool node_equal(const wgp_tnode *a, const wgp_tnode *b) {
  if (a->kind != b->kind)
    return false;
  if (a->kind == WGP_TNODE_BLOCK)
    return a->block == b->block && a->mask == b->mask && a->weight == b->weight;
  if (a->loop != b->loop || a->nruns != b->nruns)
    return false;
  for (size_t r = 0; r < a->nruns; r++) {
    const run *x = &a->runs[r], *y = &b->runs[r];
    if (x->count != y->count || x->first != y->first || x->sampled != y->sampled ||
        !list_equal(&x->body, &y->body))
      return false;
  }
  return true;
}

static bool list_equal(const nodelist *a, const nodelist *b) {
  if (a->n != b->n)
    return false;
  for (size_t i = 0; i < a->n; i++)
    if (!node_equal(&a->v[i], &b->v[i]))
      return false;
  return true;
}

/* Same shape apart from the iteration numbers recorded in runs: two
 * iterations of a loop whose inner loops run the same way. */
static bool list_same_work(const nodelist *a, const nodelist *b);

static bool node_same_work(const wgp_tnode *a, const wgp_tnode *b) {
  if (a->kind != b->kind)
    return false;
  if (a->kind == WGP_TNODE_BLOCK)
    return node_equal(a, b);
  if (a->loop != b->loop || a->nruns != b->nruns)
    return false;
  for (size_t r = 0; r < a->nruns; r++) {
    const run *x = &a->runs[r], *y = &b->runs[r];
    if (x->count != y->count || x->sampled != y->sampled || !list_same_work(&x->body, &y->body))
      return false;
  }
  return true;
}

static bool list_same_work(const nodelist *a, const nodelist *b) {
  if (a->n != b->n)
    return false;
  for (size_t i = 0; i < a->n; i++)
    if (!node_same_work(&a->v[i], &b->v[i]))
      return false;
  return true;
}

static void scratch_add(scratch *s, size_t b, uint64_t mask, double w) {
  if (!mask)
    return;
  if (!s->mask[b])
    s->touched[s->ntouched++] = b;
  if (s->mask[b]) {
    w += s->w[b];
    if (w > 1.0)
      w = 1.0;
  }
  s->mask[b] |= mask;
  s->w[b] = w;
}

static void scratch_reset(scratch *s) {
  for (size_t i = 0; i < s->ntouched; i++) {
    s->mask[s->touched[i]] = 0;
    s->w[s->touched[i]] = 0;
  }
  s->ntouched = 0;
}

/* ---- symbols ---------------------------------------------------------- */

static wgp_eval_status lookup(void *user, const wgp_sym *sym, int64_t *value, char *reason, size_t rsize) {
  wgp_tracer *t = user;
  const wgp_trace_launch *L = t->L;
  unsigned lane = t->cur_lane, d = sym->dim < 3 ? sym->dim : 0;
  switch (sym->kind) {
  case WGP_SYM_LID: *value = t->lid[lane][d]; return WGP_EVAL_OK;
  case WGP_SYM_GRP: *value = (int64_t)t->group[d]; return WGP_EVAL_OK;
  case WGP_SYM_LSZ: *value = (int64_t)t->extent[d]; return WGP_EVAL_OK;
  case WGP_SYM_NGRP: *value = (int64_t)((L->global[d] + L->local[d] - 1) / L->local[d]); return WGP_EVAL_OK;
  case WGP_SYM_GID:
    *value = (int64_t)(t->group[d] * L->local[d] + L->offset[d]) + t->lid[lane][d];
    return WGP_EVAL_OK;
  case WGP_SYM_GSZ: *value = (int64_t)L->global[d]; return WGP_EVAL_OK;
  case WGP_SYM_GOFF: *value = (int64_t)L->offset[d]; return WGP_EVAL_OK;
  case WGP_SYM_WDIM: *value = L->dims; return WGP_EVAL_OK;
  case WGP_SYM_LANEID: *value = lane; return WGP_EVAL_OK;
  case WGP_SYM_WARPSIZE: *value = L->warp_size; return WGP_EVAL_OK;
  case WGP_SYM_ITER:
    if (sym->loop >= t->nloops || t->iter[sym->loop] < 0) {
      snprintf(reason, rsize, "it.L%u used outside its loop", sym->loop);
      return WGP_EVAL_UNKNOWN;
    }
    *value = t->iter[sym->loop];
    return WGP_EVAL_OK;
  case WGP_SYM_RECUR: {
    if (sym->loop >= t->nloops || sym->index >= wgp_loop_num_recurrences(wgp_kernel_loop(t->k, sym->loop))) {
      snprintf(reason, rsize, "rv.L%u.%u is not a recurrence of the kernel", sym->loop, sym->index);
      return WGP_EVAL_UNKNOWN;
    }
    size_t at = (size_t)lane * t->nrv + t->rv_off[sym->loop] + sym->index;
    if (!t->rv_known[at]) {
      snprintf(reason, rsize, "rv.L%u.%u has no known value here", sym->loop, sym->index);
      return WGP_EVAL_UNKNOWN;
    }
    *value = t->rv[at];
    return WGP_EVAL_OK;
  }
  case WGP_SYM_ARG:
  case WGP_SYM_LOAD:
    if (L->lookup)
      return L->lookup(L->user, sym, value, reason, rsize);
    snprintf(reason, rsize, "no value for this symbol");
    return sym->kind == WGP_SYM_ARG ? WGP_EVAL_ERROR : WGP_EVAL_UNKNOWN;
  default:
    snprintf(reason, rsize, "unknown value %s", sym->name ? sym->name : "");
    return WGP_EVAL_UNKNOWN;
  }
}

wgp_eval_status wgp_tracer_eval(wgp_tracer *t, const wgp_expr *e, unsigned lane, wgp_eval_result *out) {
  wgp_eval_env env = {lookup, t, 0};
  unsigned saved = t->cur_lane;
  t->cur_lane = lane < WGP_TRACE_MAX_WARP ? lane : 0;
  wgp_eval_status s = wgp_expr_eval(e, &env, out);
  t->cur_lane = saved;
  return s;
}

/* ---- evaluation for a whole warp (expr_warp_internal.h) ----------------- */

static wgp_xclass classify(void *user, const wgp_sym *sym, int64_t *value, wgp_eval_status *st) {
  wgp_tracer *t = user;
  const wgp_trace_launch *L = t->L;
  unsigned d = sym->dim < 3 ? sym->dim : 0;
  char reason[WGP_EVAL_REASON_SIZE];
  *st = WGP_EVAL_OK;
  switch (sym->kind) {
  case WGP_SYM_LID:
  case WGP_SYM_GID:
  case WGP_SYM_LANEID:
    return WGP_X_WARP_LANE; /* fixed while one warp is traced */
  case WGP_SYM_GRP:
  case WGP_SYM_LSZ: /* the group's extent: smaller for a short last group */
    return WGP_X_WARP_UNIFORM;
  case WGP_SYM_NGRP: *value = (int64_t)((L->global[d] + L->local[d] - 1) / L->local[d]); return WGP_X_CONST;
  case WGP_SYM_GSZ: *value = (int64_t)L->global[d]; return WGP_X_CONST;
  case WGP_SYM_GOFF: *value = (int64_t)L->offset[d]; return WGP_X_CONST;
  case WGP_SYM_WDIM: *value = L->dims; return WGP_X_CONST;
  case WGP_SYM_WARPSIZE: *value = L->warp_size; return WGP_X_CONST;
  case WGP_SYM_ITER:
    if (sym->loop >= t->nloops)
      break;
    return WGP_X_UNIFORM;
  case WGP_SYM_RECUR:
    if (sym->loop >= t->nloops || sym->index >= wgp_loop_num_recurrences(wgp_kernel_loop(t->k, sym->loop)))
      break;
    return WGP_X_LANE;
  case WGP_SYM_LOAD:
    if (t->data_mode)
      return WGP_X_LANE; /* fill: the value each lane loaded */
    /* fall through */
  case WGP_SYM_ARG:
    /* the launch's lookup is a function of the symbol alone */
    if (L->lookup) {
      *st = L->lookup(L->user, sym, value, reason, sizeof reason);
      return WGP_X_CONST;
    }
    *st = sym->kind == WGP_SYM_ARG ? WGP_EVAL_ERROR : WGP_EVAL_UNKNOWN;
    return WGP_X_CONST;
  default:
    break;
  }
  *st = WGP_EVAL_UNKNOWN;
  return WGP_X_CONST;
}

#define EACH_LANE(l, m) for (uint64_t m_ = (m), l; m_ && ((l = (uint64_t)__builtin_ctzll(m_)), 1); m_ &= m_ - 1)

static void fill(void *user, const wgp_sym *sym, uint64_t mask, int64_t *v, uint64_t *ok, uint64_t *err) {
  wgp_tracer *t = user;
  const wgp_trace_launch *L = t->L;
  unsigned d = sym->dim < 3 ? sym->dim : 0;
  *ok = ~0ull;
  *err = 0;
  switch (sym->kind) {
  case WGP_SYM_LID: EACH_LANE(l, mask) v[l] = t->lid[l][d]; return;
  case WGP_SYM_GID: {
    int64_t base = (int64_t)(t->group[d] * L->local[d] + L->offset[d]);
    EACH_LANE(l, mask) v[l] = base + t->lid[l][d];
    return;
  }
  case WGP_SYM_LANEID: EACH_LANE(l, mask) v[l] = (int64_t)l; return;
  case WGP_SYM_GRP: v[0] = (int64_t)t->group[d]; return;
  case WGP_SYM_LSZ: v[0] = (int64_t)t->extent[d]; return;
  case WGP_SYM_ITER:
    v[0] = t->iter[sym->loop];
    if (v[0] < 0)
      *ok = 0;
    return;
  case WGP_SYM_RECUR: {
    size_t off = t->rv_off[sym->loop] + sym->index;
    uint64_t k = 0;
    EACH_LANE(l, mask) {
      size_t at = (size_t)l * t->nrv + off;
      v[l] = t->rv[at];
      if (t->rv_known[at])
        k |= 1ull << l;
    }
    *ok = k;
    return;
  }
  case WGP_SYM_LOAD: /* data mode (classify) */
    if (!t->load_ok || sym->index >= t->naccesses) {
      *ok = 0;
      return;
    }
    EACH_LANE(l, mask) v[l] = t->load_val[(size_t)sym->index * WGP_TRACE_MAX_WARP + l];
    *ok = t->load_ok[sym->index] & mask;
    return;
  default: /* classify() made every other symbol a constant */
    *ok = 0;
    return;
  }
}

/* Work-item ids are an offset plus a lane coordinate (lid.d, or the lane). */
static bool affine(void *user, const wgp_sym *sym, int64_t *base, unsigned *coord) {
  const wgp_tracer *t = user;
  unsigned d = sym->dim < 3 ? sym->dim : 0;
  switch (sym->kind) {
  case WGP_SYM_LID: *base = 0, *coord = d; return true;
  case WGP_SYM_GID: *base = (int64_t)(t->group[d] * t->L->local[d] + t->L->offset[d]), *coord = d; return true;
  case WGP_SYM_LANEID: *base = 0, *coord = 3; return true;
  default: return false;
  }
}

static size_t xslot(const wgp_expr **key, size_t cap, const wgp_expr *e) {
  size_t h = (size_t)(((uintptr_t)e >> 3) * 0x9e3779b97f4a7c15ull) & (cap - 1);
  while (key[h] && key[h] != e)
    h = (h + 1) & (cap - 1);
  return h;
}

/* E compiled for this launch, NULL when out of memory: in X, with loads as
 * lane values when DATA. */
static wgp_xprog *program_in(wgp_tracer *t, xtable *x, bool data, const wgp_expr *e) {
  if (x->cap) {
    size_t h = xslot(x->key, x->cap, e);
    if (x->key[h])
      return x->val[h];
  }
  if (2 * (x->n + 1) > x->cap) {
    size_t nc = x->cap ? 2 * x->cap : 64;
    const wgp_expr **k = calloc(nc, sizeof *k);
    wgp_xprog **v = calloc(nc, sizeof *v);
    if (!k || !v) {
      free(k), free(v);
      return NULL;
    }
    for (size_t i = 0; i < x->cap; i++)
      if (x->key[i]) {
        size_t h = xslot(k, nc, x->key[i]);
        k[h] = x->key[i];
        v[h] = x->val[i];
      }
    free(x->key), free(x->val);
    x->key = k, x->val = v, x->cap = nc;
  }
  wgp_xprog *p;
  t->data_mode = data;
  wgp_status st = wgp_xprog_compile(e, data ? WGP_XPROG_FLOAT_AS_DATA : 0, classify, t, &p);
  t->data_mode = false;
  if (st != WGP_OK)
    return NULL;
  size_t h = xslot(x->key, x->cap, e);
  x->key[h] = e;
  x->val[h] = p;
  x->n++;
  return p;
}

static wgp_xprog *program(wgp_tracer *t, const wgp_expr *e) { return program_in(t, &t->xt, false, e); }

static void xtable_free(xtable *x) {
  for (size_t i = 0; i < x->cap; i++)
    wgp_xprog_free(x->val[i]);
  free(x->key), free(x->val);
}

uint64_t wgp_tracer_eval_warp(wgp_tracer *t, const wgp_expr *e, uint64_t mask, int64_t *value) {
  if (t->nlanes < 64)
    mask &= (1ull << t->nlanes) - 1;
  wgp_xprog *p = program(t, e);
  if (p)
    return wgp_xprog_eval(p, &t->xsrc, mask, value, NULL);
  uint64_t known = 0; /* out of memory: lane by lane */
  EACH_LANE(l, mask) {
    wgp_eval_result r;
    if (wgp_tracer_eval(t, e, (unsigned)l, &r) == WGP_EVAL_OK) {
      value[l] = r.value;
      known |= 1ull << l;
    }
  }
  return known;
}

uint64_t wgp_tracer_eval_warp_data(wgp_tracer *t, const wgp_expr *e, uint64_t mask, int64_t *value) {
  if (!t->feeds)
    return wgp_tracer_eval_warp(t, e, mask, value);
  if (t->nlanes < 64)
    mask &= (1ull << t->nlanes) - 1;
  wgp_xprog *p = program_in(t, &t->dt, true, e);
  return p ? wgp_xprog_eval(p, &t->xsrc, mask, value, NULL) : 0;
}

bool wgp_tracer_tracks_loads(const wgp_tracer *t) { return t->feeds != NULL; }

double wgp_launch_items(const wgp_trace_launch *L) {
  return (double)L->global[0] * (double)L->global[1] * (double)L->global[2];
}

/* Marks in FEEDS the loads E reads; true when it marked one not marked before. */
static bool mark_loads(const wgp_expr *e, uint8_t *feeds, size_t n) {
  if (!e)
    return false;
  bool more = false;
  if (wgp_expr_get_op(e) == WGP_OP_LOAD) {
    int64_t id = wgp_expr_int(e);
    if (id >= 0 && (uint64_t)id < n && !feeds[id])
      feeds[id] = 1, more = true;
    return more;
  }
  if (wgp_expr_get_op(e) == WGP_OP_SYM) {
    const wgp_sym *s = wgp_expr_symbol(e);
    if (s->kind == WGP_SYM_LOAD && s->index < n && !feeds[s->index])
      feeds[s->index] = 1, more = true;
    return more;
  }
  for (size_t i = 0; i < wgp_expr_num_operands(e); i++)
    more = mark_loads(wgp_expr_operand(e, i), feeds, n) || more;
  return more;
}

bool wgp_tracer_track_loads(wgp_tracer *t) {
  size_t n = wgp_kernel_num_accesses(t->k);
  uint8_t *feeds = calloc(n ? n : 1, 1);
  if (!feeds)
    return false;
  bool any = false;
  for (size_t i = 0; i < n; i++) {
    const wgp_access *a = wgp_kernel_access(t->k, i);
    wgp_space sp = wgp_access_space(a);
    if (wgp_space_is_global(sp))
      any = mark_loads(wgp_access_offset(a), feeds, n) || any;
  }
  /* the loads behind those loads' addresses too */
  for (bool more = any; more;) {
    more = false;
    for (size_t i = 0; i < n; i++)
      if (feeds[i] == 1) {
        feeds[i] = 2;
        more = mark_loads(wgp_access_offset(wgp_kernel_access(t->k, i)), feeds, n) || more;
      }
  }
  if (!any) {
    free(feeds);
    return true; /* nothing to track */
  }
  t->load_val = calloc(n * WGP_TRACE_MAX_WARP, sizeof *t->load_val);
  t->load_ok = calloc(n, sizeof *t->load_ok);
  if (!t->load_val || !t->load_ok) {
    free(feeds), free(t->load_val), free(t->load_ok);
    t->load_val = NULL, t->load_ok = NULL;
    return false;
  }
  t->feeds = feeds;
  t->naccesses = n;
  return true;
}

/* The loads of block B that feed addresses, in order: each lane's value is
 * a hash of where it read (its buffer and offset), the same wherever and
 * whenever that place is read; offsets that depend on loaded values use the
 * values of the loads before. */
static void note_loads(wgp_tracer *t, size_t b, uint64_t mask) {
  const wgp_block *blk = wgp_kernel_block(t->k, b);
  for (size_t i = 0; i < wgp_block_num_accesses(blk); i++) {
    size_t id = wgp_block_access(blk, i);
    if (id >= t->naccesses || !t->feeds[id])
      continue;
    const wgp_access *a = wgp_kernel_access(t->k, id);
    const wgp_expr *off = wgp_access_offset(a);
    int64_t v[WGP_TRACE_MAX_WARP];
    uint64_t ok = off ? wgp_tracer_eval_warp_data(t, off, mask, v) : 0;
    uint64_t key = (uint64_t)wgp_access_base_kind(a) * 0x100000001b3ull + (uint64_t)(wgp_access_base_arg(a) + 1);
    for (const char *c = wgp_access_base_name(a); c && *c; c++)
      key = (key ^ (unsigned char)*c) * 0x100000001b3ull;
    EACH_LANE(l, ok) {
      uint64_t z = wgp_mix64(key * 0x9e3779b97f4a7c15ull + (uint64_t)v[l]);
      t->load_val[id * WGP_TRACE_MAX_WARP + l] = (int64_t)(z & 0x7fffffff);
    }
    t->load_ok[id] = (t->load_ok[id] & ~mask) | ok;
  }
}

_Static_assert(WGP_TRACE_FORM_TERMS == 1 + WGP_XCOORDS, "a tracer form is an offset and a multiple per coordinate");
_Static_assert(WGP_TRACE_MAX_WARP == WGP_XLANES, "coordinates are laid out by WGP_XLANES");

bool wgp_tracer_eval_warp_form(wgp_tracer *t, const wgp_expr *e, uint64_t mask, int64_t *value, uint64_t *known,
                               int64_t form[WGP_TRACE_FORM_TERMS]) {
  if (t->nlanes < 64)
    mask &= (1ull << t->nlanes) - 1;
  wgp_xprog *p = program(t, e);
  if (p)
    return wgp_xprog_eval_form(p, &t->xsrc, mask, value, known, form);
  *known = wgp_tracer_eval_warp(t, e, mask, value);
  return false;
}

void wgp_tracer_form_values(const wgp_tracer *t, const int64_t form[WGP_TRACE_FORM_TERMS], uint64_t mask,
                            int64_t *value) {
  wgp_xform_values(form, t->coord, mask, value);
}

bool wgp_tracer_form_span(const wgp_tracer *t, const int64_t form[WGP_TRACE_FORM_TERMS], int64_t *lo, int64_t *hi) {
  __int128 a = form[0], b = form[0];
  for (unsigned k = 0; k < WGP_XCOORDS; k++) {
    __int128 x = (__int128)form[1 + k] * t->coord_lo[k], y = (__int128)form[1 + k] * t->coord_hi[k];
    a += x < y ? x : y;
    b += x < y ? y : x;
  }
  if (a < INT64_MIN || b > INT64_MAX)
    return false;
  *lo = (int64_t)a;
  *hi = (int64_t)b;
  return true;
}

uint64_t wgp_tracer_warp_epoch(const wgp_tracer *t) { return t->epoch; }

/* ---- construction ----------------------------------------------------- */

static bool compute_rpo(wgp_tracer *t) {
  /* Iterative DFS ignoring back-edges: post-order, then reversed. */
  size_t n = t->nblocks, *stack = malloc(n * sizeof *stack), *next = calloc(n, sizeof *next), np = 0;
  uint8_t *seen = calloc(n, 1);
  size_t *post = malloc(n * sizeof *post);
  if (!stack || !next || !seen || !post) {
    free(stack), free(next), free(seen), free(post);
    return false;
  }
  size_t sp = 0;
  stack[sp++] = 0;
  seen[0] = 1;
  while (sp) {
    size_t b = stack[sp - 1];
    const wgp_block *blk = wgp_kernel_block(t->k, b);
    if (next[b] < wgp_block_num_succs(blk)) {
      size_t s = wgp_block_succ(blk, next[b]++);
      if (!seen[s] && !wgp_block_is_back_edge(blk, s)) {
        seen[s] = 1;
        stack[sp++] = s;
      }
    } else {
      post[np++] = b;
      sp--;
    }
  }
  /* Unreachable blocks go last, in id order. */
  size_t k = 0;
  for (size_t i = np; i-- > 0;)
    t->order[k++] = post[i];
  for (size_t b = 0; b < n; b++)
    if (!seen[b])
      t->order[k++] = b;
  for (size_t i = 0; i < n; i++)
    t->rpo[t->order[i]] = i;
  free(stack), free(next), free(seen), free(post);
  return true;
}

static bool in_region(const wgp_tracer *t, size_t b, long region);

wgp_status wgp_tracer_new(const wgp_kernel *k, const wgp_trace_launch *L, wgp_tracer **out, wgp_diag *diag) {
  *out = NULL;
  if (L->dims < 1 || L->dims > 3 || L->warp_size < 1 || L->warp_size > WGP_TRACE_MAX_WARP)
    return wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: launch: %u dimensions, warp size %u",
                        L->dims, L->warp_size);
  for (unsigned d = 0; d < 3; d++)
    if (L->local[d] == 0 || L->global[d] == 0)
      return wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: launch: zero size in dimension %u", d);
  wgp_tracer *t = calloc(1, sizeof *t);
  if (!t)
    return wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
  t->k = k;
  t->L = L;
  t->xsrc = (wgp_xsource){fill, t, affine, t->coord, t->coord_lo, t->coord_hi, 0, 0};
  t->edge = WGP_TRACE_EDGE_ITERATIONS;
  t->explicit_cap = WGP_TRACE_EXPLICIT_CAP;
  t->nblocks = wgp_kernel_num_blocks(k);
  t->nloops = wgp_kernel_num_loops(k);
  size_t nb = t->nblocks, nl = t->nloops ? t->nloops : 1;
  t->order = calloc(nb, sizeof *t->order);
  t->rpo = calloc(nb, sizeof *t->rpo);
  t->block_loop = calloc(nb, sizeof *t->block_loop);
  t->loop_parent = calloc(nl, sizeof *t->loop_parent);
  t->loop_header = calloc(nl, sizeof *t->loop_header);
  t->loop_depth = calloc(nl, sizeof *t->loop_depth);
  t->rv_off = calloc(nl, sizeof *t->rv_off);
  t->trip_hint = calloc(nl, sizeof *t->trip_hint);
  t->has_trip_hint = calloc(nl, sizeof *t->has_trip_hint);
  t->taken_hint = calloc(nb, sizeof *t->taken_hint);
  t->has_taken_hint = calloc(nb, sizeof *t->has_taken_hint);
  t->iter = calloc(nl, sizeof *t->iter);
  t->forced = calloc(nl, sizeof *t->forced);
  t->forcing = calloc(nl, 1);
  t->exit_reach = calloc(nb ? nb : 1, 1);
  t->rv_affine = calloc(nl, sizeof *t->rv_affine);
  t->cond_data = calloc(nb ? nb : 1, 1);
  t->cond_lid = calloc(nb ? nb : 1, 1);
  t->lid_memo = calloc(nb ? nb : 1, sizeof *t->lid_memo);
  {
    double items = (double)L->local[0] * (double)L->local[1] * (double)L->local[2];
    double warps = ceil(items / L->warp_size);
    t->lid_warps = warps <= 4096 ? (size_t)warps : 0; /* larger groups: not remembered */
  }
  bool ok = t->rv_affine && t->cond_data && t->cond_lid && t->lid_memo && t->order && t->rpo && t->block_loop && t->loop_parent && t->loop_header && t->loop_depth &&
            t->rv_off && t->trip_hint && t->has_trip_hint && t->taken_hint && t->has_taken_hint && t->iter &&
            t->forced && t->forcing && t->exit_reach;
  for (size_t b = 0; ok && b < nb; b++)
    t->block_loop[b] = wgp_block_loop(wgp_kernel_block(k, b));
  for (size_t l = 0; ok && l < t->nloops; l++) {
    const wgp_loop *lp = wgp_kernel_loop(k, l);
    t->loop_parent[l] = wgp_loop_parent(lp);
    t->loop_header[l] = wgp_loop_header(lp);
    t->loop_depth[l] = wgp_loop_depth(lp);
    if (t->loop_depth[l] > t->max_depth)
      t->max_depth = t->loop_depth[l];
    t->rv_off[l] = t->nrv;
    t->nrv += wgp_loop_num_recurrences(lp);
  }
  size_t nrv = t->nrv ? t->nrv : 1;
  t->rv = calloc((size_t)WGP_TRACE_MAX_WARP * nrv, sizeof *t->rv);
  t->rv_known = calloc((size_t)WGP_TRACE_MAX_WARP * nrv, 1);
  t->rv_delta = calloc((size_t)WGP_TRACE_MAX_WARP * nrv, sizeof *t->rv_delta);
  t->stepv = malloc((size_t)WGP_TRACE_MAX_WARP * (nrv < 64 ? nrv : 64) * sizeof *t->stepv);
  t->arrive = calloc(t->max_depth + 2, sizeof *t->arrive);
  t->exits = calloc(t->max_depth + 2, sizeof *t->exits);
  ok = ok && t->rv && t->rv_known && t->rv_delta && t->stepv && t->arrive && t->exits;
  size_t per = nb * (sizeof(uint64_t) + sizeof(double) + sizeof(size_t)); /* a scratch's arrays */
  t->scratch_mem = ok ? calloc(2 * (t->max_depth + 2), per ? per : 1) : NULL;
  ok = ok && t->scratch_mem;
  for (unsigned d = 0; ok && d < t->max_depth + 2; d++) {
    scratch *s[2] = {&t->arrive[d], &t->exits[d]};
    for (int j = 0; j < 2; j++) {
      char *m = t->scratch_mem + (2 * d + j) * per;
      s[j]->mask = (uint64_t *)m;
      s[j]->w = (double *)(s[j]->mask + nb);
      s[j]->touched = (size_t *)(s[j]->w + nb);
    }
  }
  if (!ok || !compute_rpo(t)) {
    wgp_tracer_free(t);
    return wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
  }
  /* per block of a loop's own body: an exit of that loop is reachable
   * without its back-edge (successors come later in reverse post-order,
   * but for the back-edges) */
  for (size_t i = nb; i-- > 0;) {
    size_t b = t->order[i];
    long l = t->block_loop[b];
    if (l < 0)
      continue;
    const wgp_block *blk = wgp_kernel_block(k, b);
    for (size_t j = 0; j < wgp_block_num_succs(blk) && !t->exit_reach[b]; j++) {
      size_t s2 = wgp_block_succ(blk, j);
      if (s2 == t->loop_header[l] || wgp_block_is_back_edge(blk, s2))
        continue;
      t->exit_reach[b] = !in_region(t, s2, l) || t->block_loop[s2] != l || t->exit_reach[s2];
    }
  }
  *out = t;
  return WGP_OK;
}

void wgp_tracer_free(wgp_tracer *t) {
  if (!t)
    return;
  free(t->scratch_mem), free(t->arrive), free(t->exits);
  free(t->order), free(t->rpo), free(t->block_loop), free(t->loop_parent), free(t->loop_header);
  free(t->loop_depth), free(t->rv_off), free(t->trip_hint), free(t->has_trip_hint);
  free(t->taken_hint), free(t->has_taken_hint), free(t->iter), free(t->forced), free(t->forcing), free(t->exit_reach);
  free(t->rv), free(t->rv_known), free(t->rv_delta), free(t->rv_affine), free(t->cond_data);
  for (size_t b = 0; t->lid_memo && b < t->nblocks; b++)
    free(t->lid_memo[b]);
  free(t->cond_lid), free(t->lid_memo);
  xtable_free(&t->xt);
  xtable_free(&t->dt);
  free(t->stepv), free(t->quiet_exit);
  free(t->feeds), free(t->load_val), free(t->load_ok);
  wgp_trace_free(t->spare);
  free(t);
}

void wgp_tracer_set_trip_hint(wgp_tracer *t, size_t loop, uint64_t trips) {
  if (loop < t->nloops) {
    t->trip_hint[loop] = trips;
    t->has_trip_hint[loop] = true;
  }
}

void wgp_tracer_set_taken_hint(wgp_tracer *t, size_t block, double f) {
  if (block < t->nblocks && f >= 0.0 && f <= 1.0) {
    t->taken_hint[block] = f;
    t->has_taken_hint[block] = true;
  }
}

void wgp_tracer_set_edge_iterations(wgp_tracer *t, unsigned n) { t->edge = n ? n : 1; }

bool wgp_loop_has_real_bound(const wgp_loop *lp) {
  const wgp_expr *mx = wgp_loop_max_trip_count(lp);
  return mx && !(wgp_expr_get_op(mx) == WGP_OP_INT && wgp_expr_int(mx) >= WGP_TRACE_TYPE_RANGE_BOUND);
}

void wgp_tracer_set_explicit_cap(wgp_tracer *t, unsigned n) { t->explicit_cap = n ? n : 1; }

void wgp_tracer_set_visitor(wgp_tracer *t, wgp_trace_visit visit, void *user) {
  t->visit = visit;
  t->visit_user = user;
}

static bool in_region(const wgp_tracer *t, size_t b, long region);

/* Whether loop L is L0 or nested in it. */
static bool loop_within(const wgp_tracer *t, long l, long l0) {
  for (; l >= 0; l = t->loop_parent[l])
    if (l == l0)
      return true;
  return false;
}

/* Whether E reads an iteration count or a recurrence of L0 or of a loop
 * nested in it. */
static bool reads_loop(const wgp_tracer *t, const wgp_expr *e, long l0) {
  if (!e)
    return false;
  if (wgp_expr_get_op(e) == WGP_OP_SYM) {
    const wgp_sym *sym = wgp_expr_symbol(e);
    return (sym->kind == WGP_SYM_ITER || sym->kind == WGP_SYM_RECUR) && sym->loop < t->nloops &&
           loop_within(t, (long)sym->loop, l0);
  }
  for (size_t i = 0; i < wgp_expr_num_operands(e); i++)
    if (reads_loop(t, wgp_expr_operand(e, i), l0))
      return true;
  return false;
}

/* The block every lane that enters loop L0 leaves to, when the rest of the
 * kernel cannot tell whether the loop ran: none of its blocks (nested
 * loops' included) holds an access in SPACES, its exits all lead to one
 * block, and nothing outside it (branches, addresses, other loops' counts,
 * exits and recurrences) reads its iteration counts or recurrences, or
 * those of the loops inside it; else -1. */
static long quiet_exit(const wgp_tracer *t, long l0, unsigned spaces) {
  const wgp_kernel *k = t->k;
  long target = -1;
  for (size_t b = 0; b < t->nblocks; b++) {
    const wgp_block *blk = wgp_kernel_block(k, b);
    bool inside = in_region(t, b, l0);
    if (inside) {
      for (size_t i = 0; i < wgp_block_num_accesses(blk); i++)
        if (spaces >> wgp_access_space(wgp_kernel_access(k, wgp_block_access(blk, i))) & 1)
          return -1;
      for (size_t i = 0; i < wgp_block_num_succs(blk); i++) {
        size_t sb = wgp_block_succ(blk, i);
        if (in_region(t, sb, l0))
          continue;
        if (target >= 0 && (size_t)target != sb)
          return -1;
        target = (long)sb;
      }
      continue;
    }
    const wgp_branch *br = wgp_block_branch(blk);
    if (br && reads_loop(t, wgp_branch_cond(br), l0))
      return -1;
    for (size_t i = 0; i < wgp_block_num_accesses(blk); i++)
      if (reads_loop(t, wgp_access_offset(wgp_kernel_access(k, wgp_block_access(blk, i))), l0))
        return -1;
  }
  for (size_t l = 0; l < t->nloops; l++) {
    if (loop_within(t, (long)l, l0))
      continue;
    const wgp_loop *lp = wgp_kernel_loop(k, l);
    if (reads_loop(t, wgp_loop_trip_count(lp), l0) || reads_loop(t, wgp_loop_max_trip_count(lp), l0) ||
        reads_loop(t, wgp_loop_backedge_count(lp), l0))
      return -1;
    for (size_t i = 0; i < wgp_loop_num_recurrences(lp); i++) {
      const wgp_expr *init, *next;
      wgp_loop_recurrence(lp, i, &init, &next);
      if (reads_loop(t, init, l0) || reads_loop(t, next, l0))
        return -1;
    }
    for (size_t i = 0; i < wgp_loop_num_exits(lp); i++) {
      size_t eb;
      if (reads_loop(t, wgp_loop_exit(lp, i, &eb), l0))
        return -1;
    }
  }
  return target;
}

void wgp_tracer_warm_samples(wgp_tracer *t, bool on) { t->warm = on; }

double wgp_tracer_stretch(const wgp_tracer *t) { return t->stretch; }

bool wgp_tracer_skip_quiet_loops(wgp_tracer *t, unsigned spaces) {
  free(t->quiet_exit);
  t->quiet_exit = NULL;
  if (!spaces || !t->nloops)
    return true;
  t->quiet_exit = malloc(t->nloops * sizeof *t->quiet_exit);
  if (!t->quiet_exit)
    return false;
  for (size_t l = 0; l < t->nloops; l++)
    t->quiet_exit[l] = quiet_exit(t, (long)l, spaces);
  return true;
}

static uint64_t group_items(const wgp_tracer *t) {
  return t->L->local[0] * t->L->local[1] * t->L->local[2];
}

size_t wgp_launch_warps_per_group(const wgp_trace_launch *L) {
  uint64_t items = L->local[0] * L->local[1] * L->local[2];
  return (size_t)((items + L->warp_size - 1) / L->warp_size);
}

size_t wgp_tracer_num_warps(const wgp_tracer *t) { return wgp_launch_warps_per_group(t->L); }

uint64_t wgp_tracer_full_mask(const wgp_tracer *t, size_t warp) {
  uint64_t first = (uint64_t)warp * t->L->warp_size, items = group_items(t);
  if (first >= items)
    return 0;
  uint64_t n = items - first < t->L->warp_size ? items - first : t->L->warp_size;
  return n >= 64 ? ~0ull : ((1ull << n) - 1);
}

/* ---- execution -------------------------------------------------------- */

static bool in_region(const wgp_tracer *t, size_t b, long region) {
  if (region < 0)
    return true;
  for (long l = t->block_loop[b]; l >= 0; l = t->loop_parent[l])
    if (l == region)
      return true;
  return false;
}

/* The loop directly inside REGION that holds B, or -1 when B is REGION's own. */
static long child_loop(const wgp_tracer *t, size_t b, long region) {
  long l = t->block_loop[b];
  if (l == region)
    return -1;
  while (l >= 0 && t->loop_parent[l] != region)
    l = t->loop_parent[l];
  return l;
}

static void emit_block(wgp_tracer *t, nodelist *out, size_t b, uint64_t mask, double w) {
  if (t->abort)
    return;
  if (t->tr->size >= MAX_NODES) {
    t->tr->flags |= WGP_TRACE_TRUNCATED;
    t->abort = true;
    return;
  }
  wgp_tnode n = {.kind = WGP_TNODE_BLOCK, .block = b, .mask = mask, .weight = w};
  if (!push_node(out, &n)) {
    t->abort = true;
    return;
  }
  t->tr->size++;
  t->tr->exec[b] += w * t->mult;
  t->tr->lane_exec[b] += w * t->mult * popcount64(mask);
  if (t->feeds)
    note_loads(t, b, mask);
  if (t->visit)
    t->visit(t->visit_user, b, mask, w, t->mult, t);
}

/* ---- trip counts of recurrence loops ------------------------------------ */

#define PROBE_MAX_RV 8

static void step_recurrences(wgp_tracer *t, long loop, uint64_t mask);

/* LOOP's exits at iteration K for lanes MASK, whose recurrences hold their
 * values for K: the lanes that leave in *OUT; false when one cannot be
 * evaluated. */
static bool exits_at(wgp_tracer *t, long loop, uint64_t mask, int64_t k, uint64_t *out) {
  const wgp_loop *lp = wgp_kernel_loop(t->k, (size_t)loop);
  t->iter[loop] = k;
  *out = 0;
  for (size_t i = 0; i < wgp_loop_num_exits(lp); i++) {
    size_t b;
    int64_t v[WGP_TRACE_MAX_WARP];
    uint64_t known = wgp_tracer_eval_warp(t, wgp_loop_exit(lp, i, &b), mask, v);
    if ((known & mask) != mask)
      return false;
    EACH_LANE(lane, mask) if (v[lane]) *out |= 1ull << lane;
  }
  return true;
}

/* LANE's recurrences of LOOP set to R0 + K * D; false on overflow. */
static bool set_line(wgp_tracer *t, long loop, unsigned lane, size_t n, const int64_t *r0, const int64_t *d,
                     int64_t k) {
  for (size_t i = 0; i < n; i++) {
    size_t at = (size_t)lane * t->nrv + t->rv_off[loop] + i;
    int64_t s;
    if (__builtin_mul_overflow(k, d[i], &s) || __builtin_add_overflow(r0[i], s, &t->rv[at]))
      return false;
    t->rv_known[at] = 1;
  }
  return true;
}

/* Whether one step of the recurrences of every lane of MASK from iteration
 * K of its line R0[lane] + K * D[lane] lands on the line again. */
static bool steps_on_line_lanes(wgp_tracer *t, long loop, uint64_t mask, size_t n,
                                const int64_t (*r0)[PROBE_MAX_RV], const int64_t (*d)[PROBE_MAX_RV], int64_t k) {
  EACH_LANE(lane, mask) if (!set_line(t, loop, (unsigned)lane, n, r0[lane], d[lane], k)) return false;
  t->iter[loop] = k;
  step_recurrences(t, loop, mask);
  EACH_LANE(lane, mask) for (size_t i = 0; i < n; i++) {
    size_t at = (size_t)lane * t->nrv + t->rv_off[loop] + i;
    int64_t s, want;
    if (!t->rv_known[at] || __builtin_mul_overflow(k + 1, d[lane][i], &s) ||
        __builtin_add_overflow(r0[lane][i], s, &want) || t->rv[at] != want)
      return false;
  }
  return true;
}

/* Whether every lane of MASK, on its line at iteration K, steps onto the
 * line again and its exit does not hold there (the samples probe_trips
 * checks). */
static bool stays_at_lanes(wgp_tracer *t, long loop, uint64_t mask, size_t n, const int64_t (*r0)[PROBE_MAX_RV],
                           const int64_t (*d)[PROBE_MAX_RV], int64_t k) {
  if (!steps_on_line_lanes(t, loop, mask, n, r0, d, k))
    return false;
  EACH_LANE(lane, mask) if (!set_line(t, loop, (unsigned)lane, n, r0[lane], d[lane], k)) return false;
  uint64_t out;
  return exits_at(t, loop, mask, k, &out) && !out;
}

/* Per-lane trip counts of a loop the model leaves to its recurrences
 * (trip_kind "recurrence", e.g. a grid-stride loop over an int index):
 * its exits are evaluated on the recurrences alone, without running the
 * body.  The first PROBE_STEPS iterations are stepped one by one; a lane
 * still inside whose recurrences moved by constant steps is then searched
 * for its exit along that line (doubling, then bisection) and the answer
 * checked: a step from the end and from sample points stays on the line,
 * and the exit holds at none of the samples before it.  A lane whose
 * line meets no exit before PROBE_LIMIT (or overflows) gets the explicit
 * cap, as the explicit path would give it, and sets *CAPPED.  Returns false,
 * with the recurrences as they were, when any of this fails (an exit on
 * loaded data or a non-affine recurrence running long): the loop is then
 * run iteration by iteration.  On success the recurrences are back at
 * their first values and t->rv_affine[loop] says whether skip_recurrences
 * may jump along the lines. */
static bool probe_trips(wgp_tracer *t, long loop, uint64_t mask, int64_t *trips, bool *capped) {
  const wgp_loop *lp = wgp_kernel_loop(t->k, (size_t)loop);
  size_t n = wgp_loop_num_recurrences(lp), ne = wgp_loop_num_exits(lp);
  if (!n || n > PROBE_MAX_RV || !ne || wgp_loop_num_exiting(lp) != ne)
    return false;
  /* every exit is tested once per iteration by every lane still inside */
  for (size_t i = 0; i < ne; i++) {
    size_t b;
    wgp_loop_exit(lp, i, &b);
    if (b != t->loop_header[loop] && !(wgp_loop_num_latches(lp) == 1 && b == wgp_loop_latch(lp, 0)))
      return false;
  }
  uint64_t live = t->nlanes < 64 ? mask & ((1ull << t->nlanes) - 1) : mask;
  int64_t r0[WGP_TRACE_MAX_WARP][PROBE_MAX_RV], d[WGP_TRACE_MAX_WARP][PROBE_MAX_RV];
  uint8_t k0[WGP_TRACE_MAX_WARP][PROBE_MAX_RV];
  bool line[WGP_TRACE_MAX_WARP];
  EACH_LANE(lane, live) {
    line[lane] = true;
    for (size_t i = 0; i < n; i++) {
      size_t at = (size_t)lane * t->nrv + t->rv_off[loop] + i;
      r0[lane][i] = t->rv[at];
      k0[lane][i] = t->rv_known[at];
      d[lane][i] = 0;
      if (!k0[lane][i])
        return false;
    }
  }
  bool ok = true, affine = true;
  uint64_t in = live;
  int64_t k = 0;
  for (; k < (int64_t)PROBE_STEPS && in && ok; k++) {
    uint64_t out;
    if (!(ok = exits_at(t, loop, in, k, &out)))
      break;
    EACH_LANE(lane, out & in) trips[lane] = k + 1;
    in &= ~out;
    if (!in)
      break;
    int64_t old[WGP_TRACE_MAX_WARP][PROBE_MAX_RV];
    EACH_LANE(lane, in) for (size_t i = 0; i < n; i++) old[lane][i] = t->rv[(size_t)lane * t->nrv + t->rv_off[loop] + i];
    t->iter[loop] = k;
    step_recurrences(t, loop, in);
    EACH_LANE(lane, in) for (size_t i = 0; i < n; i++) {
      size_t at = (size_t)lane * t->nrv + t->rv_off[loop] + i;
      int64_t delta;
      if (!t->rv_known[at]) {
        ok = false;
        continue;
      }
      if (__builtin_sub_overflow(t->rv[at], old[lane][i], &delta) || (k > 0 && delta != d[lane][i]))
        line[lane] = false;
      d[lane][i] = delta;
    }
  }
  /* Lanes still inside: along their lines.  Each lane's search is its own
   * (doubling from PROBE_STEPS, bisection, checks), but lanes at the same
   * point of it are evaluated together: the lanes of a grid-stride loop
   * share their searches but for a step at most, so a warp costs about
   * what one lane does. */
  EACH_LANE(lane, in) if (!line[lane]) ok = false;
  int64_t lo[WGP_TRACE_MAX_WARP], hi[WGP_TRACE_MAX_WARP];
  uint64_t pending = ok ? in : 0, endless = 0;
  EACH_LANE(lane, pending) lo[lane] = (int64_t)PROBE_STEPS - 1, hi[lane] = 2 * (int64_t)PROBE_STEPS;
  /* doubling: every pending lane is at the same HI */
  for (int64_t h = 2 * (int64_t)PROBE_STEPS; ok && pending; h *= 2) {
    uint64_t here = pending, out = 0;
    EACH_LANE(lane, here) {
      lo[lane] = h / 2 == PROBE_STEPS ? (int64_t)PROBE_STEPS - 1 : h / 2, hi[lane] = h;
      if (h > PROBE_LIMIT || !set_line(t, loop, (unsigned)lane, n, r0[lane], d[lane], h))
        endless |= 1ull << lane, here &= ~(1ull << lane); /* no exit along the line up to PROBE_LIMIT */
    }
    pending = here;
    if (!pending)
      break;
    if (!(ok = exits_at(t, loop, pending, h, &out)))
      break;
    pending &= ~out;
  }
  if (ok && endless) {
    /* as the explicit path would: the cap's iterations, the trace truncated;
     * the samples check that the line holds and the exit does not before */
    int64_t cap = (int64_t)t->explicit_cap;
    for (int s = 1; ok && cap > (int64_t)PROBE_STEPS && s <= 16; s++)
      ok = stays_at_lanes(t, loop, endless, n, r0, d, (int64_t)PROBE_STEPS + (cap - 1 - (int64_t)PROBE_STEPS) * s / 16);
    EACH_LANE(lane, endless) trips[lane] = cap;
    *capped = true;
  }
  /* bisection: the lanes with the same interval together */
  uint64_t open = ok ? in & ~endless : 0;
  EACH_LANE(lane, open) if (hi[lane] - lo[lane] <= 1) open &= ~(1ull << lane);
  while (ok && open) {
    unsigned first = (unsigned)__builtin_ctzll(open);
    int64_t l0 = lo[first], h0 = hi[first], mid = l0 + (h0 - l0) / 2;
    uint64_t group = 0, out = 0;
    EACH_LANE(lane, open) if (lo[lane] == l0 && hi[lane] == h0) group |= 1ull << lane;
    EACH_LANE(lane, group) ok = ok && set_line(t, loop, (unsigned)lane, n, r0[lane], d[lane], mid);
    if (!ok || !(ok = exits_at(t, loop, group, mid, &out)))
      break;
    EACH_LANE(lane, group) {
      if (out >> lane & 1)
        hi[lane] = mid;
      else
        lo[lane] = mid;
      if (hi[lane] - lo[lane] <= 1)
        open &= ~(1ull << lane);
    }
  }
  /* checks, the lanes with the same end together: the line holds at the end
   * and at samples, the exit before */
  uint64_t unchecked = ok ? in & ~endless : 0;
  while (ok && unchecked) {
    int64_t h0 = hi[__builtin_ctzll(unchecked)];
    uint64_t group = 0;
    EACH_LANE(lane, unchecked) if (hi[lane] == h0) group |= 1ull << lane;
    unchecked &= ~group;
    ok = steps_on_line_lanes(t, loop, group, n, r0, d, h0 - 1);
    for (int s = 1; ok && s <= 16; s++)
      ok = stays_at_lanes(t, loop, group, n, r0, d, (int64_t)PROBE_STEPS + (h0 - 1 - (int64_t)PROBE_STEPS) / 17 * s);
    EACH_LANE(lane, group) trips[lane] = h0 + 1;
  }
  EACH_LANE(lane, live) {
    if (!line[lane])
      affine = false;
    for (size_t i = 0; i < n; i++) {
      size_t at = (size_t)lane * t->nrv + t->rv_off[loop] + i;
      t->rv[at] = r0[lane][i];
      t->rv_known[at] = k0[lane][i];
      t->rv_delta[at] = d[lane][i];
    }
  }
  t->iter[loop] = 0;
  t->rv_affine[loop] = ok && affine;
  return ok;
}

static void run_loop(wgp_tracer *t, long loop, uint64_t mask, double w, nodelist *out, long region, uint64_t *cont,
                     double *cont_w);

/* Sends LANES from B to successor S within REGION. */
static void route(wgp_tracer *t, long region, size_t s, uint64_t lanes, double w, uint64_t *cont, double *cont_w) {
  if (!lanes)
    return;
  unsigned depth = region < 0 ? 0 : t->loop_depth[region];
  if (region >= 0 && s == t->loop_header[region]) {
    *cont |= lanes;
    if (w > *cont_w)
      *cont_w = w;
  } else if (in_region(t, s, region)) {
    long c = child_loop(t, s, region);
    scratch_add(&t->arrive[depth], c < 0 ? s : t->loop_header[c], lanes, w);
  } else {
    scratch_add(&t->exits[depth], s, lanes, w);
  }
}

/* Whether E reads only local ids, lane numbers, launch constants,
 * arguments and integers (its value in a lane depends on the lane's place
 * in its group alone). */
static bool lid_only(const wgp_expr *e) {
  wgp_expr_op op = wgp_expr_get_op(e);
  if (op == WGP_OP_SYM) {
    switch (wgp_expr_symbol(e)->kind) {
    case WGP_SYM_LID: case WGP_SYM_LSZ: case WGP_SYM_NGRP: case WGP_SYM_GSZ: case WGP_SYM_GOFF:
    case WGP_SYM_WDIM: case WGP_SYM_LANEID: case WGP_SYM_WARPSIZE: case WGP_SYM_ARG:
      return true;
    default:
      return false;
    }
  }
  if (op == WGP_OP_LOAD || op == WGP_OP_FLOAT)
    return false;
  for (size_t i = 0; i < wgp_expr_num_operands(e); i++)
    if (!lid_only(wgp_expr_operand(e, i)))
      return false;
  return true;
}

/* The remembered way of block B's two-way branch in the current warp (its
 * condition lid_only), NULL when there is none or no room for it. */
static const lid_branch *lid_branch_of(wgp_tracer *t, size_t b, const wgp_branch *br) {
  if (!t->cond_lid[b])
    t->cond_lid[b] = wgp_branch_get_kind(br) == WGP_BRANCH_COND && wgp_branch_num_targets(br) == 2 &&
                             lid_only(wgp_branch_cond(br))
                         ? 1
                         : 2;
  if (t->cond_lid[b] != 1 || t->cur_warp >= t->lid_warps)
    return NULL;
  if (!t->lid_memo[b] && !(t->lid_memo[b] = calloc(t->lid_warps, sizeof **t->lid_memo)))
    return NULL;
  lid_branch *m = &t->lid_memo[b][t->cur_warp];
  if (m->stamp != t->lid_epoch) {
    int64_t v[WGP_TRACE_MAX_WARP];
    m->known = wgp_tracer_eval_warp(t, wgp_branch_cond(br), t->cur_full, v);
    m->taken = 0;
    EACH_LANE(l, m->known) if (v[l] != 0) m->taken |= 1ull << l;
    m->stamp = t->lid_epoch;
  }
  return m;
}

/* Whether an exit of REGION can be reached from block S without its back-edge
 * (t->exit_reach, per block of the loop's own body; a block outside the
 * loop, or in a loop nested in it, counts as reaching one). */
static bool reaches_exit(const wgp_tracer *t, size_t s, long region) {
  if (!in_region(t, s, region) || t->block_loop[s] != region)
    return true;
  return t->exit_reach[s];
}

static void branch(wgp_tracer *t, long region, size_t b, uint64_t mask, double w, uint64_t *cont,
                   double *cont_w) {
  const wgp_block *blk = wgp_kernel_block(t->k, b);
  const wgp_branch *br = wgp_block_branch(blk);
  size_t nsucc = wgp_block_num_succs(blk);
  if (!br) {
    if (nsucc)
      route(t, region, wgp_block_succ(blk, 0), mask, w, cont, cont_w);
    return;
  }
  const lid_branch *m = lid_branch_of(t, b, br);
  uint64_t lanes = t->nlanes < 64 ? mask & ((1ull << t->nlanes) - 1) : mask;
  if (m && !(lanes & ~m->known)) { /* as evaluated below, lanes beyond the warp's going nowhere */
    route(t, region, wgp_branch_target(br, 0), lanes & m->taken, w, cont, cont_w);
    route(t, region, wgp_branch_target(br, 1), lanes & ~m->taken, w, cont, cont_w);
    return;
  }
  size_t nt = wgp_branch_num_targets(br);
  uint64_t to[64] = {0}, unknown = 0, data = 0;
  if (nt > 64)
    nt = 64;
  int64_t v[WGP_TRACE_MAX_WARP];
  uint64_t known = wgp_tracer_eval_warp(t, wgp_branch_cond(br), mask, v);
  unknown = mask & ~known;
  if (t->nlanes < 64)
    unknown &= (1ull << t->nlanes) - 1;
  if (unknown) {
    if (!t->cond_data[b]) /* cached: the walk is over the whole condition */
      t->cond_data[b] = wgp_expr_uses(wgp_branch_cond(br)) & WGP_USES_DATA ? 2 : 1;
    if (t->cond_data[b] == 2)
      data = unknown;
  }
  EACH_LANE(lane, known) {
    size_t target = 0;
    if (wgp_branch_get_kind(br) == WGP_BRANCH_COND) {
      target = v[lane] != 0 ? 0 : 1;
    } else {
      for (size_t i = 1; i < nt; i++)
        if (wgp_branch_case_value(br, i - 1) == v[lane]) {
          target = i;
          break;
        }
    }
    to[target] |= 1ull << lane;
  }
  for (size_t i = 0; i < nt; i++)
    route(t, region, wgp_branch_target(br, i), to[i], w, cont, cont_w);
  if (!unknown)
    return;
  /* A loop exit that cannot be evaluated: the lanes stay for the forced count. */
  bool any_leaves = false, any_stays = false;
  for (size_t i = 0; i < nt; i++) {
    bool leaves = !in_region(t, wgp_branch_target(br, i), region);
    any_leaves = any_leaves || leaves;
    any_stays = any_stays || !leaves;
  }
  if (region >= 0 && any_leaves && any_stays) {
    bool stay = t->iter[region] + 1 < t->forced[region];
    for (size_t i = 0; i < nt; i++) {
      size_t s = wgp_branch_target(br, i);
      if (stay == in_region(t, s, region))
        route(t, region, s, unknown, w, cont, cont_w);
    }
    t->tr->flags |= data ? WGP_TRACE_DATA_LOOP : WGP_TRACE_UNKNOWN;
    t->tr->fallback[b] |= data ? WGP_TRACE_DATA_LOOP : WGP_TRACE_UNKNOWN;
    return;
  }
  t->tr->flags |= data ? WGP_TRACE_DATA_BRANCH : WGP_TRACE_UNKNOWN;
  t->tr->fallback[b] |= data ? WGP_TRACE_DATA_BRANCH : WGP_TRACE_UNKNOWN;
  /* In the last iteration of a loop run for its forced count (its exits
   * cannot be evaluated), the lanes go only the ways that can still reach
   * an exit: taken both ways, a branch whose one side leads back to the
   * header kept some lanes in the loop on every iteration, which then ran
   * to the explicit cap (a merge loop: `if (a and b left) {advance one by
   * data} else if ... else break` ran 1024 iterations at -O0, 1 at -O2). */
  if (region >= 0 && t->forcing[region] && t->iter[region] + 1 >= t->forced[region] && !t->has_taken_hint[b]) {
    bool some = false, all = true;
    for (size_t i = 0; i < nt; i++) {
      bool r = reaches_exit(t, wgp_branch_target(br, i), region);
      some = some || r;
      all = all && r;
    }
    if (some && !all) {
      for (size_t i = 0; i < nt; i++)
        if (reaches_exit(t, wgp_branch_target(br, i), region))
          route(t, region, wgp_branch_target(br, i), unknown, w, cont, cont_w);
      return;
    }
  }
  if (t->has_taken_hint[b] && wgp_branch_get_kind(br) == WGP_BRANCH_COND) {
    double f = t->taken_hint[b];
    route(t, region, wgp_branch_target(br, 0), unknown, w * f, cont, cont_w);
    route(t, region, wgp_branch_target(br, 1), unknown, w * (1.0 - f), cont, cont_w);
    return;
  }
  for (size_t i = 0; i < nt; i++)
    route(t, region, wgp_branch_target(br, i), unknown, w, cont, cont_w);
}

/* Executes REGION from ENTRY; lanes that take REGION's back-edge end in
 * *cont, lanes that leave it in t->exits[depth]. */
static void exec_region(wgp_tracer *t, long region, size_t entry, uint64_t mask, double w, nodelist *out,
                        uint64_t *cont, double *cont_w) {
  unsigned depth = region < 0 ? 0 : t->loop_depth[region];
  scratch *arr = &t->arrive[depth];
  scratch_reset(arr);
  scratch_add(arr, entry, mask, w);
  for (size_t i = t->rpo[entry]; i < t->nblocks && !t->abort; i++) {
    size_t b = t->order[i];
    uint64_t m = arr->mask[b];
    if (!m)
      continue;
    double bw = arr->w[b];
    if (!in_region(t, b, region))
      continue;
    long c = child_loop(t, b, region);
    if (c >= 0) {
      if (b == t->loop_header[c])
        run_loop(t, c, m, bw, out, region, cont, cont_w);
      continue;
    }
    emit_block(t, out, b, m, bw);
    branch(t, region, b, m, bw, cont, cont_w);
  }
}

static void init_recurrences(wgp_tracer *t, long loop, uint64_t mask) {
  const wgp_loop *lp = wgp_kernel_loop(t->k, (size_t)loop);
  size_t n = wgp_loop_num_recurrences(lp);
  for (size_t i = 0; i < n; i++) {
    const wgp_expr *init, *next;
    wgp_loop_recurrence(lp, i, &init, &next);
    int64_t v[WGP_TRACE_MAX_WARP];
    uint64_t known = wgp_tracer_eval_warp(t, init, mask, v);
    for (unsigned lane = 0; lane < t->nlanes; lane++) {
      if (!(mask >> lane & 1))
        continue;
      size_t at = (size_t)lane * t->nrv + t->rv_off[loop] + i;
      t->rv_known[at] = known >> lane & 1;
      t->rv[at] = t->rv_known[at] ? v[lane] : 0;
    }
  }
}

static void step_recurrences(wgp_tracer *t, long loop, uint64_t mask) {
  const wgp_loop *lp = wgp_kernel_loop(t->k, (size_t)loop);
  size_t n = wgp_loop_num_recurrences(lp);
  if (!n)
    return;
  /* every next value from the old ones, then all written (a lane reads only
   * its own recurrences) */
  size_t m = n < 64 ? n : 64;
  uint64_t known[64];
  for (size_t i = 0; i < m; i++) {
    const wgp_expr *init, *next;
    wgp_loop_recurrence(lp, i, &init, &next);
    known[i] = wgp_tracer_eval_warp(t, next, mask, t->stepv + i * WGP_TRACE_MAX_WARP);
  }
  for (unsigned lane = 0; lane < t->nlanes; lane++) {
    if (!(mask >> lane & 1))
      continue;
    for (size_t i = 0; i < m; i++) {
      size_t at = (size_t)lane * t->nrv + t->rv_off[loop] + i;
      bool k = known[i] >> lane & 1;
      t->rv[at] = k ? t->stepv[i * WGP_TRACE_MAX_WARP + lane] : 0;
      t->rv_known[at] = k;
    }
  }
}

/* One iteration at number K; appends its body to the loop's runs. */
static uint64_t iteration(wgp_tracer *t, long loop, wgp_tnode *node, int64_t k, uint64_t active, double w,
                          double mult, bool sampled, uint64_t count) {
  nodelist body = {0};
  uint64_t cont = 0;
  double cont_w = 0;
  t->iter[loop] = k;
  double saved = t->mult, saved_stretch = t->stretch;
  t->mult *= mult;
  t->stretch = mult;
  exec_region(t, loop, t->loop_header[loop], active, w, &body, &cont, &cont_w);
  t->mult = saved;
  t->stretch = saved_stretch;
  step_recurrences(t, loop, cont);
  run *last = node->nruns ? &node->runs[node->nruns - 1] : NULL;
  if (last && !sampled && !last->sampled && last->first + last->count == (uint64_t)k &&
      list_same_work(&last->body, &body)) {
    last->count++;
    free_list(&body);
    return cont;
  }
  if (node->nruns == node->rcap) {
    size_t cap = node->rcap ? 2 * node->rcap : 4;
    run *r = realloc(node->runs, cap * sizeof *r);
    if (!r) {
      free_list(&body);
      t->abort = true;
      return 0;
    }
    node->runs = r;
    node->rcap = cap;
  }
  node->runs[node->nruns++] = (run){.count = count, .first = (uint64_t)k, .sampled = sampled, .body = body};
  return cont;
}

static void skip_recurrences(wgp_tracer *t, long loop, uint64_t mask, int64_t first, int64_t steps);

/* Iteration K visited and left out of the trace: what it touches is in the
 * caches when the sampled iteration after it comes
 * (wgp_tracer_warm_samples).  Its visits keep the weight of one iteration:
 * where nothing before the stretch touched its data (a[i] updated from the
 * fourth iteration on, the first three explicit and touching nothing), its
 * misses are the stretch's first touches, which happen once, and the sample
 * after it sees the reuse; elsewhere it is one iteration more than the
 * stretch has, within 1 / its length.  Its recurrences step as the loop's
 * would. */
static void warm_iteration(wgp_tracer *t, long loop, int64_t k, uint64_t active, double w) {
  nodelist body = {0};
  uint64_t cont = 0;
  double cont_w = 0;
  t->iter[loop] = k;
  size_t size = t->tr->size;
  double saved_stretch = t->stretch;
  t->stretch = 1.0;
  exec_region(t, loop, t->loop_header[loop], active, w, &body, &cont, &cont_w);
  t->stretch = saved_stretch;
  t->tr->size = size;
  free_list(&body);
  step_recurrences(t, loop, cont);
  if (active & ~cont) /* lanes that left (none in a stretch of known counts): one step as well */
    skip_recurrences(t, loop, active & ~cont, k, 1);
}

static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return x < y ? -1 : x > y;
}

/* Advances recurrences of lanes in MASK by STEPS iterations (capped). */
static void skip_recurrences(wgp_tracer *t, long loop, uint64_t mask, int64_t first, int64_t steps) {
  const wgp_loop *lp = wgp_kernel_loop(t->k, (size_t)loop);
  if (!wgp_loop_num_recurrences(lp) || steps <= 0)
    return;
  if (t->rv_affine[loop]) { /* probe_trips checked the steps: a jump */
    for (unsigned lane = 0; lane < t->nlanes; lane++)
      if (mask >> lane & 1)
        for (size_t i = 0; i < wgp_loop_num_recurrences(lp); i++) {
          size_t at = (size_t)lane * t->nrv + t->rv_off[loop] + i;
          int64_t d;
          if (__builtin_mul_overflow(steps, t->rv_delta[at], &d) || __builtin_add_overflow(t->rv[at], d, &t->rv[at]))
            t->rv_known[at] = 0;
        }
    return;
  }
  if (steps > (int64_t)RECURRENCE_STEP_CAP) {
    for (unsigned lane = 0; lane < t->nlanes; lane++)
      if (mask >> lane & 1)
        for (size_t i = 0; i < wgp_loop_num_recurrences(lp); i++)
          t->rv_known[(size_t)lane * t->nrv + t->rv_off[loop] + i] = 0;
    t->tr->flags |= WGP_TRACE_TRUNCATED;
    return;
  }
  for (int64_t s = 0; s < steps; s++) {
    t->iter[loop] = first + s;
    step_recurrences(t, loop, mask);
  }
}

static void run_loop(wgp_tracer *t, long loop, uint64_t mask, double w, nodelist *out, long region, uint64_t *cont,
                     double *cont_w) {
  if (t->quiet_exit && t->quiet_exit[loop] >= 0) {
    /* nothing after it can tell that it ran: its lanes go to its exit */
    route(t, region, (size_t)t->quiet_exit[loop], mask, w, cont, cont_w);
    return;
  }
  const wgp_loop *lp = wgp_kernel_loop(t->k, (size_t)loop);
  unsigned depth = t->loop_depth[loop];
  scratch *ex = &t->exits[depth];
  scratch_reset(ex);
  wgp_tnode node = {.kind = WGP_TNODE_LOOP, .loop = (size_t)loop};
  init_recurrences(t, loop, mask);
  t->rv_affine[loop] = 0;

  /* Per-lane counts when the model has them and they evaluate. */
  int64_t trips[WGP_TRACE_MAX_WARP];
  bool known = false;
  const wgp_expr *tc = wgp_loop_trip_count(lp);
  if (t->has_trip_hint[loop]) {
    known = true;
    for (unsigned lane = 0; lane < t->nlanes; lane++)
      trips[lane] = (int64_t)t->trip_hint[loop];
  } else if (tc && wgp_loop_trip_kind(lp) == WGP_TRIP_EXACT) {
    known = true;
    t->iter[loop] = 0;
    uint64_t live = t->nlanes < 64 ? mask & ((1ull << t->nlanes) - 1) : mask;
    int64_t v[WGP_TRACE_MAX_WARP];
    known = wgp_tracer_eval_warp(t, tc, live, v) == live;
    if (known)
      EACH_LANE(lane, live) trips[lane] = v[lane] < 1 ? 1 : v[lane];
  }
  /* The count used where an exit cannot be evaluated. */
  const wgp_expr *bound = wgp_loop_has_real_bound(lp) ? wgp_loop_max_trip_count(lp) : NULL;
  int64_t bounded[WGP_TRACE_MAX_WARP];
  uint64_t bounded_lanes = 0; /* the lanes of BOUNDED, when every live lane has a count */
  t->forced[loop] = 1;
  if (known) {
    int64_t mx = 1;
    for (unsigned lane = 0; lane < t->nlanes; lane++)
      if (mask >> lane & 1 && trips[lane] > mx)
        mx = trips[lane];
    t->forced[loop] = mx;
  } else if (bound || tc) {
    /* per lane the count, else the bound */
    int64_t mx = 0, v1[WGP_TRACE_MAX_WARP], v2[WGP_TRACE_MAX_WARP];
    uint64_t live = t->nlanes < 64 ? mask & ((1ull << t->nlanes) - 1) : mask;
    uint64_t k1 = wgp_tracer_eval_warp(t, tc ? tc : bound, live, v1), k2 = 0;
    if (tc && bound && (live & ~k1))
      k2 = wgp_tracer_eval_warp(t, bound, live & ~k1, v2);
    bool ok = ((k1 | k2) & live) == live;
    if (ok)
      EACH_LANE(lane, live) {
        int64_t x = k1 >> lane & 1 ? v1[lane] : v2[lane];
        if (x > mx)
          mx = x;
        bounded[lane] = x < 1 ? 1 : x;
      }
    if (ok && mx > 0) {
      t->forced[loop] = mx;
      bounded_lanes = live;
    }
  }

  bool capped = false;
  if (!known && wgp_loop_trip_kind(lp) == WGP_TRIP_RECURRENCE && !t->has_trip_hint[loop] &&
      probe_trips(t, loop, mask, trips, &capped)) {
    known = true;
    if (capped) { /* a lane whose exit is never reached ran the explicit cap */
      t->tr->flags |= WGP_TRACE_TRUNCATED;
      t->tr->fallback[t->loop_header[loop]] |= WGP_TRACE_TRUNCATED;
    }
    int64_t mx = 1;
    EACH_LANE(lane, mask & (t->nlanes < 64 ? (1ull << t->nlanes) - 1 : ~0ull)) if (trips[lane] > mx) mx = trips[lane];
    t->forced[loop] = mx;
  }
  if (!known && bounded_lanes && t->forced[loop] > (int64_t)WGP_TRACE_EXPLICIT_CAP) {
    /* Every lane has a count from the model's count or bound, which the
     * exits that cannot be evaluated keep it in the loop for, and it is
     * above the explicit cap: a counted loop, sampled as any, instead of
     * one cut at the cap (a data-dependent search through 10000 entries,
     * reported as run to its bound, counted 1024 iterations).  Below the
     * cap the loop is run iteration by iteration as before: exact, where
     * a sample stands for a periodic pattern with one or two iterations
     * (a walk by 8 B that needs a new sector every fourth iteration).  So
     * also in a cache analysis over its budget (cache.h): run to its lower
     * cap instead, such a loop left every lane inside it, so the accesses
     * after it were never seen and its hit rates were those of its first
     * 64 iterations; find_index's search of 10000 entries was predicted
     * 866 us with groups of 48 and 566 us with 40, whose 512 warps are
     * just over the budget */
    known = true;
    EACH_LANE(lane, bounded_lanes) trips[lane] = bounded[lane];
  }
  if (!known) {
    uint64_t active = mask;
    int64_t k = 0;
    t->forcing[loop] = 1;
    for (; active && k < (int64_t)t->explicit_cap && !t->abort; k++)
      active = iteration(t, loop, &node, k, active, w, 1.0, false, 1);
    t->forcing[loop] = 0;
    if (active) { /* which loop: wgp_trace_block_flags of its header */
      t->tr->flags |= WGP_TRACE_TRUNCATED;
      t->tr->fallback[t->loop_header[loop]] |= WGP_TRACE_TRUNCATED;
    }
  } else {
    /* Stretches with a constant active mask, cut where a lane's count ends. */
    int64_t ends[WGP_TRACE_MAX_WARP];
    unsigned ne = 0;
    for (unsigned lane = 0; lane < t->nlanes; lane++)
      if (mask >> lane & 1)
        ends[ne++] = trips[lane];
    qsort(ends, ne, sizeof *ends, cmp_i64);
    int64_t start = 0;
    uint64_t active = mask;
    for (unsigned e = 0; e < ne && active && !t->abort; e++) {
      int64_t stop = ends[e];
      if (stop <= start)
        continue;
      int64_t len = stop - start, edge = t->edge;
      uint64_t seg = 0;
      for (unsigned lane = 0; lane < t->nlanes; lane++)
        if (mask >> lane & 1 && trips[lane] > start)
          seg |= 1ull << lane;
      active &= seg;
      if (len <= 2 * edge + 1) {
        for (int64_t k = start; k < stop && active && !t->abort; k++)
          active = iteration(t, loop, &node, k, active, w, 1.0, false, 1);
      } else {
        int64_t k = start;
        for (; k < start + edge && active && !t->abort; k++)
          active = iteration(t, loop, &node, k, active, w, 1.0, false, 1);
        /* The middle stretch [a, b] is stood for by its central iteration, or
         * its two central ones when its length is even: their mean is the
         * stretch's mean for anything linear in the iteration number. */
        int64_t a = start + edge, bnd = stop - edge - 1, middle = bnd - a + 1;
        int64_t m1 = a + (bnd - a) / 2;
        if (t->warm && m1 - 1 >= k) {
          skip_recurrences(t, loop, active, k, m1 - 1 - k);
          warm_iteration(t, loop, m1 - 1, active, w);
        } else {
          skip_recurrences(t, loop, active, k, m1 - k);
        }
        uint64_t after;
        if (middle % 2) {
          after = iteration(t, loop, &node, m1, active, w, (double)middle, true, (uint64_t)middle);
        } else {
          uint64_t half = (uint64_t)middle / 2;
          after = iteration(t, loop, &node, m1, active, w, (double)half, true, half);
          after = iteration(t, loop, &node, m1 + 1, after & seg, w, (double)half, true, half);
          m1++;
        }
        skip_recurrences(t, loop, after, m1 + 1, stop - edge - m1 - 1);
        active = after & seg;
        for (k = stop - edge; k < stop && active && !t->abort; k++)
          active = iteration(t, loop, &node, k, active, w, 1.0, false, 1);
        t->tr->flags |= WGP_TRACE_SAMPLED;
      }
      start = stop;
    }
  }
  t->iter[loop] = -1;
  t->rv_affine[loop] = 0;
  if (!push_node(out, &node)) {
    free_node(&node);
    t->abort = true;
  } else {
    t->tr->size++;
  }
  /* Hand the loop's exits to the enclosing region (copy: route may reuse
   * this depth's scratch when it is an outer loop's exit set). */
  size_t n = ex->ntouched;
  size_t *bs = malloc((n ? n : 1) * sizeof *bs);
  uint64_t *ms = malloc((n ? n : 1) * sizeof *ms);
  double *ws = malloc((n ? n : 1) * sizeof *ws);
  if (!bs || !ms || !ws) {
    free(bs), free(ms), free(ws);
    t->abort = true;
    return;
  }
  for (size_t i = 0; i < n; i++) {
    bs[i] = ex->touched[i];
    ms[i] = ex->mask[bs[i]];
    ws[i] = ex->w[bs[i]];
  }
  scratch_reset(ex);
  /* An exit to REGION's header is REGION's back-edge taken from inside this
   * loop; route() hands it to the caller's continue mask. */
  for (size_t i = 0; i < n; i++)
    route(t, region, bs[i], ms[i], ws[i], cont, cont_w);
  free(bs), free(ms), free(ws);
}

/* ---- the public entry ------------------------------------------------- */

wgp_status wgp_tracer_trace(wgp_tracer *t, const uint64_t group[3], size_t warp, wgp_trace **out,
                            wgp_diag *diag) {
  *out = NULL;
  for (unsigned d = 0; d < 3; d++) {
    uint64_t ngrp = (t->L->global[d] + t->L->local[d] - 1) / t->L->local[d];
    if (group[d] >= ngrp)
      return wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: group %llu in dimension %u is outside the %llu groups",
                  (unsigned long long)group[d], d, (unsigned long long)ngrp);
    t->group[d] = group[d];
    uint64_t rest = t->L->global[d] - group[d] * t->L->local[d];
    t->extent[d] = rest < t->L->local[d] ? rest : t->L->local[d];
  }
  uint64_t items = t->extent[0] * t->extent[1] * t->extent[2];
  uint64_t first = (uint64_t)warp * t->L->warp_size;
  if (first >= items)
    return wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: warp %zu is outside a work-group of %llu work-items", warp,
                (unsigned long long)items);
  uint64_t nact = items - first < t->L->warp_size ? items - first : t->L->warp_size;
  uint64_t full = nact >= 64 ? ~0ull : ((1ull << nact) - 1);
  wgp_trace *tr = t->spare;
  t->spare = NULL;
  if (tr) { /* emptied by wgp_tracer_recycle: its arrays and top list are kept */
    memset(tr->exec, 0, tr->nblocks * sizeof *tr->exec);
    memset(tr->lane_exec, 0, tr->nblocks * sizeof *tr->lane_exec);
    memset(tr->fallback, 0, tr->nblocks * sizeof *tr->fallback);
    tr->flags = 0;
    tr->size = 0;
  } else if ((tr = calloc(1, sizeof *tr + t->nblocks * (2 * sizeof(double) + 1)))) {
    /* the trace and its per-block arrays in one block */
    tr->nblocks = t->nblocks;
    tr->exec = (double *)(tr + 1);
    tr->lane_exec = tr->exec + t->nblocks;
    tr->fallback = (unsigned char *)(tr->lane_exec + t->nblocks);
  }
  if (!tr) {
    return wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
  }
  t->nlanes = t->L->warp_size;
  /* remembered branches hold while the group's extent does */
  if (!t->lid_epoch || t->lid_ext[0] != t->extent[0] || t->lid_ext[1] != t->extent[1] ||
      t->lid_ext[2] != t->extent[2]) {
    t->lid_epoch++;
    for (unsigned d = 0; d < 3; d++)
      t->lid_ext[d] = t->extent[d];
  }
  t->cur_warp = warp;
  t->cur_full = full;
  uint64_t lx = t->extent[0], ly = t->extent[1];
  for (unsigned lane = 0; lane < t->nlanes; lane++) {
    uint64_t id = (uint64_t)warp * t->L->warp_size + lane;
    t->lid[lane][0] = (int64_t)(id % lx);
    t->lid[lane][1] = (int64_t)(id / lx % ly);
    t->lid[lane][2] = (int64_t)(id / (lx * ly));
    for (unsigned d = 0; d < 3; d++)
      t->coord[d * WGP_TRACE_MAX_WARP + lane] = t->lid[lane][d];
    t->coord[3 * WGP_TRACE_MAX_WARP + lane] = lane;
  }
  /* The coordinates' box over every lane of every warp of the group (ids
   * up to the last warp's last lane), so that what the compiled expressions
   * prove over it holds for all the group's warps, and a new group epoch
   * when the group changes. */
  uint64_t ws = t->L->warp_size, nw = (items + ws - 1) / ws, last = nw * ws - 1;
  t->coord_lo[0] = 0, t->coord_hi[0] = (int64_t)(last < lx ? last : lx - 1);
  t->coord_lo[1] = 0, t->coord_hi[1] = (int64_t)(last / lx < ly ? last / lx : ly - 1);
  t->coord_lo[2] = 0, t->coord_hi[2] = (int64_t)(last / (lx * ly));
  t->coord_lo[3] = 0, t->coord_hi[3] = (int64_t)(ws - 1);
  bool same_group = t->xsrc.group_epoch != 0;
  for (unsigned d = 0; d < 3; d++)
    same_group = same_group && t->epoch_group[d] == t->group[d] && t->epoch_extent[d] == t->extent[d];
  if (!same_group) {
    t->xsrc.group_epoch = ++t->gepoch;
    for (unsigned d = 0; d < 3; d++)
      t->epoch_group[d] = t->group[d], t->epoch_extent[d] = t->extent[d];
  }
  /* a new warp: what the compiled expressions kept of the last one's ids is stale */
  t->xsrc.epoch = ++t->epoch;
  for (size_t l = 0; l < t->nloops; l++)
    t->iter[l] = -1;
  t->tr = tr;
  t->mult = 1.0;
  if (t->load_ok) /* a new warp has loaded nothing yet */
    memset(t->load_ok, 0, t->naccesses * sizeof *t->load_ok);
  t->stretch = 1.0;
  t->abort = false;
  uint64_t cont = 0;
  double cont_w = 0;
  exec_region(t, -1, 0, full, 1.0, &tr->top, &cont, &cont_w);
  scratch_reset(&t->exits[0]);
  bool aborted = t->abort;
  t->tr = NULL;
  if (aborted && !(tr->flags & WGP_TRACE_TRUNCATED)) {
    wgp_trace_free(tr);
    return wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory while tracing");
  }
  *out = tr;
  return WGP_OK;
}

void wgp_trace_free(wgp_trace *tr) {
  if (!tr)
    return;
  free_list(&tr->top);
  free(tr); /* its per-block arrays with it */
}

void wgp_tracer_recycle(wgp_tracer *t, wgp_trace *tr) {
  if (!tr)
    return;
  if (t->spare || tr->nblocks != t->nblocks) {
    wgp_trace_free(tr);
    return;
  }
  for (size_t i = 0; i < tr->top.n; i++)
    free_node(&tr->top.v[i]);
  tr->top.n = 0;
  t->spare = tr;
}

unsigned wgp_trace_flags(const wgp_trace *tr) { return tr->flags; }

unsigned wgp_trace_block_flags(const wgp_trace *tr, size_t block) {
  return block < tr->nblocks ? tr->fallback[block] : 0;
}

bool wgp_trace_equal(const wgp_trace *a, const wgp_trace *b) {
  return a->flags == b->flags && list_equal(&a->top, &b->top);
}

static uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h;
}

/* The blocks, masks and loop structure of a list, with the loops' iteration
 * counts or (COUNTS false) with only how many runs each loop has. */
static uint64_t hash_list(const nodelist *l, bool counts) {
  uint64_t h = l->n;
  for (size_t i = 0; i < l->n; i++) {
    const wgp_tnode *n = &l->v[i];
    h = mix(h, n->kind);
    if (n->kind == WGP_TNODE_BLOCK) {
      h = mix(h, n->block);
      h = mix(h, n->mask);
    } else {
      h = mix(h, n->loop);
      if (!counts)
        h = mix(h, n->nruns);
      for (size_t r = 0; r < n->nruns; r++)
        h = counts ? mix(mix(h, n->runs[r].count), hash_list(&n->runs[r].body, true))
                   : mix(h, hash_list(&n->runs[r].body, false));
    }
  }
  return h;
}

uint64_t wgp_trace_hash(const wgp_trace *tr) { return mix(hash_list(&tr->top, true), tr->flags); }
uint64_t wgp_trace_shape_hash(const wgp_trace *tr) { return mix(hash_list(&tr->top, false), tr->flags); }

double wgp_trace_block_executions(const wgp_trace *tr, size_t b) { return b < tr->nblocks ? tr->exec[b] : 0; }
double wgp_trace_lane_executions(const wgp_trace *tr, size_t b) { return b < tr->nblocks ? tr->lane_exec[b] : 0; }
size_t wgp_trace_size(const wgp_trace *tr) { return tr->size; }
size_t wgp_trace_num_nodes(const wgp_trace *tr) { return tr->top.n; }
const wgp_tnode *wgp_trace_node(const wgp_trace *tr, size_t i) { return i < tr->top.n ? &tr->top.v[i] : NULL; }
wgp_tnode_kind wgp_tnode_get_kind(const wgp_tnode *n) { return n->kind; }
size_t wgp_tnode_block(const wgp_tnode *n) { return n->block; }
uint64_t wgp_tnode_mask(const wgp_tnode *n) { return n->mask; }
double wgp_tnode_weight(const wgp_tnode *n) { return n->weight; }
size_t wgp_tnode_loop(const wgp_tnode *n) { return n->loop; }
size_t wgp_tnode_num_runs(const wgp_tnode *n) { return n->kind == WGP_TNODE_LOOP ? n->nruns : 0; }
uint64_t wgp_tnode_run_count(const wgp_tnode *n, size_t r) { return r < wgp_tnode_num_runs(n) ? n->runs[r].count : 0; }
uint64_t wgp_tnode_run_first(const wgp_tnode *n, size_t r) { return r < wgp_tnode_num_runs(n) ? n->runs[r].first : 0; }
bool wgp_tnode_run_sampled(const wgp_tnode *n, size_t r) { return r < wgp_tnode_num_runs(n) && n->runs[r].sampled; }
size_t wgp_tnode_run_num_nodes(const wgp_tnode *n, size_t r) {
  return r < wgp_tnode_num_runs(n) ? n->runs[r].body.n : 0;
}
const wgp_tnode *wgp_tnode_run_node(const wgp_tnode *n, size_t r, size_t i) {
  return r < wgp_tnode_num_runs(n) && i < n->runs[r].body.n ? &n->runs[r].body.v[i] : NULL;
}

/* ---- printing --------------------------------------------------------- */

typedef struct sbuf {
  char *p;
  size_t n, cap;
  bool oom;
} sbuf;

static void sb_printf(sbuf *b, const char *fmt, ...) {
  if (b->oom)
    return;
  for (;;) {
    va_list ap;
    va_start(ap, fmt);
    size_t room = b->cap - b->n;
    int len = vsnprintf(b->p ? b->p + b->n : NULL, room, fmt, ap);
    va_end(ap);
    if (len < 0) {
      b->oom = true;
      return;
    }
    if ((size_t)len < room) {
      b->n += (size_t)len;
      return;
    }
    size_t cap = (b->cap + (size_t)len + 1) * 2;
    char *p = realloc(b->p, cap);
    if (!p) {
      b->oom = true;
      return;
    }
    b->p = p;
    b->cap = cap;
  }
}

static void print_list(sbuf *b, const nodelist *l, const wgp_kernel *k, int indent) {
  for (size_t i = 0; i < l->n; i++) {
    const wgp_tnode *n = &l->v[i];
    if (n->kind == WGP_TNODE_BLOCK) {
      sb_printf(b, "%*sblock %zu %s mask=%#llx", indent, "", n->block,
                k ? wgp_block_name(wgp_kernel_block(k, n->block)) : "", (unsigned long long)n->mask);
      if (n->weight != 1.0)
        sb_printf(b, " weight=%g", n->weight);
      sb_printf(b, "\n");
      continue;
    }
    sb_printf(b, "%*sloop L%zu\n", indent, "", n->loop);
    for (size_t r = 0; r < n->nruns; r++) {
      const run *rn = &n->runs[r];
      sb_printf(b, "%*s%s x%llu from iteration %llu\n", indent + 2, "", rn->sampled ? "sampled" : "run",
                (unsigned long long)rn->count, (unsigned long long)rn->first);
      print_list(b, &rn->body, k, indent + 4);
    }
  }
}

void wgp_trace_print(const wgp_trace *tr, const wgp_kernel *k, char **buf, size_t *len) {
  sbuf b = {0};
  sb_printf(&b, "%s", "");
  print_list(&b, &tr->top, k, 0);
  if (tr->flags) {
    sb_printf(&b, "flags:%s%s%s%s%s\n", tr->flags & WGP_TRACE_DATA_BRANCH ? " data-branch" : "",
              tr->flags & WGP_TRACE_DATA_LOOP ? " data-loop" : "", tr->flags & WGP_TRACE_SAMPLED ? " sampled" : "",
              tr->flags & WGP_TRACE_TRUNCATED ? " truncated" : "", tr->flags & WGP_TRACE_UNKNOWN ? " unknown" : "");
  }
  if (b.oom) {
    free(b.p);
    b.p = NULL;
    b.n = 0;
  }
  *buf = b.p;
  *len = b.n;
}
