/* bench_latency.cu - memory latency by pointer chasing, and cache geometry.
 *
 * One thread follows a chain of dependent loads; clock64() around the timed part
 * gives SM cycles per load (the figure includes the load instruction's own issue,
 * no address arithmetic: global chains store absolute pointers). Chains are a single
 * cycle in a random order (Fisher-Yates with a fixed seed) so hardware prefetching
 * and stride detection cannot help; the stride sweeps use sequential order on
 * purpose. Each chase is verified: the pointer it ends on must be the one the host
 * predicts from the permutation, else the row is an error.
 *
 *   lat_shared       shared memory chase (LDS)
 *   lat_shared_conflict  a whole warp chases, each lane in its own row of a matrix:
 *                    pitch 33 words (32 banks, conflict-free) and 32 (one bank, a
 *                    32-way conflict on every load); the difference over 31 is what
 *                    each extra wavefront adds to the wait (a replay before Volta)
 *   lat_l1 / lat_l2  global chase, footprint in L1 (ld.global.ca) / in L2 (ld.global.cg)
 *   lat_dram         cold chase (L2 flushed before each repeat) vs footprint 64 MiB..4 GiB
 *   lat_const        __constant__ chase vs footprint (warm), and a cold first-touch chase
 *   geom_l1_curve    latency vs footprint 8 KiB..512 KiB (.ca), L1 carveout maximised
 *   geom_l2_curve    latency vs footprint 1 MiB..256 MiB (.cg), footprint pre-read by a grid
 *   geom_*_stride    single-pass sequential chase vs stride: the granule L1 fills from L2
 *                    (a 32 B sector on Hopper, though tags cover 128 B lines) and the
 *                    granule L2 fills from DRAM
 *
 * Run: wgbench -o out.csv --group latency   (or --group geometry)
 */
#include "common.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned long long u64;

__device__ __forceinline__ u64 ld_ca(const void *p)
{
  u64 v;
  asm volatile("ld.global.ca.u64 %0, [%1];" : "=l"(v) : "l"(p));
  return v;
}

__device__ __forceinline__ u64 ld_cg(const void *p)
{
  u64 v;
  asm volatile("ld.global.cg.u64 %0, [%1];" : "=l"(v) : "l"(p));
  return v;
}

/* out[0] = pointer reached, out[1] = cycles of the timed steps. steps % 8 == 0. */
template <int CG>
__global__ void chase_kernel(const void *start, long warm_steps, long steps, u64 *out)
{
  const void *p = start;
  for (long i = 0; i < warm_steps; ++i)
    p = (const void *)(CG ? ld_cg(p) : ld_ca(p));
  long long t0 = clock64();
  for (long i = 0; i < steps; i += 8) {
#pragma unroll
    for (int k = 0; k < 8; ++k)
      p = (const void *)(CG ? ld_cg(p) : ld_ca(p));
  }
  long long t1 = clock64();
  out[0] = (u64)p;
  out[1] = (u64)(t1 - t0);
}

/* buf[pos[i] * stride] = base + pos[i + 1] * stride, for i over a cycle. */
__global__ void scatter_kernel(u64 *buf, const u64 *vals, long n, long stride_words)
{
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  long g = (long)gridDim.x * blockDim.x;
  for (; i < n; i += g)
    buf[i * stride_words] = vals[i];
}

/* Read the whole footprint (all sectors) through L2 so that the chase starts warm. */
__global__ void preread_kernel(const u64 *buf, long words, u64 *sink)
{
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  long g = (long)gridDim.x * blockDim.x;
  u64 acc = 0;
  for (; i < words; i += g)
    acc += ld_cg(buf + i);
  if (acc == 0x5555aaaa5555aaaaULL) /* never true: keeps the loads */
    sink[0] = acc;
}

static unsigned long long g_rng = 0x9E3779B97F4A7C15ULL;
static unsigned long long rng_next(void)
{
  g_rng ^= g_rng << 13;
  g_rng ^= g_rng >> 7;
  g_rng ^= g_rng << 17;
  return g_rng;
}

/* A chain of n nodes `stride` bytes apart over buf; order[i] is the i-th node visited. */
struct chain {
  u64 *buf;      /* device */
  long n;        /* nodes */
  long stride;   /* bytes */
  long *order;   /* host */
};

static void chain_free(struct chain *c)
{
  free(c->order);
  c->order = NULL;
}

/* Build on the device; the buffer must hold n * stride bytes. */
static int chain_build(struct chain *c, u64 *buf, long n, long stride, int random)
{
  c->buf = buf;
  c->n = n;
  c->stride = stride;
  c->order = (long *)malloc((size_t)n * sizeof(long));
  u64 *vals = (u64 *)malloc((size_t)n * sizeof(u64));
  if (!c->order || !vals) {
    free(vals);
    chain_free(c);
    wgb_set_err("host out of memory for a chain of %ld nodes", n);
    return -1;
  }
  for (long i = 0; i < n; ++i)
    c->order[i] = i;
  if (random)
    for (long i = n - 1; i > 0; --i) {
      long j = (long)(rng_next() % (u64)(i + 1));
      long t = c->order[i];
      c->order[i] = c->order[j];
      c->order[j] = t;
    }
  for (long i = 0; i < n; ++i)
    vals[c->order[i]] = (u64)buf + (u64)c->order[(i + 1) % n] * (u64)stride;
  u64 *dvals = NULL;
  cudaError_t e = cudaMalloc((void **)&dvals, (size_t)n * sizeof(u64));
  if (e == cudaSuccess)
    e = cudaMemcpy(dvals, vals, (size_t)n * sizeof(u64), cudaMemcpyHostToDevice);
  if (e == cudaSuccess) {
    scatter_kernel<<<1024, 256>>>(buf, dvals, n, stride / 8);
    e = cudaGetLastError();
  }
  if (e == cudaSuccess)
    e = cudaDeviceSynchronize();
  cudaFree(dvals);
  free(vals);
  if (e != cudaSuccess) {
    chain_free(c);
    wgb_set_err("building a chain of %ld nodes: %s", n, cudaGetErrorString(e));
    return -1;
  }
  return 0;
}

static u64 chain_addr(const struct chain *c, long pos)
{
  return (u64)c->buf + (u64)c->order[pos % c->n] * (u64)c->stride;
}

/* One chase from position `pos`; *cyc = cycles per load; *ok = end pointer matches. */
static int chase_once(const struct chain *c, int cg, long pos, long warm, long steps,
                      u64 *dout, double *cyc, int *ok)
{
  const void *start = (const void *)chain_addr(c, pos);
  if (cg)
    chase_kernel<1><<<1, 1>>>(start, warm, steps, dout);
  else
    chase_kernel<0><<<1, 1>>>(start, warm, steps, dout);
  CK_LAUNCH();
  u64 h[2];
  CK(cudaMemcpy(h, dout, sizeof h, cudaMemcpyDeviceToHost));
  *ok = h[0] == chain_addr(c, pos + warm + steps);
  *cyc = (double)h[1] / (double)steps;
  return 0;
}

/* Warm chase repeated: warm-up pass of `warm` steps inside each launch. */
static int chase_stats(const struct chain *c, int cg, long warm, long steps, u64 *dout,
                       struct wgb_stats *s, int *ok)
{
  double v[WGB_MAX_REPEATS], cyc;
  int good = 1, one;
  if (chase_once(c, cg, 0, warm, steps, dout, &cyc, &one)) /* warm-up launch */
    return -1;
  good &= one;
  for (int r = 0; r < g_repeats; ++r) {
    if (chase_once(c, cg, 0, warm, steps, dout, &v[r], &one))
      return -1;
    good &= one;
  }
  wgb_stats_of(v, g_repeats, s);
  *ok = good;
  return 0;
}

static void note_ns(char *note, size_t n, const char *what, double cycles)
{
  if (g_dev.measured_mhz > 0)
    snprintf(note, n, "%s; %.1f ns at measured %.0f MHz", what,
             cycles * 1e3 / g_dev.measured_mhz, g_dev.measured_mhz);
  else
    snprintf(note, n, "%s", what);
}

/* ---- shared memory ---- */

/* Follows the shared-memory chain from byte offset OFF (each element holds the
 * next one's offset: no address arithmetic): 64 steps to warm, then STEPS timed
 * (a multiple of 8); the offset it ends on, *CYCLES the timed part. */
__device__ __forceinline__ unsigned lds_chase(const char *base, unsigned off, long steps, long long *cycles)
{
  for (int i = 0; i < 64; ++i)
    off = *(volatile const unsigned *)(base + off);
  long long t0 = clock64();
  for (long i = 0; i < steps; i += 8) {
#pragma unroll
    for (int k = 0; k < 8; ++k)
      off = *(volatile const unsigned *)(base + off);
  }
  *cycles = clock64() - t0;
  return off;
}

#define SH_WORDS 4096
__global__ void chase_shared_kernel(long steps, unsigned stride_words, u64 *out)
{
  __shared__ unsigned s[SH_WORDS];
  /* s holds byte offsets of the next element: the load address needs no arithmetic. */
  for (unsigned i = threadIdx.x; i < SH_WORDS; i += blockDim.x)
    s[i] = ((i + stride_words) % SH_WORDS) * 4u;
  __syncthreads();
  if (threadIdx.x != 0)
    return;
  long long cycles;
  out[0] = lds_chase((const char *)s, 0, steps, &cycles);
  out[1] = (u64)cycles;
}

int bench_lat_shared(void)
{
  u64 *d;
  if (dev_alloc((void **)&d, 2 * sizeof(u64)))
    return -1;
  const long steps = 1 << 16;
  const unsigned stride = 33; /* odd: visits every word; a new bank each step */
  double v[WGB_MAX_REPEATS];
  int ok = 1;
  for (int r = -1; r < g_repeats; ++r) {
    chase_shared_kernel<<<1, 128>>>(steps, stride, d);
    CK_LAUNCH();
    u64 h[2];
    CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    u64 expect = ((64 + (u64)steps) * stride % SH_WORDS) * 4;
    ok &= h[0] == expect;
    if (r >= 0)
      v[r] = (double)h[1] / steps;
  }
  if (!ok) {
    wgb_error_row("lat_shared", "", "chase ended on a wrong offset");
    return 0;
  }
  struct wgb_stats s;
  char note[160];
  wgb_stats_of(v, g_repeats, &s);
  note_ns(note, sizeof note, "1 thread; dependent LDS chain", s.median);
  wgb_row("lat_shared", "stride_bytes=132", "cycles", &s, note);
  return 0;
}

/* ---- shared memory, bank conflicts ---- */

/* Lane L follows a chain through row L of a 32 x PITCH matrix: s holds the byte
 * offset of the next column, so step j reads column j mod 32 of every row. */
__global__ void chase_shared_rows_kernel(long steps, unsigned pitch, u64 *out)
{
  __shared__ unsigned s[32 * 33];
  unsigned lane = threadIdx.x;
  for (unsigned k = 0; k < 32; ++k)
    s[lane * pitch + k] = (lane * pitch + (k + 1) % 32) * 4u;
  __syncwarp();
  long long cycles;
  unsigned off = lds_chase((const char *)s, lane * pitch * 4u, steps, &cycles);
  if (lane == 0) {
    out[0] = off;
    out[1] = (u64)cycles;
  }
}

int bench_lat_shared_conflict(void)
{
  u64 *d;
  if (dev_alloc((void **)&d, 2 * sizeof(u64)))
    return -1;
  const long steps = 1 << 14;
  const unsigned pitches[2] = {33, 32}, ways[2] = {1, 32};
  for (int p = 0; p < 2; ++p) {
    double v[WGB_MAX_REPEATS];
    int ok = 1;
    for (int r = -1; r < g_repeats; ++r) {
      chase_shared_rows_kernel<<<1, 32>>>(steps, pitches[p], d);
      CK_LAUNCH();
      u64 h[2];
      CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
      ok &= h[0] == (u64)((64 + steps) % 32) * 4; /* lane 0, row 0 */
      if (r >= 0)
        v[r] = (double)h[1] / steps;
    }
    char param[64];
    snprintf(param, sizeof param, "ways=%u;pitch_words=%u", ways[p], pitches[p]);
    if (!ok) {
      wgb_error_row("lat_shared_conflict", param, "chase ended on a wrong offset");
      continue;
    }
    struct wgb_stats s;
    char note[160];
    wgb_stats_of(v, g_repeats, &s);
    note_ns(note, sizeof note, ways[p] == 1 ? "32 lanes, 32 banks; dependent LDS chain" : "32 lanes, one bank; dependent LDS chain", s.median);
    wgb_row("lat_shared_conflict", param, "cycles", &s, note);
  }
  return 0;
}

/* ---- L1 and L2 hit ---- */

static int lat_point(const char *bench, long footprint, long stride, int cg, long warm,
                     long steps, const char *what, struct wgb_stats *out_s)
{
  u64 *buf, *d;
  struct chain c;
  if (dev_alloc((void **)&buf, (size_t)footprint) || dev_alloc((void **)&d, 16))
    return -1;
  if (chain_build(&c, buf, footprint / stride, stride, 1))
    return -1;
  struct wgb_stats s;
  int ok;
  int rc = chase_stats(&c, cg, warm, steps, d, &s, &ok);
  chain_free(&c);
  if (rc)
    return -1;
  char param[96], note[200];
  snprintf(param, sizeof param, "footprint_bytes=%ld;stride_bytes=%ld", footprint, stride);
  if (!ok) {
    wgb_error_row(bench, param, "chase ended on a wrong pointer");
    return 1;
  }
  note_ns(note, sizeof note, what, s.median);
  wgb_row(bench, param, "cycles", &s, note);
  if (out_s)
    *out_s = s;
  return 0;
}

int bench_lat_global(void)
{
  /* Maximise L1 (minimum shared carveout) for the .ca chase. */
  CK(cudaFuncSetAttribute(chase_kernel<0>, cudaFuncAttributePreferredSharedMemoryCarveout,
                          0));
  long l1 = 16 << 10, l2 = 4 << 20;
  if (lat_point("lat_l1", l1, 128, 0, l1 / 128 * 2, 1 << 15,
                "1 thread; ld.global.ca random chain; warm pass in-kernel", NULL) < 0)
    return -1;
  dev_free_all();
  if (lat_point("lat_l2", l2, 128, 1, l2 / 128, 1 << 15,
                "1 thread; ld.global.cg random chain (bypasses L1); near and far L2 "
                "partitions mixed",
                NULL) < 0)
    return -1;
  return 0;
}

/* ---- DRAM ---- */

int bench_lat_dram(void)
{
  long max_fp = g_quick ? (512L << 20) : (4L << 30);
  if ((size_t)max_fp > g_dev.total_mem / 4)
    max_fp = (long)(g_dev.total_mem / 4);
  u64 *buf, *d, *flush;
  long flush_bytes = 2L * (g_dev.l2_bytes > 0 ? g_dev.l2_bytes : (64 << 20));
  if (dev_alloc((void **)&buf, (size_t)max_fp) || dev_alloc((void **)&d, 16) ||
      dev_alloc((void **)&flush, (size_t)flush_bytes))
    return -1;
  const long steps = g_quick ? 8192 : 16384;
  for (long fp = 64L << 20; fp <= max_fp; fp *= 2) {
    long stride = 256;
    while (fp / stride > (4L << 20))
      stride *= 2;
    struct chain c;
    if (chain_build(&c, buf, fp / stride, stride, 1))
      return -1;
    double v[WGB_MAX_REPEATS];
    int ok = 1;
    for (int r = -1; r < g_repeats; ++r) {
      int one;
      double cyc;
      /* Writing 2x L2 evicts the chain; every step is then a first touch. */
      cudaError_t e = cudaMemset(flush, r & 0xff, (size_t)flush_bytes);
      if (e == cudaSuccess)
        e = cudaDeviceSynchronize();
      if (e != cudaSuccess) {
        chain_free(&c);
        wgb_set_err("flushing L2: %s", cudaGetErrorString(e));
        return -1;
      }
      long pos = ((long)(r + 1) * steps) % c.n;
      if (chase_once(&c, 1, pos, 0, steps, d, &cyc, &one)) {
        chain_free(&c);
        return -1;
      }
      ok &= one;
      if (r >= 0)
        v[r] = cyc;
    }
    chain_free(&c);
    char param[96], note[200];
    snprintf(param, sizeof param, "footprint_bytes=%ld;stride_bytes=%ld", fp, stride);
    if (!ok) {
      wgb_error_row("lat_dram", param, "chase ended on a wrong pointer");
      continue;
    }
    struct wgb_stats s;
    wgb_stats_of(v, g_repeats, &s);
    note_ns(note, sizeof note,
            "1 thread; ld.global.cg; L2 flushed before each repeat; cold random chain "
            "(TLB effects grow with footprint)",
            s.median);
    wgb_row("lat_dram", param, "cycles", &s, note);
  }
  return 0;
}

/* ---- constant cache ---- */

#define CONST_WORDS 16384 /* 64 KiB: all of the constant bank a module may use */
__constant__ unsigned c_chase[CONST_WORDS];

__global__ void chase_const_kernel(unsigned start, long warm, long steps, u64 *out)
{
  unsigned j = start;
  for (long i = 0; i < warm; ++i)
    j = c_chase[j];
  long long t0 = clock64();
  for (long i = 0; i < steps; i += 8) {
#pragma unroll
    for (int k = 0; k < 8; ++k)
      j = c_chase[j];
  }
  long long t1 = clock64();
  out[0] = j;
  out[1] = (u64)(t1 - t0);
}

static int const_point(long footprint, long stride, int cold, struct wgb_stats *s, int *ok)
{
  long n = footprint / stride, sw = stride / 4;
  static unsigned h[CONST_WORDS];
  long order[CONST_WORDS];
  for (long i = 0; i < n; ++i)
    order[i] = i;
  for (long i = n - 1; i > 0; --i) {
    long j = (long)(rng_next() % (u64)(i + 1)), t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
  memset(h, 0, sizeof h);
  for (long i = 0; i < n; ++i)
    h[order[i] * sw] = (unsigned)(order[(i + 1) % n] * sw);
  u64 *d;
  if (dev_alloc((void **)&d, 16))
    return -1;
  CK(cudaMemcpyToSymbol(c_chase, h, sizeof h));
  /* Cold: n steps from a fresh upload touch each node once. Warm: 2 passes first. */
  long steps = cold ? (n / 8) * 8 : 8192;
  long warm = cold ? 0 : 2 * n;
  double v[WGB_MAX_REPEATS];
  *ok = 1;
  for (int r = -1; r < g_repeats; ++r) {
    if (cold) /* re-upload: the driver invalidates the constant caches */
      CK(cudaMemcpyToSymbol(c_chase, h, sizeof h));
    chase_const_kernel<<<1, 1>>>((unsigned)(order[0] * sw), warm, steps, d);
    CK_LAUNCH();
    u64 hh[2];
    CK(cudaMemcpy(hh, d, sizeof hh, cudaMemcpyDeviceToHost));
    *ok &= hh[0] == (u64)(order[(warm + steps) % n] * sw);
    if (r >= 0)
      v[r] = (double)hh[1] / steps;
  }
  wgb_stats_of(v, g_repeats, s);
  return 0;
}

int bench_lat_const(void)
{
  for (long fp = 256; fp <= CONST_WORDS * 4; fp *= 2) {
    struct wgb_stats s;
    int ok;
    long stride = 64;
    if (const_point(fp, stride, 0, &s, &ok))
      return -1;
    char param[96], note[160];
    snprintf(param, sizeof param, "footprint_bytes=%ld;stride_bytes=%ld", fp, stride);
    if (!ok) {
      wgb_error_row("lat_const", param, "chase ended on a wrong index");
      continue;
    }
    note_ns(note, sizeof note, "1 thread; warm __constant__ chain (LDC); index->address",
            s.median);
    wgb_row("lat_const", param, "cycles", &s, note);
  }
  struct wgb_stats s;
  int ok;
  long fp = CONST_WORDS * 4, stride = 256;
  if (const_point(fp, stride, 1, &s, &ok))
    return -1;
  char param[96], note[200];
  snprintf(param, sizeof param, "footprint_bytes=%ld;stride_bytes=%ld", fp, stride);
  if (!ok) {
    wgb_error_row("lat_const_cold", param, "chase ended on a wrong index");
    return 0;
  }
  note_ns(note, sizeof note,
          "1 thread; first touch of each node after re-uploading the bank (constant "
          "cache miss)",
          s.median);
  wgb_row("lat_const_cold", param, "cycles", &s, note);
  return 0;
}

/* ---- geometry ---- */

static void detect_jump(const char *bench, const long *fp, const double *lat, int n)
{
  if (n < 2)
    return;
  for (int i = 1; i < n; ++i)
    if (lat[i] > 1.5 * lat[0]) {
      char note[200];
      snprintf(note, sizeof note,
               "first footprint with latency > 1.5x that of %ld B (%.1f -> %.1f "
               "cycles); previous point %ld B was below",
               fp[0], lat[0], lat[i], fp[i - 1]);
      wgb_row1(bench, "", "bytes", (double)fp[i], note);
      return;
    }
  wgb_error_row(bench, "", "no latency jump > 1.5x up to %ld bytes", fp[n - 1]);
}

int bench_geom_l1(void)
{
  CK(cudaFuncSetAttribute(chase_kernel<0>, cudaFuncAttributePreferredSharedMemoryCarveout,
                          0));
  long fps[64];
  double lat[64];
  int n = 0;
  for (int q = 0; q <= 24; q += (g_quick ? 2 : 1)) {
    long fp = (long)(8192.0 * pow(2.0, q / 4.0)) / 128 * 128;
    struct wgb_stats s;
    int rc = lat_point("geom_l1_curve", fp, 128, 0, fp / 128 * 2, 8192,
                       "1 thread; ld.global.ca random chain over 128 B lines; carveout 0",
                       &s);
    dev_free_all();
    if (rc < 0)
      return -1;
    if (rc == 0) {
      fps[n] = fp;
      lat[n++] = s.median;
    }
  }
  detect_jump("geom_l1_size", fps, lat, n);
  return 0;
}

int bench_geom_l2(void)
{
  long maxfp = 256L << 20;
  u64 *buf, *d, *sink;
  if (dev_alloc((void **)&buf, (size_t)maxfp) || dev_alloc((void **)&d, 16) ||
      dev_alloc((void **)&sink, 16))
    return -1;
  long fps[64];
  double lat[64];
  int n = 0;
  for (int q = 0; q <= 32; q += (g_quick ? 2 : 1)) {
    long fp = (long)((1 << 20) * pow(2.0, q / 4.0)) / 4096 * 4096;
    const long stride = 128, steps = 8192;
    struct chain c;
    if (chain_build(&c, buf, fp / stride, stride, 1))
      return -1;
    double v[WGB_MAX_REPEATS];
    int ok = 1;
    for (int r = -1; r < g_repeats; ++r) {
      int one;
      double cyc;
      preread_kernel<<<g_dev.sm_count * 4, 512>>>(buf, fp / 8, sink);
      cudaError_t e = cudaGetLastError();
      if (e == cudaSuccess)
        e = cudaDeviceSynchronize();
      if (e != cudaSuccess) {
        chain_free(&c);
        wgb_set_err("pre-reading footprint: %s", cudaGetErrorString(e));
        return -1;
      }
      if (chase_once(&c, 1, (long)(r + 1) * steps, 0, steps, d, &cyc, &one)) {
        chain_free(&c);
        return -1;
      }
      ok &= one;
      if (r >= 0)
        v[r] = cyc;
    }
    chain_free(&c);
    char param[96];
    snprintf(param, sizeof param, "footprint_bytes=%ld;stride_bytes=%ld", fp, stride);
    if (!ok) {
      wgb_error_row("geom_l2_curve", param, "chase ended on a wrong pointer");
      continue;
    }
    struct wgb_stats s;
    wgb_stats_of(v, g_repeats, &s);
    wgb_row("geom_l2_curve", param, "cycles", &s,
            "footprint pre-read by a grid; then 1 thread ld.global.cg random chain");
    fps[n] = fp;
    lat[n++] = s.median;
  }
  detect_jump("geom_l2_size", fps, lat, n);
  return 0;
}

/* Sequential single pass: the first access to each line (or fetch granule) misses. */
static int stride_sweep(const char *bench, const char *detect_bench, int cg, u64 *buf,
                        u64 *d, u64 *flush, long flush_bytes)
{
  const long steps = 4096;
  long strides[16];
  double lat[16];
  int n = 0;
  for (long stride = 8; stride <= 1024; stride *= 2) {
    struct chain c;
    if (chain_build(&c, buf, steps + 8, stride, 0))
      return -1;
    double v[WGB_MAX_REPEATS];
    int ok = 1;
    for (int r = -1; r < g_repeats; ++r) {
      /* .ca sweep: chain built (so in L2) and L1 is not kept across launches.
       * .cg sweep: flush L2 so the first touch of each granule goes to DRAM. */
      if (cg) {
        cudaError_t e = cudaMemset(flush, r & 0xff, (size_t)flush_bytes);
        if (e == cudaSuccess)
          e = cudaDeviceSynchronize();
        if (e != cudaSuccess) {
          chain_free(&c);
          wgb_set_err("flushing L2: %s", cudaGetErrorString(e));
          return -1;
        }
      }
      int one;
      double cyc;
      if (chase_once(&c, cg, 0, 0, steps, d, &cyc, &one)) {
        chain_free(&c);
        return -1;
      }
      ok &= one;
      if (r >= 0)
        v[r] = cyc;
    }
    chain_free(&c);
    char param[64];
    snprintf(param, sizeof param, "stride_bytes=%ld", stride);
    if (!ok) {
      wgb_error_row(bench, param, "chase ended on a wrong pointer");
      continue;
    }
    struct wgb_stats s;
    wgb_stats_of(v, g_repeats, &s);
    wgb_row(bench, param, "cycles", &s,
            cg ? "sequential single pass after L2 flush; ld.global.cg"
               : "sequential single pass; data in L2; ld.global.ca");
    strides[n] = stride;
    lat[n++] = s.median;
  }
  /* Granule = smallest stride whose latency reaches 90% of the plateau. */
  if (n >= 3) {
    double lo = lat[0], hi = lat[n - 1];
    for (int i = 0; i < n; ++i)
      if (lat[i] >= lo + 0.9 * (hi - lo)) {
        char note[200];
        snprintf(note, sizeof note,
                 "smallest stride reaching 90%% of the plateau (%.1f -> %.1f cycles)", lo,
                 hi);
        wgb_row1(detect_bench, "", "bytes", (double)strides[i], note);
        break;
      }
  }
  return 0;
}

int bench_geom_stride(void)
{
  u64 *buf, *d, *flush;
  long flush_bytes = 2L * (g_dev.l2_bytes > 0 ? g_dev.l2_bytes : (64 << 20));
  if (dev_alloc((void **)&buf, (size_t)(4104 * 1024)) || dev_alloc((void **)&d, 16) ||
      dev_alloc((void **)&flush, (size_t)flush_bytes))
    return -1;
  if (stride_sweep("geom_l1_stride", "geom_l1_fetch_granule", 0, buf, d, flush, flush_bytes))
    return -1;
  if (stride_sweep("geom_l2_stride", "geom_l2_fetch_granule", 1, buf, d, flush,
                   flush_bytes))
    return -1;
  return 0;
}
