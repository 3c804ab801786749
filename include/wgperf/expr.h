/* expr.h - the symbolic expressions of the kernel model.
 *
 * Grammar and meaning: docs/kernel-model.md, "Expressions".  An expression is
 * parsed once into an immutable tree and evaluated many times for a launch,
 * with symbols (work-item ids, sizes, arguments, loop iterations, recurrence
 * values, loaded values) resolved by a caller-supplied function.
 *
 * Evaluation is exact and never undefined: every value is a 64-bit integer;
 * an operation of width W (":W", 64 when absent) reads the low W bits of its
 * operands and gives a W-bit result, returned sign-extended to 64 bits
 * (1-bit results, e.g. compares, are 0 or 1).  Whatever the IR would make
 * poison or undefined (a broken nsw/nuw promise, division by zero, INT_MIN /
 * -1, a shift by >= W bits), a value the model does not know (`?TEXT`,
 * `(load M<k>)` without a binding, floating point) and signed overflow of an
 * unflagged 64-bit operation (unless WGP_EVAL_WRAP64) give
 * WGP_EVAL_UNKNOWN with a reason, never a wrong number.
 */
#ifndef WGPERF_EXPR_H
#define WGPERF_EXPR_H

#include "wgperf/diag.h"
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct wgp_expr wgp_expr;

/* Deepest nesting of parentheses the parser accepts. */
#define WGP_EXPR_MAX_DEPTH 256

typedef enum wgp_expr_op {
  WGP_OP_INT, /* integer constant */
  WGP_OP_SYM, /* symbol, see wgp_sym */
  WGP_OP_ADD, WGP_OP_SUB, WGP_OP_MUL, WGP_OP_UDIV, WGP_OP_SDIV, WGP_OP_UREM,
  WGP_OP_SREM, WGP_OP_SHL, WGP_OP_LSHR, WGP_OP_ASHR, WGP_OP_AND, WGP_OP_OR,
  WGP_OP_XOR, WGP_OP_SMIN, WGP_OP_SMAX, WGP_OP_UMIN, WGP_OP_UMAX, WGP_OP_ABS,
  WGP_OP_ZEXT, WGP_OP_SEXT, WGP_OP_TRUNC,
  WGP_OP_EQ, WGP_OP_NE, WGP_OP_SLT, WGP_OP_SLE, WGP_OP_SGT, WGP_OP_SGE,
  WGP_OP_ULT, WGP_OP_ULE, WGP_OP_UGT, WGP_OP_UGE,
  WGP_OP_NOT, WGP_OP_SELECT, WGP_OP_ADDREC,
  WGP_OP_LOAD, /* (load M<k>): wgp_expr_int gives k */
  WGP_OP_FLOAT /* any floating-point operation: wgp_expr_op_name says which */
} wgp_expr_op;

/* Flags of an operation (wgp_expr_flags). */
#define WGP_EXPR_NSW 1u
#define WGP_EXPR_NUW 2u

typedef enum wgp_sym_kind {
  WGP_SYM_LID, WGP_SYM_GRP, WGP_SYM_LSZ, WGP_SYM_NGRP, WGP_SYM_GID,
  WGP_SYM_GSZ, WGP_SYM_GOFF, /* dim: 0..2 for x, y, z */
  WGP_SYM_WDIM, WGP_SYM_LANEID, WGP_SYM_WARPSIZE,
  WGP_SYM_ARG,     /* name: the scalar argument */
  WGP_SYM_ITER,    /* loop: it.L<loop> */
  WGP_SYM_RECUR,   /* loop, index: rv.L<loop>.<index> */
  WGP_SYM_LOAD,    /* index: the value loaded by access M<index> */
  WGP_SYM_UNKNOWN  /* name: TEXT of ?TEXT (may be empty) */
} wgp_sym_kind;

/* A symbol as the evaluator's lookup function sees it (kept by the tree). */
typedef struct wgp_sym {
  wgp_sym_kind kind;
  unsigned dim;
  unsigned loop;
  unsigned index;
  const char *name; /* WGP_SYM_ARG, WGP_SYM_UNKNOWN; NULL otherwise */
} wgp_sym;

typedef enum wgp_eval_status {
  WGP_EVAL_OK = 0,
  WGP_EVAL_UNKNOWN, /* the value cannot be known statically; reason says why */
  WGP_EVAL_ERROR    /* the environment failed (e.g. an argument has no value) */
} wgp_eval_status;

#define WGP_EVAL_REASON_SIZE 192

typedef struct wgp_eval_result {
  int64_t value;  /* valid when WGP_EVAL_OK */
  unsigned width; /* bit width of the root operation (64 for symbols) */
  char reason[WGP_EVAL_REASON_SIZE];
} wgp_eval_result;

/* Resolves a symbol: writes *value and returns WGP_EVAL_OK, or returns
 * WGP_EVAL_UNKNOWN / WGP_EVAL_ERROR and may write a reason (NUL-terminated,
 * at most reason_size bytes).  Symbol values are 64-bit: an operation of
 * width W uses their low W bits. */
typedef wgp_eval_status (*wgp_sym_lookup)(void *user, const wgp_sym *sym, int64_t *value, char *reason,
                                          size_t reason_size);

/* Flags of wgp_eval_env. */
#define WGP_EVAL_WRAP64 1u /* unflagged 64-bit add/sub/mul/shl/abs wrap instead of giving unknown */

typedef struct wgp_eval_env {
  wgp_sym_lookup lookup; /* NULL: every symbol is unknown */
  void *user;
  unsigned flags;
} wgp_eval_env;

/* Parses TEXT into *out (give: free with wgp_expr_free).  On failure returns
 * WGP_ERR_INPUT (or WGP_ERR_NOMEM) and writes the reason, without a
 * "wgperf: error:" prefix, to diag (may be NULL): callers add the context. */
wgp_status wgp_expr_parse(const char *text, wgp_expr **out, wgp_diag *diag);

/* Frees an expression returned by wgp_expr_parse (take); NULL is ignored.
 * Expressions owned by a wgp_model are freed with the model. */
void wgp_expr_free(wgp_expr *e);

/* Evaluates E (keep) in ENV.  Never undefined; see the top of this file. */
wgp_eval_status wgp_expr_eval(const wgp_expr *e, const wgp_eval_env *env, wgp_eval_result *out);

/* Prints E in the model's syntax: parsing and printing gives the same text.
 * snprintf-like: writes at most size bytes (NUL included) and returns the
 * length of the whole text. */
size_t wgp_expr_print(const wgp_expr *e, char *buf, size_t size);

/* The printed text in a new malloc'd string (give), NULL when out of memory. */
char *wgp_expr_to_string(const wgp_expr *e);

/* Which classes of symbols E uses (bitwise or of WGP_USES_*). */
#define WGP_USES_WORK_ITEM 1u /* lid, grp, gid, laneid */
#define WGP_USES_LAUNCH 2u    /* lsz, ngrp, gsz, goff, wdim, warpsize */
#define WGP_USES_ARG 4u       /* arg.NAME */
#define WGP_USES_LOOP 8u      /* it.L<n>, rv.L<n>.<k> */
#define WGP_USES_DATA 16u     /* (load M<k>), floating point */
#define WGP_USES_UNKNOWN 32u  /* ?TEXT */
unsigned wgp_expr_uses(const wgp_expr *e);

/* Read-only view of the tree, for analyses. */
wgp_expr_op wgp_expr_get_op(const wgp_expr *e);
const char *wgp_expr_op_name(const wgp_expr *e); /* "add", "fogt", ...; NULL for INT and SYM */
unsigned wgp_expr_width(const wgp_expr *e);      /* casts: the target width */
unsigned wgp_expr_from_width(const wgp_expr *e); /* casts: the source width; else 0 */
unsigned wgp_expr_flags(const wgp_expr *e);      /* WGP_EXPR_NSW | WGP_EXPR_NUW */
size_t wgp_expr_num_operands(const wgp_expr *e);
const wgp_expr *wgp_expr_operand(const wgp_expr *e, size_t i);
int64_t wgp_expr_int(const wgp_expr *e);          /* INT: the value; LOAD: the access id */
const wgp_sym *wgp_expr_symbol(const wgp_expr *e); /* SYM: the symbol; else NULL */

#ifdef __cplusplus
}
#endif

#endif
