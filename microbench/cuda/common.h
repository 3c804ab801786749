/* common.h - shared host helpers of the wgperf CUDA microbenchmarks (wgbench).
 *
 * Every benchmark is a host function `int bench_xxx(void)` that returns 0 when it
 * ran (its rows, ok or error, are already emitted) and -1 when a CUDA call failed;
 * then main.cu writes one error row with the message kept in g_err and frees the
 * device buffers the benchmark allocated through dev_alloc(). A sticky CUDA error
 * (illegal address, launch failure) kills the context: the remaining benchmarks of
 * the process are reported as skipped. run-device.sh runs each group in its own
 * process under `timeout`, so one hang loses one group, not the suite.
 */
#ifndef WGBENCH_COMMON_H
#define WGBENCH_COMMON_H

#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>

#define WGB_MAX_REPEATS 64

/* Record the failing call in g_err and make the benchmark return -1. */
#define CK(call)                                                                   \
  do {                                                                             \
    cudaError_t ck_e_ = (call);                                                    \
    if (ck_e_ != cudaSuccess) {                                                    \
      wgb_set_err("%s:%d: %s: %s", __FILE__, __LINE__, #call,                      \
                  cudaGetErrorString(ck_e_));                                      \
      return -1;                                                                   \
    }                                                                              \
  } while (0)

/* Check a launch: configuration errors and, after synchronising, execution errors. */
#define CK_LAUNCH()                                                                \
  do {                                                                             \
    CK(cudaGetLastError());                                                        \
  } while (0)

/* Time one or more launches with events: ms_out receives milliseconds. */
#define TIMED_MS(ms_out, ...)                                                      \
  do {                                                                             \
    CK(cudaEventRecord(g_ev0));                                                    \
    __VA_ARGS__;                                                                   \
    CK(cudaGetLastError());                                                        \
    CK(cudaEventRecord(g_ev1));                                                    \
    CK(cudaEventSynchronize(g_ev1));                                               \
    float timed_ms_ = 0.0f;                                                        \
    CK(cudaEventElapsedTime(&timed_ms_, g_ev0, g_ev1));                            \
    (ms_out) = (double)timed_ms_;                                                  \
  } while (0)

struct wgb_stats {
  double median, min, max;
  int n;
};

struct wgb_device {
  char name[256];
  char driver[64];
  int runtime_version;
  int sm_count;
  int clock_khz_attr;
  int mem_clock_khz_attr;
  int l2_bytes;
  int bus_width_bits; /* global memory bus */
  int smem_per_sm;
  int smem_per_block_optin;
  int max_threads_per_sm;
  size_t total_mem;
  double measured_mhz; /* SM clock measured by a clock64() loop against events */
};

extern struct wgb_device g_dev;
extern cudaEvent_t g_ev0, g_ev1;
extern int g_repeats; /* timed repetitions after one warm-up run */
extern int g_quick;   /* smaller sweeps and sizes */
extern char g_err[512];

void wgb_set_err(const char *fmt, ...);
void wgb_stats_of(const double *v, int n, struct wgb_stats *s);

/* CSV rows: benchmark,parameter,value,unit,median,min,max,repeats,status,note */
void wgb_row(const char *bench, const char *param, const char *unit,
             const struct wgb_stats *s, const char *note);
void wgb_row1(const char *bench, const char *param, const char *unit, double value,
              const char *note);
void wgb_error_row(const char *bench, const char *param, const char *fmt, ...);

/* Device buffers freed by main.cu after each benchmark, whatever happened. */
int dev_alloc(void **p, size_t bytes);
void dev_free_all(void);

/* Per-block timing record: rec[3b] = SM id, rec[3b+1] = start, rec[3b+2] = end
 * (clock64 of that SM). Warps of older blocks get priority, so one block's own span
 * is shorter than the kernel: rates must use each SM's first start to last end. */
__device__ __forceinline__ unsigned wgb_smid(void)
{
  unsigned r;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(r));
  return r;
}
/* Writes block blockIdx.x's record (its SM, T0, T1) into REC. */
__device__ __forceinline__ void wgb_record_span(unsigned long long *rec, long long t0, long long t1)
{
  rec[3 * blockIdx.x] = wgb_smid();
  rec[3 * blockIdx.x + 1] = (unsigned long long)t0;
  rec[3 * blockIdx.x + 2] = (unsigned long long)t1;
}
/* Median over SMs of (blocks on the SM x work_per_block) / (SM's last end - first start). */
double wgb_sm_rate(const unsigned long long *rec, int nblocks, double work_per_block);

/* Median of per-repeat values collected by a timing loop. */
double wgb_median(double *v, int n);

/* Measure the SM clock in MHz (clock64 cycles over event time); 0 on failure. */
int wgb_measure_clock(double *mhz);

/* Benchmarks, by group. */
int bench_clock(void);
int bench_lat_shared(void);
int bench_lat_shared_conflict(void);
int bench_lat_global(void);
int bench_lat_dram(void);
int bench_lat_const(void);
int bench_geom_l1(void);
int bench_geom_l2(void);
int bench_geom_stride(void);
int bench_bw_dram(void);
int bench_bw_l2(void);
int bench_bw_dram_groups(void);
int bench_bw_l2_port(void);
int bench_bw_shared(void);
int bench_bw_shared_conflict(void);
int bench_bw_l1(void);
int bench_cacheop(void);
int bench_bw_occupancy(void);
int bench_arith(void);
int bench_barrier(void);
int bench_atomics(void);
int bench_launch(void);

#endif
