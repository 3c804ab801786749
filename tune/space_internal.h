/* space_internal.h - a T1 tuning space as space.c reads it (tune/ only). */
#ifndef WGPERF_TUNE_SPACE_INTERNAL_H
#define WGPERF_TUNE_SPACE_INTERNAL_H

#include "pyexpr_internal.h"
#include "wgperf/tune.h"

typedef struct sp_param {
  char *name;
  size_t nvalues;
  wgp_tune_value *values;
  pyx_value *pyvalues; /* the same as pyexpr values (for expressions); strings point into values[].text */
  pyx_value all;       /* the list of pyvalues, for max(P) */
} sp_param;

typedef struct sp_cond {
  pyx_expr *e;
  char *field;   /* "Conditions[1].Expression" */
  size_t depth;  /* the last parameter (in order) it reads; SIZE_MAX: none */
} sp_cond;

/* An expression of the kernel specification with where it came from. */
typedef struct sp_expr {
  pyx_expr *e;
  char *field; /* "LocalSize.X" */
  int64_t constant; /* when E is NULL */
} sp_expr;

typedef struct sp_arg {
  char *name, *type;
  wgp_tune_arg_kind kind;
  uint64_t elem_bytes;
  sp_expr size;    /* BUFFER, LOCAL: elements */
  double value;    /* SCALAR; BUFFER: FillValue */
  bool random;     /* BUFFER: FillType Random */
  bool constant;   /* BUFFER: MemType Constant */
  const char *fill_from; /* BUFFER: a FillType of data from elsewhere (wgp_tune_arg; static), else NULL */
} sp_arg;

struct wgp_tune_space {
  char *file, *dir, *benchmark;
  size_t nparams;
  sp_param *params;
  size_t nconds;
  sp_cond *conds;
  char *kernel_name;
  wgp_source_kind language;
  size_t nfiles;
  char **files;
  size_t nflags, nignored;
  char **flags, **ignored;
  /* nvcc's options clang reads under other names: as written (a plan's), and clang's */
  size_t ntranslated, nclang_only;
  char **translated, **clang_only;
  /* launch */
  bool has_local;
  sp_expr local[3];
  bool has_griddiv, has_global, global_in_blocks;
  size_t ngriddiv[3];
  sp_expr *griddiv[3];
  sp_expr global[3];
  size_t nproblem;
  sp_expr problem[3];
  sp_expr shared;
  size_t nargs;
  sp_arg *args;
  /* KTT's Symbol arguments: globals the host sets by name (a __constant__
   * array), not kernel arguments */
  size_t nsymbols;
  char **symbols;
};

/* wgp_tune_space_load_string with a budget of STEPS of evaluation for all
 * Values lists together (the public function's is 100 million). */
wgp_status sp_load_string(const char *text, size_t len, const char *name, const char *dir, uint64_t steps,
                          wgp_tune_space **out, wgp_diag *diag);

/* wgp_tune_space_enumerate with a budget of STEPS of evaluation for the
 * conditions and at most MAX_CONFIGS configurations (the public function's
 * are a billion and 50 million; fuzz/fuzz_space.c gives less). */
wgp_status sp_enumerate(const wgp_tune_space *s, uint64_t steps, size_t max_configs, uint16_t **idx, size_t *count,
                        uint64_t *raw, wgp_diag *diag);

/* The text of CONFIG: "name=value, ..." (for messages), into BUF. */
void sp_config_text(const wgp_tune_space *s, const uint16_t *config, char *buf, size_t size);

#endif
