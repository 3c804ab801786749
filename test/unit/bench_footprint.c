/* bench_footprint.c - speed of wgp_footprint_analyze (a benchmark that
 * prints figures; not a test): milliseconds per launch, median of 5, for
 * kernels of data/footprint_kernels.json at a small and a large size each,
 * so growth with the grid and the trip counts shows.  The occupancy is fixed
 * at 8 groups per SM of the H100 description (1056 groups per wave); the
 * traces' totals are given, as wgperf analyze gives them.
 *   build/bin/bench_footprint [KERNEL]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "wgperf/footprint.h"

typedef struct bench {
  const char *kernel;
  unsigned dims;
  uint64_t global[3], local[3];
  const char *arg[2];
  int64_t value[2];
} bench;

static const bench *cur;

static wgp_eval_status args(void *user, const wgp_sym *sym, int64_t *value, char *reason, size_t size) {
  (void)user;
  for (int i = 0; i < 2 && cur->arg[i]; i++)
    if (sym->kind == WGP_SYM_ARG && strcmp(sym->name, cur->arg[i]) == 0) {
      *value = cur->value[i];
      return WGP_EVAL_OK;
    }
  snprintf(reason, size, "no value");
  return WGP_EVAL_ERROR;
}

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int cmp_d(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  static const bench benches[] = {
      {"copy2d", 2, {1024, 1024, 1}, {32, 8, 1}, {"w", "h"}, {1024, 1024}},
      {"copy2d", 2, {32768, 32768, 1}, {32, 8, 1}, {"w", "h"}, {32768, 32768}},
      {"transpose", 2, {1024, 1024, 1}, {16, 16, 1}, {"w", "h"}, {1024, 1024}},
      {"transpose", 2, {32768, 32768, 1}, {16, 16, 1}, {"w", "h"}, {32768, 32768}},
      {"stencil5", 2, {1024, 1024, 1}, {32, 8, 1}, {"w", "h"}, {1024, 1024}},
      {"stencil5", 2, {32768, 32768, 1}, {32, 8, 1}, {"w", "h"}, {32768, 32768}},
      {"matmul", 2, {1024, 1024, 1}, {16, 16, 1}, {"w", NULL}, {1024, 0}},
      {"matmul", 2, {16384, 16384, 1}, {16, 16, 1}, {"w", NULL}, {16384, 0}},
      {"matmul_tiled", 2, {1024, 1024, 1}, {4, 4, 1}, {"w", NULL}, {1024, 0}},
      {"matmul_tiled", 2, {16384, 16384, 1}, {4, 4, 1}, {"w", NULL}, {16384, 0}},
      {"tri", 2, {1024, 1024, 1}, {32, 8, 1}, {"w", NULL}, {1024, 0}},
      {"tri", 2, {16384, 16384, 1}, {32, 8, 1}, {"w", NULL}, {16384, 0}},
      {"star25", 3, {512, 512, 64}, {32, 4, 8}, {"nx", "ny"}, {512, 512}},
      {"star25", 3, {2048, 2048, 1024}, {32, 4, 8}, {"nx", "ny"}, {2048, 2048}},
  };
  wgp_model *m;
  wgp_gpu *gpu;
  wgp_diag d;
  if (wgp_model_load_file(WGPERF_SOURCE_DIR "/test/unit/data/footprint_kernels.json", &m, &d) != WGP_OK ||
      wgp_gpu_load_builtin("h100-sxm", &gpu, &d) != WGP_OK) {
    fprintf(stderr, "%s\n", d.message);
    return 1;
  }
  printf("wgp_footprint_analyze, median of 5 (ms), groups per wave 1056\n");
  for (size_t b = 0; b < sizeof benches / sizeof *benches; b++) {
    cur = &benches[b];
    if (argc > 1 && strcmp(argv[1], cur->kernel) != 0)
      continue;
    wgp_analysis_input in = {0};
    in.kernel = wgp_model_find_kernel(m, cur->kernel);
    in.gpu = gpu;
    in.launch = (wgp_trace_launch){cur->dims,
                                   {cur->global[0], cur->global[1], cur->global[2]},
                                   {cur->local[0], cur->local[1], cur->local[2]},
                                   {0, 0, 0},
                                   32,
                                   args,
                                   NULL};
    /* the traces' totals, as wgperf analyze passes them (not timed) */
    wgp_analysis *an;
    if (wgp_analyze(&in, &an, &d) != WGP_OK) {
      fprintf(stderr, "%s\n", d.message);
      return 1;
    }
    wgp_footprint_options o = {0};
    o.groups_per_wave = 1056;
    o.totals = wgp_analysis_total_stats(an);
    double t[5], read = 0;
    for (int r = 0; r < 5; r++) {
      wgp_footprint *f;
      double s = now_ms();
      if (wgp_footprint_analyze(&in, &o, &f, &d) != WGP_OK) {
        fprintf(stderr, "%s\n", d.message);
        return 1;
      }
      t[r] = now_ms() - s;
      read = wgp_footprint_launch_totals(f)->dram_read_bytes;
      wgp_footprint_free(f);
    }
    wgp_analysis_free(an);
    qsort(t, 5, sizeof *t, cmp_d);
    printf("%-13s global %6llux%-6llux%-5llu %7.1f ms   (DRAM read %.4g MB)\n", cur->kernel,
           (unsigned long long)cur->global[0], (unsigned long long)cur->global[1], (unsigned long long)cur->global[2],
           t[2], read / 1e6);
  }
  wgp_gpu_free(gpu);
  wgp_model_free(m);
  return 0;
}
