/* defines_internal.h - a configuration's definitions as Kernel Tuner gives
 * them to its kernel (defines.c; tune/ only). */
#ifndef WGPERF_TUNE_DEFINES_INTERNAL_H
#define WGPERF_TUNE_DEFINES_INTERNAL_H

#include "space_internal.h"

#include <stdint.h>

/* The stand-ins' prefix: -D__wgtune_NAME=VALUE gives NAME its value. */
#define KT_STANDIN "__wgtune_"

/* At most this many parameters whose names hold "loop_unroll_factor". */
#define KT_MAX_UNROLL 32

/* The header of S's definitions (every name to its stand-in; in CUDA the
 * loop_unroll_factor parameters as constexpr ints) as a file of DIR named by
 * its content, its path into OUT.  Fails on more than KT_MAX_UNROLL
 * loop_unroll_factor parameters (naming the space) or a folder that cannot
 * be written. */
wgp_status kt_header(const wgp_tune_space *s, const char *dir, char *out, size_t size, wgp_diag *diag);

/* How many -D flags kt_defines gives for S. */
size_t kt_num_defines(const wgp_tune_space *s);

/* The stand-ins' values of configuration V launched as L, as malloc'd
 * -D__wgtune_NAME=VALUE strings into OUT (room for kt_num_defines(S)); false
 * when out of memory (nothing left allocated). */
bool kt_defines(const wgp_tune_space *s, const uint16_t *v, const wgp_tune_launch *l, char **out);

/* CUDA: bit J set when the J-th loop_unroll_factor parameter (in the space's
 * order) is 0 in V, whose `#pragma unroll NAME` Kernel Tuner removes; 0 for
 * OpenCL. */
uint32_t kt_unroll_zeros(const wgp_tune_space *s, const uint16_t *v);

/* TEXT (LEN bytes) with the `#pragma unroll NAME` of the loop_unroll_factor
 * parameters of MASK taken out of the lines that begin with them (what
 * follows NAME on the line stays), every line kept: malloc'd, its length into
 * *OUT_LEN; NULL when out of memory. */
char *kt_strip_unroll(const wgp_tune_space *s, uint32_t mask, const char *text, size_t len, size_t *out_len);

/* What the #pragma lines of preprocessed TEXT (LEN bytes) read of
 * configuration V launched as L, which the text does not show: clang -E
 * writes a loop pragma's tokens unexpanded (`#pragma unroll UNROLL`), so two
 * configurations whose texts are equal may compile differently.  For each
 * identifier of a loop pragma (`#pragma unroll`, `nounroll`,
 * `unroll_and_jam`, `clang loop`) other than the pragma's own words: the
 * configuration name's "NAME=VALUE", or, for a name that is none (a macro of
 * the kernel's, which may stand for one), every name's.  A malloc'd string
 * to hash with the text ("" when no pragma reads anything); NULL when out
 * of memory. */
char *kt_pragma_key(const wgp_tune_space *s, const uint16_t *v, const wgp_tune_launch *l, const char *text, size_t len);

/* TEXT with the configuration names its loop pragmas read replaced by their
 * values (`#pragma unroll UNROLL` -> `#pragma unroll 4`): what the compile
 * reads when it is given the preprocessed text, whose pragmas no -D reaches.
 * malloc'd, its length into *OUT_LEN; NULL when no pragma reads a name (or out
 * of memory): the text as it is.  A pragma that also reads a macro of the
 * kernel's keeps it (that text does not compile; the source does). */
char *kt_expand_pragmas(const wgp_tune_space *s, const uint16_t *v, const wgp_tune_launch *l, const char *text,
                        size_t len, size_t *out_len);

#endif
