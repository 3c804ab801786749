/* measure.h - wgperf-measure internals shared by its files (tools/ only).
 *
 * wgperf_measure.c: command line, timing, CSV rows, user kernels from a launch spec.
 * measure_validation.c: the validation kernels of validation/kernels/NAME.cl: their
 * configurations (those of validation/measure/measure_cuda.cu), inputs and CPU
 * references.
 * measure_plan.c: a tuning space's measurement plan (wgtune --plan) timed into a
 * Kernel Tuner cache file.
 */
#ifndef WGPERF_TOOLS_MEASURE_H
#define WGPERF_TOOLS_MEASURE_H

#include "plan_file.h"
#include "wgb.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* The 44 columns of ../shared/data/amaris-nvprof/measurements.csv. */
#define MX_CSV_HEADER                                                                                                  \
  "gpu,compute_capability,kernel,input_size,grid_x,grid_y,grid_z,block_x,block_y,block_z,regs_per_thread,"             \
  "static_smem_bytes,dynamic_smem_bytes,duration_s,n_runs,duration_min_s,duration_max_s,launches_per_run,"             \
  "duration_sum_per_run_s,n_runs_repeat,n_runs_profiled,achieved_occupancy,inst_executed,global_load_transactions,"   \
  "global_store_transactions,gld_transactions_per_request,gst_transactions_per_request,shared_load_transactions,"     \
  "shared_store_transactions,shared_ld_transactions_per_request,shared_st_transactions_per_request,"                  \
  "shared_ld_bank_conflict,shared_st_bank_conflict,l2_read_transactions,l2_write_transactions,"                      \
  "dram_read_transactions,dram_write_transactions,global_hit_rate,branch,divergent_branch,warps_launched,"            \
  "elapsed_cycles_sm,counters_source,notes"
#define MX_COUNTER_COLUMNS 21

typedef struct mx_row {
  const char *kernel;
  long long input_size;
  size_t grid[3], block[3];
  int regs;          /* < 0: unknown (empty column) */
  long static_smem;  /* < 0: unknown */
  long dynamic_smem;
  double med, mn, mx; /* seconds */
  int n_runs, launches, n_repeat;
  double sum_med; /* < 0: not a multi-launch row */
  char notes[128];
} mx_row;

typedef struct mx_ctx {
  wgb b; /* device, error buffer (b.err), OpenCL helpers */
  wgb_dev dev;
  FILE *csv, *skipped;
  char gpu[96], cc[16];
  bool cpu;
  bool header_done; /* the column line is written with the first row (or at the end) */
  int measured, failed, skipped_n;
} mx_ctx;

/* Writes one row in the 44 columns (the column line first, once). */
void mx_write_row(mx_ctx *x, const mx_row *r);
/* Writes the column line unless a row did. */
void mx_write_header(mx_ctx *x);
/* "H100-SXM" for "NVIDIA H100 80GB HBM3", else the name with blanks as dashes. */
void mx_gpu_name(const char *device, char *out, size_t len);
/* ptxas' register count for KERNEL in an NVIDIA build log (-cl-nv-verbose), or -1. */
int mx_regs_from_log(const char *log, const char *kernel);
/* Builds FILE's source with OPTS; *log (may be NULL) receives the build log (free()). */
cl_program mx_build_file(mx_ctx *x, const char *file, const char *opts, char **log);
/* Times one enqueue of K; *sec is its device time (profiling events). */
int mx_time_launch(mx_ctx *x, cl_kernel k, cl_uint dims, const size_t *global, const size_t *local, double *sec);

typedef struct mx_val_opts {
  const char *kernels_dir;
  bool quick, list;
  double budget_s, max_launch_s, config_cap_s;
  const char *only; /* comma-separated kernel names, NULL = all */
} mx_val_opts;

/* Measures (or with list, prints) the validation configurations. Returns the number
 * of verification failures, or -1 on a setup failure (message printed). */
int mx_run_validation(mx_ctx *x, const mx_val_opts *o);
/* Checks the --only list; prints and returns -1 on an unknown name. */
int mx_check_only(const char *only);

/* wgperf-measure --plan (measure_plan.c): a tuning space's configurations
 * (wgtune --plan) timed and written as a Kernel Tuner cache file. */
typedef struct mx_plan_opts {
  const char *plan, *out, *kernel_dir;
  int repeats;                /* timed launches after the warm-up */
  double budget_s;            /* stop starting configurations after this (0: none) */
  double max_launch_s;        /* a warm-up longer than this: one timed launch */
  int jobs;                   /* threads building programs ahead of the timing (0: the CPUs but one) */
  bool in_order;              /* time in the plan's order, not shuffled (plan_shuffle) */
} mx_plan_opts;

/* Times the configurations of P, read from O->plan (an OpenCL plan: the caller
 * checks), on X's device: 0, or 1 with the message printed.  P stays the
 * caller's to free; its configurations may come back in another order. */
int mx_run_plan(mx_ctx *x, plan *p, const mx_plan_opts *o);

#endif
