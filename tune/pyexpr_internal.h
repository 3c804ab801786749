/* pyexpr_internal.h - the subset of Python expressions that tuning-space files
 * ("T1", Kernel Tuner restrictions) are written in (pyexpr.c; tune/ only).
 *
 * Parsed once into a tree, evaluated many times against a lookup of names.
 * The subset: int, float, string, True/False/None literals; list and tuple
 * displays; list comprehensions ([e for x in it if c], several for/if
 * clauses); a if c else b; or, and, not; chained comparisons (== != < <= >
 * >= in, not in); + - * / // % ** and unary - +; subscripts x[i]; calls of
 * range, max, min, len, abs, int, float, sum, list, bool, str.  Everything
 * follows Python 3: // and % floor towards negative infinity, / is true
 * division, True + 1 is 2, 'and'/'or' give an operand.  Integers are 64-bit:
 * a result past that is an error, not a wrong number.  One extension:
 * max(P) / min(P) of a bare name the lookup marks as a parameter is the
 * largest / smallest of the parameter's values (T1 writes buffer sizes so).
 */
#ifndef WGPERF_TUNE_PYEXPR_INTERNAL_H
#define WGPERF_TUNE_PYEXPR_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum pyx_kind { PYX_NONE, PYX_BOOL, PYX_INT, PYX_FLOAT, PYX_STR, PYX_LIST } pyx_kind;

typedef struct pyx_value pyx_value;
struct pyx_value {
  pyx_kind kind;
  int64_t i;     /* BOOL (0/1), INT */
  double f;      /* FLOAT */
  const char *s; /* STR (NUL-terminated) */
  size_t n;      /* LIST: items */
  pyx_value *items;
};

typedef struct pyx_expr pyx_expr;
typedef struct pyx_arena pyx_arena;

/* Where values of names come from.  FIND returns true and fills *OUT for a
 * name it knows; the value must stay valid during the evaluation.  VALUES,
 * when set, gives the list of all values of a parameter for max(P)/min(P)
 * (true when NAME is one). */
typedef struct pyx_env {
  bool (*find)(void *user, const char *name, pyx_value *out);
  bool (*values)(void *user, const char *name, pyx_value *out);
  void *user;
} pyx_env;

/* Error text: "what at column N" (no file or expression: the caller adds them). */
#define PYX_ERR_SIZE 256

/* Parses TEXT; NULL and ERR filled on a syntax error or out of memory. */
pyx_expr *pyx_parse(const char *text, char err[PYX_ERR_SIZE]);
void pyx_free(pyx_expr *e);
const char *pyx_text(const pyx_expr *e);

/* The free names TEXT reads (comprehension variables and builtins excluded),
 * each once in order of appearance: calls FN for each; FN returns false to
 * stop (then this returns false and *COLUMN is the name's column). */
bool pyx_names(const pyx_expr *e, bool (*fn)(void *user, const char *name, size_t column), void *user);

/* An arena the values of an evaluation live in; pyx_arena_reset frees them
 * all at once. */
pyx_arena *pyx_arena_new(void);
void pyx_arena_reset(pyx_arena *a);
void pyx_arena_free(pyx_arena *a);

/* Steps an evaluation may take when the caller gives no budget: every node
 * evaluated, every list item made and every value a builtin or a comparison
 * walks is one (15-20 ns each here, at most a 48-byte value kept until the
 * arena is reset: about half a second and 1.4 GB). */
#define PYX_MAX_STEPS 30000000u

/* Evaluates E; the result (and its items) lives in A.  False with ERR on an
 * unknown name, a type error, a division by zero, an overflow, a list past
 * 10^7 items, out of memory, or more steps than *STEPS holds (NULL:
 * PYX_MAX_STEPS); the steps taken are subtracted from *STEPS, which is 0
 * after the budget ran out, so one budget can bound many evaluations. */
bool pyx_eval(const pyx_expr *e, const pyx_env *env, pyx_arena *a, pyx_value *out, uint64_t *steps,
              char err[PYX_ERR_SIZE]);

/* Python's truth value of V. */
bool pyx_truthy(const pyx_value *v);
/* V as an integer: INT, BOOL, or a FLOAT with no fraction; false otherwise. */
bool pyx_as_int(const pyx_value *v, int64_t *out);
/* V as a number: INT, BOOL or FLOAT. */
bool pyx_as_number(const pyx_value *v, double *out);
/* Python's str(V) for INT, BOOL, FLOAT and STR (repr for items of a list),
 * into BUF; false when it does not fit. */
bool pyx_str(const pyx_value *v, char *buf, size_t size);
const char *pyx_kind_name(pyx_kind k);

#endif
