/* footprint_count.c - exact counts of the integer points of isl sets
 * without enumerating them one by one (used by footprint_sets.c and
 * footprint.c through fp_count).
 *
 * Assumptions: the sets are bounded and have no parameters.  A union, or a
 * piece with existentially quantified variables, is counted from the runs
 * of its points (count_runs) where they are few enough to walk; otherwise
 * isl_set_make_disjoint makes its pieces disjoint, whose divisions are then
 * known (a piece whose are not goes to isl's own count).
 */
#include "footprint_internal.h"

#include <isl/aff.h>
#include <isl/constraint.h>
#include <isl/ilp.h>
#include <isl/local_space.h>
#include <isl/lp.h>
#include <isl/space.h>
#include <isl/val.h>

#include <stdlib.h>
#include <string.h>

static int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

/* ---- counting ------------------------------------------------------------------------ */

/* isl counts a set by scanning it, one step per point of every dimension
 * but the last: the cost is the points over the last extent.  A piece
 * whose dimensions fall into independent groups (no constraint couples
 * them) is the product of its groups, so each group is counted alone: a
 * box of rows x sectors costs a few steps instead of one per row. */

#define FP_COUNT_DIMS 32

typedef struct fp_cons {
  bool eq;
  int64_t c[FP_COUNT_DIMS];
  int64_t k;
} fp_cons;

typedef struct fp_conslist {
  fp_cons *v;
  size_t n, cap;
  unsigned dims;
  bool bad;
} fp_conslist;

static isl_stat collect_cons(isl_constraint *c, void *user) {
  fp_conslist *l = user;
  if (l->n == l->cap) {
    size_t cap = l->cap ? 2 * l->cap : 16;
    fp_cons *v = realloc(l->v, cap * sizeof *v);
    if (!v) {
      l->bad = true;
      isl_constraint_free(c);
      return isl_stat_error;
    }
    l->v = v, l->cap = cap;
  }
  fp_cons *x = &l->v[l->n++];
  memset(x, 0, sizeof *x);
  x->eq = isl_constraint_is_equality(c) == isl_bool_true;
  for (unsigned i = 0; i <= l->dims && !l->bad; i++) {
    isl_val *v = i < l->dims ? isl_constraint_get_coefficient_val(c, isl_dim_set, (int)i)
                             : isl_constraint_get_constant_val(c);
    if (!v || isl_val_is_int(v) != isl_bool_true)
      l->bad = true;
    long n = v ? isl_val_get_num_si(v) : 0;
    /* isl_val_get_num_si truncates beyond a long: check it round-trips */
    if (v && isl_val_cmp_si(v, n) != 0)
      l->bad = true;
    if (i < l->dims)
      x->c[i] = n;
    else
      x->k = n;
    isl_val_free(v);
  }
  isl_constraint_free(c);
  return l->bad ? isl_stat_error : isl_stat_ok;
}

static double count_isl(isl_basic_set *bs) {
  isl_set *set = isl_set_from_basic_set(bs);
  isl_val *v = isl_set_count_val(set); /* keeps SET */
  isl_set_free(set);
  double r = v && isl_val_is_int(v) == isl_bool_true ? isl_val_get_d(v) : -1;
  isl_val_free(v);
  return r;
}

/* The enumeration below walks at most this many points of the outer
 * dimensions; past it, isl counts. */
#define FP_ENUM_LIMIT (1u << 18)
#define FP_ENUM_DIMS 8
#define FP_ENUM_DIVS 8

static bool val_si(isl_val *v, int64_t *out) {
  bool ok = v && isl_val_is_int(v) == isl_bool_true;
  long n = ok ? isl_val_get_num_si(v) : 0;
  ok = ok && isl_val_cmp_si(v, n) == 0;
  isl_val_free(v);
  *out = n;
  return ok;
}

static int64_t fdiv(int64_t a, int64_t b) { return floor_div(a, b); }
static int64_t cdiv(int64_t a, int64_t b) { return -floor_div(-a, b); }

typedef struct fp_enum {
  unsigned n, nd;
  int64_t dnum[FP_ENUM_DIVS][FP_ENUM_DIMS + FP_ENUM_DIVS + 1]; /* div j = floor((dnum . (x, d<j, 1)) / dden) */
  int64_t dden[FP_ENUM_DIVS];
  fp_cons *c; /* coefficients: x, then divs, constant in k */
  size_t nc;
  int64_t lo[FP_ENUM_DIMS], hi[FP_ENUM_DIMS];
  bool bad;
} fp_enum;

typedef struct fp_enum_cons {
  fp_enum *e;
  size_t cap;
} fp_enum_cons;

static isl_stat enum_cons(isl_constraint *c, void *user) {
  fp_enum_cons *ec = user;
  fp_enum *e = ec->e;
  if (e->nc == ec->cap) {
    ec->cap = ec->cap ? 2 * ec->cap : 16;
    fp_cons *v = realloc(e->c, ec->cap * sizeof *v);
    if (!v) {
      e->bad = true;
      isl_constraint_free(c);
      return isl_stat_error;
    }
    e->c = v;
  }
  fp_cons *x = &e->c[e->nc++];
  memset(x, 0, sizeof *x);
  x->eq = isl_constraint_is_equality(c) == isl_bool_true;
  for (unsigned i = 0; i < e->n + e->nd && !e->bad; i++)
    e->bad = !val_si(i < e->n ? isl_constraint_get_coefficient_val(c, isl_dim_set, (int)i)
                              : isl_constraint_get_coefficient_val(c, isl_dim_div, (int)(i - e->n)),
                     &x->c[i]);
  e->bad = e->bad || !val_si(isl_constraint_get_constant_val(c), &x->k);
  isl_constraint_free(c);
  return e->bad ? isl_stat_error : isl_stat_ok;
}

/* Points of BS (keep) by walking every dimension but one and counting the
 * last as an interval, in 64-bit integers: a few nanoseconds per outer
 * point where isl's scan takes microseconds.  -1 when the piece does not
 * suit (unknown divisions, too many outer points, large values). */
static double count_enum(isl_basic_set *bs) {
  fp_enum e;
  memset(&e, 0, sizeof e);
  isl_size n = isl_basic_set_dim(bs, isl_dim_set), nd = isl_basic_set_dim(bs, isl_dim_div);
  if (n < 1 || nd < 0 || n > FP_ENUM_DIMS || nd > FP_ENUM_DIVS)
    return -1;
  e.n = (unsigned)n, e.nd = (unsigned)nd;
  for (unsigned j = 0; j < e.nd && !e.bad; j++) {
    isl_aff *a = isl_basic_set_get_div(bs, (int)j);
    e.bad = !a || isl_aff_is_nan(a) != isl_bool_false || !val_si(isl_aff_get_denominator_val(a), &e.dden[j]) ||
            e.dden[j] <= 0;
    for (unsigned i = 0; i <= e.n + j && !e.bad; i++) {
      isl_val *v = i < e.n ? isl_aff_get_coefficient_val(a, isl_dim_in, (int)i)
                 : i < e.n + j ? isl_aff_get_coefficient_val(a, isl_dim_div, (int)(i - e.n))
                               : isl_aff_get_constant_val(a);
      v = isl_val_mul(v, isl_val_int_from_si(isl_basic_set_get_ctx(bs), (long)e.dden[j]));
      e.bad = !val_si(v, &e.dnum[j][i < e.n + j ? i : FP_ENUM_DIMS + FP_ENUM_DIVS]);
    }
    isl_aff_free(a);
  }
  fp_enum_cons ec = {&e, 0};
  if (!e.bad)
    isl_basic_set_foreach_constraint(bs, enum_cons, &ec);
  /* the bounding box: from constraints on one dimension where there are
   * some, else an integer program */
  for (unsigned i = 0; i < e.n && !e.bad; i++) {
    bool has_lo = false, has_hi = false;
    for (size_t q = 0; q < e.nc; q++) {
      const fp_cons *c = &e.c[q];
      bool single = c->c[i] != 0;
      for (unsigned j = 0; j < e.n + e.nd && single; j++)
        single = j == i || c->c[j] == 0;
      if (!single)
        continue;
      if (c->eq || c->c[i] > 0) { /* a x + k >= 0: x >= ceil(-k / a) */
        int64_t a = c->c[i] > 0 ? c->c[i] : -c->c[i], k = c->c[i] > 0 ? c->k : -c->k, t = cdiv(-k, a);
        e.lo[i] = has_lo && e.lo[i] > t ? e.lo[i] : t, has_lo = true;
      }
      if (c->eq || c->c[i] < 0) { /* -a x + k >= 0: x <= floor(k / a) */
        int64_t a = c->c[i] < 0 ? -c->c[i] : c->c[i], k = c->c[i] < 0 ? c->k : -c->k, t = fdiv(k, a);
        e.hi[i] = has_hi && e.hi[i] < t ? e.hi[i] : t, has_hi = true;
      }
    }
    isl_set *x = has_lo && has_hi ? NULL : isl_set_from_basic_set(isl_basic_set_copy(bs));
    if (!has_lo)
      e.bad = !val_si(isl_set_dim_min_val(isl_set_copy(x), (int)i), &e.lo[i]);
    if (!has_hi && !e.bad)
      e.bad = !val_si(isl_set_dim_max_val(isl_set_copy(x), (int)i), &e.hi[i]);
    isl_set_free(x);
  }
  /* the inner dimension: the widest no division reads; without one, every
   * point is walked (the inner range is then one value at a time) */
  int inner = -1;
  for (unsigned i = 0; i < e.n && !e.bad; i++) {
    bool used = false;
    for (unsigned j = 0; j < e.nd; j++)
      used = used || e.dnum[j][i] != 0;
    if (!used && (inner < 0 || e.hi[i] - e.lo[i] > e.hi[inner] - e.lo[inner]))
      inner = (int)i;
  }
  bool walk_all = inner < 0;
  if (walk_all) { /* an extra dimension of one value stands for the inner one */
    if (e.n == FP_ENUM_DIMS) {
      free(e.c);
      return -1;
    }
    inner = (int)e.n;
    e.lo[inner] = e.hi[inner] = 0;
  }
  double outer = 1;
  for (unsigned i = 0; i < e.n && !e.bad; i++) {
    if (e.hi[i] < e.lo[i]) {
      free(e.c);
      return 0;
    }
    if ((int)i != inner)
      outer *= (double)(e.hi[i] - e.lo[i] + 1);
    /* values stay far from overflow: |coefficient| x |value| < 2^62 */
    e.bad = e.bad || e.lo[i] < -(INT64_C(1) << 40) || e.hi[i] > (INT64_C(1) << 40);
  }
  for (size_t q = 0; q < e.nc && !e.bad; q++)
    for (unsigned i = 0; i < e.n + e.nd; i++)
      e.bad = e.bad || e.c[q].c[i] > (INT64_C(1) << 21) || e.c[q].c[i] < -(INT64_C(1) << 21);
  if (e.bad || outer > FP_ENUM_LIMIT) {
    free(e.c);
    return -1;
  }
  int64_t x[FP_ENUM_DIMS], d[FP_ENUM_DIVS];
  for (unsigned i = 0; i < e.n; i++)
    x[i] = e.lo[i];
  double total = 0;
  for (bool more = true; more;) {
    x[inner] = 0;
    for (unsigned j = 0; j < e.nd; j++) {
      int64_t v = e.dnum[j][FP_ENUM_DIMS + FP_ENUM_DIVS];
      for (unsigned i = 0; i < e.n; i++)
        v += e.dnum[j][i] * x[i];
      for (unsigned i = 0; i < j; i++)
        v += e.dnum[j][e.n + i] * d[i];
      d[j] = fdiv(v, e.dden[j]);
    }
    int64_t lo = e.lo[inner], hi = e.hi[inner];
    for (size_t q = 0; q < e.nc && lo <= hi; q++) {
      const fp_cons *c = &e.c[q];
      int64_t v = c->k, a = walk_all ? 0 : c->c[inner];
      for (unsigned i = 0; i < e.n; i++)
        if ((int)i != inner)
          v += c->c[i] * x[i];
      for (unsigned j = 0; j < e.nd; j++)
        v += c->c[e.n + j] * d[j];
      /* a * x_inner + v >= 0 (or == 0) */
      if (a == 0) {
        if (c->eq ? v != 0 : v < 0)
          hi = lo - 1;
      } else if (c->eq) {
        if (v % a != 0)
          hi = lo - 1;
        else {
          int64_t t = -v / a;
          lo = t > lo ? t : lo;
          hi = t < hi ? t : hi;
        }
      } else if (a > 0) {
        int64_t t = cdiv(-v, a);
        lo = t > lo ? t : lo;
      } else {
        int64_t t = fdiv(v, -a);
        hi = t < hi ? t : hi;
      }
    }
    if (hi >= lo)
      total += (double)(hi - lo + 1);
    more = false;
    for (unsigned i = 0; i < e.n; i++) {
      if ((int)i == inner)
        continue;
      if (x[i] < e.hi[i]) {
        x[i]++;
        more = true;
        break;
      }
      x[i] = e.lo[i];
    }
  }
  free(e.c);
  return total;
}

static double count_direct(isl_basic_set *bs) {
  double r = count_enum(bs);
  if (r >= 0) {
    isl_basic_set_free(bs);
    return r;
  }
  return count_isl(bs);
}

static unsigned uf_find(unsigned *p, unsigned i) {
  while (p[i] != i)
    i = p[i] = p[p[i]];
  return i;
}

/* Points of BS (take). */
static double count_piece(isl_basic_set *bs) {
  bs = isl_basic_set_remove_redundancies(bs);
  isl_size nd = isl_basic_set_dim(bs, isl_dim_set), ndiv = isl_basic_set_dim(bs, isl_dim_div);
  if (nd < 0 || ndiv < 0) {
    isl_basic_set_free(bs);
    return -1;
  }
  if (ndiv > 0 || nd > FP_COUNT_DIMS || nd < 2)
    return count_direct(bs);
  fp_conslist l = {NULL, 0, 0, (unsigned)nd, false};
  isl_basic_set_foreach_constraint(bs, collect_cons, &l);
  if (l.bad) {
    free(l.v);
    return count_direct(bs);
  }
  unsigned parent[FP_COUNT_DIMS];
  for (unsigned i = 0; i < (unsigned)nd; i++)
    parent[i] = i;
  for (size_t j = 0; j < l.n; j++) {
    int first = -1;
    for (unsigned i = 0; i < (unsigned)nd; i++)
      if (l.v[j].c[i]) {
        if (first < 0)
          first = (int)i;
        else
          parent[uf_find(parent, i)] = uf_find(parent, (unsigned)first);
      }
  }
  isl_ctx *ctx = isl_basic_set_get_ctx(bs);
  double total = 1;
  for (unsigned root = 0; root < (unsigned)nd && total != 0; root++) {
    if (uf_find(parent, root) != root)
      continue;
    unsigned map[FP_COUNT_DIMS], m = 0;
    for (unsigned i = 0; i < (unsigned)nd; i++)
      map[i] = uf_find(parent, i) == root ? m++ : UINT32_MAX;
    isl_space *sp = isl_space_set_alloc(ctx, 0, m);
    isl_local_space *ls = isl_local_space_from_space(isl_space_copy(sp));
    isl_basic_set *g = isl_basic_set_universe(sp);
    for (size_t j = 0; j < l.n; j++) {
      bool mine = false;
      for (unsigned i = 0; i < (unsigned)nd; i++)
        mine = mine || (l.v[j].c[i] && map[i] != UINT32_MAX);
      if (!mine)
        continue;
      isl_constraint *c = l.v[j].eq ? isl_constraint_alloc_equality(isl_local_space_copy(ls))
                                    : isl_constraint_alloc_inequality(isl_local_space_copy(ls));
      for (unsigned i = 0; i < (unsigned)nd; i++)
        if (l.v[j].c[i])
          c = isl_constraint_set_coefficient_val(c, isl_dim_set, (int)map[i], isl_val_int_from_si(ctx, l.v[j].c[i]));
      c = isl_constraint_set_constant_val(c, isl_val_int_from_si(ctx, l.v[j].k));
      g = isl_basic_set_add_constraint(g, c);
    }
    isl_local_space_free(ls);
    double n = count_direct(g);
    total = n < 0 ? -1 : total * n;
    if (total < 0)
      break;
  }
  /* a constraint without dimensions (0 >= 1) makes the piece empty */
  for (size_t j = 0; j < l.n && total > 0; j++) {
    bool none = true;
    for (unsigned i = 0; i < (unsigned)nd; i++)
      none = none && !l.v[j].c[i];
    if (none && (l.v[j].eq ? l.v[j].k != 0 : l.v[j].k < 0))
      total = 0;
  }
  free(l.v);
  isl_basic_set_free(bs);
  return total;
}

/* ---- unions by their points' runs ------------------------------------------------------- */

/* isl_set_make_disjoint needs every existentially quantified variable as
 * an explicit division first (isl_map_compute_divs: parametric integer
 * programming), which on the sector sets of a tile loaded with its halo
 * from rows of an odd pitch (stencil2d: 4098 floats) took 35-50 s for one
 * union, past isl's operation quota at the end (its pivots are few but
 * each works on numbers that keep growing), and 2-8 s for each of the
 * unions of 16 clamped loads of Parboil's SAD, which it did finish.  A
 * union is counted here instead from its points directly: every piece with
 * its divisions lifted to variables of their own (a known division with
 * the two constraints that define it), a box around it from its
 * constraints, and a walk over every variable but the last of the set's,
 * which gives a run of that last variable per point walked; the runs of all
 * pieces, as ranges of the set's points in row-major order, are sorted and
 * merged.  The walk bounds each variable by what the ones before it leave
 * (fp_walk), so a division or an existential tied to them takes its few
 * values, not its box's.  Exact (test_footprint: against points marked one
 * by one, and the footprints against every lane enumerated); its cost is
 * the values walked, at most FP_RUN_LIMIT per union: past it (or with
 * numbers too large for 64 bits) the union goes to isl as before.  stencil2d
 * 4096^2: `wgperf analyze` 27 s -> 0.13 s CPU, every footprint exact (isl had
 * given up on the input buffer's); SAD: 100 s -> 1.6 s, the same report. */

#define FP_RUN_LIMIT (1u << 20)
/* isl's operations (simplex pivots) for a union past FP_RUN_LIMIT */
#define FP_DISJOINT_OPERATIONS 100000ul
#define FP_RUN_VARS 24

typedef struct fp_sys {
  unsigned n, nv;           /* set dimensions, variables (set dimensions then divisions) */
  fp_cons *c;               /* a x + k >= 0 (or == 0) over the nv variables */
  size_t nc, cap;
  int64_t lo[FP_RUN_VARS], hi[FP_RUN_VARS];
  bool bad;
} fp_sys;

static void sys_add(fp_sys *y, const fp_cons *c) {
  if (y->bad)
    return;
  if (y->nc == y->cap) {
    size_t cap = y->cap ? 2 * y->cap : 16;
    fp_cons *v = realloc(y->c, cap * sizeof *v);
    if (!v) {
      y->bad = true;
      return;
    }
    y->c = v, y->cap = cap;
  }
  y->c[y->nc++] = *c;
}

static isl_stat sys_cons(isl_constraint *c, void *user) {
  fp_sys *y = user;
  fp_cons x;
  memset(&x, 0, sizeof x);
  x.eq = isl_constraint_is_equality(c) == isl_bool_true;
  for (unsigned i = 0; i < y->nv && !y->bad; i++)
    y->bad = !val_si(i < y->n ? isl_constraint_get_coefficient_val(c, isl_dim_set, (int)i)
                              : isl_constraint_get_coefficient_val(c, isl_dim_div, (int)(i - y->n)),
                     &x.c[i]);
  y->bad = y->bad || !val_si(isl_constraint_get_constant_val(c), &x.k);
  isl_constraint_free(c);
  sys_add(y, &x);
  return y->bad ? isl_stat_error : isl_stat_ok;
}

/* BS's constraints over its set dimensions and divisions, a known division
 * j = floor(f / d) with f - d j >= 0 and d j - f + d - 1 >= 0. */
static bool sys_of(isl_basic_set *bs, fp_sys *y) {
  memset(y, 0, sizeof *y);
  isl_size n = isl_basic_set_dim(bs, isl_dim_set), nd = isl_basic_set_dim(bs, isl_dim_div);
  if (n < 1 || nd < 0 || (size_t)n + (size_t)nd > FP_RUN_VARS || (size_t)n + (size_t)nd > FP_COUNT_DIMS)
    return false;
  y->n = (unsigned)n, y->nv = (unsigned)(n + nd);
  isl_basic_set_foreach_constraint(bs, sys_cons, y);
  for (unsigned j = 0; j < (unsigned)nd && !y->bad; j++) {
    /* an existentially quantified variable has no expression (isl answers
     * NULL, with an error it records): the constraints above hold it */
    isl_aff *a = isl_basic_set_get_div(bs, (int)j);
    if (!a || isl_aff_is_nan(a) == isl_bool_true) {
      isl_aff_free(a);
      continue;
    }
    int64_t den;
    fp_cons lo_c, hi_c; /* f - d j >= 0, d j - f + d - 1 >= 0 */
    memset(&lo_c, 0, sizeof lo_c);
    y->bad = !val_si(isl_aff_get_denominator_val(a), &den) || den <= 0;
    isl_size adiv = isl_aff_dim(a, isl_dim_div); /* the divisions before this one */
    for (unsigned i = 0; i <= y->nv && !y->bad; i++) {
      if (i >= y->n && i < y->nv && (adiv < 0 || i - y->n >= (unsigned)adiv))
        continue; /* a later division: coefficient 0 */
      isl_val *v = i < y->n ? isl_aff_get_coefficient_val(a, isl_dim_in, (int)i)
                 : i < y->nv ? isl_aff_get_coefficient_val(a, isl_dim_div, (int)(i - y->n))
                             : isl_aff_get_constant_val(a);
      v = isl_val_mul(v, isl_val_int_from_si(isl_basic_set_get_ctx(bs), (long)den));
      y->bad = !val_si(v, i < y->nv ? &lo_c.c[i] : &lo_c.k);
    }
    isl_aff_free(a);
    if (y->bad)
      break;
    lo_c.c[y->n + j] -= den;
    hi_c.eq = false;
    for (unsigned i = 0; i < y->nv; i++)
      hi_c.c[i] = -lo_c.c[i];
    hi_c.k = -lo_c.k + den - 1;
    sys_add(y, &lo_c);
    sys_add(y, &hi_c);
  }
  for (size_t q = 0; q < y->nc && !y->bad; q++) {
    y->bad = y->c[q].k > (INT64_C(1) << 50) || y->c[q].k < -(INT64_C(1) << 50);
    for (unsigned i = 0; i < y->nv; i++)
      y->bad = y->bad || y->c[q].c[i] > (INT64_C(1) << 21) || y->c[q].c[i] < -(INT64_C(1) << 21);
  }
  return !y->bad;
}

#define FP_UNBOUNDED (INT64_C(1) << 62)

/* A box around Y's integer points: bounds carried from constraint to
 * constraint until they settle, then an LP for each variable still
 * unbounded.  False when some variable stays unbounded or leaves
 * +-2^36 (the walk's arithmetic stays within 64 bits). */
static bool sys_box(fp_sys *y, isl_ctx *ctx) {
  for (unsigned i = 0; i < y->nv; i++)
    y->lo[i] = -FP_UNBOUNDED, y->hi[i] = FP_UNBOUNDED;
  for (int round = 0, changed = 1; changed && round < 64; round++) {
    changed = 0;
    for (size_t q = 0; q < y->nc; q++)
      for (int sg = 1; sg >= (y->c[q].eq ? -1 : 1); sg -= 2) {
        /* sg (a x + k) >= 0: for each i, a_i x_i >= -k - sum_{j != i} max(a_j x_j) */
        const fp_cons *c = &y->c[q];
        for (unsigned i = 0; i < y->nv; i++) {
          int64_t ai = sg * c->c[i];
          if (!ai)
            continue;
          __int128 rest = (__int128)sg * c->k;
          bool finite = true;
          for (unsigned j = 0; j < y->nv && finite; j++) {
            int64_t aj = sg * c->c[j];
            if (j == i || !aj)
              continue;
            int64_t b = aj > 0 ? y->hi[j] : y->lo[j];
            finite = b != FP_UNBOUNDED && b != -FP_UNBOUNDED;
            rest += (__int128)aj * b;
          }
          if (!finite)
            continue;
          /* ai x_i + rest >= 0 */
          if (rest > ((__int128)1 << 100) || rest < -((__int128)1 << 100))
            continue;
          int64_t r = (int64_t)(rest > INT64_MAX / 2 ? INT64_MAX / 2 : rest < -INT64_MAX / 2 ? -INT64_MAX / 2 : rest);
          if (ai > 0) {
            int64_t t = cdiv(-r, ai);
            if (t > y->lo[i])
              y->lo[i] = t, changed = 1;
          } else {
            int64_t t = fdiv(r, -ai);
            if (t < y->hi[i])
              y->hi[i] = t, changed = 1;
          }
          if (y->lo[i] > y->hi[i])
            return true; /* empty */
        }
      }
  }
  isl_basic_set *lifted = NULL;
  for (unsigned i = 0; i < y->nv; i++) {
    if (y->lo[i] != -FP_UNBOUNDED && y->hi[i] != FP_UNBOUNDED)
      continue;
    if (!lifted) {
      isl_space *sp = isl_space_set_alloc(ctx, 0, y->nv);
      isl_local_space *ls = isl_local_space_from_space(isl_space_copy(sp));
      lifted = isl_basic_set_universe(sp);
      for (size_t q = 0; q < y->nc; q++) {
        isl_constraint *c = y->c[q].eq ? isl_constraint_alloc_equality(isl_local_space_copy(ls))
                                       : isl_constraint_alloc_inequality(isl_local_space_copy(ls));
        for (unsigned j = 0; j < y->nv; j++)
          if (y->c[q].c[j])
            c = isl_constraint_set_coefficient_val(c, isl_dim_set, (int)j, isl_val_int_from_si(ctx, y->c[q].c[j]));
        c = isl_constraint_set_constant_val(c, isl_val_int_from_si(ctx, y->c[q].k));
        lifted = isl_basic_set_add_constraint(lifted, c);
      }
      isl_local_space_free(ls);
    }
    isl_aff *obj = isl_aff_var_on_domain(isl_local_space_from_space(isl_basic_set_get_space(lifted)), isl_dim_set,
                                         (int)i);
    isl_val *mn = isl_basic_set_min_lp_val(lifted, obj), *mx = isl_basic_set_max_lp_val(lifted, obj);
    isl_aff_free(obj);
    bool ok = mn && mx && isl_val_is_rat(mn) == isl_bool_true && isl_val_is_rat(mx) == isl_bool_true;
    if (ok) {
      mn = isl_val_ceil(mn), mx = isl_val_floor(mx);
      int64_t a, b;
      ok = val_si(isl_val_copy(mn), &a) && val_si(isl_val_copy(mx), &b);
      if (ok) {
        y->lo[i] = a > y->lo[i] ? a : y->lo[i];
        y->hi[i] = b < y->hi[i] ? b : y->hi[i];
      }
    }
    bool empty = mn && isl_val_is_nan(mn) == isl_bool_true;
    isl_val_free(mn), isl_val_free(mx);
    if (empty) {
      isl_basic_set_free(lifted);
      y->lo[0] = 1, y->hi[0] = 0;
      return true;
    }
    if (!ok) {
      isl_basic_set_free(lifted);
      return false;
    }
  }
  isl_basic_set_free(lifted);
  for (unsigned i = 0; i < y->nv; i++)
    if (y->lo[i] <= y->hi[i] && (y->lo[i] < -(INT64_C(1) << 36) || y->hi[i] > (INT64_C(1) << 36)))
      return false;
  return true;
}

static bool sys_empty(const fp_sys *y) {
  for (unsigned i = 0; i < y->nv; i++)
    if (y->lo[i] > y->hi[i])
      return true;
  return false;
}

typedef struct fp_run {
  int64_t lo, hi; /* a range of the set's points in row-major order */
} fp_run;

typedef struct fp_runs {
  fp_run *v;
  size_t n, cap;
  bool bad;
} fp_runs;

/* The walk over one piece: its variables in ORDER (the last set dimension
 * last), each bounded by every constraint it appears in, with the
 * variables before it at their values and those after it anywhere in
 * their box, narrowed first by the constraints each shares only with the
 * variables before (a necessary condition, exact once the last variable of
 * the constraint is set), so that a division or an existential tied to the
 * ones chosen before it, or to the last one's range, takes its few values,
 * not its box's; the last variable's interval is a run.  STEPS counts the
 * values tried, up to LIMIT. */
typedef struct fp_pair {
  unsigned u; /* a later variable */
  size_t q;   /* a constraint it shares only with variables before the level */
} fp_pair;

typedef struct fp_walk {
  const fp_sys *y;
  unsigned order[FP_RUN_VARS];
  unsigned at[FP_RUN_VARS];   /* the level of each variable */
  size_t *cons[FP_RUN_VARS];  /* per level: the constraints its variable appears in */
  size_t ncons[FP_RUN_VARS];
  fp_pair *narrow[FP_RUN_VARS]; /* per level: what narrows the later variables' boxes */
  size_t nnarrow[FP_RUN_VARS];
  int64_t x[FP_RUN_VARS];
  const int64_t *blo, *stride;
  double steps, limit;
  fp_runs *out;
} fp_walk;

/* Tightens [*LO, *HI] of variable V by C (a x_v + S + T >= 0, or == 0), S
 * the sum of its fixed terms, T in [TMIN, TMAX] its other terms. */
static void tighten(int64_t a, bool eq, int64_t s, int64_t tmin, int64_t tmax, int64_t *lo, int64_t *hi) {
  int64_t smax = s + tmax, smin = s + tmin;
  if (eq) { /* a x_v in [-smax, -smin] */
    int64_t l = a > 0 ? cdiv(-smax, a) : cdiv(smin, -a), h = a > 0 ? fdiv(-smin, a) : fdiv(smax, -a);
    *lo = l > *lo ? l : *lo;
    *hi = h < *hi ? h : *hi;
  } else if (a > 0) {
    int64_t l = cdiv(-smax, a);
    *lo = l > *lo ? l : *lo;
  } else {
    int64_t h = fdiv(smax, -a);
    *hi = h < *hi ? h : *hi;
  }
}

static int64_t fixed_sum(const fp_walk *w, const fp_cons *c, unsigned level) {
  int64_t sum = c->k;
  for (unsigned i = 0; i < w->y->nv; i++)
    if (c->c[i] && w->at[i] < level)
      sum += c->c[i] * w->x[i];
  return sum;
}

/* Bounds of the variable of LEVEL given the ones before it. */
static void level_bounds(const fp_walk *w, unsigned level, int64_t *lo, int64_t *hi) {
  const fp_sys *y = w->y;
  unsigned v = w->order[level];
  int64_t dlo[FP_RUN_VARS], dhi[FP_RUN_VARS];
  for (unsigned i = 0; i < y->nv; i++)
    dlo[i] = y->lo[i], dhi[i] = y->hi[i];
  for (size_t t = 0; t < w->nnarrow[level]; t++) {
    const fp_pair *p = &w->narrow[level][t];
    const fp_cons *c = &y->c[p->q];
    tighten(c->c[p->u], c->eq, fixed_sum(w, c, level), 0, 0, &dlo[p->u], &dhi[p->u]);
    if (dlo[p->u] > dhi[p->u]) {
      *hi = *lo - 1; /* no value of that variable fits: nothing below */
      return;
    }
  }
  for (size_t t = 0; t < w->ncons[level] && *lo <= *hi; t++) {
    const fp_cons *c = &y->c[w->cons[level][t]];
    int64_t tmax = 0, tmin = 0; /* |c| <= 2^21, |x| <= 2^36: no overflow */
    for (unsigned i = 0; i < y->nv; i++)
      if (c->c[i] && w->at[i] > level) {
        int64_t p = c->c[i] * dlo[i], r = c->c[i] * dhi[i];
        tmax += p > r ? p : r;
        tmin += p < r ? p : r;
      }
    tighten(c->c[v], c->eq, fixed_sum(w, c, level), tmin, tmax, lo, hi);
  }
}

static bool walk_level(fp_walk *w, unsigned level) {
  const fp_sys *y = w->y;
  unsigned v = w->order[level];
  int64_t lo = y->lo[v], hi = y->hi[v];
  level_bounds(w, level, &lo, &hi);
  if (level + 1 == y->nv) { /* the last set dimension: a run */
    w->steps += 1;
    if (hi < lo)
      return true;
    int64_t base = 0;
    for (unsigned i = 0; i + 1 < y->n; i++)
      base += (w->x[i] - w->blo[i]) * w->stride[i];
    fp_runs *out = w->out;
    if (out->n == out->cap) {
      size_t cap = out->cap ? 2 * out->cap : 256;
      fp_run *r = realloc(out->v, cap * sizeof *r);
      if (!r)
        return false;
      out->v = r, out->cap = cap;
    }
    out->v[out->n++] = (fp_run){base + lo - w->blo[v], base + hi - w->blo[v]};
    return true;
  }
  for (int64_t t = lo; t <= hi; t++) {
    w->x[v] = t;
    if ((w->steps += 1) > w->limit || !walk_level(w, level + 1))
      return false;
  }
  return true;
}

/* Appends the runs of Y's points (row-major over the union's box: BLO,
 * STRIDE) to OUT; false when past LIMIT steps in all (*STEPS so far) or out
 * of memory. */
static bool sys_runs(const fp_sys *y, const int64_t *blo, const int64_t *stride, double *steps, double limit,
                     fp_runs *out) {
  fp_walk w;
  memset(&w, 0, sizeof w);
  w.y = y, w.blo = blo, w.stride = stride, w.steps = *steps, w.limit = limit, w.out = out;
  /* a constraint without variables that fails makes the piece empty */
  for (size_t q = 0; q < y->nc; q++) {
    bool any = false;
    for (unsigned i = 0; i < y->nv; i++)
      any = any || y->c[q].c[i];
    if (!any && (y->c[q].eq ? y->c[q].k != 0 : y->c[q].k < 0))
      return true;
  }
  /* the order: greedily the variable most tied to those chosen (the most
   * constraints it would close), then the narrowest; the last set
   * dimension last */
  bool chosen[FP_RUN_VARS] = {false};
  unsigned inner = y->n - 1;
  for (unsigned level = 0; level + 1 < y->nv; level++) {
    int best = -1, best_close = -1;
    int64_t best_width = 0;
    for (unsigned v = 0; v < y->nv; v++) {
      if (chosen[v] || v == inner)
        continue;
      int close = 0;
      for (size_t q = 0; q < y->nc; q++) {
        const fp_cons *c = &y->c[q];
        bool closes = c->c[v] != 0;
        for (unsigned i = 0; i < y->nv && closes; i++)
          closes = i == v || !c->c[i] || chosen[i];
        close += closes ? (c->eq ? 4 : 1) : 0;
      }
      int64_t width = y->hi[v] - y->lo[v];
      if (best < 0 || close > best_close || (close == best_close && width < best_width))
        best = (int)v, best_close = close, best_width = width;
    }
    w.order[level] = (unsigned)best;
    chosen[best] = true;
  }
  w.order[y->nv - 1] = inner;
  for (unsigned level = 0; level < y->nv; level++)
    w.at[w.order[level]] = level;
  bool ok = true;
  for (unsigned level = 0; level < y->nv && ok; level++) {
    unsigned v = w.order[level];
    w.cons[level] = malloc((y->nc ? y->nc : 1) * sizeof **w.cons);
    w.narrow[level] = malloc((y->nc ? y->nc : 1) * sizeof **w.narrow);
    ok = w.cons[level] && w.narrow[level];
    for (size_t q = 0; q < y->nc && ok; q++) {
      const fp_cons *c = &y->c[q];
      if (c->c[v])
        w.cons[level][w.ncons[level]++] = q;
      /* a later variable u and this constraint's others all before LEVEL */
      int later = -1, nlater = 0;
      for (unsigned i = 0; i < y->nv; i++)
        if (c->c[i] && w.at[i] >= level)
          later = (int)i, nlater++;
      if (nlater == 1 && w.at[later] > level)
        w.narrow[level][w.nnarrow[level]++] = (fp_pair){(unsigned)later, q};
    }
  }
  if (ok)
    ok = walk_level(&w, 0);
  for (unsigned level = 0; level < y->nv; level++)
    free(w.cons[level]), free(w.narrow[level]);
  *steps = w.steps;
  return ok;
}

typedef struct fp_pieces {
  fp_sys *v;
  size_t n, cap;
  bool bad;
  isl_ctx *ctx;
} fp_pieces;

static isl_stat add_sys(isl_basic_set *bs, void *user) {
  fp_pieces *p = user;
  if (p->n == p->cap) {
    size_t cap = p->cap ? 2 * p->cap : 8;
    fp_sys *v = realloc(p->v, cap * sizeof *v);
    if (!v) {
      p->bad = true;
      isl_basic_set_free(bs);
      return isl_stat_error;
    }
    p->v = v, p->cap = cap;
  }
  fp_sys *y = &p->v[p->n];
  bool ok = sys_of(bs, y) && sys_box(y, p->ctx);
  isl_basic_set_free(bs);
  p->n++;
  if (!ok)
    p->bad = true;
  return ok ? isl_stat_ok : isl_stat_error;
}

static bool needs_divs(isl_basic_set *bs) {
  isl_size nd = isl_basic_set_dim(bs, isl_dim_div);
  for (int j = 0; j < nd; j++) {
    isl_aff *a = isl_basic_set_get_div(bs, j);
    bool nan = !a || isl_aff_is_nan(a) == isl_bool_true;
    isl_aff_free(a);
    if (nan)
      return true;
  }
  return false;
}

static isl_stat any_needs_divs(isl_basic_set *bs, void *user) {
  bool *needs = user;
  *needs = *needs || needs_divs(bs);
  isl_basic_set_free(bs);
  return isl_stat_ok;
}

/* Bitmaps stand for the sort of the runs in a box of at most this many
 * points, and for at most this many words in all (sets x box) */
#define FP_BITMAP_POINTS (1u << 25)
#define FP_BITMAP_WORDS (1u << 22)

/* Sets the bits LO..HI (inclusive, 0-based) of BITS. */
static void mark_bits(uint64_t *bits, int64_t lo, int64_t hi) {
  size_t a = (size_t)lo / 64, b = (size_t)hi / 64;
  uint64_t first = ~UINT64_C(0) << (lo % 64), last = ~UINT64_C(0) >> (63 - hi % 64);
  if (a == b) {
    bits[a] |= first & last;
    return;
  }
  bits[a] |= first;
  for (size_t i = a + 1; i < b; i++)
    bits[i] = ~UINT64_C(0);
  bits[b] |= last;
}

typedef struct fp_tagged {
  int64_t at;   /* a position in row-major order */
  int32_t tag;  /* the set */
  int32_t step; /* +1: a run of TAG starts here, -1: one ends before here */
} fp_tagged;

static int cmp_tagged(const void *a, const void *b) {
  const fp_tagged *x = a, *y = b;
  return x->at < y->at ? -1 : x->at > y->at;
}

/* The points of each of the N sets SETS (keep) that no set before it has:
 * FIRSTS[i] (their sum is the union's count), and with OWN each set's own.  From the runs of their
 * pieces, swept in order with the lowest set that covers each stretch;
 * false when they do not suit (too many values to walk, unbounded, large
 * numbers: fp_count's isl path then). */
static bool firsts_by_runs(isl_set **sets, size_t nsets, double *firsts, double *own) {
  fp_pieces p = {NULL, 0, 0, false, nsets ? isl_set_get_ctx(sets[0]) : NULL};
  size_t *owner = NULL;
  bool bad = false;
  for (size_t k = 0; k < nsets && !bad; k++) {
    firsts[k] = 0;
    if (own)
      own[k] = 0;
    size_t before = p.n;
    bad = isl_set_foreach_basic_set(sets[k], add_sys, &p) < 0 || p.bad;
    size_t *o = realloc(owner, (p.n ? p.n : 1) * sizeof *o);
    if (!o) {
      bad = true;
      break;
    }
    owner = o;
    for (size_t q = before; q < p.n; q++)
      owner[q] = k;
  }
  /* the union's box over the set dimensions */
  unsigned n = p.n ? p.v[0].n : 0;
  int64_t blo[FP_RUN_VARS], bhi[FP_RUN_VARS], stride[FP_RUN_VARS];
  bool any = false;
  for (size_t k = 0; k < p.n && !bad; k++) {
    const fp_sys *y = &p.v[k];
    if (sys_empty(y))
      continue;
    bad = y->n != n;
    for (unsigned i = 0; i < n && !bad; i++) {
      blo[i] = !any || y->lo[i] < blo[i] ? y->lo[i] : blo[i];
      bhi[i] = !any || y->hi[i] > bhi[i] ? y->hi[i] : bhi[i];
    }
    any = true;
  }
  if (bad || !any)
    goto done;
  double size = 1;
  for (unsigned i = n; i-- > 0;) {
    stride[i] = (int64_t)size;
    size *= (double)(bhi[i] - blo[i] + 1);
  }
  if (size > (double)(INT64_C(1) << 62)) {
    bad = true;
    goto done;
  }
  fp_runs r = {NULL, 0, 0, false};
  size_t *run_owner = NULL;
  double steps = 0;
  for (size_t k = 0; k < p.n && !bad; k++) {
    if (sys_empty(&p.v[k]))
      continue;
    size_t before = r.n;
    bad = !sys_runs(&p.v[k], blo, stride, &steps, FP_RUN_LIMIT, &r);
    size_t *o = bad ? NULL : realloc(run_owner, (r.n ? r.n : 1) * sizeof *o);
    if (!o) {
      bad = true;
      break;
    }
    run_owner = o;
    for (size_t q = before; q < r.n; q++)
      run_owner[q] = owner[k];
  }
  /* a small box: bitmaps, set by set (no sort of the runs: most of a
   * union's runs cover the same points many times over, one per lane) */
  if (!bad && size <= FP_BITMAP_POINTS && (double)nsets * (size / 64 + 1) <= FP_BITMAP_WORDS) {
    size_t words = (size_t)(size / 64) + 1;
    uint64_t *mine = calloc(words, sizeof *mine), *seen = calloc(words, sizeof *seen);
    if (mine && seen) {
      size_t q = 0;
      for (size_t k = 0; k < nsets; k++) {
        if (k)
          memset(mine, 0, words * sizeof *mine);
        for (; q < r.n && run_owner[q] == k; q++)
          mark_bits(mine, r.v[q].lo, r.v[q].hi);
        double n_own = 0, n_first = 0;
        for (size_t i = 0; i < words; i++) {
          n_own += __builtin_popcountll(mine[i]);
          n_first += __builtin_popcountll(mine[i] & ~seen[i]);
          seen[i] |= mine[i];
        }
        firsts[k] = n_first;
        if (own)
          own[k] = n_own;
      }
      free(mine), free(seen), free(run_owner), free(r.v);
      goto done;
    }
    free(mine), free(seen);
  }
  fp_tagged *ev = bad ? NULL : malloc((2 * r.n + 1) * sizeof *ev);
  unsigned *cover = bad ? NULL : calloc(nsets, sizeof *cover);
  if (!bad && (!ev || !cover))
    bad = true;
  if (!bad) {
    for (size_t q = 0; q < r.n; q++) {
      ev[2 * q] = (fp_tagged){r.v[q].lo, (int32_t)run_owner[q], 1};
      ev[2 * q + 1] = (fp_tagged){r.v[q].hi + 1, (int32_t)run_owner[q], -1};
    }
    qsort(ev, 2 * r.n, sizeof *ev, cmp_tagged);
    size_t active = 0, low = nsets; /* runs covering, and the lowest set among them */
    for (size_t q = 0; q < 2 * r.n;) {
      int64_t at = ev[q].at;
      for (; q < 2 * r.n && ev[q].at == at; q++) {
        cover[ev[q].tag] += (unsigned)ev[q].step;
        active += (size_t)(int64_t)ev[q].step;
      }
      low = nsets;
      for (size_t k = 0; active && k < nsets && low == nsets; k++)
        if (cover[k])
          low = k;
      if (low < nsets && q < 2 * r.n) {
        double len = (double)(ev[q].at - at);
        firsts[low] += len;
        for (size_t k = low; own && k < nsets; k++)
          own[k] += cover[k] ? len : 0;
      }
    }
  }
  free(ev), free(cover), free(run_owner), free(r.v);
done:
  for (size_t i = 0; i < p.n; i++)
    free(p.v[i].c);
  free(p.v);
  free(owner);
  return !bad;
}

/* Points of SET (keep) from the runs of its pieces; -1 when it does not
 * suit. */
static double count_runs(isl_set *set) {
  double n;
  return firsts_by_runs(&set, 1, &n, NULL) ? n : -1;
}

bool fp_count_firsts(isl_set **sets, size_t n, double *firsts, double *own) {
  for (size_t i = 0; i < n; i++)
    if (!sets[i])
      return false;
  return n && firsts_by_runs(sets, n, firsts, own);
}

typedef struct fp_sum {
  double total;
  bool bad;
} fp_sum;

static isl_stat add_piece(isl_basic_set *bs, void *user) {
  fp_sum *s = user;
  double n = count_piece(bs);
  if (n < 0) {
    s->bad = true;
    return isl_stat_error;
  }
  s->total += n;
  return isl_stat_ok;
}

double fp_count(isl_set *set) {
  if (!set)
    return -1;
  /* a union, or a piece with existentially quantified variables: by its
   * runs where they are few (isl would compute their divisions first) */
  bool needs = false;
  isl_size pieces = isl_set_n_basic_set(set);
  if (pieces == 1)
    isl_set_foreach_basic_set(set, any_needs_divs, &needs);
  isl_ctx *ctx = isl_set_get_ctx(set);
  unsigned long quota = isl_ctx_get_max_operations(ctx);
  if (pieces > 1 || needs) {
    double r = count_runs(set);
    if (r >= 0) {
      isl_set_free(set);
      return r;
    }
    /* too many values to walk: isl, on a budget of its own
     * (FP_DISJOINT_OPERATIONS), since making such a union disjoint is
     * where it spent 35-50 s before it gave up */
    isl_ctx_reset_operations(ctx);
    isl_ctx_set_max_operations(ctx, quota && quota < FP_DISJOINT_OPERATIONS ? quota : FP_DISJOINT_OPERATIONS);
  }
  set = isl_set_make_disjoint(set);
  fp_sum sum = {0, set == NULL};
  if (set && isl_set_foreach_basic_set(set, add_piece, &sum) < 0)
    sum.bad = true;
  isl_set_free(set);
  isl_ctx_set_max_operations(ctx, quota);
  return sum.bad ? -1 : sum.total;
}
