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

int cmd_kernel_tuner(int argc, char **argv) {
  cli_prog = "wgperf-validate";
  cli_command = "wgperf-validate";
  const char *cache_file = NULL, *plot = NULL, *ranking = NULL;
  bool json = false, csv = false, quiet = false;
  cli_tune_options t = {.registers = "ptxas", .seed = 1};
  int rc = cli_tune_options_alloc(&t, argc);
  for (int i = 1; i < argc && rc == EXIT_OK; i++) {
    const char *a = argv[i];
    if (cli_tune_option(argc, argv, &i, &t, &rc))
      continue;
    static const char *const valued[] = {"--kernel-tuner", "--plot", "--ranking"};
    bool needs = false;
    for (size_t k = 0; k < sizeof valued / sizeof *valued; k++)
      needs = needs || strcmp(a, valued[k]) == 0;
    if (needs && i + 1 == argc) {
      rc = usage_error("'%s' needs a value", a);
    } else if (strcmp(a, "--kernel-tuner") == 0) {
      cache_file = argv[++i];
    } else if (strcmp(a, "--ranking") == 0) {
      ranking = argv[++i];
    } else if (strcmp(a, "--plot") == 0) {
      plot = argv[++i];
    } else if (strcmp(a, "--json") == 0) {
      json = true;
    } else if (strcmp(a, "--csv") == 0) {
      csv = true;
    } else if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) {
      quiet = true;
    } else if (a[0] == '-' && a[1]) {
      rc = usage_error("unknown option '%s' with --kernel-tuner", a);
    } else {
      t.files[t.nfiles++] = a;
    }
  }
  const char *space_file = t.space, *gpu_name = t.gpu;
  if (rc == EXIT_OK && !space_file && !ranking)
    rc = usage_error("--kernel-tuner needs the tuning space: --space SPACE.json (or a ranking: --ranking WGTUNE.json)");
  if (rc == EXIT_OK && space_file && ranking)
    rc = usage_error("--space ranks the space, --ranking reads a ranking: one or the other");
  if (rc == EXIT_OK && json && csv)
    rc = usage_error("--json and --csv: one or the other");
  if (rc != EXIT_OK) {
    cli_tune_options_free(&t);
    return rc;
  }
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
  if (rc == EXIT_OK && vkt_not_a_gpu(kc))
    fprintf(stderr, "wgperf-validate: warning: %s was timed on %s, which is not a GPU (wgperf-measure --plan says "
                    "not_a_gpu): the figures below show that the tools work together, never a GPU's accuracy\n",
            cache_file, *vkt_device(kc) ? vkt_device(kc) : "a CPU");
  /* the GPU: --gpu, else the one the cache was measured on */
  if (rc == EXIT_OK && space_file &&
      wgp_gpu_open(gpu_name ? gpu_name : *vkt_device(kc) ? vkt_device(kc) : NULL, &gpu, &d) != WGP_OK) {
    cli_print_diag(d.message);
    if (!gpu_name)
      fprintf(stderr, "wgperf-validate: the cache was measured on '%s': give --gpu NAME\n", vkt_device(kc));
    rc = EXIT_INPUT;
  }
  if (rc == EXIT_OK && ranking) {
    wgp_tune_counts n;
    wgp_tune_get_counts(r, &n);
    if (n.prune_top) {
      fprintf(stderr,
              "wgperf-validate: error: %s: made with wgtune --prune: only configurations that could be among the %zu "
              "fastest were estimated (%zu pruned); the figures need every one (wgtune without --prune)\n",
              ranking, n.prune_top, n.pruned);
      rc = EXIT_INPUT;
    }
  }
  if (rc == EXIT_OK && ranking && *vkt_device(kc) && strcmp(wgp_tune_gpu(r), vkt_device(kc)) != 0)
    fprintf(stderr, "wgperf-validate: warning: %s ranks for %s, %s was measured on %s\n", ranking, wgp_tune_gpu(r),
            cache_file, vkt_device(kc));
  if (rc == EXIT_OK && space_file) {
    wgp_tune_options to = cli_tune_run_options(&t);
    to.progress = !quiet && isatty(2) ? progress : NULL;
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
  cli_tune_options_free(&t);
  return rc;
}
