/* common.cu - CSV output, statistics, device buffers and the SM clock measurement
 * shared by all wgbench benchmarks (see common.h and README.md).
 */
#include "common.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

struct wgb_device g_dev;
cudaEvent_t g_ev0, g_ev1;
int g_repeats = 11;
int g_quick = 0;
char g_err[512];
FILE *g_csv;

void wgb_set_err(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(g_err, sizeof g_err, fmt, ap);
  va_end(ap);
}

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y ? 1 : 0;
}

void wgb_stats_of(const double *v, int n, struct wgb_stats *s)
{
  double *t = (double *)malloc((size_t)(n > 0 ? n : 1) * sizeof *t);
  s->n = n;
  s->min = s->max = s->median = 0.0;
  if (!t || n <= 0) {
    free(t);
    return;
  }
  memcpy(t, v, (size_t)n * sizeof *t);
  qsort(t, (size_t)n, sizeof *t, cmp_double);
  s->min = t[0];
  s->max = t[n - 1];
  s->median = n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
  free(t);
}

double wgb_median(double *v, int n)
{
  struct wgb_stats s;
  wgb_stats_of(v, n, &s);
  return s.median;
}

/* Notes and parameters must not break the CSV: commas become ';', newlines ' '. */
static void put_field(const char *s)
{
  for (; s && *s; ++s) {
    char c = *s;
    if (c == ',')
      c = ';';
    else if (c == '\n' || c == '\r' || c == '"')
      c = ' ';
    fputc(c, g_csv);
  }
}

static void put_row(const char *bench, const char *param, const char *unit,
                    const struct wgb_stats *s, const char *status, const char *note)
{
  if (!g_csv)
    return;
  put_field(bench);
  fputc(',', g_csv);
  put_field(param);
  fputc(',', g_csv);
  if (s)
    fprintf(g_csv, "%.6g,", s->median);
  else
    fputc(',', g_csv);
  put_field(unit);
  fputc(',', g_csv);
  if (s)
    fprintf(g_csv, "%.6g,%.6g,%.6g,%d,", s->median, s->min, s->max, s->n);
  else
    fputs(",,,0,", g_csv);
  fputs(status, g_csv);
  fputc(',', g_csv);
  put_field(note);
  fputc('\n', g_csv);
  fflush(g_csv); /* a later hang or kill must not lose rows already measured */
}

void wgb_row(const char *bench, const char *param, const char *unit,
             const struct wgb_stats *s, const char *note)
{
  put_row(bench, param, unit, s, "ok", note);
}

void wgb_row1(const char *bench, const char *param, const char *unit, double value,
              const char *note)
{
  struct wgb_stats s = {value, value, value, 1};
  put_row(bench, param, unit, &s, "ok", note);
}

void wgb_error_row(const char *bench, const char *param, const char *fmt, ...)
{
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  put_row(bench, param, "", NULL, "error", msg);
  fprintf(stderr, "wgbench: error: %s %s: %s\n", bench, param ? param : "", msg);
}

double wgb_sm_rate(const unsigned long long *rec, int nblocks, double work_per_block)
{
  enum { MAXSM = 1024 };
  static unsigned long long lo[MAXSM], hi[MAXSM];
  static int cnt[MAXSM];
  memset(cnt, 0, sizeof cnt);
  for (int b = 0; b < nblocks; ++b) {
    unsigned sm = (unsigned)rec[3 * b];
    if (sm >= MAXSM)
      continue;
    unsigned long long t0 = rec[3 * b + 1], t1 = rec[3 * b + 2];
    if (!cnt[sm] || t0 < lo[sm])
      lo[sm] = t0;
    if (!cnt[sm] || t1 > hi[sm])
      hi[sm] = t1;
    ++cnt[sm];
  }
  static double rate[MAXSM];
  int n = 0;
  for (int sm = 0; sm < MAXSM; ++sm)
    if (cnt[sm] && hi[sm] > lo[sm])
      rate[n++] = cnt[sm] * work_per_block / (double)(hi[sm] - lo[sm]);
  return n ? wgb_median(rate, n) : 0.0;
}

#define MAX_ALLOCS 64
static void *g_allocs[MAX_ALLOCS];
static int g_nallocs;

int dev_alloc(void **p, size_t bytes)
{
  *p = NULL;
  if (g_nallocs == MAX_ALLOCS) {
    wgb_set_err("too many device buffers");
    return -1;
  }
  cudaError_t e = cudaMalloc(p, bytes);
  if (e != cudaSuccess) {
    wgb_set_err("cudaMalloc(%zu bytes): %s", bytes, cudaGetErrorString(e));
    *p = NULL;
    return -1;
  }
  g_allocs[g_nallocs++] = *p;
  return 0;
}

void dev_free_all(void)
{
  for (int i = 0; i < g_nallocs; ++i)
    cudaFree(g_allocs[i]);
  g_nallocs = 0;
}

/* Spin one thread for `cycles` SM cycles; bounded by the cycle count itself. */
__global__ void spin_kernel(long long cycles, long long *out)
{
  long long t0 = clock64(), t = t0;
  while (t - t0 < cycles)
    t = clock64();
  out[0] = t - t0;
}

int wgb_measure_clock(double *mhz)
{
  long long *d = NULL;
  *mhz = 0.0;
  if (dev_alloc((void **)&d, sizeof(long long)))
    return -1;
  /* Two lengths: the difference cancels the launch overhead in the event time. */
  const long long c1 = 2000000, c2 = 22000000; /* ~1 ms and ~12 ms near 1.8 GHz */
  double v[WGB_MAX_REPEATS];
  int n = 0;
  spin_kernel<<<1, 1>>>(c1, d); /* warm-up */
  CK_LAUNCH();
  CK(cudaDeviceSynchronize());
  for (int r = 0; r < 5; ++r) {
    double m1, m2;
    long long got1, got2;
    TIMED_MS(m1, spin_kernel<<<1, 1>>>(c1, d));
    CK(cudaMemcpy(&got1, d, sizeof got1, cudaMemcpyDeviceToHost));
    TIMED_MS(m2, spin_kernel<<<1, 1>>>(c2, d));
    CK(cudaMemcpy(&got2, d, sizeof got2, cudaMemcpyDeviceToHost));
    if (m2 > m1 && got2 > got1)
      v[n++] = (double)(got2 - got1) / ((m2 - m1) * 1e3); /* cycles per us = MHz */
  }
  if (n == 0) {
    wgb_set_err("clock measurement gave no usable sample");
    return -1;
  }
  *mhz = wgb_median(v, n);
  return 0;
}

int bench_clock(void)
{
  double v[WGB_MAX_REPEATS];
  int n = 0;
  for (int r = 0; r < 5; ++r) {
    double m;
    if (wgb_measure_clock(&m))
      return -1;
    v[n++] = m;
  }
  struct wgb_stats s;
  wgb_stats_of(v, n, &s);
  g_dev.measured_mhz = s.median;
  wgb_row1("clock_attr", "", "MHz", g_dev.clock_khz_attr / 1000.0,
           "cudaDevAttrClockRate (max/boost clock reported by the driver)");
  wgb_row1("mem_clock_attr", "", "MHz", g_dev.mem_clock_khz_attr / 1000.0,
           "cudaDevAttrMemoryClockRate");
  wgb_row("clock_measured", "", "MHz", &s,
          "clock64() cycles of a spinning thread over event time; idle-ish GPU");
  return 0;
}
