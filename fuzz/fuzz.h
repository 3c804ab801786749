/* fuzz.h - what the libFuzzer targets in fuzz/ share.
 *
 * Every target defines LLVMFuzzerTestOneInput.  Built with clang's
 * -fsanitize=fuzzer it is a fuzzer; linked with replay.c (any compiler) it is
 * a replay driver that runs the committed corpus and regression inputs, so
 * the normal build checks them too.
 *
 * Besides crashes and sanitizer reports, the targets abort on contract
 * violations the library promises: an error diagnostic that does not start
 * with "wgperf: error: NAME" (NAME being the input's name), a successful
 * result that is not finite, a prediction outside its own bounds.  The
 * message printed before abort() says which.
 */
#ifndef WGPERF_FUZZ_H
#define WGPERF_FUZZ_H

#include "wgperf/diag.h"
#include "wgperf/estimate.h"
#include "wgperf/launch.h"
#include "wgperf/model.h"

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Prints "fuzz: contract violated: ..." and aborts. */
void fuzz_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* A NUL-terminated copy of DATA (give: free()). */
char *fuzz_text(const uint8_t *data, size_t size);

/* Checks that a failed call's diagnostic names NAME (see the top of this file). */
void fuzz_check_diag(wgp_status st, const wgp_diag *d, const char *name, const char *what);

/* Calls every accessor of M and checks what can be checked (expressions
 * print back to the text they parse from). */
void fuzz_walk_model(const wgp_model *m);

/* The model of fuzz/data/probe.json (a few kernels with loops, branches,
 * barriers, shared memory and every kind of argument), loaded once. */
const wgp_model *fuzz_probe_model(void);
/* A shipped GPU description, loaded once; NULL when NAME is not shipped. */
const wgp_gpu *fuzz_gpu(const char *name);

/* Binds L to K, analyzes and simulates the launch on GPU with the given
 * hints (may be 0 / NULL) and checks the result: the analyze + predict path
 * of the wgperf tool.  Returns the status of the first step that failed.
 * Without ANALYZE it stops after binding. */
/* Whether L is small enough (at most 2^16 work-items) for the launch targets
 * to analyze it: their subject is parsing and binding, and the analyzer's
 * time grows with the first wave (fuzz_estimate.c and scripts/limits.sh
 * cover large launches). */
bool fuzz_launch_is_small(const wgp_launch *l);

typedef struct fuzz_hints {
  size_t ntrip, ntaken;
  size_t trip_loop[8];
  uint64_t trip[8];
  size_t taken_block[8];
  double taken[8];
  unsigned regs;
} fuzz_hints;
wgp_status fuzz_estimate(const wgp_launch *l, const wgp_kernel *k, const wgp_gpu *gpu, const fuzz_hints *h,
                         const char *name, bool analyze);
/* fuzz_estimate of launch L on every kernel of the probe model, on the
 * H100 SXM description; analysis only for small launches (the launch
 * fuzzers). */
void fuzz_estimate_probe(const wgp_launch *l);

#endif
