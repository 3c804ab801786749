/* expr.c - parse and print kernel-model expressions.
 *
 * Grammar: docs/kernel-model.md, "Expressions".  Parsing is strict so a
 * printed tree gives back the text it came from; evaluation and its
 * semantics are in expr_eval.c.
 */
#include "expr_internal.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const op_info op_table[] = {
    {"add", WGP_OP_ADD, 2, WGP_ARITY_ANY, SHAPE_WRAP},
    {"sub", WGP_OP_SUB, 2, 2, SHAPE_WRAP},
    {"mul", WGP_OP_MUL, 2, WGP_ARITY_ANY, SHAPE_WRAP},
    {"udiv", WGP_OP_UDIV, 2, 2, SHAPE_WIDTH},
    {"sdiv", WGP_OP_SDIV, 2, 2, SHAPE_WIDTH},
    {"urem", WGP_OP_UREM, 2, 2, SHAPE_WIDTH},
    {"srem", WGP_OP_SREM, 2, 2, SHAPE_WIDTH},
    {"shl", WGP_OP_SHL, 2, 2, SHAPE_WRAP},
    {"lshr", WGP_OP_LSHR, 2, 2, SHAPE_WIDTH},
    {"ashr", WGP_OP_ASHR, 2, 2, SHAPE_WIDTH},
    {"and", WGP_OP_AND, 2, WGP_ARITY_ANY, SHAPE_WIDTH},
    {"or", WGP_OP_OR, 2, WGP_ARITY_ANY, SHAPE_WIDTH},
    {"xor", WGP_OP_XOR, 2, WGP_ARITY_ANY, SHAPE_WIDTH},
    {"smin", WGP_OP_SMIN, 2, WGP_ARITY_ANY, SHAPE_WIDTH},
    {"smax", WGP_OP_SMAX, 2, WGP_ARITY_ANY, SHAPE_WIDTH},
    {"umin", WGP_OP_UMIN, 2, WGP_ARITY_ANY, SHAPE_WIDTH},
    {"umax", WGP_OP_UMAX, 2, WGP_ARITY_ANY, SHAPE_WIDTH},
    {"abs", WGP_OP_ABS, 1, 1, SHAPE_WIDTH},
    {"zext", WGP_OP_ZEXT, 1, 1, SHAPE_CAST},
    {"sext", WGP_OP_SEXT, 1, 1, SHAPE_CAST},
    {"trunc", WGP_OP_TRUNC, 1, 1, SHAPE_CAST},
    {"eq", WGP_OP_EQ, 2, 2, SHAPE_WIDTH},
    {"ne", WGP_OP_NE, 2, 2, SHAPE_WIDTH},
    {"slt", WGP_OP_SLT, 2, 2, SHAPE_WIDTH},
    {"sle", WGP_OP_SLE, 2, 2, SHAPE_WIDTH},
    {"sgt", WGP_OP_SGT, 2, 2, SHAPE_WIDTH},
    {"sge", WGP_OP_SGE, 2, 2, SHAPE_WIDTH},
    {"ult", WGP_OP_ULT, 2, 2, SHAPE_WIDTH},
    {"ule", WGP_OP_ULE, 2, 2, SHAPE_WIDTH},
    {"ugt", WGP_OP_UGT, 2, 2, SHAPE_WIDTH},
    {"uge", WGP_OP_UGE, 2, 2, SHAPE_WIDTH},
    {"not", WGP_OP_NOT, 1, 1, SHAPE_PLAIN},
    {"select", WGP_OP_SELECT, 3, 3, SHAPE_PLAIN},
    {"addrec", WGP_OP_ADDREC, 3, WGP_ARITY_ANY, SHAPE_WRAP},
    {"load", WGP_OP_LOAD, 1, 1, SHAPE_PLAIN},
    {"fadd", WGP_OP_FLOAT, 2, 2, SHAPE_PLAIN},
    {"fsub", WGP_OP_FLOAT, 2, 2, SHAPE_PLAIN},
    {"fmul", WGP_OP_FLOAT, 2, 2, SHAPE_PLAIN},
    {"fdiv", WGP_OP_FLOAT, 2, 2, SHAPE_PLAIN},
    {"frem", WGP_OP_FLOAT, 2, 2, SHAPE_PLAIN},
    {"sitofp", WGP_OP_FLOAT, 1, 1, SHAPE_PLAIN},
    {"uitofp", WGP_OP_FLOAT, 1, 1, SHAPE_PLAIN},
    {"fptosi", WGP_OP_FLOAT, 1, 1, SHAPE_PLAIN},
    {"fptoui", WGP_OP_FLOAT, 1, 1, SHAPE_PLAIN},
    /* fcmp predicates, as LLVM names them, behind an 'f' */
    {"ffalse", WGP_OP_FLOAT, 2, 2, SHAPE_PLAIN},
    {"foeq", WGP_OP_FLOAT, 2, 2, SHAPE_PLAIN},
    {"fogt", WGP_OP_FLOAT, 2, 2, SHAPE_PLAIN},
    {"foge", WGP_OP_FLOAT, 2, 2, SHAPE_PLAIN},
    {"folt", WGP_OP_FLOAT, 2, 2, SHAPE_PLAIN},
    {"fole", WGP_OP_FLOAT, 2, 2, SHAPE_PLAIN},
    {"fone", WGP_OP_FLOAT, 2, 2, SHAPE_PLAIN},
    {"ford", WGP_OP_FLOAT, 2, 2, SHAPE_PLAIN},
    {"funo", WGP_OP_FLOAT, 2, 2, SHAPE_PLAIN},
    {"fueq", WGP_OP_FLOAT, 2, 2, SHAPE_PLAIN},
    {"fugt", WGP_OP_FLOAT, 2, 2, SHAPE_PLAIN},
    {"fuge", WGP_OP_FLOAT, 2, 2, SHAPE_PLAIN},
    {"fult", WGP_OP_FLOAT, 2, 2, SHAPE_PLAIN},
    {"fule", WGP_OP_FLOAT, 2, 2, SHAPE_PLAIN},
    {"fune", WGP_OP_FLOAT, 2, 2, SHAPE_PLAIN},
    {"ftrue", WGP_OP_FLOAT, 2, 2, SHAPE_PLAIN},
};

/* ------------------------------------------------------------------------ */
/* Parsing                                                                  */
/* ------------------------------------------------------------------------ */

typedef struct parser {
  const char *s;
  size_t pos;
  wgp_arena *arena;
  char *reason;
  size_t reason_size;
  unsigned depth;
  bool nomem;
} parser;

static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static bool is_delim(char c) { return c == '\0' || c == '(' || c == ')' || is_space(c); }

static wgp_status perr(parser *p, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (p->reason && p->reason_size)
    vsnprintf(p->reason, p->reason_size, fmt, ap);
  va_end(ap);
  return WGP_ERR_INPUT;
}

static wgp_status pnomem(parser *p) {
  p->nomem = true;
  if (p->reason && p->reason_size)
    snprintf(p->reason, p->reason_size, "out of memory");
  return WGP_ERR_NOMEM;
}

static void skip_space(parser *p) {
  while (is_space(p->s[p->pos]))
    p->pos++;
}

/* Decimal digits without sign or leading zeros, as an unsigned < limit. */
static bool parse_index(const char *s, size_t n, unsigned long limit, unsigned *out) {
  if (n == 0 || (n > 1 && s[0] == '0'))
    return false;
  unsigned long v = 0;
  for (size_t i = 0; i < n; i++) {
    if (!is_digit(s[i]))
      return false;
    v = v * 10 + (unsigned long)(s[i] - '0');
    if (v >= limit)
      return false;
  }
  *out = (unsigned)v;
  return true;
}

/* Shortens long tokens in messages. */
static int tok_len(size_t n) { return n > 60 ? 60 : (int)n; }

static wgp_status parse_int(parser *p, const char *t, size_t n, int64_t *out) {
  bool neg = t[0] == '-';
  size_t i = neg ? 1 : 0;
  if (i == n)
    return perr(p, "bad integer '%.*s' at offset %zu", tok_len(n), t, p->pos - n);
  for (size_t j = i; j < n; j++)
    if (!is_digit(t[j]))
      return perr(p, "bad integer '%.*s' at offset %zu", tok_len(n), t, p->pos - n);
  if ((t[i] == '0' && n - i > 1) || (neg && n == 2 && t[1] == '0'))
    return perr(p, "non-canonical integer '%.*s' at offset %zu", tok_len(n), t, p->pos - n);
  /* Accumulate negatively so INT64_MIN is representable. */
  int64_t v = 0;
  for (size_t j = i; j < n; j++) {
    int d = t[j] - '0';
    if (v < (INT64_MIN + d) / 10)
      return perr(p, "integer '%.*s' out of 64-bit range", tok_len(n), t);
    v = v * 10 - d;
  }
  if (!neg) {
    if (v == INT64_MIN)
      return perr(p, "integer '%.*s' out of 64-bit range", tok_len(n), t);
    v = -v;
  }
  *out = v;
  return WGP_OK;
}

static bool token_is(const char *t, size_t n, const char *lit) { return strlen(lit) == n && memcmp(t, lit, n) == 0; }

static wgp_status parse_symbol(parser *p, const char *t, size_t n, wgp_sym *sym) {
  static const struct {
    const char *prefix;
    wgp_sym_kind kind;
  } dims[] = {{"lid.", WGP_SYM_LID}, {"grp.", WGP_SYM_GRP}, {"lsz.", WGP_SYM_LSZ},  {"ngrp.", WGP_SYM_NGRP},
              {"gid.", WGP_SYM_GID}, {"gsz.", WGP_SYM_GSZ}, {"goff.", WGP_SYM_GOFF}};
  memset(sym, 0, sizeof *sym);
  if (t[0] == '?') {
    sym->kind = WGP_SYM_UNKNOWN;
    sym->name = wgp_arena_strndup(p->arena, t + 1, n - 1);
    return sym->name ? WGP_OK : pnomem(p);
  }
  for (size_t i = 0; i < sizeof dims / sizeof dims[0]; i++) {
    size_t pl = strlen(dims[i].prefix);
    if (n == pl + 1 && memcmp(t, dims[i].prefix, pl) == 0 && t[pl] >= 'x' && t[pl] <= 'z') {
      sym->kind = dims[i].kind;
      sym->dim = (unsigned)(t[pl] - 'x');
      return WGP_OK;
    }
  }
  if (token_is(t, n, "wdim")) {
    sym->kind = WGP_SYM_WDIM;
    return WGP_OK;
  }
  if (token_is(t, n, "laneid")) {
    sym->kind = WGP_SYM_LANEID;
    return WGP_OK;
  }
  if (token_is(t, n, "warpsize")) {
    sym->kind = WGP_SYM_WARPSIZE;
    return WGP_OK;
  }
  if (n > 4 && memcmp(t, "arg.", 4) == 0) {
    sym->kind = WGP_SYM_ARG;
    sym->name = wgp_arena_strndup(p->arena, t + 4, n - 4);
    return sym->name ? WGP_OK : pnomem(p);
  }
  if (n > 4 && memcmp(t, "it.L", 4) == 0 && parse_index(t + 4, n - 4, 1ul << 30, &sym->loop)) {
    sym->kind = WGP_SYM_ITER;
    return WGP_OK;
  }
  if (n > 4 && memcmp(t, "rv.L", 4) == 0) {
    const char *dot = memchr(t + 4, '.', n - 4);
    if (dot && parse_index(t + 4, (size_t)(dot - t) - 4, 1ul << 30, &sym->loop) &&
        parse_index(dot + 1, n - (size_t)(dot + 1 - t), 1ul << 30, &sym->index)) {
      sym->kind = WGP_SYM_RECUR;
      return WGP_OK;
    }
  }
  return perr(p, "unknown symbol '%.*s' at offset %zu", tok_len(n), t, p->pos - n);
}

static const op_info *find_op(const char *t, size_t n) {
  for (size_t i = 0; i < sizeof op_table / sizeof op_table[0]; i++)
    if (token_is(t, n, op_table[i].name))
      return &op_table[i];
  return NULL;
}

static bool parse_width(const char *s, size_t n, unsigned *w) {
  unsigned v;
  if (!parse_index(s, n, 65, &v) || v == 0)
    return false;
  *w = v;
  return true;
}

/* "NAME[:W][:nsw][:nuw]" or "NAME:F:T" into node E. */
static wgp_status parse_opspec(parser *p, const char *t, size_t n, wgp_expr *e) {
  const char *colon = memchr(t, ':', n);
  size_t nl = colon ? (size_t)(colon - t) : n;
  const op_info *info = find_op(t, nl);
  size_t at = p->pos - n;
  if (!info)
    return perr(p, "unknown operation '%.*s' at offset %zu", tok_len(nl), t, at);
  e->info = info;
  e->op = info->op;
  e->width = 64;
  const char *s = colon;
  const char *end = t + n;
  int part = 0; /* 0: width allowed, 1: nsw allowed, 2: nuw allowed, 3: nothing */
  if (info->shape == SHAPE_CAST) {
    const char *c2 = s ? memchr(s + 1, ':', (size_t)(end - s - 1)) : NULL;
    if (!s || !c2 || !parse_width(s + 1, (size_t)(c2 - s - 1), &e->from_width) ||
        !parse_width(c2 + 1, (size_t)(end - c2 - 1), &e->width))
      return perr(p, "'%s' needs ':FROM:TO' bit widths (1 to 64), got '%.*s' at offset %zu", info->name,
                  tok_len(n), t, at);
    if ((info->op == WGP_OP_TRUNC && e->from_width < e->width) ||
        (info->op != WGP_OP_TRUNC && e->from_width > e->width))
      return perr(p, "'%.*s' does not %s", tok_len(n), t, info->op == WGP_OP_TRUNC ? "narrow" : "widen");
    e->explicit_width = true;
    return WGP_OK;
  }
  while (s && s < end) {
    const char *next = memchr(s + 1, ':', (size_t)(end - s - 1));
    const char *pe = next ? next : end;
    const char *q = s + 1;
    size_t ql = (size_t)(pe - q);
    if (part == 0 && info->shape != SHAPE_PLAIN && ql > 0 && is_digit(q[0])) {
      if (!parse_width(q, ql, &e->width))
        return perr(p, "bad bit width ':%.*s' on '%s' (1 to 64) at offset %zu", tok_len(ql), q, info->name, at);
      e->explicit_width = true;
      part = 1;
    } else if (part <= 1 && info->shape == SHAPE_WRAP && token_is(q, ql, "nsw")) {
      e->flags |= WGP_EXPR_NSW;
      part = 2;
    } else if (part <= 2 && info->shape == SHAPE_WRAP && token_is(q, ql, "nuw")) {
      e->flags |= WGP_EXPR_NUW;
      part = 3;
    } else {
      return perr(p, "unexpected suffix ':%.*s' on '%s' at offset %zu", tok_len(ql), q, info->name, at);
    }
    s = next;
  }
  return WGP_OK;
}

static wgp_status parse_expr(parser *p, const wgp_expr **out);

static wgp_status parse_list(parser *p, wgp_expr *e) {
  size_t cap = 4, n = 0;
  const wgp_expr **tmp = malloc(cap * sizeof *tmp);
  if (!tmp)
    return pnomem(p);
  wgp_status st = WGP_OK;
  for (;;) {
    skip_space(p);
    char c = p->s[p->pos];
    if (c == ')') {
      p->pos++;
      break;
    }
    if (c == '\0') {
      st = perr(p, "missing ')' at end of expression (opened by '%s')", e->info->name);
      break;
    }
    if (n == cap) {
      const wgp_expr **grown = realloc(tmp, 2 * cap * sizeof *tmp);
      if (!grown) {
        st = pnomem(p);
        break;
      }
      tmp = grown;
      cap *= 2;
    }
    st = parse_expr(p, &tmp[n]);
    if (st != WGP_OK)
      break;
    n++;
  }
  if (st == WGP_OK) {
    const op_info *info = e->info;
    if (n < info->min_ops || (info->max_ops != WGP_ARITY_ANY && n > info->max_ops)) {
      if (info->max_ops == WGP_ARITY_ANY)
        st = perr(p, "'%s' needs at least %u operands, got %zu", info->name, info->min_ops, n);
      else if (info->min_ops == info->max_ops)
        st = perr(p, "'%s' needs %u operand%s, got %zu", info->name, info->min_ops, info->min_ops == 1 ? "" : "s",
                  n);
      else
        st = perr(p, "'%s' needs %u to %u operands, got %zu", info->name, info->min_ops, info->max_ops, n);
    }
  }
  if (st == WGP_OK && e->op == WGP_OP_ADDREC &&
      (tmp[0]->op != WGP_OP_SYM || (tmp[0]->sym.kind != WGP_SYM_ITER && tmp[0]->sym.kind != WGP_SYM_UNKNOWN)))
    st = perr(p, "'addrec' needs a loop iteration symbol it.L<n> as first operand");
  if (st == WGP_OK) {
    e->ops = wgp_arena_alloc(p->arena, n * sizeof *e->ops);
    if (!e->ops)
      st = pnomem(p);
    else {
      memcpy(e->ops, tmp, n * sizeof *tmp);
      e->nops = n;
    }
  }
  free(tmp);
  return st;
}

static wgp_status parse_expr(parser *p, const wgp_expr **out) {
  skip_space(p);
  char c = p->s[p->pos];
  if (c == '\0')
    return perr(p, p->depth == 0 ? "empty expression" : "unexpected end of expression");
  if (c == ')')
    return perr(p, "unexpected ')' at offset %zu", p->pos);
  wgp_expr *e = wgp_arena_alloc(p->arena, sizeof *e);
  if (!e)
    return pnomem(p);
  if (c == '(') {
    if (++p->depth > WGP_EXPR_MAX_DEPTH)
      return perr(p, "expression nested deeper than %d at offset %zu", WGP_EXPR_MAX_DEPTH, p->pos);
    p->pos++;
    size_t start = p->pos;
    while (!is_delim(p->s[p->pos]))
      p->pos++;
    if (p->pos == start)
      return perr(p, "missing operation after '(' at offset %zu", start - 1);
    wgp_status st = parse_opspec(p, p->s + start, p->pos - start, e);
    if (st != WGP_OK)
      return st;
    if (e->op == WGP_OP_LOAD) {
      skip_space(p);
      size_t ts = p->pos;
      while (!is_delim(p->s[p->pos]))
        p->pos++;
      unsigned id;
      if (p->pos - ts < 2 || p->s[ts] != 'M' || !parse_index(p->s + ts + 1, p->pos - ts - 1, 1ul << 31, &id))
        return perr(p, "'load' needs an access M<k> at offset %zu", ts);
      e->ival = id;
      skip_space(p);
      if (p->s[p->pos] != ')')
        return perr(p, p->s[p->pos] ? "'load' needs 1 operand, at offset %zu" : "missing ')' after load at offset %zu",
                    p->pos);
      p->pos++;
    } else {
      st = parse_list(p, e);
      if (st != WGP_OK)
        return st;
    }
    p->depth--;
    *out = e;
    return WGP_OK;
  }
  size_t start = p->pos;
  while (!is_delim(p->s[p->pos]))
    p->pos++;
  const char *t = p->s + start;
  size_t n = p->pos - start;
  wgp_status st;
  if (is_digit(t[0]) || (t[0] == '-' && n > 1 && is_digit(t[1]))) {
    e->op = WGP_OP_INT;
    e->width = 64;
    st = parse_int(p, t, n, &e->ival);
  } else {
    e->op = WGP_OP_SYM;
    e->width = 64;
    st = parse_symbol(p, t, n, &e->sym);
  }
  if (st == WGP_OK)
    *out = e;
  return st;
}

wgp_status wgp_expr_parse_in(wgp_arena *arena, const char *text, const wgp_expr **out, char *reason,
                             size_t reason_size) {
  parser p = {text, 0, arena, reason, reason_size, 0, false};
  const wgp_expr *e = NULL;
  wgp_status st = parse_expr(&p, &e);
  if (st != WGP_OK)
    return st;
  skip_space(&p);
  if (p.s[p.pos] != '\0')
    return perr(&p, p.s[p.pos] == ')' ? "unbalanced ')' at offset %zu" : "trailing text after expression at offset %zu",
                p.pos);
  *out = e;
  return WGP_OK;
}

wgp_status wgp_expr_parse(const char *text, wgp_expr **out, wgp_diag *diag) {
  char *reason = diag ? diag->message : NULL;
  size_t rsize = diag ? sizeof diag->message : 0;
  *out = NULL;
  if (!text) {
    if (reason)
      snprintf(reason, rsize, "empty expression");
    return WGP_ERR_INPUT;
  }
  wgp_arena *a = wgp_arena_new();
  if (!a) {
    if (reason)
      snprintf(reason, rsize, "out of memory");
    return WGP_ERR_NOMEM;
  }
  const wgp_expr *e = NULL;
  wgp_status st = wgp_expr_parse_in(a, text, &e, reason, rsize);
  if (st != WGP_OK) {
    wgp_arena_free(a);
    return st;
  }
  /* The root is the only node the caller may free: mark it as the owner. */
  wgp_expr *root = (wgp_expr *)e;
  root->own = a;
  *out = root;
  return WGP_OK;
}

void wgp_expr_free(wgp_expr *e) {
  if (e && e->own)
    wgp_arena_free(e->own);
}

/* ------------------------------------------------------------------------ */
/* Printing                                                                 */
/* ------------------------------------------------------------------------ */

typedef struct writer {
  char *buf;
  size_t size, len;
} writer;

static void put(writer *w, const char *s, size_t n) {
  if (w->len < w->size) {
    size_t room = w->size - w->len - 1;
    memcpy(w->buf + w->len, s, n < room ? n : room);
  }
  w->len += n;
}

static void puts_(writer *w, const char *s) { put(w, s, strlen(s)); }

static void putf(writer *w, const char *fmt, ...) {
  char tmp[64];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  if (n > 0)
    put(w, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

static const char *const dim_prefix[] = {"lid", "grp", "lsz", "ngrp", "gid", "gsz", "goff"};

static void print_sym(writer *w, const wgp_sym *s) {
  switch (s->kind) {
  case WGP_SYM_LID:
  case WGP_SYM_GRP:
  case WGP_SYM_LSZ:
  case WGP_SYM_NGRP:
  case WGP_SYM_GID:
  case WGP_SYM_GSZ:
  case WGP_SYM_GOFF:
    putf(w, "%s.%c", dim_prefix[s->kind - WGP_SYM_LID], (char)('x' + s->dim));
    break;
  case WGP_SYM_WDIM: puts_(w, "wdim"); break;
  case WGP_SYM_LANEID: puts_(w, "laneid"); break;
  case WGP_SYM_WARPSIZE: puts_(w, "warpsize"); break;
  case WGP_SYM_ARG:
    puts_(w, "arg.");
    puts_(w, s->name);
    break;
  case WGP_SYM_ITER: putf(w, "it.L%u", s->loop); break;
  case WGP_SYM_RECUR: putf(w, "rv.L%u.%u", s->loop, s->index); break;
  case WGP_SYM_LOAD: putf(w, "M%u", s->index); break;
  case WGP_SYM_UNKNOWN:
    puts_(w, "?");
    puts_(w, s->name ? s->name : "");
    break;
  }
}

static void print_opspec(writer *w, const wgp_expr *e) {
  puts_(w, e->info->name);
  if (e->info->shape == SHAPE_CAST)
    putf(w, ":%u:%u", e->from_width, e->width);
  else if (e->explicit_width)
    putf(w, ":%u", e->width);
  if (e->flags & WGP_EXPR_NSW)
    puts_(w, ":nsw");
  if (e->flags & WGP_EXPR_NUW)
    puts_(w, ":nuw");
}

static void print_expr(writer *w, const wgp_expr *e) {
  if (e->op == WGP_OP_INT) {
    putf(w, "%lld", (long long)e->ival);
    return;
  }
  if (e->op == WGP_OP_SYM) {
    print_sym(w, &e->sym);
    return;
  }
  puts_(w, "(");
  print_opspec(w, e);
  if (e->op == WGP_OP_LOAD)
    putf(w, " M%lld", (long long)e->ival);
  for (size_t i = 0; i < e->nops; i++) {
    puts_(w, " ");
    print_expr(w, e->ops[i]);
  }
  puts_(w, ")");
}

size_t wgp_expr_print(const wgp_expr *e, char *buf, size_t size) {
  writer w = {buf, size, 0};
  print_expr(&w, e);
  if (size)
    buf[w.len < size ? w.len : size - 1] = '\0';
  return w.len;
}

char *wgp_expr_to_string(const wgp_expr *e) {
  size_t n = wgp_expr_print(e, NULL, 0);
  char *s = malloc(n + 1);
  if (s)
    wgp_expr_print(e, s, n + 1);
  return s;
}

/* ------------------------------------------------------------------------ */
/* Inspection                                                               */
/* ------------------------------------------------------------------------ */

static unsigned sym_uses(const wgp_sym *s) {
  switch (s->kind) {
  case WGP_SYM_LID:
  case WGP_SYM_GRP:
  case WGP_SYM_GID:
  case WGP_SYM_LANEID:
    return WGP_USES_WORK_ITEM;
  case WGP_SYM_LSZ:
  case WGP_SYM_NGRP:
  case WGP_SYM_GSZ:
  case WGP_SYM_GOFF:
  case WGP_SYM_WDIM:
  case WGP_SYM_WARPSIZE:
    return WGP_USES_LAUNCH;
  case WGP_SYM_ARG: return WGP_USES_ARG;
  case WGP_SYM_ITER:
  case WGP_SYM_RECUR:
    return WGP_USES_LOOP;
  case WGP_SYM_LOAD: return WGP_USES_DATA;
  case WGP_SYM_UNKNOWN: return WGP_USES_UNKNOWN;
  }
  return 0;
}

unsigned wgp_expr_uses(const wgp_expr *e) {
  if (e->op == WGP_OP_INT)
    return 0;
  if (e->op == WGP_OP_SYM)
    return sym_uses(&e->sym);
  unsigned u = (e->op == WGP_OP_LOAD || e->op == WGP_OP_FLOAT) ? WGP_USES_DATA : 0;
  for (size_t i = 0; i < e->nops; i++)
    u |= wgp_expr_uses(e->ops[i]);
  return u;
}

wgp_expr_op wgp_expr_get_op(const wgp_expr *e) { return e->op; }
const char *wgp_expr_op_name(const wgp_expr *e) { return e->info ? e->info->name : NULL; }
unsigned wgp_expr_width(const wgp_expr *e) { return e->width; }
unsigned wgp_expr_from_width(const wgp_expr *e) { return e->from_width; }
unsigned wgp_expr_flags(const wgp_expr *e) { return e->flags; }
size_t wgp_expr_num_operands(const wgp_expr *e) { return e->nops; }
const wgp_expr *wgp_expr_operand(const wgp_expr *e, size_t i) { return i < e->nops ? e->ops[i] : NULL; }
int64_t wgp_expr_int(const wgp_expr *e) { return e->ival; }
const wgp_sym *wgp_expr_symbol(const wgp_expr *e) { return e->op == WGP_OP_SYM ? &e->sym : NULL; }


size_t wgp_expr_print_opspec(const wgp_expr *e, char *buf, size_t size) {
  writer w = {buf, size, 0};
  print_opspec(&w, e);
  if (size)
    buf[w.len < size ? w.len : size - 1] = '\0';
  return w.len;
}

size_t wgp_sym_print(const wgp_sym *s, char *buf, size_t size) {
  writer w = {buf, size, 0};
  print_sym(&w, s);
  if (size)
    buf[w.len < size ? w.len : size - 1] = '\0';
  return w.len;
}
