/* bench_sync.c - barriers, atomics and launch overhead (kernels in kernels/sync.cl).
 *
 *   barrier          cycles per barrier() vs work-group size; one work-group per compute
 *                    unit (latency view, fitted to base + per_warp x warps) and, in full
 *                    mode, every unit full (per group: throughput view)
 *   atomic_global    atomic_add on global memory, every work-item on one word
 *                    (contended) or on its own: atomics per ns over the device
 *   atomic_shared    atomic_add on __local memory, likewise: per cycle per unit
 *   launch_single    host time of one enqueue of an empty kernel and its completion
 *   launch_throughput  back-to-back empty kernels in one queue: first start to last end
 *                    on the device, per launch (the GPU description's launch overhead)
 *   launch_blocks    the same vs work-groups (1 .. 1000 per unit) and group size
 *
 * Checks: each work-item's barrier count and its neighbour's value; exact atomic
 * counts; empty kernels must complete without error.
 */
#define _POSIX_C_SOURCE 200809L
#include "wgb.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXREP 64

static int barrier_row(wgb *b, cl_kernel k, size_t local, unsigned groups_per_cu) {
  size_t global = local * b->d->compute_units * groups_per_cu;
  char param[96], note[300];
  snprintf(param, sizeof param, "block=%zu;blocks_per_sm=%u", local, groups_per_cu);
  cl_mem out = wgb_buffer(b, global * 4, NULL);
  uint32_t *h = out ? malloc(global * 4) : NULL;
  int rc = h ? 0 : -1;
  if (out && !h)
    rc = wgb_fail(b, "host out of memory");
  cl_uint iters = b->quick ? 256 : 1024;
  if (!b->d->is_gpu)
    iters /= 8;
  double v[MAXREP];
  bool bad = false;
  if (!rc)
    rc = WGB_ARG(b, k, 1, out) || wgb_arg(b, k, 2, local * 4, NULL) ? -1 : 0;
  for (int r = -1; r < b->repeats && !rc && !bad; r++) {
    double t1, t2;
    cl_uint i2 = 2 * iters;
    rc = WGB_ARG(b, k, 0, iters) || wgb_run(b, k, 1, &global, &local, &t1) || WGB_ARG(b, k, 0, i2) ||
                 wgb_run(b, k, 1, &global, &local, &t2)
             ? -1
             : 0;
    if (rc)
      break;
    if (r < 0) {
      if ((rc = wgb_read(b, out, global * 4, h)))
        break;
      for (size_t g = 0; g < global && !bad; g++) {
        uint32_t want = i2 + (uint32_t)((g % local + 1) % local);
        if (h[g] != want) {
          bad = true;
          rc = wgb_error(b, "barrier", param, "work-item %zu read %u from its neighbour, expected %u", g, h[g], want);
        }
      }
      continue;
    }
    /* per group and barrier: the units run groups_per_cu groups side by side */
    v[r] = wgb_cycles(b, (t2 - t1) / iters) / groups_per_cu;
  }
  if (!rc && !bad) {
    snprintf(note, sizeof note, "%s; %u barriers per run",
             groups_per_cu == 1 ? "cycles per barrier; one work-group per compute unit (latency view)"
                                : "cycles per barrier per work-group; units full (throughput view)",
             iters);
    rc = wgb_add(b, "barrier", param, "cycles", v, b->repeats, note);
  }
  free(h);
  if (out)
    clReleaseMemObject(out);
  return rc;
}

int wgb_bench_barrier(wgb *b) {
  cl_program p = wgb_program(b, wgb_src_sync, NULL);
  if (!p)
    return -1;
  cl_kernel k = wgb_kernel(b, p, "barrier_loop");
  int rc = k ? 0 : -1;
  size_t maxl = b->d->max_wg < 1024 ? b->d->max_wg : 1024;
  for (size_t l = b->warp; l <= maxl && !rc; l *= 2) {
    if (b->quick && l != b->warp && l != 8 * (size_t)b->warp && l != 32 * (size_t)b->warp && l != maxl)
      continue;
    rc = barrier_row(b, k, l, 1);
    if (!rc && !b->quick)
      rc = barrier_row(b, k, l, wgb_groups_per_cu(b, l));
  }
  if (k)
    clReleaseKernel(k);
  clReleaseProgram(p);
  return rc;
}

static int atomic_rows(wgb *b, cl_program p, bool local_mem, bool contended) {
  const char *bench = local_mem ? "atomic_shared" : "atomic_global";
  cl_kernel k = wgb_kernel(b, p, local_mem ? "atom_local" : "atom_global");
  if (!k)
    return -1;
  size_t local = 256 <= b->d->max_wg ? 256 : b->d->max_wg;
  unsigned gpc = wgb_groups_per_cu(b, local);
  size_t global = local * b->d->compute_units * gpc;
  cl_uint iters = contended ? (local_mem ? 256 : 4) : 64;
  if (!b->d->is_gpu)
    iters = contended ? 4 : 16;
  if (b->quick && iters > 16)
    iters /= 4;
  char param[160], note[300];
  snprintf(param, sizeof param, "contended=%d;block=%zu;blocks_per_sm=%u;iters=%u", contended ? 1 : 0, local, gpc,
           iters);
  cl_mem buf = wgb_buffer(b, global * 4, NULL);
  int32_t *h = buf ? malloc(global * 4) : NULL;
  int rc = h ? 0 : -1;
  if (buf && !h)
    rc = wgb_fail(b, "host out of memory");
  cl_uint cont = contended ? 1 : 0;
  double v[MAXREP];
  bool bad = false;
  if (!rc)
    rc = WGB_ARG(b, k, 0, buf) || WGB_ARG(b, k, 2, cont) || (local_mem && wgb_arg(b, k, 3, local * 4, NULL)) ? -1 : 0;
  for (int r = -1; r < b->repeats && !rc && !bad; r++) {
    double t[2];
    for (int j = 0; j < 2 && !rc; j++) {
      cl_uint it = j ? 2 * iters : iters;
      memset(h, 0, global * 4);
      rc = wgb_write(b, buf, global * 4, h) || WGB_ARG(b, k, 1, it) || wgb_run(b, k, 1, &global, &local, &t[j]) ? -1
                                                                                                                : 0;
      if (rc || r >= 0)
        continue;
      if ((rc = wgb_read(b, buf, global * 4, h)))
        break;
      for (size_t g = 0; g < global && !bad; g++) {
        int32_t want;
        if (local_mem)
          want = contended ? (g % local == 0 ? (int32_t)(local * it) : 0) : (int32_t)it;
        else
          want = contended ? (g == 0 ? (int32_t)(global * it) : 0) : (int32_t)it;
        if (h[g] != want) {
          bad = true;
          rc = wgb_error(b, bench, param, "word %zu counts %d, expected %d", g, h[g], want);
        }
      }
    }
    if (r >= 0 && !rc) {
      double n = (double)global * iters;
      v[r] = local_mem ? n / wgb_cycles(b, t[1] - t[0]) / b->d->compute_units : n / (t[1] - t[0]);
    }
  }
  if (!rc && !bad) {
    snprintf(note, sizeof note, "atomic_add; %s; result unused; %zu work-items",
             contended ? (local_mem ? "all work-items of a group on one word" : "all work-items on one word")
                       : "one word per work-item",
             global);
    rc = wgb_add(b, bench, param, local_mem ? "atomics/cycle/SM" : "atomics/ns", v, b->repeats, note);
  }
  free(h);
  if (buf)
    clReleaseMemObject(buf);
  clReleaseKernel(k);
  return rc;
}

int wgb_bench_atomics(wgb *b) {
  cl_program p = wgb_program(b, wgb_src_sync, NULL);
  if (!p)
    return -1;
  int rc = 0;
  for (int lm = 0; lm < 2 && !rc; lm++)
    for (int c = 1; c >= 0 && !rc; c--)
      rc = atomic_rows(b, p, lm == 1, c == 1);
  clReleaseProgram(p);
  return rc;
}

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return 1e9 * (double)ts.tv_sec + (double)ts.tv_nsec;
}

/* N back-to-back launches of K; *us = (last end - first start) / N on the device. */
static int back_to_back(wgb *b, cl_kernel k, size_t global, size_t local, int n, double *us) {
  cl_event first = NULL, last = NULL;
  cl_int e = CL_SUCCESS;
  for (int i = 0; i < n && e == CL_SUCCESS; i++) {
    cl_event ev = NULL;
    e = clEnqueueNDRangeKernel(b->d->q, k, 1, NULL, &global, &local, 0, NULL,
                               (i == 0 || i == n - 1) ? &ev : NULL);
    if (i == 0)
      first = ev;
    if (i == n - 1 && n > 1)
      last = ev;
  }
  if (e != CL_SUCCESS) {
    clFinish(b->d->q);
    if (first)
      clReleaseEvent(first);
    if (last)
      clReleaseEvent(last);
    return wgb_fail(b, "clEnqueueNDRangeKernel (global %zu): %s", global, wgb_cl_error(e));
  }
  if (!last)
    last = first, clRetainEvent(first);
  e = clWaitForEvents(1, &last);
  cl_ulong t0 = 0, t1 = 0;
  if (e == CL_SUCCESS)
    e = clGetEventProfilingInfo(first, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL);
  if (e == CL_SUCCESS)
    e = clGetEventProfilingInfo(last, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL);
  clReleaseEvent(first);
  clReleaseEvent(last);
  if (e != CL_SUCCESS)
    return wgb_fail(b, "launch timing: %s", wgb_cl_error(e));
  *us = (double)(t1 - t0) * 1e-3 / n;
  return 0;
}

int wgb_bench_launch(wgb *b) {
  cl_program p = wgb_program(b, wgb_src_sync, NULL);
  if (!p)
    return -1;
  cl_kernel k = wgb_kernel(b, p, "empty");
  cl_mem dummy = k ? wgb_buffer(b, 64, NULL) : NULL;
  int rc = dummy ? 0 : -1;
  if (!rc)
    rc = WGB_ARG(b, k, 0, dummy);
  double v[MAXREP];
  size_t one = 1, l32 = b->warp;
  /* one launch, host view */
  for (int r = -1; r < b->repeats && !rc; r++) {
    double t0 = now_ns();
    rc = wgb_run(b, k, 1, &l32, &l32, NULL);
    if (r >= 0)
      v[r] = (now_ns() - t0) * 1e-3;
  }
  if (!rc)
    rc = wgb_add(b, "launch_single", "blocks=1", "us", v, b->repeats,
                 "host time of clEnqueueNDRangeKernel + wait for one empty kernel");
  int n = b->quick ? 100 : 1000;
  for (int r = -1; r < b->repeats && !rc; r++) {
    double us;
    rc = back_to_back(b, k, l32, l32, n, &us);
    if (r >= 0)
      v[r] = us;
  }
  if (!rc) {
    char param[64];
    snprintf(param, sizeof param, "blocks=1;block=%zu;launches=%d", l32, n);
    rc = wgb_add(b, "launch_throughput", param, "us", v, b->repeats,
                 "back-to-back empty kernels in one queue: first start to last end on the device per launch");
  }
  (void)one;
  size_t maxl = b->d->max_wg < 1024 ? b->d->max_wg : 1024;
  size_t locals[] = {32, 256, 1024};
  unsigned mult[] = {0, 1, 10, 100, 1000}; /* 0: a single group */
  for (size_t li = 0; li < 3 && !rc; li++) {
    size_t local = locals[li];
    if (local > maxl || (b->quick && local != 256 && local != maxl))
      continue;
    for (size_t mi = 0; mi < 5 && !rc; mi++) {
      if (b->quick && mult[mi] == 1000)
        continue;
      size_t groups = mult[mi] ? (size_t)mult[mi] * b->d->compute_units : 1;
      size_t global = groups * local;
      int reps = b->d->is_gpu ? 100 : 10;
      for (int r = -1; r < b->repeats && !rc; r++) {
        double us;
        rc = back_to_back(b, k, global, local, reps, &us);
        if (r >= 0)
          v[r] = us;
      }
      if (!rc) {
        char param[96];
        snprintf(param, sizeof param, "blocks=%zu;block=%zu", groups, local);
        rc = wgb_add(b, "launch_blocks", param, "us", v, b->repeats,
                     "back-to-back empty kernels: time per launch vs work-groups");
      }
    }
  }
  if (dummy)
    clReleaseMemObject(dummy);
  if (k)
    clReleaseKernel(k);
  clReleaseProgram(p);
  return rc;
}
