/* wgtune - rank a whole tuning space (compile-time parameters and block
 * shapes, a T1 file) without running the kernel: the command line over
 * wgp_tune_run and its reports (include/wgperf/tune.h, tune/;
 * docs/wgtune.md).
 *
 *   wgtune convolution.cu --space convolution.json --gpu rtx-3090 --top 20
 *   wgtune merge shard1.json shard2.json ... [--json]
 */
#define _DEFAULT_SOURCE
#include "cli.h"
#include "files_internal.h"

#include "wgperf/analyze.h"
#include "wgperf/tune.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char usage_text[] =
    "usage: wgtune KERNEL_FILE... --space SPACE.json [--kernel NAME] [--gpu NAME|FILE] [--jobs N]\n"
    "              [--top K] [--json | --csv] [--t4 OUT.json] [--emit-kernel-tuner OUT.json]\n"
    "              [--plot OUT.svg] [--cache DIR] [--shard K/N] [--sample N [--seed S]]\n"
    "              [--registers ptxas|estimate] [--prune] [--trip FILE:LINE=COUNT]\n"
    "              [--taken FILE:LINE=FRACTION] [-O N] [-DNAME=V] [-UNAME] [-IDIR]\n"
    "       wgtune KERNEL_FILE... --space SPACE.json --plan OUT.tsv [--kernel NAME] [--shard K/N]\n"
    "              [--sample N [--seed S]] [-DNAME=V] [-UNAME] [-IDIR]\n"
    "       wgtune merge SHARD.json... [--top K] [--json | --csv] [--t4 OUT.json]\n"
    "              [--emit-kernel-tuner OUT.json] [--plot OUT.svg]\n"
    "       wgtune --help (-h)\n";

static const char help_text[] =
    "  KERNEL_FILE: the kernel source, or several files compiled as one, in order (a kernel split\n"
    "  over files, as Kernel Tuner concatenates them); none: the space's KernelFile\n"
    "  --space: the tuning space in the community's T1 JSON format: TuningParameters (each a #define),\n"
    "  Conditions (Python expressions), KernelSpecification (Language CUDA or OpenCL, KernelName,\n"
    "  ProblemSize, GridDivX/Y/Z, LocalSize, Arguments), read with Kernel Tuner's rules\n"
    "  --kernel: the kernel (default: the space's KernelName, with KernelTypeNames as its template\n"
    "      arguments); a CUDA template's instance (scale<float, 4>) is instantiated\n"
    "  --gpu: a file name, product name or alias (default h100-sxm), or a description file\n"
    "  --jobs N (-j N): worker processes (default: the CPUs this process may use)\n"
    "  --top K: rows of the table (default 20; 0: all), configurations --emit-kernel-tuner writes and\n"
    "  --plot highlights (default 10); the K fastest (at most 100) are checked for accesses outside\n"
    "  the buffers the space gives\n"
    "  --json: the whole ranking (configurations_total, distinct, ranked, cannot_run, wall_ms, ...);\n"
    "  --csv: one row per configuration, ranked first\n"
    "  --t4 OUT.json: the ranking as T4 results (schema 1.0.0), the prediction as the measured time\n"
    "  --emit-kernel-tuner OUT.json: the K best as tune_params and one restriction, for Kernel Tuner\n"
    "  --plot OUT.svg: predicted time against rank and against each parameter's values\n"
    "  --cache DIR: keep preprocessed-code hashes and models there (safe to share between runs and\n"
    "  processes): a second run compiles nothing; default: a temporary folder\n"
    "  --shard K/N: rank only the K-th of N equal parts of the space (in its order); 'wgtune merge'\n"
    "  joins the --json of all N into the ranking one process gives\n"
    "  --sample N: rank N configurations drawn at random from the space (the same N for the same\n"
    "  --seed S, default 1), e.g. to look at a large space first\n"
    "  --prune: rank exactly the --top K fastest (default 20) and estimate only what could be among\n"
    "  them: each configuration's bounds first (milliseconds), then the estimates best-first by lower\n"
    "  bound; a configuration whose best case is slower than rank K is listed as pruned, with its\n"
    "  bounds (--json: pruned), not estimated\n"
    "  --registers ptxas: registers per thread from ptxas where a CUDA toolkit is found (the default,\n"
    "  as wgperf predict); estimate: the IR estimate for every configuration (no ptxas: faster)\n"
    "  --trip FILE:LINE=COUNT (or LINE=COUNT): a loop whose count needs loaded values runs COUNT\n"
    "  times per entry in every configuration (an unrolled loop and its remainder split it);\n"
    "  --taken FILE:LINE=FRACTION: the share of threads that take the branches at that line;\n"
    "  each repeatable (at most 16), by source line since each configuration is its own code\n"
    "  -O N: the level sources are compiled at (default 3); -D, -U, -I: more compiler flags\n"
    "  --plan OUT.tsv: rank nothing: write the configurations (of --sample and --shard) as a\n"
    "  measurement plan, each with its #defines, grid, block and buffer sizes, for\n"
    "  'wgperf-measure --plan' on a GPU machine (which needs no T1 reader); compiles nothing\n"
    "  a configuration that does not preprocess or compile, or cannot run on the GPU, is listed\n"
    "  with its reason (cannot_run), never dropped\n";

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

typedef struct progress_state {
  double t0;
  char phase[64];
} progress_state;

static void progress(void *user, const char *phase, size_t done, size_t total) {
  progress_state *p = user;
  double t = now_s() - p->t0;
  if (strcmp(phase, p->phase) != 0) {
    snprintf(p->phase, sizeof p->phase, "%s", phase);
    p->t0 = now_s(), t = 0;
  }
  double rate = t > 0 ? (double)done / t : 0;
  fprintf(stderr, "\rwgtune: %s %zu/%zu configurations, %.0f s", phase, done, total, t);
  if (rate > 0 && done < total)
    fprintf(stderr, ", about %.0f s left   ", (double)(total - done) / rate);
  else
    fprintf(stderr, "                 ");
}

/* Notes and warnings during a run: the progress line cleared first, redrawn
 * by the next progress call. */
static void message_during_progress(void *user, const char *m) {
  (void)user;
  fprintf(stderr, "\r%78s\r", "");
  cli_print_diag(m);
}

typedef struct outputs {
  bool json, csv;
  size_t top;
  bool top_given;
  const char *t4, *kt, *plot;
} outputs;

static int write_file(const char *file, int (*fn)(const wgp_tune_result *, FILE *, size_t), const wgp_tune_result *r,
                      size_t top) {
  FILE *f = fopen(file, "w");
  if (!f)
    return input_error("%s: cannot write: %s", file, strerror(errno));
  int rc = fn(r, f, top);
  if (fclose(f) != 0 || rc != 0)
    return input_error("%s: cannot write: %s", file, strerror(errno));
  return EXIT_OK;
}

static int t4_adapter(const wgp_tune_result *r, FILE *f, size_t top) {
  (void)top;
  return wgp_tune_write_t4(r, f);
}

/* Everything the options ask for, from R. */
static int report(const wgp_tune_result *r, const outputs *o) {
  int rc = EXIT_OK;
  wgp_tune_counts pc;
  wgp_tune_get_counts(r, &pc);
  if (pc.prune_top && o->top_given && (o->top == 0 || o->top > pc.prune_top))
    fprintf(stderr, "wgtune: note: made with --prune %zu: ranks past %zu are not those of the whole space\n",
            pc.prune_top, pc.prune_top);
  if (o->json)
    rc = wgp_tune_write_json(r, stdout) == 0 ? EXIT_OK : input_error("cannot write the output");
  else if (o->csv)
    rc = wgp_tune_write_csv(r, stdout) == 0 ? EXIT_OK : input_error("cannot write the output");
  else
    rc = wgp_tune_write_table(r, stdout, o->top_given ? o->top : 20) == 0 ? EXIT_OK
                                                                            : input_error("cannot write the output");
  size_t chosen = o->top_given && o->top ? o->top : 10;
  if (rc == EXIT_OK && o->t4)
    rc = write_file(o->t4, t4_adapter, r, 0);
  if (rc == EXIT_OK && o->kt)
    rc = write_file(o->kt, wgp_tune_write_kernel_tuner, r, o->top_given ? o->top : 10);
  if (rc == EXIT_OK && o->plot)
    rc = write_file(o->plot, wgp_tune_write_plot, r, chosen);
  if (rc == EXIT_OK && fflush(stdout) != 0)
    rc = input_error("cannot write the output: %s", strerror(errno));
  wgp_tune_counts n;
  wgp_tune_get_counts(r, &n);
  if (rc == EXIT_OK && n.ranked == 0)
    rc = input_error("none of the %zu configurations%s can run on %s (cannot_run lists why)", n.run,
                     n.shards ? " of this shard" : "", wgp_tune_gpu(r));
  return rc;
}

/* An output option shared by wgtune and wgtune merge; 1 when A was one (I
 * moved past its value), 0 when not, an exit code + 100 on a usage error. */
static int output_option(int argc, char **argv, int *i, outputs *o) {
  const char *a = argv[*i];
  static const char *const valued[] = {"--top", "--t4", "--emit-kernel-tuner", "--plot"};
  for (size_t k = 0; k < sizeof valued / sizeof *valued; k++)
    if (strcmp(a, valued[k]) == 0 && *i + 1 == argc)
      return 100 + usage_error("'%s' needs a value", a);
  if (strcmp(a, "--json") == 0)
    o->json = true;
  else if (strcmp(a, "--csv") == 0)
    o->csv = true;
  else if (strcmp(a, "--t4") == 0)
    o->t4 = argv[++*i];
  else if (strcmp(a, "--emit-kernel-tuner") == 0)
    o->kt = argv[++*i];
  else if (strcmp(a, "--plot") == 0)
    o->plot = argv[++*i];
  else if (strcmp(a, "--top") == 0) {
    const char *v = argv[++*i];
    char *end;
    errno = 0;
    unsigned long long t = strtoull(v, &end, 10);
    if (!*v || *end || v[0] == '-' || errno)
      return 100 + usage_error("--top '%s': expected a number of configurations (0: all)", v);
    o->top = (size_t)t, o->top_given = true;
  } else
    return 0;
  return 1;
}

static int cmd_merge(int argc, char **argv) {
  cli_command = "wgtune";
  outputs o = {0};
  const char **files = calloc((size_t)argc, sizeof *files);
  size_t nfiles = 0;
  int rc = files ? EXIT_OK : input_error("out of memory");
  for (int i = 2; i < argc && rc == EXIT_OK; i++) {
    int took = output_option(argc, argv, &i, &o);
    if (took >= 100)
      rc = took - 100;
    else if (took)
      continue;
    else if (argv[i][0] == '-')
      rc = usage_error("unknown option '%s' for 'wgtune merge'", argv[i]);
    else
      files[nfiles++] = argv[i];
  }
  if (rc == EXIT_OK && o.json && o.csv)
    rc = usage_error("--json and --csv: one or the other");
  if (rc == EXIT_OK && nfiles == 0)
    rc = usage_error("'wgtune merge' needs the --json outputs of the shards");
  wgp_tune_result **shards = rc == EXIT_OK ? calloc(nfiles, sizeof *shards) : NULL;
  if (rc == EXIT_OK && !shards)
    rc = input_error("out of memory");
  wgp_diag d;
  for (size_t i = 0; rc == EXIT_OK && i < nfiles; i++)
    if (wgp_tune_read_json(files[i], &shards[i], &d) != WGP_OK) {
      cli_print_diag(d.message);
      rc = EXIT_INPUT;
    }
  wgp_tune_result *all = NULL;
  if (rc == EXIT_OK && wgp_tune_merge(shards, nfiles, &all, &d) != WGP_OK) {
    cli_print_diag(d.message);
    rc = EXIT_INPUT;
  }
  if (rc == EXIT_OK) {
    wgp_tune_say_outside(all, cli_print_message, NULL); /* the shards' checks of their fastest */
    rc = report(all, &o);
  }
  wgp_tune_result_free(all);
  for (size_t i = 0; shards && i < nfiles; i++)
    wgp_tune_result_free(shards[i]);
  free(shards);
  free(files);
  return rc;
}

/* wgtune --plan: the measurement plan of the configurations, nothing ranked. */
static int write_plan(cli_tune_options *t, const char *file, unsigned shard, unsigned shards) {
  wgp_diag d;
  wgp_tune_space *s = NULL;
  int rc = EXIT_OK;
  if (wgp_tune_space_load_file(t->space, &s, &d) != WGP_OK) {
    cli_print_diag(d.message);
    cli_tune_options_free(t);
    return EXIT_INPUT;
  }
  /* written beside FILE and renamed into place when whole: a plan that fails
   * half-way leaves FILE as it was */
  char tmp[PATH_MAX];
  bool to_stdout = strcmp(file, "-") == 0;
  if (!to_stdout && snprintf(tmp, sizeof tmp, "%s.tmp%ld", file, (long)getpid()) >= (int)sizeof tmp) {
    wgp_tune_space_free(s);
    cli_tune_options_free(t);
    return input_error("%s: the path is too long", file);
  }
  FILE *f = to_stdout ? stdout : fopen(tmp, "w");
  if (!f)
    rc = input_error("%s: cannot write: %s", file, strerror(errno));
  size_t n = 0;
  if (rc == EXIT_OK) {
    wgp_tune_options to = cli_tune_run_options(t);
    to.shard = shard, to.shards = shards;
    if (wgp_tune_write_plan(s, &to, f, file, &n, &d) != WGP_OK) {
      cli_print_diag(d.message);
      rc = EXIT_INPUT;
    }
  }
  if (f && !to_stdout) {
    bool closed = fclose(f) == 0; /* renamed only when the whole plan was written */
    if (rc == EXIT_OK && (!closed || wgp_move_into(tmp, file) != 0))
      rc = input_error("%s: cannot write: %s", file, strerror(errno));
    if (rc != EXIT_OK)
      unlink(tmp);
  }
  if (rc == EXIT_OK && !to_stdout)
    fprintf(stderr, "wgtune: %s: a plan of %zu configurations\n", file, n);
  wgp_tune_space_free(s);
  cli_tune_options_free(t);
  return rc;
}

int main(int argc, char **argv) {
  wgp_tune_allocator();
  cli_prog = cli_command = "wgtune";
  for (int i = 1; i < argc; i++)
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      printf("%s%s", usage_text, help_text);
      return EXIT_OK;
    }
  if (argc > 1 && strcmp(argv[1], "merge") == 0)
    return cmd_merge(argc, argv);
  const char *olevel = NULL;
  unsigned shard = 0, shards = 0;
  bool prune = false;
  const char *plan = NULL;
  cli_tune_options t = {.gpu = "h100-sxm", .registers = "ptxas", .seed = 1, .short_jobs = true};
  outputs o = {0};
  int rc = cli_tune_options_alloc(&t, argc);
  for (int i = 1; i < argc && rc == EXIT_OK; i++) {
    const char *a = argv[i];
    int took = output_option(argc, argv, &i, &o);
    if (took >= 100) {
      rc = took - 100;
      break;
    }
    if (took || cli_tune_option(argc, argv, &i, &t, &rc))
      continue;
    if (strncmp(a, "-O", 2) == 0) {
      if (!a[2] && i + 1 == argc)
        rc = usage_error("'-O' needs a level (0, 1, 2, 3, s or z)");
      else if (!cli_olevel_ok(olevel = a[2] ? a + 2 : argv[++i]))
        rc = usage_error("bad optimization level '%s' (0, 1, 2, 3, s or z)", olevel);
    } else if (strcmp(a, "--prune") == 0) {
      prune = true;
    } else if (strcmp(a, "--plan") == 0 && i + 1 == argc) {
      rc = usage_error("'%s' needs a value", a);
    } else if (strcmp(a, "--plan") == 0) {
      plan = argv[++i];
    } else if (strcmp(a, "--shard") == 0 && i + 1 == argc) {
      rc = usage_error("'%s' needs a value", a);
    } else if (strcmp(a, "--shard") == 0) {
      const char *v = argv[++i];
      char *end;
      unsigned long k = strtoul(v, &end, 10), n = 0;
      if (*end == '/')
        n = strtoul(end + 1, &end, 10);
      if (v[0] == '-' || *end || k < 1 || n < 1 || k > n || n > 100000)
        rc = usage_error("--shard '%s': expected K/N with 1 <= K <= N, e.g. --shard 2/8", v);
      shard = (unsigned)k, shards = (unsigned)n;
    } else if (a[0] == '-' && a[1]) {
      rc = usage_error("unknown option '%s'", a);
    } else {
      t.files[t.nfiles++] = a;
    }
  }
  if (rc == EXIT_OK && !t.space)
    rc = usage_error("give the tuning space with --space SPACE.json");
  if (rc == EXIT_OK && o.json && o.csv)
    rc = usage_error("--json and --csv: one or the other");
  if (rc == EXIT_OK && prune && o.top_given && o.top == 0)
    rc = usage_error("--prune ranks the --top K fastest exactly: give K >= 1 (without --prune every configuration "
                     "is estimated)");
  if (rc == EXIT_OK && plan && (prune || o.json || o.csv || o.t4 || o.kt || o.plot))
    rc = usage_error("--plan writes a measurement plan and ranks nothing: no --prune, --json, --csv, --t4, "
                     "--emit-kernel-tuner or --plot with it");
  if (rc != EXIT_OK) {
    cli_tune_options_free(&t);
    return rc;
  }
  if (plan)
    return write_plan(&t, plan, shard, shards);
  wgp_diag d;
  wgp_tune_space *s = NULL;
  wgp_gpu *gpu = NULL;
  wgp_tune_result *r = NULL;
  if (wgp_tune_space_load_file(t.space, &s, &d) != WGP_OK || wgp_gpu_open(t.gpu, &gpu, &d) != WGP_OK) {
    cli_print_diag(d.message);
    rc = EXIT_INPUT;
  }
  if (rc == EXIT_OK) {
    progress_state ps = {now_s(), ""};
    wgp_tune_options to = cli_tune_run_options(&t);
    to.olevel = olevel;
    to.shard = shard, to.shards = shards;
    to.prune_top = prune ? (o.top_given ? o.top : 20) : 0;
    /* the rows a user looks at (--top; at most 100 when all are shown) are
     * checked for accesses outside the space's buffers */
    to.check_top = !o.top_given ? 20 : o.top ? o.top : 100;
    to.progress = isatty(2) ? progress : NULL;
    to.progress_user = &ps;
    if (to.progress)
      to.message = message_during_progress;
    wgp_status st = wgp_tune_run(s, gpu, &to, &r, &d);
    if (to.progress)
      fprintf(stderr, "\r%78s\r", "");
    if (st != WGP_OK) {
      cli_print_diag(d.message);
      rc = EXIT_INPUT;
    }
  }
  if (rc == EXIT_OK)
    rc = report(r, &o);
  wgp_tune_result_free(r);
  wgp_gpu_free(gpu);
  wgp_tune_space_free(s);
  cli_tune_options_free(&t);
  return rc;
}
