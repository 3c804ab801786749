/* driver.h - a kernel source or LLVM IR file compiled into a kernel model.
 *
 * wgp_extract does what `wgperf extract` does before it loads the model:
 * OpenCL C (.cl, 1.2) and CUDA (.cu, device side) go through clang-19 with
 * the wgperf pass plugin (-fpass-plugin), LLVM IR (.bc/.ll) through opt
 * (-load-pass-plugin); with a CUDA toolkit, ptxas' registers per thread are
 * added to the model (DESIGN.md).  The compilers run through
 * fork/execvp, never a shell, so file names may hold any character; their
 * own messages pass through to stderr, as the compiler's word.
 *
 * Where the driver finds what it runs:
 *   the plugin  $WGPERF_PLUGIN, else the build's libwgperf.so, else
 *               <executable's folder>/../lib/libwgperf.so
 *   clang       $WGPERF_CLANG, else the clang-19 found when configuring
 *   opt         $WGPERF_OPT, else the opt beside clang, else opt-19
 *   ptxas       $WGPERF_PTXAS (empty: none), else
 *               /usr/local/cuda/bin/ptxas, else the first on $PATH, else
 *               the one of the CUDA 11.8 scripts/install-deps.sh unpacks
 *               (WGPERF_CUDA_DIR, /opt/wgperf/cuda-11.8)
 *   CUDA        the toolkit whose headers .cu files compile against
 *               (wgp_find_cuda_toolkit): a --cuda-path flag, else
 *               $WGPERF_CUDA_PATH (empty: none), else $CUDA_PATH, else
 *               /usr/local/cuda, else /opt/wgperf/cuda-11.8 (the CUDA 11.8
 *               scripts/install-deps.sh unpacks; CMake's WGPERF_CUDA_DIR),
 *               else Debian's /usr/lib/cuda, the first that
 *               clang 19 reads (CUDA 11.0 to 12.x); without one, wgperf's
 *               stand-ins for the CUDA headers (include/wgperf/cuda_compat.h,
 *               cuda/) and a warning
 *   nvcc        $WGPERF_NVCC (empty: none), else the nvcc beside ptxas
 *   headers     include/wgperf/ (opencl_compat.h, cuda_toolkit_compat.h,
 *               cuda_compat.h, cuda/) of the source tree, else
 *               <executable's folder>/../include/wgperf/
 *   the model cache (wgp_extract_options.cache_dir; the tools' default is
 *               wgp_model_cache_dir's): $WGPERF_CACHE_DIR (empty: none),
 *               else $XDG_CACHE_HOME/wgperf/models, else
 *               $HOME/.cache/wgperf/models; bounded by $WGPERF_CACHE_MAX_MB
 *               (default 1024)
 */
#ifndef WGPERF_DRIVER_H
#define WGPERF_DRIVER_H

#include "wgperf/diag.h"

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum wgp_source_kind {
  WGP_SOURCE_UNKNOWN = -1,
  WGP_SOURCE_OPENCL, /* .cl */
  WGP_SOURCE_CUDA,   /* .cu */
  WGP_SOURCE_IR      /* .bc, .ll */
} wgp_source_kind;

/* The kind of FILE by its suffix; WGP_SOURCE_UNKNOWN for any other. */
wgp_source_kind wgp_source_kind_of(const char *file);

/* The full-unroll threshold that makes clang's unrolling match nvcc's
 * (docs/kernel-model.md, "Unrolling"): given to clang, and to opt when it
 * optimizes, unless the flags give one.  Part of the validation cache key. */
#define WGP_NVCC_UNROLL_THRESHOLD "550"

/* A line for the user (no trailing newline) that is not the error a call
 * fails with, e.g. "wgperf: warning: k.cu: no register count from ptxas
 * (ptxas failed); the IR estimate is used".  Like a wgp_diag it starts with
 * "wgperf: "; a tool may put its own name there. */
typedef void (*wgp_message_fn)(void *user, const char *message);

typedef struct wgp_extract_options {
  const char *olevel; /* clang's -O level (0-3, s, z); NULL: 3 for a source,
                         and no optimization of IR (only the plugin's pass) */
  char *const *flags; /* more arguments for clang (for opt with IR): -DTW=16 */
  size_t num_flags;
  wgp_message_fn message; /* warnings, and a failure to start the compile for ptxas; NULL drops them */
  void *message_user;
  /* The GPU architectures ("sm_86") whose registers, spills and local memory
   * NVIDIA's compiler is asked for (nvcc on a CUDA source, else ptxas on
   * llc-19's PTX), one entry of the model's 'resources' each; the first also
   * gives 'registers'.  None: sm_80. */
  const char *const *archs;
  size_t num_archs;
  /* A file holding what wgp_preprocess made of the source with these
   * options: wgp_ccs_extract (wgperf/ccserver.h) then compiles it instead of
   * preprocessing the source again (the model is the same).  NULL: the
   * source; wgp_extract always compiles the source. */
  const char *preprocessed;
  /* The model cache's folder (docs/usage.md, "The model cache"); NULL or "":
   * none.  A compile whose key (what it is asked to do and what it runs) and
   * whose files (the source and all it includes, by their contents) match an
   * entry's is not run again: its model is copied and what it showed the user
   * is shown again, byte for byte.  Only a successful compile is stored.  A
   * cache that cannot be read or written is no cache, never an error. */
  const char *cache_dir;
  /* wgp_ccs_extract (wgperf/ccserver.h) only, for wgtune: when kernel
   * gate_kernel (its name or symbol) declares more than shared_gate bytes of
   * static shared memory, the model is made before the optimizer and holds
   * that kernel alone (its arrays, arguments and launch attributes are the
   * optimized model's; its code is not: it is for refusing, not estimating)
   * and -O3 is skipped (the plugin's $WGPERF_SHARED_GATE).  0 or NULL: always
   * the whole compile. */
  unsigned long long shared_gate;
  const char *gate_kernel;
  /* nvcc's -maxrregcount N (0: none).  wgp_extract and wgp_ccs_extract take
   * it out of FLAGS themselves (-maxrregcount=N, --maxrregcount=N,
   * -maxrregcount N, --maxrregcount N: clang has no such flag), ask nvcc and
   * ptxas with it and record it in every kernel of the model
   * (launch_attributes.max_registers_per_thread). */
  unsigned max_registers;
  /* ptxas' -dlcm=OP / -dscm=OP (--def-load-cache, --def-store-cache: the
   * cache operator of the global loads and stores that have none), NULL:
   * none.  Taken out of FLAGS like -maxrregcount and recorded in every
   * kernel (launch_attributes.global_load_cache / global_store_cache). */
  const char *load_cache, *store_cache;
} wgp_extract_options;

/* nvcc's and NVRTC's options that clang has an equivalent of, which the
 * model follows: OPTION with VALUE (NULL for an option without one, or
 * "-ftz=true" whole) as clang's arguments, into OUT (at most 2; static
 * strings), and their count; 0 for any other.  -use_fast_math: -ffast-math
 * -fgpu-flush-denormals-to-zero (its -ftz=true with the approximate
 * division, square roots and functions); -ftz=true:
 * -fgpu-flush-denormals-to-zero; -fmad=false: -ffp-contract=off;
 * -prec-div=false: -mllvm -nvptx-prec-divf32=1 (div.full.f32, which the
 * plugin reads); -prec-sqrt=false: -mllvm -nvptx-prec-sqrtf32=0
 * (sqrt.approx.f32, the same).  One or two dashes.  wgperf's "--" and a T1 space's
 * CompilerOptions both take them so. */
size_t wgp_nvcc_clang_equivalent(const char *option, const char *value, const char *out[2]);

/* nvcc's -maxrregcount in OPTION (-maxrregcount=N, --maxrregcount=N, or
 * -maxrregcount / --maxrregcount with N in NEXT, which may be NULL), or
 * NVIDIA's OpenCL build option that ptxas gets as the same
 * (-cl-nv-maxrregcount: the Khronos registry's cl_nv_compiler_options): the
 * options it takes (1 or 2), its value into *VALUE (-1 when not a count from
 * 1 to 255); 0 when OPTION is none of them.  wgp_extract takes it out of its
 * flags (wgp_extract_options.max_registers); a T1 space's CompilerOptions
 * are read with it. */
size_t wgp_maxrregcount_option(const char *option, const char *next, long *value);

/* ptxas' default cache operators in OPTION: -dlcm=OP or --def-load-cache=OP
 * (1: loads, OP one of ca cg cs lu cv), -dscm=OP or --def-store-cache=OP
 * (2: stores, OP one of wb cg cs wt); *VALUE points at OP, or is NULL when OP
 * is none of those.  0 when OPTION is neither.  wgp_extract takes them out of
 * its flags (wgp_extract_options.load_cache, store_cache). */
int wgp_ptxas_cache_option(const char *option, const char **value);

/* Whether OPTION (NEXT the argument after it, may be NULL) is one the driver
 * takes for itself rather than clang (wgp_maxrregcount_option,
 * wgp_ptxas_cache_option): the arguments it takes, 0 for any other option.
 * *WANT (WANT may be NULL): NULL when its value is one the option takes,
 * else what it should be ("a number of registers per thread, 1 to 255").
 * wgp_extract, wgperf's nvcc line after "--" and a T1 space's -Xptxas list
 * all ask it. */
size_t wgp_driver_option(const char *option, const char *next, const char **want);

/* The model cache of the command-line tools, into BUF: $WGPERF_CACHE_DIR
 * when set (empty: none), else $XDG_CACHE_HOME/wgperf/models, else
 * $HOME/.cache/wgperf/models; NULL when none (or it does not fit). */
const char *wgp_model_cache_dir(char *buf, size_t size);

/* A template for mkdtemp, mkstemp ("" SUFFIX) or mkstemps into BUF,
 * "DIR/PREFIX-XXXXXX" SUFFIX: DIR is $TMPDIR when it names a folder this
 * process may write in (a Slurm job's or a shared machine's scratch, as
 * mktemp and LLVM's tools take it; trailing slashes dropped), else (or when
 * it makes a template too long for SIZE) /tmp.  Every temporary file and
 * folder of the tools is made through it.  False when not even /tmp's fits. */
bool wgp_temp_template(char *buf, size_t size, const char *prefix, const char *suffix);

/* Compiles FILE as KIND (OPTS may be NULL: the defaults) and writes
 * its kernel model to OUT, through a temporary file beside it that is renamed
 * when complete.  A model without ptxas' registers (no CUDA toolkit, or
 * ptxas failed: a message says why) still succeeds.  Fails with WGP_ERR_IO
 * ("wgperf: error: FILE: No such file or directory", "... cannot write: ..."),
 * WGP_ERR_INPUT ("wgperf: error: FILE: clang-19 failed (exit 1)", "...: no
 * kernels found (no __kernel or __global__ function), no model written", the
 * plugin or a header not found, KIND unknown) or WGP_ERR_NOMEM; OUT is then
 * left as it was. */
wgp_status wgp_extract(const char *file, wgp_source_kind kind, const wgp_extract_options *opts, const char *out,
                       wgp_diag *diag);

/* Whether kernel NAME names a template's instance ("scale<float, 256>"). */
bool wgp_is_instance_name(const char *name);

/* The value of macro NAME (LEN bytes, not terminated) as the caller's compile
 * defines it, NULL when it does not. */
typedef const char *(*wgp_macro_value_fn)(void *user, const char *name, size_t len);

/* Template instance NAME ("scale<float, BS>") with VALUE's macro values in
 * place of the identifiers among its arguments that are macros ("scale<float,
 * 64>", what a compile with -DBS=64 instantiates) into OUT: true when one
 * was replaced and it fits. */
bool wgp_instance_expand(const char *name, wgp_macro_value_fn value, void *user, char *out, size_t size);

/* TEXT (LEN bytes) as the file DIR/PREFIX DIGEST SUFFIX, DIGEST the first 16
 * hex digits of its SHA-256, its path into OUT: written (made whole, then
 * renamed into place) only when no such file is there, so the same text is
 * the same file with the same time, and caches keyed by it hit.  The
 * sources the tools make (one that includes a kernel split over files, one
 * that instantiates a template) are written so. */
wgp_status wgp_source_by_digest(const char *dir, const char *prefix, const char *suffix, const char *text, size_t len,
                                char *out, size_t size, wgp_diag *diag);

/* A CUDA source that compiles FILE and instantiates the template kernels
 * NAMES ("scale<float, 256>": what Kernel Tuner and KTT compile by name,
 * where the file holds the template alone) by taking their addresses after
 * it: DIR/wgperf-instances-DIGEST.cu, its path into OUT.  The same FILE and
 * NAMES make the same file (not written again when it is there), so model
 * caches keyed by it hit.  Errors: FILE not found, a name that is not
 * NAME<ARGUMENTS> of the characters template arguments are written with
 * (WGP_ERR_INPUT, naming it), DIR not writable. */
wgp_status wgp_instance_source(const char *file, const char *const *names, size_t num_names, const char *dir,
                               char *out, size_t size, wgp_diag *diag);

#define WGP_CUDA_PATH_SIZE 4096

/* A CUDA toolkit (see above). */
typedef struct wgp_cuda_toolkit {
  char path[WGP_CUDA_PATH_SIZE]; /* its folder; "" when there is none */
  int version;                   /* its CUDA_VERSION: 11080 for 11.8; 0 when none */
  char origin[32];               /* "--cuda-path", "WGPERF_CUDA_PATH", "CUDA_PATH",
                                    "/usr/local/cuda", "Debian's nvidia-cuda-toolkit" */
  char passed_over[WGP_DIAG_SIZE]; /* the places looked at and not used, and why:
                                      "/usr/local/cuda: CUDA 13.0, newer than clang 19
                                      reads (11.0 to 12.x); /usr/lib/cuda: no such folder" */
} wgp_cuda_toolkit;

/* Finds the toolkit a .cu file compiled with the clang flags FLAGS (may be
 * NULL) compiles against, in the order above.  WGP_OK with TK->version 0
 * when there is none (TK->passed_over says why); WGP_ERR_INPUT only when the
 * one the user named cannot be used ("wgperf: error: --cuda-path=/opt/cuda:
 * not a CUDA toolkit clang 19 reads: no include/cuda.h").  A toolkit
 * passed over is no error. */
wgp_status wgp_find_cuda_toolkit(char *const *flags, size_t num_flags, wgp_cuda_toolkit *tk, wgp_diag *diag);

/* The ptxas the driver runs (above), NULL when none: keep, valid until the
 * next call. */
const char *wgp_find_ptxas(void);

/* The nvcc of that ptxas' toolkit ($WGPERF_NVCC overrides it, empty: none),
 * which counts a CUDA source's resources as the program is built; NULL when
 * none: keep. */
const char *wgp_find_nvcc(void);

#ifdef __cplusplus
}
#endif

#endif
