/* model_internal.h - the records behind the opaque model types, shared by
 * the loader (model.c) and the accessors (model_access.c). */
#ifndef WGPERF_MODEL_INTERNAL_H
#define WGPERF_MODEL_INTERNAL_H

#include "arena_internal.h"
#include "wgperf/model.h"

typedef struct count_entry {
  const char *cls;
  uint64_t n;
} count_entry;

struct wgp_arg {
  size_t index;
  const char *name, *type, *from;
  wgp_arg_kind kind;
  wgp_space space;
  uint64_t bytes;
  bool is_const;
  bool floating; /* a scalar of a floating-point IR type (the model's "floating") */
};

struct wgp_array {
  const char *name;
  wgp_space space;
  uint64_t bytes, elem_bytes;
  size_t ndims;
  uint64_t *dims;
  bool initialized;
};

struct wgp_branch {
  wgp_branch_kind kind;
  const wgp_expr *cond;
  const char *cond_text;
  wgp_branch_class cls;
  unsigned depends;
  size_t ntargets;
  size_t *targets;
  int64_t *case_values;
  const char *source;
};

struct wgp_block {
  size_t id;
  const char *name, *source;
  long loop;
  size_t ncounts, nsuccs, nback, nmem;
  count_entry *counts;
  /* after loop strength reduction (the block's strength_reduced); the
   * counts themselves when it has none */
  size_t nreduced;
  count_entry *reduced;
  size_t *succs, *back, *mem;
  bool exit;
  wgp_branch *branch;
};

typedef struct recurrence {
  wgp_sym sym;
  const wgp_expr *init, *next;
} recurrence;

typedef struct loop_exit {
  size_t block;
  const wgp_expr *when;
} loop_exit;

struct wgp_loop {
  size_t id, header;
  long parent;
  unsigned depth;
  size_t nblocks, nlatches, nexiting, nrec, nexits;
  size_t *blocks, *latches, *exiting;
  wgp_trip_kind trip;
  const wgp_expr *backedge, *trip_count, *max_trip;
  const char *reason, *source;
  recurrence *rec;
  loop_exit *exits;
};

struct wgp_access {
  size_t id, block;
  wgp_access_kind kind;
  const char *atomic_op;
  wgp_space space;
  uint64_t bytes;
  wgp_base_kind base_kind;
  const char *base_name;
  long base_arg;
  const wgp_expr *offset;
  bool affine;
  const char *non_affine, *source;
  unsigned load_level; /* wgp_access_load_level */
  wgp_cache_op cache;  /* 'cache', WGP_CACHE_DEFAULT when absent */
};

typedef struct call_rec {
  size_t block;
  const char *callee, *reason, *source;
} call_rec;

struct wgp_kernel {
  const char *name, *symbol, *signature, *source;
  wgp_language lang;
  size_t nargs, narrays, nblocks, nloops, naccesses, ncalls, nstatic, ndiags;
  wgp_arg *args;
  wgp_array *arrays;
  wgp_block *blocks;
  wgp_loop *loops;
  wgp_access *accesses;
  call_rec *calls;
  count_entry *static_counts;
  const char **diags;
  bool irreducible;
  unsigned register_pressure;
  unsigned registers;            /* from ptxas, 0 when absent */
  const char *registers_source;
  wgp_kernel_resources *resources; /* per architecture, in the model's order */
  size_t nresources;
  /* launch_attributes (optional): 0 / NULL where the source says nothing */
  uint64_t reqd[3], max_threads, min_blocks;
  unsigned max_registers; /* nvcc's -maxrregcount the driver compiled with, 0 when none */
  wgp_cache_op load_cache, store_cache; /* ptxas' -dlcm, -dscm; WGP_CACHE_DEFAULT when none */
  const char *attribute;
};

struct wgp_model {
  wgp_arena *arena;
  const char *producer, *module, *source_file, *target;
  const char *cuda_headers; /* NULL when the model does not say */
  size_t ndiags, nkernels;
  const char **diags;
  wgp_kernel *kernels;
};

/* Whether the id list V of N entries holds X. */
bool wgp_ids_contain(const size_t *v, size_t n, size_t x);

#endif
