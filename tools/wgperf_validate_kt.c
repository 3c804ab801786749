/* wgperf_validate_kt.c - wgperf-validate --kernel-tuner: wgtune's ranking of
 * a tuning space against a Kernel Tuner brute-force cache file of it
 * (validate/validate_kt.c; docs/validation.md, "Whole tuning spaces").
 *
 *   wgperf-validate --kernel-tuner convolution-rtx-3090.json.gz --space convolution.json convolution.cu
 */
#define _DEFAULT_SOURCE
#include "cli.h"
#include "validate_kt.h"

#include "wgperf/analyze.h"
#include "wgperf/tune.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int cmd_kernel_tuner(int argc, char **argv);

static void progress(void *user, const char *phase, size_t done, size_t total) {
  (void)user;
  fprintf(stderr, "\rwgperf-validate: %s %zu/%zu configurations   ", phase, done, total);
}

static void print_message(void *user, const char *m) {
  (void)user;
  cli_print_diag(m);
}

int cmd_kernel_tuner(int argc, char **argv) {
  cli_prog = "wgperf-validate";
  cli_command = "wgperf-validate";
  const char *cache_file = NULL, *space_file = NULL, *gpu_name = NULL, *plot = NULL, *cache_dir = NULL,
             *registers = "ptxas", *kernel = NULL, *ranking = NULL;
  bool json = false, csv = false, quiet = false;
  unsigned jobs = 0;
  size_t sample = 0;
  unsigned long long seed = 1;
  const char **files = calloc((size_t)argc, sizeof *files);
  size_t nfiles = 0;
  cli_flags flags = {0};
  int rc = files ? EXIT_OK : input_error("out of memory");
  for (int i = 1; i < argc && rc == EXIT_OK; i++) {
    const char *a = argv[i];
    int took;
    static const char *const valued[] = {"--kernel-tuner", "--space", "--gpu",       "--plot",   "--cache", "--jobs",
                                         "--sample",       "--seed",  "--registers", "--kernel", "--ranking"};
    bool needs = false;
    for (size_t k = 0; k < sizeof valued / sizeof *valued; k++)
      needs = needs || strcmp(a, valued[k]) == 0;
    if (needs && i + 1 == argc) {
      rc = usage_error("'%s' needs a value", a);
    } else if ((took = cli_source_flag(argc, argv, i, &flags)) != 0) {
      if (took < 0)
        rc = usage_error("'%s' needs a value (-DNAME[=VALUE], -UNAME or -IDIR)", a);
      else
        i += took - 1;
    } else if (strcmp(a, "--kernel-tuner") == 0) {
      cache_file = argv[++i];
    } else if (strcmp(a, "--space") == 0) {
      space_file = argv[++i];
    } else if (strcmp(a, "--ranking") == 0) {
      ranking = argv[++i];
    } else if (strcmp(a, "--gpu") == 0) {
      gpu_name = argv[++i];
    } else if (strcmp(a, "--kernel") == 0) {
      kernel = argv[++i];
    } else if (strcmp(a, "--plot") == 0) {
      plot = argv[++i];
    } else if (strcmp(a, "--cache") == 0) {
      cache_dir = argv[++i];
    } else if (strcmp(a, "--registers") == 0) {
      registers = argv[++i];
      if (strcmp(registers, "ptxas") != 0 && strcmp(registers, "estimate") != 0)
        rc = usage_error("--registers '%s': expected ptxas or estimate", registers);
    } else if (strcmp(a, "--jobs") == 0) {
      if (parse_jobs(argv[++i], &jobs))
        rc = usage_error("--jobs '%s': expected a number of worker processes, 1 to %u", argv[i], WGP_MAX_THREADS);
    } else if (strcmp(a, "--sample") == 0 || strcmp(a, "--seed") == 0) {
      const char *v = argv[++i];
      char *end;
      errno = 0;
      unsigned long long x = strtoull(v, &end, 10);
      if (!*v || *end || v[0] == '-' || errno || (a[3] == 'a' && x == 0))
        rc = usage_error("%s '%s': expected a %s", a, v, a[3] == 'a' ? "number of configurations, at least 1" : "number");
      else if (a[3] == 'a')
        sample = (size_t)x;
      else
        seed = x;
    } else if (strcmp(a, "--json") == 0) {
      json = true;
    } else if (strcmp(a, "--csv") == 0) {
      csv = true;
    } else if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) {
      quiet = true;
    } else if (a[0] == '-' && a[1]) {
      rc = usage_error("unknown option '%s' with --kernel-tuner", a);
    } else {
      files[nfiles++] = a;
    }
  }
  if (rc == EXIT_OK && !space_file && !ranking)
    rc = usage_error("--kernel-tuner needs the tuning space: --space SPACE.json (or a ranking: --ranking WGTUNE.json)");
  if (rc == EXIT_OK && space_file && ranking)
    rc = usage_error("--space ranks the space, --ranking reads a ranking: one or the other");
  if (rc == EXIT_OK && json && csv)
    rc = usage_error("--json and --csv: one or the other");
  if (rc != EXIT_OK) {
    free(files);
    free(flags.v);
    return rc;
  }
  if (strcmp(registers, "estimate") == 0)
    setenv("WGPERF_PTXAS", "", 1);
  wgp_diag d;
  vkt_cache *kc = NULL;
  wgp_tune_space *s = NULL;
  wgp_gpu *gpu = NULL;
  wgp_tune_result *r = NULL;
  vkt_report *rep = NULL;
  if (vkt_load(cache_file, &kc, &d) != WGP_OK ||
      (space_file && wgp_tune_space_load_file(space_file, &s, &d) != WGP_OK) ||
      (ranking && wgp_tune_read_json(ranking, &r, &d) != WGP_OK)) {
    cli_print_diag(d.message);
    rc = EXIT_INPUT;
  }
  /* the GPU: --gpu, else the one the cache was measured on */
  if (rc == EXIT_OK && space_file &&
      wgp_gpu_open(gpu_name ? gpu_name : *vkt_device(kc) ? vkt_device(kc) : NULL, &gpu, &d) != WGP_OK) {
    cli_print_diag(d.message);
    if (!gpu_name)
      fprintf(stderr, "wgperf-validate: the cache was measured on '%s': give --gpu NAME\n", vkt_device(kc));
    rc = EXIT_INPUT;
  }
  if (rc == EXIT_OK && ranking && *vkt_device(kc) && strcmp(wgp_tune_gpu(r), vkt_device(kc)) != 0)
    fprintf(stderr, "wgperf-validate: warning: %s ranks for %s, %s was measured on %s\n", ranking, wgp_tune_gpu(r),
            cache_file, vkt_device(kc));
  if (rc == EXIT_OK && space_file) {
    wgp_tune_options to = {.kernel_files = files,
                           .num_kernel_files = nfiles,
                           .kernel = kernel,
                           .flags = flags.v,
                           .num_flags = (size_t)flags.n,
                           .cache_dir = cache_dir,
                           .jobs = jobs,
                           .sample = sample,
                           .seed = seed,
                           .progress = !quiet && isatty(2) ? progress : NULL,
                           .message = print_message};
    wgp_status st = wgp_tune_run(s, gpu, &to, &r, &d);
    if (to.progress)
      fprintf(stderr, "\r%70s\r", "");
    if (st != WGP_OK) {
      cli_print_diag(d.message);
      rc = EXIT_INPUT;
    }
  }
  if (rc == EXIT_OK && vkt_compare(kc, r, &rep, &d) != WGP_OK) {
    cli_print_diag(d.message);
    rc = EXIT_INPUT;
  }
  if (rc == EXIT_OK) {
    int w = json ? vkt_write_json(rep, cache_file, stdout) : csv ? vkt_write_csv(rep, stdout)
                                                                 : vkt_write_text(rep, cache_file, stdout);
    if (w != 0)
      rc = input_error("cannot write the output");
    if (rc == EXIT_OK && plot) {
      FILE *f = fopen(plot, "w");
      if (!f || vkt_write_plot(rep, cache_file, f) != 0 || fclose(f) != 0)
        rc = input_error("%s: cannot write: %s", plot, strerror(errno));
    }
  }
  vkt_report_free(rep);
  wgp_tune_result_free(r);
  wgp_gpu_free(gpu);
  wgp_tune_space_free(s);
  vkt_free(kc);
  free(files);
  free(flags.v);
  return rc;
}
