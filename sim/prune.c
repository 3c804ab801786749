/* prune.c - work-group sizes pruned and ranked without running the kernel
 * (include/wgperf/prune.h; seeds/004 sec. 6, eq. 9-21, Algorithm 4).
 *
 * Assumptions (docs/wgprune.md):
 * - Candidates: every size whose extent divides the global size in each
 *   dimension (OpenCL 1.2 uniform work-groups; any extent when the launch is
 *   non-uniform), within the GPU's per-dimension and total limits; __local
 *   buffers sized by the user's expressions of lx, ly, lz; a size that
 *   cannot be resident (registers, shared memory) or whose analysis fails
 *   is reported, not searched.
 * - Stage 1 (sec. 6.1): two sizes give the same round of resident warps
 *   when their distinct warps have the same traces and memory costs, in the
 *   same proportions and order, the same number of warps is resident (eq.
 *   9: the paper's "same execution traces"), the warps per group match where
 *   they matter (barriers, or several classes to place), and their L1/L2
 *   hit rates are the same.  The paper takes the cache behaviour to follow
 *   from the traces; here the hit rates come from each size's own address
 *   stream, which changes with the shape of the group (a 256x4 and a 128x4
 *   matrix multiply have the same traces and differ by 36%), so they are
 *   compared, which needs the size's cache analysis.  A size is then a
 *   duplicate of one with no more rounds (eq. 10, sub-item 2: warps on the
 *   busiest SM over resident warps) and no more groups (block dispatch
 *   bounds the time from below).  A size pruned by bounds before its cache
 *   analysis is reported as a duplicate when such a size exists by traces
 *   alone (the paper's stage 1).
 * - Stage 1, idle lanes: a size of one row (ly = lz = 1) whose work-items
 *   leave its last warp partial, such as 684 of 704 lanes, is represented
 *   by the size that fills the same warps (704) when that size can run with
 *   the same resident groups and warps per SM.  In eq. 10 their rounds hold
 *   the same warps running the same code (sub-item 1 alike, up to the idle
 *   lanes' share of the memory traffic) and the partial size has at least
 *   as many groups, so no fewer rounds (sub-item 2) and no lower block
 *   dispatch bound: the paper's stage 1 argument for sizes whose traces
 *   differ only by idle lanes.  Such a size is not analyzed.  Only where a
 *   work-item's path does not change with the group (its branches and loops
 *   read the local id and size in x only through the global id,
 *   wgp_kernel_paths_by_global_id): threads that take roles by their local
 *   id, or loop over their group, do other work in a smaller group.  This
 *   is not a proof for our simulator, which may put a partial size up to a
 *   few percent ahead (a shorter last group, a tail spread over more SMs):
 *   docs/wgprune.md measures it.  Only in a non-uniform launch, whose sizes
 *   are mostly such (of 1 to 1024, 992 leave lanes idle; a uniform launch
 *   has a few divisors, searched exactly).  Off with options.partial_warps,
 *   with options.top (the first N ranks exact) and with a fixed grid (there
 *   a size's global size, and so a thread's work, changes with it); a size
 *   whose representative turns out unable to run is searched as any other.
 * - Stage 2 (sec. 6.2, Algorithm 4): a size whose best case is slower than
 *   an upper bound on another size's time is dropped: another size's worst
 *   case, or the time of a size already simulated (the incumbent).  The
 *   bounds are the simulator's own (docs/simulator.md), so they hold for
 *   its estimate: first for any hit rates (best: every global and constant
 *   access hits, worst: every one misses; latencies and chip traffic only
 *   grow with misses), which needs no cache analysis, then exact, from the
 *   size's cache analysis.
 * - Stages 2 and 3 run as one best-first search: the size with the smallest
 *   lower bound is taken next (analyzed if it has no cache analysis yet,
 *   else simulated unless it is a duplicate), until that bound is above the
 *   smallest upper bound; every size left is no faster than the best one
 *   simulated.  The best size is so the exhaustive search's (or one
 *   predicted exactly as fast); the ranking holds the simulated sizes only.
 * - The first N ranks exact (options.top = N): the same search, but it
 *   stops only when the smallest lower bound left is above W_N, the N-th
 *   smallest of the upper bounds of distinct sizes (each size's tightest:
 *   a worst case or its time).  N sizes are then at most W_N, every size
 *   left is slower than each of them, and every size at most W_N, so also
 *   every size tied with the N-th fastest, was simulated: ranked by time,
 *   then by enumeration order, the first N are the exhaustive search's.
 *   Stage 1 prunes no size that could be among them: a twin is only
 *   proven no faster than its representative, and two of a batch may both
 *   belong to the first N, so a twin the bounds keep is simulated.
 * - Stage 3: sizes are estimated exactly as `wgperf predict` does
 *   (wgp_estimate: cache analysis, data left in L2 from before the launch).
 */
#define _DEFAULT_SOURCE
#include "wgperf/prune.h"

#include "wgperf/estimate.h"
#include "wgperf/footprint.h"
#include "wgperf/occupancy.h"

#include <ctype.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_CANDIDATES 65536
#define MAX_EXTENTS 1024

typedef struct cand {
  wgp_prune_candidate pub;
  char *why; /* invalid: why (owned) */
  wgp_analysis_input in;
  uint64_t *local_bytes; /* per argument index */
  wgp_analysis *an;      /* until an estimate takes it */
  wgp_estimate *est;
  uint64_t key;          /* stage 1: the round it gives, before the cache analysis */
  uint64_t key2;         /* ... and with its hit rates, once analyzed */
  size_t rep1;           /* the fewest rounds of its batch by KEY */
  double cheap_best, cheap_worst;
  int level;             /* 0: enumerated, 1: analyzed, 2: cache analyzed, 3: done */
  double lb;             /* the lower bound of its level */
  int job;               /* JOB_*: its next level's work, done ahead by a search thread (under p->mu) */
  double ub;             /* top > 0: the smallest upper bound on its time known (worst cases, its time) */
  bool in_nbest;         /* ... and it is one of the N smallest (struct nbest) */
  size_t idle_rep;       /* stage 1, idle lanes: the size that fills its warps, SIZE_MAX where none */
  bool fills_for;        /* it is some size's idle_rep */
  struct prepared *prep; /* JOB_DONE: the result, not yet taken */
  unsigned regs;         /* registers per thread for its group size (wgp_kernel_registers_for_group) */
} cand;

/* The work that takes a candidate one level further, done apart from the
 * search's bookkeeping so that another thread can do it ahead of time; the
 * search then takes the result in its own order (commit), so the answer and
 * every count are those of one thread. */
typedef struct prepared {
  int level;             /* the level it starts from */
  wgp_status st, st2;    /* the first step (analysis, cache analysis, simulation), the bounds after it */
  wgp_diag d, d2;
  wgp_analysis *an;      /* level 0 */
  uint64_t key;
  double best_us, worst_us; /* level 0: the bounds for any hit rates (wgp_analysis_bounds) */
  wgp_estimate *est;     /* level 1 */
  wgp_sim_result r;      /* level 1: exact bounds; level 2: the simulation */
} prepared;

enum { JOB_NONE, JOB_QUEUED, JOB_RUNNING, JOB_DONE };
#define MAX_QUEUE 16

struct wgp_prune {
  const wgp_kernel *k;
  const wgp_gpu *gpu;
  unsigned regs, dims;
  unsigned regs_override; /* --regs: 0 when the model's count is used */
  wgp_launch *tmpl;       /* the user's launch with a placeholder local size: the lookup of every candidate */
  wgp_trace_launch tl;
  uint64_t *align, *fixed_local; /* fixed_local: per argument, then per array */
  uint64_t *buffer_bytes;        /* per argument: --buffer's size, 0 where none */
  bool fixed_grid;               /* options.grid: each size's global size is grid x size */
  uint64_t grid[3];
  size_t num_local;
  size_t *local_arg_index; /* argument index of each --local-arg */
  char **local_exprs;
  size_t num_local_args;
  size_t restricted; /* sizes a restriction excluded */
  /* stage 1's idle-lane rule would have applied but for the kernel's
   * control flow, first read at IDLE_WHERE (wgp_prune_idle_rule_refused) */
  bool idle_refused;
  const char *idle_where;
  size_t *trip_loops, *taken_blocks;
  uint64_t *trip_counts;
  double *taken_fractions;
  cand *c;
  size_t n;
  size_t *ranked;
  size_t nranked;
  wgp_prune_counts counts;
  /* search threads (none with one thread): they take the work of the
   * sizes the search will most likely need next, queued by it */
  unsigned nworkers;
  pthread_t workers[WGP_MAX_THREADS];
  pthread_mutex_t mu;
  pthread_cond_t work, done;
  size_t queue[MAX_QUEUE], nq, running;
  bool quit;
};

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static wgp_status nomem(wgp_diag *diag) { return wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory"); }

/* The message of D without its "wgperf: error: " prefix. */
static const char *bare(const wgp_diag *d) {
  const char *p = "wgperf: error: ";
  return strncmp(d->message, p, strlen(p)) == 0 ? d->message + strlen(p) : d->message;
}

/* ---- size expressions: integers, lx ly lz, + - * / % ( ), comparisons,
 * && || ! (1 true, 0 false) ------------------------------------------------ */

typedef struct pexpr {
  const char *p;
  const uint64_t *l;
  int depth;
  bool bad;  /* malformed */
  bool zero; /* divides by zero */
} pexpr;

static double pe_or(pexpr *e);

static void pe_space(pexpr *e) {
  while (isspace((unsigned char)*e->p))
    e->p++;
}

/* Consumes the operator OP when it is next (and not the start of a longer
 * one: "<" is not "<=", "!" is not "!=", "=" alone is none). */
static bool pe_take(pexpr *e, const char *op) {
  pe_space(e);
  size_t n = strlen(op);
  if (strncmp(e->p, op, n) != 0)
    return false;
  if (n == 1 && (op[0] == '<' || op[0] == '>' || op[0] == '!') && e->p[1] == '=')
    return false;
  e->p += n;
  return true;
}

static double pe_atom(pexpr *e) {
  pe_space(e);
  bool neg = *e->p == '!' && e->p[1] != '=';
  if (neg || *e->p == '(') {
    if (++e->depth > 64) { /* deeper nesting than any size needs: refuse, never recurse without end */
      e->bad = true;
      return 0;
    }
    e->p++;
    double v = neg ? pe_atom(e) == 0 : pe_or(e);
    if (!neg && !pe_take(e, ")"))
      e->bad = true;
    e->depth--;
    return v;
  }
  if (e->p[0] == 'l' && (e->p[1] == 'x' || e->p[1] == 'y' || e->p[1] == 'z')) {
    double v = (double)e->l[e->p[1] - 'x'];
    e->p += 2;
    return v;
  }
  if (isdigit((unsigned char)*e->p)) {
    double v = 0;
    while (isdigit((unsigned char)*e->p) && v < 1e15)
      v = v * 10 + (*e->p++ - '0');
    if (isdigit((unsigned char)*e->p))
      e->bad = true; /* too long a number */
    return v;
  }
  e->bad = true;
  return 0;
}

static double pe_prod(pexpr *e) {
  double v = pe_atom(e);
  for (;;) {
    if (pe_take(e, "*")) {
      v *= pe_atom(e);
    } else if (pe_take(e, "/") || pe_take(e, "%")) {
      bool rem = e->p[-1] == '%';
      double d = pe_atom(e);
      if (d == 0)
        e->zero = true;
      else
        v = rem ? v - floor(v / d) * d : floor(v / d);
    } else {
      return v;
    }
  }
}

static double pe_sum(pexpr *e) {
  double v = pe_prod(e);
  for (;;) {
    if (pe_take(e, "+"))
      v += pe_prod(e);
    else if (pe_take(e, "-"))
      v -= pe_prod(e);
    else
      return v;
  }
}

static double pe_cmp(pexpr *e) {
  double v = pe_sum(e);
  static const char *ops[] = {"==", "!=", "<=", ">=", "<", ">"};
  for (int i = 0; i < 6; i++)
    if (pe_take(e, ops[i])) {
      double w = pe_sum(e);
      switch (i) {
      case 0: return v == w;
      case 1: return v != w;
      case 2: return v <= w;
      case 3: return v >= w;
      case 4: return v < w;
      default: return v > w;
      }
    }
  return v;
}

static double pe_and(pexpr *e) {
  double v = pe_cmp(e);
  while (pe_take(e, "&&")) {
    double w = pe_cmp(e); /* both sides parsed: a malformed right side is found */
    v = v != 0 && w != 0;
  }
  return v;
}

static double pe_or(pexpr *e) {
  double v = pe_and(e);
  while (pe_take(e, "||")) {
    double w = pe_and(e);
    v = v != 0 || w != 0;
  }
  return v;
}

/* TEXT parsed whole for L into E (E->bad also for text left over or none). */
static double pe_parse(pexpr *e, const char *text, const uint64_t l[3]) {
  *e = (pexpr){text ? text : "", l, 0, !text, false};
  double v = pe_or(e);
  pe_space(e);
  if (*e->p)
    e->bad = true;
  return v;
}

/* TEXT's value for L, false when malformed or dividing by zero. */
static bool pe_eval(const char *text, const uint64_t l[3], double *out) {
  pexpr e;
  double v = pe_parse(&e, text, l);
  if (e.bad || e.zero)
    return false;
  *out = v;
  return true;
}


bool wgp_size_expr_eval(const char *text, const uint64_t l[3], uint64_t *out) {
  double v;
  if (!pe_eval(text, l, &v) || !(v >= 0) || v > 1e12)
    return false;
  *out = (uint64_t)v;
  return true;
}

bool wgp_size_expr_valid(const char *text) {
  uint64_t one[3] = {1, 1, 1};
  pexpr e;
  pe_parse(&e, text, one);
  return !e.bad;
}

bool wgp_size_cond_eval(const char *text, const uint64_t l[3], bool *holds) {
  double v;
  if (!pe_eval(text, l, &v))
    return false;
  *holds = v != 0;
  return true;
}

/* ---- the launch of every candidate ---------------------------------------- */

static bool opt(wgp_launch *l, const char *name, const char *value, wgp_diag *d) {
  return wgp_launch_set_option(l, name, value, d) == WGP_OK;
}

/* The user's launch with work-group size 1 and a placeholder size for the
 * __local arguments sized by expressions, bound once: its lookup resolves
 * the arguments of every candidate. */
static wgp_status bind_template(wgp_prune *p, const wgp_prune_options *o, wgp_diag *diag) {
  const wgp_launch *l = o->launch;
  wgp_launch *t = p->tmpl = wgp_launch_new();
  if (!t)
    return nomem(diag);
  char g[96] = "", one[16] = "";
  for (unsigned d = 0; d < p->dims; d++) {
    size_t n = strlen(g);
    snprintf(g + n, sizeof g - n, "%s%llu", d ? "," : "", (unsigned long long)wgp_launch_global(l, d));
    strcat(one, d ? ",1" : "1");
  }
  bool ok = opt(t, "--global", g, diag) && opt(t, "--local", one, diag);
  if (ok && wgp_launch_nonuniform(l))
    ok = opt(t, "--nonuniform", NULL, diag);
  char buf[512];
  for (size_t i = 0; ok && i < wgp_launch_num_args(l); i++) {
    int64_t v;
    const char *name = wgp_launch_arg(l, i, &v);
    double real = wgp_launch_arg_real(l, i);
    if (real == (double)v)
      snprintf(buf, sizeof buf, "%s=%lld", name, (long long)v);
    else
      snprintf(buf, sizeof buf, "%s=%.17g", name, real);
    ok = opt(t, "--arg", buf, diag);
  }
  for (size_t i = 0; ok && i < wgp_launch_num_buffers(l); i++) {
    uint64_t bytes, align;
    const char *name = wgp_launch_buffer(l, i, &bytes, &align);
    if (align)
      snprintf(buf, sizeof buf, "%s=%llu@%llu", name, (unsigned long long)bytes, (unsigned long long)align);
    else
      snprintf(buf, sizeof buf, "%s=%llu", name, (unsigned long long)bytes);
    ok = opt(t, "--buffer", buf, diag);
  }
  for (size_t i = 0; ok && i < wgp_launch_num_local_mem(l); i++) {
    uint64_t bytes;
    const char *name = wgp_launch_local_mem(l, i, &bytes);
    bool by_expr = false;
    for (size_t a = 0; a < o->num_local_args; a++)
      by_expr = by_expr || strcmp(o->local_arg_names[a], name) == 0;
    if (by_expr)
      continue;
    snprintf(buf, sizeof buf, "%s=%llu", name, (unsigned long long)bytes);
    ok = opt(t, "--local-mem", buf, diag);
  }
  for (size_t a = 0; ok && a < o->num_local_args; a++) {
    /* a placeholder until each size's expression gives the bytes (a dynamic
     * shared array must not be 0) */
    snprintf(buf, sizeof buf, "%s=1", o->local_arg_names[a]);
    ok = opt(t, "--local-mem", buf, diag);
  }
  if (!ok)
    return WGP_ERR_INPUT;
  size_t na = wgp_kernel_num_args(p->k) ? wgp_kernel_num_args(p->k) : 1;
  p->align = calloc(na, sizeof *p->align);
  p->num_local = na + wgp_kernel_num_arrays(p->k);
  p->fixed_local = calloc(p->num_local, sizeof *p->fixed_local);
  p->buffer_bytes = calloc(na, sizeof *p->buffer_bytes);
  if (!p->align || !p->fixed_local || !p->buffer_bytes)
    return nomem(diag);
  wgp_status st = wgp_launch_bind(t, p->k, &p->tl, p->align, p->fixed_local, diag);
  if (st != WGP_OK)
    return st;
  wgp_launch_buffer_sizes(t, p->k, p->buffer_bytes);
  for (size_t a = 0; a < o->num_local_args; a++) {
    for (size_t i = 0; i < wgp_kernel_num_args(p->k); i++)
      if (strcmp(wgp_arg_name(wgp_kernel_arg(p->k, i)), o->local_arg_names[a]) == 0)
        p->local_arg_index[a] = i;
    /* or a dynamic shared array (extern __shared__): the entry the bind set */
    size_t nargs = wgp_kernel_num_args(p->k);
    for (size_t j = 0; j < wgp_kernel_num_arrays(p->k); j++) {
      const wgp_array *arr = wgp_kernel_array(p->k, j);
      if (wgp_array_space(arr) == WGP_SPACE_LOCAL && wgp_array_bytes(arr) == 0 &&
          strcmp(wgp_array_short_name(arr), o->local_arg_names[a]) == 0)
        p->local_arg_index[a] = nargs + j, p->fixed_local[nargs + j] = 0;
    }
  }
  return WGP_OK;
}

/* Work-group extents of one dimension: divisors of GLOBAL up to LIMIT (any
 * extent when ANY). */
static size_t extents(uint64_t global, uint64_t limit, bool any, uint64_t *out) {
  size_t k = 0;
  for (uint64_t d = 1; d <= limit && d <= global && k < MAX_EXTENTS; d++)
    if (any || global % d == 0)
      out[k++] = d;
  return k;
}

/* With a fixed grid no global size narrows the extents: the powers of two up
 * to LIMIT and, where WARP is not 0 (x), the multiples of the warp size, the
 * sizes a tuner would try (every integer would make a thousand candidates a
 * dimension, most of them with a partial warp). */
static size_t grid_extents(uint64_t limit, unsigned warp, uint64_t *out) {
  size_t k = 0;
  for (uint64_t d = 1; d <= limit && k < MAX_EXTENTS; d++)
    if ((d & (d - 1)) == 0 || (warp && d % warp == 0))
      out[k++] = d;
  return k;
}

/* ---- stage 1: the round a size gives -------------------------------------- */

static uint64_t mix(uint64_t h, uint64_t v) { return h ^ (v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2)); }

static uint64_t dbits(double x) {
  uint64_t u;
  x = x == 0 ? 0 : x; /* -0 and 0 alike */
  memcpy(&u, &x, sizeof u);
  return u;
}

/* Traces and the simulator's memory costs of every class, in the order the
 * round composes them (representative warp index), with each class's share
 * of the warps; the resident warps; and the warps per group where they
 * matter (barriers, or several classes to place). */
static uint64_t round_key(const cand *c, const wgp_analysis *an, const wgp_kernel *k, unsigned wpg) {
  const wgp_warp_set *ws = wgp_analysis_warps(an);
  size_t nc = wgp_warp_set_size(ws), na = wgp_kernel_num_accesses(k);
  double total = wgp_warp_set_total(ws);
  uint64_t h = 0x51ed270b27a9f1c3ull;
  for (size_t done = 0, last = SIZE_MAX; done < nc; done++) {
    /* the next class by representative warp index, then by index */
    size_t pick = SIZE_MAX;
    for (size_t i = 0; i < nc; i++) {
      const wgp_warp_class *ci = wgp_warp_set_class(ws, i);
      bool after = last == SIZE_MAX || ci->warp > wgp_warp_set_class(ws, last)->warp ||
                   (ci->warp == wgp_warp_set_class(ws, last)->warp && i > last);
      if (after && (pick == SIZE_MAX || ci->warp < wgp_warp_set_class(ws, pick)->warp))
        pick = i;
    }
    last = pick;
    const wgp_warp_class *cl = wgp_warp_set_class(ws, pick);
    h = mix(h, wgp_trace_hash(cl->trace));
    h = mix(h, (uint64_t)llround(cl->count / total * 1e9));
    wgp_access_cost *costs = wgp_access_costs_new(k, wgp_analysis_class_stats(an, pick), NULL, -1);
    for (size_t a = 0; costs && a < na; a++) {
      h = mix(h, dbits(costs[a].requests));
      h = mix(h, dbits(costs[a].sectors));
      h = mix(h, dbits(costs[a].wavefronts));
      h = mix(h, dbits(costs[a].phases));
    }
    free(costs);
  }
  h = mix(h, c->pub.active_warps_per_sm);
  if (nc > 1 || wgp_analysis_dynamic_count(an, "barrier") > 0)
    h = mix(h, wpg);
  return h;
}

/* ---- estimates ------------------------------------------------------------ */

static void invalidate(cand *c, const char *why) {
  c->pub.stage = WGP_PRUNE_INVALID;
  free(c->why);
  c->why = strdup(why);
  c->pub.why = c->why ? c->why : "out of memory";
}

/* ---- the search ------------------------------------------------------------ */

/* Sorting by a key, ties by candidate index. */
typedef struct keyed {
  double v;
  uint64_t k, t; /* t: the work-items per group where the times tie */
  size_t i;
} keyed;

static int cmp_keyed(const void *a, const void *b) {
  const keyed *x = a, *y = b;
  if (x->k != y->k)
    return x->k < y->k ? -1 : 1;
  if (x->v != y->v)
    return x->v < y->v ? -1 : 1;
  if (x->t != y->t)
    return x->t < y->t ? -1 : 1;
  return x->i < y->i ? -1 : x->i > y->i;
}

/* Work-items per group.  Sizes predicted equally fast rank the smaller group
 * first: where the model has them tie (a DRAM-bound kernel at the bandwidth
 * floor: 647 of amaris-nvprof's 2474 launch groups), the smaller group
 * measures faster on average on every GPU there but the GTX 980 (equal), and
 * on the H100 vectorAdd and matrix_sum_coalesced run 8-10% slower with 1024
 * work-items than with 256 (docs/wgprune.md, "Ties go to the smaller group"). */
static uint64_t group_items(const cand *c) { return c->pub.local[0] * c->pub.local[1] * c->pub.local[2]; }

/* Sorts IDX[0..n) by K, then V, then (by time) the work-items per group,
 * then index, using S as scratch. */
static void sort_by(size_t *idx, size_t n, keyed *s, const cand *c, int what) {
  for (size_t j = 0; j < n; j++) {
    const cand *x = &c[idx[j]];
    s[j] = (keyed){what == 0 ? 0 : what == 1 ? x->cheap_best : what == 2 ? x->pub.sim.time_us : 0,
                   what == 0 ? x->key : 0, what == 2 ? group_items(x) : 0, idx[j]};
  }
  qsort(s, n, sizeof *s, cmp_keyed);
  for (size_t j = 0; j < n; j++)
    idx[j] = s[j].i;
}

enum { BY_KEY, BY_CHEAP_BEST, BY_TIME, BY_INDEX };

/* Whether candidate A represents a batch better than B: fewer rounds, then
 * fewer groups, then enumerated first. */
static bool better_rep(const cand *a, size_t ia, const cand *b, size_t ib) {
  if (a->pub.rounds != b->pub.rounds)
    return a->pub.rounds < b->pub.rounds;
  if (a->pub.groups != b->pub.groups)
    return a->pub.groups < b->pub.groups;
  return ia < ib;
}

/* Whether A, of the same batch as B, is no slower than B: no more rounds
 * (the pipeline) and no more groups (block dispatch bounds the time from
 * below: with eq. 10 alone, 64 work-items per group would stand for 1024
 * in a vector add and be 2.5x slower). */
static bool dominates(const cand *a, size_t ia, const cand *b, size_t ib) {
  return a->pub.rounds <= b->pub.rounds && a->pub.groups <= b->pub.groups && better_rep(a, ia, b, ib);
}

/* C's global size: the launch's, or with a fixed grid the grid x C's size. */
static void cand_global(const wgp_prune *p, const cand *c, uint64_t out[3]) {
  for (unsigned d = 0; d < 3; d++)
    out[d] = !p->fixed_grid ? p->tl.global[d] : d < p->dims ? p->grid[d] * c->pub.local[d] : 1;
}

/* Enumerates the sizes: launch, residency, rounds and the lower bound of
 * block dispatch (level 0). */
static wgp_status enumerate_all(wgp_prune *p, const wgp_prune_options *o, wgp_diag *diag) {
  const wgp_gpu *g = p->gpu;
  uint64_t lim[3] = {wgp_gpu_max_block_dim_x(g), wgp_gpu_max_block_dim_y(g), wgp_gpu_max_block_dim_z(g)};
  uint64_t(*ext)[MAX_EXTENTS] = malloc(3 * sizeof *ext);
  size_t ne[3] = {1, 1, 1};
  if (!ext)
    return nomem(diag);
  ext[1][0] = ext[2][0] = 1;
  bool any = wgp_launch_nonuniform(o->launch);
  for (unsigned d = 0; d < p->dims; d++)
    ne[d] = p->fixed_grid ? grid_extents(lim[d], d == 0 ? wgp_gpu_warp_size(g) : 0, ext[d])
                          : extents(wgp_launch_global(o->launch, d), lim[d], any, ext[d]);
  size_t cap = 64;
  p->c = calloc(cap, sizeof *p->c);
  if (!p->c) {
    free(ext);
    return nomem(diag);
  }
  for (size_t z = 0; z < ne[2]; z++)
    for (size_t y = 0; y < ne[1]; y++)
      for (size_t x = 0; x < ne[0]; x++) {
        if (ext[0][x] * ext[1][y] * ext[2][z] > wgp_gpu_max_threads_per_block(g))
          continue;
        uint64_t here[3] = {ext[0][x], ext[1][y], ext[2][z]};
        bool holds = true;
        for (size_t r = 0; holds && r < o->num_restrictions; r++)
          if (!wgp_size_cond_eval(o->restrictions[r], here, &holds))
            holds = false; /* dividing by zero for this size: not a size the kernel is written for */
        if (!holds) {
          p->restricted++;
          continue;
        }
        if (p->n == MAX_CANDIDATES) {
          p->counts.truncated = true;
          break;
        }
        if (p->n == cap) {
          cand *v = realloc(p->c, 2 * cap * sizeof *v);
          if (!v) {
            free(ext);
            return nomem(diag);
          }
          memset(v + cap, 0, cap * sizeof *v);
          p->c = v;
          cap *= 2;
        }
        cand *c = &p->c[p->n++];
        c->pub.local[0] = ext[0][x], c->pub.local[1] = ext[1][y], c->pub.local[2] = ext[2][z];
        c->pub.stage = WGP_PRUNE_SURVIVOR;
        c->pub.why = "";
        c->idle_rep = SIZE_MAX;
      }
  free(ext);
  unsigned sms = wgp_gpu_sm_count(g), wsz = wgp_gpu_warp_size(g);
  double per_block_us = wgp_gpu_launch_per_block_ns(g) / 1e3, overhead = wgp_gpu_launch_overhead_us(g);
  /* a dimension whose local id the kernel never reads: threads that differ
   * only there repeat each other's work (a kernel that takes its row from
   * blockIdx.y alone covers 1 / ly of the rows with ly > 1) */
  bool reads[3];
  for (unsigned d = 0; d < 3; d++)
    reads[d] = wgp_kernel_reads_local_id(p->k, d);
  for (size_t i = 0; i < p->n; i++) {
    cand *c = &p->c[i];
    wgp_diag d;
    char why[320];
    uint64_t global[3];
    cand_global(p, c, global);
    if (!wgp_gpu_grid_fits(g, global, c->pub.local, why, sizeof why)) {
      invalidate(c, why);
      continue;
    }
    if (global[0] > (1ull << 32) || global[1] > (1ull << 32) || global[2] > (1ull << 32)) {
      invalidate(c, "the global size (grid x work-group) is above 2^32 in a dimension");
      continue;
    }
    unsigned unread = 3;
    for (unsigned dd = 0; dd < 3 && unread == 3; dd++)
      if (c->pub.local[dd] > 1 && !reads[dd])
        unread = dd;
    if (unread < 3) {
      static const char *const ids[3][2] = {{"threadIdx.x", "get_local_id(0)"},
                                            {"threadIdx.y", "get_local_id(1)"},
                                            {"threadIdx.z", "get_local_id(2)"}};
      snprintf(why, sizeof why,
               "the kernel never reads %s: threads of a group that differ only in %c would repeat each other's work",
               ids[unread][wgp_kernel_language(p->k) == WGP_LANG_OPENCL], "xyz"[unread]);
      invalidate(c, why);
      continue;
    }
    c->local_bytes = malloc(p->num_local * sizeof *c->local_bytes);
    if (!c->local_bytes)
      return nomem(diag);
    memcpy(c->local_bytes, p->fixed_local, p->num_local * sizeof *c->local_bytes);
    bool ok = true;
    for (size_t a = 0; ok && a < p->num_local_args; a++)
      if (!wgp_size_expr_eval(p->local_exprs[a], c->pub.local, &c->local_bytes[p->local_arg_index[a]])) {
        snprintf(why, sizeof why, "--local-arg %s cannot be evaluated for this size", p->local_exprs[a]);
        invalidate(c, why);
        ok = false;
      }
    if (!ok)
      continue;
    c->in = (wgp_analysis_input){.kernel = p->k,
                                 .gpu = g,
                                 .launch = p->tl,
                                 .buffer_align = p->align,
                                 .buffer_bytes = p->buffer_bytes,
                                 .local_bytes = c->local_bytes,
                                 .trip_loops = p->trip_loops,
                                 .trip_counts = p->trip_counts,
                                 .num_trip_hints = o->num_trip_hints,
                                 .taken_blocks = p->taken_blocks,
                                 .taken_fractions = p->taken_fractions,
                                 .num_taken_hints = o->num_taken_hints,
                                 .l2_cold = o->l2_cold,
                                 /* such a size is discarded (commit_analysis): its analysis
                                  * may end at the first warp that shows it */
                                 .stop_outside_local = true};
    memcpy(c->in.launch.local, c->pub.local, sizeof c->pub.local);
    memcpy(c->in.launch.global, global, sizeof global);
    /* residency needs the shared memory of the group, not the analysis */
    wgp_layout *lay;
    wgp_status st = wgp_layout_new(p->k, p->align, c->local_bytes, &lay, &d);
    if (st == WGP_ERR_NOMEM)
      return wgp_diag_set(diag, st, "%s", d.message);
    if (st != WGP_OK) {
      invalidate(c, bare(&d));
      continue;
    }
    uint64_t threads = c->pub.local[0] * c->pub.local[1] * c->pub.local[2];
    wgp_occupancy occ;
    c->regs = wgp_kernel_registers_for_group(p->k, g, p->regs_override, threads, NULL, NULL, 0, NULL);
    wgp_occupancy_request req = wgp_estimate_shared_request(p->k, (unsigned)threads, c->regs, wgp_layout_local_bytes(lay));
    wgp_layout_free(lay);
    if (wgp_occupancy_compute(g, &req, &occ, &d) != WGP_OK) {
      invalidate(c, bare(&d));
      continue;
    }
    c->pub.groups = 1;
    for (unsigned dd = 0; dd < p->dims; dd++)
      c->pub.groups *= (global[dd] + c->pub.local[dd] - 1) / c->pub.local[dd];
    c->pub.active_groups_per_sm = occ.active_blocks_per_sm;
    c->pub.active_warps_per_sm = occ.active_warps_per_sm;
    /* eq. 10, sub-item 2: warps on the busiest SM over the resident warps */
    uint64_t q = (c->pub.groups + sms - 1) / sms, wpg = (threads + wsz - 1) / wsz;
    c->pub.rounds = (double)(q * wpg) / (double)occ.active_warps_per_sm;
    /* Before any analysis: block dispatch bounds the time from below (the
     * simulator's time is at least groups x per-block time, plus the launch
     * overhead), which already rules out the smallest groups of a large
     * launch. */
    c->pub.best_us = c->lb = (double)c->pub.groups * per_block_us + overhead;
    c->pub.worst_us = INFINITY;
  }
  return WGP_OK;
}

/* Stage 1, idle lanes (the assumptions above): each size of one row whose
 * last warp is partial gets the size that fills the same warps as its
 * idle_rep, where that one is a candidate that can run with the same
 * residency. */
static bool one_row(const cand *c) { return c->pub.local[1] == 1 && c->pub.local[2] == 1; }

/* C can run, is one row and leaves lanes of its last warp of WSZ idle. */
static bool partial_row(const cand *c, uint64_t wsz) {
  return c->pub.stage != WGP_PRUNE_INVALID && one_row(c) && c->pub.local[0] % wsz != 0;
}

static wgp_status assign_idle_reps(wgp_prune *p, wgp_diag *diag) {
  uint64_t wsz = wgp_gpu_warp_size(p->gpu), top = 0;
  if (!wsz)
    return WGP_OK;
  if (!wgp_kernel_paths_by_global_id(p->k, 0, &p->idle_where)) {
    /* a work-item's path changes with the group: the traces differ beyond
     * idle lanes (said where a size has them) */
    for (size_t i = 0; i < p->n && !p->idle_refused; i++)
      p->idle_refused = partial_row(&p->c[i], wsz);
    return WGP_OK;
  }
  for (size_t i = 0; i < p->n; i++)
    if (one_row(&p->c[i]) && p->c[i].pub.local[0] > top)
      top = p->c[i].pub.local[0];
  if (!top)
    return WGP_OK;
  /* the candidate of each row size (x, 1, 1) */
  size_t *row = malloc((top + 1) * sizeof *row);
  if (!row)
    return nomem(diag);
  for (uint64_t x = 0; x <= top; x++)
    row[x] = SIZE_MAX;
  for (size_t i = 0; i < p->n; i++)
    if (one_row(&p->c[i]))
      row[p->c[i].pub.local[0]] = i;
  for (size_t i = 0; i < p->n; i++) {
    cand *c = &p->c[i];
    uint64_t x = c->pub.local[0], full = (x + wsz - 1) / wsz * wsz;
    if (!partial_row(c, wsz) || full > top || row[full] == SIZE_MAX)
      continue;
    cand *f = &p->c[row[full]];
    if (f->pub.stage == WGP_PRUNE_INVALID || f->pub.active_warps_per_sm != c->pub.active_warps_per_sm ||
        f->pub.active_groups_per_sm != c->pub.active_groups_per_sm)
      continue;
    c->idle_rep = row[full];
    f->fills_for = true;
  }
  free(row);
  return WGP_OK;
}

/* C turned invalid during the search: the sizes it stood for with idle
 * lanes go back into heap H, to be searched as any other. */
typedef struct heap heap;
static void heap_push(heap *h, size_t i);
static void revive_idle(wgp_prune *p, heap *h, const cand *c) {
  if (!c->fills_for)
    return;
  size_t me = (size_t)(c - p->c);
  for (size_t i = 0; i < p->n; i++)
    if (p->c[i].idle_rep == me) {
      p->c[i].idle_rep = SIZE_MAX;
      heap_push(h, i);
    }
}

/* ---- taking a size one level further -------------------------------------- */

/* The work of C's next level into PR; reads only C and what every thread
 * shares (kernel, GPU, the launch of C), so any thread may do it. */
static void prepare(const wgp_prune *p, const cand *c, prepared *pr) {
  memset(pr, 0, sizeof *pr);
  pr->level = c->level;
  if (c->level == 0) {
    /* level 1: the analysis (traces, memory costs), its stage 1 key and its
     * bounds for any hit rates (every access hitting, every one missing) */
    pr->st = wgp_analyze(&c->in, &pr->an, &pr->d);
    if (pr->st != WGP_OK || wgp_analysis_partial(pr->an)) /* partial: discarded, no bounds needed */
      return;
    uint64_t threads = c->pub.local[0] * c->pub.local[1] * c->pub.local[2];
    unsigned wsz = wgp_gpu_warp_size(p->gpu);
    pr->key = round_key(c, pr->an, p->k, (unsigned)((threads + wsz - 1) / wsz));
    pr->st2 = wgp_analysis_bounds(&c->in, pr->an, c->regs, &pr->best_us, &pr->worst_us, &pr->d2);
  } else if (c->level == 1) {
    /* level 2: the cache analysis and the exact bounds */
    pr->st = wgp_estimate_with_analysis(&c->in, c->an, p->regs_override, &pr->est, &pr->d);
    if (pr->st == WGP_OK)
      pr->st2 = wgp_estimate_simulate(pr->est, WGP_SIM_BOUNDS_ONLY, &pr->r, &pr->d2);
  } else {
    pr->st = wgp_estimate_simulate(c->est, 0, &pr->r, &pr->d); /* level 3 */
  }
}

/* A result nobody took (the search ended first). */
static void discard(prepared *pr) {
  if (!pr)
    return;
  wgp_analysis_free(pr->an);
  wgp_estimate_free(pr->est);
  free(pr);
}

/* Level 1 from PR: WGP_ERR_NOMEM fails the search; any other failure makes
 * C invalid. */
static wgp_status commit_analysis(wgp_prune *p, cand *c, prepared *pr, wgp_diag *diag) {
  p->counts.analyses++;
  if (pr->st == WGP_ERR_NOMEM)
    return wgp_diag_set(diag, pr->st, "%s", pr->d.message);
  if (pr->st != WGP_OK) {
    invalidate(c, bare(&pr->d));
    return WGP_OK;
  }
  c->an = pr->an;
  pr->an = NULL;
  c->key = pr->key;
  if (pr->st2 == WGP_ERR_NOMEM)
    return wgp_diag_set(diag, pr->st2, "%s", pr->d2.message);
  if (pr->st2 != WGP_OK) {
    invalidate(c, bare(&pr->d2));
    return WGP_OK;
  }
  /* a size for which the kernel's lanes leave a __local array is not one
   * the kernel is written for (fixed tiles indexed by the local ids) */
  const wgp_mem_stats *tot = wgp_analysis_total_stats(c->an);
  for (size_t i = 0; i < wgp_kernel_num_accesses(p->k); i++)
    if (tot[i].outside > 0) {
      const wgp_access *a = wgp_kernel_access(p->k, i);
      const char *arr = wgp_access_base_name(a);
      long arg = wgp_access_base_arg(a);
      if (!arr && arg >= 0 && (size_t)arg < wgp_kernel_num_args(p->k))
        arr = wgp_arg_name(wgp_kernel_arg(p->k, (size_t)arg));
      char why[320];
      snprintf(why, sizeof why,
               "M%zu (%s, %s) %s up to %.0f bytes outside its __local array: the kernel is not written for "
               "this work-group size",
               i, arr ? arr : "?", wgp_access_source(a) ? wgp_access_source(a) : "?",
               wgp_access_get_kind(a) == WGP_ACCESS_LOAD ? "reads" : "writes", tot[i].outside_reach);
      invalidate(c, why);
      return WGP_OK;
    }
  if (wgp_analysis_partial(c->an)) /* it ended at a warp outside an array: never without one */
    return wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: internal: a partial analysis without its cause");
  c->cheap_best = c->pub.best_us = c->lb = fmax(pr->best_us, c->pub.best_us);
  c->cheap_worst = c->pub.worst_us = pr->worst_us;
  c->level = 1;
  return WGP_OK;
}

/* The cache analysis from PR: false, with C invalid, when it failed. */
static bool commit_estimate(wgp_prune *p, cand *c, prepared *pr) {
  if (pr->st != WGP_OK) {
    invalidate(c, bare(&pr->d));
    return false;
  }
  c->est = pr->est;
  pr->est = NULL;
  p->counts.cache_analyses++;
  return true;
}

/* The simulation from PR: false, with C invalid, when it failed. */
static bool commit_simulation(wgp_prune *p, cand *c, prepared *pr) {
  if (pr->st != WGP_OK) {
    invalidate(c, bare(&pr->d));
    return false;
  }
  c->pub.sim = pr->r;
  c->pub.simulated = true;
  p->ranked[p->nranked++] = (size_t)(c - p->c);
  return true;
}

/* ---- search threads -------------------------------------------------------- */

/* Takes the first queued job and does it, p->mu released meanwhile (call
 * with it held and the queue not empty). */
static void run_queued(wgp_prune *p) {
  cand *c = &p->c[p->queue[0]];
  memmove(p->queue, p->queue + 1, --p->nq * sizeof *p->queue);
  c->job = JOB_RUNNING;
  p->running++;
  pthread_mutex_unlock(&p->mu);
  prepared *pr = malloc(sizeof *pr);
  if (pr)
    prepare(p, c, pr);
  pthread_mutex_lock(&p->mu);
  c->prep = pr; /* NULL (out of memory): the search does the work itself */
  c->job = pr ? JOB_DONE : JOB_NONE;
  p->running--;
  pthread_cond_broadcast(&p->done);
}

static void *worker_main(void *arg) {
  wgp_prune *p = arg;
  pthread_mutex_lock(&p->mu);
  for (;;) {
    while (!p->quit && p->nq == 0)
      pthread_cond_wait(&p->work, &p->mu);
    if (p->quit)
      break;
    run_queued(p);
  }
  pthread_mutex_unlock(&p->mu);
  return NULL;
}

/* Starts THREADS - 1 search threads (fewer when the system refuses). */
static void start_workers(wgp_prune *p, unsigned threads) {
  if (threads < 2 || pthread_mutex_init(&p->mu, NULL) != 0)
    return;
  if (pthread_cond_init(&p->work, NULL) != 0 || pthread_cond_init(&p->done, NULL) != 0) {
    pthread_mutex_destroy(&p->mu); /* a condition made before stays unused */
    return;
  }
  for (unsigned t = 1; t < threads && t < WGP_MAX_THREADS; t++) {
    if (pthread_create(&p->workers[p->nworkers], NULL, worker_main, p) != 0)
      break;
    p->nworkers++;
  }
  if (!p->nworkers) {
    pthread_cond_destroy(&p->work), pthread_cond_destroy(&p->done), pthread_mutex_destroy(&p->mu);
    return;
  }
  /* each candidate's analysis then runs on its thread alone */
  for (size_t i = 0; i < p->n; i++)
    p->c[i].in.threads = 1;
}

/* Stops the search threads; their results nobody took are dropped. */
static void stop_workers(wgp_prune *p) {
  if (!p->nworkers)
    return;
  pthread_mutex_lock(&p->mu);
  p->quit = true;
  pthread_cond_broadcast(&p->work);
  pthread_mutex_unlock(&p->mu);
  for (unsigned t = 0; t < p->nworkers; t++)
    pthread_join(p->workers[t], NULL);
  p->nworkers = 0;
  for (size_t i = 0; i < p->n; i++) {
    discard(p->c[i].prep);
    p->c[i].prep = NULL;
    p->c[i].job = JOB_NONE;
  }
  pthread_cond_destroy(&p->work), pthread_cond_destroy(&p->done), pthread_mutex_destroy(&p->mu);
}

/* Settles C's job: unqueued when still queued; when a search thread is at
 * it, waited for, this thread taking up queued work meanwhile.  Then C's job
 * is JOB_NONE or JOB_DONE, and no other thread reads C until this one
 * queues it again.  Call with p->mu held. */
static void settle(wgp_prune *p, cand *c) {
  if (c->job == JOB_QUEUED) {
    size_t at = 0, i = (size_t)(c - p->c);
    while (p->queue[at] != i)
      at++;
    memmove(p->queue + at, p->queue + at + 1, (--p->nq - at) * sizeof *p->queue);
    c->job = JOB_NONE;
  }
  while (c->job == JOB_RUNNING) {
    if (p->nq)
      run_queued(p);
    else
      pthread_cond_wait(&p->done, &p->mu);
  }
}

/* The result of C's next level in PR (caller-owned): taken from a search
 * thread when one did it, else done here. */
static void obtain(wgp_prune *p, cand *c, prepared *pr) {
  if (p->nworkers) {
    pthread_mutex_lock(&p->mu);
    settle(p, c);
    prepared *done = c->job == JOB_DONE ? c->prep : NULL;
    c->prep = NULL;
    c->job = JOB_NONE;
    pthread_mutex_unlock(&p->mu);
    if (done) {
      *pr = *done;
      free(done);
      return;
    }
  }
  prepare(p, c, pr);
}

/* C's work done ahead, not needed: unqueued, or waited for and dropped (a
 * search thread must not read C while this one changes it). */
static void drop_job(wgp_prune *p, cand *c) {
  if (!p->nworkers)
    return;
  pthread_mutex_lock(&p->mu);
  settle(p, c);
  prepared *done = c->prep;
  c->prep = NULL;
  c->job = JOB_NONE;
  pthread_mutex_unlock(&p->mu);
  discard(done);
}

/* Queues the work of the sizes the search will most likely take next: the
 * top of heap H (the best lower bounds), up to one job per thread beyond
 * those already queued or running. */
static void speculate(wgp_prune *p, const heap *h);

/* Level 1: the analysis of C.  WGP_ERR_NOMEM fails the search; any other
 * failure makes C invalid. */
static wgp_status analyze_one(wgp_prune *p, cand *c, wgp_diag *diag) {
  prepared pr;
  obtain(p, c, &pr);
  wgp_status st = commit_analysis(p, c, &pr, diag);
  wgp_analysis_free(pr.an);
  return st;
}

/* The cache analysis of C (once): false, with C invalid, when it fails. */
static bool ensure_estimate(wgp_prune *p, cand *c) {
  if (c->est)
    return true;
  prepared pr;
  obtain(p, c, &pr);
  bool ok = commit_estimate(p, c, &pr);
  wgp_estimate_free(pr.est);
  if (ok)
    c->level = 2; /* what prepare() does next is the simulation */
  return ok;
}

/* Stage 1 without the cache analysis: batches of the analyzed sizes with the
 * same round as far as traces, memory costs and residency go; each one's
 * REP1 is the fewest rounds of its batch. */
static void batches(wgp_prune *p, keyed *scratch) {
  size_t nv = 0;
  size_t *idx = malloc((p->n ? p->n : 1) * sizeof *idx);
  if (!idx)
    return; /* no batches: sizes without a cache analysis are then reported as dropped by bounds */
  for (size_t i = 0; i < p->n; i++) {
    p->c[i].rep1 = i;
    if (p->c[i].pub.stage != WGP_PRUNE_INVALID && p->c[i].level >= 1)
      idx[nv++] = i;
  }
  sort_by(idx, nv, scratch, p->c, BY_KEY);
  for (size_t b = 0; b < nv;) {
    size_t e = b, best = idx[b];
    for (; e < nv && p->c[idx[e]].key == p->c[idx[b]].key; e++)
      if (better_rep(&p->c[idx[e]], idx[e], &p->c[best], best))
        best = idx[e];
    for (size_t q = b; q < e; q++)
      p->c[idx[q]].rep1 = best;
    b = e;
  }
  free(idx);
}

/* KEY with the hit rates of C's cache analysis: the sizes of one batch have
 * the same round only when their caches behave alike too (the hit rates
 * come from each size's own address stream, which changes with the shape of
 * the group: a 256x4 and a 128x4 matrix multiply differ by 36%). */
static uint64_t key_with_cache(const cand *c) {
  const wgp_cache_result *r = wgp_estimate_cache(c->est);
  uint64_t h = mix(c->key, r->l2_warm);
  for (size_t a = 0; a < r->num_accesses; a++) {
    h = mix(h, dbits(r->l1_hit[a]));
    h = mix(h, dbits(r->l2_hit[a]));
    h = mix(h, dbits(r->dram_rows ? r->dram_rows[a] : -1));
    h = mix(h, dbits(r->last_l1 ? r->last_l1[a] : -1));
    h = mix(h, dbits(r->last_dram ? r->last_dram[a] : -1));
  }
  return h;
}

/* A binary heap of candidate indices by best case (smallest on top). */
struct heap {
  size_t *v, n;
  const cand *c;
};

/* smallest lower bound first; on a tie the size further along (a time
 * known sooner), then the first enumerated */
static bool heap_less(const heap *h, size_t a, size_t b) {
  const cand *x = &h->c[h->v[a]], *y = &h->c[h->v[b]];
  if (x->lb != y->lb)
    return x->lb < y->lb;
  if (x->level != y->level)
    return x->level > y->level;
  return h->v[a] < h->v[b];
}

static void heap_swap(heap *h, size_t a, size_t b) {
  size_t t = h->v[a];
  h->v[a] = h->v[b];
  h->v[b] = t;
}

static void heap_push(heap *h, size_t i) {
  size_t k = h->n++;
  h->v[k] = i;
  while (k > 0 && heap_less(h, k, (k - 1) / 2)) {
    heap_swap(h, k, (k - 1) / 2);
    k = (k - 1) / 2;
  }
}

static size_t heap_pop(heap *h) {
  size_t top = h->v[0];
  h->v[0] = h->v[--h->n];
  for (size_t k = 0;;) {
    size_t l = 2 * k + 1, r = l + 1, m = k;
    if (l < h->n && heap_less(h, l, m))
      m = l;
    if (r < h->n && heap_less(h, r, m))
      m = r;
    if (m == k)
      break;
    heap_swap(h, k, m);
    k = m;
  }
  return top;
}

/* Simulates C (its estimate exists): false, with C invalid, on failure. */
static bool simulate(wgp_prune *p, cand *c) {
  prepared pr;
  obtain(p, c, &pr);
  if (pr.level < 2) { /* never: the callers estimate first */
    wgp_analysis_free(pr.an);
    wgp_estimate_free(pr.est);
    invalidate(c, "internal: simulated before its cache analysis");
    return false;
  }
  return commit_simulation(p, c, &pr);
}

static void speculate(wgp_prune *p, const heap *h) {
  if (!p->nworkers || !h->n)
    return;
  /* the few entries at the top of the heap, best first */
  size_t top[15], nt = 0;
  for (size_t k = 0; k < h->n && nt < sizeof top / sizeof *top; k++) {
    size_t j = nt++;
    top[j] = k;
    for (; j > 0 && heap_less(h, top[j], top[j - 1]); j--) {
      size_t t = top[j];
      top[j] = top[j - 1];
      top[j - 1] = t;
    }
  }
  pthread_mutex_lock(&p->mu);
  /* work for every thread, and three more jobs that this one takes up while
   * it waits for another's (with one, two threads were busy 1.5 cores of 2 on
   * hotspot and backprop searches; with three 1.9, the same CPU time) */
  size_t busy = p->nq + p->running;
  bool queued = false;
  for (size_t t = 0; t < nt && busy < p->nworkers + 3 && p->nq < MAX_QUEUE; t++) {
    cand *c = &p->c[h->v[top[t]]];
    if (c->job != JOB_NONE || c->level > 2)
      continue;
    c->job = JOB_QUEUED;
    p->queue[p->nq++] = h->v[top[t]];
    busy++;
    queued = true;
  }
  if (queued)
    pthread_cond_broadcast(&p->work);
  pthread_mutex_unlock(&p->mu);
}

/* The N smallest upper bounds of distinct sizes (options.top = N), sorted:
 * N sizes take at most the last, W_N, so a size whose lower bound is above
 * it is not among the N fastest.  A size's bound only falls while it stays
 * valid, so the N smallest are kept as they come (N is small next to the
 * sizes); one that turns invalid is taken out and the set rebuilt. */
typedef struct nbest {
  double *v;
  size_t *i, n, cap;
} nbest;

/* W_N: infinite until N sizes have an upper bound. */
static double nbest_bound(const nbest *b) { return b->cap && b->n == b->cap ? b->v[b->n - 1] : INFINITY; }

/* Candidate I of C is at most UB. */
static void nbest_note(nbest *b, cand *c, size_t i, double ub) {
  if (!b->cap || !(ub < c[i].ub))
    return;
  c[i].ub = ub;
  size_t at = 0;
  if (c[i].in_nbest) {
    while (b->i[at] != i)
      at++;
  } else if (b->n < b->cap) {
    at = b->n++;
  } else if (ub < b->v[b->n - 1]) {
    at = b->n - 1; /* the largest leaves */
    c[b->i[at]].in_nbest = false;
  } else {
    return;
  }
  for (; at > 0 && b->v[at - 1] > ub; at--)
    b->v[at] = b->v[at - 1], b->i[at] = b->i[at - 1];
  b->v[at] = ub, b->i[at] = i;
  c[i].in_nbest = true;
}

/* Candidate I of C[0..n) turned invalid: its bound no longer stands for a
 * size that can run. */
static void nbest_forget(nbest *b, cand *c, size_t n, size_t i) {
  c[i].ub = INFINITY;
  if (!c[i].in_nbest)
    return;
  b->n = 0;
  for (size_t j = 0; j < n; j++)
    c[j].in_nbest = false;
  for (size_t j = 0; j < n; j++)
    if (c[j].pub.stage != WGP_PRUNE_INVALID && c[j].ub < INFINITY) {
      double ub = c[j].ub;
      c[j].ub = INFINITY;
      nbest_note(b, c, j, ub);
    }
}

/* Stages 1 to 3 as one best-first branch and bound (Algorithm 4 with
 * bounds in three tiers and the best simulated time as the incumbent):
 * - W, the smallest upper bound known on any size's time: worst cases (for
 *   any hit rates once a size is analyzed, exact once its cache is) and
 *   simulated times.
 * - Repeatedly take the size with the smallest lower bound: block dispatch
 *   before its analysis, its best case for any hit rates after it, its
 *   exact best case after its cache analysis.  Stop when that is above W
 *   (every other size is then provably no faster than the incumbent).
 *   Otherwise take the size one step further: analyze it, or analyze its
 *   cache (exact bounds), or simulate it, unless stage 1 finds a size with
 *   the same round (KEY2: the same traces, memory costs, residency and hit
 *   rates) and no more rounds and groups among the cache-analyzed ones.
 * - What was not simulated: a duplicate (stage 1) when such a size exists
 *   (by KEY before its cache analysis, the paper's stage 1), else dropped
 *   by bounds (stage 2).
 * With O->top = N, W_N (struct nbest) replaces W: the search stops when the
 *   smallest lower bound is above it (a tie may be among the first N), and
 *   a twin is simulated instead of skipped.  The order the sizes are taken
 *   in is the same; W_N falls as they are (N upper bounds are known after N
 *   analyses, and the simulated times replace them). */
static wgp_status search(wgp_prune *p, const wgp_prune_options *o, keyed *scratch, wgp_diag *diag) {
  double w = INFINITY, incumbent = INFINITY;
  uint64_t inc_items = UINT64_MAX; /* the smallest group simulated at the incumbent time */
  size_t nv = 0;
  for (size_t i = 0; i < p->n; i++)
    nv += p->c[i].pub.stage != WGP_PRUNE_INVALID;
  /* with more than nv, no N sizes ever have a bound: W_N stays infinite */
  size_t ncap = o->top && o->top <= nv ? o->top : 0;
  size_t *analyzed = malloc((nv ? nv : 1) * sizeof *analyzed), na = 0;
  heap h = {malloc((nv ? nv : 1) * sizeof *h.v), 0, p->c};
  nbest nb = {ncap ? malloc(ncap * sizeof *nb.v) : NULL, ncap ? malloc(ncap * sizeof *nb.i) : NULL, 0, ncap};
  if (!analyzed || !h.v || (ncap && (!nb.v || !nb.i))) {
    free(analyzed), free(h.v), free(nb.v), free(nb.i);
    return nomem(diag);
  }
  for (size_t i = 0; i < p->n; i++) {
    p->c[i].ub = INFINITY;
    if (p->c[i].pub.stage != WGP_PRUNE_INVALID && p->c[i].idle_rep == SIZE_MAX)
      heap_push(&h, i);
  }
  start_workers(p, o->threads ? o->threads : wgp_default_threads());
  wgp_status st = WGP_OK;
  while (h.n && st == WGP_OK) {
    double lo = p->c[h.v[0]].lb;
    if (o->top ? lo > nbest_bound(&nb) : lo > w)
      break;
    size_t i = heap_pop(&h);
    cand *c = &p->c[i];
    /* at best as fast as the incumbent, and no smaller a group: ranked after it */
    if (!o->top && lo == w && incumbent <= w && group_items(c) >= inc_items) {
      drop_job(p, c);
      continue;
    }
    speculate(p, &h);
    if (c->level == 0) {
      if (o->progress)
        o->progress(o->progress_user, "analyzing", p->counts.analyses + 1, nv);
      st = analyze_one(p, c, diag);
      if (st == WGP_OK && c->pub.stage == WGP_PRUNE_INVALID)
        revive_idle(p, &h, c);
      if (st != WGP_OK || c->pub.stage == WGP_PRUNE_INVALID)
        continue;
      w = fmin(w, c->cheap_worst);
      nbest_note(&nb, p->c, i, c->cheap_worst);
      heap_push(&h, i);
    } else if (c->level == 1) {
      if (o->progress)
        o->progress(o->progress_user, "bounding", p->counts.cache_analyses + 1, nv);
      prepared pr;
      obtain(p, c, &pr);
      bool ok = commit_estimate(p, c, &pr);
      wgp_estimate_free(pr.est);
      if (ok && pr.st2 != WGP_OK)
        invalidate(c, bare(&pr.d2)), ok = false;
      if (!ok) {
        nbest_forget(&nb, p->c, p->n, i);
        revive_idle(p, &h, c);
        continue;
      }
      wgp_sim_result r = pr.r;
      /* never looser than the bounds before (they hold as well) */
      c->pub.best_us = c->lb = fmax(r.best_us, c->pub.best_us);
      c->pub.worst_us = fmin(r.worst_us, c->pub.worst_us);
      c->pub.exact_bounds = true;
      c->key2 = key_with_cache(c);
      c->level = 2;
      w = fmin(w, c->pub.worst_us);
      nbest_note(&nb, p->c, i, c->pub.worst_us);
      analyzed[na++] = i;
      heap_push(&h, i);
    } else {
      size_t rep = SIZE_MAX;
      for (size_t j = 0; !o->top && j < na && rep == SIZE_MAX; j++) {
        const cand *o2 = &p->c[analyzed[j]];
        if (analyzed[j] != i && o2->pub.stage != WGP_PRUNE_INVALID && o2->key2 == c->key2 &&
            dominates(o2, analyzed[j], c, i))
          rep = analyzed[j];
      }
      if (rep != SIZE_MAX) {
        drop_job(p, c); /* its simulation, done ahead, is not needed */
        c->level = 3;
        c->pub.stage = WGP_PRUNE_DUPLICATE;
        c->pub.rep = rep;
        continue;
      }
      c->level = 3;
      if (o->progress)
        o->progress(o->progress_user, "simulating", p->nranked + 1, nv);
      if (simulate(p, c)) {
        double t = c->pub.sim.time_us;
        if (t < incumbent || (t == incumbent && group_items(c) < inc_items))
          inc_items = group_items(c);
        incumbent = fmin(incumbent, t);
        w = fmin(w, c->pub.sim.time_us);
        nbest_note(&nb, p->c, i, c->pub.sim.time_us);
      } else {
        nbest_forget(&nb, p->c, p->n, i);
        revive_idle(p, &h, c);
      }
    }
  }
  stop_workers(p);
  free(nb.v), free(nb.i);
  if (st != WGP_OK) {
    free(analyzed), free(h.v);
    return st;
  }
  batches(p, scratch);
  size_t *idx = h.v; /* reused: the valid sizes */
  nv = 0;
  for (size_t i = 0; i < p->n; i++)
    if (p->c[i].pub.stage != WGP_PRUNE_INVALID)
      idx[nv++] = i;
  /* what was not simulated: a duplicate when a size of its batch has fewer
   * rounds (by KEY2 among the analyzed sizes, by KEY before any cache
   * analysis), else dropped by bounds */
  for (size_t i = 0; i < nv; i++) {
    cand *c = &p->c[idx[i]];
    if (c->pub.stage != WGP_PRUNE_SURVIVOR || c->pub.simulated)
      continue;
    c->pub.stage = WGP_PRUNE_BOUND;
    if (c->idle_rep != SIZE_MAX) {
      /* left out for idle lanes where its own bound would not have ruled it
       * out (else by that bound, as the search would have: the exactness
       * of the search stands) and the size filling its warps was analyzed
       * (one never analyzed was ruled out by a bound no larger) */
      if (c->lb <= w && p->c[c->idle_rep].level >= 1) {
        c->pub.stage = WGP_PRUNE_IDLE_LANES;
        c->pub.rep = c->idle_rep;
      }
      continue;
    }
    if (!c->pub.exact_bounds && c->rep1 != idx[i] && dominates(&p->c[c->rep1], c->rep1, c, idx[i])) {
      c->pub.stage = WGP_PRUNE_DUPLICATE;
      c->pub.rep = c->rep1;
    }
    for (size_t j = 0; c->pub.exact_bounds && j < na; j++) {
      const cand *o2 = &p->c[analyzed[j]];
      if (analyzed[j] != idx[i] && o2->pub.stage != WGP_PRUNE_INVALID && o2->key2 == c->key2 &&
          dominates(o2, analyzed[j], c, idx[i]) &&
          (c->pub.stage != WGP_PRUNE_DUPLICATE || better_rep(o2, analyzed[j], &p->c[c->pub.rep], c->pub.rep))) {
        c->pub.stage = WGP_PRUNE_DUPLICATE;
        c->pub.rep = analyzed[j];
      }
    }
  }
  /* representatives that are duplicates themselves: follow to the end of
   * the chain (better_rep is a strict order, so chains end) */
  for (size_t i = 0; i < nv; i++) {
    cand *c = &p->c[idx[i]];
    if (c->pub.stage != WGP_PRUNE_DUPLICATE)
      continue;
    for (size_t hops = 0; hops < nv && p->c[c->pub.rep].pub.stage == WGP_PRUNE_DUPLICATE; hops++)
      c->pub.rep = p->c[c->pub.rep].pub.rep;
  }
  free(analyzed), free(h.v);
  return WGP_OK;
}

/* Ties in the first EXACT ranks (group_items): a size the duplicate pruning
 * left out (the same round as a ranked one, with no fewer rounds or groups, so
 * no faster) and with a smaller group is simulated too; where it is as fast,
 * it ranks before its representative, as --exhaustive ranks them. */
static wgp_status settle_ties(wgp_prune *p, size_t exact, keyed *scratch, wgp_diag *diag) {
  sort_by(p->ranked, p->nranked, scratch, p->c, BY_TIME);
  size_t reps = exact < p->nranked ? exact : p->nranked;
  size_t *rep = malloc((reps ? reps : 1) * sizeof *rep);
  if (!rep)
    return nomem(diag);
  memcpy(rep, p->ranked, reps * sizeof *rep);
  wgp_status st = WGP_OK;
  for (size_t r = 0; r < reps && st == WGP_OK; r++) {
    const cand *b = &p->c[rep[r]];
    for (size_t i = 0; i < p->n && st == WGP_OK; i++) {
      cand *c = &p->c[i];
      if (c->pub.stage != WGP_PRUNE_DUPLICATE || c->pub.rep != rep[r] || group_items(c) >= group_items(b) ||
          c->lb > b->pub.sim.time_us) /* its lower bound rules a tie out */
        continue;
      if (!c->an && !c->est) {
        st = analyze_one(p, c, diag);
        if (st != WGP_OK || c->pub.stage == WGP_PRUNE_INVALID)
          continue;
      }
      if (ensure_estimate(p, c))
        simulate(p, c); /* ranked, still a duplicate by the stages' counts */
    }
  }
  free(rep);
  return st;
}

wgp_status wgp_prune_run(const wgp_kernel *k, const wgp_gpu *gpu, const wgp_prune_options *o, wgp_prune **out,
                         wgp_diag *diag) {
  *out = NULL;
  if (!k || !gpu || !o || !o->launch)
    return wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: the search needs a kernel, a GPU and a launch");
  if (wgp_launch_dims(o->launch) == 0)
    return wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: the launch has no global size (--global X[,Y[,Z]])");
  if (o->num_local_args && (!o->local_arg_names || !o->local_arg_exprs))
    return wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: __local sizes without names or expressions");
  if (o->num_restrictions && !o->restrictions)
    return wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: restrictions without expressions");
  for (size_t r = 0; r < o->num_restrictions; r++)
    if (!wgp_size_expr_valid(o->restrictions[r]))
      return wgp_diag_set(diag, WGP_ERR_INPUT,
                          "wgperf: error: --restrict '%s': bad expression (use lx, ly, lz, integers, + - * / %% "
                          "( ), == != < <= > >=, && || !)",
                          o->restrictions[r] ? o->restrictions[r] : "");
  for (size_t a = 0; a < o->num_local_args; a++) {
    uint64_t probe[3] = {1, 1, 1}, v;
    if (!wgp_size_expr_eval(o->local_arg_exprs[a], probe, &v))
      return wgp_diag_set(diag, WGP_ERR_INPUT,
                  "wgperf: error: --local-arg %s=%s: bad expression (use lx, ly, lz, integers, + - * / and "
                  "parentheses)",
                  o->local_arg_names[a], o->local_arg_exprs[a]);
  }
  wgp_prune *p = calloc(1, sizeof *p);
  if (!p)
    return nomem(diag);
  p->k = k;
  p->gpu = gpu;
  p->dims = wgp_launch_dims(o->launch);
  p->fixed_grid = o->grid != NULL;
  for (unsigned d = 0; d < 3; d++)
    p->grid[d] = o->grid && d < p->dims ? o->grid[d] : 1;
  p->regs = wgp_kernel_registers_on(k, gpu, o->regs, NULL, NULL, 0);
  p->regs_override = o->regs;
  p->num_local_args = o->num_local_args;
  size_t nl = o->num_local_args ? o->num_local_args : 1, nt = o->num_trip_hints ? o->num_trip_hints : 1,
         nk = o->num_taken_hints ? o->num_taken_hints : 1;
  p->local_arg_index = calloc(nl, sizeof *p->local_arg_index);
  p->local_exprs = calloc(nl, sizeof *p->local_exprs);
  p->trip_loops = calloc(nt, sizeof *p->trip_loops);
  p->trip_counts = calloc(nt, sizeof *p->trip_counts);
  p->taken_blocks = calloc(nk, sizeof *p->taken_blocks);
  p->taken_fractions = calloc(nk, sizeof *p->taken_fractions);
  wgp_status st = WGP_OK;
  if (!p->local_arg_index || !p->local_exprs || !p->trip_loops || !p->trip_counts || !p->taken_blocks ||
      !p->taken_fractions)
    st = nomem(diag);
  for (size_t a = 0; st == WGP_OK && a < o->num_local_args; a++)
    if (!(p->local_exprs[a] = strdup(o->local_arg_exprs[a])))
      st = nomem(diag);
  if (st == WGP_OK) {
    if (o->num_trip_hints) {
      memcpy(p->trip_loops, o->trip_loops, o->num_trip_hints * sizeof *p->trip_loops);
      memcpy(p->trip_counts, o->trip_counts, o->num_trip_hints * sizeof *p->trip_counts);
    }
    if (o->num_taken_hints) {
      memcpy(p->taken_blocks, o->taken_blocks, o->num_taken_hints * sizeof *p->taken_blocks);
      memcpy(p->taken_fractions, o->taken_fractions, o->num_taken_hints * sizeof *p->taken_fractions);
    }
    st = bind_template(p, o, diag);
  }
  double t0 = now_ms();
  if (st == WGP_OK)
    st = enumerate_all(p, o, diag);
  if (st == WGP_OK && wgp_launch_nonuniform(o->launch) && !o->partial_warps && !o->top && !p->fixed_grid)
    st = assign_idle_reps(p, diag);
  double t1 = now_ms();
  keyed *scratch = NULL;
  if (st == WGP_OK) {
    scratch = malloc((p->n ? p->n : 1) * sizeof *scratch);
    p->ranked = malloc((p->n ? p->n : 1) * sizeof *p->ranked);
    if (!scratch || !p->ranked)
      st = nomem(diag);
  }
  if (st == WGP_OK) {
    size_t valid = 0, first_bad = SIZE_MAX;
    for (size_t i = 0; i < p->n; i++) {
      valid += p->c[i].pub.stage != WGP_PRUNE_INVALID;
      if (p->c[i].pub.stage == WGP_PRUNE_INVALID && first_bad == SIZE_MAX)
        first_bad = i;
    }
    if (!valid) {
      if (first_bad == SIZE_MAX && p->restricted)
        st = wgp_diag_set(diag, WGP_ERR_INPUT,
                          "wgperf: error: no work-group size to try: --restrict excluded all %zu sizes the GPU and "
                          "the global size allow",
                          p->restricted);
      else if (first_bad == SIZE_MAX)
        st = wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: no work-group size to try");
      else
        st = wgp_diag_set(diag, WGP_ERR_INPUT,
                          "wgperf: error: none of the %zu work-group sizes can run (%llux%llux%llu: %s)", p->n,
                          (unsigned long long)p->c[first_bad].pub.local[0],
                          (unsigned long long)p->c[first_bad].pub.local[1],
                          (unsigned long long)p->c[first_bad].pub.local[2], p->c[first_bad].why);
    }
  }
  double t2 = t1;
  if (st == WGP_OK)
    st = search(p, o, scratch, diag);
  if (st == WGP_OK && !(o->flags & WGP_PRUNE_EXHAUSTIVE))
    st = settle_ties(p, o->top ? o->top : 1, scratch, diag);
  if (st == WGP_OK) {
    t2 = now_ms();
    if (o->flags & WGP_PRUNE_EXHAUSTIVE)
      for (size_t i = 0, done = 0; i < p->n && st == WGP_OK; i++) {
        cand *c = &p->c[i];
        if (c->pub.stage == WGP_PRUNE_INVALID || c->pub.simulated)
          continue;
        if (o->progress)
          o->progress(o->progress_user, "simulating", ++done, p->n - p->nranked);
        if (!c->an && !c->est) {
          st = analyze_one(p, c, diag);
          if (st != WGP_OK || c->pub.stage == WGP_PRUNE_INVALID)
            continue;
        }
        if (ensure_estimate(p, c))
          simulate(p, c);
      }
  }
  if (st == WGP_OK) {
    sort_by(p->ranked, p->nranked, scratch, p->c, BY_TIME);
    wgp_prune_counts *n = &p->counts;
    n->total = p->n;
    n->restricted = p->restricted;
    for (size_t i = 0; i < p->n; i++) {
      wgp_prune_stage s = p->c[i].pub.stage;
      n->valid += s != WGP_PRUNE_INVALID;
      n->idle_lanes += s == WGP_PRUNE_IDLE_LANES;
      n->after_duplicates += s == WGP_PRUNE_BOUND || s == WGP_PRUNE_SURVIVOR;
      n->after_bounds += s == WGP_PRUNE_SURVIVOR;
      n->simulated += p->c[i].pub.simulated;
    }
    /* sizes left out for idle lanes were never proven slower */
    size_t exact = o->flags & WGP_PRUNE_EXHAUSTIVE ? p->nranked : n->idle_lanes ? 0 : o->top ? o->top : 1;
    n->exact_ranks = exact < p->nranked ? exact : p->nranked;
    n->enumeration_ms = t1 - t0;
    n->search_ms = t2 - t1;
    n->exhaustive_ms = now_ms() - t2;
  }
  free(scratch);
  if (st != WGP_OK) {
    wgp_prune_free(p);
    return st;
  }
  *out = p;
  return WGP_OK;
}

void wgp_prune_free(wgp_prune *p) {
  if (!p)
    return;
  for (size_t i = 0; i < p->n; i++) {
    wgp_estimate_free(p->c[i].est);
    wgp_analysis_free(p->c[i].an);
    free(p->c[i].local_bytes);
    free(p->c[i].why);
  }
  free(p->c);
  for (size_t a = 0; p->local_exprs && a < p->num_local_args; a++)
    free(p->local_exprs[a]);
  free(p->local_exprs);
  free(p->local_arg_index);
  free(p->trip_loops), free(p->trip_counts), free(p->taken_blocks), free(p->taken_fractions);
  free(p->align), free(p->fixed_local), free(p->buffer_bytes);
  free(p->ranked);
  wgp_launch_free(p->tmpl);
  free(p);
}

size_t wgp_prune_num_candidates(const wgp_prune *p) { return p->n; }
const wgp_prune_candidate *wgp_prune_candidate_at(const wgp_prune *p, size_t i) {
  return i < p->n ? &p->c[i].pub : NULL;
}
void wgp_prune_get_counts(const wgp_prune *p, wgp_prune_counts *out) { *out = p->counts; }
size_t wgp_prune_num_ranked(const wgp_prune *p) { return p->nranked; }
size_t wgp_prune_ranked(const wgp_prune *p, size_t rank) { return rank < p->nranked ? p->ranked[rank] : SIZE_MAX; }
unsigned wgp_prune_registers(const wgp_prune *p) { return p->regs; }
bool wgp_prune_idle_rule_refused(const wgp_prune *p, const char **where) {
  if (where)
    *where = p->idle_refused ? p->idle_where : NULL;
  return p->idle_refused;
}
unsigned wgp_prune_dims(const wgp_prune *p) { return p->dims; }

wgp_status wgp_prune_outside(const wgp_prune *p, size_t i, size_t max, size_t *arg, double *lo, double *hi,
                             size_t *count, wgp_diag *diag) {
  *count = 0;
  if (i >= p->n || p->c[i].pub.stage == WGP_PRUNE_INVALID || !p->c[i].in.kernel)
    return WGP_OK;
  wgp_analysis_input in = p->c[i].in;
  in.stop_outside_local = false;
  return wgp_footprint_outside(&in, max, arg, lo, hi, count, diag);
}
