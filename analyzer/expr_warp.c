/* expr_warp.c - expressions compiled once per launch and evaluated for a
 * whole warp (see expr_warp_internal.h).
 *
 * Why: the tracer evaluates every branch condition, loop count, recurrence
 * and access offset for every lane of every warp it traces; through the tree
 * walker (wgp_expr_eval) each evaluation pays a symbol lookup by callback
 * (arguments by name) per leaf and the whole tree per lane, although most of
 * a tree is the same in every lane or even in every warp of the launch.
 *
 * Assumptions:
 * - the classify callback answers the same for a symbol during the
 *   program's life (launch constants are constant);
 * - evaluation order of operands does not matter for values (expressions
 *   have no side effects); for statuses the first operand that is not known
 *   decides, as in wgp_expr_eval, so that a select with an unknown condition
 *   and an operand whose lookup failed give what the tree walker gives.
 */
#include "expr_warp_internal.h"

#include "arena_internal.h"

#include "expr_ops_internal.h"
#include "mix_internal.h"

#include <stdlib.h>
#include <string.h>

enum { XN_CONST, XN_SYM, XN_OP };

typedef struct xnode {
  const wgp_expr *e;
  uint8_t kind;
  uint8_t varying; /* may differ between lanes */
  uint8_t fixed;   /* constants and WGP_X_WARP_* symbols only: kept while the source's epoch stays */
  uint8_t cst;     /* XN_CONST: status */
  int64_t cval;    /* XN_CONST: value */
  wgp_sym sym;     /* XN_SYM */
  uint32_t first, nops; /* XN_OP: operands are opnd[first .. first + nops) */
} xnode;

struct wgp_xprog {
  xnode *n;
  size_t nn, capn;
  uint32_t *opnd;
  size_t nopnd, capo;
  uint32_t root;
  unsigned flags;
  size_t maxops;
  /* scratch of an evaluation */
  int64_t *val; /* [node][lane] */
  uint64_t *ok, *err;
  int64_t *gv; /* one lane's operand values, maxops entries */
  uint8_t *gs; /* and statuses */
  uint8_t *aff;                     /* [node]: the value is held as form[node] (and maybe per lane too) */
  int64_t (*form)[1 + WGP_XCOORDS]; /* offset, then the multiple of each coordinate */
  /* fixed nodes: the epoch of their value and the lanes it holds; the group
   * epoch of a value that holds for every warp of the group (a form or a
   * uniform value) */
  uint64_t *epoch, *valid, *gepoch;
};

#define ALL (~UINT64_C(0))

/* ---- one lane, any operation but select ----------------------------------- */

/* What apply1 makes of a float operation's name under
 * WGP_XPROG_FLOAT_AS_DATA: a conversion, which keeps its operand, else a
 * pseudo value from the name's FNV-1a hash (one bit for a comparison).  Found
 * once per operation in a small table of this thread's, not by comparing the
 * name for every lane (a fifth of an estimate's time on kernels whose
 * addresses go through float arithmetic). */
enum { FLOAT_CONVERT = 1, FLOAT_ARITH, FLOAT_COMPARE };

typedef struct float_kind {
  const op_info *info;
  uint64_t hash;
  unsigned char kind;
} float_kind;

static const float_kind *float_kind_of(const op_info *info) {
  static _Thread_local float_kind memo[32];
  float_kind *m = &memo[((uintptr_t)info >> 4) & 31];
  if (m->info == info)
    return m;
  const char *name = info->name;
  uint64_t h = 0xcbf29ce484222325ull;
  for (const char *c = name; *c; c++)
    h = (h ^ (unsigned char)*c) * 0x100000001b3ull;
  m->hash = h;
  if (strcmp(name, "fptosi") == 0 || strcmp(name, "fptoui") == 0 || strcmp(name, "sitofp") == 0 ||
      strcmp(name, "uitofp") == 0)
    m->kind = FLOAT_CONVERT;
  else if (strcmp(name, "fadd") == 0 || strcmp(name, "fsub") == 0 || strcmp(name, "fmul") == 0 ||
           strcmp(name, "fdiv") == 0 || strcmp(name, "frem") == 0)
    m->kind = FLOAT_ARITH;
  else
    m->kind = FLOAT_COMPARE;
  m->info = info;
  return m;
}

/* The operation of E on operand values V with statuses S, in the tree
 * walker's order: the first operand that is not known decides. */
static wgp_eval_status apply1(wgp_evaluator *ev, const wgp_expr *e, size_t nops, const int64_t *v, const uint8_t *s,
                              int64_t *out) {
  wgp_eval_status st;
  switch (e->op) {
  case WGP_OP_ADD:
  case WGP_OP_MUL: {
    wgp_x_acc a;
    wgp_x_nary_start(e, &a);
    for (size_t j = 0; j < nops; j++) {
      if (s[j] != WGP_EVAL_OK)
        return (wgp_eval_status)s[j];
      wgp_x_nary_step(e, &a, v[j]);
    }
    return wgp_x_acc_end(ev, e, &a, out);
  }
  case WGP_OP_ADDREC: {
    if (s[0] != WGP_EVAL_OK)
      return (wgp_eval_status)s[0];
    if ((st = wgp_x_addrec_iter(ev, v[0])) != WGP_EVAL_OK)
      return st;
    wgp_x_acc a = {0, 0, 0, false, false};
    for (size_t j = 1; j < nops; j++) {
      if (s[j] != WGP_EVAL_OK)
        return (wgp_eval_status)s[j];
      if ((st = wgp_x_addrec_step(ev, e, &a, j, v[0], v[j])) != WGP_EVAL_OK)
        return st;
    }
    return wgp_x_acc_end(ev, e, &a, out);
  }
  case WGP_OP_AND:
  case WGP_OP_OR:
  case WGP_OP_XOR:
  case WGP_OP_SMIN:
  case WGP_OP_SMAX:
  case WGP_OP_UMIN:
  case WGP_OP_UMAX: {
    if (s[0] != WGP_EVAL_OK)
      return (wgp_eval_status)s[0];
    uint64_t acc = wgp_x_fold_start(e, v[0]);
    for (size_t j = 1; j < nops; j++) {
      if (s[j] != WGP_EVAL_OK)
        return (wgp_eval_status)s[j];
      acc = wgp_x_fold_step(e, acc, v[j]);
    }
    *out = wgp_x_canon(acc, e->width);
    return WGP_EVAL_OK;
  }
  case WGP_OP_ABS:
  case WGP_OP_ZEXT:
  case WGP_OP_SEXT:
  case WGP_OP_TRUNC:
  case WGP_OP_NOT:
    if (s[0] != WGP_EVAL_OK)
      return (wgp_eval_status)s[0];
    return wgp_x_unary(ev, e, v[0], out);
  case WGP_OP_FLOAT: { /* WGP_XPROG_FLOAT_AS_DATA: a pseudo value; else the exact ones */
    if (!(ev->flags & WGP_XPROG_FLOAT_AS_DATA))
      return wgp_x_float_exact(ev, e, v, s, out);
    for (size_t j = 0; j < nops; j++)
      if (s[j] != WGP_EVAL_OK)
        return (wgp_eval_status)s[j];
    const float_kind *k = float_kind_of(e->info);
    if (k->kind == FLOAT_CONVERT) {
      *out = v[0]; /* a conversion keeps what the value stands for */
      return WGP_EVAL_OK;
    }
    uint64_t h = k->hash;
    for (size_t j = 0; j < nops; j++)
      h = wgp_mix64(h * 0x9e3779b97f4a7c15ull + (uint64_t)v[j]);
    *out = k->kind == FLOAT_COMPARE ? (int64_t)(h & 1) : (int64_t)(h & 0xffffff);
    return WGP_EVAL_OK;
  }
  default:
    if (s[0] != WGP_EVAL_OK)
      return (wgp_eval_status)s[0];
    if (s[1] != WGP_EVAL_OK)
      return (wgp_eval_status)s[1];
    return wgp_x_binary(ev, e, v[0], v[1], out);
  }
}

/* ---- compiling ------------------------------------------------------------ */

typedef struct compiler {
  wgp_xprog *p;
  wgp_xclassify classify;
  void *user;
  bool oom;
} compiler;

static uint32_t add_node(compiler *c, const xnode *x) {
  wgp_xprog *p = c->p;
  if (p->nn == p->capn) {
    size_t cap = p->capn ? 2 * p->capn : 16;
    xnode *n = realloc(p->n, cap * sizeof *n);
    if (!n) {
      c->oom = true;
      return 0;
    }
    p->n = n;
    p->capn = cap;
  }
  p->n[p->nn] = *x;
  return (uint32_t)p->nn++;
}

static uint32_t add_const(compiler *c, const wgp_expr *e, int64_t v, wgp_eval_status st) {
  xnode x = {.e = e, .kind = XN_CONST, .cst = (uint8_t)st, .cval = st == WGP_EVAL_OK ? v : 0};
  return add_node(c, &x);
}

static uint32_t compile(compiler *c, const wgp_expr *e);

/* Whether node X keeps its value while the epoch stays (constants do). */
static bool is_fixed(const xnode *x) { return x->kind == XN_CONST || x->fixed; }

static uint32_t compile_sym(compiler *c, const wgp_expr *e, const wgp_sym *s) {
  if (s->kind == WGP_SYM_UNKNOWN && (c->p->flags & WGP_XPROG_FLOAT_AS_DATA) && s->name &&
      strcmp(s->name, "fconst") == 0)
    return add_const(c, e, 0x5eed, WGP_EVAL_OK); /* one float constant, the same in every lane */
  if (s->kind == WGP_SYM_UNKNOWN)
    return add_const(c, e, 0, WGP_EVAL_UNKNOWN);
  int64_t v = 0;
  wgp_eval_status st = WGP_EVAL_UNKNOWN;
  wgp_xclass k = c->classify(c->user, s, &v, &st);
  if (k == WGP_X_CONST)
    return add_const(c, e, v, st == WGP_EVAL_OK ? WGP_EVAL_OK : st == WGP_EVAL_ERROR ? WGP_EVAL_ERROR
                                                                                      : WGP_EVAL_UNKNOWN);
  xnode x = {.e = e,
             .kind = XN_SYM,
             .varying = k == WGP_X_LANE || k == WGP_X_WARP_LANE,
             .fixed = k == WGP_X_WARP_UNIFORM || k == WGP_X_WARP_LANE,
             .sym = *s};
  return add_node(c, &x);
}

/* Folding drops the nodes compiled for a subtree: they were appended after
 * the mark taken before it. */
static void drop_to(compiler *c, size_t nodes, size_t operands) {
  c->p->nn = nodes;
  c->p->nopnd = operands;
}

static uint32_t compile_select(compiler *c, const wgp_expr *e) {
  size_t mark = c->p->nn, omark = c->p->nopnd;
  uint32_t cond = compile(c, e->ops[0]);
  if (c->oom)
    return 0;
  const xnode *cn = &c->p->n[cond];
  if (cn->kind == XN_CONST) {
    bool taken = cn->cval != 0;
    wgp_eval_status cst = (wgp_eval_status)cn->cst;
    if (cst != WGP_EVAL_UNKNOWN)
      drop_to(c, mark, omark);
    if (cst == WGP_EVAL_OK) /* only the chosen arm is ever evaluated */
      return compile(c, e->ops[taken ? 1 : 2]);
    if (cst == WGP_EVAL_ERROR)
      return add_const(c, e, 0, WGP_EVAL_ERROR);
  }
  uint32_t a = compile(c, e->ops[1]);
  uint32_t b = compile(c, e->ops[2]);
  if (c->oom)
    return 0;
  const xnode *an = &c->p->n[a], *bn = &c->p->n[b];
  cn = &c->p->n[cond];
  if (cn->kind == XN_CONST && an->kind == XN_CONST && bn->kind == XN_CONST) {
    bool same = an->cst == WGP_EVAL_OK && bn->cst == WGP_EVAL_OK && an->cval == bn->cval;
    int64_t v = an->cval;
    drop_to(c, mark, omark);
    return add_const(c, e, v, same ? WGP_EVAL_OK : WGP_EVAL_UNKNOWN);
  }
  wgp_xprog *p = c->p;
  if (p->nopnd + 3 > p->capo) {
    size_t cap = (p->capo + 3) * 2;
    uint32_t *o = realloc(p->opnd, cap * sizeof *o);
    if (!o) {
      c->oom = true;
      return 0;
    }
    p->opnd = o;
    p->capo = cap;
  }
  xnode x = {.e = e,
             .kind = XN_OP,
             .varying = p->n[cond].varying || p->n[a].varying || p->n[b].varying,
             .fixed = is_fixed(&p->n[cond]) && is_fixed(&p->n[a]) && is_fixed(&p->n[b]),
             .first = (uint32_t)p->nopnd,
             .nops = 3};
  p->opnd[p->nopnd++] = cond;
  p->opnd[p->nopnd++] = a;
  p->opnd[p->nopnd++] = b;
  if (3 > p->maxops)
    p->maxops = 3;
  return add_node(c, &x);
}

static uint32_t compile(compiler *c, const wgp_expr *e) {
  switch (e->op) {
  case WGP_OP_INT: return add_const(c, e, e->ival, WGP_EVAL_OK);
  case WGP_OP_FLOAT:
    if (!(c->p->flags & WGP_XPROG_FLOAT_AS_DATA) && !wgp_x_float_exact_op(e))
      return add_const(c, e, 0, WGP_EVAL_UNKNOWN);
    break; /* an operation like any other (apply1) */
  case WGP_OP_SYM: return compile_sym(c, e, &e->sym);
  case WGP_OP_LOAD: {
    wgp_sym s = {WGP_SYM_LOAD, 0, 0, (unsigned)e->ival, NULL};
    return compile_sym(c, e, &s);
  }
  case WGP_OP_SELECT: return compile_select(c, e);
  default: break;
  }
  /* operands first, kept in a local list: compiling them appends to opnd */
  size_t n = e->nops, mark = c->p->nn, omark = c->p->nopnd;
  uint32_t small[8], *ops = n <= 8 ? small : malloc(n * sizeof *ops);
  if (!ops) {
    c->oom = true;
    return 0;
  }
  bool all_const = true, varying = false, fixed = true;
  for (size_t j = 0; j < n && !c->oom; j++) {
    ops[j] = compile(c, e->ops[j]);
    if (!c->oom) {
      all_const = all_const && c->p->n[ops[j]].kind == XN_CONST;
      varying = varying || c->p->n[ops[j]].varying;
      fixed = fixed && is_fixed(&c->p->n[ops[j]]);
    }
  }
  uint32_t r = 0;
  wgp_xprog *p = c->p;
  if (!c->oom && all_const) {
    int64_t vsmall[8] = {0}, *v = n <= 8 ? vsmall : malloc(n * sizeof *v);
    uint8_t ssmall[8] = {0}, *s = n <= 8 ? ssmall : malloc(n);
    if (!v || !s) {
      c->oom = true;
    } else {
      for (size_t j = 0; j < n; j++)
        v[j] = p->n[ops[j]].cval, s[j] = p->n[ops[j]].cst;
      wgp_evaluator ev = {NULL, p->flags, NULL};
      int64_t out = 0;
      wgp_eval_status st = apply1(&ev, e, n, v, s, &out);
      drop_to(c, mark, omark);
      r = add_const(c, e, out, st);
    }
    if (v != vsmall)
      free(v);
    if (s != ssmall)
      free(s);
  } else if (!c->oom) {
    if (p->nopnd + n > p->capo) {
      size_t cap = (p->capo + n) * 2;
      uint32_t *o = realloc(p->opnd, cap * sizeof *o);
      if (!o)
        c->oom = true;
      else
        p->opnd = o, p->capo = cap;
    }
    if (!c->oom) {
      xnode x = {.e = e,
                 .kind = XN_OP,
                 .varying = varying,
                 .fixed = fixed,
                 .first = (uint32_t)p->nopnd,
                 .nops = (uint32_t)n};
      memcpy(p->opnd + p->nopnd, ops, n * sizeof *ops);
      p->nopnd += n;
      if (n > p->maxops)
        p->maxops = n;
      r = add_node(c, &x);
    }
  }
  if (ops != small)
    free(ops);
  return r;
}

wgp_status wgp_xprog_compile(const wgp_expr *e, unsigned flags, wgp_xclassify classify, void *user,
                             wgp_xprog **out) {
  *out = NULL;
  wgp_xprog *p = calloc(1, sizeof *p);
  if (!p)
    return WGP_ERR_NOMEM;
  p->flags = flags;
  compiler c = {p, classify, user, false};
  p->root = compile(&c, e);
  if (!c.oom) {
    /* the evaluation's arrays in one block (OK at its start), the cleared
     * ones (OK to VALID, AFF) first */
    size_t nn = p->nn, mo = p->maxops ? p->maxops : 1, size = 0;
    size_t o_ok = wgp_block_part(&size, 5 * nn, sizeof(uint64_t)); /* ok, err, epoch, gepoch, valid */
    size_t o_aff = wgp_block_part(&size, nn, 1), cleared = size;
    size_t o_val = wgp_block_part(&size, nn * WGP_XLANES, sizeof *p->val);
    size_t o_form = wgp_block_part(&size, nn, sizeof *p->form);
    size_t o_gv = wgp_block_part(&size, mo, sizeof *p->gv), o_gs = wgp_block_part(&size, mo, 1);
    char *b = malloc(size);
    if (!b) {
      c.oom = true;
    } else {
      memset(b, 0, cleared);
      p->ok = (uint64_t *)(b + o_ok), p->err = p->ok + nn, p->epoch = p->err + nn, p->gepoch = p->epoch + nn;
      p->valid = p->gepoch + nn;
      p->aff = (uint8_t *)(b + o_aff);
      p->val = (int64_t *)(b + o_val);
      p->form = (int64_t(*)[1 + WGP_XCOORDS])(b + o_form);
      p->gv = (int64_t *)(b + o_gv);
      p->gs = (uint8_t *)(b + o_gs);
    }
  }
  if (c.oom) {
    wgp_xprog_free(p);
    return WGP_ERR_NOMEM;
  }
  *out = p;
  return WGP_OK;
}

void wgp_xprog_free(wgp_xprog *p) {
  if (!p)
    return;
  free(p->n);
  free(p->opnd);
  free(p->ok); /* the evaluation's block */
  free(p);
}

size_t wgp_xprog_size(const wgp_xprog *p) { return p->nn; }

/* ---- evaluating ------------------------------------------------------------ */

typedef __int128 i128;

typedef struct runner {
  wgp_xprog *p;
  const wgp_xsource *src;
  wgp_evaluator ev;
  uint64_t mask;                     /* the lanes of the evaluation */
  bool ranged;                       /* xlo/xhi computed */
  i128 xlo[WGP_XCOORDS], xhi[WGP_XCOORDS]; /* each coordinate's range over those lanes */
} runner;

static inline uint8_t lane_status(uint64_t ok, uint64_t err, unsigned l) {
  return ok >> l & 1 ? WGP_EVAL_OK : err >> l & 1 ? WGP_EVAL_ERROR : WGP_EVAL_UNKNOWN;
}

#define FOR_LANES(l, m) for (uint64_t m_ = (m), l; m_ && ((l = (uint64_t)__builtin_ctzll(m_)), 1); m_ &= m_ - 1)

static void run(runner *r, uint32_t i, uint64_t mask);

/* ---- values as an offset plus multiples of the lane coordinates ------------- */

typedef struct form {
  i128 c[1 + WGP_XCOORDS];
} form;

static void coordinate_ranges(runner *r) {
  const int64_t *x = r->src->coord;
  if (r->src->coord_lo && r->src->coord_hi) {
    for (unsigned k = 0; k < WGP_XCOORDS; k++) {
      r->xlo[k] = r->src->coord_lo[k];
      r->xhi[k] = r->src->coord_hi[k];
    }
    r->ranged = true;
    return;
  }
  for (unsigned k = 0; k < WGP_XCOORDS; k++) {
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    FOR_LANES(l, r->mask) {
      int64_t v = x[k * WGP_XLANES + l];
      lo = v < lo ? v : lo;
      hi = v > hi ? v : hi;
    }
    r->xlo[k] = r->mask ? lo : 0;
    r->xhi[k] = r->mask ? hi : 0;
  }
  r->ranged = true;
}

/* The smallest and largest value of F over the lanes' coordinate box (a
 * superset of the lanes: enough to prove that none overflows). */
static void form_range(runner *r, const form *f, i128 *lo, i128 *hi) {
  if (!r->ranged)
    coordinate_ranges(r);
  i128 a = f->c[0], b = f->c[0];
  for (unsigned k = 0; k < WGP_XCOORDS; k++) {
    if (!f->c[1 + k])
      continue;
    i128 u = f->c[1 + k] * r->xlo[k], v = f->c[1 + k] * r->xhi[k];
    a += u < v ? u : v;
    b += u < v ? v : u;
  }
  *lo = a;
  *hi = b;
}

static bool form_within(runner *r, const form *f, i128 lo, i128 hi) {
  i128 a, b;
  form_range(r, f, &a, &b);
  return a >= lo && b <= hi;
}

static bool form_fits64(const form *f) {
  for (unsigned k = 0; k <= WGP_XCOORDS; k++)
    if (f->c[k] < INT64_MIN || f->c[k] > INT64_MAX)
      return false;
  return true;
}

static bool form_const(const form *f) {
  for (unsigned k = 1; k <= WGP_XCOORDS; k++)
    if (f->c[k])
      return false;
  return true;
}

/* Operand J of node I as a form: carried, or a known uniform value. */
static bool operand_form(const runner *r, uint32_t j, form *f) {
  const wgp_xprog *p = r->p;
  memset(f, 0, sizeof *f);
  if (p->aff[j]) {
    for (unsigned k = 0; k <= WGP_XCOORDS; k++)
      f->c[k] = p->form[j][k];
    return true;
  }
  if (p->n[j].varying || !p->ok[j])
    return false;
  f->c[0] = p->val[(size_t)j * WGP_XLANES];
  return true;
}

/* Node I holds the form F (exact in every lane it stands for). */
static void set_form(wgp_xprog *p, uint32_t i, const form *f) {
  for (unsigned q = 0; q <= WGP_XCOORDS; q++)
    p->form[i][q] = (int64_t)f->c[q];
  p->aff[i] = 1;
  p->ok[i] = ALL;
  p->err[i] = 0;
}

/* Node I's value as a form, when every lane of the operation is provably
 * free of overflow and wrapping: then, lane by lane, expr_ops_internal.h
 * computes exactly the integer the form gives, and every lane is known.
 * Widths of 1 bit are left to the lane-by-lane path (their results are 0/1,
 * not sign-extended). */
static bool try_affine(runner *r, uint32_t i) {
  wgp_xprog *p = r->p;
  const xnode *n = &p->n[i];
  const wgp_expr *e = n->e;
  const uint32_t *ops = p->opnd + n->first;
  unsigned w = e->width;
  form a, b, acc;
  memset(&acc, 0, sizeof acc);
  /* The same value in every lane (e.g. a recurrence that all lanes share):
   * the operation once. */
  bool all_const = n->nops <= 8;
  int64_t cv[8];
  uint8_t cs[8];
  for (size_t j = 0; j < n->nops && all_const; j++) {
    all_const = operand_form(r, ops[j], &a) && form_const(&a);
    cv[j] = all_const ? (int64_t)a.c[0] : 0;
    cs[j] = WGP_EVAL_OK;
  }
  if (all_const) {
    int64_t v;
    if (apply1(&r->ev, e, n->nops, cv, cs, &v) != WGP_EVAL_OK)
      return false; /* the lane-by-lane path says how */
    acc.c[0] = v;
    goto done;
  }
  if (w < 2)
    return false;
  i128 smin = wgp_x_smin(w), smax = wgp_x_smax(w);
  bool nuw = e->flags & WGP_EXPR_NUW;
  switch (e->op) {
  case WGP_OP_EQ:
  case WGP_OP_NE:
  case WGP_OP_SLT:
  case WGP_OP_SLE:
  case WGP_OP_SGT:
  case WGP_OP_SGE:
  case WGP_OP_ULT:
  case WGP_OP_ULE:
  case WGP_OP_UGT:
  case WGP_OP_UGE: {
    /* A comparison that the lanes' ranges decide: the same answer in every
     * lane.  The operands must read as themselves at width W: signed
     * (sign-extension) or, for unsigned and equality, non-negative. */
    if (!operand_form(r, ops[0], &a) || !operand_form(r, ops[1], &b))
      return false;
    bool is_signed = e->op >= WGP_OP_SLT && e->op <= WGP_OP_SGE;
    bool as_signed = form_within(r, &a, smin, smax) && form_within(r, &b, smin, smax);
    bool as_unsigned = form_within(r, &a, 0, smax) && form_within(r, &b, 0, smax);
    if (!(is_signed ? as_signed : (as_unsigned || (as_signed && (e->op == WGP_OP_EQ || e->op == WGP_OP_NE)))))
      return false;
    form d;
    for (unsigned k = 0; k <= WGP_XCOORDS; k++)
      d.c[k] = a.c[k] - b.c[k];
    i128 lo, hi;
    form_range(r, &d, &lo, &hi);
    int res = -1; /* undecided */
    switch (e->op) {
    case WGP_OP_EQ: res = lo == 0 && hi == 0 ? 1 : lo > 0 || hi < 0 ? 0 : -1; break;
    case WGP_OP_NE: res = lo == 0 && hi == 0 ? 0 : lo > 0 || hi < 0 ? 1 : -1; break;
    case WGP_OP_SLT:
    case WGP_OP_ULT: res = hi < 0 ? 1 : lo >= 0 ? 0 : -1; break;
    case WGP_OP_SLE:
    case WGP_OP_ULE: res = hi <= 0 ? 1 : lo > 0 ? 0 : -1; break;
    case WGP_OP_SGT:
    case WGP_OP_UGT: res = lo > 0 ? 1 : hi <= 0 ? 0 : -1; break;
    default: res = lo >= 0 ? 1 : hi < 0 ? 0 : -1; break;
    }
    if (res < 0)
      return false;
    acc.c[0] = res;
    goto done;
  }
  case WGP_OP_ADD:
    for (size_t j = 0; j < n->nops; j++) {
      if (!operand_form(r, ops[j], &a) || !form_within(r, &a, nuw ? 0 : smin, smax))
        return false;
      for (unsigned k = 0; k <= WGP_XCOORDS; k++)
        acc.c[k] += a.c[k];
      if (!form_fits64(&acc) || !form_within(r, &acc, smin, smax)) /* every partial sum */
        return false;
    }
    break;
  case WGP_OP_MUL:
    acc.c[0] = 1;
    for (size_t j = 0; j < n->nops; j++) {
      if (!operand_form(r, ops[j], &a) || !form_within(r, &a, nuw ? 0 : smin, smax))
        return false;
      if (form_const(&a)) {
        for (unsigned k = 0; k <= WGP_XCOORDS; k++)
          acc.c[k] *= a.c[0];
      } else if (form_const(&acc)) {
        i128 m = acc.c[0];
        for (unsigned k = 0; k <= WGP_XCOORDS; k++)
          acc.c[k] = a.c[k] * m;
      } else {
        return false; /* a product of two lane-dependent values */
      }
      if (!form_fits64(&acc) || !form_within(r, &acc, smin, smax)) /* every partial product */
        return false;
    }
    break;
  case WGP_OP_SUB:
    if (!operand_form(r, ops[0], &a) || !operand_form(r, ops[1], &b) || !form_within(r, &a, nuw ? 0 : smin, smax) ||
        !form_within(r, &b, nuw ? 0 : smin, smax))
      return false;
    for (unsigned k = 0; k <= WGP_XCOORDS; k++)
      acc.c[k] = a.c[k] - b.c[k];
    if (!form_fits64(&acc) || !form_within(r, &acc, nuw ? 0 : smin, smax))
      return false;
    break;
  case WGP_OP_SHL: {
    if (!operand_form(r, ops[0], &a) || !operand_form(r, ops[1], &b) || !form_const(&b) ||
        !form_within(r, &a, nuw ? 0 : smin, smax))
      return false;
    uint64_t amount = wgp_x_zx((int64_t)b.c[0], w);
    if (amount >= w)
      return false;
    for (unsigned k = 0; k <= WGP_XCOORDS; k++)
      acc.c[k] = a.c[k] * ((i128)1 << amount);
    if (!form_fits64(&acc) || !form_within(r, &acc, smin, smax))
      return false;
    break;
  }
  case WGP_OP_SEXT:
  case WGP_OP_ZEXT:
  case WGP_OP_TRUNC: {
    unsigned from = e->from_width;
    if (!operand_form(r, ops[0], &acc))
      return false;
    i128 lo = smin, hi = smax; /* TRUNC: the value fits the narrow width */
    if (e->op == WGP_OP_SEXT)
      lo = wgp_x_smin(from), hi = wgp_x_smax(from);
    if (e->op == WGP_OP_ZEXT) {
      lo = 0;
      hi = (i128)wgp_x_mask(from) < smax ? (i128)wgp_x_mask(from) : smax;
    }
    if (from < 2 || !form_within(r, &acc, lo, hi))
      return false;
    break;
  }
  default:
    return false;
  }
done:
  set_form(p, i, &acc);
  return true;
}

void wgp_xform_values(const int64_t *f, const int64_t *coord, uint64_t mask, int64_t *out) {
  /* only the coordinates the form uses (most use one or two) */
  unsigned use[WGP_XCOORDS], nu = 0;
  for (unsigned k = 0; k < WGP_XCOORDS; k++)
    if (f[1 + k])
      use[nu++] = k;
  FOR_LANES(l, mask) {
    uint64_t s = (uint64_t)f[0];
    for (unsigned q = 0; q < nu; q++)
      s += (uint64_t)f[1 + use[q]] * (uint64_t)coord[use[q] * WGP_XLANES + l];
    out[l] = wgp_x_u2s(s);
  }
}

/* Writes node J's carried form out lane by lane (wrapping arithmetic: the
 * exact value fits in 64 bits, so the wrapped sum is that value). */
static void materialize(runner *r, uint32_t j, uint64_t mask) {
  wgp_xprog *p = r->p;
  if (!p->aff[j])
    return;
  wgp_xform_values(p->form[j], r->src->coord, mask, p->val + (size_t)j * WGP_XLANES);
  /* the form stays: a later operation (or evaluation, for a kept node) may
   * still carry it; the lanes now hold the same values */
}

/* Copies node FROM's result into node TO for the lanes of MASK. */
static void copy_result(wgp_xprog *p, uint32_t to, uint32_t from, uint64_t mask) {
  int64_t *d = p->val + (size_t)to * WGP_XLANES, *s = p->val + (size_t)from * WGP_XLANES;
  if (!p->n[from].varying) {
    d[0] = s[0];
    if (p->n[to].varying)
      FOR_LANES(l, mask) d[l] = s[0];
  } else {
    FOR_LANES(l, mask) d[l] = s[l];
  }
  p->ok[to] = p->ok[from];
  p->err[to] = p->err[from];
}

static void run_select(runner *r, uint32_t i, uint64_t mask) {
  wgp_xprog *p = r->p;
  const xnode *n = &p->n[i];
  uint32_t c = p->opnd[n->first], a = p->opnd[n->first + 1], b = p->opnd[n->first + 2];
  run(r, c, mask);
  materialize(r, c, mask);
  const int64_t *cv = p->val + (size_t)c * WGP_XLANES, *av = p->val + (size_t)a * WGP_XLANES,
                *bv = p->val + (size_t)b * WGP_XLANES;
  int64_t *out = p->val + (size_t)i * WGP_XLANES;
  bool cu = !p->n[c].varying, au = !p->n[a].varying, bu = !p->n[b].varying;
  if (cu && p->ok[c]) { /* only the chosen arm is evaluated */
    uint32_t arm = cv[0] != 0 ? a : b;
    run(r, arm, mask);
    materialize(r, arm, mask);
    copy_result(p, i, arm, mask);
    return;
  }
  if (cu && p->err[c]) {
    p->ok[i] = 0;
    p->err[i] = ALL;
    return;
  }
  if (cu && au && bu) { /* unknown condition, the same arms in every lane */
    run(r, a, mask);
    run(r, b, mask);
    out[0] = av[0];
    p->ok[i] = p->ok[a] && p->ok[b] && av[0] == bv[0] ? ALL : 0;
    p->err[i] = 0;
    return;
  }
  /* Lane by lane: a known condition takes its arm; an unknown one is known
   * only when both arms agree; a failed lookup stays an error. */
  uint64_t cok = p->ok[c] & mask, cerr = p->err[c] & mask, cunk = mask & ~cok & ~cerr, true_l = 0;
  FOR_LANES(l, cok) if (cv[cu ? 0 : l] != 0) true_l |= UINT64_C(1) << l;
  uint64_t ma = true_l | cunk, mb = (cok & ~true_l) | cunk;
  if (ma) {
    run(r, a, ma);
    materialize(r, a, ma);
  }
  if (mb) {
    run(r, b, mb);
    materialize(r, b, mb);
  }
  uint64_t ok = 0, err = cerr;
  FOR_LANES(l, mask & ~cerr) {
    uint64_t bit = UINT64_C(1) << l;
    unsigned la = au ? 0 : (unsigned)l, lb = bu ? 0 : (unsigned)l;
    if (cok & bit) {
      bool ta = true_l & bit;
      uint32_t arm = ta ? a : b;
      unsigned at = ta ? la : lb;
      out[l] = p->val[(size_t)arm * WGP_XLANES + at];
      if (p->ok[arm] >> at & 1)
        ok |= bit;
      else if (p->err[arm] >> at & 1)
        err |= bit;
    } else if (p->ok[a] >> la & 1 && p->ok[b] >> lb & 1 && av[la] == bv[lb]) {
      out[l] = av[la];
      ok |= bit;
    }
  }
  p->ok[i] = ok;
  p->err[i] = err;
}

static void run_node(runner *r, uint32_t i, uint64_t mask);

/* Whether the values V of the lanes of MASK are c0 + m * x_k for one lane
 * coordinate k (exactly, in every lane, and with no lane of the coordinate
 * box overflowing 64 bits): the form in *F. */
static bool fit_coordinate(runner *r, const int64_t *v, uint64_t mask, form *f) {
  const int64_t *x = r->src->coord;
  unsigned l0 = (unsigned)__builtin_ctzll(mask);
  for (unsigned k = 0; k < WGP_XCOORDS; k++) {
    const int64_t *xk = x + (size_t)k * WGP_XLANES;
    int l1 = -1;
    FOR_LANES(l, mask) if (xk[l] != xk[l0]) {
      l1 = (int)l;
      break;
    }
    if (l1 < 0)
      continue;
    i128 dv = (i128)v[l1] - v[l0], dx = (i128)xk[l1] - xk[l0];
    if (dv % dx)
      continue;
    i128 m = dv / dx, c0 = (i128)v[l0] - m * xk[l0];
    bool fits = m >= INT64_MIN && m <= INT64_MAX && c0 >= INT64_MIN && c0 <= INT64_MAX;
    FOR_LANES(l, mask) if (fits && c0 + m * xk[l] != (i128)v[l]) fits = false;
    if (!fits)
      continue;
    memset(f, 0, sizeof *f);
    f->c[0] = c0;
    f->c[1 + k] = m;
    return form_within(r, f, INT64_MIN, INT64_MAX);
  }
  return false;
}

/* Node I for the lanes of MASK: kept from an earlier evaluation when it is
 * fixed, the epoch is the same and it holds those lanes. */
static void run(runner *r, uint32_t i, uint64_t mask) {
  wgp_xprog *p = r->p;
  const xnode *n = &p->n[i];
  uint64_t ep = r->src->epoch, gep = r->src->group_epoch;
  if (!n->fixed || !ep || !r->src->coord_lo || !r->src->coord_hi) {
    run_node(r, i, mask);
    return;
  }
  if (p->epoch[i] == ep && !(mask & ~p->valid[i]))
    return;
  /* a form or a uniform value of the group holds for its other warps (the
   * coordinate box is the group's); values held lane by lane do not */
  if (gep && p->gepoch[i] == gep && (!n->varying || p->aff[i])) {
    p->epoch[i] = ep;
    p->valid[i] = ALL;
    return;
  }
  run_node(r, i, mask);
  p->epoch[i] = ep;
  bool whole = !n->varying || p->aff[i];
  p->valid[i] = whole ? ALL : mask;
  p->gepoch[i] = whole ? gep : 0;
}

static void run_node(runner *r, uint32_t i, uint64_t mask) {
  wgp_xprog *p = r->p;
  const xnode *n = &p->n[i];
  int64_t *out = p->val + (size_t)i * WGP_XLANES;
  p->aff[i] = 0;
  switch (n->kind) {
  case XN_CONST:
    out[0] = n->cval;
    p->ok[i] = n->cst == WGP_EVAL_OK ? ALL : 0;
    p->err[i] = n->cst == WGP_EVAL_ERROR ? ALL : 0;
    return;
  case XN_SYM: {
    uint64_t ok = 0, err = 0;
    int64_t base;
    unsigned k;
    if (n->varying && r->src->coord && r->src->affine && r->src->affine(r->src->user, &n->sym, &base, &k) &&
        k < WGP_XCOORDS) {
      form f;
      memset(&f, 0, sizeof f);
      f.c[0] = base;
      f.c[1 + k] = 1;
      if (form_within(r, &f, INT64_MIN, INT64_MAX)) {
        set_form(p, i, &f);
        return;
      }
    }
    r->src->fill(r->src->user, &n->sym, mask, out, &ok, &err);
    /* (not for a kept symbol: a form found on these lanes alone would be
     * kept for others) */
    if (n->varying && !n->fixed && r->src->coord && mask && (ok & mask) == mask) {
      /* every lane has the same value (a recurrence the lanes share): carry
       * it as a constant form, so what depends on it is computed once */
      int64_t v0 = out[__builtin_ctzll(mask)];
      bool same = true;
      FOR_LANES(l, mask) same = same && out[l] == v0;
      form f;
      if (same) {
        memset(&f, 0, sizeof f);
        f.c[0] = v0;
        set_form(p, i, &f);
        return;
      }
      /* values that step evenly along one lane coordinate (a grid-stride
       * index, gid + k * stride): carried as that form, so the address
       * arithmetic on them is one multiply-add per lane too */
      if (fit_coordinate(r, out, mask, &f)) {
        set_form(p, i, &f);
        return;
      }
    }
    p->ok[i] = ok;
    p->err[i] = err;
    return;
  }
  default: break;
  }
  if (n->e->op == WGP_OP_SELECT) {
    run_select(r, i, mask);
    return;
  }
  const uint32_t *ops = p->opnd + n->first;
  size_t nops = n->nops;
  for (size_t j = 0; j < nops; j++)
    run(r, ops[j], mask);
  const wgp_expr *e = n->e;
  if (!n->varying) {
    for (size_t j = 0; j < nops; j++) {
      p->gv[j] = p->val[(size_t)ops[j] * WGP_XLANES];
      p->gs[j] = lane_status(p->ok[ops[j]], p->err[ops[j]], 0);
    }
    wgp_eval_status st = apply1(&r->ev, e, nops, p->gv, p->gs, &out[0]);
    p->ok[i] = st == WGP_EVAL_OK ? ALL : 0;
    p->err[i] = st == WGP_EVAL_ERROR ? ALL : 0;
    return;
  }
  if (r->src->coord && try_affine(r, i))
    return;
  /* uniform operands are spread over the lanes: the loops below read v[l] */
  uint64_t allok = mask;
  for (size_t j = 0; j < nops; j++) {
    int64_t *v = p->val + (size_t)ops[j] * WGP_XLANES;
    materialize(r, ops[j], mask);
    if (!p->n[ops[j]].varying)
      FOR_LANES(l, mask) v[l] = v[0];
    allok &= p->ok[ops[j]];
  }
  uint64_t ok = 0, err = 0;
  wgp_evaluator *ev = &r->ev;
  const int64_t *a = p->val + (size_t)ops[0] * WGP_XLANES;
  const int64_t *b = nops > 1 ? p->val + (size_t)ops[1] * WGP_XLANES : a;
  /* Lanes whose operands are all known: the operation alone. */
  switch (e->op) {
  case WGP_OP_ADD:
  case WGP_OP_MUL:
    if (nops == 2 && e->op == WGP_OP_ADD) { /* the usual address arithmetic, in one loop */
      FOR_LANES(l, allok) {
        wgp_x_acc acc = {0, 0, 0, false, false};
        wgp_x_nary_step(e, &acc, a[l]);
        wgp_x_nary_step(e, &acc, b[l]);
        if (wgp_x_acc_end(ev, e, &acc, &out[l]) == WGP_EVAL_OK)
          ok |= UINT64_C(1) << l;
      }
      break;
    }
    if (nops == 2) {
      FOR_LANES(l, allok) {
        wgp_x_acc acc = {1, 1, 1, false, false};
        wgp_x_nary_step(e, &acc, a[l]);
        wgp_x_nary_step(e, &acc, b[l]);
        if (wgp_x_acc_end(ev, e, &acc, &out[l]) == WGP_EVAL_OK)
          ok |= UINT64_C(1) << l;
      }
      break;
    }
    FOR_LANES(l, allok) {
      wgp_x_acc acc;
      wgp_x_nary_start(e, &acc);
      for (size_t j = 0; j < nops; j++)
        wgp_x_nary_step(e, &acc, p->val[(size_t)ops[j] * WGP_XLANES + l]);
      if (wgp_x_acc_end(ev, e, &acc, &out[l]) == WGP_EVAL_OK)
        ok |= UINT64_C(1) << l;
    }
    break;
  case WGP_OP_ZEXT:
    FOR_LANES(l, allok) out[l] = wgp_x_canon(wgp_x_zx(a[l], e->from_width), e->width);
    ok = allok;
    break;
  case WGP_OP_SEXT:
    FOR_LANES(l, allok) out[l] = wgp_x_canon((uint64_t)wgp_x_sx(a[l], e->from_width), e->width);
    ok = allok;
    break;
  case WGP_OP_TRUNC:
    FOR_LANES(l, allok) out[l] = wgp_x_canon((uint64_t)a[l], e->width);
    ok = allok;
    break;
  case WGP_OP_ABS:
  case WGP_OP_NOT:
    FOR_LANES(l, allok) if (wgp_x_unary(ev, e, a[l], &out[l]) == WGP_EVAL_OK) ok |= UINT64_C(1) << l;
    break;
  case WGP_OP_SUB:
  case WGP_OP_UDIV:
  case WGP_OP_SDIV:
  case WGP_OP_UREM:
  case WGP_OP_SREM:
  case WGP_OP_SHL:
  case WGP_OP_LSHR:
  case WGP_OP_ASHR:
  case WGP_OP_EQ:
  case WGP_OP_NE:
  case WGP_OP_SLT:
  case WGP_OP_SLE:
  case WGP_OP_SGT:
  case WGP_OP_SGE:
  case WGP_OP_ULT:
  case WGP_OP_ULE:
  case WGP_OP_UGT:
  case WGP_OP_UGE:
    FOR_LANES(l, allok) if (wgp_x_binary(ev, e, a[l], b[l], &out[l]) == WGP_EVAL_OK) ok |= UINT64_C(1) << l;
    break;
  case WGP_OP_AND:
  case WGP_OP_OR:
  case WGP_OP_XOR:
  case WGP_OP_SMIN:
  case WGP_OP_SMAX:
  case WGP_OP_UMIN:
  case WGP_OP_UMAX:
    /* folds (the and/or of conditions: 1-bit umin/umax) on the lanes whose
     * operands are all known, as the tree walker folds them */
    FOR_LANES(l, allok) {
      uint64_t acc = wgp_x_fold_start(e, a[l]);
      for (size_t j = 1; j < nops; j++)
        acc = wgp_x_fold_step(e, acc, p->val[(size_t)ops[j] * WGP_XLANES + l]);
      out[l] = wgp_x_canon(acc, e->width);
    }
    ok = allok;
    break;
  default: /* addrec: the general path */
    allok = 0;
    break;
  }
  /* The other lanes, operand by operand as the tree walker goes. */
  FOR_LANES(l, mask & ~allok) {
    for (size_t j = 0; j < nops; j++) {
      p->gv[j] = p->val[(size_t)ops[j] * WGP_XLANES + l];
      p->gs[j] = lane_status(p->ok[ops[j]], p->err[ops[j]], (unsigned)l);
    }
    wgp_eval_status st = apply1(ev, e, nops, p->gv, p->gs, &out[l]);
    if (st == WGP_EVAL_OK)
      ok |= UINT64_C(1) << l;
    else if (st == WGP_EVAL_ERROR)
      err |= UINT64_C(1) << l;
  }
  p->ok[i] = ok;
  p->err[i] = err;
}

/* The root's value (R has run it) in OUT for the lanes of MASK whose value
 * is known; returns their mask. */
static uint64_t root_values(runner *r, uint64_t mask, int64_t *out) {
  wgp_xprog *p = r->p;
  materialize(r, p->root, mask);
  const int64_t *v = p->val + (size_t)p->root * WGP_XLANES;
  if (!p->n[p->root].varying) {
    if (!p->ok[p->root])
      return 0;
    FOR_LANES(l, mask) out[l] = v[0];
    return mask;
  }
  uint64_t known = p->ok[p->root] & mask;
  FOR_LANES(l, known) out[l] = v[l];
  return known;
}

uint64_t wgp_xprog_eval(wgp_xprog *p, const wgp_xsource *src, uint64_t mask, int64_t *out, bool *uniform) {
  runner r = {p, src, {NULL, p->flags, NULL}, mask, false, {0}, {0}};
  run(&r, p->root, mask);
  if (uniform)
    *uniform = !p->n[p->root].varying;
  return root_values(&r, mask, out);
}

bool wgp_xprog_eval_form(wgp_xprog *p, const wgp_xsource *src, uint64_t mask, int64_t *out, uint64_t *known,
                         int64_t *out_form) {
  runner r = {p, src, {NULL, p->flags, NULL}, mask, false, {0}, {0}};
  run(&r, p->root, mask);
  uint32_t i = p->root;
  if (!p->n[i].varying && p->ok[i]) {
    out_form[0] = p->val[(size_t)i * WGP_XLANES];
    for (unsigned k = 0; k < WGP_XCOORDS; k++)
      out_form[1 + k] = 0;
    return true;
  }
  if (p->n[i].varying && p->aff[i]) {
    for (unsigned k = 0; k <= WGP_XCOORDS; k++)
      out_form[k] = p->form[i][k];
    return true;
  }
  *known = root_values(&r, mask, out); /* (the same unknown or failed value in every lane: none) */
  return false;
}
