/* wgb_table.h - microbenchmark results as rows, and their CSV form.
 *
 * One format for every suite: the OpenCL benchmarks (microbench/opencl) write it,
 * the CUDA benchmarks (microbench/cuda, wgbench) write the same, and the fit
 * (wgb_fit.h) reads it, so a CSV from either suite calibrates a GPU description:
 *
 *   # gpu=NVIDIA H100 80GB HBM3, driver=580.159.04, sm_count=132, ...
 *   # more key=value pairs, comma-separated, on any number of '#' lines
 *   benchmark,parameter,value,unit,median,min,max,repeats,status,note
 *   lat_l1,footprint_bytes=16384;stride_bytes=128,32.0,cycles,32.0,32.0,32.0,11,ok,...
 *
 * `parameter` holds key=value pairs joined by ';'. `status` is ok or error; an error
 * row has empty numbers and says why in `note`. Notes and header values never hold
 * commas (the writer turns them into ';').
 *
 * Pure C11; no OpenCL, no JSON. Functions return 0 on success and -1 on failure
 * (out of memory, or a malformed file with the reason in ERR).
 */
#ifndef WGB_TABLE_H
#define WGB_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define WGB_CSV_COLUMNS "benchmark,parameter,value,unit,median,min,max,repeats,status,note"

typedef struct wgb_row {
  char bench[48];
  char param[192];
  char unit[32];
  double median, min, max;
  int repeats;
  bool ok;
  char note[480];
} wgb_row;

typedef struct wgb_table {
  wgb_row *rows;
  size_t n, cap;
  char **hkey, **hval; /* header key=value pairs, in order */
  size_t nh, hcap;
} wgb_table;

void wgb_table_init(wgb_table *t);
void wgb_table_free(wgb_table *t);

/* Appends a copy of R. */
int wgb_table_add(wgb_table *t, const wgb_row *r);
/* Appends an ok row from repeated measurements V[0..n) (median, min, max). */
int wgb_table_add_stats(wgb_table *t, const char *bench, const char *param, const char *unit, const double *v,
                        int n, const char *note);
/* Appends an ok row holding one value. */
int wgb_table_add_value(wgb_table *t, const char *bench, const char *param, const char *unit, double value,
                        const char *note);
/* Appends an error row. */
int wgb_table_add_error(wgb_table *t, const char *bench, const char *param, const char *why);

/* Sets header KEY (replacing an earlier value). Commas in the value become ';'. */
int wgb_table_set_header(wgb_table *t, const char *key, const char *value);
/* The value of header KEY, or NULL. */
const char *wgb_table_header(const wgb_table *t, const char *key);

/* Writes the whole table (header lines, column line, rows). */
int wgb_table_write_csv(const wgb_table *t, FILE *f);
/* Writes one row as a CSV line. */
void wgb_row_write_csv(const wgb_row *r, FILE *f);
/* Reads FILE into T (appending). ERR receives "FILE:LINE: problem". */
int wgb_table_read_csv(wgb_table *t, const char *file, char *err, size_t errlen);

/* The number stored under KEY in the row's parameter ("footprint_bytes=16384;..."). */
bool wgb_row_param(const wgb_row *r, const char *key, double *value);
/* The string stored under KEY (copied into OUT), e.g. op=fadd. */
bool wgb_row_param_str(const wgb_row *r, const char *key, char *out, size_t outlen);

/* Median of V[0..n) (sorts V). 0 for n = 0. */
double wgb_median(double *v, int n);

#endif
