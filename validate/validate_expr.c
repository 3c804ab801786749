/* validate_expr.c - integer expressions of a validation manifest
 * (validate_expr.h).  A recursive-descent parser that evaluates as it goes;
 * in check mode every name evaluates to 1 and arithmetic faults are ignored,
 * so only the syntax and the names are checked. */
#include "validate_expr.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define MAX_DEPTH 64

typedef struct vx_parser {
  const char *p;
  const vx_var *vars;
  size_t nvars;
  const char *const *names; /* check mode when non-NULL */
  size_t nnames;
  bool check;
  bool failed;
  int depth;
  char *err;
  size_t errsize;
} vx_parser;

static int64_t fail(vx_parser *ps, const char *fmt, ...) {
  if (!ps->failed) {
    ps->failed = true;
    if (ps->err && ps->errsize) {
      va_list ap;
      va_start(ap, fmt);
      vsnprintf(ps->err, ps->errsize, fmt, ap);
      va_end(ap);
    }
  }
  return 0;
}

static void skip(vx_parser *ps) {
  while (isspace((unsigned char)*ps->p))
    ps->p++;
}

static bool eat(vx_parser *ps, const char *tok) {
  skip(ps);
  size_t n = strlen(tok);
  if (strncmp(ps->p, tok, n) != 0)
    return false;
  ps->p += n;
  return true;
}

static int64_t parse_expr(vx_parser *ps);

/* Arithmetic with overflow checks (check mode never fails on values). */
static int64_t arith(vx_parser *ps, char op, int64_t a, int64_t b) {
  int64_t r = 0;
  switch (op) {
  case '+':
    if (__builtin_add_overflow(a, b, &r))
      return ps->check ? 1 : fail(ps, "overflow in %lld + %lld", (long long)a, (long long)b);
    return r;
  case '-':
    if (__builtin_sub_overflow(a, b, &r))
      return ps->check ? 1 : fail(ps, "overflow in %lld - %lld", (long long)a, (long long)b);
    return r;
  case '*':
    if (__builtin_mul_overflow(a, b, &r))
      return ps->check ? 1 : fail(ps, "overflow in %lld * %lld", (long long)a, (long long)b);
    return r;
  case '/':
  case '%':
    if (b == 0)
      return ps->check ? 1 : fail(ps, "division by zero");
    if (a == INT64_MIN && b == -1)
      return ps->check ? 1 : fail(ps, "overflow in division");
    return op == '/' ? a / b : a % b;
  }
  return fail(ps, "internal error: operator '%c'", op);
}

static int64_t isqrt64(int64_t v) {
  if (v < 2)
    return v;
  int64_t r = 0;
  for (int64_t bit = (int64_t)1 << 62; bit; bit >>= 2) {
    if (v >= r + bit) {
      v -= r + bit;
      r = (r >> 1) + bit;
    } else {
      r >>= 1;
    }
  }
  return r;
}

static int64_t call(vx_parser *ps, const char *name, size_t len) {
  static const struct {
    const char *name;
    int nargs;
  } fns[] = {{"log2", 1}, {"sqrt", 1}, {"min", 2}, {"max", 2}};
  int which = -1;
  for (int i = 0; i < 4; i++)
    if (strlen(fns[i].name) == len && strncmp(fns[i].name, name, len) == 0)
      which = i;
  if (which < 0)
    return fail(ps, "unknown function '%.*s' (log2, sqrt, min, max)", (int)len, name);
  int64_t a[2] = {0, 0};
  for (int i = 0; i < fns[which].nargs && !ps->failed; i++) {
    if (i && !eat(ps, ","))
      return fail(ps, "'%s' takes %d arguments", fns[which].name, fns[which].nargs);
    a[i] = parse_expr(ps);
  }
  if (!ps->failed && !eat(ps, ")"))
    return fail(ps, "expected ')' after the arguments of '%s'", fns[which].name);
  if (ps->failed)
    return 0;
  switch (which) {
  case 0:
    if (a[0] <= 0)
      return ps->check ? 1 : fail(ps, "log2 of %lld", (long long)a[0]);
    return 63 - __builtin_clzll((unsigned long long)a[0]);
  case 1:
    if (a[0] < 0)
      return ps->check ? 1 : fail(ps, "sqrt of %lld", (long long)a[0]);
    return isqrt64(a[0]);
  case 2: return a[0] < a[1] ? a[0] : a[1];
  default: return a[0] > a[1] ? a[0] : a[1];
  }
}

static int64_t parse_primary(vx_parser *ps) {
  skip(ps);
  const char *s = ps->p;
  if (isdigit((unsigned char)*s)) {
    int64_t v = 0;
    while (isdigit((unsigned char)*ps->p)) {
      if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, *ps->p - '0', &v))
        return fail(ps, "integer too large");
      ps->p++;
    }
    return v;
  }
  if (isalpha((unsigned char)*s) || *s == '_') {
    while (isalnum((unsigned char)*ps->p) || *ps->p == '_')
      ps->p++;
    size_t len = (size_t)(ps->p - s);
    if (eat(ps, "("))
      return call(ps, s, len);
    if (ps->check) {
      for (size_t i = 0; i < ps->nnames; i++)
        if (strlen(ps->names[i]) == len && strncmp(ps->names[i], s, len) == 0)
          return 1;
      return fail(ps, "unknown name '%.*s'", (int)len, s);
    }
    for (size_t i = ps->nvars; i-- > 0;)
      if (strlen(ps->vars[i].name) == len && strncmp(ps->vars[i].name, s, len) == 0)
        return ps->vars[i].value;
    return fail(ps, "unknown name '%.*s'", (int)len, s);
  }
  if (*s == '(') {
    ps->p++;
    int64_t v = parse_expr(ps);
    if (!ps->failed && !eat(ps, ")"))
      return fail(ps, "expected ')'");
    return v;
  }
  if (!*s)
    return fail(ps, "unexpected end of the expression");
  return fail(ps, "unexpected '%c'", *s);
}

static int64_t parse_unary(vx_parser *ps) {
  if (++ps->depth > MAX_DEPTH)
    return fail(ps, "expression nested too deeply");
  int64_t v;
  if (eat(ps, "-"))
    v = arith(ps, '-', 0, parse_unary(ps));
  else if (eat(ps, "+"))
    v = parse_unary(ps);
  else
    v = parse_primary(ps);
  ps->depth--;
  return v;
}

static int64_t parse_term(vx_parser *ps) {
  int64_t v = parse_unary(ps);
  while (!ps->failed) {
    skip(ps);
    char op = *ps->p;
    if (op != '*' && op != '/' && op != '%')
      break;
    ps->p++;
    v = arith(ps, op, v, parse_unary(ps));
  }
  return v;
}

static int64_t parse_sum(vx_parser *ps) {
  int64_t v = parse_term(ps);
  while (!ps->failed) {
    skip(ps);
    char op = *ps->p;
    if (op != '+' && op != '-')
      break;
    ps->p++;
    v = arith(ps, op, v, parse_term(ps));
  }
  return v;
}

static int64_t parse_expr(vx_parser *ps) {
  if (++ps->depth > MAX_DEPTH)
    return fail(ps, "expression nested too deeply");
  int64_t v = parse_sum(ps);
  static const char *const ops[] = {"<=", ">=", "==", "!=", "<", ">"};
  for (int i = 0; i < 6 && !ps->failed; i++)
    if (eat(ps, ops[i])) {
      int64_t b = parse_sum(ps);
      switch (i) {
      case 0: v = v <= b; break;
      case 1: v = v >= b; break;
      case 2: v = v == b; break;
      case 3: v = v != b; break;
      case 4: v = v < b; break;
      default: v = v > b; break;
      }
      break;
    }
  ps->depth--;
  return v;
}

static bool run(vx_parser *ps, int64_t *out) {
  skip(ps);
  if (!*ps->p) {
    fail(ps, "empty expression");
    return false;
  }
  int64_t v = parse_expr(ps);
  skip(ps);
  if (!ps->failed && *ps->p)
    fail(ps, "unexpected '%c'", *ps->p);
  if (ps->failed)
    return false;
  if (out)
    *out = v;
  return true;
}

bool vx_eval(const char *text, const vx_var *vars, size_t nvars, int64_t *out, char *err, size_t errsize) {
  vx_parser ps = {text, vars, nvars, NULL, 0, false, false, 0, err, errsize};
  return run(&ps, out);
}

bool vx_check(const char *text, const char *const *names, size_t n, char *err, size_t errsize) {
  vx_parser ps = {text, NULL, 0, names, n, true, false, 0, err, errsize};
  return run(&ps, NULL);
}
