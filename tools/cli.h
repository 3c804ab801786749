/* cli.h - helpers shared by the command-line tools (cli.c; tools/ only). */
#ifndef WGPERF_TOOLS_CLI_H
#define WGPERF_TOOLS_CLI_H

#include "wgperf/driver.h"
#include "wgperf/tune.h"

#include <stdbool.h>

enum { EXIT_OK = 0, EXIT_INPUT = 1, EXIT_USAGE = 2 };

/* Print "PROG: error: ..." and return the exit code; a usage error adds one
 * line that says where the usage is: "(see 'wgperf predict --help')". */
extern const char *cli_prog;    /* the program messages start with: "wgperf" (default), "wgprune" */
extern const char *cli_command; /* what --help follows in the hint: "wgperf predict", "wgprune" */
int usage_error(const char *fmt, ...);
int input_error(const char *fmt, ...);
/* Prints a library diagnostic ("wgperf: error: ...") as cli_prog's own. */
void cli_print_diag(const char *message);
/* cli_print_diag as a wgp_message_fn (USER unused): the library's notes and warnings. */
void cli_print_message(void *user, const char *message);
/* Whether LEVEL is an optimization level clang takes after -O (0-3, s, z). */
bool cli_olevel_ok(const char *level);

#include <stddef.h>
#include <stdint.h>

/* --trip and --taken: numbered in one model (L3=100, B2=0.25: wgperf,
 * wgprune) or at a source line (spmv.cu:22=32, 22=32: every tool; wgtune's
 * only, its configurations being codes numbered each their own way).  The
 * numbered ones as the analysis takes them; the source lines' added to them
 * by cli_hints_resolve once the kernel is known (wgtune passes its own to
 * the search, which resolves them per code). */
#define CLI_MAX_HINTS 64
struct wgp_kernel;
typedef struct cli_hints {
  size_t trip_loop[CLI_MAX_HINTS], taken_block[CLI_MAX_HINTS];
  uint64_t trip[CLI_MAX_HINTS];
  double taken[CLI_MAX_HINTS];
  size_t ntrip, ntaken;
  char *trip_at[WGP_TUNE_MAX_HINTS], *taken_at[WGP_TUNE_MAX_HINTS]; /* copied; cli_hints_free */
  uint64_t trip_at_count[WGP_TUNE_MAX_HINTS];
  double taken_at_share[WGP_TUNE_MAX_HINTS];
  size_t ntrip_at, ntaken_at;
} cli_hints;
/* The value V of OPT (--trip or --taken) into H; NUMBERED: L<n>/B<n> taken
 * too, else refused with why.  EXIT_OK or the usage error printed. */
int cli_hint_option(const char *opt, const char *v, cli_hints *h, bool numbered);
/* Checks H's numbered hints against K and adds its source lines' loops and
 * branches of K: EXIT_OK, or the usage error printed (a loop or block K
 * has not, a line with none). */
int cli_hints_resolve(cli_hints *h, const struct wgp_kernel *k);
/* H's source lines as the library takes them (they point into H). */
wgp_source_hints cli_source_hints(const cli_hints *h);
void cli_hints_free(cli_hints *h);

/* Compiler flags for a .cl/.cu source.  cli_source_flag takes the
 * preprocessor flags a GPU programmer gives on the command line itself:
 * -DNAME[=VALUE], -UNAME and -IDIR, each also with its value as the next
 * argument.  It returns how many arguments of ARGV from I it took (1 or 2),
 * 0 when ARGV[I] is not one, -1 when the value is missing or memory ran out.
 * cli_source_flags_rest takes every argument after "--" as it is (-1: out of
 * memory).  The flags point into ARGV; free FLAGS->v.  cli_source_flags_check
 * says, as a usage error, that flags given for INPUT cannot apply: any with a
 * kernel model, those before "--" with LLVM IR (after it they go to opt);
 * EXIT_OK otherwise. */
typedef struct cli_flags {
  char **v;
  int n, cap;
  int after; /* of the N, those given after "--" */
  /* the architectures NVIDIA's compiler counts registers and spills for
   * (wgp_extract_options.archs): cli_flags_add_gpu's */
  char arch_text[8][16];
  size_t narchs;
  bool no_cache; /* --no-cache: compile without the model cache (cli_extract) */
} cli_flags;
int cli_source_flag(int argc, char **argv, int i, cli_flags *flags);
int cli_source_flags_rest(int argc, char **argv, int i, cli_flags *flags);
int cli_source_flags_check(const char *input, const cli_flags *flags);
/* Takes "--no-cache" (the model cache of cli_extract), the option of the
 * tools that compile a source; false when A is not it. */
bool cli_cache_option(const char *a, cli_flags *flags);
/* Adds the architecture (sm_XY) of the GPU description SPEC (a name or file,
 * NULL: the default) to FLAGS' archs, so that an extraction asks NVIDIA's
 * compiler for that GPU's registers; EXIT_OK, or the input error for a
 * description that does not open (printed). */
int cli_flags_add_gpu(cli_flags *flags, const char *spec);

/* Compiles FILE (of KIND) with the compiler flags FLAGS (may be NULL) into the
 * kernel model OUT (wgp_extract); the driver's warnings and error are printed
 * as cli_prog's.  The model cache is wgp_model_cache_dir's, none with
 * FLAGS->no_cache.  KERNEL (may be NULL): the kernel the tool is asked for;
 * a CUDA template's instance ("scale<float, 256>") is instantiated
 * (wgp_instance_source) whether or not the file does it.  Returns the exit
 * code. */
int cli_extract(const char *file, wgp_source_kind kind, const char *olevel, const cli_flags *flags,
                const char *kernel, const char *out);

/* The kernel --kernel KERNEL names in M (wgp_model_find_kernel), also a
 * template's instance whose arguments name macros FLAGS defines ('scale<float,
 * BS>' with -DBS=64 is the compiled 'scale<float, 64>'); without KERNEL, M's
 * only kernel.  NULL when none: cli_no_kernel says why. */
struct wgp_model;
struct wgp_kernel;
const struct wgp_kernel *cli_find_kernel(const struct wgp_model *m, const char *kernel, const cli_flags *flags);

/* The error for a --kernel NAME the model lacks (NULL: the model has several and none was
 * picked), listing its kernels; returns the exit status. */
int cli_no_kernel(const char *input, const char *name, const struct wgp_model *m);

/* "--jobs N": threads, 1 to WGP_MAX_THREADS; 0, or -1 when malformed. */
int parse_jobs(const char *text, unsigned *jobs);

/* The options that rank a tuning space, which wgtune and wgperf-validate
 * --kernel-tuner share: --space, --kernel, --gpu, --cache, --registers
 * ptxas|estimate, --jobs N (-j N too where SHORT_JOBS is set), --sample N,
 * --seed S, the compiler flags -D, -U, -I (cli_source_flag) and the kernel
 * files (FILES, which the caller fills with the arguments that are not
 * options).  The caller sets the defaults and SHORT_JOBS. */
typedef struct cli_tune_options {
  const char *space, *kernel, *gpu, *cache, *registers;
  unsigned jobs;
  size_t sample;
  unsigned long long seed;
  cli_flags flags;
  const char **files;
  size_t nfiles;
  bool short_jobs;
  cli_hints hints; /* --trip AT=COUNT, --taken AT=FRACTION (source lines only) */
} cli_tune_options;
/* Room in T for the kernel files among ARGC arguments: EXIT_OK, or the input
 * error for out of memory (printed).  cli_tune_options_free frees it and the
 * flags. */
int cli_tune_options_alloc(cli_tune_options *t, int argc);
void cli_tune_options_free(cli_tune_options *t);
/* Takes ARGV[*I] when it is one of T's options: true, *I at its last
 * argument and *RC the usage error printed for a missing or bad value
 * (EXIT_OK: none); false, with nothing changed, when it is not one. */
bool cli_tune_option(int argc, char **argv, int *i, cli_tune_options *t, int *rc);
/* The search's options from T's (pointing into T), the driver's notes
 * printed as cli_prog's; the caller adds what only it has (olevel, shards,
 * progress).  For --registers estimate it also turns ptxas off for the
 * driver the search runs (WGPERF_PTXAS= in the environment). */
struct wgp_tune_options cli_tune_run_options(const cli_tune_options *t);

/* wgperf's own (wgperf.c, wgperf_analyze.c). */

int cmd_analyze(int argc, char **argv);
int cmd_predict(int argc, char **argv);

#endif
