/* driver_internal.h - what preprocess.c and cc_client.c share (driver/ only). */
#ifndef WGPERF_DRIVER_INTERNAL_H
#define WGPERF_DRIVER_INTERNAL_H

#include "wgperf/driver.h"
#include "wgperf/preprocess.h"

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

/* The strings drv_cuda_flags' flags point to. */
typedef struct drv_cuda_args {
  char header[PATH_MAX], hostdir[PATH_MAX + 8], cuda_path[WGP_CUDA_PATH_SIZE + 16], sdk[40];
  char include[WGP_CUDA_PATH_SIZE + 16]; /* the toolkit's include/ folder */
  /* "WGPERF_CUDA_HEADERS=" and which headers these are ("CUDA 11.8 at DIR (ORIGIN)",
   * "wgperf's stand-ins (...)"): the environment of the compile, whose pass plugin
   * writes the text into the model as "cuda_headers" */
  char headers_env[WGP_CUDA_PATH_SIZE + 128];
} drv_cuda_args;

/* A command line and the strings it points to. */
typedef struct drv_argv {
  const char **v; /* NULL-terminated; give: free(v) */
  size_t n;
  char header[PATH_MAX], hostdir[PATH_MAX + 8], oflag[8];
  drv_cuda_args cuda; /* a CUDA source's (drv_cuda_flags) */
} drv_argv;

const char *drv_clang_path(void);
/* Sends the printf-style message to O's callback, if any (extract.c). */
void drv_message(const wgp_extract_options *o, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
bool drv_is_file(const char *p);
bool drv_beside_exe(const char *rel, char *buf, size_t size);
/* include/wgperf/NAME where extract.c finds it. */
bool drv_find_header(const char *name, char *buf, size_t size);
/* clang -E of FILE as wgp_extract would compile it, its output to OUTPUT
 * ("-": stdout), its dependencies to DEPFILE. */
wgp_status drv_preprocess_argv(const char *file, wgp_source_kind kind, const wgp_extract_options *opts,
                               const char *depfile, const char *output, drv_argv *out, wgp_diag *diag);
/* The clang flags that make FILE (CUDA) a device-side compile, appended to V
 * at *N (at most 20), their strings in B: against the real CUDA headers of
 * the toolkit wgp_find_cuda_toolkit finds, as nvcc compiles it, else against
 * wgperf's stand-ins, with a warning to O's message callback.  extract.c,
 * preprocess.c and cc_client.c all compile CUDA so. */
wgp_status drv_cuda_flags(const char *file, const wgp_extract_options *o, const char **v, size_t *n,
                          drv_cuda_args *b, wgp_diag *diag);
/* The ptxas of the CUDA 11.8 scripts/install-deps.sh sets up (bin/ptxas of
 * WGPERF_CUDA_DIR), NULL when there is none. */
const char *drv_installed_ptxas(void);
/* (preprocess.c) O's flags appended to V at N but nvcc's -maxrregcount (-maxrregcount=N,
 * --maxrregcount=N, -maxrregcount N, --maxrregcount N) and ptxas' -dlcm and -dscm
 * (wgp_ptxas_cache_option), which clang has not: every compile's command line is made
 * so.  Returns the new count. */
size_t drv_append_flags(const wgp_extract_options *o, const char **v, size_t n);
/* The same for opt, which an LLVM IR input FILE goes through: the back end's
 * options as opt takes them (clang's "-mllvm X" is "X": nvcc's -prec-div=false
 * and -prec-sqrt=false after "--"), and WGP_ERR_INPUT naming FILE for the
 * clang options that nvcc's -use_fast_math, -ftz=true and -fmad=false become,
 * which change how a source compiles (IR carries its own fast-math flags). */
wgp_status drv_opt_flags(const char *file, const wgp_extract_options *o, const char **v, size_t *n, wgp_diag *diag);
/* O with its -maxrregcount as max_registers, its -dlcm and -dscm as load_cache and
 * store_cache, into *COPY; WGP_ERR_INPUT naming FILE for a value that is not a count
 * from 1 to 255 or not a cache operator of its kind. */
wgp_status drv_take_own_flags(const char *file, const wgp_extract_options *o, wgp_extract_options *copy,
                              wgp_diag *diag);
/* The dependencies DEPFILE lists into OUT->deps. */
wgp_status drv_read_deps(const char *depfile, wgp_preprocessed *out, wgp_diag *diag);

#endif
