/* ccserver.h - clang kept running between compiles (driver/cc_client.c and
 * the wgperf-cc program, driver/cc_server.cpp).
 *
 * Starting clang costs about 0.15 s of CPU here (loading and relocating
 * libLLVM and libclang-cpp): as much as preprocessing a kernel, a fifth of
 * compiling one.  A tool that compiles thousands of variants of a kernel
 * (wgtune) keeps one wgperf-cc per worker process and sends it the command
 * lines wgp_preprocess and wgp_extract would run; the results are the same.
 * wgp_ccs_extract covers the compile of wgp_extract without ptxas (no CUDA
 * toolkit, or WGPERF_PTXAS= set): with ptxas, use wgp_extract, whose
 * register count takes more processes.
 */
#ifndef WGPERF_CCSERVER_H
#define WGPERF_CCSERVER_H

#include "wgperf/preprocess.h"

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct wgp_ccs wgp_ccs;

/* Starts wgperf-cc ($WGPERF_CC, else the build's, else beside the running
 * program).  *OUT is NULL (and WGP_OK returned) when there is none: callers
 * then run clang as a process. */
wgp_status wgp_ccs_start(wgp_ccs **out, wgp_diag *diag);
void wgp_ccs_stop(wgp_ccs *s);
/* False once the server has died (a crash inside clang) or could not be
 * talked to: the caller stops it and starts another, or runs processes. */
bool wgp_ccs_alive(const wgp_ccs *s);

/* Whether the last compile loaded a precompiled header of its text's
 * beginning (the -include files' part, made when the same beginning under the
 * same options comes a second time: wgperf-cc, driver/cc_server.cpp). */
bool wgp_ccs_precompiled(const wgp_ccs *s);

/* CPU the server has used so far, ms (it is not a child the caller waited for). */
double wgp_ccs_cpu_ms(const wgp_ccs *s);

/* wgp_preprocess, in the server. */
wgp_status wgp_ccs_preprocess(wgp_ccs *s, const char *file, wgp_source_kind kind, const wgp_extract_options *opts,
                              wgp_preprocessed *out, wgp_diag *diag);
/* wgp_extract without ptxas, in the server: the kernel model of FILE to OUT
 * (through a temporary file renamed when complete), clang's messages in
 * *LOG (give; may be empty).  Fails as wgp_extract does; with
 * WGP_ERR_IO and wgp_ccs_alive false when the server died.  With
 * OPTS->preprocessed (wgp_preprocess's text of FILE with the same OPTS, in a
 * file) clang compiles that text instead of preprocessing FILE again: the
 * same model, but clang's messages quote the preprocessed lines (macros
 * expanded, so columns may differ): a caller showing them compiles FILE
 * again without it. */
wgp_status wgp_ccs_extract(wgp_ccs *s, const char *file, wgp_source_kind kind, const wgp_extract_options *opts,
                           const char *out, char **log, wgp_diag *diag);

#ifdef __cplusplus
}
#endif

#endif
