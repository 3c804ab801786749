/* registers_internal.h - what NVIDIA's compiler makes of a kernel for each
 * target architecture (registers per thread, stack, spills, shared memory,
 * code size), added to a kernel model (registers.c; driver/ only). */
#ifndef WGPERF_DRIVER_REGISTERS_INTERNAL_H
#define WGPERF_DRIVER_REGISTERS_INTERNAL_H

#include "wgperf/driver.h"

#include <stdbool.h>

/* Architectures one extraction counts at most. */
#define WGP_MAX_ARCHS 8
/* The architecture counted when the caller names none. */
#define WGP_DEFAULT_ARCH "sm_80"
/* opt's inline threshold before llc: NVIDIA's compilers inline what a
 * kernel calls (registers.c). */
#define WGP_INLINE_THRESHOLD "10000"

typedef struct wgp_resource_request {
  const char *input;   /* the file the user gave: messages, and nvcc compiles it (CUDA) */
  const char *bitcode; /* for ptxas: LLVM bitcode of INPUT */
  bool opencl;         /* the bitcode is OpenCL (libclc is linked first) */
  const char *clang;   /* llc, opt, llvm-link are found beside it */
  const char *model;   /* the kernel model file, patched in place */
  char *const *flags;  /* the user's flags; the first NUM_PREPROCESSOR_FLAGS may hold -D, -U, -I */
  size_t num_flags, num_preprocessor_flags;
  const char *const *archs; /* sm_XY; none: WGP_DEFAULT_ARCH.  The first also sets 'registers' */
  size_t num_archs;
  wgp_message_fn message; /* warnings (may be NULL) */
  void *message_user;
  unsigned max_registers; /* nvcc's -maxrregcount for nvcc and ptxas; 0: none */
} wgp_resource_request;

/* O's max_registers (nvcc's -maxrregcount), load_cache and store_cache
 * (ptxas' -dlcm, -dscm) as launch_attributes.max_registers_per_thread,
 * global_load_cache and global_store_cache of every kernel of the model file
 * MODEL (nothing to do when O has none); false when it cannot be written. */
bool wgp_record_compile_options(const char *model, const wgp_extract_options *o);

/* nvcc's resource usage for each arch of R whose DONE (indexed like the
 * archs) is false, on R->input as a CUDA source; sets DONE for those it
 * counted and returns how many.  0 without nvcc, or where it fails (a source
 * only clang compiles): ptxas on llc's PTX is then the fallback. */
int wgp_add_nvcc_resources(const wgp_resource_request *r, bool done[WGP_MAX_ARCHS]);

/* ptxas' report on llc's PTX of R->bitcode for each arch whose DONE is
 * false; sets DONE for those it counted.  Returns the number of kernels
 * patched: 0 without a CUDA toolkit, or when ptxas gave no count, which a
 * warning to R->message then explains. */
int wgp_add_ptxas_registers(const wgp_resource_request *r, bool done[WGP_MAX_ARCHS]);

/* The most static shared memory (bytes) ptxas accepts for a kernel, for every
 * architecture ("uses too much shared data (0x12550 bytes, 0xc000 max)"). */
#define WGP_PTXAS_STATIC_SHARED_MAX 49152

/* Whether a kernel of the model file MODEL declares more static shared
 * memory (its 'local' arrays, as the analyzer sums them) than ptxas accepts
 * for any architecture: ptxas would refuse the whole file, so nvcc and
 * ptxas need not run.  Its name into KERNEL (SIZE bytes), its bytes into
 * *BYTES.  False when none does or the model cannot be read. */
bool wgp_static_shared_refused(const char *model, char *kernel, size_t size, unsigned long long *bytes);

#endif
