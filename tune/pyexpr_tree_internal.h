/* pyexpr_tree_internal.h - the parsed form of a pyexpr (pyexpr_parse.c
 * builds it, pyexpr.c evaluates it; tune/ only). */
#ifndef WGPERF_TUNE_PYEXPR_TREE_INTERNAL_H
#define WGPERF_TUNE_PYEXPR_TREE_INTERNAL_H

#include "pyexpr_internal.h"

#define PYX_MAX_LIST 10000000u /* items a list may hold (range(10**9) is a mistake, not a space) */
#define PYX_MAX_DEPTH 200      /* nesting of the parser and the evaluator */

typedef enum node_kind {
  N_INT, N_FLOAT, N_STR, N_NAME, N_TRUE, N_FALSE, N_NONE,
  N_LIST,  /* kids: items */
  N_COMP,  /* kids[0]: element; then clauses: N_FOR (kids: target name, iterable) and N_IF (kids: cond) */
  N_FOR, N_IF,
  N_IFEXP, /* kids: body, cond, orelse */
  N_OR, N_AND, N_NOT,
  N_CMP,   /* kids: operands; ops[i] between kids[i] and kids[i+1] */
  N_BIN,   /* op; kids: left, right */
  N_NEG, N_POS,
  N_CALL,  /* str: function name; kids: arguments */
  N_SUB    /* kids: value, index */
} node_kind;

typedef enum op_kind { O_ADD, O_SUB, O_MUL, O_DIV, O_FLOORDIV, O_MOD, O_POW,
                       O_EQ, O_NE, O_LT, O_LE, O_GT, O_GE, O_IN, O_NOTIN } op_kind;

typedef struct node node;
struct node {
  node_kind kind;
  size_t col; /* 1-based column in the text */
  int64_t i;
  double f;
  char *str;
  op_kind op;
  op_kind *ops;
  node **kids;
  size_t nkids, cap;
};

struct pyx_expr {
  char *text;
  node *root;
};

/* Whether NAME is one of the functions a pyexpr may call. */
bool pyx_builtin_function(const char *name);

#endif
