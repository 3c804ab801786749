/* launch.h - a kernel launch as a user gives it.
 *
 * The same names on the command line and in a JSON file:
 *   --global 1024,1024  --local 16,16  [--offset 0,0]
 *   --arg N=1024  --buffer A=4MiB  --buffer B=1048576@512  --local-mem tile=4096
 *   (--local-mem sizes __local pointer arguments and CUDA's dynamic
 *   `extern __shared__` arrays, the third <<<>>> launch parameter)
 *   [--nonuniform]
 *   CUDA users may write --grid X[,Y[,Z]] --block X[,Y[,Z]] instead: the
 *   global size is then grid x block (JSON: "grid", "block"), the shorter
 *   of the two padded with 1s as CUDA's dim3 is (--grid 8,8192 --block 256).
 *   --global and --local give the same number of sizes, as OpenCL does.
 *   {"global": [1024, 1024], "local": [16, 16], "offset": [0, 0],
 *    "args": {"N": 1024}, "buffers": {"A": "4MiB", "B": {"bytes": 1048576, "align": 512}},
 *    "local_mem": {"tile": 4096}, "nonuniform": false}
 * Sizes are bytes, with an optional binary suffix (K/KiB, M/MiB, G/GiB).
 * By default the global size must be a multiple of the local size in every
 * dimension (OpenCL 1.2 uniform work-groups); nonuniform allows a smaller
 * last group.
 */
#ifndef WGPERF_LAUNCH_H
#define WGPERF_LAUNCH_H

#include "wgperf/diag.h"
#include "wgperf/model.h"
#include "wgperf/trace.h"
#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct wgp_launch wgp_launch;

wgp_launch *wgp_launch_new(void); /* NULL when out of memory */
void wgp_launch_free(wgp_launch *l);
/* One command-line option (NAME without its value, e.g. "--global") and its
 * VALUE (NULL for --nonuniform).  Returns WGP_ERR_INPUT for a bad value. */
wgp_status wgp_launch_set_option(wgp_launch *l, const char *name, const char *value, wgp_diag *diag);
/* Whether NAME is one of the options above and whether it takes a value. */
bool wgp_launch_is_option(const char *name, bool *takes_value);
/* Reads a JSON launch FILE (its name appears in every error). */
wgp_status wgp_launch_load_file(const char *file, wgp_launch **out, wgp_diag *diag);
wgp_status wgp_launch_load_string(const char *text, const char *name, wgp_launch **out, wgp_diag *diag);

/* Checks the launch (sizes, divisibility) and that it fits KERNEL: every
 * scalar argument has a value, every name exists, __local pointer arguments
 * and dynamic shared arrays (CUDA `extern __shared__`, size 0 in the model)
 * have a size, values fit their type: an integer argument has an integer
 * (an exact one written with an exponent, "1e6", counts as that integer),
 * an unsigned one no negative value.  The GPU's limits and the kernel's
 * launch attributes are checked by the analysis (wgp_analyze).  Fills OUT (its lookup resolves the
 * arguments; keep L alive while it is used), BUFFER_ALIGN per argument index
 * (wgp_kernel_num_args entries) and LOCAL_BYTES: per argument index, then
 * per static array index (wgp_kernel_num_args + wgp_kernel_num_arrays
 * entries; the size of a dynamic array, 0 for the others). */
wgp_status wgp_launch_bind(const wgp_launch *l, const wgp_kernel *kernel, wgp_trace_launch *out,
                           uint64_t *buffer_align, uint64_t *local_bytes, wgp_diag *diag);

unsigned wgp_launch_dims(const wgp_launch *l);
uint64_t wgp_launch_global(const wgp_launch *l, unsigned d);
uint64_t wgp_launch_local(const wgp_launch *l, unsigned d);
bool wgp_launch_nonuniform(const wgp_launch *l);
size_t wgp_launch_num_args(const wgp_launch *l);
const char *wgp_launch_arg(const wgp_launch *l, size_t i, int64_t *value);
/* Argument I's value as given, fraction included ("--arg a=2.5": 2.5, where
 * wgp_launch_arg gives the integer part the analyzer uses). */
double wgp_launch_arg_real(const wgp_launch *l, size_t i);
size_t wgp_launch_num_buffers(const wgp_launch *l);
const char *wgp_launch_buffer(const wgp_launch *l, size_t i, uint64_t *bytes, uint64_t *align);
/* BYTES[i]: the size --buffer gives kernel K's argument I, 0 where none
 * is given (wgp_kernel_num_args entries). */
void wgp_launch_buffer_sizes(const wgp_launch *l, const wgp_kernel *k, uint64_t *bytes);
/* __local buffers given a size (--local-mem NAME=BYTES, JSON local_mem). */
size_t wgp_launch_num_local_mem(const wgp_launch *l);
const char *wgp_launch_local_mem(const wgp_launch *l, size_t i, uint64_t *bytes);

/* "4MiB" -> 4194304; false on a malformed size. */
bool wgp_parse_size(const char *text, uint64_t *out);

#ifdef __cplusplus
}
#endif

#endif
