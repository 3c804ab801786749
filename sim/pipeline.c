/* pipeline.c - one round of resident work-groups on one SM, and kernel time
 * (seeds/004 sec. 5, eq. 1-8).
 *
 * Assumptions (also in docs/simulator.md):
 * - Resident groups per SM from occupancy (eq. 1-7).  The busiest SM runs
 *   ceil(groups / SMs) groups: full rounds of the resident count, then a
 *   partial round of the rest, each simulated (eq. 8 with the last wave
 *   handled).  Blocks are not refilled one by one as real hardware does.
 * - Which warps fill a round: every resident group gets its warps from the
 *   warp classes in proportion to their counts in the launch (largest
 *   remainder, carried over from group to group so the round's mix matches
 *   the launch's), ordered by the class representative's warp index.
 * - Issue: warp i goes to scheduler i mod schedulers_per_sm; a scheduler
 *   issues one instruction per cycle (a block of branch weight w costs w per
 *   instruction), round-robin from the warp after the last one it issued,
 *   or greedy-then-oldest (WGP_SIM_GTO); which scheduler chooses first
 *   rotates with the cycle number so none has priority on the shared
 *   load/store path.
 *   A warp issues when its previous instruction's latency has passed and the
 *   unit it needs is free.
 * - Units (stream.c): each scheduler has its own arithmetic units; the
 *   load/store path is the SM's.
 * - Barriers: a warp that reaches one waits until every warp of its group
 *   has arrived or exited; all leave barrier_base + per_warp x warps cycles
 *   after the last arrival.
 * - Time jumps to the next moment any warp could issue; nothing steps cycle
 *   by cycle through a wait.
 * - Long loops: when every running warp is in the same run of the same loop
 *   and the time per iteration (sampled each time the warps together have
 *   started one more iteration on average) is stable over three windows,
 *   the remaining iterations but a few are skipped and every clock moves
 *   forward by their duration (the state is taken as periodic; warps that
 *   drift apart keep drifting); WGP_SIM_FULL turns this off.
 * - Chip bandwidth: DRAM and L2 are shared by all SMs, so they are not
 *   queued in the one-SM round; the rounds are queued at the SM's share of
 *   the chip's bandwidth afterwards (queued_rounds_us: mean-value analysis
 *   with groups or warps as customers), never below the bytes over the
 *   chip's bandwidth (roofline) nor below the pipeline.
 */
#include "pipeline_internal.h"
#include "wgperf/occupancy.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define WINDOW 8        /* iterations compared for a steady state */
#define HISTORY 128     /* iterations after which the average is taken as steady */
#define MIN_HISTORY 32  /* samples before any skip: enough to see warps drift apart */
#define UNSETTLED 512   /* samples after which a history that never settled is averaged */
#define DRIFT 2         /* growth of the warps' spread, in iterations, taken as drift */
#define MARGIN 2        /* iterations left to simulate after a skip */
#define CLOCK_EXACT 0x1p20 /* past this a skip moves the clocks only by its remainder modulo the schedulers */
#define STABLE_TOL 1e-3 /* relative change of the period accepted as steady, per WINDOW iterations */

/* ACC_TRIPS: a warp's waits for loads served beyond L1 (each weighted by the
 * share of their latency spent there); ACC_ARRIVALS: its barrier arrivals */
enum {
  ACC_ISSUE,
  ACC_COMPUTE,
  ACC_STALL0,
  ACC_BARRIER = ACC_STALL0 + 4,
  ACC_INSNS,
  ACC_PORT_IN,
  ACC_PORT_OUT,
  ACC_TRIPS,
  ACC_ARRIVALS,
  ACC_COUNT
};

typedef enum { W_RUN, W_BARRIER, W_DONE } wstate;

typedef struct frame {
  const wgp_tnode *loop;
  size_t run, run_end; /* runs run..run_end have the same body: one stretch */
  uint64_t iter, count;
  size_t idx;
  uint64_t serial;
  bool emitted; /* the current iteration issued something */
} frame;

typedef struct swarp {
  size_t cls;
  unsigned group, sched;
  const wgp_trace *trace;
  frame *stack;
  size_t depth;
  uint64_t *serials;
  size_t top;
  const wgp_block_stream *cur;
  size_t pos;
  double scale;
  const wgp_insn *next; /* peeked */
  const double *uslot;  /* when the unit next needs is free (a constant -inf when it needs none) */
  double ready, arrive;
  double mem_ready; /* when the loads issued back to back so far have all returned */
  double mem_far;   /* the largest share beyond L1 among those loads */
  uint64_t issued;  /* instructions this warp issued */
  size_t slot;      /* its place in the scheduler's scan arrays (rdy, us) */
  wstate state;
} swarp;

/* The frame a tracker follows for one warp: at the tracker's depth, or the
 * warp's innermost when it is shallower; a warp waiting at a barrier outside
 * any loop is frozen (loop FROZEN, serial its issued count). */
typedef struct fid {
  size_t loop, run, depth;
  uint64_t serial;
} fid;
#define FROZEN SIZE_MAX

typedef struct tracker {
  bool valid; /* ids hold the frames of the current history */
  bool mixed; /* the warps are not all in the same entry of the same loop at this depth */
  size_t active;
  uint64_t prog;
  size_t n;
  uint64_t samples; /* taken in this history (n stops at HISTORY + 1) */
  double t[HISTORY + 1];
  long double sk[HISTORY + 1]; /* the round's skipped time at each sample: durations are t + sk differences */
  double acc[HISTORY + 1][ACC_COUNT];
  uint64_t *it; /* [HISTORY + 1][warps]: each warp's iteration of its frame at each sample */
  fid *id;      /* [warps]: the frame each warp is followed in */
  bool pending;
} tracker;

typedef struct round {
  wgp_sim_ctx *c;
  size_t nw, maxdepth;
  swarp *w;
  unsigned ns, ngroups, wpg;
  double *sched_free;
  double *snext;            /* per scheduler: no warp of it can issue before this */
  size_t *last;             /* per scheduler: the last issued warp's place in its scan (warp s + last x ns), SIZE_MAX: none yet */
  size_t *nper;             /* per scheduler: its warps (s, s + ns, ...) */
  double *unit_free;        /* [scheduler][unit]: the LSU is the SM's, at scheduler 0 */
  unsigned step;            /* rotates which scheduler picks first */
  /* what the schedulers' scan reads, per scheduler in round-robin order
   * (slot s * per + j for warp s + j * schedulers): the warp's ready time
   * (infinite unless it runs) and its unit's slot; kept equal to the warps'
   * own fields by sync() */
  size_t per;
  double *rdy;
  const double **us;
  unsigned *arrived, *done; /* per group */
  tracker *trk;             /* per depth (1-based) */
  double now;
  /* Time skipped by extrapolation, kept apart from the running clocks: at
   * 10^17 cycles a double no longer holds a cycle, and the steps simulated
   * after a skip would be lost (the time fell below the best case).  Past
   * CLOCK_EXACT cycles the clocks move by the skip modulo the number of
   * schedulers (which one picks first depends on the cycle) and the rest is
   * kept here, so they stay small and every later step adds exactly; below,
   * they move by the whole skip as before (same answers).  Long double: the
   * skips of inner loops add up to it many times. */
  long double skipped;
  double acc[ACC_COUNT];
  double issued; /* instructions really simulated */
  size_t active;
  bool extrapolated;
  wgp_diag *diag;
} round_t;

/* ------------------------------------------------------------------------ */
/* Walking a trace lazily                                                   */

/* max/min of two cycle counts (never NaN here): inline, unlike libm's fmax. */
static inline double dmax(double a, double b) { return a > b ? a : b; }
static inline double dmin(double a, double b) { return a < b ? a : b; }

static void track(round_t *r, size_t d);

/* Whether runs A and B of LOOP issue the same instructions: the same blocks
 * with the same weights, nested loops alike (active masks do not matter to
 * the simulator). */
static bool same_run_body(const wgp_tnode *la, size_t a, const wgp_tnode *lb, size_t b) {
  size_t n = wgp_tnode_run_num_nodes(la, a);
  if (n != wgp_tnode_run_num_nodes(lb, b))
    return false;
  for (size_t i = 0; i < n; i++) {
    const wgp_tnode *x = wgp_tnode_run_node(la, a, i), *y = wgp_tnode_run_node(lb, b, i);
    if (x == y)
      continue;
    if (wgp_tnode_get_kind(x) != wgp_tnode_get_kind(y))
      return false;
    if (wgp_tnode_get_kind(x) == WGP_TNODE_BLOCK) {
      if (wgp_tnode_block(x) != wgp_tnode_block(y) || wgp_tnode_weight(x) != wgp_tnode_weight(y))
        return false;
      continue;
    }
    if (wgp_tnode_loop(x) != wgp_tnode_loop(y) || wgp_tnode_num_runs(x) != wgp_tnode_num_runs(y))
      return false;
    for (size_t r = 0; r < wgp_tnode_num_runs(x); r++)
      if (wgp_tnode_run_count(x, r) != wgp_tnode_run_count(y, r) || !same_run_body(x, r, y, r))
        return false;
  }
  return true;
}

/* Enters the first run of FR (from RUN) with a non-zero count; false when
 * none.  The runs after it with the same body join it: the trace splits a
 * loop into runs where the active mask or the sampling changes (the first
 * and last iterations of a sampled stretch), which the simulator does not
 * see, and one stretch lets the steady state be found over all of them (the
 * same instructions in the same order: a full simulation is unchanged). */
static bool enter_run(swarp *w, size_t d, size_t run) {
  frame *f = &w->stack[d - 1];
  size_t nr = wgp_tnode_num_runs(f->loop);
  while (run < nr && wgp_tnode_run_count(f->loop, run) == 0)
    run++;
  if (run >= nr)
    return false;
  f->run = f->run_end = run;
  f->iter = 0;
  f->count = wgp_tnode_run_count(f->loop, run);
  while (f->run_end + 1 < nr &&
         (wgp_tnode_run_count(f->loop, f->run_end + 1) == 0 || same_run_body(f->loop, run, f->loop, f->run_end + 1)) &&
         f->count + wgp_tnode_run_count(f->loop, f->run_end + 1) >= f->count)
    f->count += wgp_tnode_run_count(f->loop, ++f->run_end);
  f->idx = 0;
  f->emitted = false;
  f->serial = ++w->serials[d - 1];
  return true;
}

static const double never_busy = -INFINITY;

static double *unit_slot(const round_t *r, unsigned sched, wgp_unit u);

/* The scheduler's scan reads the unit's slot through the warp: no index
 * arithmetic per warp and cycle. */
static void sync(round_t *r, const swarp *w);

static void set_next(round_t *r, swarp *w, const wgp_insn *i) {
  w->next = i;
  w->uslot = i && i->unit != WGP_UNIT_NONE ? unit_slot(r, w->sched, i->unit) : &never_busy;
  sync(r, w);
}

static void sync(round_t *r, const swarp *w) {
  r->rdy[w->slot] = w->state == W_RUN ? w->ready : INFINITY;
  r->us[w->slot] = w->uslot;
}

/* Peeks W's next instruction into w->next (NULL at the end of its trace). */
static wgp_status peek(round_t *r, swarp *w) {
  if (w->cur && w->pos < w->cur->n) {
    set_next(r, w, &w->cur->insn[w->pos]);
    return WGP_OK;
  }
  w->cur = NULL;
  for (;;) {
    const wgp_tnode *node;
    if (w->depth == 0) {
      if (w->top >= wgp_trace_num_nodes(w->trace)) {
        set_next(r, w, NULL);
        return WGP_OK;
      }
      node = wgp_trace_node(w->trace, w->top++);
    } else {
      frame *f = &w->stack[w->depth - 1];
      if (f->idx < wgp_tnode_run_num_nodes(f->loop, f->run)) {
        node = wgp_tnode_run_node(f->loop, f->run, f->idx++);
      } else {
        if (!f->emitted) /* identical iterations issue nothing: skip them all */
          f->iter = f->count - 1;
        if (++f->iter < f->count) {
          f->idx = 0;
          f->emitted = false;
          track(r, w->depth);
          continue;
        }
        if (!enter_run(w, w->depth, f->run_end + 1))
          w->depth--;
        continue;
      }
    }
    if (wgp_tnode_get_kind(node) == WGP_TNODE_BLOCK) {
      double weight = wgp_tnode_weight(node);
      if (!(weight > 0))
        continue;
      const wgp_block_stream *s;
      wgp_status st = wgp_sim_stream(r->c, w->cls, wgp_tnode_block(node), &s, r->diag);
      if (st != WGP_OK)
        return st;
      if (s->n == 0)
        continue;
      for (size_t d = 0; d < w->depth; d++)
        w->stack[d].emitted = true;
      w->cur = s;
      w->pos = 0;
      w->scale = weight;
      set_next(r, w, &s->insn[0]);
      return WGP_OK;
    }
    if (w->depth >= r->maxdepth)
      return wgp_sim_fail(r->diag, WGP_ERR_INPUT, "trace nests loops deeper than the kernel's %zu loops",
                          r->maxdepth - 1);
    w->depth++;
    w->stack[w->depth - 1] = (frame){.loop = node};
    if (!enter_run(w, w->depth, 0))
      w->depth--;
  }
}

/* ------------------------------------------------------------------------ */
/* Steady state                                                             */

/* The frame tracker D follows warp O in: its frame at depth D, or its
 * innermost when it is in fewer loops (warps may run different loops: warp
 * specialization, branches on the warp's id); a warp waiting at a barrier
 * outside every loop, or done, is frozen.  False for a warp running outside
 * every loop: no steady state holds while it does. */
static bool frame_of(const swarp *o, size_t d, fid *id) {
  if (o->depth == 0 || o->state == W_DONE) {
    if (o->state == W_RUN)
      return false;
    *id = (fid){.loop = FROZEN, .serial = o->state == W_DONE ? UINT64_MAX : o->issued};
    return true;
  }
  size_t e = o->depth < d ? o->depth : d;
  const frame *f = &o->stack[e - 1];
  *id = (fid){.loop = wgp_tnode_loop(f->loop), .run = f->run, .depth = e, .serial = f->serial};
  return true;
}

/* Drops tracker K's history: samples start again when every warp has a frame. */
static void forget(tracker *k) {
  k->valid = false;
  k->n = 0;
  k->samples = 0;
}

static bool same_frame(const fid *a, const fid *b) {
  return a->loop == b->loop && a->run == b->run && a->depth == b->depth && a->serial == b->serial;
}

/* Called when a warp starts a new iteration of its frame at depth D.
 * Progress is the iterations all warps started; a sample is taken each time
 * it grows by the number of running warps (one iteration on average), which
 * is far smoother than following the slowest warp.  A history holds the
 * samples during which every warp stayed in the same frame. */
static void track(round_t *r, size_t d) {
  if (d >= r->maxdepth)
    return;
  tracker *k = &r->trk[d];
  if (k->active != r->active) {
    forget(k);
    k->prog = 0;
    k->active = r->active;
  }
  if (++k->prog % r->active != 0)
    return;
  bool same = k->valid;
  for (size_t i = 0; i < r->nw; i++) {
    fid id;
    if (!frame_of(&r->w[i], d, &id)) {
      forget(k);
      return;
    }
    if (same && !same_frame(&id, &k->id[i]))
      same = false;
    k->id[i] = id;
  }
  if (!same) {
    /* a new history: whether every running warp is in one entry of one
     * loop at this depth (they then advance alike, an iteration a sample;
     * with some frozen, the others go faster) */
    const fid *first = NULL;
    k->mixed = false;
    for (size_t i = 0; i < r->nw; i++) {
      const fid *id = &k->id[i];
      if (id->loop == FROZEN) {
        k->mixed |= r->w[i].state != W_DONE;
        continue;
      }
      if (id->depth != d || (first && !same_frame(id, first)))
        k->mixed = true;
      first = first ? first : id;
    }
    k->valid = true;
    k->n = 0, k->samples = 0;
  }
  if (k->n == HISTORY + 1) {
    memmove(k->t, k->t + 1, HISTORY * sizeof k->t[0]);
    memmove(k->sk, k->sk + 1, HISTORY * sizeof k->sk[0]);
    memmove(k->acc, k->acc + 1, HISTORY * sizeof k->acc[0]);
    memmove(k->it, k->it + r->nw, HISTORY * r->nw * sizeof k->it[0]);
    k->n = HISTORY;
  }
  for (size_t i = 0; i < r->nw; i++)
    k->it[k->n * r->nw + i] = k->id[i].loop == FROZEN ? 0 : r->w[i].stack[k->id[i].depth - 1].iter;
  k->t[k->n] = r->now;
  k->sk[k->n] = r->skipped;
  memcpy(k->acc[k->n], r->acc, sizeof r->acc);
  k->n++;
  k->samples++;
  k->pending = true;
}

static void shift(round_t *r, double dt) {
  if (r->now + dt > CLOCK_EXACT) {
    double keep = fmod(dt, (double)r->ns);
    r->skipped += (long double)dt - keep;
    dt = keep;
  }
  r->now += dt;
  for (unsigned s = 0; s < r->ns; s++) {
    r->sched_free[s] += dt;
    r->snext[s] += dt;
  }
  for (size_t u = 0; u < (size_t)r->ns * WGP_UNIT_COUNT; u++)
    r->unit_free[u] += dt;
  for (size_t i = 0; i < r->nw; i++)
    if (r->w[i].state != W_DONE) {
      r->w[i].ready += dt;
      r->w[i].arrive += dt;
      sync(r, &r->w[i]);
    }
}

/* The time between samples A and B (A before B), skipped time included. */
static double span(const tracker *k, size_t a, size_t b) {
  return (double)((long double)(k->t[b] - k->t[a]) + (k->sk[b] - k->sk[a]));
}

/* Skips iterations at depth D when the tracker there saw a steady state. */
static void try_skip(round_t *r, size_t d) {
  tracker *k = &r->trk[d];
  k->pending = false;
  if (!k->valid || k->n < MIN_HISTORY + 1)
    return;
  /* three consecutive windows of the same length: a transient that still
   * drifts (warps spreading out over the first tens of iterations) fails;
   * longer windows average out the jitter of the issue order */
  size_t n = k->n, win = 0;
  for (size_t w = WINDOW; w <= HISTORY / 4 && 3 * w + 1 <= n && !win; w *= 2) {
    double p2 = span(k, n - 1 - w, n - 1), p1 = span(k, n - 1 - 2 * w, n - 1 - w),
           p0 = span(k, n - 1 - 3 * w, n - 1 - 2 * w);
    double tol = STABLE_TOL * (double)w / WINDOW;
    if (fabs(p2 - p1) <= tol * fabs(p2) && fabs(p1 - p0) <= tol * fabs(p2))
      win = w;
  }
  if (!win) {
    if (k->mixed ? k->samples < UNSETTLED : n < HISTORY + 1)
      return;
    win = HISTORY / 2; /* never settled: take the long-run average */
  }
  /* Warps may drift apart at steady rates (the issue order favours some):
   * when the spread of their iterations grew over the long window, each
   * warp advances by M times its own advance in that window; otherwise all
   * advance alike (the window's jitter is not repeated).  Warps in different
   * loops (or at different depths) always advance by their own rates. */
  size_t wl = n - 1 < HISTORY / 2 ? n - 1 : HISTORY / 2;
  const uint64_t *now_it = k->it + (n - 1) * r->nw, *then_it = k->it + (n - 1 - wl) * r->nw;
  uint64_t lo0 = UINT64_MAX, hi0 = 0, lo1 = UINT64_MAX, hi1 = 0;
  for (size_t i = 0; i < r->nw; i++) {
    if (k->id[i].loop == FROZEN)
      continue;
    lo0 = then_it[i] < lo0 ? then_it[i] : lo0, hi0 = then_it[i] > hi0 ? then_it[i] : hi0;
    lo1 = now_it[i] < lo1 ? now_it[i] : lo1, hi1 = now_it[i] > hi1 ? now_it[i] : hi1;
  }
  if (hi1 < lo1) /* every warp frozen */
    return;
  bool drift = k->mixed || hi1 - lo1 > hi0 - lo0 + DRIFT;
  if (drift)
    win = wl;
  uint64_t m = UINT64_MAX;
  for (size_t i = 0; i < r->nw; i++) {
    const swarp *o = &r->w[i];
    fid id;
    /* every warp still where the history saw it (a warp that finished
     * since the last sample is frozen, and left alone) */
    if (!frame_of(o, d, &id))
      return;
    if (o->state == W_DONE || k->id[i].loop == FROZEN) {
      if (o->state != W_DONE && !same_frame(&id, &k->id[i]))
        return;
      continue;
    }
    if (!same_frame(&id, &k->id[i]))
      return;
    const frame *f = &o->stack[id.depth - 1];
    uint64_t adv = drift ? now_it[i] - then_it[i] : win, rem = f->count - 1 - f->iter;
    /* a warp that went nowhere in its frame may still have moved inside it */
    if (adv == 0 || rem < MARGIN + adv)
      return;
    uint64_t mi = (rem - MARGIN) / adv;
    if (mi < m)
      m = mi;
  }
  if (m == UINT64_MAX || m == 0)
    return;
  double times = (double)m;
  for (int a = 0; a < ACC_COUNT; a++)
    r->acc[a] += times * (k->acc[n - 1][a] - k->acc[n - 1 - win][a]);
  shift(r, times * span(k, n - 1 - win, n - 1));
  size_t shallowest = d;
  for (size_t i = 0; i < r->nw; i++)
    if (r->w[i].state != W_DONE && k->id[i].loop != FROZEN) {
      r->w[i].stack[k->id[i].depth - 1].iter += m * (drift ? now_it[i] - then_it[i] : win);
      shallowest = k->id[i].depth < shallowest ? k->id[i].depth : shallowest;
    }
  /* a warp followed in a shallower frame jumped there: the histories of
   * those depths no longer hold */
  for (size_t e = shallowest; e < d; e++)
    forget(&r->trk[e]);
  k->n = 0;
  k->samples = 0;
  r->extrapolated = true;
}

/* ------------------------------------------------------------------------ */
/* The round                                                                */

static void release_if_complete(round_t *r, unsigned g) {
  if (r->arrived[g] == 0 || r->arrived[g] + r->done[g] < r->wpg)
    return;
  r->arrived[g] = 0;
  for (size_t i = 0; i < r->nw; i++) {
    swarp *w = &r->w[i];
    if (w->group == g && w->state == W_BARRIER) {
      w->ready = r->now + r->c->barrier_cost * w->scale;
      r->acc[ACC_BARRIER] += w->ready - w->arrive;
      if (w->next) {
        w->state = W_RUN;
        r->snext[w->sched] = dmin(r->snext[w->sched], w->ready);
      } else { /* a trailing barrier: the warp exits when released */
        w->state = W_DONE;
        r->active--;
        r->done[g]++;
      }
      sync(r, w);
    }
  }
}

/* After W issued: move past the instruction and peek the next. */
static wgp_status advance(round_t *r, swarp *w) {
  w->pos++;
  wgp_status st = peek(r, w);
  if (st != WGP_OK)
    return st;
  if (!w->next) {
    w->state = W_DONE;
    sync(r, w);
    r->active--;
    r->done[w->group]++;
    release_if_complete(r, w->group);
  }
  return WGP_OK;
}

static double *unit_slot(const round_t *r, unsigned sched, wgp_unit u) {
  return &r->unit_free[(wgp_unit_sm_wide(u) ? 0 : sched) * WGP_UNIT_COUNT + u];
}

static bool eligible(const round_t *r, const swarp *w) {
  return w->state == W_RUN && w->ready <= r->now && *w->uslot <= r->now;
}

static wgp_status issue_insn(round_t *r, swarp *w, double *finish) {
  const wgp_insn *i = w->next;
  double t = r->now, sc = w->scale;
  r->sched_free[w->sched] = t + sc * wgp_insn_slots(i);
  r->acc[ACC_ISSUE] += sc * wgp_insn_slots(i);
  r->acc[ACC_INSNS] += 1;
  r->issued += 1;
  w->issued++;
  if (i->kind == WGP_INSN_BARRIER) {
    r->acc[ACC_ARRIVALS] += sc;
    w->state = W_BARRIER;
    w->arrive = t;
    r->arrived[w->group]++;
    w->pos++;
    wgp_status st = peek(r, w);
    if (st != WGP_OK)
      return st;
    release_if_complete(r, w->group);
    return WGP_OK;
  }
  if (i->unit != WGP_UNIT_NONE)
    *unit_slot(r, w->sched, i->unit) = t + i->occupancy * sc;
  double start = t; /* when the instruction's own work begins: after its turn in its queue (shared memory's pipe, the L2 port) */
  if (i->queue > 0) {
    double *q = unit_slot(r, w->sched, i->queue_unit);
    start = dmax(t, *q);
    *q = start + i->queue * sc;
    r->acc[ACC_STALL0 + (i->queue_unit == WGP_UNIT_SHARED ? WGP_STALL_SHARED_L1 : WGP_STALL_L2)] += start - t;
    if (i->queue_unit == WGP_UNIT_L2_IN)
      r->acc[ACC_PORT_IN] += i->queue * sc;
    else if (i->queue_unit == WGP_UNIT_L2_OUT)
      r->acc[ACC_PORT_OUT] += i->queue * sc;
  }
  w->ready = start + i->latency * sc;
  if (i->kind == WGP_INSN_ALU)
    r->acc[ACC_COMPUTE] += i->latency * sc;
  else if (i->kind == WGP_INSN_LOAD)
    for (int l = 0; l < 4; l++)
      r->acc[ACC_STALL0 + l] += i->latency * sc * i->stall[l];
  if (w->ready > *finish)
    *finish = w->ready;
  bool load = i->kind == WGP_INSN_LOAD;
  if (load) {
    w->mem_ready = dmax(w->mem_ready, w->ready);
    w->mem_far = dmax(w->mem_far, i->stall[WGP_STALL_L2] + i->stall[WGP_STALL_DRAM]);
  }
  const wgp_block_stream *block = w->cur;
  wgp_status st = advance(r, w);
  if (st != WGP_OK || !load)
    return st;
  /* Memory-level parallelism: a block's loads are independent (their
   * consumers come after them), so the next load of the same block issues
   * at once and the first other instruction waits for all of them (the
   * scoreboard); so does a load whose address needs an earlier one (the
   * first of a later level, sim/stream.c).  The same block entered again (a
   * loop of one block that holds only loads) is another block: its first
   * load waits, as its chain (sim/stream.c) and so the round's bounds say. */
  if (w->next && w->next->kind == WGP_INSN_LOAD && w->cur == block && w->pos > 0 && !w->next->after_loads) {
    w->ready = t + sc;
  } else {
    w->ready = w->mem_ready;
    w->mem_ready = 0;
    r->acc[ACC_TRIPS] += w->mem_far * sc;
    w->mem_far = 0;
  }
  return WGP_OK;
}

static wgp_status issue(round_t *r, swarp *w, double *finish) {
  wgp_status st = issue_insn(r, w, finish);
  sync(r, w);
  return st;
}

/* The resident warps of a round of NG groups: classes in proportion to their
 * counts.  CLS gets ng x wpg entries. */
static wgp_status compose(const wgp_sim_input *in, unsigned ng, size_t *cls, wgp_diag *diag) {
  size_t nc = in->num_warps;
  double total = 0;
  for (size_t i = 0; i < nc; i++)
    total += in->warps[i].count;
  double *acc = calloc(nc, sizeof *acc);
  size_t *order = malloc(nc * sizeof *order), *take = calloc(nc, sizeof *take);
  if (!acc || !order || !take) {
    free(acc), free(order), free(take);
    return wgp_sim_fail(diag, WGP_ERR_NOMEM, "out of memory");
  }
  /* classes by representative warp index, then input order */
  for (size_t i = 0; i < nc; i++)
    order[i] = i;
  for (size_t i = 1; i < nc; i++)
    for (size_t j = i; j > 0 && in->warps[order[j]].warp < in->warps[order[j - 1]].warp; j--) {
      size_t x = order[j];
      order[j] = order[j - 1];
      order[j - 1] = x;
    }
  unsigned wpg = in->warps_per_group;
  for (unsigned g = 0; g < ng; g++) {
    unsigned given = 0;
    for (size_t i = 0; i < nc; i++) {
      acc[i] += in->warps[i].count / total * wpg;
      /* acc is below 0 where the largest remainder gave this class a warp ahead
       * of its share: it takes none now (converting a negative to size_t is
       * undefined, and gave the class every remaining warp of the group) */
      double f = floor(acc[i] + 1e-9);
      take[i] = f > 0 ? (size_t)f : 0;
      if (take[i] > wpg - given)
        take[i] = wpg - given;
      given += (unsigned)take[i];
    }
    while (given < wpg) { /* largest remainder */
      size_t best = 0;
      double br = -1e300;
      for (size_t i = 0; i < nc; i++) {
        double rem = acc[i] - (double)take[i];
        if (rem > br + 1e-12) {
          br = rem;
          best = i;
        }
      }
      take[best]++;
      given++;
    }
    size_t slot = (size_t)g * wpg;
    for (size_t o = 0; o < nc; o++) {
      size_t i = order[o];
      acc[i] -= (double)take[i];
      for (size_t k = 0; k < take[i]; k++)
        cls[slot++] = i;
    }
  }
  free(acc), free(order), free(take);
  return WGP_OK;
}

typedef struct round_out {
  double cycles, best, worst;
  double acc[ACC_COUNT];
  double issued, insns;
  size_t warps;
  bool extrapolated, stopped;
} round_out;

static wgp_status simulate_round(wgp_sim_ctx *c, const wgp_class_totals *tot, unsigned ng, round_out *out,
                                 wgp_diag *diag) {
  const wgp_sim_input *in = c->in;
  round_t r = {
      .c = c, .ns = wgp_gpu_schedulers_per_sm(in->gpu), .ngroups = ng, .wpg = in->warps_per_group, .diag = diag};
  r.nw = (size_t)ng * r.wpg;
  r.maxdepth = wgp_kernel_num_loops(in->kernel) + 1;
  wgp_status st = WGP_OK;
  /* the round's arrays carved from one block: the cleared ones first, then
   * those written before they are read (the history rows: tick, settle) */
  size_t size = 0, o_w = wgp_block_part(&size, r.nw, sizeof *r.w);
  size_t o_sched_free = wgp_block_part(&size, r.ns, sizeof *r.sched_free);
  size_t o_last = wgp_block_part(&size, r.ns, sizeof *r.last);
  size_t o_nper = wgp_block_part(&size, r.ns, sizeof *r.nper);
  size_t o_snext = wgp_block_part(&size, r.ns, sizeof *r.snext);
  size_t o_unit_free = wgp_block_part(&size, (size_t)r.ns * WGP_UNIT_COUNT, sizeof *r.unit_free);
  size_t o_arrived = wgp_block_part(&size, ng, sizeof *r.arrived);
  size_t o_done = wgp_block_part(&size, ng, sizeof *r.done);
  size_t o_trk = wgp_block_part(&size, r.maxdepth, sizeof *r.trk);
  size_t o_frames = wgp_block_part(&size, r.nw * r.maxdepth, sizeof(frame));
  size_t o_serials = wgp_block_part(&size, r.nw * r.maxdepth, sizeof(uint64_t));
  size_t o_ids = wgp_block_part(&size, r.nw * r.maxdepth, sizeof(fid));
  size_t cleared = size;
  r.per = (r.nw + r.ns - 1) / r.ns;
  size_t o_cls = wgp_block_part(&size, r.nw, sizeof(size_t));
  size_t o_sched = wgp_block_part(&size, r.nw, sizeof(unsigned));
  size_t o_rdy = wgp_block_part(&size, r.per * r.ns, sizeof *r.rdy);
  size_t o_us = wgp_block_part(&size, r.per * r.ns, sizeof *r.us);
  size_t o_its = wgp_block_part(&size, (size_t)(HISTORY + 1) * r.nw * r.maxdepth, sizeof(uint64_t));
  char *block = malloc(size ? size : 1);
  if (!block) {
    st = wgp_sim_fail(diag, WGP_ERR_NOMEM, "out of memory");
    goto out;
  }
  memset(block, 0, cleared);
  r.w = (void *)(block + o_w);
  r.sched_free = (void *)(block + o_sched_free);
  r.last = (void *)(block + o_last);
  r.nper = (void *)(block + o_nper);
  r.snext = (void *)(block + o_snext);
  r.unit_free = (void *)(block + o_unit_free);
  r.arrived = (void *)(block + o_arrived);
  r.done = (void *)(block + o_done);
  r.trk = (void *)(block + o_trk);
  frame *frames = (frame *)(block + o_frames);
  uint64_t *serials = (uint64_t *)(block + o_serials);
  fid *ids = (fid *)(block + o_ids);
  size_t *cls = (size_t *)(block + o_cls);
  unsigned *sched = (unsigned *)(block + o_sched);
  r.rdy = (void *)(block + o_rdy);
  r.us = (void *)(block + o_us);
  uint64_t *its = (uint64_t *)(block + o_its);
  st = compose(in, ng, cls, diag);
  if (st != WGP_OK)
    goto out;
  for (size_t i = 0; i < r.nw; i++) {
    swarp *w = &r.w[i];
    w->cls = cls[i];
    w->group = (unsigned)(i / r.wpg);
    w->sched = sched[i] = (unsigned)(i % r.ns);
    w->slot = (i % r.ns) * r.per + i / r.ns;
    w->trace = in->warps[cls[i]].trace;
    w->stack = frames + i * r.maxdepth;
    w->serials = serials + i * r.maxdepth;
    w->scale = 1;
    w->state = W_RUN;
  }
  if (in->flags & WGP_SIM_BOUNDS_ONLY) {
    /* eq. 11-21 need the round's warps, not its simulation */
    wgp_sim_round_bounds(c, tot, cls, sched, r.nw, &out->best, &out->worst);
    out->cycles = out->best;
    out->warps = r.nw;
    goto out;
  }
  for (unsigned s = 0; s < r.ns; s++) {
    r.last[s] = SIZE_MAX;
    r.nper[s] = s < r.nw ? (r.nw - s + r.ns - 1) / r.ns : 0;
  }
  for (size_t d = 0; d < r.maxdepth; d++)
    r.trk[d].it = its + d * (size_t)(HISTORY + 1) * r.nw, r.trk[d].id = ids + d * r.nw;
  r.active = r.nw;
  for (size_t i = 0; i < r.per * r.ns; i++) {
    r.rdy[i] = INFINITY;
    r.us[i] = &never_busy;
  }
  for (size_t i = 0; i < r.nw && st == WGP_OK; i++) {
    st = peek(&r, &r.w[i]);
    if (st == WGP_OK && !r.w[i].next) {
      r.w[i].state = W_DONE;
      r.active--;
      r.done[r.w[i].group]++;
    }
    sync(&r, &r.w[i]);
  }
  if (st != WGP_OK)
    goto out;
  bool gto = in->flags & WGP_SIM_GTO, full = in->flags & WGP_SIM_FULL;
  /* the cycle modulo the schedulers without a division where they are a power of two */
  uint64_t mask = (r.ns & (r.ns - 1)) == 0 ? r.ns - 1 : 0;
  double finish = 0;
  while (r.active > 0) {
    if (!full)
      for (size_t d = 1; d < r.maxdepth; d++)
        if (r.trk[d].pending)
          try_skip(&r, d);
    /* the scheduler that chooses first rotates with the cycle */
    /* (a round past 2^64 cycles, from extrapolated loops, rotates from 0:
     * converting it to an integer would be undefined) */
    unsigned first = r.now < 0x1p63 ? (unsigned)(mask ? (uint64_t)r.now & mask : (uint64_t)r.now % r.ns) : 0;
    for (unsigned s0 = 0; s0 < r.ns && st == WGP_OK; s0++) {
      unsigned s = s0 + first < r.ns ? s0 + first : s0 + first - r.ns; /* (s0 + first) mod ns: both below ns */
      if (r.sched_free[s] > r.now || r.snext[s] > r.now)
        continue;
      /* one pass over the scheduler's warps: the pick by policy, and the
       * earliest time any other could issue */
      size_t per = r.nper[s], pick = SIZE_MAX; /* the pick's place in the scan: warp s + pick x ns */
      size_t k0 = r.last[s] == SIZE_MAX ? per - 1 : r.last[s];
      double soon = INFINITY, now = r.now;
      const double *rdy = r.rdy + (size_t)s * r.per;
      const double *const *us = r.us + (size_t)s * r.per;
      if (per <= 64) {
        /* every warp's earliest issue time (infinite unless it runs), then
         * the pick by policy among those due now; with none due, the
         * earliest is the bound (after a pick it is taken after the issue) */
        double e[64], mn = INFINITY;
        uint64_t due = 0;
        for (size_t j = 0; j < per; j++) {
          e[j] = dmax(rdy[j], *us[j]);
          due |= (uint64_t)(e[j] <= now) << j;
          mn = dmin(mn, e[j]);
        }
        if (gto && r.last[s] != SIZE_MAX && (due >> k0 & 1))
          pick = k0;
        else if (due) {
          /* round-robin from the warp after the last issued (GTO: in age order) */
          size_t from = gto || k0 + 1 >= per ? 0 : k0 + 1;
          uint64_t after = due & (~0ull << from);
          pick = (size_t)__builtin_ctzll(after ? after : due);
        }
        if (pick == SIZE_MAX)
          soon = mn;
      } else {
        if (gto && r.last[s] != SIZE_MAX && eligible(&r, &r.w[s + k0 * r.ns]))
          pick = k0;
        /* round-robin from the warp after the last issued (GTO: in age order) */
        size_t j = gto || k0 + 1 >= per ? 0 : k0 + 1;
        for (size_t k = 0; k < per; k++) {
          size_t jj = j;
          if (++j == per)
            j = 0;
          const swarp *w = &r.w[s + jj * r.ns];
          if (w->state != W_RUN || jj == pick)
            continue;
          double e = dmax(w->ready, *w->uslot);
          if (pick == SIZE_MAX && e <= now)
            pick = jj;
          else if (e < soon)
            soon = e;
        }
      }
      /* a lower bound: units only get busier, and warps that a barrier
       * releases (in this issue or another scheduler's) lower it */
      r.snext[s] = soon;
      if (pick != SIZE_MAX) {
        r.last[s] = pick;
        st = issue(&r, &r.w[s + pick * r.ns], &finish);
        /* The issue made its unit busy for the scheduler's other warps (and
         * gave the pick its next instruction): the bound from before it is
         * stale, and a scan at it would find nothing.  The exact earliest
         * time over the scheduler's warps now (barrier releases included:
         * rdy is synced) is still a lower bound later: units only get
         * busier, and releases lower it as they happen.  The same picks at
         * the same times, fewer empty scans and steps. */
        double m = INFINITY;
        for (size_t j = 0; j < per; j++)
          m = dmin(m, dmax(rdy[j], *us[j]));
        r.snext[s] = m;
      }
    }
    if (st != WGP_OK)
      goto out;
    if (r.active == 0)
      break;
    /* No steady state that the skips can use (warps of a group waiting at
     * different barriers while others loop on, for one) must not make the
     * cost follow the trip counts: past the budget the round stops here. */
    if (!full && r.issued >= WGP_SIM_MAX_ISSUED) {
      out->stopped = true;
      break;
    }
    double next = INFINITY;
    for (unsigned s = 0; s < r.ns; s++)
      next = dmin(next, dmax(r.sched_free[s], r.snext[s]));
    if (next == INFINITY) {
      st = wgp_sim_fail(diag, WGP_ERR_INPUT, "internal: warps wait at a barrier no running warp can reach");
      goto out;
    }
    r.now = next > r.now ? next : r.now;
  }
  /* warps at a trailing barrier finish with their release */
  for (size_t i = 0; i < r.nw; i++)
    if (r.w[i].ready > finish)
      finish = r.w[i].ready;
  /* and the units with their last instruction: a wide store's turn on the
   * load/store path (or a slow unit's issue latency) can outlast its warp,
   * and the round's best case counts every unit's whole occupancy
   * (fuzz/regress/estimate/round-ends-before-its-last-store) */
  for (size_t u = 0; u < (size_t)r.ns * WGP_UNIT_COUNT; u++)
    if (r.unit_free[u] > finish)
      finish = r.unit_free[u];
  out->cycles = (double)(dmax(finish, r.now) + r.skipped);
  memcpy(out->acc, r.acc, sizeof r.acc);
  out->warps = r.nw;
  out->issued = r.issued;
  out->extrapolated = r.extrapolated;
  wgp_sim_round_bounds(c, tot, cls, sched, r.nw, &out->best, &out->worst);
  out->insns = 0;
  for (size_t i = 0; i < r.nw; i++)
    out->insns += tot[cls[i]].issue;
  if (out->stopped && r.acc[ACC_ISSUE] > 0 && out->insns > r.acc[ACC_ISSUE]) {
    /* the issue slots still to come, at the rate so far */
    double f = out->insns / r.acc[ACC_ISSUE];
    out->cycles *= f;
    for (int a = 0; a < ACC_COUNT; a++)
      out->acc[a] *= f;
  }
  /* Skipped iterations are extrapolated from a sampled period, which can be
   * off by a little; the bounds hold for the model exactly, so the estimate
   * stays within them. */
  if (r.extrapolated || out->stopped)
    out->cycles = dmin(dmax(out->cycles, out->best), out->worst);
out:
  free(block);
  return st;
}

/* ------------------------------------------------------------------------ */
/* Kernel time                                                              */

/* Mean-value analysis of a closed queueing network (Reiser and Lavenberg,
 * JACM 27(2), 1980; the residual-service correction for non-exponential
 * service as in Lazowska et al., Quantitative System Performance, 1984,
 * ch. 6) of one queueing station and a delay: N customers, each
 * cycling through the delay Z and a visit of demand D at the station.
 * Returns one customer's cycle time, N / throughput: at least Z + D (no
 * waiting) and N x D (the station always busy), above both near the knee,
 * where the customers wait for each other. */
static double mva_cycle(unsigned n, double z, double d) {
  double q = 0, x = 0;
  for (unsigned k = 1; k <= n; k++) {
    /* an arrival waits for the customers queued ahead of it and for the
     * rest of the one in service: half its demand, the transfers being of a
     * fixed size (deterministic service; exponential service would have a
     * whole demand left, which overstates the wait on every GPU we measured) */
    double busy = x * d;
    double res = d * (1 + q - busy / 2);
    x = k / (z + res);
    q = x * res;
  }
  return x > 0 ? n / x : z;
}

/* The kernel's time with the chip's bandwidth as a queue the SMs share
 * (docs/simulator.md, "Bandwidth as a queue").  Each SM holds NG groups (the
 * round's) and starts another as one finishes: a closed network per SM
 * whose customers cycle through the round's time without bandwidth limits
 * (the delay, the pipeline's) and their bytes at the SM's share of the
 * narrower of DRAM and L2 (the station; the same bytes pass both, so the
 * narrower one is where they wait).  Who the customers are depends on when
 * a group's warps wait for each other: a group frees its place only when its
 * last warp is done, and at a barrier its warps go on together, so around
 * those waits the group is one customer (vectorAdd's groups of 1024 load,
 * wait and store as two customers per SM, and the SM's share idles while
 * both drain); between them each warp is one (a loop of loads without
 * barriers keeps many requests waiting).  The share of a warp's trips beyond
 * L1 that end at a barrier or at its exit takes the first, the rest the
 * second.  An SM's share is the chip's divided by the SMs that are asking at
 * the time: the station's demand is scaled by its utilization, found as a
 * fixed point.  With many customers this is max(pipeline, bandwidth), the
 * roofline the pipeline had before. */
static double queued_rounds_us(const wgp_sim_result *out, const round_out *head, unsigned ng, unsigned wpg,
                               double pipeline_us, unsigned *as_groups) {
  double rounds = out->rounds;
  if (!(rounds > 0) || ng == 0 || head->warps == 0)
    return 0;
  double d = dmax(dmax(out->dram_us, out->dram_rows_us), out->l2_us) / rounds;
  if (!(d > 0))
    return 0;
  double z = pipeline_us / rounds;
  double nw = (double)head->warps;
  double trips = head->acc[ACC_TRIPS] / nw, ends = head->acc[ACC_ARRIVALS] / nw + 1;
  double coupled = trips > ends ? ends / trips : 1;
  if (as_groups)
    *as_groups = coupled >= 0.5 ? ng : 0;
  unsigned nwarps = ng * wpg;
  double per_round = dmax(z, d);
  for (int it = 0; it < 30; it++) {
    double u = dmin(1, d / per_round);
    double next = coupled * mva_cycle(ng, z, u * d / ng);
    if (coupled < 1)
      next += (1 - coupled) * mva_cycle(nwarps, z, u * d / nwarps);
    next = dmax(next, d);
    if (fabs(next - per_round) <= 1e-6 * per_round)
      break;
    per_round = 0.5 * (per_round + next);
  }
  return rounds * per_round;
}

static wgp_status check_input(const wgp_sim_input *in, wgp_diag *diag) {
  if (!in || !in->kernel || !in->gpu)
    return wgp_sim_fail(diag, WGP_ERR_INPUT, "simulation needs a kernel and a GPU");
  if (!in->warps || in->num_warps == 0)
    return wgp_sim_fail(diag, WGP_ERR_INPUT, "kernel '%s': no warps to simulate", wgp_kernel_name(in->kernel));
  if (in->groups_total == 0 || in->threads_per_group == 0)
    return wgp_sim_fail(diag, WGP_ERR_INPUT, "kernel '%s': a launch of %llu groups of %llu threads is empty",
                        wgp_kernel_name(in->kernel), (unsigned long long)in->groups_total,
                        (unsigned long long)in->threads_per_group);
  unsigned ws = wgp_gpu_warp_size(in->gpu);
  if (in->threads_per_group > UINT32_MAX || in->warps_per_group != (in->threads_per_group + ws - 1) / ws)
    return wgp_sim_fail(diag, WGP_ERR_INPUT, "kernel '%s': %u warps per group do not hold %llu threads of warps of %u",
                        wgp_kernel_name(in->kernel), in->warps_per_group, (unsigned long long)in->threads_per_group,
                        ws);
  if (!(in->stack_bytes >= 0 && isfinite(in->stack_bytes)) ||
      !(in->spill_loads_per_insn >= 0 && in->spill_loads_per_insn <= 16) ||
      !(in->spill_stores_per_insn >= 0 && in->spill_stores_per_insn <= 16))
    return wgp_sim_fail(diag, WGP_ERR_INPUT,
                        "kernel '%s': local memory of %g bytes per thread with %g spill loads and %g spill stores per "
                        "instruction is not a local memory",
                        wgp_kernel_name(in->kernel), in->stack_bytes, in->spill_loads_per_insn,
                        in->spill_stores_per_insn);
  if (in->smem_per_group_bytes > UINT32_MAX)
    return wgp_sim_fail(diag, WGP_ERR_INPUT, "kernel '%s': %llu bytes of shared memory per group are too many",
                        wgp_kernel_name(in->kernel), (unsigned long long)in->smem_per_group_bytes);
  size_t na = wgp_kernel_num_accesses(in->kernel);
  double total = 0;
  for (size_t i = 0; i < in->num_warps; i++) {
    const wgp_sim_warp *w = &in->warps[i];
    if (!w->trace)
      return wgp_sim_fail(diag, WGP_ERR_INPUT, "warp class %zu has no trace", i);
    if (!(w->count >= 0) || !isfinite(w->count))
      return wgp_sim_fail(diag, WGP_ERR_INPUT, "warp class %zu: count %g is not a number of warps", i, w->count);
    total += w->count;
    if (na && !w->costs)
      return wgp_sim_fail(diag, WGP_ERR_INPUT, "warp class %zu has no memory costs for the kernel's %zu accesses", i,
                          na);
    for (size_t a = 0; a < na; a++) {
      const wgp_access_cost *c = &w->costs[a];
      double v[] = {c->requests, c->sectors, c->wavefronts, c->phases};
      for (int k = 0; k < 4; k++)
        if (!(v[k] >= 0) || !isfinite(v[k]))
          return wgp_sim_fail(diag, WGP_ERR_INPUT,
                              "warp class %zu, access M%zu: transaction counts must be finite "
                              "and non-negative",
                              i, a);
      if (c->l1_hit > 1 || c->l2_hit > 1 || isnan(c->l1_hit) || isnan(c->l2_hit))
        return wgp_sim_fail(diag, WGP_ERR_INPUT, "warp class %zu, access M%zu: a hit rate above 1", i, a);
      if (c->last_known && !(c->last_l1 >= 0 && c->last_dram >= 0 && c->last_l1 + c->last_dram <= 1 + 1e-9))
        return wgp_sim_fail(diag, WGP_ERR_INPUT,
                            "warp class %zu, access M%zu: shares of requests served by L1 and DRAM must be in 0..1",
                            i, a);
      if (!(c->dram_rows >= 0 && c->dram_rows <= 1))
        return wgp_sim_fail(diag, WGP_ERR_INPUT,
                            "warp class %zu, access M%zu: DRAM row activations per sector must be in 0..1", i, a);
    }
  }
  if (!(total > 0))
    return wgp_sim_fail(diag, WGP_ERR_INPUT, "kernel '%s': warp classes stand for no warps",
                        wgp_kernel_name(in->kernel));
  return WGP_OK;
}

/* Whether a warp class with totals T exits at once (its groups leave the
 * rounds): no memory, no barrier, and a chain of latencies at most
 * WGP_SIM_IDLE_SHARE of LONGEST. */
static bool idle_class(const wgp_class_totals *t, double longest) {
  return t->unit[WGP_UNIT_LSU] == 0 && t->barriers == 0 && t->chain <= WGP_SIM_IDLE_SHARE * longest;
}

wgp_status wgp_simulate(const wgp_sim_input *in, wgp_sim_result *out, wgp_diag *diag) {
  if (!out)
    return wgp_sim_fail(diag, WGP_ERR_INPUT, "simulation needs a result");
  *out = (wgp_sim_result){.limiter = "", .bound = "pipeline"};
  wgp_status st = check_input(in, diag);
  if (st != WGP_OK)
    return st;
  const wgp_gpu *g = in->gpu;
  wgp_occupancy occ;
  wgp_occupancy_request req = {.threads_per_block = (unsigned)in->threads_per_group,
                               .registers_per_thread = in->regs_per_thread,
                               .dynamic_shared_bytes = (unsigned long)in->smem_per_group_bytes};
  st = wgp_occupancy_compute(g, &req, &occ, diag);
  if (st != WGP_OK)
    return st;
  out->active_groups_per_sm = occ.active_blocks_per_sm;
  out->active_warps_per_sm = occ.active_warps_per_sm;
  out->limiter = wgp_limiter_name(occ.limiter);

  wgp_sim_ctx c = {.in = in,
                   .num_blocks = wgp_kernel_num_blocks(in->kernel),
                   .warp_size = wgp_gpu_warp_size(g),
                   .barrier_cost =
                       wgp_gpu_barrier_base_cycles(g) + wgp_gpu_barrier_per_warp_cycles(g) * in->warps_per_group};
  wgp_sim_local_hits(in, occ.active_warps_per_sm, occ.active_blocks_per_sm, &c.local_l1_hit, &c.local_l2_hit);
  wgp_sim_input busy_in;    /* the launch without its groups that exit at once */
  wgp_sim_warp *busy = NULL; /* its warp classes */
  c.streams = calloc(in->num_warps * c.num_blocks, sizeof *c.streams);
  c.insns = wgp_arena_new();
  wgp_class_totals *tot = calloc(in->num_warps, sizeof *tot);
  if (!c.streams || !c.insns || !tot) {
    st = wgp_sim_fail(diag, WGP_ERR_NOMEM, "out of memory");
    goto done;
  }
  double dram = 0, l2 = 0, acts = 0, written = 0;
  for (size_t i = 0; i < in->num_warps && st == WGP_OK; i++) {
    st = wgp_sim_class_totals(&c, i, &tot[i], diag);
    dram += in->warps[i].count * tot[i].dram_bytes;
    l2 += in->warps[i].count * tot[i].l2_bytes;
    acts += in->warps[i].count * tot[i].dram_acts;
    written += in->warps[i].count * tot[i].dram_write_bytes;
  }
  if (st != WGP_OK)
    goto done;

  /* Warps that exit at once (a bounds check that fails for a whole group:
   * the grid rounded up to a tile, a triangle's other half) hold their
   * group's place a moment and give it to the next group; the hardware
   * refills it at once, where rounds of lockstep groups would price such a
   * group like a full one.  A class that touches no memory, waits at no
   * barrier and whose own chain of latencies is at most WGP_SIM_IDLE_SHARE
   * of the longest class's is idle: its warps leave the rounds and their
   * whole groups the rounds' count (they still pass block dispatch), unless
   * every class is idle. */
  {
    double longest = 0, idle = 0, all = 0;
    for (size_t i = 0; i < in->num_warps; i++)
      longest = dmax(longest, tot[i].chain);
    out->longest_chain = longest;
    if (in->idle_longest_chain > 0)
      longest = in->idle_longest_chain;
    for (size_t i = 0; i < in->num_warps; i++) {
      all += in->warps[i].count;
      if (idle_class(&tot[i], longest))
        idle += in->warps[i].count;
    }
    uint64_t idle_groups = (uint64_t)floor(idle / in->warps_per_group + 1e-9);
    if (idle > 0 && idle < all && idle_groups > 0 && (busy = malloc(in->num_warps * sizeof *busy))) {
      memcpy(busy, in->warps, in->num_warps * sizeof *busy);
      for (size_t i = 0; i < in->num_warps; i++)
        if (idle_class(&tot[i], longest))
          busy[i].count = 0;
      busy_in = *in;
      busy_in.warps = busy;
      busy_in.groups_total = in->groups_total > idle_groups ? in->groups_total - idle_groups : 1;
      c.in = &busy_in;
      out->idle_groups = idle_groups;
    }
  }
  /* eq. 8: the busiest SM's groups in full rounds, then the rest */
  unsigned sms = wgp_gpu_sm_count(g), n_avg = occ.active_blocks_per_sm;
  uint64_t q = (c.in->groups_total + sms - 1) / sms;
  uint64_t full = q / n_avg, rest = q % n_avg;
  round_out rf = {0}, rp = {0};
  if (full > 0) {
    st = simulate_round(&c, tot, n_avg, &rf, diag);
    if (st != WGP_OK)
      goto done;
  }
  if (rest > 0) {
    st = simulate_round(&c, tot, (unsigned)rest, &rp, diag);
    if (st != WGP_OK)
      goto done;
  }
  const round_out *head = full > 0 ? &rf : &rp;
  double pipe = (double)full * rf.cycles + rp.cycles;
  double best = (double)full * rf.best + rp.best, worst = (double)full * rf.worst + rp.worst;
  out->groups_per_sm = q;
  out->round_cycles = head->cycles;
  out->rounds = head->cycles > 0 ? pipe / head->cycles : 0;
  out->best_round_cycles = head->best;
  out->worst_round_cycles = head->worst;
  out->extrapolated = rf.extrapolated || rp.extrapolated;
  out->stopped = rf.stopped || rp.stopped;
  out->instructions = (double)full * rf.insns + rp.insns;
  out->simulated_instructions = rf.issued + rp.issued;
  double nw = (double)head->warps;
  out->issue_cycles = head->insns / nw; /* exact, from the traces */
  out->compute_cycles = head->acc[ACC_COMPUTE] / nw;
  for (int l = 0; l < 4; l++)
    out->mem_stall_cycles[l] = head->acc[ACC_STALL0 + l] / nw;
  out->barrier_cycles = head->acc[ACC_BARRIER] / nw;
  /* (a store's last turn may end after its warp, and so after the round) */
  out->l2_port_busy =
      head->cycles > 0 ? dmin(1, dmax(head->acc[ACC_PORT_IN], head->acc[ACC_PORT_OUT]) / head->cycles) : 0;

  double mhz = wgp_gpu_core_clock_mhz(g);
  out->dram_bytes = dram;
  out->l2_bytes = l2;
  out->pipeline_us = pipe / mhz;
  /* reads at the read bandwidth; writes at what they add to a copy (the bus
   * turning around), where the description has a copy bandwidth */
  out->dram_write_bytes = written;
  out->dram_us = ((dram - written) / wgp_gpu_dram_bandwidth_gbps(g) + written * wgp_gpu_dram_write_ns_per_byte(g)) / 1e3;
  out->l2_us = l2 / (wgp_gpu_l2_bandwidth_gbps(g) * 1e3);
  /* Opening a row is a throughput of the DRAM devices too: a stream that
   * opens a row per sector (a column walk) runs at the activation rate, far
   * below the bandwidth; the two overlap, as the bandwidths do. */
  double rate = wgp_gpu_dram_activations_per_ns(g);
  out->dram_activations = acts;
  out->dram_rows_us = rate > 0 ? acts / rate / 1e3 : 0;
  double t = out->pipeline_us;
  unsigned ng = full > 0 ? n_avg : (unsigned)rest;
  double queued_us = queued_rounds_us(out, head, ng, in->warps_per_group, out->pipeline_us, &out->queue_groups);
  if (out->dram_us > t) {
    t = out->dram_us;
    out->bound = "dram_bandwidth";
  }
  if (out->dram_rows_us > t) {
    t = out->dram_rows_us;
    out->bound = "dram_rows";
  }
  if (out->l2_us > t) {
    t = out->l2_us;
    out->bound = "l2_bandwidth";
  }
  out->queue_us = dmax(0, queued_us - t);
  t = dmax(t, queued_us);
  /* Atomics on one address are applied one at a time by the L2 slice that
   * holds it (a throughput, as the bandwidths: it overlaps the rest) */
  double per_cycle = wgp_gpu_atomic_same_address_per_cycle(g);
  out->atomic_us = in->atomic_hot_ops > 0 && per_cycle > 0 ? in->atomic_hot_ops / per_cycle / mhz : 0;
  if (out->atomic_us > t) {
    t = out->atomic_us;
    out->bound = "atomic_contention";
  }
  /* Work-groups are dispatched at a measured rate (the growth of an empty
   * kernel's time with its block count): a throughput that overlaps the
   * work, so it bounds the time like the bandwidths, it does not add. */
  double dispatch_us = wgp_gpu_launch_per_block_ns(g) * (double)in->groups_total / 1e3;
  if (dispatch_us > t) {
    t = dispatch_us;
    out->bound = "block_dispatch";
  }
  out->launch_overhead_us = wgp_gpu_launch_overhead_us(g);
  out->time_us = t + out->launch_overhead_us;
  out->cycles = out->time_us * mhz;
  double floor_us = dmax(dmax(dmax(dmax(out->dram_us, out->dram_rows_us), out->l2_us), dispatch_us), out->atomic_us);
  out->best_us = dmax(best / mhz, floor_us) + out->launch_overhead_us;
  /* the worst case's rounds wait at the same queue (the time is at most it:
   * the queue's time grows with the rounds' own) */
  double worst_q = dmax(queued_rounds_us(out, head, ng, in->warps_per_group, worst / mhz, NULL), queued_us);
  out->worst_us = dmax(dmax(worst / mhz, floor_us), worst_q) + out->launch_overhead_us;
done:
  wgp_arena_free(c.insns);
  free(c.scratch);
  free(c.streams);
  free(tot);
  free(busy);
  return st;
}
