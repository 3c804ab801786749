/* bench_estimate.c - milliseconds per estimate, in process, by phase.
 *
 *   bench_estimate MODEL.json [--kernel NAME] [--gpu NAME_OR_FILE] [--repeat N]
 *                  [--full] [--gto] [--breakdown] [--threads N]
 *                  LAUNCH OPTIONS (as wgperf predict: --global, --local, --arg, ...)
 *
 * --full simulates every iteration (WGP_SIM_FULL: no steady-state
 * extrapolation), --gto issues greedy-then-oldest, so the extrapolation can
 * be compared with the full simulation on real kernels; --breakdown also
 * prints the round's cycles and breakdown.  --threads N: the threads of the
 * cache analysis (default: the CPUs, as wgperf predict).
 *
 * Loads the model and the GPU description once, then runs the estimate of
 * `wgperf predict` (analysis, occupancy, cache analysis, simulation) N times
 * (default 5) and prints the median milliseconds of each phase and of the
 * whole estimate (analysis timed on a separate run, the cache analysis as
 * the rest of wgp_estimate_new), and the predicted time, so that a speed change can be seen
 * not to move the answer.  Times are CPU time of this process, all threads
 * (the machine is shared: wall time measures the other users too), then the
 * wall time of the whole estimate.  A benchmark, not a
 * test: scripts/bench.sh runs it.
 */
#include "wgperf/estimate.h"
#include "wgperf/launch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double clock_ms(clockid_t id) {
  struct timespec ts;
  clock_gettime(id, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static double now_ms(void) { return clock_ms(CLOCK_PROCESS_CPUTIME_ID); }
static double wall_ms(void) { return clock_ms(CLOCK_MONOTONIC); }

static int cmp_d(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_d);
  return v[(n - 1) / 2];
}

enum { MAXREP = 101 };

int main(int argc, char **argv) {
  wgp_tune_allocator();
  if (argc < 2) {
    fprintf(stderr, "usage: bench_estimate MODEL.json [--kernel NAME] [--gpu NAME] [--repeat N] LAUNCH OPTIONS\n");
    return 2;
  }
  const char *kname = NULL, *gname = "h100-sxm";
  int repeat = 5;
  unsigned flags = 0;
  bool breakdown = false;
  unsigned threads = 0;
  wgp_diag d;
  wgp_launch *l = wgp_launch_new();
  if (!l)
    return 1;
  for (int i = 2; i < argc; i++) {
    bool takes;
    if (strcmp(argv[i], "--kernel") == 0 && i + 1 < argc) {
      kname = argv[++i];
    } else if (strcmp(argv[i], "--gpu") == 0 && i + 1 < argc) {
      gname = argv[++i];
    } else if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) {
      repeat = atoi(argv[++i]);
      if (repeat < 1 || repeat > MAXREP) {
        fprintf(stderr, "bench_estimate: --repeat 1..%d\n", MAXREP);
        return 2;
      }
    } else if (strcmp(argv[i], "--full") == 0) {
      flags |= WGP_SIM_FULL;
    } else if (strcmp(argv[i], "--gto") == 0) {
      flags |= WGP_SIM_GTO;
    } else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc) {
      int n = atoi(argv[++i]);
      if (n < 1 || n > (int)WGP_MAX_THREADS) {
        fprintf(stderr, "bench_estimate: --threads 1..%u\n", WGP_MAX_THREADS);
        return 2;
      }
      threads = (unsigned)n;
    } else if (strcmp(argv[i], "--breakdown") == 0) {
      breakdown = true;
    } else if (wgp_launch_is_option(argv[i], &takes)) {
      const char *v = takes && i + 1 < argc ? argv[++i] : NULL;
      if (wgp_launch_set_option(l, argv[i - (v ? 1 : 0)], v, &d) != WGP_OK) {
        fprintf(stderr, "%s\n", d.message);
        return 1;
      }
    } else {
      fprintf(stderr, "bench_estimate: unknown option '%s'\n", argv[i]);
      return 2;
    }
  }
  wgp_model *m;
  wgp_gpu *gpu;
  double t0 = now_ms();
  if (wgp_model_load_file(argv[1], &m, &d) != WGP_OK) {
    fprintf(stderr, "%s\n", d.message);
    return 1;
  }
  double t1 = now_ms();
  wgp_status gs = strchr(gname, '/') ? wgp_gpu_load_file(gname, &gpu, &d) : wgp_gpu_load_builtin(gname, &gpu, &d);
  if (gs != WGP_OK) {
    fprintf(stderr, "%s\n", d.message);
    return 1;
  }
  double t2 = now_ms();
  const wgp_kernel *k = kname ? wgp_model_find_kernel(m, kname) : wgp_model_kernel(m, 0);
  if (!k) {
    fprintf(stderr, "bench_estimate: no kernel '%s'\n", kname ? kname : "");
    return 1;
  }
  size_t na = wgp_kernel_num_args(k) ? wgp_kernel_num_args(k) : 1;
  uint64_t *align = calloc(na, sizeof *align), *local = calloc(na + wgp_kernel_num_arrays(k), sizeof *local);
  wgp_analysis_input in = {0};
  if (!align || !local || wgp_launch_bind(l, k, &in.launch, align, local, &d) != WGP_OK) {
    fprintf(stderr, "%s\n", d.message);
    return 1;
  }
  in.kernel = k;
  in.gpu = gpu;
  in.buffer_align = align;
  in.local_bytes = local;
  in.threads = threads;
  double wall[MAXREP], ana[MAXREP], est[MAXREP], sim[MAXREP], total[MAXREP], time_us = 0, simulated = 0;
  for (int r = 0; r < repeat; r++) {
    wgp_estimate *e;
    wgp_sim_result res;
    wgp_analysis *an;
    double z = now_ms();
    if (wgp_analyze(&in, &an, &d) != WGP_OK) {
      fprintf(stderr, "%s\n", d.message);
      return 1;
    }
    wgp_analysis_free(an);
    double a = now_ms(), wa = wall_ms();
    ana[r] = a - z;
    if (wgp_estimate_new(&in, 0, &e, &d) != WGP_OK) {
      fprintf(stderr, "%s\n", d.message);
      return 1;
    }
    double b = now_ms();
    if (wgp_estimate_simulate(e, flags, &res, &d) != WGP_OK) {
      fprintf(stderr, "%s\n", d.message);
      return 1;
    }
    double c = now_ms();
    wall[r] = wall_ms() - wa;
    wgp_estimate_free(e);
    est[r] = b - a;
    sim[r] = c - b;
    total[r] = c - a;
    time_us = res.time_us;
    simulated = res.simulated_instructions;
    if (breakdown && r == repeat - 1)
      printf("round %.10g cycles x %.6g rounds, bounds %.10g..%.10g us | per warp: issue %.6g compute %.6g "
             "shared/L1 %.6g L2 %.6g DRAM %.6g constant %.6g barrier %.6g%s\n",
             res.round_cycles, res.rounds, res.best_us, res.worst_us, res.issue_cycles, res.compute_cycles,
             res.mem_stall_cycles[0], res.mem_stall_cycles[1], res.mem_stall_cycles[2], res.mem_stall_cycles[3],
             res.barrier_cycles, res.extrapolated ? ", extrapolated" : "");
  }
  /* the analysis is timed on its own run; the cache analysis is the rest of wgp_estimate_new */
  double an_ms = median(ana, repeat), est_ms = median(est, repeat);
  printf("load model %6.2f gpu %5.2f | analysis %7.2f cache %7.2f simulate %7.2f estimate %7.2f ms wall %7.2f ms | time %.10g us, %.0f insns "
         "simulated\n",
         t1 - t0, t2 - t1, an_ms, est_ms - an_ms, median(sim, repeat), median(total, repeat), median(wall, repeat),
         time_us, simulated);
  free(align);
  free(local);
  wgp_gpu_free(gpu);
  wgp_model_free(m);
  wgp_launch_free(l);
  return 0;
}
