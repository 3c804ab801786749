/* pyexpr_parse.c - the parser of the Python expression subset of tuning-space
 * files (pyexpr_internal.h), and the free names of a parsed expression.
 *
 * Recursive descent with Python 3's precedence (lowest first): conditional
 * expression, or, and, not, comparisons, + -, * / // %, unary + -, **,
 * subscripts and calls, atoms.  What the subset lacks (lambda, slices,
 * keyword arguments, 'is', C's && || !) is an error with its column.
 */
#define _POSIX_C_SOURCE 200809L /* strndup */
#include "pyexpr_tree_internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void node_free(node *n) {
  if (!n)
    return;
  for (size_t i = 0; i < n->nkids; i++)
    node_free(n->kids[i]);
  free(n->kids);
  free(n->ops);
  free(n->str);
  free(n);
}

static node *node_new(node_kind k, size_t col) {
  node *n = calloc(1, sizeof *n);
  if (n)
    n->kind = k, n->col = col;
  return n;
}

static bool node_add(node *n, node *kid) {
  if (!kid)
    return false;
  if (n->nkids == n->cap) {
    size_t cap = n->cap ? 2 * n->cap : 4;
    node **k = realloc(n->kids, cap * sizeof *k);
    op_kind *o = n->kind == N_CMP ? realloc(n->ops, cap * sizeof *o) : n->ops;
    if (!k || (n->kind == N_CMP && !o)) {
      if (k)
        n->kids = k;
      if (o)
        n->ops = o;
      node_free(kid);
      return false;
    }
    n->kids = k, n->ops = o, n->cap = cap;
  }
  n->kids[n->nkids++] = kid;
  return true;
}

/* ---- tokens -------------------------------------------------------------- */

typedef enum tok_kind { T_END, T_NAME, T_INT, T_FLOAT, T_STR, T_OP } tok_kind;

typedef struct parser {
  const char *text;
  size_t pos;     /* at the current token */
  tok_kind tk;
  size_t tstart;  /* current token's start */
  size_t tlen;
  int64_t ival;
  double fval;
  char *sval;     /* T_STR: the decoded string */
  char *err;
  bool failed;
  int depth;
} parser;

static bool fail(parser *p, size_t at, const char *fmt, ...) {
  if (p->failed)
    return false;
  p->failed = true;
  char what[PYX_ERR_SIZE - 32];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  snprintf(p->err, PYX_ERR_SIZE, "%s at column %zu", what, at + 1);
  return false;
}

static bool is_name_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static bool is_name_char(char c) { return is_name_start(c) || (c >= '0' && c <= '9'); }

/* Reads the token at p->pos. */
static bool next(parser *p) {
  const char *t = p->text;
  size_t i = p->pos;
  while (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r')
    i++;
  p->tstart = i;
  free(p->sval);
  p->sval = NULL;
  if (!t[i]) {
    p->tk = T_END, p->tlen = 0, p->pos = i;
    return true;
  }
  char c = t[i];
  if (is_name_start(c)) {
    size_t j = i;
    while (is_name_char(t[j]))
      j++;
    p->tk = T_NAME, p->tlen = j - i, p->pos = j;
    return true;
  }
  if ((c >= '0' && c <= '9') || (c == '.' && t[i + 1] >= '0' && t[i + 1] <= '9')) {
    size_t j = i;
    bool real = false;
    if (c == '0' && (t[i + 1] == 'x' || t[i + 1] == 'X' || t[i + 1] == 'o' || t[i + 1] == 'O' || t[i + 1] == 'b' ||
                     t[i + 1] == 'B')) {
      int base = (t[i + 1] == 'x' || t[i + 1] == 'X') ? 16 : (t[i + 1] == 'o' || t[i + 1] == 'O') ? 8 : 2;
      j = i + 2;
      uint64_t v = 0;
      size_t digits = 0;
      for (;; j++) {
        char d = t[j];
        int dv = d >= '0' && d <= '9' ? d - '0' : d >= 'a' && d <= 'f' ? d - 'a' + 10 : d >= 'A' && d <= 'F' ? d - 'A' + 10 : d == '_' ? -2 : -1;
        if (dv == -2)
          continue;
        if (dv < 0 || dv >= base)
          break;
        if (v > (UINT64_MAX - (uint64_t)dv) / (uint64_t)base || v * (uint64_t)base + (uint64_t)dv > INT64_MAX)
          return fail(p, i, "integer literal too large");
        v = v * (uint64_t)base + (uint64_t)dv, digits++;
      }
      if (!digits || is_name_char(t[j]))
        return fail(p, i, "malformed number");
      p->tk = T_INT, p->ival = (int64_t)v, p->tlen = j - i, p->pos = j;
      return true;
    }
    char buf[128];
    size_t n = 0;
    while ((t[j] >= '0' && t[j] <= '9') || t[j] == '_' || t[j] == '.' || t[j] == 'e' || t[j] == 'E' ||
           ((t[j] == '+' || t[j] == '-') && (t[j - 1] == 'e' || t[j - 1] == 'E'))) {
      if (t[j] == '.' || t[j] == 'e' || t[j] == 'E')
        real = true;
      if (t[j] != '_' && n + 1 < sizeof buf)
        buf[n++] = t[j];
      j++;
    }
    buf[n] = '\0';
    if (is_name_char(t[j]) || n + 1 >= sizeof buf)
      return fail(p, i, "malformed number");
    char *end;
    errno = 0;
    if (real) {
      p->fval = strtod(buf, &end);
      if (*end)
        return fail(p, i, "malformed number");
      p->tk = T_FLOAT;
    } else {
      unsigned long long v = strtoull(buf, &end, 10);
      if (*end)
        return fail(p, i, "malformed number");
      if (errno || v > INT64_MAX)
        return fail(p, i, "integer literal too large");
      p->ival = (int64_t)v;
      p->tk = T_INT;
    }
    p->tlen = j - i, p->pos = j;
    return true;
  }
  if (c == '"' || c == '\'') {
    size_t j = i + 1, n = 0;
    char *s = malloc(strlen(t + i) + 1);
    if (!s)
      return fail(p, i, "out of memory");
    while (t[j] && t[j] != c) {
      if (t[j] == '\\' && t[j + 1]) {
        char e = t[++j];
        s[n++] = e == 'n' ? '\n' : e == 't' ? '\t' : e;
        j++;
      } else {
        s[n++] = t[j++];
      }
    }
    if (t[j] != c) {
      free(s);
      return fail(p, i, "unterminated string");
    }
    s[n] = '\0';
    p->sval = s;
    p->tk = T_STR, p->tlen = j + 1 - i, p->pos = j + 1;
    return true;
  }
  static const char *const ops[] = {"//", "**", "==", "!=", "<=", ">=", "+", "-", "*", "/", "%", "<", ">",
                                    "(", ")", "[", "]", ",", ":"};
  for (size_t k = 0; k < sizeof ops / sizeof *ops; k++) {
    size_t n = strlen(ops[k]);
    if (strncmp(t + i, ops[k], n) == 0) {
      p->tk = T_OP, p->tlen = n, p->pos = i + n;
      return true;
    }
  }
  if (c == '=')
    return fail(p, i, "'=' is an assignment (compare with '==')");
  if (c == '&' || c == '|' || c == '!')
    return fail(p, i, "'%c' is not Python here (use 'and', 'or', 'not')", c);
  if (c == '^')
    return fail(p, i, "'^' is Python's exclusive or, outside the subset (a power is '**': 2**x)");
  return fail(p, i, "unexpected character '%c'", c);
}

static bool is_op(const parser *p, const char *op) {
  return p->tk == T_OP && p->tlen == strlen(op) && strncmp(p->text + p->tstart, op, p->tlen) == 0;
}
static bool is_kw(const parser *p, const char *kw) {
  return p->tk == T_NAME && p->tlen == strlen(kw) && strncmp(p->text + p->tstart, kw, p->tlen) == 0;
}
static bool is_keyword(const parser *p) {
  static const char *const kws[] = {"and", "or", "not", "in", "if", "else", "for", "is", "lambda"};
  for (size_t k = 0; k < sizeof kws / sizeof *kws; k++)
    if (is_kw(p, kws[k]))
      return true;
  return false;
}

static bool expect(parser *p, const char *op) {
  if (!is_op(p, op))
    return p->tk == T_END ? fail(p, p->tstart, "expected '%s', got the end", op)
                          : fail(p, p->tstart, "expected '%s', got '%.*s'", op, (int)p->tlen, p->text + p->tstart);
  return next(p);
}

static node *parse_expr(parser *p);
static node *parse_or(parser *p);

static node *unexpected(parser *p) {
  if (p->tk == T_END)
    fail(p, p->tstart, "expression ends too early");
  else
    fail(p, p->tstart, "unexpected '%.*s'", (int)p->tlen, p->text + p->tstart);
  return NULL;
}

/* [ ... ] or ( ... ): a display, a comprehension (lists only) or, for '(',
 * a parenthesized expression. */
static node *parse_display(parser *p, bool list) {
  size_t col = p->tstart;
  const char *close = list ? "]" : ")";
  if (!next(p))
    return NULL;
  node *n = node_new(N_LIST, col);
  if (!n) {
    fail(p, col, "out of memory");
    return NULL;
  }
  if (is_op(p, close)) {
    if (!next(p)) {
      node_free(n);
      return NULL;
    }
    return n;
  }
  node *first = parse_expr(p);
  if (!first) {
    node_free(n);
    return NULL;
  }
  if (is_kw(p, "for")) {
    if (!list) {
      node_free(first);
      node_free(n);
      fail(p, p->tstart, "generator expressions are not supported (use a list comprehension [...])");
      return NULL;
    }
    n->kind = N_COMP;
    node_add(n, first);
    while (!p->failed && (is_kw(p, "for") || is_kw(p, "if"))) {
      bool isfor = is_kw(p, "for");
      node *c = node_new(isfor ? N_FOR : N_IF, p->tstart);
      if (!c || !node_add(n, c)) {
        fail(p, p->tstart, "out of memory");
        break;
      }
      if (!next(p))
        break;
      if (isfor) {
        if (p->tk != T_NAME || is_keyword(p)) {
          fail(p, p->tstart, "a comprehension's 'for' takes one name");
          break;
        }
        node *v = node_new(N_NAME, p->tstart);
        if (v)
          v->str = strndup(p->text + p->tstart, p->tlen);
        if (!v || !v->str || !node_add(c, v)) {
          fail(p, p->tstart, "out of memory");
          break;
        }
        if (!next(p))
          break;
        if (!is_kw(p, "in")) {
          fail(p, p->tstart, "expected 'in' in the comprehension");
          break;
        }
        if (!next(p) || !node_add(c, parse_or(p)))
          break;
      } else if (!node_add(c, parse_or(p))) {
        break;
      }
    }
    if (p->failed || !expect(p, close)) {
      node_free(n);
      return NULL;
    }
    return n;
  }
  if (!list && is_op(p, ")")) { /* (x): grouping */
    node_free(n);
    if (!next(p)) {
      node_free(first);
      return NULL;
    }
    return first;
  }
  node_add(n, first);
  while (is_op(p, ",")) {
    if (!next(p))
      break;
    if (is_op(p, close))
      break;
    if (!node_add(n, parse_expr(p)))
      break;
  }
  if (p->failed || !expect(p, close)) {
    node_free(n);
    return NULL;
  }
  return n;
}

static node *parse_atom(parser *p) {
  if (++p->depth > PYX_MAX_DEPTH) {
    fail(p, p->tstart, "expression nested too deeply");
    return NULL;
  }
  node *n = NULL;
  size_t col = p->tstart;
  if (p->tk == T_INT || p->tk == T_FLOAT || p->tk == T_STR) {
    n = node_new(p->tk == T_INT ? N_INT : p->tk == T_FLOAT ? N_FLOAT : N_STR, col);
    if (!n)
      fail(p, col, "out of memory");
    else {
      n->i = p->ival, n->f = p->fval;
      if (p->tk == T_STR)
        n->str = p->sval, p->sval = NULL;
      if (!next(p)) {
        node_free(n);
        n = NULL;
      }
    }
  } else if (is_op(p, "(") || is_op(p, "[")) {
    n = parse_display(p, is_op(p, "["));
  } else if (p->tk == T_NAME && !is_keyword(p)) {
    if (is_kw(p, "True") || is_kw(p, "False") || is_kw(p, "None"))
      n = node_new(is_kw(p, "True") ? N_TRUE : is_kw(p, "False") ? N_FALSE : N_NONE, col);
    else {
      n = node_new(N_NAME, col);
      if (n && !(n->str = strndup(p->text + p->tstart, p->tlen))) {
        node_free(n);
        n = NULL;
      }
    }
    if (!n)
      fail(p, col, "out of memory");
    else if (!next(p)) {
      node_free(n);
      n = NULL;
    }
  } else if (is_kw(p, "lambda") || is_kw(p, "is")) {
    fail(p, col, "'%.*s' is not supported", (int)p->tlen, p->text + p->tstart);
  } else {
    unexpected(p);
  }
  /* trailers: calls and subscripts */
  while (n && !p->failed && (is_op(p, "(") || is_op(p, "[") || (p->tk == T_OP && p->text[p->tstart] == '.'))) {
    size_t at = p->tstart;
    if (is_op(p, "(")) {
      if (n->kind != N_NAME) {
        fail(p, at, "only builtin functions can be called");
        break;
      }
      n->kind = N_CALL;
      if (!next(p))
        break;
      while (!is_op(p, ")") && !p->failed) {
        if (!node_add(n, parse_expr(p)))
          break;
        if (is_op(p, "=")) {
          fail(p, p->tstart, "keyword arguments are not supported");
          break;
        }
        if (!is_op(p, ","))
          break;
        if (!next(p))
          break;
      }
      if (p->failed || !expect(p, ")"))
        break;
    } else {
      node *s = node_new(N_SUB, at);
      if (!s) {
        fail(p, at, "out of memory");
        break;
      }
      node_add(s, n);
      n = s;
      if (!next(p))
        break;
      if (!node_add(n, parse_expr(p)))
        break;
      if (is_op(p, ":")) {
        fail(p, p->tstart, "slices are not supported");
        break;
      }
      if (!expect(p, "]"))
        break;
    }
  }
  p->depth--;
  if (p->failed) {
    node_free(n);
    return NULL;
  }
  return n;
}

static node *parse_unary(parser *p);

static node *parse_power(parser *p) {
  node *l = parse_atom(p);
  if (l && is_op(p, "**")) {
    node *b = node_new(N_BIN, p->tstart);
    if (!b) {
      node_free(l);
      fail(p, p->tstart, "out of memory");
      return NULL;
    }
    b->op = O_POW;
    node_add(b, l);
    if (!next(p) || !node_add(b, parse_unary(p))) { /* right-associative, binds a unary minus on its right */
      node_free(b);
      return NULL;
    }
    return b;
  }
  return l;
}

static node *parse_unary(parser *p) {
  if (is_op(p, "-") || is_op(p, "+")) {
    if (++p->depth > PYX_MAX_DEPTH) {
      fail(p, p->tstart, "expression nested too deeply");
      return NULL;
    }
    node *n = node_new(is_op(p, "-") ? N_NEG : N_POS, p->tstart);
    if (!n) {
      fail(p, p->tstart, "out of memory");
      return NULL;
    }
    if (!next(p) || !node_add(n, parse_unary(p))) {
      node_free(n);
      return NULL;
    }
    p->depth--;
    return n;
  }
  return parse_power(p);
}

static node *binary(parser *p, node *l, op_kind op, size_t col, node *(*rhs)(parser *)) {
  node *b = node_new(N_BIN, col);
  if (!b) {
    node_free(l);
    fail(p, col, "out of memory");
    return NULL;
  }
  b->op = op;
  node_add(b, l);
  if (!next(p) || !node_add(b, rhs(p))) {
    node_free(b);
    return NULL;
  }
  return b;
}

static node *parse_term(parser *p) {
  node *l = parse_unary(p);
  while (l) {
    op_kind op;
    if (is_op(p, "*"))
      op = O_MUL;
    else if (is_op(p, "/"))
      op = O_DIV;
    else if (is_op(p, "//"))
      op = O_FLOORDIV;
    else if (is_op(p, "%"))
      op = O_MOD;
    else
      break;
    l = binary(p, l, op, p->tstart, parse_unary);
  }
  return l;
}

static node *parse_arith(parser *p) {
  node *l = parse_term(p);
  while (l && (is_op(p, "+") || is_op(p, "-")))
    l = binary(p, l, is_op(p, "+") ? O_ADD : O_SUB, p->tstart, parse_term);
  return l;
}

static bool comparison_op(parser *p, op_kind *op) {
  static const struct {
    const char *s;
    op_kind k;
  } cmp[] = {{"==", O_EQ}, {"!=", O_NE}, {"<=", O_LE}, {">=", O_GE}, {"<", O_LT}, {">", O_GT}};
  for (size_t k = 0; k < sizeof cmp / sizeof *cmp; k++)
    if (is_op(p, cmp[k].s)) {
      *op = cmp[k].k;
      return next(p);
    }
  if (is_kw(p, "in")) {
    *op = O_IN;
    return next(p);
  }
  if (is_kw(p, "not")) {
    size_t save = p->pos, ts = p->tstart, tl = p->tlen;
    if (!next(p))
      return false;
    if (is_kw(p, "in")) {
      *op = O_NOTIN;
      return next(p);
    }
    p->pos = save, p->tstart = ts, p->tlen = tl, p->tk = T_NAME; /* a 'not' that is no 'not in' */
    return false;
  }
  if (is_kw(p, "is")) {
    fail(p, p->tstart, "'is' is not supported (use '==')");
    return false;
  }
  return false;
}

static node *parse_comparison(parser *p) {
  node *l = parse_arith(p);
  if (!l)
    return NULL;
  node *c = NULL;
  op_kind op;
  size_t col = p->tstart;
  while (!p->failed && comparison_op(p, &op)) {
    if (!c) {
      c = node_new(N_CMP, col);
      if (!c) {
        node_free(l);
        fail(p, col, "out of memory");
        return NULL;
      }
      node_add(c, l);
    }
    c->ops[c->nkids - 1] = op;
    if (!node_add(c, parse_arith(p)))
      break;
  }
  if (p->failed) {
    node_free(c ? c : l);
    return NULL;
  }
  return c ? c : l;
}

static node *parse_not(parser *p) {
  if (is_kw(p, "not")) {
    if (++p->depth > PYX_MAX_DEPTH) {
      fail(p, p->tstart, "expression nested too deeply");
      return NULL;
    }
    node *n = node_new(N_NOT, p->tstart);
    if (!n) {
      fail(p, p->tstart, "out of memory");
      return NULL;
    }
    if (!next(p) || !node_add(n, parse_not(p))) {
      node_free(n);
      return NULL;
    }
    p->depth--;
    return n;
  }
  return parse_comparison(p);
}

static node *parse_chain(parser *p, const char *kw, node_kind kind, node *(*sub)(parser *)) {
  node *l = sub(p);
  if (!l || !is_kw(p, kw))
    return l;
  node *n = node_new(kind, l->col);
  if (!n) {
    node_free(l);
    fail(p, p->tstart, "out of memory");
    return NULL;
  }
  node_add(n, l);
  while (is_kw(p, kw))
    if (!next(p) || !node_add(n, sub(p))) {
      node_free(n);
      return NULL;
    }
  return n;
}

static node *parse_and(parser *p) { return parse_chain(p, "and", N_AND, parse_not); }
static node *parse_or(parser *p) { return parse_chain(p, "or", N_OR, parse_and); }

static node *parse_expr(parser *p) {
  if (++p->depth > PYX_MAX_DEPTH) {
    fail(p, p->tstart, "expression nested too deeply");
    return NULL;
  }
  node *body = parse_or(p);
  if (body && is_kw(p, "if")) {
    node *n = node_new(N_IFEXP, p->tstart);
    if (!n) {
      node_free(body);
      fail(p, p->tstart, "out of memory");
      return NULL;
    }
    node_add(n, body);
    if (!next(p) || !node_add(n, parse_or(p))) {
      node_free(n);
      return NULL;
    }
    if (!is_kw(p, "else")) {
      fail(p, p->tstart, "expected 'else' in the conditional expression");
      node_free(n);
      return NULL;
    }
    if (!next(p) || !node_add(n, parse_expr(p))) {
      node_free(n);
      return NULL;
    }
    body = n;
  }
  p->depth--;
  return body;
}

pyx_expr *pyx_parse(const char *text, char err[PYX_ERR_SIZE]) {
  parser p = {.text = text, .err = err};
  err[0] = '\0';
  node *root = NULL;
  if (next(&p)) {
    root = parse_expr(&p);
    if (root && p.tk != T_END) {
      unexpected(&p);
      node_free(root);
      root = NULL;
    }
  }
  free(p.sval);
  if (!root) {
    if (!err[0])
      snprintf(err, PYX_ERR_SIZE, "malformed expression at column 1");
    return NULL;
  }
  pyx_expr *e = malloc(sizeof *e);
  if (!e || !(e->text = strdup(text))) {
    free(e);
    node_free(root);
    snprintf(err, PYX_ERR_SIZE, "out of memory");
    return NULL;
  }
  e->root = root;
  return e;
}

void pyx_free(pyx_expr *e) {
  if (!e)
    return;
  node_free(e->root);
  free(e->text);
  free(e);
}

const char *pyx_text(const pyx_expr *e) { return e->text; }

/* ---- free names ----------------------------------------------------------- */

bool pyx_builtin_function(const char *name) {
  static const char *const fns[] = {"range", "max", "min", "len", "abs", "int", "float", "sum", "list", "bool", "str"};
  for (size_t k = 0; k < sizeof fns / sizeof *fns; k++)
    if (strcmp(name, fns[k]) == 0)
      return true;
  return false;
}

typedef struct scope {
  const char *name;
  const struct scope *up;
} scope;

static bool bound(const scope *s, const char *name) {
  for (; s; s = s->up)
    if (strcmp(s->name, name) == 0)
      return true;
  return false;
}

typedef struct names_ctx {
  bool (*fn)(void *user, const char *name, size_t column);
  void *user;
  const char **seen;
  size_t nseen, cap;
  bool nomem;
} names_ctx;

static bool walk_names(const node *n, const scope *s, names_ctx *c) {
  if (n->kind == N_NAME) {
    if (bound(s, n->str))
      return true;
    for (size_t i = 0; i < c->nseen; i++)
      if (strcmp(c->seen[i], n->str) == 0)
        return true;
    if (c->nseen == c->cap) {
      size_t cap = c->cap ? 2 * c->cap : 8;
      const char **v = realloc(c->seen, cap * sizeof *v);
      if (!v) {
        c->nomem = true;
        return false;
      }
      c->seen = v, c->cap = cap;
    }
    c->seen[c->nseen++] = n->str;
    return c->fn(c->user, n->str, n->col);
  }
  if (n->kind == N_CALL && !pyx_builtin_function(n->str)) {
    /* an unknown function is reported as a name */
    if (!c->fn(c->user, n->str, n->col))
      return false;
  }
  if (n->kind == N_COMP) {
    /* clauses left to right, each 'for' binding its name for what follows;
     * the element last, with every name bound */
    scope local[64];
    size_t nl = 0;
    const scope *cur = s;
    for (size_t i = 1; i < n->nkids; i++) {
      const node *cl = n->kids[i];
      if (cl->kind == N_FOR) {
        if (!walk_names(cl->kids[1], cur, c))
          return false;
        if (nl < 64) {
          local[nl] = (scope){cl->kids[0]->str, cur};
          cur = &local[nl++];
        }
      } else if (!walk_names(cl->kids[0], cur, c)) {
        return false;
      }
    }
    return walk_names(n->kids[0], cur, c);
  }
  for (size_t i = 0; i < n->nkids; i++)
    if (!walk_names(n->kids[i], s, c))
      return false;
  return true;
}

bool pyx_names(const pyx_expr *e, bool (*fn)(void *user, const char *name, size_t column), void *user) {
  names_ctx c = {.fn = fn, .user = user};
  bool ok = walk_names(e->root, NULL, &c);
  free(c.seen);
  return ok && !c.nomem;
}

