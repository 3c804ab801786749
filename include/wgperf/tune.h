/* tune.h - a whole tuning space ranked without running the kernel
 * (`wgtune`, docs/wgtune.md).
 *
 * A space is what autotuners (Kernel Tuner, KTT, CLTune) measure: compile-
 * time parameters, each a #define, and the thread-block shape, under
 * restrictions.  It comes as the autotuning community's "T1" JSON file:
 *   ConfigurationSpace.TuningParameters  [{Name, Values}]   Values: a Python
 *                                        list expression or a JSON array
 *   ConfigurationSpace.Conditions        [{Expression, Parameters}]
 *   KernelSpecification                  Language (CUDA, OpenCL), KernelName,
 *                                        KernelFile, CompilerOptions,
 *                                        ProblemSize, GridDivX/Y/Z, LocalSize,
 *                                        GlobalSize, SharedMemory, Arguments
 * read with Kernel Tuner's semantics: every parameter is a #define; the
 * block is LocalSize, else block_size_x/y/z (256, 1, 1 when absent); the
 * grid is ceil(ProblemSize[d] / product(GridDiv d)) (GridDivX defaults to
 * [block_size_x], ...), or GlobalSize when no GridDiv is given; Arguments
 * give the kernel's arguments in order: buffers (MemoryType Vector: Size
 * elements of Type), scalars (Scalar: FillValue) and __local buffers (Local).
 * Expressions are the Python subset of tune/pyexpr_internal.h.
 *
 * wgp_tune_run enumerates the configurations the restrictions allow (in
 * Kernel Tuner's order: the first parameter varies slowest), preprocesses
 * each, compiles each distinct preprocessed code once into a kernel model
 * (driver.h; cached by the hash of that code, the flags and the tools),
 * estimates each distinct launch of it (estimate.h) and ranks them.  The
 * work runs on worker processes: call it from a single-threaded program.
 */
#ifndef WGPERF_TUNE_H
#define WGPERF_TUNE_H

#include "wgperf/diag.h"
#include "wgperf/driver.h"
#include "wgperf/gpu.h"
#include "wgperf/hints.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the space ------------------------------------------------------------- */

typedef enum wgp_tune_value_kind { WGP_TUNE_INT, WGP_TUNE_FLOAT, WGP_TUNE_STRING } wgp_tune_value_kind;

/* A parameter's value; TEXT is what its #define says (Python's str()). */
typedef struct wgp_tune_value {
  wgp_tune_value_kind kind;
  int64_t i;  /* INT */
  double f;   /* FLOAT (and INT, as a double) */
  const char *text;
} wgp_tune_value;

typedef struct wgp_tune_space wgp_tune_space;

/* Reads a T1 file.  Every error names the file and the field, and for an
 * expression the expression and the column: "wgperf: error: s.json:
 * Conditions[1].Expression 'a*c>1': unknown parameter 'c' at column 3". */
wgp_status wgp_tune_space_load_file(const char *file, wgp_tune_space **out, wgp_diag *diag);
/* The same from TEXT; NAME stands for the file in messages, DIR is where
 * KernelFile is relative to. */
wgp_status wgp_tune_space_load_string(const char *text, size_t len, const char *name, const char *dir, wgp_tune_space **out,
                                 wgp_diag *diag);
void wgp_tune_space_free(wgp_tune_space *s);

const char *wgp_tune_space_name(const wgp_tune_space *s);        /* the file */
const char *wgp_tune_space_benchmark(const wgp_tune_space *s);   /* General.BenchmarkName or KernelName */
size_t wgp_tune_space_num_params(const wgp_tune_space *s);
const char *wgp_tune_space_param(const wgp_tune_space *s, size_t p);
size_t wgp_tune_space_num_values(const wgp_tune_space *s, size_t p);
const wgp_tune_value *wgp_tune_space_value(const wgp_tune_space *s, size_t p, size_t v);
/* The index of parameter NAME, or SIZE_MAX. */
size_t wgp_tune_space_find_param(const wgp_tune_space *s, const char *name);
const char *wgp_tune_space_kernel_name(const wgp_tune_space *s);
wgp_source_kind wgp_tune_space_language(const wgp_tune_space *s); /* WGP_SOURCE_CUDA or WGP_SOURCE_OPENCL */
/* KernelFile, resolved against the space file's folder (0 when not given). */
size_t wgp_tune_space_num_kernel_files(const wgp_tune_space *s);
const char *wgp_tune_space_kernel_file(const wgp_tune_space *s, size_t i);
/* CompilerOptions that are clang's too (-D, -U, -I, -std=, OpenCL's -cl-*
 * arithmetic options): passed on. */
size_t wgp_tune_space_num_compiler_flags(const wgp_tune_space *s);
/* KTT's Symbol arguments by name: globals the host sets (a __constant__
 * array), which the kernel reads by their declarations; not among the
 * launch's arguments. */
size_t wgp_tune_space_num_symbols(const wgp_tune_space *s);
const char *wgp_tune_space_symbol(const wgp_tune_space *s, size_t i);
const char *wgp_tune_space_compiler_flag(const wgp_tune_space *s, size_t i);
/* CompilerOptions left out (nvcc's or NVRTC's own); the caller may say so. */
size_t wgp_tune_space_num_ignored_options(const wgp_tune_space *s);
const char *wgp_tune_space_ignored_option(const wgp_tune_space *s, size_t i);
/* CompilerOptions of NVIDIA's compilers that clang reads under other names
 * (nvcc's -use_fast_math), as written (what a plan's harness passes on)...
 * and clang's flags for them (-ffast-math -fgpu-flush-denormals-to-zero). */
size_t wgp_tune_space_num_translated_options(const wgp_tune_space *s);
const char *wgp_tune_space_translated_option(const wgp_tune_space *s, size_t i);
size_t wgp_tune_space_num_clang_only_flags(const wgp_tune_space *s);
const char *wgp_tune_space_clang_only_flag(const wgp_tune_space *s, size_t i);

/* The configurations the Conditions allow, in Kernel Tuner's order: *COUNT
 * rows of wgp_tune_space_num_params value indices in *IDX (give: free()); *RAW
 * (may be NULL) is the size of the Cartesian product.  Fails with the
 * condition, the column and the configuration when a condition cannot be
 * evaluated (a division by zero for some values), and when none is allowed
 * ("no configuration satisfies the conditions"); at most 50 million. */
wgp_status wgp_tune_space_enumerate(const wgp_tune_space *s, uint16_t **idx, size_t *count, uint64_t *raw, wgp_diag *diag);

/* What Arguments say one argument is. */
typedef enum wgp_tune_arg_kind { WGP_TUNE_ARG_BUFFER, WGP_TUNE_ARG_SCALAR, WGP_TUNE_ARG_LOCAL } wgp_tune_arg_kind;

typedef struct wgp_tune_arg {
  wgp_tune_arg_kind kind;
  const char *name; /* as Arguments names it (the kernel's own name may differ: bound by position) */
  const char *type; /* as Arguments writes its Type (float, int32, float4, ...) */
  uint64_t bytes;   /* BUFFER, LOCAL: Size x the element size of Type */
  double value;     /* SCALAR: FillValue; BUFFER: FillValue, every element's unless RANDOM */
  bool random;      /* BUFFER: FillType Random (values up to FillValue) */
  bool constant;    /* BUFFER: MemType Constant (CUDA: also copied to the __constant__ array of its name) */
  const char *fill_from; /* BUFFER: the FillType when its data come from elsewhere (Generator, Script, BinaryRaw,
                          * BinaryHDF, as KTT's T1 schema has them): ranked as any data, refused by plans; else NULL */
} wgp_tune_arg;

/* The launch of one configuration. */
typedef struct wgp_tune_launch {
  uint64_t grid[3], block[3];
  uint64_t shared_bytes; /* SharedMemory: CUDA's dynamic shared memory */
  size_t num_args;
  wgp_tune_arg args[32];
} wgp_tune_launch;

/* The launch of CONFIG (wgp_tune_space_num_params value indices).  Fails with the
 * field, the expression and the configuration when an expression cannot be
 * evaluated or gives no positive integer. */
wgp_status wgp_tune_space_launch(const wgp_tune_space *s, const uint16_t *config, wgp_tune_launch *out, wgp_diag *diag);

/* ---- the search -------------------------------------------------------------- */

/* The most --trip and the most --taken hints a run takes (wgp_tune_options). */
#define WGP_TUNE_MAX_HINTS 16

typedef struct wgp_tune_options {
  /* The source: these files in order (concatenated, as Kernel Tuner does with
   * a kernel split over files), else the space's KernelFile.  The language
   * is the space's (a .cl/.cu suffix that says otherwise is an error). */
  const char *const *kernel_files;
  size_t num_kernel_files;
  const char *kernel;   /* NULL: KernelName */
  char *const *flags;   /* more compiler flags (-DNAME=V, -IDIR, -UNAME) */
  size_t num_flags;
  const char *olevel;   /* NULL: 3 */
  /* Where models and preprocessed-code hashes are kept between runs (made
   * when missing; safe to share between runs and processes); NULL: a
   * temporary folder removed at the end. */
  const char *cache_dir;
  unsigned jobs;        /* worker processes; 0: the CPUs (wgp_default_threads) */
  /* rank a sample of SAMPLE configurations (0: all), the same for the same
   * SEED: drawn uniformly from the space's, kept in the space's order */
  size_t sample;
  uint64_t seed;
  unsigned shard, shards; /* rank only shard SHARD (1..SHARDS) of the configurations (of the sample); 0, 0: all */
  /* 0: estimate every configuration.  N: rank exactly the N fastest, and
   * estimate only what could be among them: each configuration's bounds
   * first (wgp_estimate_bounds: milliseconds), then best-first by its lower
   * bound, until that bound is above the N-th smallest of the upper bounds
   * and estimates; the rest are pruned (wgp_tune_config.pruned), never
   * dropped.  The first N ranks are those of the whole estimate. */
  size_t prune_top;
  /* The CHECK_TOP fastest configurations are checked for accesses outside
   * the buffers the space gives (wgp_tune_config.outside): a grid past the
   * data of a kernel without a bound check, or a Size too small.  A check
   * costs more than an estimate (isl over the whole launch), so only the
   * configurations a user looks at are; 0: none. */
  size_t check_top;
  /* Hints at source lines ("FILE:LINE" or "LINE"; wgperf/hints.h), applied
   * to the loops and branches at that line in every code: a loop's count
   * per entry where it needs loaded values (split between an unrolled loop
   * and its remainder), a branch's taken fraction.  At most
   * WGP_TUNE_MAX_HINTS of each. */
  wgp_source_hints hints;
  /* Called in the calling process as work completes (may be NULL): PHASE is
   * "preprocessing", "compiling" or "estimating". */
  void (*progress)(void *user, const char *phase, size_t done, size_t total);
  void *progress_user;
  wgp_message_fn message; /* notes and warnings, once each (NULL drops them) */
  void *message_user;
} wgp_tune_options;

typedef struct wgp_tune_result wgp_tune_result;

/* The configurations a run of O takes from a space of TOTAL: their indices in
 * the space's order (O's sample, then its shard of that), *COUNT of them in
 * *AT (give: free()).  False when out of memory. */
bool wgp_tune_pick(size_t total, const wgp_tune_options *o, size_t **at, size_t *count);

/* Writes the measurement plan of S for O's configurations (its sample and
 * shard; O's kernel files, kernel and flags) to OUT, named NAME in messages:
 * what a harness on a GPU needs to compile, launch and time each of them
 * without a T1 reader (docs/cli/wgperf-measure.md, "Plans").  *WRITTEN: the
 * configurations written.  Fails on a space whose launches cannot be made. */
wgp_status wgp_tune_write_plan(const wgp_tune_space *s, const wgp_tune_options *o, FILE *out, const char *name,
                               size_t *written, wgp_diag *diag);

/* Runs the search for space S on GPU.  Fails (WGP_ERR_INPUT) on a bad space
 * or options, a kernel not found in every model, or a space with no
 * configuration; a configuration that does not preprocess or compile, or
 * cannot run on GPU, is a result with its reason (wgp_tune_config.ok false),
 * never a failure of the whole. */
wgp_status wgp_tune_run(const wgp_tune_space *s, const wgp_gpu *gpu, const wgp_tune_options *o, wgp_tune_result **out,
                        wgp_diag *diag);
void wgp_tune_result_free(wgp_tune_result *r);

/* ---- the result ---------------------------------------------------------------- */

typedef struct wgp_tune_config {
  size_t index;                 /* in the space's order, after the conditions (0-based) */
  const wgp_tune_value *values; /* one per parameter */
  bool ok;                      /* predicted; otherwise REASON says why it cannot run, or it was pruned */
  const char *reason;           /* NULL when pruned */
  /* with prune_top: not estimated, its best case being slower than the
   * prune_top-th fastest (wgp_tune_prune_threshold); LOWER_US and UPPER_US
   * are its bounds for any hit rates (wgp_estimate_bounds), which every
   * configuration of such a run has, estimated or not */
  bool pruned;
  double lower_us, upper_us;
  const char *code;             /* hash of its preprocessed code and flags (hex), NULL when it did not preprocess */
  uint64_t grid[3], block[3];
  double time_us, best_us, worst_us;
  /* the baselines of baseline.h on the same analysis, us: BSP for lambda = 1
   * (seeds/003) and the roofline; NAN when not made */
  double bsp_us, roofline_us;
  const char *limiter;    /* what limits resident warps: "warps", "registers", "shared_memory", "blocks" */
  const char *bottleneck; /* in words */
  const char *bound;      /* the simulator's: "pipeline", "dram_bandwidth", ... */
  unsigned registers;
  const char *registers_from; /* "ptxas -v (...)", "IR estimate", ... */
  unsigned warps_per_sm, groups_per_sm;
  /* among the fastest checked (wgp_tune_options.check_top): the first
   * buffer its launch certainly accesses outside of (wgp_footprint_reach
   * against the space's Size), in words; NULL when none or not checked */
  const char *outside;
} wgp_tune_config;

typedef struct wgp_tune_counts {
  uint64_t raw;          /* the Cartesian product of the values */
  size_t total;          /* configurations the conditions allow (the whole space) */
  size_t sample;         /* configurations sampled (--sample), 0 when all were taken */
  size_t run;            /* of those, this run's (its shard's) */
  size_t distinct;       /* distinct preprocessed codes among them */
  size_t estimates;      /* distinct launches of a code estimated */
  size_t compiled;       /* codes compiled by this run */
  size_t cached;         /* codes whose model or failure the cache held */
  size_t preprocessed;   /* configurations clang preprocessed in this run */
  size_t precompiled;    /* of the codes compiled, those whose headers came precompiled (wgperf-cc) */
  size_t ranked, cannot_run;
  size_t pruned;         /* configurations not estimated (prune_top) */
  size_t prune_top;      /* the run's prune_top: 0 when every configuration was estimated */
  unsigned shard, shards;
  double wall_ms, cpu_ms; /* cpu: this process and every process it started (workers, compilers) */
  double preprocess_ms, compile_ms; /* wall time of the phases (compiling includes estimating) */
  /* CPU of the workers' steps (their compilers included): clang -E, the
   * compile (clang with the plugin, and ptxas' chain), loading the models,
   * the estimates */
  double cpu_preprocess_ms, cpu_compile_ms, cpu_load_ms, cpu_estimate_ms;
} wgp_tune_counts;

void wgp_tune_get_counts(const wgp_tune_result *r, wgp_tune_counts *out);
const char *wgp_tune_result_space(const wgp_tune_result *r);
const char *wgp_tune_kernel(const wgp_tune_result *r);
const char *wgp_tune_gpu(const wgp_tune_result *r);
size_t wgp_tune_num_params(const wgp_tune_result *r);
const char *wgp_tune_param(const wgp_tune_result *r, size_t p);
/* This run's configurations, in the space's order. */
size_t wgp_tune_num_configs(const wgp_tune_result *r);
const wgp_tune_config *wgp_tune_config_at(const wgp_tune_result *r, size_t i);
/* Predicted configurations, fastest first (ties: the earlier in the space). */
size_t wgp_tune_num_ranked(const wgp_tune_result *r);
const wgp_tune_config *wgp_tune_ranked(const wgp_tune_result *r, size_t rank);
/* With prune_top N: the time of rank N, above which a configuration's lower
 * bound had it pruned (INFINITY when fewer than N are ranked); 0 otherwise. */
double wgp_tune_prune_threshold(const wgp_tune_result *r);

/* ---- reports ------------------------------------------------------------------- */

/* --json: the names docs/wgtune.md lists (configurations_total, distinct,
 * ranked, cannot_run, wall_ms, ...); exact enough to merge (17 digits). */
int wgp_tune_write_json(const wgp_tune_result *r, FILE *f);
/* The table: a header, the first TOP ranks (0: all), the configurations
 * that cannot run (the first few, with reasons). */
int wgp_tune_write_table(const wgp_tune_result *r, FILE *f, size_t top);
/* Says through FN (NULL: nothing) how many of the ranked configurations
 * access outside the buffers the space gives (wgp_tune_config.outside), the
 * fastest of them named. */
void wgp_tune_say_outside(const wgp_tune_result *r, wgp_message_fn fn, void *user);
int wgp_tune_write_csv(const wgp_tune_result *r, FILE *f);
/* The autotuning community's T4 results (schema 1.0.0): one entry per
 * configuration, the prediction as the measurement "time" in ms. */
int wgp_tune_write_t4(const wgp_tune_result *r, FILE *f);
/* The first TOP ranks as a Kernel Tuner search space: tune_params and one
 * restriction listing the combinations, plus wgperf's ranking. */
int wgp_tune_write_kernel_tuner(const wgp_tune_result *r, FILE *f, size_t top);
/* SVG: predicted time against each parameter's values, the first TOP ranks
 * highlighted. */
int wgp_tune_write_plot(const wgp_tune_result *r, FILE *f, size_t top);

/* Reads what wgp_tune_write_json wrote. */
wgp_status wgp_tune_read_json(const char *file, wgp_tune_result **out, wgp_diag *diag);
/* Joins the shards 1..N of one space (each exactly once, the same space,
 * kernel, GPU and flags) into the result one process gives. */
wgp_status wgp_tune_merge(wgp_tune_result *const *shards, size_t n, wgp_tune_result **out, wgp_diag *diag);

#ifdef __cplusplus
}
#endif

#endif
