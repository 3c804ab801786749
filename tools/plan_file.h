/* plan_file.h - a tuning space's measurement plan (wgtune --plan; tune/plan.c
 * writes it, the format is there) as the timing harnesses read it, and the
 * Kernel Tuner cache file they write: plain C, no JSON library, so that it
 * builds on a lent GPU machine beside the OpenCL harness (wgperf-measure
 * --plan, tools/measure_plan.c) and the CUDA one (microbench/cuda/
 * measure_plan_cuda.c).
 */
#ifndef WGPERF_TOOLS_PLAN_FILE_H
#define WGPERF_TOOLS_PLAN_FILE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PLAN_MAX_ARGS 32
#define PLAN_MAX_PARAMS 64
#define PLAN_MAX_FILES 64
#define PLAN_MAX_FLAGS 64

typedef struct plan_arg {
  char *name, *kind, *type, *fill; /* kind: buffer, constant, scalar, local; fill: random, constant */
  double value;
} plan_arg;

typedef struct plan_cfg {
  size_t index;
  size_t grid[3], block[3];
  unsigned long long shared;
  unsigned long long bytes[PLAN_MAX_ARGS];
  char **values; /* one per parameter, into the plan's text */
} plan_cfg;

typedef struct plan {
  char *text; /* the file, split in place */
  const char *file, *space, *benchmark, *kernel, *language;
  const char *files[PLAN_MAX_FILES];
  size_t nfiles;
  const char *flags[PLAN_MAX_FLAGS];
  size_t nflags;
  const char *pname[PLAN_MAX_PARAMS];
  char **pvalues[PLAN_MAX_PARAMS]; /* each parameter's values */
  size_t npvalues[PLAN_MAX_PARAMS];
  size_t nparams;
  plan_arg args[PLAN_MAX_ARGS];
  size_t nargs;
  plan_cfg *cfgs;
  size_t ncfgs, declared, total;
  bool declared_seen;
} plan;

/* Reads FILE; 0, or -1 with "PREFIX: error: FILE:LINE: ..." on stderr (none
 * when PREFIX is NULL).  plan_free() either way. */
int plan_read(const char *prefix, const char *file, plan *p);
/* The same on TEXT, LEN bytes in a buffer of at least LEN + 1 (the plan takes
 * it: plan_free() frees it), named FILE in messages. */
int plan_parse(const char *prefix, const char *file, char *text, size_t len, plan *p);
void plan_free(plan *p);
/* Puts the configurations in a fixed pseudo-random order (the same for the same
 * plan), so that a run stopped by its budget has timed a uniform share of them,
 * not the first part of the space's order. */
void plan_shuffle(plan *p);
/* The plan's files in order, each followed by a line break, each found where
 * the plan says or, with KDIR, in KDIR by its base name; NULL (message
 * printed) when one cannot be read.  give: free(). */
char *plan_sources(const char *prefix, const plan *p, const char *kdir);

/* The element of a Kernel Tuner Type (numpy or C names, float4 too) as float,
 * double, half, i8..i64 or u8..u64, *BYTES its size; NULL when unknown. */
const char *plan_element(const char *type, size_t *bytes);
/* BYTES of argument A: its value in every element, or random values up to it. */
void plan_fill(void *host, size_t bytes, const plan_arg *a, uint64_t seed);
/* Scalar argument A as its type's bytes in BUF (*SIZE of them): 0, or -1 with the
 * reason in WHY. */
int plan_scalar(const plan_arg *a, unsigned char buf[8], size_t *size, char *why, size_t wl);

/* One configuration's outcome. */
typedef struct plan_result {
  bool done;
  const char *failure; /* NULL: timed; else CompilationFailedConfig or RuntimeFailedConfig */
  char reason[1280];
  double times[64]; /* milliseconds */
  int n;
  double compile_ms, bench_ms, frame_ms;
  char stamp[40];
} plan_result;

/* What the cache file says of the device. */
typedef struct plan_device {
  const char *name, *platform, *driver, *harness;
  char cc[16]; /* "9.0", or empty */
  bool not_a_gpu;
} plan_device;

/* Writes the done configurations of RES as a Kernel Tuner cache file OUT
 * (through OUT.tmp and a rename): 0, or -1 with the message printed. */
int plan_write_cache(const char *prefix, const plan_device *d, const plan *p, const plan_result *res, const char *out,
                     int repeats, const char *started, size_t measured);
/* The mean of R's times. */
double plan_mean(const plan_result *r);
void plan_stamp(char *out, size_t len); /* UTC, ISO 8601 */
void plan_one_line(char *s);            /* a compiler's log as one line: breaks as spaces, no trailing blanks */

/* Work done on threads ahead of the timing (both harnesses compile each
 * configuration there): WORK(CTX, I) for I = 0 .. N - 1, taken in order, never
 * more than WINDOW past the configuration the caller last waited for. */
typedef struct plan_ahead {
  void (*work)(void *ctx, size_t i);
  void *ctx;
  size_t n, next, limit, window;
  bool *done;
  bool stop;
  pthread_t th[256];
  int nth;
  pthread_mutex_t mu;
  pthread_cond_t cv;
} plan_ahead;

/* ASKED threads (at most 256), or for ASKED <= 0 the CPUs but one (the
 * timing's), at most CAP, at least one. */
int plan_jobs(int asked, int cap);
/* Starts JOBS threads (at most 256); the number started (0: none, or out of
 * memory).  plan_ahead_finish() either way. */
int plan_ahead_start(plan_ahead *a, size_t n, int jobs, size_t window, void (*work)(void *, size_t), void *ctx);
/* Lets the threads go up to I + WINDOW and waits until I is done. */
void plan_ahead_wait(plan_ahead *a, size_t i);
/* Stops the threads (what one has begun it finishes) and joins them. */
void plan_ahead_finish(plan_ahead *a);
double plan_now(void);                  /* seconds, monotonic */

#endif
