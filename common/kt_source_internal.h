/* kt_source_internal.h - a configuration's kernel text as Kernel Tuner
 * prepares it (kt_source.c; libwgperf_common, and plain C that the timing
 * harnesses build beside tools/plan_file.c on a lent GPU machine).
 *
 * Kernel Tuner (kernel_tuner/util.py, prepare_kernel_string) compiles a
 * configuration as a prefix of #defines followed by the kernel's text:
 * grid_size_x/y/z (the grid, in blocks), block_size_x/y/z (the block), every
 * tuning parameter (the block's names take a parameter's value where one has
 * them), kernel_tuner 1, then `#line 1`.  For CUDA, a parameter whose name
 * holds "loop_unroll_factor" is `constexpr int NAME = VALUE;` instead (what
 * nvcc's #pragma unroll takes; it does not expand a macro there), and at 0
 * the kernel's `#pragma unroll NAME` is taken out, leaving the compiler's own
 * unrolling.  wgtune gives the same definitions through a header
 * (tune/defines.c); the harnesses write the prefix itself (kt_source).
 */
#ifndef WGPERF_COMMON_KT_SOURCE_INTERNAL_H
#define WGPERF_COMMON_KT_SOURCE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

/* The names Kernel Tuner defines for the grid (in blocks) and the block. */
extern const char *const kt_grid_names[3];
extern const char *const kt_block_names[3];

/* Whether C may be in an identifier; P past the blanks (spaces, tabs) before END. */
bool kt_ident_char(char c);
const char *kt_blanks(const char *p, const char *end);

/* Whether Kernel Tuner's loop_unroll_factor rules hold for parameter NAME. */
bool kt_unroll_param(const char *name, bool cuda);

/* TEXT (LEN bytes) with `#pragma unroll NAME` taken out of the lines that
 * begin with it (after blanks), for each of NAMES (matched whole: Kernel
 * Tuner's pattern also takes a longer name that begins with it); what follows
 * NAME on the line stays, and every line is kept, so line numbers stay the
 * file's.  malloc'd, its length into *OUT_LEN; NULL when out of memory. */
char *kt_strip_unroll_names(const char *text, size_t len, const char *const *names, size_t num_names, size_t *out_len);

/* The kernel text of one configuration: Kernel Tuner's prefix (above) for
 * parameters NAMES = VALUES, the grid GRID (blocks) and block BLOCK, then TEXT
 * with the pragmas of CUDA's loop_unroll_factor parameters at 0 taken out.
 * malloc'd (NUL-terminated); NULL when out of memory. */
char *kt_source(const char *text, const char *const *names, const char *const *values, size_t num_params,
                const size_t grid[3], const size_t block[3], bool cuda);

#endif
