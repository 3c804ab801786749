/* bench_bandwidth.cu - memory bandwidth.
 *
 *   bw_dram_read/write/copy  grid-stride over large buffers with 16-byte accesses,
 *                            full occupancy; copy counts bytes read + written
 *   bw_l2_read               buffer of 1/4 of L2 read repeatedly with ld.global.cg
 *   bw_l2_port               the same reads by one block of 1024 threads on one SM:
 *                            bytes per cycle one SM can take from L2 (its port,
 *                            memory.l2_port_bytes_per_cycle), from its own clock64()
 *   bw_shared                conflict-free 32-bit LDS stream per thread, full occupancy;
 *                            bytes per cycle per SM from the blocks' own clock64()
 *   bw_shared_conflict       SM cycles per warp-wide 32-bit LDS by conflict pattern
 *                            (none, two-way between or within half-warps, 4- to
 *                            32-way), alone and each feeding an FFMA with a
 *                            __constant__ operand
 *   bw_dram_scatter          one 4-byte load per 32-byte sector, the sectors in random
 *                            order over a buffer >> L2: each opens a DRAM row, so the
 *                            rate (sectors/ns) is the memory's row activations per ns
 *                            (memory.dram_activate_window_ns, docs/calibration.md)
 *   bw_dram_occupancy        DRAM read bandwidth vs resident warps per SM (1..64) and
 *                            loads in flight per thread (ilp=1,4): input of the
 *                            latency-hiding model
 *
 * Verification: reads sum a buffer filled with bytes 0x01 and compare the sum with
 * the host's; writes and copies are checked element by element by a device kernel
 * and a sample is also copied back to the host.
 *
 * Run: wgbench -o out.csv --group bandwidth
 */
#include "common.h"

#include <stdlib.h>
#include <string.h>

typedef unsigned long long u64;

__device__ __forceinline__ uint4 ld_cg4(const uint4 *p)
{
  uint4 v;
  asm volatile("ld.global.cg.v4.u32 {%0,%1,%2,%3}, [%4];"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
               : "l"(p));
  return v;
}

__device__ __forceinline__ unsigned sum4(uint4 v) { return v.x + v.y + v.z + v.w; }

/* Each block adds its sum into sums[0] (32-bit wrap-around, as on the host). */
__device__ void block_sum(unsigned acc, unsigned *sums)
{
  __shared__ unsigned part;
  if (threadIdx.x == 0)
    part = 0;
  __syncthreads();
  atomicAdd(&part, acc);
  __syncthreads();
  if (threadIdx.x == 0)
    atomicAdd(sums, part);
}

template <int ILP>
__global__ void __launch_bounds__(1024) read_kernel(const uint4 *a, long n, unsigned *sums)
{
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  long g = (long)gridDim.x * blockDim.x;
  unsigned acc = 0;
  for (; i + (ILP - 1) * g < n; i += ILP * g) {
    uint4 v[ILP];
#pragma unroll
    for (int k = 0; k < ILP; ++k)
      v[k] = ld_cg4(a + i + k * g);
#pragma unroll
    for (int k = 0; k < ILP; ++k)
      acc += sum4(v[k]);
  }
  for (; i < n; i += g)
    acc += sum4(ld_cg4(a + i));
  block_sum(acc, sums);
}

__device__ __forceinline__ unsigned ld_cg1(const unsigned *p)
{
  unsigned v;
  asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(p));
  return v;
}

/* A sector index in [0, nsec) for load k of thread t: a 64-bit mix, so that
 * consecutive loads land in unrelated DRAM rows. */
__device__ __forceinline__ long scatter_sector(long t, int k, long nsec)
{
  unsigned long long x = (unsigned long long)t * 0x9e3779b97f4a7c15ull + (unsigned long long)k * 0xbf58476d1ce4e5b9ull;
  x ^= x >> 31;
  x *= 0x94d049bb133111ebull;
  x ^= x >> 29;
  return (long)(x % (unsigned long long)nsec);
}

/* LOADS loads per thread, 4 in flight; word 0 of each chosen 32 B sector. */
__global__ void __launch_bounds__(1024) scatter_kernel(const unsigned *a, long nsec, int loads, unsigned *sums)
{
  long t = blockIdx.x * (long)blockDim.x + threadIdx.x;
  unsigned acc = 0;
  for (int k = 0; k + 3 < loads; k += 4) {
    unsigned v0 = ld_cg1(a + 8 * scatter_sector(t, k, nsec)), v1 = ld_cg1(a + 8 * scatter_sector(t, k + 1, nsec)),
             v2 = ld_cg1(a + 8 * scatter_sector(t, k + 2, nsec)), v3 = ld_cg1(a + 8 * scatter_sector(t, k + 3, nsec));
    acc += v0 + v1 + v2 + v3;
  }
  block_sum(acc, sums);
}

__device__ __forceinline__ uint4 pattern(long i, unsigned seed)
{
  unsigned x = (unsigned)i;
  return make_uint4(x ^ seed, x + seed, ~x, (unsigned)(i >> 32) + seed);
}

__global__ void write_kernel(uint4 *a, long n, unsigned seed)
{
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  long g = (long)gridDim.x * blockDim.x;
  for (; i < n; i += g)
    a[i] = pattern(i, seed);
}

__global__ void copy_kernel(uint4 *dst, const uint4 *src, long n)
{
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  long g = (long)gridDim.x * blockDim.x;
  for (; i < n; i += g)
    dst[i] = src[i];
}

__global__ void check_kernel(const uint4 *a, long n, unsigned seed, unsigned *bad)
{
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  long g = (long)gridDim.x * blockDim.x;
  unsigned nbad = 0;
  for (; i < n; i += g) {
    uint4 v = a[i], w = pattern(i, seed);
    nbad += v.x != w.x || v.y != w.y || v.z != w.z || v.w != w.w;
  }
  if (nbad)
    atomicAdd(bad, nbad);
}

static int host_sample_ok(const uint4 *d, long n, unsigned seed)
{
  uint4 h[256];
  long at[3] = {0, n / 2, n - 256};
  for (int j = 0; j < 3; ++j) {
    if (cudaMemcpy(h, d + at[j], sizeof h, cudaMemcpyDeviceToHost) != cudaSuccess)
      return 0;
    for (long i = 0; i < 256; ++i) {
      long k = at[j] + i;
      unsigned x = (unsigned)k;
      if (h[i].x != (x ^ seed) || h[i].y != x + seed || h[i].z != ~x ||
          h[i].w != (unsigned)(k >> 32) + seed)
        return 0;
    }
  }
  return 1;
}

static int device_check(const uint4 *a, long n, unsigned seed, unsigned *dbad, int *ok)
{
  CK(cudaMemset(dbad, 0, sizeof(unsigned)));
  check_kernel<<<g_dev.sm_count * 8, 256>>>(a, n, seed, dbad);
  CK_LAUNCH();
  unsigned bad;
  CK(cudaMemcpy(&bad, dbad, sizeof bad, cudaMemcpyDeviceToHost));
  *ok = bad == 0 && host_sample_ok(a, n, seed);
  return 0;
}

static void bw_row(const char *bench, const char *param, double bytes, const double *ms,
                   int n, const char *what)
{
  double v[WGB_MAX_REPEATS];
  for (int i = 0; i < n; ++i)
    v[i] = bytes / (ms[i] * 1e-3) / 1e9;
  struct wgb_stats s;
  wgb_stats_of(v, n, &s);
  char note[240];
  if (g_dev.measured_mhz > 0)
    snprintf(note, sizeof note, "%s; %.1f B/cycle/SM at measured %.0f MHz", what,
             s.median * 1e9 / (g_dev.measured_mhz * 1e6) / g_dev.sm_count,
             g_dev.measured_mhz);
  else
    snprintf(note, sizeof note, "%s", what);
  wgb_row(bench, param, "GB/s", &s, note);
}

int bench_bw_dram(void)
{
  long bytes = g_quick ? (512L << 20) : (2L << 30);
  long n = bytes / 16;
  uint4 *a, *b;
  unsigned *sums;
  if (dev_alloc((void **)&a, (size_t)bytes) || dev_alloc((void **)&b, (size_t)bytes) ||
      dev_alloc((void **)&sums, 16))
    return -1;
  int grid = g_dev.sm_count * 8, block = 256; /* 2048 threads per SM */
  char param[64];
  snprintf(param, sizeof param, "bytes=%ld", bytes);
  double ms[WGB_MAX_REPEATS];

  /* read */
  CK(cudaMemset(a, 1, (size_t)bytes));
  int ok = 1;
  for (int r = -1; r < g_repeats; ++r) {
    double m;
    CK(cudaMemset(sums, 0, 16));
    TIMED_MS(m, (read_kernel<4><<<grid, block>>>(a, n, sums)));
    unsigned h;
    CK(cudaMemcpy(&h, sums, sizeof h, cudaMemcpyDeviceToHost));
    ok &= h == (unsigned)((unsigned long long)n * 4u * 0x01010101u);
    if (r >= 0)
      ms[r] = m;
  }
  if (ok)
    bw_row("bw_dram_read", param, (double)bytes, ms, g_repeats,
           "uint4 ld.global.cg; 4 loads in flight per thread; 2048 threads/SM");
  else
    wgb_error_row("bw_dram_read", param, "sum of the buffer is wrong");

  /* scatter: the same buffer of 0x01 bytes, one word per random sector */
  {
    int loads = g_quick ? 16 : 64; /* a multiple of 4 */
    long threads = (long)grid * block, nsec = bytes / 32;
    ok = 1;
    for (int r = -1; r < g_repeats; ++r) {
      double m;
      CK(cudaMemset(sums, 0, 16));
      TIMED_MS(m, (scatter_kernel<<<grid, block>>>((const unsigned *)a, nsec, loads, sums)));
      unsigned h;
      CK(cudaMemcpy(&h, sums, sizeof h, cudaMemcpyDeviceToHost));
      ok &= h == (unsigned)((unsigned long long)threads * (unsigned long long)loads * 0x01010101u);
      if (r >= 0)
        ms[r] = m;
    }
    char sp[96];
    snprintf(sp, sizeof sp, "bytes=%ld;loads=%ld", bytes, threads * loads);
    if (ok) {
      double v[WGB_MAX_REPEATS];
      for (int i = 0; i < g_repeats; ++i)
        v[i] = (double)threads * loads / (ms[i] * 1e6); /* sectors per ns */
      struct wgb_stats st;
      wgb_stats_of(v, g_repeats, &st);
      char note[200];
      snprintf(note, sizeof note,
               "ld.global.cg.u32 of word 0 of random 32 B sectors; 4 loads in flight per thread; 2048 threads/SM; "
               "%.1f GB/s of sectors",
               st.median * 32);
      wgb_row("bw_dram_scatter", sp, "sectors/ns", &st, note);
    } else {
      wgb_error_row("bw_dram_scatter", sp, "sum of the loaded words is wrong");
    }
  }

  /* write */
  unsigned *bad = sums + 1;
  for (int r = -1; r < g_repeats; ++r) {
    double m;
    TIMED_MS(m, write_kernel<<<grid, block>>>(a, n, 0x1234u + r));
    if (r >= 0)
      ms[r] = m;
  }
  if (device_check(a, n, 0x1234u + g_repeats - 1, bad, &ok))
    return -1;
  if (ok)
    bw_row("bw_dram_write", param, (double)bytes, ms, g_repeats,
           "uint4 stores; 2048 threads/SM");
  else
    wgb_error_row("bw_dram_write", param, "written pattern is wrong");

  /* copy: a holds the last pattern */
  for (int r = -1; r < g_repeats; ++r) {
    double m;
    CK(cudaMemset(b, 0, 256)); /* the check below must see the copy's own stores */
    TIMED_MS(m, copy_kernel<<<grid, block>>>(b, a, n));
    if (r >= 0)
      ms[r] = m;
  }
  if (device_check(b, n, 0x1234u + g_repeats - 1, bad, &ok))
    return -1;
  if (ok)
    bw_row("bw_dram_copy", param, 2.0 * bytes, ms, g_repeats,
           "uint4 copy; bytes read + written");
  else
    wgb_error_row("bw_dram_copy", param, "copied data is wrong");
  return 0;
}

/* PASSES reads of A by the threads I0, I0 + G, ... with 4 loads in flight
 * per thread; the sum of what they read. */
__device__ unsigned l2_read_passes(const uint4 *a, long n, int passes, long i0, long g)
{
  unsigned acc = 0;
  for (int p = 0; p < passes; ++p) {
    long i = i0;
    for (; i + 3 * g < n; i += 4 * g) {
      uint4 v0 = ld_cg4(a + i), v1 = ld_cg4(a + i + g), v2 = ld_cg4(a + i + 2 * g),
            v3 = ld_cg4(a + i + 3 * g);
      acc += sum4(v0) + sum4(v1) + sum4(v2) + sum4(v3);
    }
    for (; i < n; i += g)
      acc += sum4(ld_cg4(a + i));
  }
  return acc;
}

__global__ void l2_read_kernel(const uint4 *a, long n, int passes, unsigned *sums)
{
  block_sum(l2_read_passes(a, n, passes, blockIdx.x * (long)blockDim.x + threadIdx.x, (long)gridDim.x * blockDim.x),
            sums);
}

int bench_bw_l2(void)
{
  long bytes = (g_dev.l2_bytes > 0 ? g_dev.l2_bytes : (32 << 20)) / 4 / 4096 * 4096;
  long n = bytes / 16;
  uint4 *a;
  unsigned *sums;
  if (dev_alloc((void **)&a, (size_t)bytes) || dev_alloc((void **)&sums, 16))
    return -1;
  CK(cudaMemset(a, 1, (size_t)bytes));
  int grid = g_dev.sm_count * 8, block = 256;
  /* Size the pass count for ~5 ms from a short probe run. */
  double m;
  int passes = 4;
  CK(cudaMemset(sums, 0, 16));
  TIMED_MS(m, l2_read_kernel<<<grid, block>>>(a, n, passes, sums));
  passes = (int)(passes * (g_quick ? 2.0 : 5.0) / (m > 1e-3 ? m : 1e-3));
  if (passes < 4)
    passes = 4;
  if (passes > 20000)
    passes = 20000;
  double ms[WGB_MAX_REPEATS];
  int ok = 1;
  for (int r = -1; r < g_repeats; ++r) {
    CK(cudaMemset(sums, 0, 16));
    TIMED_MS(m, l2_read_kernel<<<grid, block>>>(a, n, passes, sums));
    unsigned h;
    CK(cudaMemcpy(&h, sums, sizeof h, cudaMemcpyDeviceToHost));
    ok &= h == (unsigned)((unsigned long long)n * 4u * 0x01010101u * (unsigned)passes);
    if (r >= 0)
      ms[r] = m;
  }
  char param[64];
  snprintf(param, sizeof param, "bytes=%ld;passes=%d", bytes, passes);
  if (ok)
    bw_row("bw_l2_read", param, (double)bytes * passes, ms, g_repeats,
           "buffer = L2/4 read repeatedly; uint4 ld.global.cg; 2048 threads/SM");
  else
    wgb_error_row("bw_l2_read", param, "sum of the buffer is wrong");
  return 0;
}

/* One block reads A (within L2) PASSES times with 4 loads in flight per
 * thread; thread 0 records the SM's clock64() span around the reads. */
__global__ void __launch_bounds__(1024) l2_port_kernel(const uint4 *a, long n, int passes, unsigned *sums, u64 *cycles)
{
  __syncthreads();
  long long t0 = clock64();
  unsigned acc = l2_read_passes(a, n, passes, threadIdx.x, blockDim.x);
  block_sum(acc, sums);
  __syncthreads();
  long long t1 = clock64();
  if (threadIdx.x == 0)
    cycles[0] = (u64)(t1 - t0);
}

int bench_bw_l2_port(void)
{
  /* within L2 and far beyond L1 (the loads bypass it anyway) */
  long bytes = (g_dev.l2_bytes > 0 ? g_dev.l2_bytes : (32 << 20)) / 4;
  if (bytes > (8l << 20))
    bytes = 8l << 20;
  bytes = bytes / 65536 * 65536;
  long n = bytes / 16;
  uint4 *a;
  unsigned *sums;
  u64 *cyc;
  if (dev_alloc((void **)&a, (size_t)bytes) || dev_alloc((void **)&sums, 16) || dev_alloc((void **)&cyc, 16))
    return -1;
  CK(cudaMemset(a, 1, (size_t)bytes));
  int passes = g_quick ? 4 : 16;
  double bpc[WGB_MAX_REPEATS];
  int ok = 1;
  for (int r = -1; r < g_repeats; ++r) {
    CK(cudaMemset(sums, 0, 16));
    l2_port_kernel<<<1, 1024>>>(a, n, passes, sums, cyc);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    unsigned h;
    u64 c;
    CK(cudaMemcpy(&h, sums, sizeof h, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&c, cyc, sizeof c, cudaMemcpyDeviceToHost));
    ok &= h == (unsigned)((unsigned long long)n * 4u * 0x01010101u * (unsigned)passes) && c > 0;
    if (r >= 0)
      bpc[r] = c > 0 ? (double)bytes * passes / (double)c : 0;
  }
  char param[64];
  snprintf(param, sizeof param, "bytes=%ld;passes=%d;block=1024", bytes, passes);
  if (!ok) {
    wgb_error_row("bw_l2_port", param, "sum of the buffer is wrong");
    return 0;
  }
  struct wgb_stats s;
  wgb_stats_of(bpc, g_repeats, &s);
  wgb_row("bw_l2_port", param, "B/cycle/SM", &s,
          "one block of 1024 threads on one SM; uint4 ld.global.cg, 4 in flight; cycles = its clock64() span");
  return 0;
}

/* The buffers of a kernel that leaves one word (thread 0 of block 0) in OUT
 * and each of BLOCKS blocks' SM and clock64() span in CYC, and the host's
 * copy of the spans, HC (the caller frees it; the device buffers go with
 * the benchmark, dev_alloc).  -1 with the error set when one is missing. */
static int alloc_word_and_spans(unsigned **out, u64 **cyc, u64 **hc, int blocks)
{
  if (dev_alloc((void **)out, 16) || dev_alloc((void **)cyc, blocks * 3 * sizeof(u64)))
    return -1;
  *hc = (u64 *)malloc(blocks * 3 * sizeof(u64));
  if (!*hc) {
    wgb_set_err("host out of memory");
    return -1;
  }
  return 0;
}

/* After a launch (E its status so far): the word thread 0 of block 0 left in
 * OUT, and every block's SM and clock64() span (wgb_record_span) in HC. */
static cudaError_t fetch_word_and_spans(cudaError_t e, unsigned *h, const unsigned *out, u64 *hc, const u64 *cyc,
                                        int grid)
{
  if (e == cudaSuccess)
    e = cudaMemcpy(h, out, sizeof *h, cudaMemcpyDeviceToHost);
  if (e == cudaSuccess)
    e = cudaMemcpy(hc, cyc, grid * 3 * sizeof(u64), cudaMemcpyDeviceToHost);
  return e;
}

#define SH_BW_WORDS 4096
__global__ void shared_bw_kernel(int iters, unsigned *out, u64 *cycles)
{
  __shared__ unsigned s[SH_BW_WORDS];
  for (int i = threadIdx.x; i < SH_BW_WORDS; i += blockDim.x)
    s[i] = (unsigned)i;
  __syncthreads();
  long long t0 = clock64();
  /* volatile: each access is an LDS; consecutive lanes, consecutive words: no conflict */
  volatile const unsigned *p = s + threadIdx.x;
  unsigned acc = 0;
  for (int it = 0; it < iters; ++it) {
#pragma unroll
    for (int k = 0; k < 16; ++k)
      acc += p[k * 256 % (SH_BW_WORDS - 256)];
  }
  __syncthreads();
  long long t1 = clock64();
  if (threadIdx.x == 0) {
    wgb_record_span(cycles, t0, t1);
  }
  if (blockIdx.x == 0 && threadIdx.x == 0)
    out[0] = acc;
}

int bench_bw_shared(void)
{
  int block = 256, per_sm = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, shared_bw_kernel, block, 0));
  if (per_sm < 1)
    per_sm = 1;
  int grid = g_dev.sm_count * per_sm;
  unsigned *out;
  u64 *cyc, *hc;
  if (alloc_word_and_spans(&out, &cyc, &hc, grid))
    return -1;
  int iters = g_quick ? 2000 : 8000;
  double gbs[WGB_MAX_REPEATS], bpc[WGB_MAX_REPEATS];
  int ok = 1, rc = 0;
  unsigned expect = 0;
  for (int k = 0; k < 16; ++k)
    expect += (unsigned)(k * 256 % (SH_BW_WORDS - 256));
  expect *= (unsigned)iters;
  for (int r = -1; r < g_repeats && rc == 0; ++r) {
    double m = 0;
    cudaError_t e = cudaEventRecord(g_ev0);
    if (e == cudaSuccess) {
      shared_bw_kernel<<<grid, block>>>(iters, out, cyc);
      e = cudaGetLastError();
    }
    if (e == cudaSuccess)
      e = cudaEventRecord(g_ev1);
    if (e == cudaSuccess)
      e = cudaEventSynchronize(g_ev1);
    float fm = 0;
    if (e == cudaSuccess)
      e = cudaEventElapsedTime(&fm, g_ev0, g_ev1);
    unsigned h = 0;
    e = fetch_word_and_spans(e, &h, out, hc, cyc, grid);
    if (e != cudaSuccess) {
      wgb_set_err("shared bandwidth: %s", cudaGetErrorString(e));
      rc = -1;
      break;
    }
    m = fm;
    ok &= h == expect;
    if (r < 0)
      continue;
    double bytes = (double)grid * block * iters * 16 * 4;
    gbs[r] = bytes / (m * 1e-3) / 1e9;
    bpc[r] = wgb_sm_rate(hc, grid, (double)block * iters * 16 * 4);
  }
  free(hc);
  if (rc)
    return -1;
  char param[64];
  snprintf(param, sizeof param, "block=%d;blocks_per_sm=%d", block, per_sm);
  if (!ok) {
    wgb_error_row("bw_shared", param, "sum of shared words is wrong");
    return 0;
  }
  struct wgb_stats s;
  wgb_stats_of(bpc, g_repeats, &s);
  wgb_row("bw_shared", param, "B/cycle/SM", &s,
          "32-bit conflict-free LDS; cycles = each SM's clock64() span");
  wgb_stats_of(gbs, g_repeats, &s);
  wgb_row("bw_shared_total", param, "GB/s", &s, "same run; event time; all SMs");
  return 0;
}

/* ---- shared memory: conflicts by where they fall in the warp ---- */

/* The word lane L of a warp reads under PATTERN (32 banks of 4 B).  Every
 * pattern but "none" and "halves2" keeps its conflicting lanes evenly in both
 * half-warps; "halves2" puts the two lanes of each bank in different halves
 * (lane l and l + 16), "within2" in the same half (lanes 2i and 2i + 1). */
#define SHC_PATTERNS 7
static const char *const shc_name[SHC_PATTERNS] = {"none", "halves2", "within2", "way4", "way8", "way16", "way32"};
/* the full-warp conflict (most distinct words in one bank) of each pattern */
static const int shc_ways[SHC_PATTERNS] = {1, 2, 2, 4, 8, 16, 32};

__device__ __forceinline__ unsigned shc_word(int pattern, unsigned l)
{
  switch (pattern) {
  case 1: return (l & 15u) + 32u * (l >> 4);   /* bank l mod 16: lanes l, l + 16 */
  case 2: return (l >> 1) + 32u * (l & 1u);    /* bank l / 2: lanes 2i, 2i + 1 */
  case 3: return (l & 7u) + 32u * (l >> 3);    /* 8 banks, 4 lanes each (2 per half) */
  case 4: return (l & 3u) + 32u * (l >> 2);    /* 4 banks, 8 lanes each */
  case 5: return (l & 1u) + 32u * (l >> 1);    /* 2 banks, 16 lanes each */
  case 6: return 32u * l;                      /* one bank */
  default: return l;
  }
}

#define SHC_WORDS 2048 /* 32 rows of 32 words for the pattern, 16 offsets of 64 words beyond */
#define SHC_CONSTS 256 /* more weights than registers: ptxas leaves them in the constant bank */
__constant__ float shc_weight[SHC_CONSTS];

/* Each thread reads 16 words per iteration at its pattern's word plus k x 64
 * (a multiple of 32 words: the same banks), through a volatile pointer so
 * that each read is one LDS, and sums them as integers.  WITH_CONSTANT reads
 * 256 per iteration, each multiplied into a float sum by its own __constant__
 * weight at an index fixed at compile time, as the Kernel Tuner
 * convolution's filter: more weights than ptxas keeps in registers (28
 * registers for sm_86 with CUDA 13.0, no spills), so each FFMA takes its
 * weight as a c[bank][offset] operand. */
template <int WITH_CONSTANT>
__global__ void shared_conflict_kernel(int pattern, int iters, unsigned *out, u64 *cycles)
{
  __shared__ unsigned s[SHC_WORDS];
  for (int i = threadIdx.x; i < SHC_WORDS; i += blockDim.x)
    s[i] = WITH_CONSTANT ? __float_as_uint((float)((i >> 6) & 7)) : (unsigned)i;
  __syncthreads();
  volatile const unsigned *p = s + shc_word(pattern, threadIdx.x & 31u);
  long long t0 = clock64();
  unsigned acc = 0;
  float facc = 0.0f;
  for (int it = 0; it < iters; ++it) {
    if (WITH_CONSTANT) {
#pragma unroll
      for (int k = 0; k < SHC_CONSTS; ++k)
        facc = fmaf(__uint_as_float(p[(k & 15) * 64]), shc_weight[k], facc);
    } else {
#pragma unroll
      for (int k = 0; k < 16; ++k)
        acc += p[k * 64];
    }
  }
  __syncthreads();
  long long t1 = clock64();
  if (threadIdx.x == 0)
    wgb_record_span(cycles, t0, t1);
  if (blockIdx.x == 0 && threadIdx.x == 0)
    out[0] = WITH_CONSTANT ? __float_as_uint(facc) : acc;
}

/* What thread 0 of block 0 computes, for the check. */
static unsigned shc_expect(int with_constant, int iters, const float *weight)
{
  unsigned w0 = 0; /* lane 0's word is 0 under every pattern */
  unsigned acc = 0;
  float facc = 0.0f;
  for (int it = 0; it < iters; ++it) {
    if (with_constant)
      for (int k = 0; k < SHC_CONSTS; ++k)
        facc = fmaf((float)(((w0 + (unsigned)(k & 15) * 64u) >> 6) & 7u), weight[k], facc);
    else
      for (int k = 0; k < 16; ++k)
        acc += w0 + (unsigned)k * 64u;
  }
  unsigned bits;
  memcpy(&bits, &facc, sizeof bits);
  return with_constant ? bits : acc;
}

/* The question it answers (docs/accuracy.md, "Shared-memory conflicts on the
 * RTX 3090"): whether a two-way conflict costs a wavefront when its lanes are
 * in different half-warps, in the same half-warp, or neither, and whether a
 * constant operand shares the shared-memory path. */
int bench_bw_shared_conflict(void)
{
  int block = 256, per_sm[2] = {0, 0};
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm[0], shared_conflict_kernel<0>, block, 0));
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm[1], shared_conflict_kernel<1>, block, 0));
  static float weight[SHC_CONSTS];
  for (int k = 0; k < SHC_CONSTS; ++k)
    weight[k] = 0.25f * (float)(k % 16 + 1); /* the host repeats the same fused multiply-adds in order */
  CK(cudaMemcpyToSymbol(shc_weight, weight, sizeof weight));
  int iters = g_quick ? 500 : 2000; /* (the constant variant reads 16x as many words per iteration) */
  unsigned *out;
  u64 *cyc, *hc;
  int most = g_dev.sm_count * (per_sm[0] > per_sm[1] ? per_sm[0] : per_sm[1]);
  if (most < g_dev.sm_count)
    most = g_dev.sm_count;
  if (alloc_word_and_spans(&out, &cyc, &hc, most))
    return -1;
  int rc = 0;
  for (int wc = 0; wc < 2 && rc == 0; ++wc)
    for (int pat = 0; pat < SHC_PATTERNS && rc == 0; ++pat) {
      int nb = per_sm[wc] < 1 ? 1 : per_sm[wc], grid = g_dev.sm_count * nb, its = wc ? iters / 16 : iters;
      double cpr[WGB_MAX_REPEATS];
      int ok = 1;
      unsigned expect = shc_expect(wc, its, weight);
      for (int r = -1; r < g_repeats; ++r) {
        if (wc)
          shared_conflict_kernel<1><<<grid, block>>>(pat, its, out, cyc);
        else
          shared_conflict_kernel<0><<<grid, block>>>(pat, its, out, cyc);
        unsigned h = 0;
        cudaError_t e = fetch_word_and_spans(cudaGetLastError(), &h, out, hc, cyc, grid);
        if (e != cudaSuccess) {
          wgb_set_err("shared conflicts: %s", cudaGetErrorString(e));
          rc = -1;
          break;
        }
        ok &= h == expect;
        if (r < 0)
          continue;
        /* warp-wide LDS per SM cycle, inverted: SM cycles per warp LDS */
        double rate = wgb_sm_rate(hc, grid, (double)(block / 32) * its * (wc ? SHC_CONSTS : 16));
        cpr[r] = rate > 0 ? 1.0 / rate : 0;
      }
      if (rc)
        break;
      char param[96], note[200];
      snprintf(param, sizeof param, "pattern=%s;ways=%d;constant=%d;block=%d;blocks_per_sm=%d", shc_name[pat],
               shc_ways[pat], wc, block, nb);
      if (!ok) {
        wgb_error_row("bw_shared_conflict", param, "sum of shared words is wrong");
        continue;
      }
      snprintf(note, sizeof note,
               "SM cycles per warp-wide 32-bit LDS, %s; each SM's clock64() span",
               wc ? "256 per iteration, each into one chain of FFMAs with __constant__ operands"
                  : "16 independent per iteration, summed");
      struct wgb_stats st;
      wgb_stats_of(cpr, g_repeats, &st);
      wgb_row("bw_shared_conflict", param, "cycles/LDS/SM", &st, note);
    }
  free(hc);
  return rc;
}

int bench_bw_occupancy(void)
{
  long bytes = g_quick ? (256L << 20) : (1L << 30);
  long n = bytes / 16;
  uint4 *a;
  unsigned *sums;
  if (dev_alloc((void **)&a, (size_t)bytes) || dev_alloc((void **)&sums, 16))
    return -1;
  CK(cudaMemset(a, 1, (size_t)bytes));
  const int warps[] = {1, 2, 4, 8, 12, 16, 24, 32, 48, 64};
  const int nw = (int)(sizeof warps / sizeof warps[0]);
  for (int ilp = 1; ilp <= 4; ilp += 3) {
    for (int wi = 0; wi < nw; ++wi) {
      int w = warps[wi];
      /* one block per SM up to 32 warps; two blocks per SM above */
      int blocks_per_sm = w > 32 ? 2 : 1;
      int block = w * 32 / blocks_per_sm;
      int grid = g_dev.sm_count * blocks_per_sm;
      double ms[WGB_MAX_REPEATS];
      int ok = 1;
      for (int r = -1; r < g_repeats; ++r) {
        double m;
        CK(cudaMemset(sums, 0, 16));
        if (ilp == 1)
          TIMED_MS(m, read_kernel<1><<<grid, block>>>(a, n, sums));
        else
          TIMED_MS(m, read_kernel<4><<<grid, block>>>(a, n, sums));
        unsigned h;
        CK(cudaMemcpy(&h, sums, sizeof h, cudaMemcpyDeviceToHost));
        ok &= h == (unsigned)((unsigned long long)n * 4u * 0x01010101u);
        if (r >= 0)
          ms[r] = m;
      }
      char param[96];
      snprintf(param, sizeof param, "warps_per_sm=%d;ilp=%d;block=%d;blocks_per_sm=%d", w,
               ilp, block, blocks_per_sm);
      if (ok)
        bw_row("bw_dram_occupancy", param, (double)bytes, ms, g_repeats,
               "DRAM read; uint4 ld.global.cg; ilp = independent loads in flight per "
               "thread");
      else
        wgb_error_row("bw_dram_occupancy", param, "sum of the buffer is wrong");
    }
  }
  return 0;
}

/* One element per thread, c[i] = a[i] + b[i] over 2^26 floats (805 MB moved),
 * launched with each group size from 64 to 1024 (full occupancy for all):
 * the bytes moved per second against the group size.  The simulator's
 * bandwidth queue (docs/simulator.md) takes a group as one customer of the
 * SM's share of DRAM, since it frees its place only when its last warp is
 * done: the groups of 1024 should move fewer bytes per second than those of
 * 256.  On the H100 and H200 the validation's vectorAdd showed it (2026-11-28);
 * these rows measure it on any GPU, with the sizes in between. */
__global__ void add_groups_kernel(const float *a, const float *b, float *c, long n)
{
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}

int bench_bw_dram_groups(void)
{
  long n = g_quick ? (1L << 24) : (1L << 26);
  float *a, *b, *c;
  if (dev_alloc((void **)&a, n * sizeof *a) || dev_alloc((void **)&b, n * sizeof *b) ||
      dev_alloc((void **)&c, n * sizeof *c))
    return -1;
  /* 0x3f800000 = 1.0f: every sum is 2.0f */
  CK(cudaMemset(a, 0, n * sizeof *a));
  CK(cudaMemset(b, 0, n * sizeof *b));
  const float one = 1.0f;
  for (int k = 0; k < 2; ++k) {
    float *dst = k ? b : a;
    /* fill with 1.0f by doubling copies */
    CK(cudaMemcpy(dst, &one, sizeof one, cudaMemcpyHostToDevice));
    for (long have = 1; have < n; have *= 2) {
      long m = have < n - have ? have : n - have;
      CK(cudaMemcpy(dst + have, dst, m * sizeof *dst, cudaMemcpyDeviceToDevice));
    }
  }
  const int sizes[] = {64, 128, 256, 512, 1024};
  for (int s = 0; s < 5; ++s) {
    int block = sizes[s];
    long grid = (n + block - 1) / block;
    double ms[WGB_MAX_REPEATS];
    for (int r = -1; r < g_repeats; ++r) {
      double m;
      TIMED_MS(m, (add_groups_kernel<<<(unsigned)grid, block>>>(a, b, c, n)));
      if (r >= 0)
        ms[r] = m;
    }
    float probe[2];
    CK(cudaMemcpy(&probe[0], c, sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&probe[1], c + n - 1, sizeof(float), cudaMemcpyDeviceToHost));
    char param[64];
    snprintf(param, sizeof param, "elements=%ld;block=%d", n, block);
    if (probe[0] == 2.0f && probe[1] == 2.0f)
      bw_row("bw_dram_groups", param, 12.0 * n, ms, g_repeats,
             "c[i] = a[i] + b[i], one float per thread; bytes read + written");
    else
      wgb_error_row("bw_dram_groups", param, "the sums are wrong");
  }
  return 0;
}

/* Global loads that hit L1.  Each block reads a 8 KiB region of its own
 * (ld.global.ca: cached in L1 after the first pass) over and over, 16 loads
 * in flight per thread, full occupancy.  Two access shapes:
 *   coalesced  lane l reads word l of a 128 B line: one request, one line,
 *              four sectors, 128 B (the naive multiply's row of N)
 *   uniform    every lane reads the same word: one request, one sector
 *              (its row of M)
 * Each SM's bytes (coalesced) or requests (uniform) per cycle, from the
 * blocks' own clock64() spans.  The simulator takes a global request's L1
 * time as max(1 per request, global_line_cycles per line, its bytes at
 * memory.shared_bandwidth_bytes_per_cycle): these rows test those three
 * terms for loads that hit (docs/calibration.md).
 * The 16 loads of an iteration are at fixed offsets from one pointer (lines
 * base + 3k, base = (warp + it) mod 16, of the region's 64): each is one
 * LDG with an immediate offset and one add, so the loop issues about 2
 * instructions per load, well under what 4 schedulers issue.  (The first
 * version took each line modulo 32 and spent about 7 instructions per load
 * in 64-bit address arithmetic: on the H200, 2026-11-28, both shapes gave
 * the same 0.39 requests per cycle per SM, the issue rate, not L1's.) */
#define L1_BW_WORDS 2048
__global__ void l1_bw_kernel(const unsigned *a, int iters, int uniform, unsigned *out, u64 *cycles)
{
  const unsigned *region = a + (long)blockIdx.x * L1_BW_WORDS;
  unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  unsigned acc = 0;
  /* warm pass: brings the region into this SM's L1 */
  for (int i = threadIdx.x; i < L1_BW_WORDS; i += blockDim.x)
    acc += __ldca(region + i);
  __syncthreads();
  const unsigned *mine = region + (uniform ? 0u : lane);
  long long t0 = clock64();
  for (int it = 0; it < iters; ++it) {
    const unsigned *p = mine + ((warp + (unsigned)it) % 16u) * 32u;
#pragma unroll
    for (int k = 0; k < 16; ++k)
      acc += __ldca(p + 96 * k); /* line base + 3k: at most 15 + 45 = 60 < 64 */
  }
  __syncthreads();
  long long t1 = clock64();
  if (threadIdx.x == 0) {
    wgb_record_span(cycles, t0, t1);
  }
  atomicAdd(out, acc);
}

int bench_bw_l1(void)
{
  int block = 256, per_sm = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, l1_bw_kernel, block, 0));
  if (per_sm < 1)
    per_sm = 1;
  int grid = g_dev.sm_count * per_sm;
  size_t words = (size_t)grid * L1_BW_WORDS;
  unsigned *a, *out;
  u64 *cyc, *hc;
  if (dev_alloc((void **)&a, words * sizeof *a))
    return -1;
  CK(cudaMemset(a, 1, words * sizeof *a));
  if (alloc_word_and_spans(&out, &cyc, &hc, grid))
    return -1;
  int iters = g_quick ? 500 : 2000;
  for (int uniform = 0; uniform < 2; ++uniform) {
    /* every word holds 0x01010101: the warm pass reads each word of the
     * region once per block, the timed loop 16 x iters words per thread */
    unsigned expect = (unsigned)((unsigned long long)0x01010101u *
                                 ((unsigned long long)grid * L1_BW_WORDS + (unsigned long long)grid * block * 16 * iters));
    double rate[WGB_MAX_REPEATS];
    int ok = 1;
    for (int r = -1; r < g_repeats; ++r) {
      CK(cudaMemset(out, 0, 16));
      l1_bw_kernel<<<grid, block>>>(a, iters, uniform, out, cyc);
      CK(cudaGetLastError());
      CK(cudaDeviceSynchronize());
      unsigned h;
      CK(cudaMemcpy(&h, out, sizeof h, cudaMemcpyDeviceToHost));
      CK(cudaMemcpy(hc, cyc, grid * 3 * sizeof(u64), cudaMemcpyDeviceToHost));
      ok &= h == expect;
      if (r >= 0) {
        /* per block: bytes the warps' requests deliver (coalesced) or the requests themselves (uniform) */
        double per_block = (double)(block / 32) * iters * 16 * (uniform ? 1.0 : 128.0);
        rate[r] = wgb_sm_rate(hc, grid, per_block);
      }
    }
    const char *name = uniform ? "bw_l1_requests" : "bw_l1";
    char param[64];
    snprintf(param, sizeof param, "block=%d;blocks_per_sm=%d;region=%d", block, per_sm, L1_BW_WORDS * 4);
    if (!ok) {
      wgb_error_row(name, param, "sum of the loaded words is wrong");
      continue;
    }
    struct wgb_stats s;
    wgb_stats_of(rate, g_repeats, &s);
    if (uniform)
      wgb_row(name, param, "requests/cycle/SM", &s,
              "ld.global.ca, every lane the same word (1 sector), L1 hits, 16 in flight per thread; each SM's clock64() span");
    else
      wgb_row(name, param, "B/cycle/SM", &s,
              "ld.global.ca, lane l word l of a 128 B line (4 sectors), L1 hits, 16 in flight per thread; each SM's clock64() span");
  }
  free(hc);
  return 0;
}
