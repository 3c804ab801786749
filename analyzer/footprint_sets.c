/* footprint_sets.c - where each block executes and what each global access
 * addresses, as isl objects (expressions through footprint_expr.c), and
 * the sectors (or lines) an access touches over a range of work-groups.
 *
 * Assumptions (docs/footprints.md):
 * - Variables are the group ids, the local ids and the iteration numbers of
 *   the loops around a block (it.L<n>); launch sizes and scalar arguments
 *   are constants of the launch and are folded before isl sees anything.
 * - A W-bit operation equals its exact integer value when the value is in
 *   range wherever the block executes: every place that interprets a W-bit
 *   value (casts, divisions, shifts, compares, min/max, the address itself)
 *   is checked with isl over the block's domain, so a result is never built
 *   on a wrapped value.
 * - A block executes where the conditions on the path to it hold (back
 *   edges removed); a loop header adds its iteration number, 0 <= it <
 *   max(trip count, 1) (a loop that is entered runs once at least, as the
 *   tracer assumes).  A data-dependent condition constrains nothing (both
 *   ways, as the traces take it) and makes every block after it a bound.
 * - Buffers do not alias and each starts at offset 0 of its own space: the
 *   analyzer's layout aligns every buffer to 256 B or more, a multiple of
 *   the 32 B sector and 128 B line.
 */
#include "footprint_internal.h"

#include <isl/aff.h>
#include <isl/constraint.h>
#include <isl/id.h>
#include <isl/ilp.h>
#include <isl/local_space.h>
#include <isl/map.h>
#include <isl/options.h>
#include <isl/space.h>
#include <isl/val.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#define FP_MAX_DEPTH 16  /* loops around a block */
#define FP_MAX_OPERATIONS 4000000ul

typedef struct fp_range {
  size_t id;
  int64_t coef[FP_IDS + FP_MAX_DEPTH];
  int64_t lo, hi;
  bool ok;
} fp_range;

struct fp_sets {
  isl_ctx *ctx;
  fp_range *ranges; /* remembered ranges of digits */
  size_t nranges, caprange;
  const wgp_analysis_input *in;
  const wgp_kernel *k;
  wgp_trace_launch L;
  uint64_t ngrp[3], groups;
  bool partial[3]; /* the last group of a dimension is short */
  size_t nblocks, nloops, nacc;
  /* per block */
  isl_set **dom;     /* where it executes over the whole grid (NULL: unknown) */
  bool *reached;     /* some path leads to it */
  bool *inexact;     /* dom is an upper bound */
  bool *unknown;     /* no domain: something on the way to it is not affine */
  char (*why)[FP_REASON];
  unsigned *depth;
  long (*nest)[FP_MAX_DEPTH]; /* loop ids around it, outermost first */
  /* per loop: the set of lanes entering it, in the space of its parent nest */
  isl_set **entry;
  bool *loop_failed;
  /* per access */
  fp_access_info *acc;
  isl_pw_aff **addr;
  bool *linear;
  int64_t (*coef)[FP_IDS + FP_MAX_DEPTH];
  int64_t *cst;
  /* the last two views asked for, per access, and their images */
  fp_radix (*memo_rx)[2];
  isl_set *(*memo_img)[2]; /* the image with the wave bounds as parameters */
  unsigned char *memo_n, *memo_next;
  fp_memo *conv_memo;     /* the conversions of block conv_memo_block's frame */
  size_t conv_memo_block;
  /* buffers */
  size_t nbuf;
  const char **bufname;
  long *bufkey;
};

/* ---- small helpers ---------------------------------------------------------- */

static void why_set(char *why, const char *fmt, ...) {
  if (why[0])
    return; /* the first reason is the one that matters */
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, FP_REASON, fmt, ap);
  va_end(ap);
}

static int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

static isl_space *block_space(fp_sets *s, unsigned depth) {
  return isl_space_set_alloc(s->ctx, 0, FP_IDS + depth);
}

static conv conv_of(fp_sets *s, isl_space *space, const long *nest, unsigned depth, isl_set *dom, char *why) {
  return (conv){.ctx = s->ctx, .L = &s->L, .ngrp = s->ngrp, .partial = s->partial, .space = space, .nest = nest,
                .depth = depth, .dom = dom, .why = why};
}

/* ---- block domains ------------------------------------------------------------ */

/* The set where E (in C's frame) is non-zero (TAKEN) or zero; NULL with a
 * reason when E is not affine. */
static isl_set *cond_set(conv *c, const wgp_expr *e, bool taken) {
  val v = conv_expr(c, e);
  if (!v.pa)
    return NULL;
  return taken ? isl_pw_aff_non_zero_set(v.pa) : isl_pw_aff_zero_set(v.pa);
}

static unsigned nest_of(const wgp_kernel *k, size_t block, long *nest) {
  long l = wgp_block_loop(wgp_kernel_block(k, block));
  unsigned d = 0;
  long tmp[64];
  while (l >= 0 && d < 64) {
    tmp[d++] = l;
    l = wgp_loop_parent(wgp_kernel_loop(k, (size_t)l));
  }
  for (unsigned i = 0; i < d && i < FP_MAX_DEPTH; i++)
    nest[i] = tmp[d - 1 - i];
  return d;
}

/* Where the lanes of the launch exist: every group of the grid, lanes inside
 * their group and, for short last groups, inside the global size. */
static isl_set *grid_set(fp_sets *s) {
  isl_space *sp = block_space(s, 0);
  conv c = conv_of(s, sp, NULL, 0, NULL, NULL);
  isl_set *g = isl_set_universe(isl_space_copy(sp));
  for (unsigned d = 0; d < 3; d++) {
    g = isl_set_lower_bound_si(g, isl_dim_set, d, 0);
    g = isl_set_upper_bound_val(g, isl_dim_set, d, isl_val_int_from_si(s->ctx, (long)(s->ngrp[d] - 1)));
    g = isl_set_lower_bound_si(g, isl_dim_set, 3 + d, 0);
    g = isl_set_upper_bound_val(g, isl_dim_set, 3 + d, isl_val_int_from_si(s->ctx, (long)(s->L.local[d] - 1)));
    if (s->partial[d]) {
      isl_pw_aff *gid = isl_pw_aff_add(isl_pw_aff_scale_val(pa_var(&c, d), isl_val_int_from_si(s->ctx, (long)s->L.local[d])),
                                       pa_var(&c, 3 + d));
      g = isl_set_intersect(g, isl_pw_aff_lt_set(gid, pa_const(&c, (int64_t)s->L.global[d])));
    }
  }
  isl_space_free(sp);
  return g;
}

/* Moves SET (take) from the frame of loop nest FROM (depth DF) to the outer
 * frame of depth KEEP (a common prefix). */
static isl_set *leave_loops(isl_set *set, unsigned df, unsigned keep) {
  if (df > keep)
    set = isl_set_project_out(set, isl_dim_set, FP_IDS + keep, df - keep);
  return set;
}

static bool taken_hint(const fp_sets *s, size_t block, double *f) {
  for (size_t i = 0; i < s->in->num_taken_hints; i++)
    if (s->in->taken_blocks[i] == block) {
      *f = s->in->taken_fractions[i];
      return true;
    }
  return false;
}

static bool trip_hint(const fp_sets *s, size_t loop, uint64_t *n) {
  for (size_t i = 0; i < s->in->num_trip_hints; i++)
    if (s->in->trip_loops[i] == loop) {
      *n = s->in->trip_counts[i];
      return true;
    }
  return false;
}

/* Adds CONTRIB (take, in B's frame) to B's domain. */
static void add_to(fp_sets *s, size_t b, isl_set *contrib, bool inexact, const char *why) {
  s->reached[b] = true;
  if (inexact) {
    s->inexact[b] = true;
    why_set(s->why[b], "%s", why);
  }
  if (!contrib) {
    /* a block with an unknown domain stays unknown */
    isl_set_free(s->dom[b]);
    s->dom[b] = NULL;
    why_set(s->why[b], "%s", why && why[0] ? why : "isl gave up on a condition");
    s->unknown[b] = true;
    return;
  }
  if (s->unknown[b]) {
    isl_set_free(contrib);
    return;
  }
  s->dom[b] = s->dom[b] ? isl_set_coalesce(isl_set_union(s->dom[b], contrib)) : contrib;
}

/* Sends the lanes of SET (take, in C's frame) along the edge C -> B. */
static void follow(fp_sets *s, size_t cb, size_t b, isl_set *set, bool inexact, const char *why) {
  const wgp_kernel *k = s->k;
  unsigned dc = s->depth[cb], db = s->depth[b], p = 0;
  while (p < dc && p < db && s->nest[cb][p] == s->nest[b][p])
    p++;
  set = leave_loops(set, dc, p);
  if (db == p) {
    add_to(s, b, set, inexact, why);
    return;
  }
  long lp = s->nest[b][p];
  if (db != p + 1 || wgp_loop_header(wgp_kernel_loop(k, (size_t)lp)) != b) {
    isl_set_free(set);
    add_to(s, b, NULL, false, "a loop is entered other than through its header");
    return;
  }
  /* Entering loop LP: record who enters, then add its iteration number. */
  s->entry[lp] = s->entry[lp] ? isl_set_coalesce(isl_set_union(s->entry[lp], isl_set_copy(set))) : isl_set_copy(set);
  const wgp_loop *l = wgp_kernel_loop(k, (size_t)lp);
  set = isl_set_add_dims(set, isl_dim_set, 1);
  set = isl_set_lower_bound_si(set, isl_dim_set, FP_IDS + p, 0);
  isl_space *sp = block_space(s, p + 1);
  char why2[FP_REASON] = "";
  conv c = conv_of(s, sp, s->nest[b], p + 1, set, why2);
  uint64_t hint;
  isl_pw_aff *trip = NULL;
  bool bound_only = false;
  if (trip_hint(s, (size_t)lp, &hint)) {
    trip = pa_const(&c, (int64_t)hint);
  } else if (wgp_loop_trip_kind(l) == WGP_TRIP_EXACT && wgp_loop_trip_count(l)) {
    val t = conv_expr(&c, wgp_loop_trip_count(l));
    trip = t.pa;
  } else if (wgp_loop_max_trip_count(l)) {
    val t = conv_expr(&c, wgp_loop_max_trip_count(l));
    trip = t.pa;
    bound_only = true;
  }
  if (!trip) {
    if (!why2[0])
      snprintf(why2, sizeof why2, "loop L%ld has a %s trip count", lp, wgp_trip_kind_name(wgp_loop_trip_kind(l)));
    else {
      char tmp[FP_REASON];
      snprintf(tmp, sizeof tmp, "loop L%ld count: %.100s", lp, why2); /* cut: a reason, not data */
      memcpy(why2, tmp, sizeof why2);
    }
    s->loop_failed[lp] = true;
    isl_set_free(set);
    isl_space_free(sp);
    add_to(s, b, NULL, false, why2);
    return;
  }
  trip = isl_pw_aff_max(trip, pa_const(&c, 1));
  isl_pw_aff *it = pa_var(&c, FP_IDS + p);
  set = isl_set_intersect(set, isl_pw_aff_lt_set(it, trip));
  isl_space_free(sp);
  char why3[FP_REASON];
  snprintf(why3, sizeof why3, "loop L%ld runs up to its maximum trip count", lp);
  add_to(s, b, set, inexact || bound_only, bound_only ? why3 : why);
}

static void compute_domains(fp_sets *s) {
  const wgp_kernel *k = s->k;
  size_t n = s->nblocks;
  /* topological order without back edges (reverse post-order) */
  size_t *order = malloc(n * sizeof *order), *stack = malloc(n * sizeof *stack), *next = calloc(n, sizeof *next);
  unsigned char *seen = calloc(n, 1);
  size_t np = 0, sp = 0;
  if (!order || !stack || !next || !seen) {
    free(order), free(stack), free(next), free(seen);
    return;
  }
  stack[sp++] = 0;
  seen[0] = 1;
  while (sp) {
    size_t b = stack[sp - 1];
    const wgp_block *blk = wgp_kernel_block(k, b);
    if (next[b] < wgp_block_num_succs(blk)) {
      size_t t = wgp_block_succ(blk, next[b]++);
      if (!seen[t] && !wgp_block_is_back_edge(blk, t)) {
        seen[t] = 1;
        stack[sp++] = t;
      }
    } else {
      order[np++] = b;
      sp--;
    }
  }
  add_to(s, 0, grid_set(s), false, NULL);
  for (size_t oi = np; oi-- > 0;) {
    size_t cb = order[oi];
    const wgp_block *blk = wgp_kernel_block(k, cb);
    isl_ctx_reset_operations(s->ctx);
    unsigned dc = s->depth[cb];
    if (s->unknown[cb]) {
      /* Successors inside the unknown region stay unknown; leaving a loop
       * whose count is unknown, the lanes that entered it leave it. */
      for (size_t i = 0; i < wgp_block_num_succs(blk); i++) {
        size_t t = wgp_block_succ(blk, i);
        if (wgp_block_is_back_edge(blk, t))
          continue;
        long lf = -1;
        for (unsigned j = 0; j < dc; j++) {
          long l = s->nest[cb][j];
          if (s->loop_failed[l] && !wgp_loop_contains(wgp_kernel_loop(k, (size_t)l), t)) {
            lf = l;
            break;
          }
        }
        if (lf >= 0 && s->entry[lf]) {
          unsigned dl = wgp_loop_depth(wgp_kernel_loop(k, (size_t)lf)) - 1; /* frame of the entry set */
          char why[FP_REASON];
          snprintf(why, sizeof why, "lanes assumed to leave loop L%ld, whose count is unknown, through each exit", lf);
          bool many = wgp_loop_num_exiting(wgp_kernel_loop(k, (size_t)lf)) > 1;
          /* the entry set lives in the loop's parent frame: pretend the
           * edge starts at a block of that frame */
          unsigned db = s->depth[t], p = 0;
          while (p < dl && p < db && s->nest[cb][p] == s->nest[t][p])
            p++;
          if (db == p && !s->unknown[t])
            add_to(s, t, leave_loops(isl_set_copy(s->entry[lf]), dl, p), many, why);
          else
            add_to(s, t, NULL, false, s->why[cb]);
        } else {
          add_to(s, t, NULL, false, s->why[cb]);
        }
      }
      continue;
    }
    if (!s->dom[cb])
      continue;
    const wgp_branch *br = wgp_block_branch(blk);
    isl_space *space = block_space(s, dc);
    char why[FP_REASON] = "";
    conv c = conv_of(s, space, s->nest[cb], dc, s->dom[cb], why);
    bool inexact = s->inexact[cb];
    const char *iwhy = s->why[cb];
    size_t ns = wgp_block_num_succs(blk);
    for (size_t i = 0; i < ns; i++) {
      size_t t = wgp_block_succ(blk, i);
      if (wgp_block_is_back_edge(blk, t))
        continue;
      bool dup = false;
      for (size_t j = 0; j < i; j++)
        dup = dup || wgp_block_succ(blk, j) == t;
      if (dup)
        continue; /* one edge per successor: its condition is the union */
      isl_set *cond = NULL;
      bool edge_inexact = false;
      char ewhy[FP_REASON] = "";
      if (br) {
        /* a branch the model cannot evaluate follows its hint when the hint
         * says always or never (the tracer does the same), else both ways */
        double f;
        bool data = wgp_branch_get_class(br) == WGP_BRANCH_DATA_DEPENDENT;
        if (data && taken_hint(s, cb, &f) && wgp_branch_get_kind(br) == WGP_BRANCH_COND && (f == 0.0 || f == 1.0)) {
          if ((f == 1.0 && wgp_branch_target(br, 0) != t) || (f == 0.0 && wgp_branch_target(br, 1) != t))
            continue; /* never taken this way */
        } else if (data) {
          edge_inexact = true;
          snprintf(ewhy, sizeof ewhy, "data-dependent branch of block %zu taken both ways", cb);
        } else {
          /* the union over the branch's targets that are T */
          isl_set *u = NULL;
          bool failed = false;
          if (wgp_branch_get_kind(br) == WGP_BRANCH_COND) {
            for (size_t j = 0; j < 2 && !failed; j++)
              if (wgp_branch_target(br, j) == t) {
                isl_set *x = cond_set(&c, wgp_branch_cond(br), j == 0);
                failed = !x;
                u = x ? (u ? isl_set_union(u, x) : x) : u;
              }
          } else {
            val v = conv_expr(&c, wgp_branch_cond(br));
            failed = !v.pa;
            size_t nt = wgp_branch_num_targets(br);
            for (size_t j = 0; j < nt && !failed; j++) {
              if (wgp_branch_target(br, j) != t)
                continue;
              isl_set *x;
              if (j == 0) { /* default: no case value matches */
                x = isl_set_universe(isl_space_copy(space));
                for (size_t q = 1; q < nt; q++)
                  x = isl_set_intersect(x, isl_pw_aff_ne_set(isl_pw_aff_copy(v.pa),
                                                             pa_const(&c, wgp_branch_case_value(br, q - 1))));
              } else {
                x = isl_pw_aff_eq_set(isl_pw_aff_copy(v.pa), pa_const(&c, wgp_branch_case_value(br, j - 1)));
              }
              u = u ? isl_set_union(u, x) : x;
            }
            isl_pw_aff_free(v.pa);
          }
          if (failed) {
            isl_set_free(u);
            u = NULL;
            edge_inexact = true;
            snprintf(ewhy, sizeof ewhy, "branch of block %zu is not affine (%.80s): taken both ways", cb, why);
            why[0] = 0;
          }
          cond = u;
        }
      }
      isl_set *x = isl_set_copy(s->dom[cb]);
      if (cond)
        x = isl_set_intersect(x, cond);
      follow(s, cb, t, x, inexact || edge_inexact, edge_inexact ? ewhy : iwhy);
    }
    isl_space_free(space);
  }
  free(order), free(stack), free(next), free(seen);
}

/* ---- accesses ---------------------------------------------------------------------- */

static isl_stat take_piece(isl_set *set, isl_aff *aff, void *user) {
  isl_aff **out = user;
  isl_set_free(set);
  if (*out)
    isl_aff_free(*out);
  *out = aff;
  return isl_stat_ok;
}

/* The linear form of access ID's address when it has one piece defined
 * everywhere and no division. */
static void linear_form(fp_sets *s, size_t id, unsigned dims) {
  isl_pw_aff *pa = s->addr[id];
  s->linear[id] = false;
  if (isl_pw_aff_n_piece(pa) != 1)
    return;
  isl_set *d = isl_pw_aff_domain(isl_pw_aff_copy(pa));
  isl_bool all = isl_set_plain_is_universe(d);
  isl_set_free(d);
  if (all != isl_bool_true)
    return;
  isl_aff *aff = NULL;
  isl_pw_aff_foreach_piece(pa, take_piece, &aff);
  if (!aff)
    return;
  bool ok = isl_aff_dim(aff, isl_dim_div) == 0;
  for (unsigned i = 0; ok && i < dims; i++) {
    isl_val *v = isl_aff_get_coefficient_val(aff, isl_dim_in, (int)i);
    ok = v && isl_val_is_int(v) == isl_bool_true;
    if (ok)
      s->coef[id][i] = isl_val_get_num_si(v);
    isl_val_free(v);
  }
  isl_val *v = isl_aff_get_constant_val(aff);
  ok = ok && v && isl_val_is_int(v) == isl_bool_true;
  if (ok)
    s->cst[id] = isl_val_get_num_si(v);
  isl_val_free(v);
  isl_aff_free(aff);
  s->linear[id] = ok;
}

static int buffer_of(fp_sets *s, const wgp_access *a) {
  long key;
  const char *name;
  if (wgp_access_base_kind(a) == WGP_BASE_ARG) {
    key = wgp_access_base_arg(a);
    if (key < 0)
      return -1;
    name = wgp_arg_name(wgp_kernel_arg(s->k, (size_t)key));
  } else if (wgp_access_base_kind(a) == WGP_BASE_ARRAY) {
    const char *n = wgp_access_base_name(a);
    key = -1;
    for (size_t i = 0; n && i < wgp_kernel_num_arrays(s->k); i++)
      if (strcmp(wgp_array_name(wgp_kernel_array(s->k, i)), n) == 0)
        key = (long)(wgp_kernel_num_args(s->k) + i), name = n;
    if (key < 0)
      return -1;
  } else {
    return -1;
  }
  for (size_t i = 0; i < s->nbuf; i++)
    if (s->bufkey[i] == key)
      return (int)i;
  s->bufkey[s->nbuf] = key;
  s->bufname[s->nbuf] = name;
  return (int)s->nbuf++;
}

static void describe_access(fp_sets *s, size_t id) {
  const wgp_kernel *k = s->k;
  const wgp_access *a = wgp_kernel_access(k, id);
  fp_access_info *info = &s->acc[id];
  wgp_space sp = wgp_access_space(a);
  info->buffer = -1;
  info->bytes = (unsigned)(wgp_access_bytes(a) ? wgp_access_bytes(a) : 1);
  info->store = wgp_access_get_kind(a) != WGP_ACCESS_LOAD;
  if (!wgp_space_is_global(sp)) {
    snprintf(info->reason, FP_REASON, "not a global access");
    return;
  }
  switch (wgp_access_base_kind(a)) {
  case WGP_BASE_SELECT: snprintf(info->reason, FP_REASON, "the buffer is chosen per work-item"); return;
  case WGP_BASE_INDIRECT: snprintf(info->reason, FP_REASON, "the pointer is loaded from memory"); return;
  case WGP_BASE_UNKNOWN: snprintf(info->reason, FP_REASON, "the buffer is unknown"); return;
  default: break;
  }
  info->buffer = buffer_of(s, a);
  if (info->buffer < 0) {
    snprintf(info->reason, FP_REASON, "the buffer is unknown");
    return;
  }
  if (!wgp_access_offset(a)) {
    snprintf(info->reason, FP_REASON, "the address is not computable");
    return;
  }
  size_t b = wgp_access_block(a);
  if (s->unknown[b]) {
    snprintf(info->reason, FP_REASON, "%s", s->why[b][0] ? s->why[b] : "where it executes is not affine");
    return;
  }
  if (!s->reached[b] || !s->dom[b] || isl_set_is_empty(s->dom[b]) == isl_bool_true) {
    info->ok = info->never = true;
    return;
  }
  unsigned d = s->depth[b];
  isl_space *space = block_space(s, d);
  char why[FP_REASON] = "";
  conv c = conv_of(s, space, s->nest[b], d, s->dom[b], why);
  if (s->conv_memo && s->conv_memo_block != b) {
    fp_memo_clear(s->conv_memo);
    s->conv_memo_block = b;
  }
  c.memo = s->conv_memo;
  isl_ctx_reset_operations(s->ctx);
  val v = conv_expr(&c, wgp_access_offset(a));
  if (v.pa && !signed_ok(&c, wgp_access_offset(a), v.pa, wgp_expr_width(wgp_access_offset(a)), "the address")) {
    isl_pw_aff_free(v.pa);
    v.pa = NULL;
  }
  if (v.pa) {
    /* the function must be defined wherever the block executes */
    isl_set *def = isl_pw_aff_domain(isl_pw_aff_copy(v.pa));
    isl_bool covers = isl_set_is_subset(s->dom[b], def);
    isl_set_free(def);
    if (covers != isl_bool_true) {
      isl_pw_aff_free(v.pa);
      v.pa = NULL;
      why_set(why, "isl gave up on the address");
    }
  }
  isl_space_free(space);
  if (!v.pa) {
    snprintf(info->reason, FP_REASON, "address not affine: %.120s", why[0] ? why : "isl gave up");
    return;
  }
  s->addr[id] = v.pa;
  linear_form(s, id, FP_IDS + d);
  info->ok = true;
  info->bound = s->inexact[b];
  if (info->bound)
    snprintf(info->reason, FP_REASON, "%s", s->why[b]);
}

/* ---- the public side --------------------------------------------------------------- */

wgp_status fp_sets_new(const wgp_analysis_input *in, fp_sets **out, wgp_diag *diag) {
  *out = NULL;
  fp_sets *s = calloc(1, sizeof *s);
  if (!s)
    return wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
  s->in = in;
  s->k = in->kernel;
  s->L = in->launch;
  if (!s->L.warp_size)
    s->L.warp_size = wgp_gpu_warp_size(in->gpu);
  s->groups = 1;
  for (unsigned d = 0; d < 3; d++) {
    if (!s->L.local[d] || !s->L.global[d]) {
      free(s);
      return wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: launch: zero size in dimension %u", d);
    }
    s->ngrp[d] = (s->L.global[d] + s->L.local[d] - 1) / s->L.local[d];
    s->partial[d] = s->L.global[d] % s->L.local[d] != 0;
    s->groups *= s->ngrp[d];
  }
  s->nblocks = wgp_kernel_num_blocks(s->k);
  s->nloops = wgp_kernel_num_loops(s->k);
  s->nacc = wgp_kernel_num_accesses(s->k);
  size_t nb = s->nblocks ? s->nblocks : 1, nl = s->nloops ? s->nloops : 1, na = s->nacc ? s->nacc : 1;
  s->ctx = isl_ctx_alloc();
  s->dom = calloc(nb, sizeof *s->dom);
  s->reached = calloc(nb, sizeof *s->reached);
  s->inexact = calloc(nb, sizeof *s->inexact);
  s->unknown = calloc(nb, sizeof *s->unknown);
  s->why = calloc(nb, sizeof *s->why);
  s->depth = calloc(nb, sizeof *s->depth);
  s->nest = calloc(nb, sizeof *s->nest);
  s->entry = calloc(nl, sizeof *s->entry);
  s->loop_failed = calloc(nl, sizeof *s->loop_failed);
  s->acc = calloc(na, sizeof *s->acc);
  s->addr = calloc(na, sizeof *s->addr);
  s->linear = calloc(na, sizeof *s->linear);
  s->coef = calloc(na, sizeof *s->coef);
  s->cst = calloc(na, sizeof *s->cst);
  s->memo_rx = calloc(na, sizeof *s->memo_rx);
  s->memo_img = calloc(na, sizeof *s->memo_img);
  s->memo_n = calloc(na, sizeof *s->memo_n);
  s->memo_next = calloc(na, sizeof *s->memo_next);
  s->bufname = calloc(na, sizeof *s->bufname);
  s->bufkey = calloc(na, sizeof *s->bufkey);
  if (!s->ctx || !s->dom || !s->reached || !s->inexact || !s->unknown || !s->why || !s->depth || !s->nest || !s->entry ||
      !s->loop_failed || !s->acc || !s->addr || !s->linear || !s->coef || !s->cst || !s->memo_rx || !s->memo_img || !s->memo_n ||
      !s->memo_next || !s->bufname || !s->bufkey) {
    fp_sets_free(s);
    return wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
  }
  /* isl records errors for us instead of printing them, and gives up on a
   * set past a fixed amount of work: the cost stays bounded and the output
   * deterministic. */
  isl_options_set_on_error(s->ctx, ISL_ON_ERROR_CONTINUE);
  isl_ctx_set_max_operations(s->ctx, FP_MAX_OPERATIONS);
  bool deep = false;
  for (size_t b = 0; b < s->nblocks; b++) {
    unsigned d = nest_of(s->k, b, s->nest[b]);
    if (d > FP_MAX_DEPTH) {
      deep = true;
      d = FP_MAX_DEPTH;
    }
    s->depth[b] = d;
  }
  if (wgp_kernel_irreducible(s->k) || deep) {
    for (size_t b = 0; b < s->nblocks; b++) {
      s->unknown[b] = true;
      snprintf(s->why[b], FP_REASON, "%s", deep ? "loops nested too deeply" : "irreducible control flow");
    }
  } else {
    compute_domains(s);
  }
  s->conv_memo = fp_memo_new(); /* none when out of memory: every conversion is then made anew */
  s->conv_memo_block = SIZE_MAX;
  for (size_t i = 0; i < s->nacc; i++)
    describe_access(s, i);
  fp_memo_free(s->conv_memo);
  s->conv_memo = NULL;
  *out = s;
  return WGP_OK;
}

void fp_sets_free(fp_sets *s) {
  if (!s)
    return;
  for (size_t b = 0; s->dom && b < s->nblocks; b++)
    isl_set_free(s->dom[b]);
  for (size_t l = 0; s->entry && l < s->nloops; l++)
    isl_set_free(s->entry[l]);
  for (size_t i = 0; s->addr && i < s->nacc; i++)
    isl_pw_aff_free(s->addr[i]);
  free(s->dom), free(s->reached), free(s->inexact), free(s->unknown), free(s->why), free(s->depth), free(s->nest);
  free(s->entry), free(s->loop_failed), free(s->acc), free(s->addr), free(s->linear), free(s->coef), free(s->cst);
  for (size_t i = 0; s->memo_img && i < s->nacc; i++)
    isl_set_free(s->memo_img[i][0]), isl_set_free(s->memo_img[i][1]);
  free(s->memo_rx), free(s->memo_img), free(s->memo_n), free(s->memo_next);
  free(s->bufname), free(s->bufkey), free(s->ranges);
  if (s->ctx)
    isl_ctx_free(s->ctx);
  free(s);
}

const fp_access_info *fp_sets_access(const fp_sets *s, size_t id) { return &s->acc[id]; }
size_t fp_sets_num_buffers(const fp_sets *s) { return s->nbuf; }
const char *fp_sets_buffer_name(const fp_sets *s, int buffer) { return s->bufname[buffer]; }
long fp_sets_buffer_key(const fp_sets *s, int buffer) { return s->bufkey[buffer]; }
uint64_t fp_sets_groups(const fp_sets *s) { return s->groups; }
isl_ctx *fp_sets_ctx(fp_sets *s) { return s->ctx; }

/* ---- mixed-radix views ----------------------------------------------------------------- */

/* The affine function sum of COEF[i] * x_i (over DIMS dims) on SPACE. */
static isl_aff *make_aff(fp_sets *s, unsigned dims, const int64_t *coef) {
  isl_aff *a = isl_aff_zero_on_domain(isl_local_space_from_space(block_space(s, dims - FP_IDS)));
  for (unsigned i = 0; i < dims; i++)
    if (coef[i])
      a = isl_aff_set_coefficient_val(a, isl_dim_in, (int)i, isl_val_int_from_si(s->ctx, coef[i]));
  return a;
}

/* Level of coefficient X under RX: the largest radix dividing it (0: none). */
static size_t level_of(const fp_radix *rx, size_t nr, int64_t x) {
  for (size_t j = nr; j > 0; j--)
    if (x % rx->radix[j - 1] == 0)
      return j;
  return 0;
}

/* The coefficients of digit LEVEL (in its own units) of access ID. */
static void digit_coef(const fp_sets *s, size_t id, unsigned dims, const fp_radix *rx, size_t nr, size_t level,
                       int64_t *out) {
  for (unsigned i = 0; i < dims; i++) {
    int64_t x = s->coef[id][i];
    out[i] = x && level_of(rx, nr, x) == level ? (level ? x / rx->radix[level - 1] : x) : 0;
  }
}

/* The range of sum COEF[i] x_i over the domain of block B (access ID's),
 * remembered: the search for a view asks for the same ones many times. */
static bool range_of(fp_sets *s, size_t id, size_t b, unsigned dims, const int64_t *coef, int64_t *lo, int64_t *hi) {
  for (size_t i = 0; i < s->nranges; i++) {
    fp_range *r = &s->ranges[i];
    if (r->id == id && memcmp(r->coef, coef, dims * sizeof *coef) == 0) {
      *lo = r->lo, *hi = r->hi;
      return r->ok;
    }
  }
  isl_aff *t = make_aff(s, dims, coef);
  isl_val *mn = isl_set_min_val(s->dom[b], t), *mx = isl_set_max_val(s->dom[b], t);
  isl_aff_free(t);
  bool ok = mn && mx && isl_val_is_int(mn) == isl_bool_true && isl_val_is_int(mx) == isl_bool_true;
  bool empty = mn && isl_val_is_nan(mn) == isl_bool_true;
  *lo = ok ? isl_val_get_num_si(mn) : 0, *hi = ok ? isl_val_get_num_si(mx) : 0;
  isl_val_free(mn), isl_val_free(mx);
  if (empty) { /* never executed: any constant will do */
    *lo = *hi = 0;
    ok = true;
  }
  if (s->nranges == s->caprange) {
    size_t cap = s->caprange ? 2 * s->caprange : 64;
    fp_range *v = realloc(s->ranges, cap * sizeof *v);
    if (!v)
      return ok;
    s->ranges = v, s->caprange = cap;
  }
  fp_range *r = &s->ranges[s->nranges++];
  memset(r, 0, sizeof *r);
  r->id = id, r->lo = *lo, r->hi = *hi, r->ok = ok;
  memcpy(r->coef, coef, dims * sizeof *coef);
  return ok;
}

/* The digits' constants of access ID under the first NR radices, chosen so
 * that every digit stays in its range; false with *BAD the first radix
 * that a digit carries across. */
static bool digit_constants(fp_sets *s, size_t id, const fp_radix *rx, size_t nr, int64_t *cst, size_t *bad) {
  size_t b = wgp_access_block(wgp_kernel_access(s->k, id));
  unsigned dims = FP_IDS + s->depth[b];
  int64_t rem = s->cst[id], coef[FP_IDS + FP_MAX_DEPTH];
  for (size_t j = 0; j <= nr; j++) {
    if (j == nr) {
      cst[j] = rem;
      return true;
    }
    int64_t span = j == 0 ? rx->radix[0] : rx->radix[j] / rx->radix[j - 1];
    digit_coef(s, id, dims, rx, nr, j, coef);
    int64_t lo, hi;
    bool ok = range_of(s, id, b, dims, coef, &lo, &hi);
    if (!ok) {
      *bad = j;
      return false;
    }
    int64_t c = rem - span * floor_div(rem + lo, span);
    int64_t top = hi + c + (j == 0 ? (int64_t)s->acc[id].bytes - 1 : 0);
    if (top >= span) {
      *bad = j;
      return false;
    }
    cst[j] = c;
    rem = (rem - c) / span;
  }
  return true;
}

void fp_sets_radix(fp_sets *s, const size_t *ids, size_t n, unsigned unit, fp_radix *out) {
  memset(out, 0, sizeof *out);
  out->unit = unit;
  /* candidates: coefficients that are multiples of the unit */
  int64_t cand[64];
  size_t nc = 0;
  bool all_linear = true;
  for (size_t i = 0; i < n; i++) {
    size_t id = ids[i];
    if (!s->acc[id].ok || s->acc[id].never)
      continue;
    if (!s->linear[id]) {
      all_linear = false;
      continue;
    }
    size_t b = wgp_access_block(wgp_kernel_access(s->k, id));
    for (unsigned d = 0; d < FP_IDS + s->depth[b]; d++) {
      int64_t x = s->coef[id][d] < 0 ? -s->coef[id][d] : s->coef[id][d];
      if (x < (int64_t)unit || x % unit || nc == 64)
        continue;
      bool dup = false;
      for (size_t j = 0; j < nc; j++)
        dup = dup || cand[j] == x;
      if (!dup)
        cand[nc++] = x;
    }
  }
  if (!all_linear || !nc)
    return; /* plain sector numbers */
  for (size_t i = 1; i < nc; i++) /* insertion sort, ascending */
    for (size_t j = i; j > 0 && cand[j] < cand[j - 1]; j--) {
      int64_t t = cand[j];
      cand[j] = cand[j - 1];
      cand[j - 1] = t;
    }
  /* A chain from each candidate up (each radix a multiple of the one
   * before), less the radices some access's digits carry across; the chain
   * with the most radices left wins (a tie: the first, the finest). */
  fp_radix best = *out;
  for (size_t first = 0; first < nc; first++) {
    fp_radix r = {unit, 0, {0}};
    for (size_t i = first; i < nc && r.n < FP_MAX_RADIX; i++)
      if (!r.n || cand[i] % r.radix[r.n - 1] == 0)
        r.radix[r.n++] = cand[i];
    if (r.n <= best.n)
      continue; /* cannot do better */
    for (bool changed = true; changed && r.n;) {
      changed = false;
      isl_ctx_reset_operations(s->ctx);
      for (size_t i = 0; i < n && !changed; i++) {
        if (!s->acc[ids[i]].ok || s->acc[ids[i]].never)
          continue;
        int64_t cst[FP_MAX_RADIX + 1];
        size_t bad;
        if (!digit_constants(s, ids[i], &r, r.n, cst, &bad)) {
          memmove(&r.radix[bad], &r.radix[bad + 1], (r.n - bad - 1) * sizeof *r.radix);
          r.n--;
          changed = true;
        }
      }
    }
    if (r.n > best.n)
      best = r;
  }
  *out = best;
}

/* ---- sets of units ----------------------------------------------------------------------- */

/* Groups whose dispatch index is in [LO, HI), in a frame of DEPTH loops. */
static isl_set *wave_set(fp_sets *s, unsigned depth, uint64_t lo, uint64_t hi) {
  isl_space *sp = block_space(s, depth);
  isl_local_space *ls = isl_local_space_from_space(isl_space_copy(sp));
  isl_basic_set *bs = isl_basic_set_universe(sp);
  int64_t stride[3] = {1, (int64_t)s->ngrp[0], (int64_t)(s->ngrp[0] * s->ngrp[1])};
  for (int k = 0; k < 2; k++) {
    isl_constraint *c = isl_constraint_alloc_inequality(isl_local_space_copy(ls));
    for (unsigned d = 0; d < 3; d++)
      c = isl_constraint_set_coefficient_val(c, isl_dim_set, (int)d,
                                             isl_val_int_from_si(s->ctx, k == 0 ? stride[d] : -stride[d]));
    c = isl_constraint_set_constant_val(c, isl_val_int_from_si(s->ctx, k == 0 ? -(int64_t)lo : (int64_t)hi - 1));
    bs = isl_basic_set_add_constraint(bs, c);
  }
  isl_local_space_free(ls);
  return isl_set_from_basic_set(bs);
}

static isl_set *wave_domain(fp_sets *s, size_t id, uint64_t lo, uint64_t hi) {
  size_t b = wgp_access_block(wgp_kernel_access(s->k, id));
  return isl_set_intersect(isl_set_copy(s->dom[b]), wave_set(s, s->depth[b], lo, hi));
}

double fp_sets_executions(fp_sets *s, size_t id, uint64_t lo, uint64_t hi) {
  if (!s->acc[id].ok || s->acc[id].never)
    return -1;
  isl_ctx_reset_operations(s->ctx);
  return fp_count(wave_domain(s, id, lo, hi));
}

/* The map from an address A (bytes) to the units it touches under RX:
 * {[a] -> [q_n .. q_1, r]}; with BYTES per lane. */
static isl_map *address_to_units(fp_sets *s, const fp_radix *rx, unsigned bytes) {
  size_t n = rx->n;
  /* in: a; out: q_n..q_1, r, s (s projected out at the end) */
  isl_space *sp = isl_space_alloc(s->ctx, 0, 1, (unsigned)n + 2);
  isl_local_space *ls = isl_local_space_from_space(isl_space_copy(sp));
  isl_basic_map *bm = isl_basic_map_universe(sp);
  int64_t u = rx->unit;
  unsigned spos = (unsigned)n + 1, rpos = (unsigned)n;
  /* u*s <= a + bytes - 1 and a <= u*s + u - 1 */
  isl_constraint *c = isl_constraint_alloc_inequality(isl_local_space_copy(ls));
  c = isl_constraint_set_coefficient_si(c, isl_dim_in, 0, 1);
  c = isl_constraint_set_coefficient_val(c, isl_dim_out, (int)spos, isl_val_int_from_si(s->ctx, -u));
  c = isl_constraint_set_constant_si(c, (int)bytes - 1);
  bm = isl_basic_map_add_constraint(bm, c);
  c = isl_constraint_alloc_inequality(isl_local_space_copy(ls));
  c = isl_constraint_set_coefficient_si(c, isl_dim_in, 0, -1);
  c = isl_constraint_set_coefficient_val(c, isl_dim_out, (int)spos, isl_val_int_from_si(s->ctx, u));
  c = isl_constraint_set_constant_val(c, isl_val_int_from_si(s->ctx, u - 1));
  bm = isl_basic_map_add_constraint(bm, c);
  /* s = sum q_j * radix_j / u + r */
  c = isl_constraint_alloc_equality(isl_local_space_copy(ls));
  c = isl_constraint_set_coefficient_si(c, isl_dim_out, (int)spos, -1);
  c = isl_constraint_set_coefficient_si(c, isl_dim_out, (int)rpos, 1);
  for (size_t j = 1; j <= n; j++)
    c = isl_constraint_set_coefficient_val(c, isl_dim_out, (int)(n - j), isl_val_int_from_si(s->ctx, rx->radix[j - 1] / u));
  bm = isl_basic_map_add_constraint(bm, c);
  /* digit ranges: 0 <= r < radix_1 / u, 0 <= q_j < radix_{j+1} / radix_j */
  for (size_t j = 0; n && j < n; j++) {
    unsigned pos = j == 0 ? rpos : (unsigned)(n - j);
    int64_t span = j == 0 ? rx->radix[0] / u : rx->radix[j] / rx->radix[j - 1];
    c = isl_constraint_alloc_inequality(isl_local_space_copy(ls));
    c = isl_constraint_set_coefficient_si(c, isl_dim_out, (int)pos, 1);
    bm = isl_basic_map_add_constraint(bm, c);
    c = isl_constraint_alloc_inequality(isl_local_space_copy(ls));
    c = isl_constraint_set_coefficient_si(c, isl_dim_out, (int)pos, -1);
    c = isl_constraint_set_constant_val(c, isl_val_int_from_si(s->ctx, span - 1));
    bm = isl_basic_map_add_constraint(bm, c);
  }
  isl_local_space_free(ls);
  isl_map *m = isl_map_from_basic_map(bm);
  if (n)
    m = isl_map_project_out(m, isl_dim_out, spos, 1);
  else
    m = isl_map_project_out(m, isl_dim_out, rpos, 1); /* r and s are the same: keep one */
  return m;
}

static bool radix_equal(const fp_radix *a, const fp_radix *b) {
  if (a->unit != b->unit || a->n != b->n)
    return false;
  for (size_t i = 0; i < a->n; i++)
    if (a->radix[i] != b->radix[i])
      return false;
  return true;
}

/* Give: {v -> units} for access ID under RX. */
static isl_map *access_map(fp_sets *s, size_t id, const fp_radix *rx) {
  size_t b = wgp_access_block(wgp_kernel_access(s->k, id));
  unsigned dims = FP_IDS + s->depth[b], bytes = s->acc[id].bytes;
  int64_t cst[FP_MAX_RADIX + 1];
  size_t bad;
  /* the constraints below need c_0 + bytes - 1 and u - 1 - c_0 in 64 bits: a
   * constant at the ends of the range (a fuzzed model's) takes the general map */
  int64_t coef[FP_IDS + FP_MAX_DEPTH];
  bool fits = s->linear[id] && digit_constants(s, id, rx, rx->n, cst, &bad) &&
              cst[0] <= INT64_MAX - (int64_t)bytes && cst[0] >= -(INT64_MAX - (int64_t)rx->unit);
  if (fits) { /* and the coefficients negated below */
    digit_coef(s, id, dims, rx, rx->n, 0, coef);
    for (unsigned i = 0; i < dims; i++)
      fits = fits && coef[i] != INT64_MIN;
  }
  if (!fits)
    return isl_map_apply_range(isl_map_from_pw_aff(isl_pw_aff_copy(s->addr[id])), address_to_units(s, rx, bytes));
  /* {v -> [q_n .. q_1, r]}: q_j = c_j + T_j(v), u*r <= c_0 + T_0(v) + bytes - 1, c_0 + T_0(v) <= u*r + u - 1 */
  size_t n = rx->n;
  int64_t u = rx->unit;
  isl_space *sp = isl_space_alloc(s->ctx, 0, dims, (unsigned)n + 1);
  isl_local_space *ls = isl_local_space_from_space(isl_space_copy(sp));
  isl_basic_map *bm = isl_basic_map_universe(sp);
  for (size_t j = 1; j <= n; j++) {
    digit_coef(s, id, dims, rx, n, j, coef);
    isl_constraint *c = isl_constraint_alloc_equality(isl_local_space_copy(ls));
    for (unsigned i = 0; i < dims; i++)
      if (coef[i])
        c = isl_constraint_set_coefficient_val(c, isl_dim_in, (int)i, isl_val_int_from_si(s->ctx, coef[i]));
    c = isl_constraint_set_coefficient_si(c, isl_dim_out, (int)(n - j), -1);
    c = isl_constraint_set_constant_val(c, isl_val_int_from_si(s->ctx, cst[j]));
    bm = isl_basic_map_add_constraint(bm, c);
  }
  digit_coef(s, id, dims, rx, n, 0, coef);
  for (int side = 0; side < 2; side++) {
    isl_constraint *c = isl_constraint_alloc_inequality(isl_local_space_copy(ls));
    int64_t sg = side == 0 ? 1 : -1;
    for (unsigned i = 0; i < dims; i++)
      if (coef[i])
        c = isl_constraint_set_coefficient_val(c, isl_dim_in, (int)i, isl_val_int_from_si(s->ctx, sg * coef[i]));
    c = isl_constraint_set_coefficient_val(c, isl_dim_out, (int)n, isl_val_int_from_si(s->ctx, -sg * u));
    int64_t k0 = side == 0 ? cst[0] + (int64_t)bytes - 1 : -cst[0] + u - 1;
    c = isl_constraint_set_constant_val(c, isl_val_int_from_si(s->ctx, k0));
    bm = isl_basic_map_add_constraint(bm, c);
  }
  isl_local_space_free(ls);
  return isl_map_from_basic_map(bm);
}

/* The groups [lo, hi) of the dispatch order, lo and hi parameters, in a
 * frame of DEPTH loops. */
static isl_set *param_wave(fp_sets *s, unsigned depth) {
  isl_space *sp = isl_space_set_alloc(s->ctx, 2, FP_IDS + depth);
  sp = isl_space_set_dim_id(sp, isl_dim_param, 0, isl_id_alloc(s->ctx, "lo", NULL));
  sp = isl_space_set_dim_id(sp, isl_dim_param, 1, isl_id_alloc(s->ctx, "hi", NULL));
  isl_local_space *ls = isl_local_space_from_space(isl_space_copy(sp));
  isl_basic_set *bs = isl_basic_set_universe(sp);
  int64_t stride[3] = {1, (int64_t)s->ngrp[0], (int64_t)(s->ngrp[0] * s->ngrp[1])};
  for (int k = 0; k < 2; k++) { /* lo <= index, index <= hi - 1 */
    isl_constraint *c = isl_constraint_alloc_inequality(isl_local_space_copy(ls));
    for (unsigned d = 0; d < 3; d++)
      c = isl_constraint_set_coefficient_val(c, isl_dim_set, (int)d,
                                             isl_val_int_from_si(s->ctx, k == 0 ? stride[d] : -stride[d]));
    c = isl_constraint_set_coefficient_si(c, isl_dim_param, k, k == 0 ? -1 : 1);
    c = isl_constraint_set_constant_si(c, k == 0 ? 0 : -1);
    bs = isl_basic_set_add_constraint(bs, c);
  }
  isl_local_space_free(ls);
  return isl_set_from_basic_set(bs);
}

isl_set *fp_sets_units(fp_sets *s, size_t id, const fp_radix *rx, uint64_t lo, uint64_t hi) {
  if (!s->acc[id].ok || s->acc[id].never)
    return NULL;
  /* The image is computed once per access and view with the wave's bounds
   * as parameters; each wave then only fixes them. */
  int hit = -1;
  for (int j = 0; j < s->memo_n[id]; j++)
    if (radix_equal(&s->memo_rx[id][j], rx))
      hit = j;
  if (hit < 0) {
    size_t b = wgp_access_block(wgp_kernel_access(s->k, id));
    isl_set *dom = isl_set_intersect(param_wave(s, s->depth[b]), isl_set_copy(s->dom[b]));
    isl_set *img = isl_set_coalesce(isl_set_apply(dom, access_map(s, id, rx)));
    if (!img)
      return NULL;
    hit = s->memo_next[id];
    isl_set_free(s->memo_img[id][hit]);
    s->memo_img[id][hit] = img;
    s->memo_rx[id][hit] = *rx;
    s->memo_next[id] = (unsigned char)(1 - hit);
    if (s->memo_n[id] < 2)
      s->memo_n[id]++;
  }
  isl_set *x = isl_set_copy(s->memo_img[id][hit]);
  x = isl_set_fix_val(x, isl_dim_param, 0, isl_val_int_from_si(s->ctx, (long)lo));
  x = isl_set_fix_val(x, isl_dim_param, 1, isl_val_int_from_si(s->ctx, (long)hi));
  return isl_set_coalesce(isl_set_project_out(x, isl_dim_param, 0, 2));
}
