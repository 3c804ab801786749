/* wgb.h - OpenCL microbenchmarks: device access, timing and the benchmark set.
 *
 * Host code in C11 over the OpenCL 1.2 API through the ICD loader, so it runs on any
 * OpenCL device: an NVIDIA GPU (the target), or PoCL on a CPU (CI: a functional
 * check only; a CPU's numbers must never describe a GPU).
 *
 * Timing: every figure comes from OpenCL profiling events (CL_PROFILING_COMMAND_START
 * to _END on the device). Per-operation figures are the difference of two runs that
 * differ only in their operation count, divided by the count difference, so launch
 * cost, warm-up passes and set-up loops inside a kernel cancel. Cycles are that time
 * times the clock: the clock measured by a device counter where the driver exposes one
 * (NVIDIA: %clock64 through inline PTX), else the driver's maximum clock
 * (CL_DEVICE_MAX_CLOCK_FREQUENCY). Each figure is the median of `repeats` runs after a
 * warm-up run; min and max are kept. Each benchmark checks its result on the host
 * (a chain's final node, sums, counts, recomputed arithmetic chains): a wrong answer
 * is an error row, never a number.
 *
 * A benchmark function returns 0 when it ran (its rows, ok or error, are in the table)
 * and -1 when an OpenCL call failed (the reason is in b->err; the runner writes an
 * error row naming the benchmark).
 */
#ifndef WGB_H
#define WGB_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include "wgb_table.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct wgb_dev {
  cl_platform_id platform;
  cl_device_id device;
  cl_context ctx;
  cl_command_queue q;
  char name[256], vendor[256], driver[128], version[128], platform_name[256], platform_version[256];
  cl_device_type type;
  bool is_gpu;
  unsigned compute_units;
  unsigned clock_mhz; /* CL_DEVICE_MAX_CLOCK_FREQUENCY */
  cl_ulong global_mem, max_alloc, local_mem, const_mem, gcache_bytes;
  unsigned gcache_line;
  size_t max_wg, max_item[3];
  bool fp64;
  bool nv; /* cl_nv_device_attribute_query */
  unsigned cc_major, cc_minor, nv_warp, nv_regs_per_block;
} wgb_dev;

/* Opens device DEVICE (index over all device types) of platform PLATFORM with a
 * profiling queue. A negative PLATFORM or DEVICE is not chosen: the first GPU (of
 * PLATFORM if given, else of any platform), or device 0 of platform 0 when there is none.
 * Returns 0, or -1 with the reason in ERR. */
int wgb_dev_open(wgb_dev *d, int platform, int device, char *err, size_t errlen);
void wgb_dev_close(wgb_dev *d);
/* Lists platforms and devices ("0.0 NAME (TYPE, driver X)") on OUT; returns how many
 * devices there are (0 when no platform exists). */
int wgb_dev_list(FILE *out);
/* Number of OpenCL platforms (0 when none; the ICD loader's error counts as none). */
unsigned wgb_platform_count(void);
/* "CL_INVALID_VALUE", ... */
const char *wgb_cl_error(cl_int e);
/* Builds SRC with OPTS. NULL on failure with the build log's start in ERR. */
cl_program wgb_build(const wgb_dev *d, const char *src, const char *opts, char *err, size_t errlen);

typedef struct wgb {
  wgb_dev *d;
  wgb_table *t;
  bool quick;
  int repeats;
  double clock_mhz; /* cycles = ns x clock_mhz / 1000 */
  bool clock_measured;
  unsigned warp;          /* NVIDIA warp size, else the preferred work-group multiple */
  unsigned threads_per_cu; /* resident work-items per compute unit at full occupancy */
  double first_jump, second_jump; /* latency jumps of the footprint sweep (bytes), 0 = not seen */
  double clk_v[64];               /* clock samples (MHz) of wgb_measure_clock */
  int clk_n;
  char clk_why[512];              /* why there is no measured clock */
  char err[1024];
  const char *current; /* benchmark running, for the watchdog */
} wgb;

/* Sets b->err and returns -1. */
int wgb_fail(wgb *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Checks an OpenCL status: on failure records "WHAT: CL_..." and returns -1. */
int wgb_ck(wgb *b, cl_int e, const char *what);
#define WGB_CK(b, call) wgb_ck((b), (call), #call)

/* Enqueues K over a DIMS-dimensional NDRange and waits. *NS (may be NULL) receives the
 * kernel's device time from profiling events. */
int wgb_run(wgb *b, cl_kernel k, cl_uint dims, const size_t *global, const size_t *local, double *ns);
/* Sets argument I of K to the SIZE bytes at P. */
int wgb_arg(wgb *b, cl_kernel k, cl_uint i, size_t size, const void *p);
#define WGB_ARG(b, k, i, v) wgb_arg((b), (k), (i), sizeof(v), &(v))
/* Creates kernel NAME of P (NULL on failure, b->err set). */
cl_kernel wgb_kernel(wgb *b, cl_program p, const char *name);
/* A device buffer of BYTES (NULL on failure, b->err set); HOST (may be NULL) is copied in. */
cl_mem wgb_buffer(wgb *b, size_t bytes, const void *host);
/* WANT bytes, at most the device's largest allocation, a quarter of its memory and
 * LIMIT (the most a kernel's indices reach): the size of a benchmark buffer. */
size_t wgb_cap_alloc(const wgb *b, size_t want, size_t limit);
int wgb_write(wgb *b, cl_mem m, size_t bytes, const void *host);
int wgb_read(wgb *b, cl_mem m, size_t bytes, void *host);
/* Builds a program of the embedded source SRC for this device (b->err on failure). */
cl_program wgb_program(wgb *b, const char *src, const char *extra_opts);
/* ns -> cycles at b->clock_mhz. */
double wgb_cycles(const wgb *b, double ns);
/* Work-groups per compute unit of LOCAL work-items at full occupancy (>= 1). */
unsigned wgb_groups_per_cu(const wgb *b, size_t local);

/* Rows; bench/param/unit as in wgb_table.h. */
int wgb_add(wgb *b, const char *bench, const char *param, const char *unit, const double *v, int n,
            const char *note);
int wgb_add1(wgb *b, const char *bench, const char *param, const char *unit, double v, const char *note);
int wgb_error(wgb *b, const char *bench, const char *param, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* Fills the table's header (device, driver, date, clock, ...). */
int wgb_header(wgb *b);
/* Sets up b for D and T (clock, warp, occupancy). */
int wgb_init(wgb *b, wgb_dev *d, wgb_table *t, bool quick, int repeats);

/* Measures the clock with a device counter where one is exposed (NVIDIA inline PTX
 * %clock64); sets b->clock_mhz and b->clock_measured. No counter is not an error. */
int wgb_measure_clock(wgb *b);

/* The benchmark set. */
typedef struct wgb_bench {
  const char *name;
  const char *group;
  int (*fn)(wgb *b);
  const char *what;
} wgb_bench;
const wgb_bench *wgb_benches(size_t *n);
/* Runs every benchmark whose name or group is in ONLY (comma-separated; NULL = all),
 * each under a watchdog of TIMEOUT_S seconds (0 = none). LOG (may be NULL) gets one
 * progress line per benchmark. Returns the number of error rows written. */
int wgb_run_all(wgb *b, const char *only, unsigned timeout_s, FILE *log);
/* The same; rows are also appended to LIVE (a CSV whose header and column line are
 * written) as each benchmark ends, so a watchdog exit keeps what was measured. */
int wgb_run_all_live(wgb *b, const char *only, unsigned timeout_s, FILE *log, FILE *live);

/* Benchmarks. */
int wgb_bench_clock(wgb *b);
int wgb_bench_geometry(wgb *b);
int wgb_bench_latency(wgb *b);
int wgb_bench_stride(wgb *b);
int wgb_bench_const(wgb *b);
int wgb_bench_bandwidth(wgb *b);
int wgb_bench_occupancy(wgb *b);
int wgb_bench_arith(wgb *b);
int wgb_bench_barrier(wgb *b);
int wgb_bench_atomics(wgb *b);
int wgb_bench_launch(wgb *b);

/* Embedded kernel sources (generated from the kernels folder at build time). */
extern const char wgb_src_chase[];
extern const char wgb_src_stream[];
extern const char wgb_src_arith[];
extern const char wgb_src_sync[];
extern const char wgb_src_clock[];

#endif
