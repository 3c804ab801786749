/* validate_expr.h - the integer expressions of a validation manifest
 * (validation/kernels/manifest.json, docs/validation.md).
 *
 *   "args": {"n": "N/32"}, "macros": {"TW": "sqrt(block_x)"}, "while": "j >= 1"
 *
 * Grammar: integers, names (variables the caller binds), + - * / % with C
 * precedence, unary -, comparisons < <= > >= == != (1 or 0), parentheses,
 * and the functions log2(x) (floor), sqrt(x) (floor), min(a, b), max(a, b).
 * Values are 64-bit signed integers; / and % truncate toward zero as in C.
 * Division by zero, overflow, an unknown name and a malformed text are
 * errors with a message, never a wrong number.
 */
#ifndef WGPERF_VALIDATE_EXPR_H
#define WGPERF_VALIDATE_EXPR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct vx_var {
  const char *name;
  int64_t value;
} vx_var;

/* Evaluates TEXT with the NVARS bindings of VARS (a later binding of a name
 * hides an earlier one).  On failure returns false and writes a lower-case
 * message without the text ("division by zero", "unknown name 'q'") to ERR. */
bool vx_eval(const char *text, const vx_var *vars, size_t nvars, int64_t *out, char *err, size_t errsize);

/* Whether TEXT parses and uses only names in NAMES[0..n) (values unknown);
 * on failure ERR says why. */
bool vx_check(const char *text, const char *const *names, size_t n, char *err, size_t errsize);

#endif
