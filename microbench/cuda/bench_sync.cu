/* bench_sync.cu - barriers, atomics and kernel launch overhead.
 *
 *   barrier           __syncthreads() in a loop; SM cycles per barrier (thread 0's
 *                     clock64()) vs block size, at 1 block per SM and at full occupancy
 *   atomic_global     atomicAdd on global memory: every thread on one address
 *                     (contended) or each thread on its own word (uncontended); atomics
 *                     per ns for the whole GPU; the final counts are checked
 *   atomic_shared     the same on shared memory; atomics per cycle per SM
 *   launch_*          empty kernel: one launch waited for (launch_single), back-to-back
 *                     launches timed together (launch_throughput), and back-to-back
 *                     time vs number of blocks (1..132000) and block size
 *
 * Note: nvcc may aggregate a warp's atomicAdd(p, 1) on one address into one atomic;
 * the figures are for the code as compiled, which is what kernels get too.
 *
 * Run: wgbench -o out.csv --group sync
 */
#include "common.h"

#include <stdlib.h>
#include <string.h>

typedef unsigned long long u64;

__global__ void barrier_kernel(int iters, u64 *cycles, int *done)
{
  __syncthreads();
  long long t0 = clock64();
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int k = 0; k < 8; ++k)
      __syncthreads();
  }
  long long t1 = clock64();
  if (threadIdx.x == 0) {
    wgb_record_span(cycles, t0, t1);
    atomicAdd(done, 1);
  }
}

int bench_barrier(void)
{
  int maxgrid = g_dev.sm_count * 64;
  u64 *cyc;
  int *done;
  if (dev_alloc((void **)&cyc, (size_t)maxgrid * 3 * sizeof(u64)) ||
      dev_alloc((void **)&done, sizeof(int)))
    return -1;
  u64 *hc = (u64 *)malloc((size_t)maxgrid * 3 * sizeof(u64));
  if (!hc) {
    wgb_set_err("host out of memory");
    return -1;
  }
  const int iters = g_quick ? 256 : 1024; /* x8 barriers */
  int rc = 0;
  for (int full = 0; full <= 1 && rc == 0; ++full) {
    for (int block = 32; block <= 1024 && rc == 0; block *= 2) {
      int per_sm = 1;
      if (full) {
        cudaError_t e =
            cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, barrier_kernel, block, 0);
        if (e != cudaSuccess || per_sm < 1)
          per_sm = 1;
        if (per_sm > 64)
          per_sm = 64;
      }
      int grid = g_dev.sm_count * per_sm;
      double v[WGB_MAX_REPEATS];
      int ok = 1;
      for (int r = -1; r < g_repeats; ++r) {
        int hd = 0;
        cudaError_t e = cudaMemset(done, 0, sizeof(int));
        if (e == cudaSuccess) {
          barrier_kernel<<<grid, block>>>(iters, cyc, done);
          e = cudaGetLastError();
        }
        if (e == cudaSuccess)
          e = cudaMemcpy(hc, cyc, (size_t)grid * 3 * sizeof(u64), cudaMemcpyDeviceToHost);
        if (e == cudaSuccess)
          e = cudaMemcpy(&hd, done, sizeof hd, cudaMemcpyDeviceToHost);
        if (e != cudaSuccess) {
          wgb_set_err("barrier: %s", cudaGetErrorString(e));
          rc = -1;
          break;
        }
        ok &= hd == grid;
        /* cycles per barrier per block: SM span over all its blocks' barriers */
        double rate = wgb_sm_rate(hc, grid, iters * 8.0);
        if (r >= 0)
          v[r] = rate > 0 ? 1.0 / rate : 0.0;
      }
      if (rc)
        break;
      char param[80];
      snprintf(param, sizeof param, "block=%d;blocks_per_sm=%d", block, per_sm);
      if (!ok) {
        wgb_error_row("barrier", param, "not every block finished");
        continue;
      }
      struct wgb_stats s;
      wgb_stats_of(v, g_repeats, &s);
      wgb_row("barrier", param, "cycles", &s,
              full ? "SM cycles per barrier per block; blocks share the SM (throughput view)"
                   : "SM cycles per barrier; one block per SM (latency view)");
    }
  }
  free(hc);
  return rc;
}

__global__ void atomic_global_kernel(unsigned *p, int iters, int contended)
{
  unsigned *q = contended ? p : p + blockIdx.x * (long)blockDim.x + threadIdx.x;
  for (int i = 0; i < iters; ++i)
    atomicAdd(q, 1u);
}

__global__ void atomic_shared_kernel(unsigned *out, int iters, int contended, u64 *cycles)
{
  __shared__ unsigned s[1024];
  s[threadIdx.x] = 0;
  __syncthreads();
  unsigned *q = contended ? s : s + threadIdx.x;
  long long t0 = clock64();
  for (int i = 0; i < iters; ++i)
    atomicAdd(q, 1u);
  __syncthreads();
  long long t1 = clock64();
  if (threadIdx.x == 0) {
    wgb_record_span(cycles, t0, t1);
  }
  out[blockIdx.x * (long)blockDim.x + threadIdx.x] = s[threadIdx.x];
}

int bench_atomics(void)
{
  const int block = 256;
  int grid = g_dev.sm_count * 8; /* 2048 threads per SM */
  long nthreads = (long)grid * block;
  unsigned *buf;
  u64 *cyc;
  if (dev_alloc((void **)&buf, (size_t)nthreads * sizeof(unsigned)) ||
      dev_alloc((void **)&cyc, (size_t)grid * 3 * sizeof(u64)))
    return -1;
  unsigned *h = (unsigned *)malloc((size_t)nthreads * sizeof(unsigned));
  u64 *hc = (u64 *)malloc((size_t)grid * 3 * sizeof(u64));
  if (!h || !hc) {
    free(h);
    free(hc);
    wgb_set_err("host out of memory");
    return -1;
  }
  int rc = 0;
  for (int contended = 1; contended >= 0 && rc == 0; --contended) {
    /* global: size iterations from a probe so a run takes ~3 ms; keep counts < 2^32 */
    int iters = 4;
    double v[WGB_MAX_REPEATS];
    int ok = 1;
    for (int r = -2; r < g_repeats; ++r) {
      double m = 0;
      cudaError_t e = cudaMemset(buf, 0, (size_t)nthreads * sizeof(unsigned));
      if (e == cudaSuccess)
        e = cudaEventRecord(g_ev0);
      if (e == cudaSuccess) {
        atomic_global_kernel<<<grid, block>>>(buf, iters, contended);
        e = cudaGetLastError();
      }
      if (e == cudaSuccess)
        e = cudaEventRecord(g_ev1);
      if (e == cudaSuccess)
        e = cudaEventSynchronize(g_ev1);
      float fm = 0;
      if (e == cudaSuccess)
        e = cudaEventElapsedTime(&fm, g_ev0, g_ev1);
      if (e == cudaSuccess)
        e = cudaMemcpy(h, buf, (size_t)nthreads * sizeof(unsigned), cudaMemcpyDeviceToHost);
      if (e != cudaSuccess) {
        wgb_set_err("global atomics: %s", cudaGetErrorString(e));
        rc = -1;
        break;
      }
      m = fm;
      if (contended)
        ok &= h[0] == (unsigned)(nthreads * iters);
      else
        for (long i = 0; i < nthreads; ++i)
          ok &= h[i] == (unsigned)iters;
      if (r == -2) {
        double sc = (g_quick ? 1.0 : 3.0) / (m > 1e-3 ? m : 1e-3);
        iters = (int)(iters * sc);
        if (iters < 4)
          iters = 4;
        if ((double)iters * nthreads > 4.0e9)
          iters = (int)(4.0e9 / nthreads);
        continue;
      }
      if (r >= 0)
        v[r] = (double)nthreads * iters / (m * 1e6); /* per ns */
    }
    if (rc)
      break;
    char param[96];
    snprintf(param, sizeof param, "contended=%d;threads=%ld;iters=%d", contended, nthreads,
             iters);
    if (!ok)
      wgb_error_row("atomic_global", param, "final counts are wrong");
    else {
      struct wgb_stats s;
      wgb_stats_of(v, g_repeats, &s);
      char note[200];
      snprintf(note, sizeof note, "%s; result unused (RED); whole GPU; %.2f per cycle at "
               "measured clock",
               contended ? "all threads on one word" : "one word per thread",
               s.median * 1e3 / (g_dev.measured_mhz > 0 ? g_dev.measured_mhz : 1e9));
      wgb_row("atomic_global", param, "atomics/ns", &s, note);
    }

    /* shared */
    iters = g_quick ? 256 : 1024;
    ok = 1;
    for (int r = -1; r < g_repeats; ++r) {
      cudaError_t e = cudaSuccess;
      atomic_shared_kernel<<<grid, block>>>(buf, iters, contended, cyc);
      e = cudaGetLastError();
      if (e == cudaSuccess)
        e = cudaMemcpy(h, buf, (size_t)nthreads * sizeof(unsigned), cudaMemcpyDeviceToHost);
      if (e == cudaSuccess)
        e = cudaMemcpy(hc, cyc, (size_t)grid * 3 * sizeof(u64), cudaMemcpyDeviceToHost);
      if (e != cudaSuccess) {
        wgb_set_err("shared atomics: %s", cudaGetErrorString(e));
        rc = -1;
        break;
      }
      for (long b = 0; b < grid; ++b) {
        if (contended)
          ok &= h[b * block] == (unsigned)(block * iters);
        else
          for (int t = 0; t < block; ++t)
            ok &= h[b * block + t] == (unsigned)iters;
      }
      if (r >= 0)
        v[r] = wgb_sm_rate(hc, grid, (double)block * iters);
    }
    if (rc)
      break;
    snprintf(param, sizeof param, "contended=%d;block=%d;blocks_per_sm=8;iters=%d",
             contended, block, iters);
    if (!ok)
      wgb_error_row("atomic_shared", param, "final counts are wrong");
    else {
      struct wgb_stats s;
      wgb_stats_of(v, g_repeats, &s);
      wgb_row("atomic_shared", param, "atomics/cycle/SM", &s,
              contended ? "all threads of a block on one word; SM clock64() span"
                        : "one word per thread; SM clock64() span");
    }
  }
  free(h);
  free(hc);
  return rc;
}

__global__ void empty_kernel(void) {}

int bench_launch(void)
{
  double v[WGB_MAX_REPEATS], m;
  /* single launch, waited for; warm-up first */
  for (int k = 0; k < 20; ++k)
    TIMED_MS(m, empty_kernel<<<1, 32>>>());
  /* each repeat is the median of 21 single launches */
  for (int r = 0; r < g_repeats; ++r) {
    double w[21];
    for (int k = 0; k < 21; ++k) {
      TIMED_MS(m, empty_kernel<<<1, 32>>>());
      w[k] = m * 1e3;
    }
    v[r] = wgb_median(w, 21);
  }
  struct wgb_stats s;
  wgb_stats_of(v, g_repeats, &s);
  wgb_row("launch_single", "blocks=1;block=32", "us", &s,
          "event record; launch; event record; wait: device-side time of one launch");

  const int n_b2b = g_quick ? 200 : 1000;
  for (int r = -1; r < g_repeats; ++r) {
    TIMED_MS(m, for (int k = 0; k < n_b2b; ++k) empty_kernel<<<1, 32>>>());
    if (r >= 0)
      v[r] = m * 1e3 / n_b2b;
  }
  wgb_stats_of(v, g_repeats, &s);
  char param[80];
  snprintf(param, sizeof param, "blocks=1;block=32;launches=%d", n_b2b);
  wgb_row("launch_throughput", param, "us", &s,
          "back-to-back empty kernels in one stream: time per launch");

  const long blocks[] = {1, 132, 1320, 13200, 132000};
  const int bsz[] = {32, 256, 1024};
  for (int bi = 0; bi < 3; ++bi)
    for (int gi = 0; gi < 5; ++gi) {
      long nb = blocks[gi];
      if (nb == 132 || nb == 1320 || nb == 13200 || nb == 132000)
        nb = nb / 132 * g_dev.sm_count; /* multiples of the SM count on any GPU */
      int launches = nb >= 100000 ? 50 : 200;
      if (g_quick)
        launches /= 4;
      for (int r = -1; r < g_repeats; ++r) {
        TIMED_MS(m, for (int k = 0; k < launches; ++k)
                        empty_kernel<<<(unsigned)nb, bsz[bi]>>>());
        if (r >= 0)
          v[r] = m * 1e3 / launches;
      }
      wgb_stats_of(v, g_repeats, &s);
      snprintf(param, sizeof param, "blocks=%ld;block=%d", nb, bsz[bi]);
      wgb_row("launch_blocks", param, "us", &s,
              "back-to-back empty kernels: time per launch vs grid size");
    }
  return 0;
}
