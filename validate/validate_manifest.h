/* validate_manifest.h - how a measurement row becomes a kernel build and its
 * launches: the manifest of wgperf-validate (format: docs/validation.md;
 * the shipped one is validation/kernels/manifest.json).
 *
 * Per kernel name (the CSV's `kernel` column): which source to compile (and
 * its OpenCL twin), which macros come from the row, the scalar arguments,
 * buffer and __local sizes as expressions of the row (validate_expr.h), an
 * optional sequence of launches per measured run (nested loops, e.g. bitonic's
 * k and j), and hints for control flow that depends on loaded data.
 * Variables in expressions: input_size and the manifest's name for it
 * ("size": "W"), block_x/y/z, grid_x/y/z, and the loop variables of
 * "launches" (in the loops after theirs, the arguments and the hints).
 */
#ifndef WGPERF_VALIDATE_MANIFEST_H
#define WGPERF_VALIDATE_MANIFEST_H

#include "validate_expr.h"
#include "wgperf/diag.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define VM_MAX_VARS 16
#define VM_MAX_LAUNCHES 4096

typedef struct vm_manifest vm_manifest;
typedef struct vm_kernel vm_kernel;

/* The row values a plan is made from. */
typedef struct vm_row {
  int64_t input_size;
  int64_t grid[3], block[3];
} vm_row;

/* One launch: the values of the sequence's loop variables, for evaluating
 * arguments and hints. */
typedef struct vm_launch {
  vx_var vars[VM_MAX_VARS];
  size_t nvars;
} vm_launch;

wgp_status vm_load_file(const char *file, vm_manifest **out, wgp_diag *diag);
wgp_status vm_load_string(const char *text, const char *name, const char *dir, vm_manifest **out, wgp_diag *diag);
void vm_free(vm_manifest *m);

const char *vm_file(const vm_manifest *m);
size_t vm_num_kernels(const vm_manifest *m);
const vm_kernel *vm_kernel_at(const vm_manifest *m, size_t i);
const vm_kernel *vm_find(const vm_manifest *m, const char *name);

const char *vm_kernel_name(const vm_kernel *k);     /* the CSV's kernel name */
const char *vm_kernel_function(const vm_kernel *k); /* the function in the source */
/* The source to compile: its path (relative ones resolved against the
 * manifest's folder); OPENCL picks the twin, NULL when there is none. */
const char *vm_kernel_source(const vm_kernel *k, bool opencl);

/* Macros for the row: "NAME=VALUE" strings, in manifest order, written into
 * FLAGS (up to MAX, each FLAG_SIZE bytes); the count, or -1 with ERR filled. */
int vm_macros(const vm_kernel *k, const vm_row *row, char (*flags)[64], int max, char *err, size_t errsize);

/* The launches of one measured run (1 without "launches"): fills OUT (up to
 * MAX) and returns the count, or -1 with ERR filled. */
int vm_launches(const vm_kernel *k, const vm_row *row, vm_launch *out, int max, char *err, size_t errsize);

/* Scalar arguments, buffers and __local sizes as launch options for launch L
 * ("--arg", "W=1024"), up to MAX pairs: the count, or -1 with ERR filled. */
int vm_launch_options(const vm_kernel *k, const vm_row *row, const vm_launch *l, char (*opt)[2][96], int max,
                      char *err, size_t errsize);

/* Hints for launch L, resolved against the kernel model by the caller:
 * loop / block selectors ("L2", "B3", or "line:34" for the first loop /
 * branch block whose source is on line 34) and their values. OPENCL: for the
 * OpenCL twin, whose lines and blocks differ: "opencl_trip" and "opencl_taken"
 * where the kernel has them, else "trip" and "taken". */
size_t vm_num_trip_hints(const vm_kernel *k, bool opencl);
const char *vm_trip_hint(const vm_kernel *k, bool opencl, size_t i, const vm_row *row, const vm_launch *l,
                         int64_t *count, char *err, size_t errsize); /* the selector; NULL with ERR on failure */
size_t vm_num_taken_hints(const vm_kernel *k, bool opencl);
const char *vm_taken_hint(const vm_kernel *k, bool opencl, size_t i, double *fraction);

#endif
