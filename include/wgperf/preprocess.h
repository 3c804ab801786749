/* preprocess.h - a kernel source preprocessed as wgp_extract would compile it
 * (driver/preprocess.c).
 *
 * `clang -E` with the language options, compatibility headers, -O level
 * and flags of wgp_extract (driver.h): two sources whose outputs are equal
 * compile to the same kernel model, which is how wgtune finds the
 * configurations of a space that are one code (tune.h).  Like wgp_extract it
 * runs clang through fork/execvp; clang's messages are returned, not
 * printed.
 */
#ifndef WGPERF_PREPROCESS_H
#define WGPERF_PREPROCESS_H

#include "wgperf/driver.h"

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct wgp_preprocessed {
  char *text;   /* the preprocessed source (NUL-terminated) */
  size_t len;
  char **deps;  /* the files the preprocessor read (the source, its includes, the headers) */
  size_t ndeps;
  char *log;    /* what clang said on stderr ("" when nothing) */
} wgp_preprocessed;

/* Preprocesses FILE as KIND (WGP_SOURCE_OPENCL or WGP_SOURCE_CUDA; OPTS as
 * for wgp_extract: its olevel and flags) into OUT (free with
 * wgp_preprocessed_free, also after a failure).  A source clang rejects
 * fails with WGP_ERR_INPUT and "wgperf: error: FILE: " followed by clang's
 * first error line; OUT->log then holds all it said. */
wgp_status wgp_preprocess(const char *file, wgp_source_kind kind, const wgp_extract_options *opts,
                          wgp_preprocessed *out, wgp_diag *diag);
void wgp_preprocessed_free(wgp_preprocessed *p);

/* The first line of LOG that reports an error (clang's "file:line:col:
 * error: ...", or ptxas' "ptxas error : ..."), without its trailing newline,
 * into BUF; the first nonempty line when none does; false when LOG is empty. */
bool wgp_first_error_line(const char *log, char *buf, size_t size);

/* What identifies the tools the driver runs, for cache keys: the clang it
 * runs and its version, the plugin (path, size, modification time) and the
 * ptxas it would use (path and version, or none). */
wgp_status wgp_driver_identity(char **out, wgp_diag *diag);

#ifdef __cplusplus
}
#endif

#endif
