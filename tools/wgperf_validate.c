/* wgperf_validate.c - wgperf-validate: predict every row of a measurement CSV
 * and report the accuracy, with the published baselines beside ours.
 *
 *   wgperf-validate ../shared/data/amaris-nvprof/measurements.csv --jobs 2
 *   wgperf-validate microbench/results/h100-2026-11-22/validation/validation-h100.csv --json
 *
 * Rows are predicted in-process through the library (validate/),
 * optionally by forked workers over interleaved row chunks whose results are
 * put back in file order, so the output does not depend on --jobs.
 * Documentation: docs/validation.md.  Exit status: 0 ok (rows that could not
 * be predicted are listed, not an error), 1 bad input, 2 bad usage.
 */
#define _DEFAULT_SOURCE
#include "cli.h"
#include "validate_predict.h"
#include "validate_report.h"
#include "validate_thresholds.h"

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef WGPERF_SOURCE_DIR
#define WGPERF_SOURCE_DIR ""
#endif
#ifndef WGPERF_VERSION
#define WGPERF_VERSION "unknown"
#endif

#define MAX_LIST 64

int cmd_kernel_tuner(int argc, char **argv); /* wgperf_validate_kt.c */

static const char usage_text[] =
    "usage: wgperf-validate MEASUREMENTS.csv [--manifest FILE] [--gpu NAME]... [--kernel NAME]... [--sample N]\n"
    "                       [--jobs N] [--regs row|model] [--gpu-map NAME=FILE_OR_NAME]... [--opencl]\n"
    "                       [--cache DIR] [--max-launches N] [--no-launch-overhead] [--json | --csv]\n"
    "                       [--plot FILE.svg] [--all-groups] [--thresholds FILE] [--write-thresholds FILE]\n"
    "                       [--quiet] [-v]\n"
    "       wgperf-validate --kernel-tuner CACHE.json[.gz] --space SPACE.json [KERNEL_FILE...] [--gpu NAME]\n"
    "                       | --kernel-tuner CACHE.json[.gz] --ranking WGTUNE.json\n"
    "                       [--sample N [--seed S]] [--jobs N] [--cache DIR] [--registers ptxas|estimate]\n"
    "                       [--trip FILE:LINE=COUNT] [--taken FILE:LINE=FRACTION]\n"
    "                       [--json | --csv] [--plot FILE.svg] [-DNAME=V] [-IDIR]\n"
    "       wgperf-validate --help (-h) | --version\n";

static const char help_text[] =
    "\n"
    "Predicts every row of MEASUREMENTS.csv (the columns of ../shared/data/amaris-nvprof/measurements.csv)\n"
    "and reports MAPE, geometric-mean relative error and Spearman rank correlation per GPU and per kernel,\n"
    "the launch-shape choice per (gpu, kernel, input_size), and the same for two baselines: the BSP model\n"
    "of seeds/003 (lambda fitted per kernel and GPU on one row) and a data-volume roofline (seeds/002).\n"
    "\n"
    "options:\n"
    "  --manifest FILE      how rows become builds and launches (default validation/kernels/manifest.json)\n"
    "  --gpu NAME           only rows of this GPU (repeatable; the CSV's name)\n"
    "  --kernel NAME        only rows of this kernel (repeatable)\n"
    "  --sample N           about N rows: whole (gpu, kernel, input_size) groups picked by a fixed hash\n"
    "  --jobs N             predict with N worker processes (default 1); the output is the same\n"
    "  --regs row|model     registers per thread from the row's regs_per_thread (default) or the model\n"
    "  --gpu-map NAME=GPU   the description for the CSV's GPU NAME: a shipped name or a .json file\n"
    "  --opencl             compile the OpenCL twins (.cl) instead of the CUDA kernels\n"
    "  --cache DIR          keep extracted kernel models in DIR between runs\n"
    "  --max-launches N     simulate at most N evenly spread launches of a multi-launch run, scaling the\n"
    "                       sum (default 32; 0: all)\n"
    "  --no-launch-overhead compare the prediction without the GPU's launch overhead\n"
    "  --json               the report as JSON (names: docs/cli/wgperf-validate.md)\n"
    "  --csv                one CSV line per row: measured, predicted, baselines, counters, or why not predicted\n"
    "  --plot FILE.svg      predicted vs measured time, log-log, one colour per kernel\n"
    "  --all-groups         list every (gpu, kernel, input_size) group, not only the 10 worst choices\n"
    "  --thresholds FILE    check the figures against recorded limits (validation/thresholds.json); exit 1\n"
    "                       when one is passed\n"
    "  --write-thresholds FILE  record this run's figures and limits around them\n"
    "  --quiet, -q          no progress line\n"
    "  -v, --verbose        say which models are extracted\n"
    "\n"
    "--kernel-tuner CACHE: rank the tuning space (a T1 file, as wgtune does) and compare with Kernel Tuner's\n"
    "brute-force measurements of it (a cache file, gzip'd or plain): MAPE, geometric-mean error, Spearman rho\n"
    "over the configurations both have a time for; the measured time of our predicted best over the measured\n"
    "best; the best measured time among our top 1% over the measured best; the share of the measured top 1%\n"
    "in our top 5%; the configurations only one side could run.  --gpu defaults to the cache's device_name;\n"
    "--sample N compares N configurations drawn at random (--seed S); --cache DIR keeps wgtune's models\n"
    "(share it between GPUs: the models do not depend on the GPU); --csv: one row per configuration;\n"
    "--plot: predicted against measured time; --ranking WGTUNE.json compares a ranking wgtune --json wrote\n"
    "(or wgtune merge) instead of ranking the space again; --trip and --taken give loop counts and\n"
    "branch shares at source lines, as for wgtune\n";

static int vusage(const char *fmt, ...) {
  va_list ap;
  fprintf(stderr, "wgperf-validate: error: ");
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, "\n%s", usage_text);
  return EXIT_USAGE;
}

typedef struct vopts {
  const char *csv, *manifest, *cache, *plot, *thresholds, *write_thresholds;
  const char *gpus[MAX_LIST], *kernels[MAX_LIST], *maps[MAX_LIST];
  size_t ngpus, nkernels, nmaps;
  long sample;
  int jobs, max_launches;
  bool regs_model, opencl, no_overhead, all_groups, quiet, verbose, json, csv_out;
} vopts;

static bool parse_long(const char *s, long min, long max, long *out) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno || end == s || *end || v < min || v > max)
    return false;
  *out = v;
  return true;
}

static int parse_args(int argc, char **argv, vopts *o) {
  memset(o, 0, sizeof *o);
  o->jobs = 1;
  o->max_launches = 32;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    bool has = i + 1 < argc;
    long v;
    if (strcmp(a, "--manifest") == 0 || strcmp(a, "--gpu") == 0 || strcmp(a, "--kernel") == 0 ||
        strcmp(a, "--sample") == 0 || strcmp(a, "--jobs") == 0 || strcmp(a, "--regs") == 0 ||
        strcmp(a, "--gpu-map") == 0 || strcmp(a, "--cache") == 0 || strcmp(a, "--max-launches") == 0 ||
        strcmp(a, "--plot") == 0 || strcmp(a, "--thresholds") == 0 || strcmp(a, "--write-thresholds") == 0) {
      if (!has)
        return vusage("'%s' needs a value", a);
      const char *val = argv[++i];
      if (strcmp(a, "--manifest") == 0)
        o->manifest = val;
      else if (strcmp(a, "--cache") == 0)
        o->cache = val;
      else if (strcmp(a, "--plot") == 0)
        o->plot = val;
      else if (strcmp(a, "--thresholds") == 0)
        o->thresholds = val;
      else if (strcmp(a, "--write-thresholds") == 0)
        o->write_thresholds = val;
      else if (strcmp(a, "--gpu") == 0 || strcmp(a, "--kernel") == 0 || strcmp(a, "--gpu-map") == 0) {
        size_t *n = a[2] == 'k' ? &o->nkernels : strcmp(a, "--gpu") == 0 ? &o->ngpus : &o->nmaps;
        const char **list = a[2] == 'k' ? o->kernels : strcmp(a, "--gpu") == 0 ? o->gpus : o->maps;
        if (*n == MAX_LIST)
          return vusage("more than %d '%s' options", MAX_LIST, a);
        if (strcmp(a, "--gpu-map") == 0) {
          const char *eq = strchr(val, '=');
          if (!eq || eq == val || !eq[1])
            return vusage("--gpu-map '%s': expected NAME=FILE_OR_NAME, e.g. GTX-1080=gpus/gtx-1080.json", val);
        }
        list[(*n)++] = val;
      } else if (strcmp(a, "--sample") == 0) {
        if (!parse_long(val, 1, 100000000, &v))
          return vusage("--sample '%s': expected a number of rows, at least 1", val);
        o->sample = v;
      } else if (strcmp(a, "--jobs") == 0) {
        if (!parse_long(val, 1, 256, &v))
          return vusage("--jobs '%s': expected 1 to 256 worker processes", val);
        o->jobs = (int)v;
      } else if (strcmp(a, "--max-launches") == 0) {
        if (!parse_long(val, 0, VM_MAX_LAUNCHES, &v))
          return vusage("--max-launches '%s': expected 0 (all) to %d", val, VM_MAX_LAUNCHES);
        o->max_launches = (int)v;
      } else { /* --regs */
        if (strcmp(val, "row") == 0)
          o->regs_model = false;
        else if (strcmp(val, "model") == 0)
          o->regs_model = true;
        else
          return vusage("--regs '%s': expected 'row' (the CSV's regs_per_thread) or 'model'", val);
      }
    } else if (strcmp(a, "--json") == 0) {
      o->json = true;
    } else if (strcmp(a, "--csv") == 0) {
      o->csv_out = true;
    } else if (strcmp(a, "--opencl") == 0) {
      o->opencl = true;
    } else if (strcmp(a, "--no-launch-overhead") == 0) {
      o->no_overhead = true;
    } else if (strcmp(a, "--all-groups") == 0) {
      o->all_groups = true;
    } else if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) {
      o->quiet = true;
    } else if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0) {
      o->verbose = true;
    } else if (strcmp(a, "--space") == 0 || strcmp(a, "--ranking") == 0 || strcmp(a, "--seed") == 0 ||
               strcmp(a, "--registers") == 0 || strcmp(a, "--trip") == 0 || strcmp(a, "--taken") == 0 ||
               strncmp(a, "-D", 2) == 0 || strncmp(a, "-I", 2) == 0) {
      return vusage("'%s' is an option of --kernel-tuner, not of a measurement CSV's validation "
                    "(wgperf-validate --kernel-tuner CACHE --space SPACE.json ...)", a);
    } else if (a[0] == '-' && a[1]) {
      return vusage("unknown option '%s'", a);
    } else if (o->csv) {
      return vusage("one measurement file, got '%s' and '%s'", o->csv, a);
    } else {
      o->csv = a;
    }
  }
  if (!o->csv)
    return vusage("no measurement file given");
  if (o->json && o->csv_out)
    return vusage("--json and --csv both write to standard output: pick one");
  return EXIT_OK;
}

/* ---- selection ---------------------------------------------------------------- */

static bool listed(const char *const *list, size_t n, const char *s) {
  if (n == 0)
    return true;
  for (size_t i = 0; i < n; i++)
    if (strcmp(list[i], s) == 0)
      return true;
  return false;
}

static uint64_t mix(uint64_t h, const char *s) {
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return (h ^ 0xff) * 1099511628211ull;
}

typedef struct sgroup {
  uint64_t hash;
  size_t first; /* position in the filtered list of its first row */
} sgroup;

static int cmp_sgroup(const void *a, const void *b) {
  const sgroup *x = a, *y = b;
  if (x->hash != y->hash)
    return x->hash < y->hash ? -1 : 1;
  return x->first < y->first ? -1 : x->first > y->first;
}

static uint64_t group_hash(const vrow *r) {
  char size[32];
  snprintf(size, sizeof size, "%lld", (long long)r->r.input_size);
  return mix(mix(mix(1469598103934665603ull, r->gpu), r->kernel), size);
}

/* Keeps whole (gpu, kernel, input_size) groups in the order of a fixed hash
 * until about N rows are taken; returns the new count (IDX keeps file order). */
static size_t sample_rows(const vrow *rows, size_t *idx, size_t n, long want) {
  if ((size_t)want >= n)
    return n;
  sgroup *g = malloc(n * sizeof *g);
  bool *take = calloc(n, sizeof *take);
  if (!g || !take) {
    free(g);
    free(take);
    return n;
  }
  size_t ng = 0;
  for (size_t i = 0; i < n; i++) {
    uint64_t h = group_hash(&rows[idx[i]]);
    bool seen = false;
    for (size_t j = 0; j < ng && !seen; j++)
      seen = g[j].hash == h;
    if (!seen)
      g[ng++] = (sgroup){h, i};
  }
  qsort(g, ng, sizeof *g, cmp_sgroup);
  size_t taken = 0;
  for (size_t j = 0; j < ng && taken < (size_t)want; j++)
    for (size_t i = 0; i < n; i++)
      if (group_hash(&rows[idx[i]]) == g[j].hash) {
        take[i] = true;
        taken++;
      }
  size_t k = 0;
  for (size_t i = 0; i < n; i++)
    if (take[i])
      idx[k++] = idx[i];
  free(g);
  free(take);
  return k;
}

/* ---- running the rows ------------------------------------------------------------ */

typedef struct progress {
  bool on;
  size_t total, done;
  double last;
} progress;

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void progress_step(progress *p, size_t add) {
  p->done += add;
  if (!p->on)
    return;
  double t = now_s();
  if (t - p->last < 0.25 && p->done < p->total)
    return;
  p->last = t;
  fprintf(stderr, "\rwgperf-validate: %zu/%zu rows predicted", p->done, p->total);
  fflush(stderr);
}

static void progress_end(progress *p) {
  if (p->on)
    fprintf(stderr, "\r%60s\r", "");
}

typedef struct record {
  size_t sel;
  vresult res;
} record;

static bool write_all(int fd, const void *buf, size_t n) {
  const char *p = buf;
  while (n) {
    ssize_t w = write(fd, p, n);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      return false;
    p += w;
    n -= (size_t)w;
  }
  return true;
}

/* Predicts the selected rows into RES with JOBS processes. */
static void run_rows(vpredictor *pr, const vrow *rows, const size_t *idx, size_t n, int jobs, vresult *res,
                     progress *pg) {
  if (jobs <= 1 || n < 2) {
    for (size_t i = 0; i < n; i++) {
      vpredict_row(pr, &rows[idx[i]], &res[i]);
      progress_step(pg, 1);
    }
    return;
  }
  if ((size_t)jobs > n)
    jobs = (int)n;
  bool *got = calloc(n, sizeof *got);
  pid_t *pids = calloc((size_t)jobs, sizeof *pids);
  struct pollfd *fds = calloc((size_t)jobs, sizeof *fds);
  char **buf = calloc((size_t)jobs, sizeof *buf);
  size_t *have = calloc((size_t)jobs, sizeof *have);
  if (!got || !pids || !fds || !buf || !have) {
    free(got), free(pids), free(fds), free(buf), free(have);
    run_rows(pr, rows, idx, n, 1, res, pg);
    return;
  }
  fflush(stdout);
  fflush(stderr);
  for (int w = 0; w < jobs; w++) {
    int fd[2];
    fds[w].fd = -1;
    if (pipe(fd) != 0 || !(buf[w] = malloc(sizeof(record))))
      continue;
    pid_t pid = fork();
    if (pid == 0) {
      close(fd[0]);
      for (int v = 0; v < w; v++)
        if (fds[v].fd >= 0)
          close(fds[v].fd);
      record rec;
      for (size_t i = (size_t)w; i < n; i += (size_t)jobs) {
        memset(&rec, 0, sizeof rec);
        rec.sel = i;
        vpredict_row(pr, &rows[idx[i]], &rec.res);
        if (!write_all(fd[1], &rec, sizeof rec))
          _exit(3);
      }
      _exit(0);
    }
    close(fd[1]);
    if (pid < 0) {
      close(fd[0]);
      continue;
    }
    pids[w] = pid;
    fds[w].fd = fd[0];
    fds[w].events = POLLIN;
  }
  int open_fds = 0;
  for (int w = 0; w < jobs; w++)
    open_fds += fds[w].fd >= 0;
  while (open_fds > 0) {
    if (poll(fds, (nfds_t)jobs, -1) < 0) {
      if (errno == EINTR)
        continue;
      break;
    }
    for (int w = 0; w < jobs; w++) {
      if (fds[w].fd < 0 || !(fds[w].revents & (POLLIN | POLLHUP | POLLERR)))
        continue;
      ssize_t r = read(fds[w].fd, buf[w] + have[w], sizeof(record) - have[w]);
      if (r < 0 && errno == EINTR)
        continue;
      if (r <= 0) {
        close(fds[w].fd);
        fds[w].fd = -1;
        open_fds--;
        continue;
      }
      have[w] += (size_t)r;
      if (have[w] == sizeof(record)) {
        record *rec = (record *)buf[w];
        if (rec->sel < n) {
          res[rec->sel] = rec->res;
          got[rec->sel] = true;
          progress_step(pg, 1);
        }
        have[w] = 0;
      }
    }
  }
  int status[256] = {0};
  for (int w = 0; w < jobs; w++)
    if (pids[w] > 0)
      while (waitpid(pids[w], &status[w], 0) < 0 && errno == EINTR)
        ;
  /* rows a worker never returned: predict them here, once more */
  for (size_t i = 0; i < n; i++)
    if (!got[i]) {
      int w = (int)(i % (size_t)jobs);
      if (pids[w] > 0 && WIFSIGNALED(status[w])) {
        memset(&res[i], 0, sizeof res[i]);
        snprintf(res[i].reason, sizeof res[i].reason, "the worker predicting it was killed by signal %d",
                 WTERMSIG(status[w]));
        res[i].pred_s = res[i].bsp_raw_s = res[i].roofline_s = res[i].pipeline_s = 0.0 / 0.0;
        progress_step(pg, 1);
      } else {
        vpredict_row(pr, &rows[idx[i]], &res[i]);
        progress_step(pg, 1);
      }
    }
  for (int w = 0; w < jobs; w++)
    free(buf[w]);
  free(got), free(pids), free(fds), free(buf), free(have);
}

static const char *default_manifest(void) {
  static char path[4100];
  if (*WGPERF_SOURCE_DIR) {
    snprintf(path, sizeof path, "%s/validation/kernels/manifest.json", WGPERF_SOURCE_DIR);
    if (access(path, R_OK) == 0)
      return path;
  }
  char exe[4000];
  ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (len > 0) {
    exe[len] = '\0';
    char *slash = strrchr(exe, '/');
    if (slash) {
      *slash = '\0';
      snprintf(path, sizeof path, "%s/../share/wgperf/validation/manifest.json", exe);
      if (access(path, R_OK) == 0)
        return path;
    }
  }
  return NULL;
}

/* the models' extraction: as the driver and the library write it */
static void print_message(void *user, const char *message) {
  (void)user;
  fprintf(stderr, "%s\n", message);
}

int main(int argc, char **argv) {
  for (int i = 1; i < argc; i++)
    if (strcmp(argv[i], "--kernel-tuner") == 0 && !(argc >= 2 && strcmp(argv[1], "--help") == 0))
      return cmd_kernel_tuner(argc, argv);
  if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
    printf("%s%s", usage_text, help_text);
    return EXIT_OK;
  }
  if (argc >= 2 && strcmp(argv[1], "--version") == 0) {
    printf("wgperf-validate %s\n", WGPERF_VERSION);
    return EXIT_OK;
  }
  vopts o;
  int rc = parse_args(argc, argv, &o);
  if (rc != EXIT_OK)
    return rc;
  if (!o.verbose)
    setenv("WGPERF_QUIET", "1", 1); /* the plugin's notes about the validation kernels */
  const char *mpath = o.manifest ? o.manifest : default_manifest();
  if (!mpath)
    return vusage("no manifest found; give --manifest FILE (validation/kernels/manifest.json in the sources)");
  wgp_diag d;
  vm_manifest *man = NULL;
  vcsv *table = NULL;
  vrow *rows = NULL;
  size_t nrows = 0;
  if (vm_load_file(mpath, &man, &d) != WGP_OK || vcsv_read_file(o.csv, &table, &d) != WGP_OK ||
      vrows_parse(table, &rows, &nrows, &d) != WGP_OK) {
    fprintf(stderr, "%s\n", d.message);
    vm_free(man);
    vcsv_free(table);
    return EXIT_INPUT;
  }
  size_t *idx = malloc((nrows ? nrows : 1) * sizeof *idx);
  if (!idx) {
    fprintf(stderr, "wgperf: error: out of memory\n");
    return EXIT_INPUT;
  }
  size_t n = 0;
  for (size_t i = 0; i < nrows; i++)
    if (listed(o.gpus, o.ngpus, rows[i].gpu) && listed(o.kernels, o.nkernels, rows[i].kernel))
      idx[n++] = i;
  char selection[512] = "";
  size_t used = 0;
  for (size_t i = 0; i < o.ngpus && used < sizeof selection; i++)
    used += (size_t)snprintf(selection + used, sizeof selection - used, "%s--gpu %s", used ? " " : "", o.gpus[i]);
  for (size_t i = 0; i < o.nkernels && used < sizeof selection; i++)
    used += (size_t)snprintf(selection + used, sizeof selection - used, "%s--kernel %s", used ? " " : "",
                             o.kernels[i]);
  if (o.sample) {
    n = sample_rows(rows, idx, n, o.sample);
    if (used < sizeof selection)
      snprintf(selection + used, sizeof selection - used, "%s--sample %ld", used ? " " : "", o.sample);
  }
  vpredict_opts po = {man,     o.opencl,  o.regs_model,  o.no_overhead, o.max_launches, o.cache, o.maps,
                      o.nmaps, o.verbose, print_message, NULL};
  vpredictor *pr = NULL;
  if (vpredictor_new(&po, &pr, &d) != WGP_OK) {
    fprintf(stderr, "%s\n", d.message);
    return EXIT_INPUT;
  }
  vresult *res = calloc(n ? n : 1, sizeof *res);
  if (!res) {
    fprintf(stderr, "wgperf: error: out of memory\n");
    return EXIT_INPUT;
  }
  progress pg = {!o.quiet && isatty(2), n, 0, 0};
  vpredictor_prepare(pr, rows, idx, n);
  run_rows(pr, rows, idx, n, o.jobs, res, &pg);
  progress_end(&pg);
  vreport_input ri = {o.csv, rows, idx, res, n, nrows, selection};
  vreport *rep = NULL;
  if (vreport_build(&ri, &rep, &d) != WGP_OK) {
    fprintf(stderr, "%s\n", d.message);
    rc = EXIT_INPUT;
  } else {
    if (o.json)
      vreport_json(rep, stdout);
    else if (o.csv_out)
      vreport_csv(rep, stdout);
    else
      vreport_text(rep, stdout, o.all_groups);
    int err;
    if (o.plot && (err = vreport_svg(rep, o.plot)) != 0) {
      fprintf(stderr, "wgperf: error: %s: cannot write: %s\n", o.plot, strerror(err));
      rc = EXIT_INPUT;
    }
    if (o.thresholds || o.write_thresholds) {
      json_t *j = vreport_to_json(rep);
      if (o.write_thresholds) {
        char cmd[2048] = "wgperf-validate";
        size_t u = strlen(cmd);
        for (int i = 1; i < argc && u < sizeof cmd; i++)
          if (strcmp(argv[i], "--write-thresholds") == 0)
            i++;
          else
            u += (size_t)snprintf(cmd + u, sizeof cmd - u, " %s", argv[i]);
        if (vthresh_write(j, o.write_thresholds, cmd, &d) != WGP_OK) {
          fprintf(stderr, "%s\n", d.message);
          rc = EXIT_INPUT;
        }
      }
      if (o.thresholds) {
        fflush(stdout);
        int failed = vthresh_check(j, o.thresholds, stderr, &d);
        if (failed < 0) {
          fprintf(stderr, "%s\n", d.message);
          rc = EXIT_INPUT;
        } else if (failed > 0) {
          fprintf(stderr, "wgperf: error: %s: %d figure%s passed the limits of %s: accuracy regressed\n", o.csv, failed,
                  failed == 1 ? "" : "s", o.thresholds);
          rc = EXIT_INPUT;
        }
      }
      json_decref(j);
    }
    if (fflush(stdout) != 0) {
      fprintf(stderr, "wgperf: error: cannot write the output: %s\n", strerror(errno));
      rc = EXIT_INPUT;
    }
  }
  vreport_free(rep);
  vpredictor_free(pr);
  free(res);
  free(idx);
  free(rows);
  vcsv_free(table);
  vm_free(man);
  return rc;
}
