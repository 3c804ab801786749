/* model_access.c - read-only accessors of a loaded kernel model.  The
 * loader (model.c) has checked every id, so these only guard indexes. */
#include "model_internal.h"

#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* Accessors                                                                */
/* ------------------------------------------------------------------------ */

const char *wgp_model_producer(const wgp_model *m) { return m->producer; }
const char *wgp_model_module(const wgp_model *m) { return m->module; }
const char *wgp_model_source_file(const wgp_model *m) { return m->source_file; }
const char *wgp_model_cuda_headers(const wgp_model *m) { return m->cuda_headers; }
const char *wgp_model_target(const wgp_model *m) { return m->target; }
size_t wgp_model_num_diagnostics(const wgp_model *m) { return m->ndiags; }
const char *wgp_model_diagnostic(const wgp_model *m, size_t i) { return i < m->ndiags ? m->diags[i] : NULL; }
size_t wgp_model_num_kernels(const wgp_model *m) { return m->nkernels; }
const wgp_kernel *wgp_model_kernel(const wgp_model *m, size_t i) { return i < m->nkernels ? &m->kernels[i] : NULL; }

static bool same_but_spaces(const char *a, const char *b) {
  for (;;) {
    while (*a == ' ')
      a++;
    while (*b == ' ')
      b++;
    if (*a != *b)
      return false;
    if (!*a)
      return true;
    a++, b++;
  }
}

/* Whether kernel name KN is an instance of template NAME ("scale<float, 256>" of "scale"). */
static bool is_instance_of(const char *kn, const char *name) {
  size_t len = strlen(name);
  return strncmp(kn, name, len) == 0 && kn[len] == '<';
}

const wgp_kernel *wgp_model_find_kernel(const wgp_model *m, const char *name) {
  for (size_t i = 0; i < m->nkernels; i++)
    if (strcmp(m->kernels[i].name, name) == 0)
      return &m->kernels[i];
  for (size_t i = 0; i < m->nkernels; i++)
    if (strcmp(m->kernels[i].symbol, name) == 0)
      return &m->kernels[i];
  /* a template instance as typed: "scale<float,256>" for "scale<float, 256>", or the
   * template's name alone when one instance has it */
  for (size_t i = 0; i < m->nkernels; i++)
    if (same_but_spaces(m->kernels[i].name, name))
      return &m->kernels[i];
  if (wgp_model_template_instances(m, name) != 1)
    return NULL;
  for (size_t i = 0; i < m->nkernels; i++)
    if (is_instance_of(m->kernels[i].name, name))
      return &m->kernels[i];
  return NULL;
}

size_t wgp_model_template_instances(const wgp_model *m, const char *name) {
  size_t n = 0;
  for (size_t i = 0; i < m->nkernels; i++)
    n += is_instance_of(m->kernels[i].name, name);
  return n;
}

const char *wgp_kernel_name(const wgp_kernel *k) { return k->name; }
const char *wgp_kernel_symbol(const wgp_kernel *k) { return k->symbol; }
const char *wgp_kernel_signature(const wgp_kernel *k) { return k->signature; }
wgp_language wgp_kernel_language(const wgp_kernel *k) { return k->lang; }
const char *wgp_kernel_source(const wgp_kernel *k) { return k->source; }
size_t wgp_kernel_num_args(const wgp_kernel *k) { return k->nargs; }
const wgp_arg *wgp_kernel_arg(const wgp_kernel *k, size_t i) { return i < k->nargs ? &k->args[i] : NULL; }
const wgp_arg *wgp_kernel_find_arg(const wgp_kernel *k, const char *name) {
  for (size_t i = 0; i < k->nargs; i++)
    if (strcmp(k->args[i].name, name) == 0)
      return &k->args[i];
  return NULL;
}
size_t wgp_kernel_num_arrays(const wgp_kernel *k) { return k->narrays; }
const wgp_array *wgp_kernel_array(const wgp_kernel *k, size_t i) { return i < k->narrays ? &k->arrays[i] : NULL; }
const wgp_array *wgp_kernel_find_array(const wgp_kernel *k, const char *name) {
  for (size_t i = 0; i < k->narrays; i++)
    if (k->arrays[i].name && strcmp(k->arrays[i].name, name) == 0)
      return &k->arrays[i];
  return NULL;
}
size_t wgp_kernel_num_blocks(const wgp_kernel *k) { return k->nblocks; }
const wgp_block *wgp_kernel_block(const wgp_kernel *k, size_t i) { return i < k->nblocks ? &k->blocks[i] : NULL; }
size_t wgp_kernel_num_loops(const wgp_kernel *k) { return k->nloops; }
const wgp_loop *wgp_kernel_loop(const wgp_kernel *k, size_t i) { return i < k->nloops ? &k->loops[i] : NULL; }
size_t wgp_kernel_num_accesses(const wgp_kernel *k) { return k->naccesses; }
const wgp_access *wgp_kernel_access(const wgp_kernel *k, size_t i) {
  return i < k->naccesses ? &k->accesses[i] : NULL;
}
/* Whether a symbol of E satisfies PRED. */
static bool expr_has(const wgp_expr *e, bool (*pred)(const wgp_sym *, const void *), const void *ctx) {
  if (!e)
    return false;
  const wgp_sym *sym = wgp_expr_symbol(e);
  if (sym)
    return pred(sym, ctx);
  for (size_t i = 0; i < wgp_expr_num_operands(e); i++)
    if (expr_has(wgp_expr_operand(e, i), pred, ctx))
      return true;
  return false;
}

/* The first expression of K's control flow (branch conditions, then each
 * loop's back-edge, counts, recurrences and exits) for which TEST holds:
 * true, and *WHERE (may be NULL) the source of its branch or loop. */
static bool control_flow_find(const wgp_kernel *k, bool (*test)(const wgp_expr *, const void *), const void *ctx,
                              const char **where) {
  for (size_t b = 0; b < k->nblocks; b++)
    if (k->blocks[b].branch && test(k->blocks[b].branch->cond, ctx)) {
      if (where)
        *where = k->blocks[b].branch->source ? k->blocks[b].branch->source : k->blocks[b].source;
      return true;
    }
  for (size_t i = 0; i < k->nloops; i++) {
    const wgp_loop *l = &k->loops[i];
    bool hit = test(l->backedge, ctx) || test(l->trip_count, ctx) || test(l->max_trip, ctx);
    for (size_t r = 0; r < l->nrec && !hit; r++)
      hit = test(l->rec[r].init, ctx) || test(l->rec[r].next, ctx);
    for (size_t x = 0; x < l->nexits && !hit; x++)
      hit = test(l->exits[x].when, ctx);
    if (hit) {
      if (where)
        *where = l->source;
      return true;
    }
  }
  return false;
}

typedef struct {
  bool (*pred)(const wgp_sym *, const void *);
  const void *ctx;
} sym_test;
static bool has_sym(const wgp_expr *e, const void *t) {
  const sym_test *st = t;
  return expr_has(e, st->pred, st->ctx);
}

/* Whether an expression of K (branch, loop, access) has a symbol that
 * satisfies PRED. */
static bool kernel_has(const wgp_kernel *k, bool (*pred)(const wgp_sym *, const void *), const void *ctx) {
  sym_test st = {pred, ctx};
  if (control_flow_find(k, has_sym, &st, NULL))
    return true;
  for (size_t i = 0; i < k->naccesses; i++)
    if (expr_has(k->accesses[i].offset, pred, ctx))
      return true;
  return false;
}

static bool is_arg(const wgp_sym *s, const void *name) {
  return s->kind == WGP_SYM_ARG && s->name && strcmp(s->name, name) == 0;
}

bool wgp_kernel_uses_arg(const wgp_kernel *k, const char *name) { return kernel_has(k, is_arg, name); }

typedef struct {
  wgp_sym_kind kind;
  unsigned dim;
} sym_in_dim;
static bool is_sym_in_dim(const wgp_sym *s, const void *want) {
  const sym_in_dim *w = want;
  return s->kind == w->kind && s->dim == w->dim;
}
bool wgp_expr_reads_sym(const wgp_expr *e, wgp_sym_kind kind, unsigned dim) {
  sym_in_dim w = {kind, dim};
  return expr_has(e, is_sym_in_dim, &w);
}
bool wgp_kernel_reads_sym(const wgp_kernel *k, wgp_sym_kind kind, unsigned dim) {
  sym_in_dim w = {kind, dim};
  return kernel_has(k, is_sym_in_dim, &w);
}

/* the lane's id in dimension *D, or an id that mixes the dimensions */
static bool is_lane_id(const wgp_sym *s, const void *d) {
  return ((s->kind == WGP_SYM_LID || s->kind == WGP_SYM_GID) && s->dim == *(const unsigned *)d) ||
         s->kind == WGP_SYM_LANEID || s->kind == WGP_SYM_UNKNOWN;
}

bool wgp_kernel_reads_local_id(const wgp_kernel *k, unsigned dim) {
  return kernel_has(k, is_lane_id, &dim) || k->ncalls > 0;
}

/* E without integer casts around it. */
static const wgp_expr *uncast(const wgp_expr *e) {
  while (e && (wgp_expr_get_op(e) == WGP_OP_ZEXT || wgp_expr_get_op(e) == WGP_OP_SEXT ||
               wgp_expr_get_op(e) == WGP_OP_TRUNC) && wgp_expr_num_operands(e) == 1)
    e = wgp_expr_operand(e, 0);
  return e;
}

static bool is_sym(const wgp_expr *e, wgp_sym_kind kind, unsigned dim) {
  const wgp_sym *s = wgp_expr_symbol(uncast(e));
  return s && s->kind == kind && s->dim == dim;
}

static bool is_group_base(const wgp_expr *e, unsigned dim) {
  e = uncast(e);
  return wgp_expr_get_op(e) == WGP_OP_MUL && wgp_expr_num_operands(e) == 2 &&
         ((is_sym(wgp_expr_operand(e, 0), WGP_SYM_GRP, dim) && is_sym(wgp_expr_operand(e, 1), WGP_SYM_LSZ, dim)) ||
          (is_sym(wgp_expr_operand(e, 1), WGP_SYM_GRP, dim) && is_sym(wgp_expr_operand(e, 0), WGP_SYM_LSZ, dim)));
}

/* Whether E reads the group's shape in DIM other than through the global id
 * (gid.DIM, or a sum with the terms lid.DIM and grp.DIM x lsz.DIM among its
 * operands).  A value the model does not know (?TEXT) is taken alike for
 * every size, so it does not count. */
static bool reads_group_shape(const wgp_expr *e, unsigned dim) {
  if (!e)
    return false;
  const wgp_sym *s = wgp_expr_symbol(e);
  if (s)
    return ((s->kind == WGP_SYM_LID || s->kind == WGP_SYM_GRP || s->kind == WGP_SYM_LSZ || s->kind == WGP_SYM_NGRP) &&
            s->dim == dim) ||
           s->kind == WGP_SYM_LANEID;
  size_t n = wgp_expr_num_operands(e), lid = SIZE_MAX, base = SIZE_MAX;
  if (wgp_expr_get_op(e) == WGP_OP_ADD)
    for (size_t i = 0; i < n; i++) {
      if (lid == SIZE_MAX && is_sym(wgp_expr_operand(e, i), WGP_SYM_LID, dim))
        lid = i;
      else if (base == SIZE_MAX && is_group_base(wgp_expr_operand(e, i), dim))
        base = i;
    }
  bool gid = lid != SIZE_MAX && base != SIZE_MAX;
  for (size_t i = 0; i < n; i++)
    if (!(gid && (i == lid || i == base)) && reads_group_shape(wgp_expr_operand(e, i), dim))
      return true;
  return false;
}

static bool reads_shape_in(const wgp_expr *e, const void *dim) { return reads_group_shape(e, *(const unsigned *)dim); }

bool wgp_kernel_paths_by_global_id(const wgp_kernel *k, unsigned dim, const char **where) {
  if (where)
    *where = k->ncalls > 0 ? k->calls[0].source : NULL;
  return k->ncalls == 0 && !control_flow_find(k, reads_shape_in, &dim, where);
}

size_t wgp_kernel_num_calls(const wgp_kernel *k) { return k->ncalls; }
void wgp_kernel_call(const wgp_kernel *k, size_t i, size_t *block, const char **callee, const char **reason) {
  if (i >= k->ncalls)
    return;
  if (block)
    *block = k->calls[i].block;
  if (callee)
    *callee = k->calls[i].callee;
  if (reason)
    *reason = k->calls[i].reason;
}
const char *wgp_kernel_call_source(const wgp_kernel *k, size_t i) { return i < k->ncalls ? k->calls[i].source : NULL; }
size_t wgp_kernel_num_static_counts(const wgp_kernel *k) { return k->nstatic; }
uint64_t wgp_kernel_static_count(const wgp_kernel *k, size_t i, const char **cost_class) {
  if (i >= k->nstatic)
    return 0;
  if (cost_class)
    *cost_class = k->static_counts[i].cls;
  return k->static_counts[i].n;
}
bool wgp_kernel_irreducible(const wgp_kernel *k) { return k->irreducible; }
unsigned wgp_kernel_register_pressure(const wgp_kernel *k) { return k->register_pressure; }
uint64_t wgp_kernel_static_local_bytes(const wgp_kernel *k) {
  uint64_t n = 0;
  for (size_t i = 0; i < k->narrays; i++)
    if (wgp_array_space(&k->arrays[i]) == WGP_SPACE_LOCAL)
      n += wgp_array_bytes(&k->arrays[i]);
  return n;
}
unsigned wgp_kernel_registers(const wgp_kernel *k, const char **source) {
  if (source)
    *source = k->registers_source;
  return k->registers;
}
size_t wgp_kernel_num_resources(const wgp_kernel *k) { return k->nresources; }
const wgp_kernel_resources *wgp_kernel_resources_at(const wgp_kernel *k, size_t i) {
  return i < k->nresources ? &k->resources[i] : NULL;
}
const wgp_kernel_resources *wgp_kernel_resources_for(const wgp_kernel *k, unsigned arch, bool *exact) {
  const wgp_kernel_resources *best = NULL;
  unsigned best_cost = 0;
  for (size_t i = 0; i < k->nresources; i++) {
    const wgp_kernel_resources *r = &k->resources[i];
    /* the same major version first (the same register file and allocation
     * rules), then the nearest, a lower one before a higher at equal distance */
    unsigned d = r->arch > arch ? 2 * (r->arch - arch) : 2 * (arch - r->arch) - (r->arch < arch);
    unsigned cost = (r->arch / 10 == arch / 10 ? 0 : 10000) + d;
    if (!best || cost < best_cost)
      best = r, best_cost = cost;
  }
  if (exact)
    *exact = best && best->arch == arch;
  return best;
}
bool wgp_kernel_reqd_work_group_size(const wgp_kernel *k, uint64_t size[3]) {
  if (!k->reqd[0])
    return false;
  memcpy(size, k->reqd, sizeof k->reqd);
  return true;
}
uint64_t wgp_kernel_max_threads_per_block(const wgp_kernel *k) { return k->max_threads; }
uint64_t wgp_kernel_min_blocks_per_sm(const wgp_kernel *k) { return k->min_blocks; }
unsigned wgp_kernel_max_registers_per_thread(const wgp_kernel *k) { return k->max_registers; }
wgp_cache_op wgp_kernel_global_load_cache(const wgp_kernel *k) { return k->load_cache; }
wgp_cache_op wgp_kernel_global_store_cache(const wgp_kernel *k) { return k->store_cache; }
const char *wgp_kernel_launch_attribute(const wgp_kernel *k) {
  return k->attribute ? k->attribute : k->reqd[0] || k->max_threads || k->min_blocks ? "launch attributes" : NULL;
}

bool wgp_kernel_allows_local_size(const wgp_kernel *k, const uint64_t local[3], char *why, size_t size) {
  const char *attr = wgp_kernel_launch_attribute(k);
  if (k->reqd[0] && (local[0] != k->reqd[0] || local[1] != k->reqd[1] || local[2] != k->reqd[2])) {
    if (why && size)
      snprintf(why, size, "kernel '%s' requires work-groups of %llux%llux%llu (%s), got %llux%llux%llu", k->name,
               (unsigned long long)k->reqd[0], (unsigned long long)k->reqd[1], (unsigned long long)k->reqd[2], attr,
               (unsigned long long)local[0], (unsigned long long)local[1], (unsigned long long)local[2]);
    return false;
  }
  double threads = (double)local[0] * (double)local[1] * (double)local[2];
  if (k->max_threads && threads > (double)k->max_threads) {
    if (why && size)
      snprintf(why, size,
               "kernel '%s' allows at most %llu threads per block (%s), got %.0f (%llux%llux%llu): a launch with more "
               "fails",
               k->name, (unsigned long long)k->max_threads, attr, threads, (unsigned long long)local[0],
               (unsigned long long)local[1], (unsigned long long)local[2]);
    return false;
  }
  return true;
}

size_t wgp_kernel_num_diagnostics(const wgp_kernel *k) { return k->ndiags; }
const char *wgp_kernel_diagnostic(const wgp_kernel *k, size_t i) { return i < k->ndiags ? k->diags[i] : NULL; }

size_t wgp_arg_index(const wgp_arg *a) { return a->index; }
const char *wgp_arg_name(const wgp_arg *a) { return a->name; }
const char *wgp_arg_type(const wgp_arg *a) { return a->type; }
wgp_arg_kind wgp_arg_get_kind(const wgp_arg *a) { return a->kind; }
wgp_space wgp_arg_space(const wgp_arg *a) { return a->space; }
uint64_t wgp_arg_elem_bytes(const wgp_arg *a) { return a->kind == WGP_ARG_POINTER ? a->bytes : 0; }
uint64_t wgp_arg_bytes(const wgp_arg *a) { return a->kind == WGP_ARG_SCALAR ? a->bytes : 0; }
const char *wgp_arg_elem_bytes_from(const wgp_arg *a) { return a->from; }
bool wgp_arg_is_const(const wgp_arg *a) { return a->is_const; }

/* Whether the words of TYPE (split at spaces) include one of WORDS. */
static bool type_has_word(const char *type, const char *const *words, size_t n) {
  for (const char *p = type ? type : ""; *p;) {
    while (*p == ' ')
      p++;
    size_t len = strcspn(p, " ");
    for (size_t i = 0; i < n; i++)
      if (len && strlen(words[i]) == len && strncmp(p, words[i], len) == 0)
        return true;
    p += len;
  }
  return false;
}

bool wgp_arg_is_floating(const wgp_arg *a) {
  static const char *const words[] = {"float",  "double",   "half",     "__half", "_Float16",
                                      "bfloat", "bfloat16", "__bf16",   "__nv_bfloat16"};
  return a->kind == WGP_ARG_SCALAR && (a->floating || type_has_word(a->type, words, sizeof words / sizeof *words));
}

bool wgp_arg_is_unsigned(const wgp_arg *a) {
  static const char *const words[] = {"unsigned", "size_t",   "uint",     "ulong",     "ushort",   "uchar",
                                      "uint8_t",  "uint16_t", "uint32_t", "uint64_t",  "uintptr_t", "u8",
                                      "u16",      "u32",      "u64",      "uint_fast32_t"};
  return a->kind == WGP_ARG_SCALAR && !wgp_arg_is_floating(a) &&
         type_has_word(a->type, words, sizeof words / sizeof *words);
}

const char *wgp_array_name(const wgp_array *a) { return a->name; }
const char *wgp_array_short_name(const wgp_array *a) {
  const char *name = wgp_array_name(a), *cpp = strrchr(name, ':'), *cl = strrchr(name, '.');
  return cpp > cl ? cpp + 1 : cl ? cl + 1 : name;
}
wgp_space wgp_array_space(const wgp_array *a) { return a->space; }
uint64_t wgp_array_bytes(const wgp_array *a) { return a->bytes; }
uint64_t wgp_array_elem_bytes(const wgp_array *a) { return a->elem_bytes; }
size_t wgp_array_num_dims(const wgp_array *a) { return a->ndims; }
uint64_t wgp_array_dim(const wgp_array *a, size_t i) { return i < a->ndims ? a->dims[i] : 0; }
bool wgp_array_initialized(const wgp_array *a) { return a->initialized; }

size_t wgp_block_id(const wgp_block *b) { return b->id; }
const char *wgp_block_name(const wgp_block *b) { return b->name; }
const char *wgp_block_source(const wgp_block *b) { return b->source; }
long wgp_block_loop(const wgp_block *b) { return b->loop; }
size_t wgp_block_num_counts_in(const wgp_block *b, bool reduced) { return reduced ? b->nreduced : b->ncounts; }
uint64_t wgp_block_count_in(const wgp_block *b, bool reduced, size_t i, const char **cost_class) {
  const count_entry *c = reduced ? b->reduced : b->counts;
  if (i >= wgp_block_num_counts_in(b, reduced))
    return 0;
  if (cost_class)
    *cost_class = c[i].cls;
  return c[i].n;
}
uint64_t wgp_block_count_of_in(const wgp_block *b, bool reduced, const char *cost_class) {
  const count_entry *c = reduced ? b->reduced : b->counts;
  for (size_t i = 0; i < wgp_block_num_counts_in(b, reduced); i++)
    if (strcmp(c[i].cls, cost_class) == 0)
      return c[i].n;
  return 0;
}
size_t wgp_block_num_counts(const wgp_block *b) { return wgp_block_num_counts_in(b, false); }
uint64_t wgp_block_count(const wgp_block *b, size_t i, const char **cost_class) {
  return wgp_block_count_in(b, false, i, cost_class);
}
uint64_t wgp_block_count_of(const wgp_block *b, const char *cost_class) {
  return wgp_block_count_of_in(b, false, cost_class);
}
size_t wgp_block_num_succs(const wgp_block *b) { return b->nsuccs; }
size_t wgp_block_succ(const wgp_block *b, size_t i) { return i < b->nsuccs ? b->succs[i] : 0; }
size_t wgp_block_num_back_edges(const wgp_block *b) { return b->nback; }
size_t wgp_block_back_edge(const wgp_block *b, size_t i) { return i < b->nback ? b->back[i] : 0; }
bool wgp_block_is_back_edge(const wgp_block *b, size_t succ_block) { return wgp_ids_contain(b->back, b->nback, succ_block); }
size_t wgp_block_num_accesses(const wgp_block *b) { return b->nmem; }
size_t wgp_block_access(const wgp_block *b, size_t i) { return i < b->nmem ? b->mem[i] : 0; }
bool wgp_block_is_exit(const wgp_block *b) { return b->exit; }
const wgp_branch *wgp_block_branch(const wgp_block *b) { return b->branch; }

wgp_branch_kind wgp_branch_get_kind(const wgp_branch *br) { return br->kind; }
const wgp_expr *wgp_branch_cond(const wgp_branch *br) { return br->cond; }
const char *wgp_branch_cond_text(const wgp_branch *br) { return br->cond_text; }
wgp_branch_class wgp_branch_get_class(const wgp_branch *br) { return br->cls; }
unsigned wgp_branch_depends(const wgp_branch *br) { return br->depends; }
size_t wgp_branch_num_targets(const wgp_branch *br) { return br->ntargets; }
size_t wgp_branch_target(const wgp_branch *br, size_t i) { return i < br->ntargets ? br->targets[i] : 0; }
int64_t wgp_branch_case_value(const wgp_branch *br, size_t i) {
  return br->case_values && i + 1 < br->ntargets ? br->case_values[i] : 0;
}
const char *wgp_branch_source(const wgp_branch *br) { return br->source; }

size_t wgp_loop_id(const wgp_loop *l) { return l->id; }
size_t wgp_loop_header(const wgp_loop *l) { return l->header; }
long wgp_loop_parent(const wgp_loop *l) { return l->parent; }
unsigned wgp_loop_depth(const wgp_loop *l) { return l->depth; }
size_t wgp_loop_num_blocks(const wgp_loop *l) { return l->nblocks; }
size_t wgp_loop_block(const wgp_loop *l, size_t i) { return i < l->nblocks ? l->blocks[i] : 0; }
bool wgp_loop_contains(const wgp_loop *l, size_t block) { return wgp_ids_contain(l->blocks, l->nblocks, block); }
size_t wgp_loop_num_latches(const wgp_loop *l) { return l->nlatches; }
size_t wgp_loop_latch(const wgp_loop *l, size_t i) { return i < l->nlatches ? l->latches[i] : 0; }
size_t wgp_loop_num_exiting(const wgp_loop *l) { return l->nexiting; }
size_t wgp_loop_exiting(const wgp_loop *l, size_t i) { return i < l->nexiting ? l->exiting[i] : 0; }
wgp_trip_kind wgp_loop_trip_kind(const wgp_loop *l) { return l->trip; }
const wgp_expr *wgp_loop_backedge_count(const wgp_loop *l) { return l->backedge; }
const wgp_expr *wgp_loop_trip_count(const wgp_loop *l) { return l->trip_count; }
const wgp_expr *wgp_loop_max_trip_count(const wgp_loop *l) { return l->max_trip; }
const char *wgp_loop_reason(const wgp_loop *l) { return l->reason; }
size_t wgp_loop_num_recurrences(const wgp_loop *l) { return l->nrec; }
const wgp_sym *wgp_loop_recurrence(const wgp_loop *l, size_t i, const wgp_expr **init, const wgp_expr **next) {
  if (i >= l->nrec)
    return NULL;
  if (init)
    *init = l->rec[i].init;
  if (next)
    *next = l->rec[i].next;
  return &l->rec[i].sym;
}
size_t wgp_loop_num_exits(const wgp_loop *l) { return l->nexits; }
const wgp_expr *wgp_loop_exit(const wgp_loop *l, size_t i, size_t *block) {
  if (i >= l->nexits)
    return NULL;
  if (block)
    *block = l->exits[i].block;
  return l->exits[i].when;
}
const char *wgp_loop_source(const wgp_loop *l) { return l->source; }

size_t wgp_access_id(const wgp_access *a) { return a->id; }
size_t wgp_access_block(const wgp_access *a) { return a->block; }
wgp_access_kind wgp_access_get_kind(const wgp_access *a) { return a->kind; }
const char *wgp_access_atomic_op(const wgp_access *a) { return a->atomic_op; }
wgp_cache_op wgp_access_cache(const wgp_access *a) { return a->cache; }

wgp_cache_op wgp_access_cache_in_effect(const wgp_kernel *k, const wgp_access *a) {
  /* ptxas' -dlcm and -dscm are of global and generic accesses only */
  if (a->cache != WGP_CACHE_DEFAULT || a->kind == WGP_ACCESS_ATOMIC || !wgp_space_is_global(a->space))
    return a->cache;
  bool load = a->kind == WGP_ACCESS_LOAD;
  wgp_cache_op d = load ? k->load_cache : k->store_cache;
  return d != WGP_CACHE_DEFAULT ? d : load ? WGP_CACHE_CA : WGP_CACHE_WB;
}

bool wgp_access_skips_l1(const wgp_kernel *k, const wgp_access *a) {
  wgp_cache_op op = wgp_access_cache_in_effect(k, a);
  return a->kind == WGP_ACCESS_LOAD && wgp_space_is_global(a->space) && (op == WGP_CACHE_CG || op == WGP_CACHE_CV);
}
bool wgp_cache_op_evicts_first(wgp_cache_op op) { return op == WGP_CACHE_CS || op == WGP_CACHE_LU; }

const char *wgp_cache_op_name(wgp_cache_op op) {
  static const char *const names[] = {"", "ca", "cg", "cs", "lu", "cv", "nc", "wb", "wt"};
  return (size_t)op < sizeof names / sizeof *names ? names[op] : "?";
}
wgp_space wgp_access_space(const wgp_access *a) { return a->space; }
uint64_t wgp_access_bytes(const wgp_access *a) { return a->bytes; }
wgp_base_kind wgp_access_base_kind(const wgp_access *a) { return a->base_kind; }
const char *wgp_access_base_name(const wgp_access *a) { return a->base_name; }
long wgp_access_base_arg(const wgp_access *a) { return a->base_arg; }
const wgp_expr *wgp_access_offset(const wgp_access *a) { return a->offset; }
unsigned wgp_access_load_level(const wgp_access *a) { return a->load_level; }
bool wgp_access_affine(const wgp_access *a) { return a->affine; }
const char *wgp_access_non_affine(const wgp_access *a) { return a->non_affine; }
const char *wgp_access_source(const wgp_access *a) { return a->source; }
