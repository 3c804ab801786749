/* expr_internal.h - the expression tree, shared by the parser (expr.c), the
 * evaluator (expr_eval.c) and the model loader (model.c). */
#ifndef WGPERF_EXPR_INTERNAL_H
#define WGPERF_EXPR_INTERNAL_H

#include "arena_internal.h"
#include "wgperf/expr.h"

#include <stdbool.h>

enum { WGP_ARITY_ANY = 0 };

typedef enum op_shape {
  SHAPE_PLAIN, /* no suffixes */
  SHAPE_WIDTH, /* [:W] */
  SHAPE_WRAP,  /* [:W][:nsw][:nuw] */
  SHAPE_CAST   /* :F:T */
} op_shape;

typedef struct op_info {
  const char *name;
  wgp_expr_op op;
  unsigned char min_ops, max_ops;
  op_shape shape;
} op_info;

struct wgp_expr {
  wgp_expr_op op;
  const op_info *info; /* NULL for INT and SYM */
  unsigned width;      /* result width; casts: target width */
  unsigned from_width; /* casts */
  unsigned flags;
  bool explicit_width; /* the text had ":W" */
  size_t nops;
  const wgp_expr **ops;
  int64_t ival;
  wgp_sym sym;
  wgp_arena *own; /* set on roots returned by wgp_expr_parse */
};

/* Parses TEXT with nodes allocated in ARENA.  On failure returns non-OK and
 * writes the bare reason into REASON. */
wgp_status wgp_expr_parse_in(wgp_arena *arena, const char *text, const wgp_expr **out, char *reason,
                             size_t reason_size);

/* The "NAME[:W][:nsw][:nuw]" of an operation, the text of a symbol;
 * snprintf-like. */
size_t wgp_expr_print_opspec(const wgp_expr *e, char *buf, size_t size);
size_t wgp_sym_print(const wgp_sym *s, char *buf, size_t size);

#endif
