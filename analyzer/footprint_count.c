/* footprint_count.c - exact counts of the integer points of isl sets
 * without enumerating them one by one (used by footprint_sets.c and
 * footprint.c through fp_count).
 *
 * Assumptions: the sets are bounded and have no parameters; isl's divisions
 * are known after isl_set_make_disjoint (a piece whose are not goes to isl's
 * own count).
 */
#include "footprint_internal.h"

#include <isl/aff.h>
#include <isl/constraint.h>
#include <isl/ilp.h>
#include <isl/local_space.h>
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
  set = isl_set_make_disjoint(set);
  fp_sum sum = {0, set == NULL};
  if (set && isl_set_foreach_basic_set(set, add_piece, &sum) < 0)
    sum.bad = true;
  isl_set_free(set);
  return sum.bad ? -1 : sum.total;
}
