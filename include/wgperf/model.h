/* model.h - a kernel model (docs/kernel-model.md), loaded and validated.
 *
 * wgp_model_load_file checks the whole contract before returning: format and
 * version, every required key and its type, every id (blocks, loops, memory
 * accesses, arguments) in range, a loop nest without cycles, and every
 * expression parsed.  Afterwards the accessors below cannot fail; pointers
 * they return live as long as the model (keep).
 */
#ifndef WGPERF_MODEL_H
#define WGPERF_MODEL_H

#include "wgperf/diag.h"
#include "wgperf/expr.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The model format version this library reads. */
#define WGP_MODEL_VERSION 1

typedef struct wgp_model wgp_model;
typedef struct wgp_kernel wgp_kernel;
typedef struct wgp_arg wgp_arg;
typedef struct wgp_array wgp_array;
typedef struct wgp_block wgp_block;
typedef struct wgp_branch wgp_branch;
typedef struct wgp_loop wgp_loop;
typedef struct wgp_access wgp_access;

typedef enum wgp_space {
  WGP_SPACE_GLOBAL,
  WGP_SPACE_LOCAL,
  WGP_SPACE_CONSTANT,
  WGP_SPACE_PRIVATE,
  WGP_SPACE_GENERIC /* an access through a pointer whose space is unknown */
} wgp_space;

typedef enum wgp_language { WGP_LANG_OPENCL, WGP_LANG_CUDA } wgp_language;
typedef enum wgp_arg_kind { WGP_ARG_POINTER, WGP_ARG_SCALAR } wgp_arg_kind;
typedef enum wgp_branch_kind { WGP_BRANCH_COND, WGP_BRANCH_SWITCH } wgp_branch_kind;
typedef enum wgp_branch_class {
  WGP_BRANCH_UNIFORM,
  WGP_BRANCH_WORK_ITEM,
  WGP_BRANCH_LOOP_VARIABLE,
  WGP_BRANCH_DATA_DEPENDENT
} wgp_branch_class;
/* Bits of wgp_branch_depends. */
#define WGP_DEP_WORK_ITEM 1u
#define WGP_DEP_LOOP 2u
#define WGP_DEP_DATA 4u
typedef enum wgp_trip_kind {
  WGP_TRIP_EXACT,
  WGP_TRIP_DATA_DEPENDENT,
  WGP_TRIP_RECURRENCE,
  WGP_TRIP_MAX,
  WGP_TRIP_UNKNOWN
} wgp_trip_kind;
typedef enum wgp_access_kind { WGP_ACCESS_LOAD, WGP_ACCESS_STORE, WGP_ACCESS_ATOMIC } wgp_access_kind;
/* PTX's cache operators of a global load (ca cg cs lu cv, and nc: the
 * read-only data path) or store (wb cg cs wt); WGP_CACHE_DEFAULT where the
 * instruction has none (docs/kernel-model.md, "Cache operators"). */
typedef enum wgp_cache_op {
  WGP_CACHE_DEFAULT,
  WGP_CACHE_CA,
  WGP_CACHE_CG,
  WGP_CACHE_CS,
  WGP_CACHE_LU,
  WGP_CACHE_CV,
  WGP_CACHE_NC,
  WGP_CACHE_WB,
  WGP_CACHE_WT
} wgp_cache_op;
typedef enum wgp_base_kind {
  WGP_BASE_ARG,
  WGP_BASE_ARRAY,
  WGP_BASE_PRIVATE,
  WGP_BASE_INDIRECT,
  WGP_BASE_UNKNOWN,
  WGP_BASE_SELECT /* one of several pointer arguments, chosen per work-item; name "a|b" */
} wgp_base_kind;

/* Loading.  FILE is also the name used in diagnostics.  On failure *out is
 * NULL, diag (may be NULL) holds "wgperf: error: FILE: ...". */
wgp_status wgp_model_load_file(const char *file, wgp_model **out, wgp_diag *diag);
/* The same from memory; NAME stands for the file in diagnostics. */
wgp_status wgp_model_load_string(const char *text, size_t len, const char *name, wgp_model **out, wgp_diag *diag);
void wgp_model_free(wgp_model *m); /* take; NULL is ignored */

const char *wgp_model_producer(const wgp_model *m);
const char *wgp_model_module(const wgp_model *m);
const char *wgp_model_source_file(const wgp_model *m); /* NULL when unknown */
/* The CUDA headers a .cu file was compiled against ("CUDA 11.8 at DIR (ORIGIN)",
 * "wgperf's stand-ins (...)"); NULL when the model does not say (OpenCL, IR, older models). */
const char *wgp_model_cuda_headers(const wgp_model *m);
const char *wgp_model_target(const wgp_model *m);
size_t wgp_model_num_diagnostics(const wgp_model *m);
const char *wgp_model_diagnostic(const wgp_model *m, size_t i);
size_t wgp_model_num_kernels(const wgp_model *m);
const wgp_kernel *wgp_model_kernel(const wgp_model *m, size_t i);
/* By name, else by IR symbol; NULL when none matches. */
/* By name or IR symbol; also an instance typed without its spaces ("scale<float,256>"),
 * or a template's name when the model has exactly one instance of it. */
const wgp_kernel *wgp_model_find_kernel(const wgp_model *m, const char *name);
/* The kernels that are instances of template NAME ("scale" for "scale<float, 256>"). */
size_t wgp_model_template_instances(const wgp_model *m, const char *name);

/* Kernel. */
const char *wgp_kernel_name(const wgp_kernel *k);
const char *wgp_kernel_symbol(const wgp_kernel *k);
const char *wgp_kernel_signature(const wgp_kernel *k);
wgp_language wgp_kernel_language(const wgp_kernel *k);
const char *wgp_kernel_source(const wgp_kernel *k); /* "file:line" or NULL */
size_t wgp_kernel_num_args(const wgp_kernel *k);
const wgp_arg *wgp_kernel_arg(const wgp_kernel *k, size_t i);
const wgp_arg *wgp_kernel_find_arg(const wgp_kernel *k, const char *name);
size_t wgp_kernel_num_arrays(const wgp_kernel *k);
const wgp_array *wgp_kernel_array(const wgp_kernel *k, size_t i);
const wgp_array *wgp_kernel_find_array(const wgp_kernel *k, const char *name);
size_t wgp_kernel_num_blocks(const wgp_kernel *k); /* at least 1; block 0 is the entry */
const wgp_block *wgp_kernel_block(const wgp_kernel *k, size_t i);
size_t wgp_kernel_num_loops(const wgp_kernel *k);
const wgp_loop *wgp_kernel_loop(const wgp_kernel *k, size_t i);
size_t wgp_kernel_num_accesses(const wgp_kernel *k);
const wgp_access *wgp_kernel_access(const wgp_kernel *k, size_t i);
/* Whether any expression of the model (branch conditions, loop counts, recurrences and
 * exits, access offsets) reads scalar argument NAME: one that none reads cannot change
 * the analysis, so a launch need not give it. */
bool wgp_kernel_uses_arg(const wgp_kernel *k, const char *name);
/* Whether E, or anything the model of K evaluates (as above), reads the
 * symbol of KIND (a work-item id or launch size: LID, GRP, LSZ, NGRP, GID,
 * GSZ, GOFF) in dimension DIM. */
bool wgp_expr_reads_sym(const wgp_expr *e, wgp_sym_kind kind, unsigned dim);
bool wgp_kernel_reads_sym(const wgp_kernel *k, wgp_sym_kind kind, unsigned dim);
/* Whether anything the model evaluates (an address, a branch, a loop)
 * reads the local id in dimension DIM (0..2: threadIdx.x/y/z,
 * get_local_id(DIM), or the global id of that dimension), or a lane id that
 * mixes the dimensions, or the kernel calls something left unmodelled.  When
 * not, threads of a work-group that differ only in DIM do the same work. */
bool wgp_kernel_reads_local_id(const wgp_kernel *k, unsigned dim);
/* Whether the kernel's control flow (branches, loop counts, exits and
 * recurrences) reads the local id, the group id, the local size or the group
 * count of dimension DIM only through that dimension's global id (gid, or
 * grp x lsz + lid), and no lane id or unmodelled call: then a
 * work-item's path is the same whatever the work-group size, and two sizes
 * that fill the same warps run the same code (wgprune's idle-lane rule).  Not
 * so for a kernel whose threads take roles by their local id
 * (threadIdx.x < 16), loop over their group (k < blockDim.x) or stride by
 * the grid. */
bool wgp_kernel_paths_by_global_id(const wgp_kernel *k, unsigned dim, const char **where);
/* (WHERE, may be NULL: when not, the source "file:line" of the first branch,
 * loop or call that reads them, NULL where the model has none.) */
size_t wgp_kernel_num_calls(const wgp_kernel *k);
/* Unresolved call I: its block, callee and reason (any pointer may be NULL). */
void wgp_kernel_call(const wgp_kernel *k, size_t i, size_t *block, const char **callee, const char **reason);
const char *wgp_kernel_call_source(const wgp_kernel *k, size_t i); /* "file:line" or NULL */
size_t wgp_kernel_num_static_counts(const wgp_kernel *k);
uint64_t wgp_kernel_static_count(const wgp_kernel *k, size_t i, const char **cost_class);
bool wgp_kernel_irreducible(const wgp_kernel *k);
/* Registers per thread estimated from IR liveness (docs/kernel-model.md). */
unsigned wgp_kernel_register_pressure(const wgp_kernel *k);
/* Bytes of the kernel's fixed-size __local / __shared__ arrays (static
 * shared memory; dynamic arrays and __local arguments come from the launch). */
uint64_t wgp_kernel_static_local_bytes(const wgp_kernel *k);
/* Registers per thread from ptxas (the optional 'registers' of the model,
 * added by `wgperf extract` where a CUDA toolkit exists), 0 when absent;
 * SOURCE (may be NULL) receives where the count comes from. */
unsigned wgp_kernel_registers(const wgp_kernel *k, const char **source);
/* What NVIDIA's compiler made of the kernel for one GPU architecture (the
 * optional 'resources' of the model, docs/kernel-model.md): registers per
 * thread, the stack frame per thread (local arrays and spill slots), the
 * bytes of spill store and load instructions in its code, static shared
 * memory, and the bytes of its machine code (0: unknown). */
typedef struct wgp_kernel_resources {
  unsigned arch; /* compute capability as 10 x major + minor: sm_86 is 86 */
  unsigned registers;
  uint64_t stack_bytes, spill_store_bytes, spill_load_bytes, shared_bytes, code_bytes;
  bool from_source;   /* nvcc on the kernel's source; false: ptxas on llc-19's PTX */
  const char *source; /* "nvcc --resource-usage (CUDA 13.0, sm_86)" */
} wgp_kernel_resources;
size_t wgp_kernel_num_resources(const wgp_kernel *k);
const wgp_kernel_resources *wgp_kernel_resources_at(const wgp_kernel *k, size_t i);
/* The entry for architecture ARCH (86), else the nearest one: of the same
 * major version first, then the closest; NULL when there is none.  *EXACT
 * (may be NULL) says whether it is ARCH's own. */
const wgp_kernel_resources *wgp_kernel_resources_for(const wgp_kernel *k, unsigned arch, bool *exact);
size_t wgp_kernel_num_diagnostics(const wgp_kernel *k);
const char *wgp_kernel_diagnostic(const wgp_kernel *k, size_t i);
/* The launch attributes (the optional 'launch_attributes' of the model;
 * docs/kernel-model.md).  reqd_work_group_size: the one work-group size the
 * kernel may be launched with (OpenCL's reqd_work_group_size(X,Y,Z)), false
 * when the source gives none.  max_threads_per_block: the most work-items a
 * group may have (CUDA's __launch_bounds__(MAXT, ...)), 0 when none;
 * min_blocks_per_sm: __launch_bounds__' MINB, 0 when none.  attribute: the
 * attribute as the source spells it ("__launch_bounds__(256, 2)"), NULL
 * when there is none. */
bool wgp_kernel_reqd_work_group_size(const wgp_kernel *k, uint64_t size[3]);
uint64_t wgp_kernel_max_threads_per_block(const wgp_kernel *k);
uint64_t wgp_kernel_min_blocks_per_sm(const wgp_kernel *k);
const char *wgp_kernel_launch_attribute(const wgp_kernel *k);
/* nvcc's -maxrregcount N the kernel was compiled with (the driver records it
 * as launch_attributes.max_registers_per_thread), 0 when none: NVIDIA's
 * compiler keeps every kernel to N registers per thread, spilling the rest. */
unsigned wgp_kernel_max_registers_per_thread(const wgp_kernel *k);
/* ptxas' -dlcm / -dscm the kernel was compiled with (the driver records
 * them as launch_attributes.global_load_cache / global_store_cache): the
 * cache operator of the global loads and stores that have none of their
 * own; WGP_CACHE_DEFAULT when none was given. */
wgp_cache_op wgp_kernel_global_load_cache(const wgp_kernel *k);
wgp_cache_op wgp_kernel_global_store_cache(const wgp_kernel *k);
/* Whether LOCAL (unused dimensions 1) satisfies the launch attributes;
 * when not, WHY (SIZE bytes, may be NULL) says which and how, e.g.
 * "kernel 'tile' requires work-groups of 16x16x1 (reqd_work_group_size(16,
 * 16, 1)), got 8x8x1". */
bool wgp_kernel_allows_local_size(const wgp_kernel *k, const uint64_t local[3], char *why, size_t size);

/* Argument. */
size_t wgp_arg_index(const wgp_arg *a);
const char *wgp_arg_name(const wgp_arg *a);
const char *wgp_arg_type(const wgp_arg *a);
wgp_arg_kind wgp_arg_get_kind(const wgp_arg *a);
wgp_space wgp_arg_space(const wgp_arg *a);
uint64_t wgp_arg_elem_bytes(const wgp_arg *a); /* pointers: element size (0 when unknown) */
uint64_t wgp_arg_bytes(const wgp_arg *a);      /* scalars: size */
const char *wgp_arg_elem_bytes_from(const wgp_arg *a); /* pointers: "type", "accesses", "unknown"; else NULL */
bool wgp_arg_is_const(const wgp_arg *a);
/* Scalars, from the type's name (source names such as "unsigned int",
 * "size_t", "uint", "float", or IR names such as "i32"): whether the type is
 * floating point (float, double, half, bfloat16), and whether it is an
 * unsigned integer type.  An IR integer type or an unknown typedef is
 * neither (taken as a signed integer). */
bool wgp_arg_is_floating(const wgp_arg *a);
bool wgp_arg_is_unsigned(const wgp_arg *a);

/* Static array. */
const char *wgp_array_name(const wgp_array *a);
/* The name a user calls array A by: its name without the kernel's prefix
 * ("kernel::buf" in CUDA, "kernel.buf" in OpenCL: "buf"). */
const char *wgp_array_short_name(const wgp_array *a);
wgp_space wgp_array_space(const wgp_array *a);
uint64_t wgp_array_bytes(const wgp_array *a);
uint64_t wgp_array_elem_bytes(const wgp_array *a);
size_t wgp_array_num_dims(const wgp_array *a);
uint64_t wgp_array_dim(const wgp_array *a, size_t i); /* outermost first */
bool wgp_array_initialized(const wgp_array *a);

/* Basic block. */
size_t wgp_block_id(const wgp_block *b);
const char *wgp_block_name(const wgp_block *b);
const char *wgp_block_source(const wgp_block *b);
long wgp_block_loop(const wgp_block *b); /* innermost loop id, -1 outside loops */
size_t wgp_block_num_counts(const wgp_block *b);
/* Count I in cost-class order (the model's key order); the class in *cost_class. */
uint64_t wgp_block_count(const wgp_block *b, size_t i, const char **cost_class);
uint64_t wgp_block_count_of(const wgp_block *b, const char *cost_class); /* 0 when absent */
/* The same with REDUCED: the counts after loop strength reduction (the
 * block's strength_reduced: the address arithmetic removed, one 64-bit
 * pointer add, class addr, per stream added), what a compiler that does it
 * executes; the counts themselves in blocks without it. */
size_t wgp_block_num_counts_in(const wgp_block *b, bool reduced);
uint64_t wgp_block_count_in(const wgp_block *b, bool reduced, size_t i, const char **cost_class);
uint64_t wgp_block_count_of_in(const wgp_block *b, bool reduced, const char *cost_class);
size_t wgp_block_num_succs(const wgp_block *b);
size_t wgp_block_succ(const wgp_block *b, size_t i);
size_t wgp_block_num_back_edges(const wgp_block *b);
size_t wgp_block_back_edge(const wgp_block *b, size_t i);
bool wgp_block_is_back_edge(const wgp_block *b, size_t succ_block);
size_t wgp_block_num_accesses(const wgp_block *b);
size_t wgp_block_access(const wgp_block *b, size_t i); /* access id, program order */
bool wgp_block_is_exit(const wgp_block *b);
const wgp_branch *wgp_block_branch(const wgp_block *b); /* NULL for unconditional */

/* Branch. */
wgp_branch_kind wgp_branch_get_kind(const wgp_branch *br);
const wgp_expr *wgp_branch_cond(const wgp_branch *br);
const char *wgp_branch_cond_text(const wgp_branch *br);
wgp_branch_class wgp_branch_get_class(const wgp_branch *br);
unsigned wgp_branch_depends(const wgp_branch *br); /* WGP_DEP_* bits */
size_t wgp_branch_num_targets(const wgp_branch *br);
size_t wgp_branch_target(const wgp_branch *br, size_t i);
int64_t wgp_branch_case_value(const wgp_branch *br, size_t i); /* switch: value of target i + 1 */
const char *wgp_branch_source(const wgp_branch *br);

/* Loop. */
size_t wgp_loop_id(const wgp_loop *l);
size_t wgp_loop_header(const wgp_loop *l);
long wgp_loop_parent(const wgp_loop *l); /* -1 at top level */
unsigned wgp_loop_depth(const wgp_loop *l);
size_t wgp_loop_num_blocks(const wgp_loop *l);
size_t wgp_loop_block(const wgp_loop *l, size_t i);
bool wgp_loop_contains(const wgp_loop *l, size_t block);
size_t wgp_loop_num_latches(const wgp_loop *l);
size_t wgp_loop_latch(const wgp_loop *l, size_t i);
size_t wgp_loop_num_exiting(const wgp_loop *l);
size_t wgp_loop_exiting(const wgp_loop *l, size_t i);
wgp_trip_kind wgp_loop_trip_kind(const wgp_loop *l);
const wgp_expr *wgp_loop_backedge_count(const wgp_loop *l); /* NULL when absent */
const wgp_expr *wgp_loop_trip_count(const wgp_loop *l);     /* NULL when absent */
const wgp_expr *wgp_loop_max_trip_count(const wgp_loop *l); /* NULL when absent */
const char *wgp_loop_reason(const wgp_loop *l);             /* NULL when exact */
size_t wgp_loop_num_recurrences(const wgp_loop *l);
/* Recurrence I: its symbol (rv.L<loop>.<k>), initial and next value. */
const wgp_sym *wgp_loop_recurrence(const wgp_loop *l, size_t i, const wgp_expr **init, const wgp_expr **next);
size_t wgp_loop_num_exits(const wgp_loop *l);
const wgp_expr *wgp_loop_exit(const wgp_loop *l, size_t i, size_t *block); /* the exit_when condition */
const char *wgp_loop_source(const wgp_loop *l);

/* Memory access. */
size_t wgp_access_id(const wgp_access *a);
size_t wgp_access_block(const wgp_access *a);
wgp_access_kind wgp_access_get_kind(const wgp_access *a);
const char *wgp_access_atomic_op(const wgp_access *a); /* NULL unless atomic */
/* The access's own cache operator (the model's 'cache'), WGP_CACHE_DEFAULT
 * when it has none; wgp_access_cache_in_effect: the one a global access runs
 * with in kernel K, its own, else K's -dlcm/-dscm, else ca (loads) or wb
 * (stores); WGP_CACHE_DEFAULT for an atomic or an access of another space. */
wgp_cache_op wgp_access_cache(const wgp_access *a);
wgp_cache_op wgp_access_cache_in_effect(const wgp_kernel *k, const wgp_access *a);
/* Where access A of kernel K leaves its line, by the operator it runs with:
 * skips L1 when it is a global load that neither looks in nor allocates in
 * L1 (cg, cv: L2 only); evicted first for cs and lu (streaming, in L1 and
 * L2). */
bool wgp_access_skips_l1(const wgp_kernel *k, const wgp_access *a);
bool wgp_cache_op_evicts_first(wgp_cache_op op);
const char *wgp_cache_op_name(wgp_cache_op op); /* "cg"; "" for the default */
wgp_space wgp_access_space(const wgp_access *a);
uint64_t wgp_access_bytes(const wgp_access *a);
wgp_base_kind wgp_access_base_kind(const wgp_access *a);
const char *wgp_access_base_name(const wgp_access *a); /* NULL when none */
long wgp_access_base_arg(const wgp_access *a);         /* argument index, -1 when none */
const wgp_expr *wgp_access_offset(const wgp_access *a); /* NULL when not computable */
bool wgp_access_affine(const wgp_access *a);
/* For a load (not private): 0 when its address reads no value loaded earlier in its
 * block, else one more than the deepest such load's level (a gather x[col[j]] waits
 * for col[j]); 0 for other accesses. Computed when the model is loaded. */
unsigned wgp_access_load_level(const wgp_access *a);
const char *wgp_access_non_affine(const wgp_access *a); /* NULL when affine */
const char *wgp_access_source(const wgp_access *a);

/* Global memory, or a generic pointer (taken as global: what the caches
 * and DRAM see). */
bool wgp_space_is_global(wgp_space s);

/* Names of the enums as the model writes them ("global", "data-dependent", ...). */
const char *wgp_space_name(wgp_space s);
const char *wgp_language_name(wgp_language l);
const char *wgp_branch_class_name(wgp_branch_class c);
const char *wgp_trip_kind_name(wgp_trip_kind t);
const char *wgp_access_kind_name(wgp_access_kind k);
const char *wgp_base_kind_name(wgp_base_kind k);

#ifdef __cplusplus
}
#endif

#endif
