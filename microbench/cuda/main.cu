/* main.cu - wgbench: CUDA microbenchmarks that measure what a wgperf GPU description
 * needs (latencies, cache geometry, bandwidths, arithmetic rates, barrier, atomics,
 * launch overhead). See README.md in this folder.
 *
 * Build: nvcc -O3 -arch=sm_90 -lineinfo -Xcompiler -Wall -o wgbench *.cu
 * Run:   ./wgbench -o results.csv                 all groups in one process
 *        ./wgbench -o results.csv --append --group latency   one group, appended
 *        ./wgbench --list                          benchmark list, no GPU needed
 *        ./wgbench --summary results.csv           summary table of a CSV, no GPU
 */
#include "common.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

extern FILE *g_csv;

struct bench {
  const char *name;
  const char *group;
  int (*fn)(void);
  const char *what;
};

static const struct bench g_benches[] = {
    {"clock", "clock", bench_clock, "SM clock: driver attribute and measured"},
    {"lat_shared", "latency", bench_lat_shared, "shared memory pointer-chase latency"},
    {"lat_shared_conflict", "latency", bench_lat_shared_conflict, "shared memory chase of a whole warp, conflict-free and 32-way"},
    {"lat_global", "latency", bench_lat_global, "L1 hit (.ca) and L2 hit (.cg) latency"},
    {"lat_dram", "latency", bench_lat_dram, "DRAM latency vs footprint 64 MiB..4 GiB"},
    {"lat_const", "latency", bench_lat_const, "constant cache latency (warm, cold)"},
    {"geom_l1", "geometry", bench_geom_l1, "latency vs footprint 8..512 KiB: L1 size"},
    {"geom_l2", "geometry", bench_geom_l2, "latency vs footprint 1..256 MiB: L2 size"},
    {"geom_stride", "geometry", bench_geom_stride, "stride sweeps: L1 line, L2 granule"},
    {"bw_dram", "bandwidth", bench_bw_dram, "DRAM read, write, copy bandwidth; row activations (random sectors)"},
    {"bw_l2", "bandwidth", bench_bw_l2, "L2 read bandwidth"},
    {"bw_l2_port", "bandwidth", bench_bw_l2_port, "L2 bytes per cycle into one SM"},
    {"bw_shared", "bandwidth", bench_bw_shared, "shared memory bandwidth"},
    {"bw_shared_conflict", "bandwidth", bench_bw_shared_conflict, "shared memory: cycles per LDS by conflict pattern, with and without a constant operand"},
    {"bw_l1", "bandwidth", bench_bw_l1, "global loads that hit L1: bytes and requests per cycle per SM"},
    {"bw_occupancy", "bandwidth", bench_bw_occupancy, "DRAM read vs warps per SM"},
    {"cacheop", "cacheop", bench_cacheop, "one kernel's time with ld.global.ca, .cg and .cs (cacheop_kernels.cu)"},
    {"bw_dram_groups", "bandwidth", bench_bw_dram_groups, "one element per thread (c = a + b) vs group size"},
    {"arith", "arith", bench_arith, "latency and throughput of 26 operations"},
    {"barrier", "sync", bench_barrier, "__syncthreads cost vs block size"},
    {"atomics", "sync", bench_atomics, "global and shared atomicAdd throughput"},
    {"launch", "launch", bench_launch, "empty kernel launch overhead vs grid size"},
};
#define NBENCH ((int)(sizeof g_benches / sizeof g_benches[0]))

static const char *g_current = "startup";
static int g_csv_fd = -1;

static void on_alarm(int sig)
{
  (void)sig;
  char line[256];
  int n = snprintf(line, sizeof line,
                   "%s,,,,,,,0,error,in-process watchdog: benchmark did not finish\n",
                   g_current);
  if (g_csv_fd >= 0 && n > 0)
    (void)!write(g_csv_fd, line, (size_t)n);
  n = snprintf(line, sizeof line, "wgbench: error: %s: watchdog fired; exiting\n",
               g_current);
  (void)!write(2, line, (size_t)n);
  _exit(3);
}

static void read_driver_version(char *out, size_t n)
{
  snprintf(out, n, "unknown");
  FILE *f = fopen("/proc/driver/nvidia/version", "r");
  if (!f)
    return;
  char line[512];
  if (fgets(line, sizeof line, f)) {
    /* "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.95.05  ...":
     * the first token that starts with a digit and holds a dot */
    for (char *t = strtok(line, " \t\n"); t; t = strtok(NULL, " \t\n"))
      if (t[0] >= '0' && t[0] <= '9' && strchr(t, '.')) {
        snprintf(out, n, "%s", t);
        break;
      }
  }
  fclose(f);
}

static int init_device(int dev)
{
  CK(cudaSetDevice(dev));
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, dev));
  snprintf(g_dev.name, sizeof g_dev.name, "%s", prop.name);
  g_dev.sm_count = prop.multiProcessorCount;
  g_dev.total_mem = prop.totalGlobalMem;
  CK(cudaDeviceGetAttribute(&g_dev.clock_khz_attr, cudaDevAttrClockRate, dev));
  CK(cudaDeviceGetAttribute(&g_dev.mem_clock_khz_attr, cudaDevAttrMemoryClockRate, dev));
  CK(cudaDeviceGetAttribute(&g_dev.l2_bytes, cudaDevAttrL2CacheSize, dev));
  CK(cudaDeviceGetAttribute(&g_dev.bus_width_bits, cudaDevAttrGlobalMemoryBusWidth, dev));
  CK(cudaDeviceGetAttribute(&g_dev.smem_per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor,
                            dev));
  CK(cudaDeviceGetAttribute(&g_dev.smem_per_block_optin,
                            cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
  CK(cudaDeviceGetAttribute(&g_dev.max_threads_per_sm,
                            cudaDevAttrMaxThreadsPerMultiProcessor, dev));
  CK(cudaRuntimeGetVersion(&g_dev.runtime_version));
  read_driver_version(g_dev.driver, sizeof g_dev.driver);
  CK(cudaEventCreate(&g_ev0));
  CK(cudaEventCreate(&g_ev1));
  if (wgb_measure_clock(&g_dev.measured_mhz))
    return -1;
  dev_free_all();
  return 0;
}

static void write_header(void)
{
  char date[64];
  time_t t = time(NULL);
  strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
  fprintf(g_csv,
          "# gpu=%s, driver=%s, cuda_runtime=%d.%d, sm_count=%d, clock_mhz_attr=%.0f, "
          "measured_clock_mhz=%.0f, date=%s\n",
          g_dev.name, g_dev.driver, g_dev.runtime_version / 1000,
          (g_dev.runtime_version % 1000) / 10, g_dev.sm_count,
          g_dev.clock_khz_attr / 1000.0, g_dev.measured_mhz, date);
  fprintf(g_csv,
          "# l2_bytes=%d, smem_per_sm=%d, smem_per_block_optin=%d, max_threads_per_sm=%d, "
          "mem_clock_mhz_attr=%.0f, total_mem_bytes=%zu, bus_width_bits=%d, repeats=%d, quick=%d\n",
          g_dev.l2_bytes, g_dev.smem_per_sm, g_dev.smem_per_block_optin,
          g_dev.max_threads_per_sm, g_dev.mem_clock_khz_attr / 1000.0, g_dev.total_mem,
          g_dev.bus_width_bits, g_repeats, g_quick);
  fprintf(g_csv, "benchmark,parameter,value,unit,median,min,max,repeats,status,note\n");
  fflush(g_csv);
}

/* ---------------- summary (reads the CSV; no GPU) ---------------- */

struct row {
  char f[10][320];
};
static struct row *g_rows;
static int g_nrows;

static int load_csv(const char *path)
{
  FILE *f = fopen(path, "r");
  if (!f)
    return -1;
  char line[4096];
  int cap = 0;
  while (fgets(line, sizeof line, f)) {
    if (line[0] == '#' || strncmp(line, "benchmark,", 10) == 0)
      continue;
    if (g_nrows == cap) {
      cap = cap ? 2 * cap : 256;
      struct row *nr = (struct row *)realloc(g_rows, (size_t)cap * sizeof *nr);
      if (!nr)
        break;
      g_rows = nr;
    }
    struct row *r = &g_rows[g_nrows];
    memset(r, 0, sizeof *r);
    char *p = line;
    for (int i = 0; i < 10 && p; ++i) {
      char *c = i < 9 ? strchr(p, ',') : NULL;
      size_t k = c ? (size_t)(c - p) : strcspn(p, "\n");
      if (k >= sizeof r->f[i])
        k = sizeof r->f[i] - 1;
      memcpy(r->f[i], p, k);
      p = c ? c + 1 : NULL;
    }
    ++g_nrows;
  }
  fclose(f);
  return 0;
}

static int param_get(const char *param, const char *key, char *out, size_t n)
{
  size_t kl = strlen(key);
  const char *p = param;
  while (p && *p) {
    if (strncmp(p, key, kl) == 0 && p[kl] == '=') {
      size_t k = strcspn(p + kl + 1, ";");
      if (k >= n)
        k = n - 1;
      memcpy(out, p + kl + 1, k);
      out[k] = 0;
      return 1;
    }
    p = strchr(p, ';');
    if (p)
      ++p;
  }
  return 0;
}

static void human_bytes(const char *s, char *out, size_t n)
{
  double b = atof(s);
  if (b >= 1 << 30)
    snprintf(out, n, "%.3gG", b / (1 << 30));
  else if (b >= 1 << 20)
    snprintf(out, n, "%.3gM", b / (1 << 20));
  else if (b >= 1 << 10)
    snprintf(out, n, "%.3gK", b / (1 << 10));
  else
    snprintf(out, n, "%.0f", b);
}

static const struct row *find_row(const char *bench, const char *param)
{
  for (int i = 0; i < g_nrows; ++i)
    if (strcmp(g_rows[i].f[0], bench) == 0 && (!param || strcmp(g_rows[i].f[1], param) == 0))
      return &g_rows[i];
  return NULL;
}

static const char *val(const char *bench, const char *param)
{
  const struct row *r = find_row(bench, param);
  if (!r || strcmp(r->f[8], "ok") != 0)
    return "n/a";
  return r->f[4];
}

/* param holds the key=value pair `field` as a whole ';'-separated item */
static int has_field(const char *param, const char *field)
{
  size_t n = strlen(field);
  for (const char *p = strstr(param, field); p; p = strstr(p + 1, field))
    if ((p == param || p[-1] == ';') && (p[n] == ';' || p[n] == 0))
      return 1;
  return 0;
}

/* One wrapped line of key:value pairs for every ok row of `bench` whose param has
 * `filter` (k=v) in it; key is the value of `key` in param, as bytes if asked. */
static void curve(const char *label, const char *bench, const char *key, int bytes,
                  const char *filter)
{
  char line[2048];
  int len = snprintf(line, sizeof line, "%s:", label), col = len, any = 0;
  for (int i = 0; i < g_nrows; ++i) {
    const struct row *r = &g_rows[i];
    if (strcmp(r->f[0], bench) != 0 || strcmp(r->f[8], "ok") != 0)
      continue;
    if (filter && !has_field(r->f[1], filter))
      continue;
    char k[64], kh[64];
    if (!param_get(r->f[1], key, k, sizeof k))
      continue;
    if (bytes)
      human_bytes(k, kh, sizeof kh);
    else
      snprintf(kh, sizeof kh, "%s", k);
    char item[160];
    int il = snprintf(item, sizeof item, " %s=%.4g", kh, atof(r->f[4]));
    if (col + il > 100) {
      printf("%s\n", line);
      len = snprintf(line, sizeof line, "   ");
      col = len;
    }
    len += snprintf(line + len, sizeof line - (size_t)len, "%s", item);
    col += il;
    any = 1;
  }
  if (any)
    printf("%s\n", line);
}

static int print_summary(const char *path)
{
  if (load_csv(path)) {
    fprintf(stderr, "wgbench: error: cannot read '%s'\n", path);
    return 1;
  }
  FILE *f = fopen(path, "r");
  char hdr[1024] = "";
  if (f) {
    if (!fgets(hdr, sizeof hdr, f))
      hdr[0] = 0;
    fclose(f);
  }
  printf("==================== wgbench summary (%s) ====================\n", path);
  if (hdr[0] == '#')
    printf("%s", hdr + 2);
  int nerr = 0;
  for (int i = 0; i < g_nrows; ++i)
    nerr += strcmp(g_rows[i].f[8], "error") == 0;
  printf("rows: %d, errors: %d\n", g_nrows, nerr);
  for (int i = 0, shown = 0; i < g_nrows; ++i)
    if (strcmp(g_rows[i].f[8], "error") == 0 && shown++ < 8)
      printf("  ERROR %s %s: %.140s\n", g_rows[i].f[0], g_rows[i].f[1], g_rows[i].f[9]);
  printf("clock MHz: attr %s, measured %s (idle-ish spin)\n", val("clock_attr", NULL),
         val("clock_measured", NULL));
  printf("latency cycles: shared %s | L1 %s | L2 %s | const warm %s, cold %s\n",
         val("lat_shared", NULL), val("lat_l1", NULL), val("lat_l2", NULL),
         val("lat_const", "footprint_bytes=256;stride_bytes=64"), val("lat_const_cold", NULL));
  curve("DRAM latency vs footprint", "lat_dram", "footprint_bytes", 1, NULL);
  curve("const latency vs footprint", "lat_const", "footprint_bytes", 1, NULL);
  printf("geometry: L1 jump at %s B | L2 jump at %s B | L1 fill granule %s B | L2 fill "
         "granule %s B\n",
         val("geom_l1_size", NULL), val("geom_l2_size", NULL),
         val("geom_l1_fetch_granule", NULL),
         val("geom_l2_fetch_granule", NULL));
  curve("L1 curve (cycles)", "geom_l1_curve", "footprint_bytes", 1, NULL);
  curve("L2 curve (cycles)", "geom_l2_curve", "footprint_bytes", 1, NULL);
  curve("L1 stride (.ca)", "geom_l1_stride", "stride_bytes", 0, NULL);
  curve("L2 stride (.cg)", "geom_l2_stride", "stride_bytes", 0, NULL);
  const struct row *rr = find_row("bw_dram_read", NULL), *rw = find_row("bw_dram_write", NULL),
                   *rc = find_row("bw_dram_copy", NULL), *rl = find_row("bw_l2_read", NULL);
  printf("bandwidth GB/s: DRAM read %s write %s copy %s | L2 read %s | shared %s B/clk/SM "
         "(%s GB/s)\n",
         rr && !strcmp(rr->f[8], "ok") ? rr->f[4] : "n/a",
         rw && !strcmp(rw->f[8], "ok") ? rw->f[4] : "n/a",
         rc && !strcmp(rc->f[8], "ok") ? rc->f[4] : "n/a",
         rl && !strcmp(rl->f[8], "ok") ? rl->f[4] : "n/a", val("bw_shared", NULL),
         val("bw_shared_total", NULL));
  curve("DRAM GB/s vs warps/SM ilp=1", "bw_dram_occupancy", "warps_per_sm", 0, "ilp=1");
  curve("DRAM GB/s vs warps/SM ilp=4", "bw_dram_occupancy", "warps_per_sm", 0, "ilp=4");
  printf("arith: latency cycles / throughput ops/cycle/SM\n");
  char line[256] = "";
  int col = 0;
  for (int i = 0; i < g_nrows; ++i) {
    if (strcmp(g_rows[i].f[0], "arith_latency") != 0)
      continue;
    char op[64];
    if (!param_get(g_rows[i].f[1], "op", op, sizeof op))
      continue;
    const char *lat = strcmp(g_rows[i].f[8], "ok") ? "ERR" : g_rows[i].f[4];
    const char *tp = val("arith_throughput", g_rows[i].f[1]);
    char item[128];
    snprintf(item, sizeof item, "  %-9s %7.4s / %-7.5s", op, lat, tp);
    strcat(line, item);
    if (++col == 3) {
      printf("%s\n", line);
      line[0] = 0;
      col = 0;
    }
  }
  if (col)
    printf("%s\n", line);
  curve("barrier cycles, 1 block/SM", "barrier", "block", 0, "blocks_per_sm=1");
  printf("atomics:\n");
  for (int i = 0; i < g_nrows; ++i) /* the param strings carry iteration counts */
    if (!strncmp(g_rows[i].f[0], "atomic_", 7))
      printf("  %s %.40s: %s %s\n", g_rows[i].f[0], g_rows[i].f[1], g_rows[i].f[4],
             g_rows[i].f[3]);
  printf("launch us: single %s | back-to-back %s\n", val("launch_single", NULL),
         val("launch_throughput", NULL));
  curve("  back-to-back us vs blocks, block=32", "launch_blocks", "blocks", 0, "block=32");
  curve("  back-to-back us vs blocks, block=256", "launch_blocks", "blocks", 0, "block=256");
  curve("  back-to-back us vs blocks, block=1024", "launch_blocks", "blocks", 0,
        "block=1024");
  printf("================================================================\n");
  return 0;
}

/* ---------------- main ---------------- */

static int selected(const struct bench *b, const char *groups, const char *names)
{
  char buf[512];
  if (!groups && !names)
    return 1;
  const char *lists[2] = {groups, names};
  const char *keys[2] = {b->group, b->name};
  for (int l = 0; l < 2; ++l) {
    if (!lists[l])
      continue;
    snprintf(buf, sizeof buf, "%s", lists[l]);
    for (char *t = strtok(buf, ","); t; t = strtok(NULL, ","))
      if (strcmp(t, keys[l]) == 0)
        return 1;
  }
  return 0;
}

static void usage(FILE *f)
{
  fprintf(f, "usage: wgbench -o FILE [--append] [--group G[,G]] [--bench B[,B]] [--quick]\n"
             "               [--repeats N] [--device N] [--timeout S]\n"
             "       wgbench --list\n"
             "       wgbench --summary FILE\n");
}

int main(int argc, char **argv)
{
  const char *out = NULL, *groups = NULL, *names = NULL, *summary = NULL;
  int append = 0, list = 0, device = 0, timeout_s = 60;
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    int more = i + 1 < argc;
    if (!strcmp(a, "-o") && more)
      out = argv[++i];
    else if (!strcmp(a, "--append"))
      append = 1;
    else if (!strcmp(a, "--group") && more)
      groups = argv[++i];
    else if (!strcmp(a, "--bench") && more)
      names = argv[++i];
    else if (!strcmp(a, "--quick"))
      g_quick = 1;
    else if (!strcmp(a, "--repeats") && more)
      g_repeats = atoi(argv[++i]);
    else if (!strcmp(a, "--device") && more)
      device = atoi(argv[++i]);
    else if (!strcmp(a, "--timeout") && more)
      timeout_s = atoi(argv[++i]);
    else if (!strcmp(a, "--list"))
      list = 1;
    else if (!strcmp(a, "--summary") && more)
      summary = argv[++i];
    else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      usage(stdout);
      return 0;
    } else {
      fprintf(stderr, "wgbench: error: unknown or incomplete option '%s'\n", a);
      usage(stderr);
      return 2;
    }
  }
  if (g_repeats < 1 || g_repeats > WGB_MAX_REPEATS) {
    fprintf(stderr, "wgbench: error: --repeats must be in 1..%d\n", WGB_MAX_REPEATS);
    return 2;
  }
  if (list) {
    for (int i = 0; i < NBENCH; ++i)
      if (selected(&g_benches[i], groups, names))
        printf("%-13s %-10s %s\n", g_benches[i].name, g_benches[i].group, g_benches[i].what);
    return 0;
  }
  if (summary)
    return print_summary(summary);
  if (!out) {
    usage(stderr);
    return 2;
  }

  struct stat st;
  int fresh = !append || stat(out, &st) != 0 || st.st_size == 0;
  g_csv = fopen(out, fresh ? "w" : "a");
  if (!g_csv) {
    fprintf(stderr, "wgbench: error: cannot open '%s' for writing\n", out);
    return 1;
  }
  g_csv_fd = fileno(g_csv);
  signal(SIGALRM, on_alarm);
  alarm((unsigned)timeout_s);
  if (init_device(device)) {
    if (fresh)
      fprintf(g_csv, "benchmark,parameter,value,unit,median,min,max,repeats,status,note\n");
    wgb_error_row("init", "", "%s", g_err);
    fclose(g_csv);
    return 1;
  }
  alarm(0);
  if (fresh)
    write_header();
  printf("wgbench: %s, %d SMs, clock attr %.0f MHz, measured %.0f MHz\n", g_dev.name,
         g_dev.sm_count, g_dev.clock_khz_attr / 1000.0, g_dev.measured_mhz);

  int dead = 0, nfail = 0;
  for (int i = 0; i < NBENCH; ++i) {
    const struct bench *b = &g_benches[i];
    if (!selected(b, groups, names))
      continue;
    g_current = b->name;
    if (dead) {
      wgb_error_row(b->name, "", "skipped: CUDA context lost in an earlier benchmark");
      ++nfail;
      continue;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    printf("wgbench: %-13s ...", b->name);
    fflush(stdout);
    g_err[0] = 0;
    alarm((unsigned)timeout_s);
    int rc = b->fn();
    alarm(0);
    cudaError_t e = cudaDeviceSynchronize();
    if (e == cudaSuccess)
      e = cudaGetLastError();
    if (rc < 0 || e != cudaSuccess) {
      wgb_error_row(b->name, "", "%s%s%s", g_err, g_err[0] && e ? "; " : "",
                    e ? cudaGetErrorString(e) : "");
      ++nfail;
      /* sticky errors poison the context: a fresh probe tells */
      void *probe = NULL;
      if (cudaMalloc(&probe, 16) != cudaSuccess || cudaDeviceSynchronize() != cudaSuccess)
        dead = 1;
      cudaFree(probe);
    }
    dev_free_all();
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf(" %s (%.1f s)\n", rc < 0 || e ? "FAILED" : "done",
           (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
    fflush(stdout);
  }
  fclose(g_csv);
  return nfail ? 3 : 0;
}
