/* wgperf-calibrate - measure a GPU and write its description.
 *
 *   wgperf-calibrate -o my-gpu.json [--quick] [--platform N] [--device N] [--base NAME|FILE]
 *                    [--csv FILE] [--only G,B] [--repeats N] [--timeout S]
 *   wgperf-calibrate --from-csv RESULTS.csv -o my-gpu.json [--base NAME|FILE]
 *   wgperf-calibrate --list
 *   wgperf-calibrate --check DESCRIPTION.json
 *
 * Runs the OpenCL microbenchmarks (microbench/opencl) on one device, writes every raw
 * row to a CSV beside the output (my-gpu.csv), fits the simulator's parameters
 * (microbench/fit/wgb_fit.h) and writes a GPU description (docs/gpu-description.md)
 * in which every measured field's source reads "measured: DEVICE (driver, API, date)
 * (benchmark ...)". Fields it cannot measure keep the base description's value and
 * source: --base, else the shipped description matching the device name or its
 * NVIDIA compute capability. --from-csv fits a CSV instead of measuring, from this
 * suite or from the CUDA suite (microbench/cuda), which writes the same columns.
 * --check loads a description with the library's validator and counts its measured
 * fields. docs/calibration.md has the details.
 *
 * Exit status: 0 written; 1 bad input (no OpenCL device, unreadable CSV or base);
 * 2 bad usage; 3 written, but some benchmark rows are errors (their fields kept the
 * base values).
 */
#define _POSIX_C_SOURCE 200809L
#include "calibrate.h"
#include "files_internal.h"
#include "wgb.h"
#include "wgb_fit.h"
#include "wgb_table.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

enum { X_OK = 0, X_INPUT = 1, X_USAGE = 2, X_ERRORS = 3 };

static void usage(FILE *f) {
  fprintf(f,
          "usage: wgperf-calibrate -o OUT.json [--quick] [--platform N] [--device N] [--base NAME|FILE]\n"
          "                        [--csv FILE] [--only GROUP[,BENCH...]] [--repeats N] [--timeout S]\n"
          "       wgperf-calibrate --from-csv RESULTS.csv -o OUT.json [--base NAME|FILE]\n"
          "       wgperf-calibrate --list\n"
          "       wgperf-calibrate --check DESCRIPTION.json\n"
          "       wgperf-calibrate --help (-h)\n"
          "Measures the OpenCL device (or reads RESULTS.csv from microbench/opencl or microbench/cuda),\n"
          "fits the simulator's parameters and writes a GPU description; the raw rows go to OUT.csv.\n"
          "-o OUT.json (--output OUT.json): the description written. --quick: smaller sweeps, under a\n"
          "minute. --csv FILE: where the raw rows go instead. --base: the description that fills the fields\n"
          "nothing measures (default: chosen from the device name or compute capability).\n"
          "Without --platform/--device: the first GPU --list shows, else the first device.\n");
}

static int fail(int code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("wgperf-calibrate: error: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  if (code == X_USAGE)
    usage(stderr);
  return code;
}

static int parse_int(const char *s, int lo, int hi, int *out) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (!*s || *end || errno || v < lo || v > hi)
    return -1;
  *out = (int)v;
  return 0;
}

/* OUT.json -> OUT.csv (or OUT.json.csv when OUT has no .json suffix). */
static void csv_beside(const char *out, char *buf, size_t n) {
  size_t l = strlen(out);
  if (l > 5 && strcmp(out + l - 5, ".json") == 0)
    snprintf(buf, n, "%.*s.csv", (int)(l - 5), out);
  else
    snprintf(buf, n, "%s.csv", out);
}

/* Loads the base description (NAME or FILE) and returns its file path in PATH. */
static int load_base(const char *spec, wgp_gpu **g, char *path, size_t n) {
  wgp_diag d;
  bool file = strchr(spec, '/') || (strlen(spec) > 5 && strcmp(spec + strlen(spec) - 5, ".json") == 0);
  wgp_status st = file ? wgp_gpu_load_file(spec, g, &d) : wgp_gpu_load_builtin(spec, g, &d);
  if (st != WGP_OK) {
    fprintf(stderr, "%s\n", d.message);
    return -1;
  }
  snprintf(path, n, "%s", wgp_gpu_file(*g));
  return 0;
}

static int write_text(const char *file, const char *text) {
  char tmp[4200];
  snprintf(tmp, sizeof tmp, "%s.tmp", file);
  FILE *f = fopen(tmp, "w");
  if (!f)
    return -1;
  fputs(text, f);
  fputc('\n', f);
  if (fclose(f) != 0 || wgp_move_into(tmp, file) != 0) {
    remove(tmp);
    return -1;
  }
  return 0;
}

/* Validates FILE with the library and counts the fields measured by a calibration. */
static int check(const char *file) {
  wgp_gpu *g = NULL;
  wgp_diag d;
  if (wgp_gpu_load_file(file, &g, &d) != WGP_OK) {
    fprintf(stderr, "%s\n", d.message);
    return X_INPUT;
  }
  size_t measured = calib_count_measured(file);
  printf("%s: valid GPU description: %s, %u SMs at %.0f MHz, %zu fields measured\n", file, wgp_gpu_name(g),
         wgp_gpu_sm_count(g), wgp_gpu_core_clock_mhz(g), measured);
  wgp_gpu_free(g);
  return X_OK;
}

int main(int argc, char **argv) {
  const char *out = NULL, *csv_opt = NULL, *from = NULL, *base_opt = NULL, *only = NULL;
  int platform = -1, device = -1, repeats = 0, timeout = 300, quick = 0, list = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    bool more = i + 1 < argc;
    if ((!strcmp(a, "-o") || !strcmp(a, "--output")) && more)
      out = argv[++i];
    else if (!strcmp(a, "--csv") && more)
      csv_opt = argv[++i];
    else if (!strcmp(a, "--from-csv") && more)
      from = argv[++i];
    else if (!strcmp(a, "--base") && more)
      base_opt = argv[++i];
    else if (!strcmp(a, "--only") && more)
      only = argv[++i];
    else if (!strcmp(a, "--check") && more)
      return check(argv[++i]);
    else if (!strcmp(a, "--quick"))
      quick = 1;
    else if (!strcmp(a, "--list"))
      list = 1;
    else if (!strcmp(a, "--platform") && more) {
      if (parse_int(argv[++i], 0, 15, &platform))
        return fail(X_USAGE, "--platform takes a number from 0 to 15, got '%s'", argv[i]);
    } else if (!strcmp(a, "--device") && more) {
      if (parse_int(argv[++i], 0, 15, &device))
        return fail(X_USAGE, "--device takes a number from 0 to 15, got '%s'", argv[i]);
    } else if (!strcmp(a, "--repeats") && more) {
      if (parse_int(argv[++i], 1, 64, &repeats))
        return fail(X_USAGE, "--repeats takes a number from 1 to 64, got '%s'", argv[i]);
    } else if (!strcmp(a, "--timeout") && more) {
      if (parse_int(argv[++i], 0, 86400, &timeout))
        return fail(X_USAGE, "--timeout takes seconds (0 = none), got '%s'", argv[i]);
    } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      usage(stdout);
      return X_OK;
    } else
      return fail(X_USAGE, "unknown or incomplete option '%s'", a);
  }
  if (list) {
    size_t n;
    const wgb_bench *bn = wgb_benches(&n);
    printf("benchmarks (--only takes a group or a name):\n");
    for (size_t i = 0; i < n; i++)
      printf("  %-10s %-10s %s\n", bn[i].group, bn[i].name, bn[i].what);
    printf("OpenCL devices:\n");
    if (wgb_dev_list(stdout) == 0)
      printf("  none (no OpenCL platform)\n");
    return X_OK;
  }
  if (!out)
    return fail(X_USAGE, "no output file: give -o OUT.json");
  char csv[4096];
  if (csv_opt)
    snprintf(csv, sizeof csv, "%s", csv_opt);
  else
    csv_beside(out, csv, sizeof csv);

  wgb_table t;
  wgb_table_init(&t);
  int errors = 0;
  char where[1024];
  bool cpu = false;
  if (from) {
    char err[1024];
    if (wgb_table_read_csv(&t, from, err, sizeof err)) {
      wgb_table_free(&t);
      return fail(X_INPUT, "%s", err);
    }
    for (size_t i = 0; i < t.n; i++)
      errors += !t.rows[i].ok;
    const char *g = wgb_table_header(&t, "gpu"), *drv = wgb_table_header(&t, "driver");
    const char *date = wgb_table_header(&t, "date");
    snprintf(where, sizeof where, "%s (%s, driver %s, %s)", from, g ? g : "device unknown", drv ? drv : "unknown",
             date ? date : "date unknown");
    const char *type = wgb_table_header(&t, "device_type");
    cpu = type && strcmp(type, "GPU") != 0;
  } else {
    wgb_dev dev;
    char err[1024];
    if (wgb_dev_open(&dev, platform, device, err, sizeof err)) {
      wgb_table_free(&t);
      return fail(X_INPUT, "%s", err);
    }
    wgb b;
    wgb_init(&b, &dev, &t, quick, repeats);
    FILE *f = fopen(csv, "w");
    if (!f) {
      wgb_dev_close(&dev);
      wgb_table_free(&t);
      return fail(X_INPUT, "%s: cannot write: %s", csv, strerror(errno));
    }
    if (wgb_header(&b) || wgb_table_write_csv(&t, f)) {
      fclose(f);
      wgb_dev_close(&dev);
      wgb_table_free(&t);
      return fail(X_INPUT, "%s: cannot write the CSV header", csv);
    }
    cpu = !dev.is_gpu;
    fprintf(stderr, "wgperf-calibrate: %s (%s, driver %s, %s), %u compute units, clock %.0f MHz (%s)\n", dev.name,
            dev.is_gpu ? "GPU" : "not a GPU", dev.driver, dev.platform_name, dev.compute_units, b.clock_mhz,
            b.clock_measured ? "measured by its cycle counter" : "driver attribute");
    if (cpu)
      fprintf(stderr, "wgperf-calibrate: warning: %s is not a GPU: this run checks that the benchmarks work; "
                      "its figures are a CPU's and must never be used to predict a GPU\n",
              dev.name);
    errors = wgb_run_all_live(&b, only, (unsigned)timeout, stderr, f);
    fclose(f);
    if (errors < 0) {
      wgb_dev_close(&dev);
      wgb_table_free(&t);
      return fail(X_INPUT, "out of memory");
    }
    snprintf(where, sizeof where, "wgperf-calibrate%s on %s (driver %s, OpenCL %s, %s)", quick ? " --quick" : "",
             dev.name, dev.driver, dev.platform_name, wgb_table_header(&t, "date"));
    wgb_dev_close(&dev);
  }

  /* base description */
  char why[256] = "given with --base", base_path[4096];
  const char *base_name = base_opt;
  if (!base_name)
    base_name = calib_pick_base(wgb_table_header(&t, "gpu"), wgb_table_header(&t, "compute_capability"), why,
                                sizeof why);
  wgp_gpu *base = NULL;
  if (load_base(base_name, &base, base_path, sizeof base_path)) {
    wgb_table_free(&t);
    return X_INPUT;
  }
  wgb_fit_options fo = {wgp_gpu_l1_caches_global_loads(base), wgp_gpu_l1_line_bytes(base),
                        wgp_gpu_l2_line_bytes(base)};
  wgp_gpu_free(base);

  wgb_fit fit;
  if (wgb_fit_run(&t, where, &fo, &fit)) {
    wgb_table_free(&t);
    return fail(X_INPUT, "out of memory");
  }
  char descr[16384];
  snprintf(descr, sizeof descr,
           "Calibrated by wgperf-calibrate from %s; raw rows in %s. Fields whose source is not 'measured:' come "
           "from the base description %s (%s).%s",
           where, from ? from : csv, base_path, why,
           cpu ? " NOT A GPU: these figures are a CPU's (a functional check of the benchmarks); never use this "
                 "description to predict a GPU."
               : "");
  calib_result r;
  wgp_diag d;
  if (calib_apply(base_path, &fit, descr, out, &r, &d) != WGP_OK) {
    wgb_fit_free(&fit);
    wgb_table_free(&t);
    return fail(X_INPUT, "%s", d.message);
  }
  if (write_text(out, r.json)) {
    int e = errno;
    calib_result_free(&r);
    wgb_fit_free(&fit);
    wgb_table_free(&t);
    return fail(X_INPUT, "%s: cannot write: %s", out, strerror(e));
  }

  printf("wgperf-calibrate: %zu rows from %s, %d of them errors\n", t.n, from ? from : "the benchmarks", errors);
  printf("base: %s (%s)\n", base_path, why);
  printf("fitted parameters (%zu):\n", fit.nlines);
  for (size_t i = 0; i < fit.nlines; i++)
    printf("  %s\n", fit.lines[i]);
  for (size_t i = 0; i < r.rejected; i++)
    printf("not applied (the base value stays): %s\n", r.rejected_why[i]);
  if (cpu)
    printf("warning: not a GPU: the figures above are a CPU's; this description must not be used for GPU "
           "predictions\n");
  printf("wrote %s: %zu measured fields, %zu from the base; raw rows in %s\n", out, r.applied, r.kept,
         from ? from : csv);
  calib_result_free(&r);
  wgb_fit_free(&fit);
  wgb_table_free(&t);
  return errors ? X_ERRORS : X_OK;
}
