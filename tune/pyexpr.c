/* pyexpr.c - values and evaluation of the Python expression subset of
 * tuning-space files (pyexpr_internal.h); pyexpr_parse.c parses.
 *
 * The evaluator follows Python 3's semantics for the types it knows; what it
 * does not know is an error with the column of the node, never a silent
 * guess.  Values of one evaluation live in an arena reset as a whole.
 */
#include "pyexpr_tree_internal.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- values ---------------------------------------------------------------- */

typedef struct chunk {
  struct chunk *next;
  size_t used, size;
  max_align_t data[];
} chunk;

struct pyx_arena {
  chunk *head;
};

pyx_arena *pyx_arena_new(void) { return calloc(1, sizeof(pyx_arena)); }

void pyx_arena_reset(pyx_arena *a) {
  if (!a)
    return;
  /* keep the first (newest) chunk for the next evaluation */
  chunk *keep = a->head;
  if (!keep)
    return;
  chunk *c = keep->next;
  while (c) {
    chunk *n = c->next;
    free(c);
    c = n;
  }
  keep->next = NULL;
  keep->used = 0;
}

void pyx_arena_free(pyx_arena *a) {
  if (!a)
    return;
  chunk *c = a->head;
  while (c) {
    chunk *n = c->next;
    free(c);
    c = n;
  }
  free(a);
}

static void *arena_alloc(pyx_arena *a, size_t n) {
  n = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
  if (!a->head || a->head->size - a->head->used < n) {
    size_t size = n > 65536 ? n : 65536;
    chunk *c = malloc(sizeof *c + size);
    if (!c)
      return NULL;
    c->size = size, c->used = 0;
    c->next = a->head;
    a->head = c;
  }
  void *p = (char *)a->head->data + a->head->used;
  a->head->used += n;
  return p;
}

const char *pyx_kind_name(pyx_kind k) {
  switch (k) {
  case PYX_NONE: return "NoneType";
  case PYX_BOOL: return "bool";
  case PYX_INT: return "int";
  case PYX_FLOAT: return "float";
  case PYX_STR: return "str";
  default: return "list";
  }
}

bool pyx_truthy(const pyx_value *v) {
  switch (v->kind) {
  case PYX_NONE: return false;
  case PYX_BOOL:
  case PYX_INT: return v->i != 0;
  case PYX_FLOAT: return v->f != 0;
  case PYX_STR: return v->s[0] != '\0';
  default: return v->n > 0;
  }
}

static bool is_intlike(const pyx_value *v) { return v->kind == PYX_INT || v->kind == PYX_BOOL; }
static bool is_number(const pyx_value *v) { return is_intlike(v) || v->kind == PYX_FLOAT; }

bool pyx_as_number(const pyx_value *v, double *out) {
  if (is_intlike(v))
    *out = (double)v->i;
  else if (v->kind == PYX_FLOAT)
    *out = v->f;
  else
    return false;
  return true;
}

bool pyx_as_int(const pyx_value *v, int64_t *out) {
  if (is_intlike(v)) {
    *out = v->i;
    return true;
  }
  if (v->kind == PYX_FLOAT && v->f == floor(v->f) && fabs(v->f) < 9.2e18) {
    *out = (int64_t)v->f;
    return true;
  }
  return false;
}

/* Python's repr of a float: the fewest digits that read back the same,
 * in fixed notation for decimal exponents -4 to 15 (1000.0, 0.0001), else
 * in exponent notation (1e+16, 1e-05). */
static void float_repr(double f, char *buf, size_t size) {
  if (isinf(f)) {
    snprintf(buf, size, f > 0 ? "inf" : "-inf");
    return;
  }
  if (isnan(f)) {
    snprintf(buf, size, "nan");
    return;
  }
  int prec = 1;
  char e[64];
  for (; prec < 17; prec++) {
    snprintf(e, sizeof e, "%.*e", prec - 1, f);
    if (strtod(e, NULL) == f)
      break;
  }
  snprintf(e, sizeof e, "%.*e", prec - 1, f);
  int x = atoi(strchr(e, 'e') + 1);
  if (x >= -4 && x < 16) {
    int decimals = prec - 1 - x;
    snprintf(buf, size, "%.*f", decimals > 0 ? decimals : 0, f);
    if (!strchr(buf, '.')) {
      size_t n = strlen(buf);
      if (n + 2 < size)
        memcpy(buf + n, ".0", 3);
    }
  } else {
    snprintf(buf, size, "%s", e);
  }
}

bool pyx_str(const pyx_value *v, char *buf, size_t size) {
  int n;
  char tmp[64];
  switch (v->kind) {
  case PYX_NONE: n = snprintf(buf, size, "None"); break;
  case PYX_BOOL: n = snprintf(buf, size, v->i ? "True" : "False"); break;
  case PYX_INT: n = snprintf(buf, size, "%lld", (long long)v->i); break;
  case PYX_FLOAT:
    float_repr(v->f, tmp, sizeof tmp);
    n = snprintf(buf, size, "%s", tmp);
    break;
  case PYX_STR: n = snprintf(buf, size, "%s", v->s); break;
  default: {
    size_t used = 0;
    if (size < 3)
      return false;
    buf[used++] = '[';
    for (size_t i = 0; i < v->n; i++) {
      if (i && used + 2 < size)
        buf[used++] = ',', buf[used++] = ' ';
      bool quote = v->items[i].kind == PYX_STR;
      if (quote && used + 1 < size)
        buf[used++] = '\'';
      if (!pyx_str(&v->items[i], buf + used, size - used))
        return false;
      used += strlen(buf + used);
      if (quote && used + 1 < size)
        buf[used++] = '\'';
    }
    if (used + 2 > size)
      return false;
    buf[used++] = ']';
    buf[used] = '\0';
    return true;
  }
  }
  return n >= 0 && (size_t)n < size;
}

/* Python's == of A and B, a step of *LEFT spent on each pair of values
 * compared; false with *LEFT 0 when the steps run out first (two lists of
 * lists can take far more comparisons than they hold items). */
static bool equal_within(const pyx_value *a, const pyx_value *b, uint64_t *left, bool *eq) {
  if (*left == 0)
    return false;
  --*left;
  *eq = false;
  if (is_number(a) && is_number(b)) {
    if (is_intlike(a) && is_intlike(b)) {
      *eq = a->i == b->i;
    } else {
      double x, y;
      pyx_as_number(a, &x);
      pyx_as_number(b, &y);
      *eq = x == y;
    }
    return true;
  }
  if (a->kind != b->kind)
    return true;
  if (a->kind == PYX_NONE)
    *eq = true;
  else if (a->kind == PYX_STR)
    *eq = strcmp(a->s, b->s) == 0;
  else if (a->kind == PYX_LIST && a->n == b->n) {
    *eq = true;
    for (size_t i = 0; i < a->n && *eq; i++)
      if (!equal_within(&a->items[i], &b->items[i], left, eq))
        return false;
  }
  return true;
}

/* ---- evaluation ------------------------------------------------------------ */

typedef struct evalctx {
  const pyx_env *env;
  pyx_arena *a;
  char *err;
  bool failed;
  int depth;
  uint64_t *steps; /* left to spend (pyx_eval) */
  uint64_t given;  /* what *steps held when the evaluation began */
} evalctx;

typedef struct binding {
  const char *name;
  const pyx_value *value;
  const struct binding *up;
} binding;

static bool efail(evalctx *c, const node *n, const char *fmt, ...) {
  if (c->failed)
    return false;
  c->failed = true;
  char what[PYX_ERR_SIZE - 32];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  snprintf(c->err, PYX_ERR_SIZE, "%s at column %zu", what, n->col + 1);
  return false;
}

static bool eval(evalctx *c, const node *n, const binding *b, pyx_value *out);

/* Spends K steps of the evaluation's budget: false, with the message, when
 * fewer are left (then none are). */
static bool spend(evalctx *c, const node *n, uint64_t k) {
  if (*c->steps < k) {
    *c->steps = 0;
    return efail(c, n, "too much to evaluate (more than %llu steps)", (unsigned long long)c->given);
  }
  *c->steps -= k;
  return true;
}

static pyx_value vint(int64_t i) { return (pyx_value){.kind = PYX_INT, .i = i}; }
static pyx_value vfloat(double f) { return (pyx_value){.kind = PYX_FLOAT, .f = f}; }
static pyx_value vbool(bool t) { return (pyx_value){.kind = PYX_BOOL, .i = t}; }

static bool new_list(evalctx *c, const node *n, size_t count, pyx_value *out) {
  if (count > PYX_MAX_LIST)
    return efail(c, n, "a list of %zu items (at most %u)", count, PYX_MAX_LIST);
  if (!spend(c, n, count))
    return false;
  *out = (pyx_value){.kind = PYX_LIST, .n = count};
  if (count && !(out->items = arena_alloc(c->a, count * sizeof *out->items)))
    return efail(c, n, "out of memory");
  return true;
}

/* floor division and modulo of integers, Python's way */
static int64_t floordiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0)))
    q--;
  return q;
}
static int64_t pymod(int64_t a, int64_t b) {
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0)))
    r += b;
  return r;
}

static const char *op_name(op_kind op) {
  static const char *const names[] = {"+", "-", "*", "/", "//", "%", "**", "==", "!=", "<", "<=", ">", ">=",
                                      "in", "not in"};
  return names[op];
}

static bool arith(evalctx *c, const node *n, op_kind op, const pyx_value *x, const pyx_value *y, pyx_value *out) {
  if (is_number(x) && is_number(y)) {
    if (is_intlike(x) && is_intlike(y) && op != O_DIV) {
      int64_t a = x->i, b = y->i, r;
      switch (op) {
      case O_ADD:
        if (__builtin_add_overflow(a, b, &r))
          return efail(c, n, "integer overflow in '+'");
        break;
      case O_SUB:
        if (__builtin_sub_overflow(a, b, &r))
          return efail(c, n, "integer overflow in '-'");
        break;
      case O_MUL:
        if (__builtin_mul_overflow(a, b, &r))
          return efail(c, n, "integer overflow in '*'");
        break;
      case O_FLOORDIV:
        if (b == 0)
          return efail(c, n, "division by zero in '//'");
        if (a == INT64_MIN && b == -1)
          return efail(c, n, "integer overflow in '//'");
        r = floordiv(a, b);
        break;
      case O_MOD:
        if (b == 0)
          return efail(c, n, "division by zero in '%%'");
        r = b == -1 ? 0 : pymod(a, b);
        break;
      case O_POW:
        if (b < 0) {
          if (a == 0)
            return efail(c, n, "division by zero: 0 to a negative power");
          *out = vfloat(pow((double)a, (double)b));
          return true;
        }
        {
          /* by squaring: a base that overflows while exponent bits remain makes the result overflow */
          int64_t base = a, e = b;
          r = 1;
          while (e > 0) {
            if ((e & 1) && __builtin_mul_overflow(r, base, &r))
              return efail(c, n, "integer overflow in '**'");
            e >>= 1;
            if (e > 0 && __builtin_mul_overflow(base, base, &base))
              return efail(c, n, "integer overflow in '**'");
          }
        }
        break;
      default: return efail(c, n, "internal: bad operator");
      }
      *out = vint(r);
      return true;
    }
    double a, b, r;
    pyx_as_number(x, &a);
    pyx_as_number(y, &b);
    switch (op) {
    case O_ADD: r = a + b; break;
    case O_SUB: r = a - b; break;
    case O_MUL: r = a * b; break;
    case O_DIV:
      if (b == 0)
        return efail(c, n, "division by zero in '/'");
      r = a / b;
      break;
    case O_FLOORDIV:
      if (b == 0)
        return efail(c, n, "division by zero in '//'");
      r = floor(a / b);
      break;
    case O_MOD:
      if (b == 0)
        return efail(c, n, "division by zero in '%%'");
      r = fmod(a, b);
      if (r != 0 && ((r < 0) != (b < 0)))
        r += b;
      break;
    case O_POW:
      if (a == 0 && b < 0)
        return efail(c, n, "division by zero: 0 to a negative power");
      if (a < 0 && b != floor(b))
        return efail(c, n, "a negative number to a fractional power is complex");
      r = pow(a, b);
      break;
    default: return efail(c, n, "internal: bad operator");
    }
    if (!isfinite(r) && isfinite(a) && isfinite(b))
      return efail(c, n, "float overflow in '%s'", op_name(op));
    *out = vfloat(r);
    return true;
  }
  if (op == O_ADD && x->kind == PYX_STR && y->kind == PYX_STR) {
    size_t la = strlen(x->s), lb = strlen(y->s);
    char *s = arena_alloc(c->a, la + lb + 1);
    if (!s)
      return efail(c, n, "out of memory");
    memcpy(s, x->s, la);
    memcpy(s + la, y->s, lb + 1);
    *out = (pyx_value){.kind = PYX_STR, .s = s};
    return true;
  }
  if (op == O_ADD && x->kind == PYX_LIST && y->kind == PYX_LIST) {
    if (!new_list(c, n, x->n + y->n, out))
      return false;
    if (x->n)
      memcpy(out->items, x->items, x->n * sizeof *x->items);
    if (y->n)
      memcpy(out->items + x->n, y->items, y->n * sizeof *y->items);
    return true;
  }
  if (op == O_MUL && ((x->kind == PYX_LIST && is_intlike(y)) || (y->kind == PYX_LIST && is_intlike(x)))) {
    const pyx_value *l = x->kind == PYX_LIST ? x : y;
    int64_t k = x->kind == PYX_LIST ? y->i : x->i;
    if (k < 0)
      k = 0;
    if (l->n && (uint64_t)k > PYX_MAX_LIST / l->n)
      return efail(c, n, "a list of more than %u items", PYX_MAX_LIST);
    if (!new_list(c, n, l->n * (size_t)k, out))
      return false;
    for (int64_t r = 0; r < k; r++)
      memcpy(out->items + (size_t)r * l->n, l->items, l->n * sizeof *l->items);
    return true;
  }
  return efail(c, n, "unsupported operand types for %s: '%s' and '%s'", op_name(op), pyx_kind_name(x->kind),
               pyx_kind_name(y->kind));
}

static bool compare(evalctx *c, const node *n, op_kind op, const pyx_value *x, const pyx_value *y, bool *out) {
  if (op == O_EQ || op == O_NE) {
    bool eq;
    if (!equal_within(x, y, c->steps, &eq))
      return spend(c, n, 1);
    *out = eq == (op == O_EQ);
    return true;
  }
  if (op == O_IN || op == O_NOTIN) {
    bool found = false;
    if (y->kind == PYX_LIST) {
      for (size_t i = 0; i < y->n && !found; i++)
        if (!equal_within(x, &y->items[i], c->steps, &found))
          return spend(c, n, 1);
    } else if (y->kind == PYX_STR && x->kind == PYX_STR) {
      found = strstr(y->s, x->s) != NULL;
    } else {
      return efail(c, n, "'in' needs a list or a string on its right, got '%s'", pyx_kind_name(y->kind));
    }
    *out = found == (op == O_IN);
    return true;
  }
  int cmp;
  if (is_number(x) && is_number(y)) {
    if (is_intlike(x) && is_intlike(y))
      cmp = (x->i > y->i) - (x->i < y->i);
    else {
      double a, b;
      pyx_as_number(x, &a);
      pyx_as_number(y, &b);
      if (a != a || b != b) {
        *out = false;
        return true;
      }
      cmp = (a > b) - (a < b);
    }
  } else if (x->kind == PYX_STR && y->kind == PYX_STR) {
    cmp = strcmp(x->s, y->s);
    cmp = (cmp > 0) - (cmp < 0);
  } else {
    return efail(c, n, "'%s' is not supported between '%s' and '%s'", op_name(op), pyx_kind_name(x->kind),
                 pyx_kind_name(y->kind));
  }
  switch (op) {
  case O_LT: *out = cmp < 0; break;
  case O_LE: *out = cmp <= 0; break;
  case O_GT: *out = cmp > 0; break;
  default: *out = cmp >= 0; break;
  }
  return true;
}

static bool lookup(evalctx *c, const node *n, const binding *b, pyx_value *out) {
  for (; b; b = b->up)
    if (strcmp(b->name, n->str) == 0) {
      *out = *b->value;
      return true;
    }
  if (c->env && c->env->find && c->env->find(c->env->user, n->str, out))
    return true;
  return efail(c, n, "unknown name '%s'", n->str);
}

static bool eval_comp(evalctx *c, const node *n, size_t clause, const binding *b, pyx_value **buf, size_t *count,
                      size_t *cap) {
  if (clause == n->nkids) {
    pyx_value v;
    if (!eval(c, n->kids[0], b, &v))
      return false;
    if (*count == *cap) {
      if (*count == PYX_MAX_LIST)
        return efail(c, n, "a list of more than %u items", PYX_MAX_LIST);
      size_t ncap = *cap ? 2 * *cap : 16;
      if (ncap > PYX_MAX_LIST)
        ncap = PYX_MAX_LIST;
      pyx_value *nb = arena_alloc(c->a, ncap * sizeof *nb);
      if (!nb)
        return efail(c, n, "out of memory");
      if (*count)
        memcpy(nb, *buf, *count * sizeof *nb);
      *buf = nb, *cap = ncap;
    }
    (*buf)[(*count)++] = v;
    return true;
  }
  const node *cl = n->kids[clause];
  if (cl->kind == N_IF) {
    pyx_value t;
    if (!eval(c, cl->kids[0], b, &t))
      return false;
    return pyx_truthy(&t) ? eval_comp(c, n, clause + 1, b, buf, count, cap) : true;
  }
  pyx_value it;
  if (!eval(c, cl->kids[1], b, &it))
    return false;
  if (it.kind != PYX_LIST)
    return efail(c, cl->kids[1], "'%s' object is not iterable", pyx_kind_name(it.kind));
  for (size_t i = 0; i < it.n; i++) {
    binding nb = {cl->kids[0]->str, &it.items[i], b};
    if (!eval_comp(c, n, clause + 1, &nb, buf, count, cap))
      return false;
  }
  return true;
}

static bool call(evalctx *c, const node *n, const binding *b, pyx_value *out) {
  const char *f = n->str;
  size_t na = n->nkids;
  if (!pyx_builtin_function(f))
    return efail(c, n, "unknown function '%s'", f);
  /* max(P) / min(P) of a parameter: the extreme of its values */
  if ((strcmp(f, "max") == 0 || strcmp(f, "min") == 0) && na == 1 && n->kids[0]->kind == N_NAME && c->env &&
      c->env->values) {
    bool local = false;
    for (const binding *s = b; s && !local; s = s->up)
      local = strcmp(s->name, n->kids[0]->str) == 0;
    pyx_value all;
    if (!local && c->env->values(c->env->user, n->kids[0]->str, &all)) {
      pyx_value args = all;
      if (args.kind != PYX_LIST || args.n == 0)
        return efail(c, n, "%s() of an empty parameter", f);
      if (!spend(c, n, args.n))
        return false;
      pyx_value best = args.items[0];
      for (size_t i = 1; i < args.n; i++) {
        bool better;
        if (!compare(c, n, f[1] == 'a' ? O_GT : O_LT, &args.items[i], &best, &better))
          return false;
        if (better)
          best = args.items[i];
      }
      *out = best;
      return true;
    }
  }
  pyx_value args[4];
  if (na > 4 && strcmp(f, "max") && strcmp(f, "min"))
    return efail(c, n, "%s() takes at most 3 arguments", f);
  pyx_value *av = args;
  if (na > 4) {
    av = arena_alloc(c->a, na * sizeof *av);
    if (!av)
      return efail(c, n, "out of memory");
  }
  for (size_t i = 0; i < na; i++)
    if (!eval(c, n->kids[i], b, &av[i]))
      return false;
  if (strcmp(f, "range") == 0) {
    int64_t r[3] = {0, 0, 1};
    if (na < 1 || na > 3)
      return efail(c, n, "range() takes 1 to 3 arguments, got %zu", na);
    for (size_t i = 0; i < na; i++)
      if (!is_intlike(&av[i]))
        return efail(c, n->kids[i], "range() takes integers, got '%s'", pyx_kind_name(av[i].kind));
    if (na == 1)
      r[1] = av[0].i;
    else
      r[0] = av[0].i, r[1] = av[1].i, r[2] = na == 3 ? av[2].i : 1;
    if (r[2] == 0)
      return efail(c, n, "range() step must not be zero");
    double cnt = r[2] > 0 ? ceil(((double)r[1] - (double)r[0]) / (double)r[2])
                          : ceil(((double)r[0] - (double)r[1]) / (double)-r[2]);
    if (cnt < 0)
      cnt = 0;
    if (cnt > PYX_MAX_LIST)
      return efail(c, n, "range() of %.0f items (at most %u)", cnt, PYX_MAX_LIST);
    if (!new_list(c, n, (size_t)cnt, out))
      return false;
    for (size_t i = 0; i < out->n; i++)
      out->items[i] = vint(r[0] + (int64_t)i * r[2]);
    return true;
  }
  if (strcmp(f, "max") == 0 || strcmp(f, "min") == 0) {
    const pyx_value *items = av;
    size_t cnt = na;
    if (na == 1) {
      if (av[0].kind != PYX_LIST)
        return efail(c, n, "'%s' object is not iterable", pyx_kind_name(av[0].kind));
      items = av[0].items, cnt = av[0].n;
    }
    if (cnt == 0)
      return efail(c, n, "%s() of an empty list", f);
    if (!spend(c, n, cnt))
      return false;
    pyx_value best = items[0];
    for (size_t i = 1; i < cnt; i++) {
      bool better;
      if (!compare(c, n, f[1] == 'a' ? O_GT : O_LT, &items[i], &best, &better))
        return false;
      if (better)
        best = items[i];
    }
    *out = best;
    return true;
  }
  if (na != 1)
    return efail(c, n, "%s() takes 1 argument, got %zu", f, na);
  const pyx_value *x = &av[0];
  if (strcmp(f, "len") == 0) {
    if (x->kind == PYX_LIST)
      *out = vint((int64_t)x->n);
    else if (x->kind == PYX_STR)
      *out = vint((int64_t)strlen(x->s));
    else
      return efail(c, n, "object of type '%s' has no len()", pyx_kind_name(x->kind));
    return true;
  }
  if (strcmp(f, "abs") == 0) {
    if (is_intlike(x)) {
      if (x->i == INT64_MIN)
        return efail(c, n, "integer overflow in abs()");
      *out = vint(x->i < 0 ? -x->i : x->i);
    } else if (x->kind == PYX_FLOAT)
      *out = vfloat(fabs(x->f));
    else
      return efail(c, n, "bad operand type for abs(): '%s'", pyx_kind_name(x->kind));
    return true;
  }
  if (strcmp(f, "int") == 0) {
    if (is_intlike(x))
      *out = vint(x->i);
    else if (x->kind == PYX_FLOAT) {
      if (!(fabs(x->f) < 9.2e18))
        return efail(c, n, "int() of %g is out of range", x->f);
      *out = vint((int64_t)x->f); /* truncation, as Python's int() */
    } else if (x->kind == PYX_STR) {
      char *end;
      errno = 0;
      long long v = strtoll(x->s, &end, 10);
      if (!*x->s || *end || errno)
        return efail(c, n, "invalid literal for int(): '%s'", x->s);
      *out = vint(v);
    } else
      return efail(c, n, "int() of '%s'", pyx_kind_name(x->kind));
    return true;
  }
  if (strcmp(f, "float") == 0) {
    double d;
    if (pyx_as_number(x, &d))
      *out = vfloat(d);
    else if (x->kind == PYX_STR) {
      char *end;
      d = strtod(x->s, &end);
      if (!*x->s || *end)
        return efail(c, n, "could not convert string to float: '%s'", x->s);
      *out = vfloat(d);
    } else
      return efail(c, n, "float() of '%s'", pyx_kind_name(x->kind));
    return true;
  }
  if (strcmp(f, "bool") == 0) {
    *out = vbool(pyx_truthy(x));
    return true;
  }
  if (strcmp(f, "list") == 0) {
    if (x->kind != PYX_LIST)
      return efail(c, n, "'%s' object is not iterable", pyx_kind_name(x->kind));
    *out = *x;
    return true;
  }
  if (strcmp(f, "str") == 0) {
    char buf[512];
    if (!pyx_str(x, buf, sizeof buf))
      return efail(c, n, "str() of a value too long");
    char *s = arena_alloc(c->a, strlen(buf) + 1);
    if (!s)
      return efail(c, n, "out of memory");
    strcpy(s, buf);
    *out = (pyx_value){.kind = PYX_STR, .s = s};
    return true;
  }
  /* sum */
  if (x->kind != PYX_LIST)
    return efail(c, n, "'%s' object is not iterable", pyx_kind_name(x->kind));
  if (!spend(c, n, x->n))
    return false;
  pyx_value acc = vint(0);
  for (size_t i = 0; i < x->n; i++)
    if (!arith(c, n, O_ADD, &acc, &x->items[i], &acc))
      return false;
  *out = acc;
  return true;
}

static bool eval(evalctx *c, const node *n, const binding *b, pyx_value *out) {
  if (c->failed)
    return false;
  if (++c->depth > PYX_MAX_DEPTH)
    return efail(c, n, "evaluation nested too deeply");
  if (!spend(c, n, 1))
    return false;
  bool ok = true;
  switch (n->kind) {
  case N_INT: *out = vint(n->i); break;
  case N_FLOAT: *out = vfloat(n->f); break;
  case N_STR: *out = (pyx_value){.kind = PYX_STR, .s = n->str}; break;
  case N_TRUE: *out = vbool(true); break;
  case N_FALSE: *out = vbool(false); break;
  case N_NONE: *out = (pyx_value){.kind = PYX_NONE}; break;
  case N_NAME: ok = lookup(c, n, b, out); break;
  case N_LIST:
    ok = new_list(c, n, n->nkids, out);
    for (size_t i = 0; ok && i < n->nkids; i++)
      ok = eval(c, n->kids[i], b, &out->items[i]);
    break;
  case N_COMP: {
    pyx_value *buf = NULL;
    size_t count = 0, cap = 0;
    ok = eval_comp(c, n, 1, b, &buf, &count, &cap);
    if (ok)
      *out = (pyx_value){.kind = PYX_LIST, .n = count, .items = buf};
    break;
  }
  case N_IFEXP: {
    pyx_value t;
    ok = eval(c, n->kids[1], b, &t) && eval(c, pyx_truthy(&t) ? n->kids[0] : n->kids[2], b, out);
    break;
  }
  case N_OR:
  case N_AND:
    for (size_t i = 0; ok && i < n->nkids; i++) {
      ok = eval(c, n->kids[i], b, out);
      if (ok && pyx_truthy(out) == (n->kind == N_OR))
        break;
    }
    break;
  case N_NOT: {
    pyx_value t;
    ok = eval(c, n->kids[0], b, &t);
    if (ok)
      *out = vbool(!pyx_truthy(&t));
    break;
  }
  case N_CMP: {
    pyx_value l, r;
    ok = eval(c, n->kids[0], b, &l);
    bool res = true;
    for (size_t i = 1; ok && i < n->nkids && res; i++) {
      ok = eval(c, n->kids[i], b, &r) && compare(c, n, n->ops[i - 1], &l, &r, &res);
      l = r;
    }
    if (ok)
      *out = vbool(res);
    break;
  }
  case N_BIN: {
    pyx_value l, r;
    ok = eval(c, n->kids[0], b, &l) && eval(c, n->kids[1], b, &r) && arith(c, n, n->op, &l, &r, out);
    break;
  }
  case N_NEG:
  case N_POS: {
    pyx_value x;
    ok = eval(c, n->kids[0], b, &x);
    if (!ok)
      break;
    if (is_intlike(&x)) {
      if (n->kind == N_NEG && x.i == INT64_MIN)
        ok = efail(c, n, "integer overflow in unary '-'");
      else
        *out = vint(n->kind == N_NEG ? -x.i : x.i);
    } else if (x.kind == PYX_FLOAT) {
      *out = vfloat(n->kind == N_NEG ? -x.f : x.f);
    } else {
      ok = efail(c, n, "bad operand type for unary %s: '%s'", n->kind == N_NEG ? "-" : "+", pyx_kind_name(x.kind));
    }
    break;
  }
  case N_CALL: ok = call(c, n, b, out); break;
  case N_SUB: {
    pyx_value x, idx;
    ok = eval(c, n->kids[0], b, &x) && eval(c, n->kids[1], b, &idx);
    if (!ok)
      break;
    if (x.kind != PYX_LIST && x.kind != PYX_STR) {
      ok = efail(c, n, "'%s' object is not subscriptable", pyx_kind_name(x.kind));
      break;
    }
    if (!is_intlike(&idx)) {
      ok = efail(c, n->kids[1], "indices must be integers, got '%s'", pyx_kind_name(idx.kind));
      break;
    }
    int64_t len = x.kind == PYX_LIST ? (int64_t)x.n : (int64_t)strlen(x.s), k = idx.i < 0 ? idx.i + len : idx.i;
    if (k < 0 || k >= len) {
      ok = efail(c, n->kids[1], "index %lld out of range (%lld items)", (long long)idx.i, (long long)len);
      break;
    }
    if (x.kind == PYX_LIST)
      *out = x.items[k];
    else {
      char *s = arena_alloc(c->a, 2);
      if (!s) {
        ok = efail(c, n, "out of memory");
        break;
      }
      s[0] = x.s[k], s[1] = '\0';
      *out = (pyx_value){.kind = PYX_STR, .s = s};
    }
    break;
  }
  default: ok = efail(c, n, "internal: unknown node");
  }
  c->depth--;
  return ok && !c->failed;
}

bool pyx_eval(const pyx_expr *e, const pyx_env *env, pyx_arena *a, pyx_value *out, uint64_t *steps,
              char err[PYX_ERR_SIZE]) {
  uint64_t own = PYX_MAX_STEPS;
  evalctx c = {.env = env, .a = a, .err = err, .steps = steps ? steps : &own};
  c.given = *c.steps;
  err[0] = '\0';
  return eval(&c, e->root, NULL, out);
}
