/* main.c - wgbench-ocl: the OpenCL microbenchmarks as a program of their own.
 *
 *   wgbench-ocl -o results.csv [--quick] [--platform N] [--device N] [--only G,B]
 *               [--repeats N] [--timeout S]
 *   wgbench-ocl --list
 *
 * Writes the CSV of microbench/fit/wgb_table.h as it goes (a watchdog exit keeps the
 * rows measured so far). It needs only a C compiler and an OpenCL ICD loader, so it
 * builds on a GPU machine that has neither CMake's dependencies nor jansson
 * (build-standalone.sh); `wgperf-calibrate --from-csv results.csv` fits it later.
 * Exit status: 0 all rows ok, 1 no OpenCL device, 2 bad usage, 3 error rows.
 */
#define _POSIX_C_SOURCE 200809L
#include "wgb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f) {
  fprintf(f, "usage: wgbench-ocl -o FILE.csv [--quick] [--platform N] [--device N] [--only G[,B...]]\n"
             "                   [--repeats N] [--timeout S]\n"
             "       wgbench-ocl --list\n"
             "       wgbench-ocl --help (-h)\n"
             "Without --platform/--device: the first GPU listed, else the first device.\n");
}

static int parse_int(const char *s, int lo, int hi, int *out) {
  char *end;
  long v = strtol(s, &end, 10);
  if (!*s || *end || v < lo || v > hi)
    return -1;
  *out = (int)v;
  return 0;
}

int main(int argc, char **argv) {
  const char *out = NULL, *only = NULL;
  int platform = -1, device = -1, repeats = 0, timeout = 300, list = 0, quick = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    int more = i + 1 < argc;
    /* a number option: its name, bounds and what it counts, for the message */
    static const struct {
      const char *name;
      int lo, hi;
      const char *what;
    } nums[] = {{"--platform", 0, 15, "a number from 0 to 15"},
                {"--device", 0, 15, "a number from 0 to 15"},
                {"--repeats", 1, 64, "a number from 1 to 64"},
                {"--timeout", 0, 86400, "seconds (0 = none)"}};
    int *num_out[] = {&platform, &device, &repeats, &timeout};
    size_t k = 0;
    while (k < sizeof nums / sizeof nums[0] && strcmp(a, nums[k].name))
      k++;
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      usage(stdout);
      return 0;
    } else if (k < sizeof nums / sizeof nums[0]) {
      if (!more || parse_int(argv[i + 1], nums[k].lo, nums[k].hi, num_out[k])) {
        fprintf(stderr, "wgbench-ocl: error: %s takes %s, got '%s'\n", a, nums[k].what, more ? argv[i + 1] : "");
        usage(stderr);
        return 2;
      }
      i++;
    } else if ((!strcmp(a, "-o") || !strcmp(a, "--only")) && more) {
      *(!strcmp(a, "-o") ? &out : &only) = argv[++i];
    } else if (!strcmp(a, "--quick")) {
      quick = 1;
    } else if (!strcmp(a, "--list")) {
      list = 1;
    } else {
      fprintf(stderr, "wgbench-ocl: error: %s '%s'\n",
              !strcmp(a, "-o") || !strcmp(a, "--only") ? "no value after" : "unknown option", a);
      usage(stderr);
      return 2;
    }
  }
  if (list) {
    size_t n;
    const wgb_bench *bn = wgb_benches(&n);
    for (size_t i = 0; i < n; i++)
      printf("%-10s %-10s %s\n", bn[i].group, bn[i].name, bn[i].what);
    if (wgb_dev_list(stdout) == 0)
      printf("no OpenCL device\n");
    return 0;
  }
  if (!out) {
    usage(stderr);
    return 2;
  }
  wgb_dev dev;
  char err[1024];
  if (wgb_dev_open(&dev, platform, device, err, sizeof err)) {
    fprintf(stderr, "wgbench-ocl: error: %s\n", err);
    return 1;
  }
  FILE *f = fopen(out, "w");
  if (!f) {
    fprintf(stderr, "wgbench-ocl: error: %s: cannot write\n", out);
    wgb_dev_close(&dev);
    return 1;
  }
  wgb_table t;
  wgb_table_init(&t);
  wgb b;
  wgb_init(&b, &dev, &t, quick, repeats);
  if (wgb_header(&b)) {
    fprintf(stderr, "wgbench-ocl: error: %s\n", b.err);
    return 1;
  }
  fprintf(stderr, "wgbench-ocl: %s (%s, driver %s), %u compute units, clock %.0f MHz (%s)\n", dev.name,
          dev.is_gpu ? "GPU" : "not a GPU", dev.driver, dev.compute_units, b.clock_mhz,
          b.clock_measured ? "measured" : "driver attribute");
  if (!dev.is_gpu)
    fprintf(stderr, "wgbench-ocl: warning: %s is not a GPU: its figures must not describe a GPU\n", dev.name);
  /* header and column line first; rows follow as each benchmark ends */
  size_t saved = t.n;
  t.n = 0;
  wgb_table_write_csv(&t, f);
  t.n = saved;
  int errors = wgb_run_all_live(&b, only, (unsigned)timeout, stderr, f);
  fclose(f);
  wgb_table_free(&t);
  wgb_dev_close(&dev);
  fprintf(stderr, "wgbench-ocl: wrote %s (%d error rows)\n", out, errors);
  return errors ? 3 : 0;
}
