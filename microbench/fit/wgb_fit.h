/* wgb_fit.h - from microbenchmark rows to the parameters of a GPU description.
 *
 * The fit reads rows in the format of wgb_table.h, whichever suite wrote them (the
 * OpenCL benchmarks of microbench/opencl or the CUDA wgbench of microbench/cuda), and
 * produces fields keyed like the description (docs/gpu-description.md):
 * "latencies.l1_hit_cycles", "ops.fp32_fma.throughput_per_cycle", ... each with its
 * value, a source "measured: WHERE (benchmark ...)" and a note on how it was built.
 * Fields it has no measurement for are simply absent; the caller keeps the base
 * description's value and source for them.
 *
 * How each parameter is obtained (docs/calibration.md has the full table):
 * - latencies: the median of a pointer-chasing row (one work-item, dependent loads);
 * - cache sizes: the first footprint whose latency exceeds 1.5x the level below
 *   (wgb_detect_levels), fetch granule from a stride sweep (wgb_detect_granule);
 * - DRAM rows: the rate of random 32 B sectors (bw_dram_scatter) is the memory's
 *   row activations per ns; tFAW = WGB_ACTIVATIONS_PER_WINDOW x devices / rate, the
 *   devices one per 32 bits of the bus (header bus_width_bits), banks, row and
 *   interleave GDDR5's (assumed, they only set how densely rows are reused);
 * - bandwidths: the median of the streaming rows; per-class arithmetic: the
 *   dependent-chain latency and the independent-stream throughput of the operation
 *   that stands for the class, divided by the operations in one step;
 * - barrier: a least-squares line cycles = base + per_warp x warps over the barrier
 *   rows with one work-group per compute unit (wgb_fit_line);
 * - launch: back-to-back time per empty kernel; per-work-group cost = least-squares
 *   slope of time over work-groups;
 * - the latency split of seeds/004 sec. 5.2: a bandwidth-vs-resident-warps curve is
 *   fitted with bw(w) = min(w x bytes_in_flight / L_loaded, bw_peak) (Little's law,
 *   wgb_fit_knee); the pre-wait is one 128 B request at bw_peak, the delay the rest
 *   of the chain latency, the post-wait what the loaded latency adds. The split goes
 *   to the report and the latency field's note (version 1 descriptions have no field
 *   for it: the simulator derives the pre-wait from the bandwidths).
 *
 * Pure C11 (no OpenCL, no JSON). Assumes cycle figures in rows are core-clock cycles
 * of the clock the rows name (clock_measured, else clock_attr).
 */
#ifndef WGB_FIT_H
#define WGB_FIT_H

/* Row activations per device in one tFAW window (gpu.h: WGP_DRAM_ACTIVATIONS_PER_WINDOW). */
#define WGB_ACTIVATIONS_PER_WINDOW 4

#include "wgb_table.h"

#include <stdbool.h>

typedef struct wgb_field {
  char key[80];
  bool is_string;
  double value;
  char str[160];
  char source[640];
  char note[640];
} wgb_field;

typedef struct wgb_fit {
  wgb_field *fields;
  size_t n, cap;
  char **lines; /* the report: one line per parameter, how it was built */
  size_t nlines, lcap;
} wgb_fit;

typedef struct wgb_fit_options {
  /* false where ordinary global loads bypass L1 (Kepler): the first latency jump of
   * the footprint sweep is then L2's */
  bool l1_caches_global_loads;
  /* multiples for cache sizes (the base description's line sizes) */
  unsigned l1_line_bytes, l2_line_bytes;
} wgb_fit_options;

/* Fits every parameter T has rows for. WHERE names the measurement in sources. */
int wgb_fit_run(const wgb_table *t, const char *where, const wgb_fit_options *opt, wgb_fit *fit);
void wgb_fit_free(wgb_fit *fit);
const wgb_field *wgb_fit_get(const wgb_fit *fit, const char *key);

/* ---- building blocks (also used by the benchmarks to size later sweeps) ---- */

/* Least squares y = a + b x over n >= 2 points with distinct x. */
bool wgb_fit_line(const double *x, const double *y, int n, double *a, double *b);
/* Least squares y = min(slope x, peak) over n >= 2 points (x > 0): every split of
 * the sorted points into a rising part (slope through the origin) and a flat part
 * (peak) is tried; the best consistent one wins. */
bool wgb_fit_knee(const double *x, const double *y, int n, double *slope, double *peak);
/* Cache capacities from a latency-vs-footprint curve (footprints ascending):
 * *first = the first footprint with latency > 1.5x the smallest footprint's;
 * *second = the first footprint beyond 2 x *first with latency > 1.5x the latency at
 * the first point at or past 2 x *first. 0 where no such jump exists. */
void wgb_detect_levels(const double *fp, const double *lat, int n, double *first, double *second);
/* The fetch granule from a latency-vs-stride curve of a single sequential pass
 * (strides ascending): the smallest stride whose latency reaches 90% of the way from
 * the smallest stride's to the largest's. 0 when the curve does not rise by 20%. */
double wgb_detect_granule(const double *stride, const double *lat, int n);

/* Which operation rows stand for each arithmetic cost class, and how many of the
 * class's operations one step holds. */
typedef struct wgb_op_map {
  const char *cls; /* "fp32_add" */
  const char *op;  /* "fadd": the op= parameter of arith_latency/arith_throughput */
  double ops_per_step;
  const char *how; /* for the note */
} wgb_op_map;
/* The table, in preference order (a class may appear more than once: the first op
 * with both rows wins). *n receives its length. */
const wgb_op_map *wgb_op_table(size_t *n);

#endif
