/* bench_stream.c - bandwidths, and bandwidth vs resident warps per compute unit.
 *
 *   bw_dram_read/write/copy   a buffer >> L2 (256 MiB..1 GiB), uint4 accesses, grid-stride
 *                             loops at full occupancy (4 loads in flight for reads);
 *                             copy counts bytes read + written. GB/s = bytes / kernel time
 *   bw_l2_read                a buffer of 1/4 of the second latency jump (L2), read
 *                             repeatedly: two pass counts, so launch cost cancels
 *   bw_shared, bw_shared_total  conflict-free 32-bit __local loads at full occupancy:
 *                             B/cycle per compute unit, and GB/s over the device
 *   bw_{dram,l2,shared}_occupancy  the same vs warps per compute unit (1 .. full); the
 *                             fit reads Little's law from these (wgb_fit.h)
 *
 * Checks: read kernels return one sum per work-item; their total must equal the sum
 * of the buffer's words (mod 2^32) times the passes; written and copied buffers are
 * read back whole and compared; local-memory sums are recomputed for 128 work-items.
 * "Warps per compute unit" assumes the driver spreads the work-groups evenly.
 */
#define _POSIX_C_SOURCE 200809L
#include "wgb.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXREP 64

typedef struct stream_set {
  cl_program prog;
  cl_kernel r1, r4, wr, cp, loc;
} stream_set;

static void stream_release(stream_set *s) {
  cl_kernel ks[] = {s->r1, s->r4, s->wr, s->cp, s->loc};
  for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++)
    if (ks[i])
      clReleaseKernel(ks[i]);
  if (s->prog)
    clReleaseProgram(s->prog);
  memset(s, 0, sizeof *s);
}

static int stream_open(wgb *b, stream_set *s) {
  memset(s, 0, sizeof *s);
  if (!(s->prog = wgb_program(b, wgb_src_stream, NULL)))
    return -1;
  if (!(s->r1 = wgb_kernel(b, s->prog, "bw_read1")) || !(s->r4 = wgb_kernel(b, s->prog, "bw_read4")) ||
      !(s->wr = wgb_kernel(b, s->prog, "bw_write")) || !(s->cp = wgb_kernel(b, s->prog, "bw_copy")) ||
      !(s->loc = wgb_kernel(b, s->prog, "bw_local"))) {
    stream_release(s);
    return -1;
  }
  return 0;
}

/* uint4 indices in 32-bit uints reach 64 GiB: the device's own limits come first */
static size_t cap_alloc(const wgb *b, size_t want) { return wgb_cap_alloc(b, want, SIZE_MAX); }

static size_t dram_bytes(const wgb *b) {
  double want = b->quick ? (b->d->is_gpu ? 256.0 : 16.0) * (1 << 20) : 1024.0 * (1 << 20);
  if (!b->quick && b->second_jump > 0 && 8 * b->second_jump > want)
    want = 8 * b->second_jump;
  return cap_alloc(b, (size_t)want / 4096 * 4096);
}

static size_t l2_bytes(const wgb *b) {
  double want = b->second_jump > 0 ? b->second_jump / 4 : (b->first_jump > 0 ? 2 * b->first_jump : 2 << 20);
  if (want < 256 * 1024)
    want = 256 * 1024;
  return cap_alloc(b, (size_t)want / 4096 * 4096);
}

static uint32_t pattern(size_t i) { return (uint32_t)(i * 2654435761u + 12345u); }

/* A buffer of BYTES filled with pattern(); *sum = the sum of its words mod 2^32. */
static cl_mem pattern_buffer(wgb *b, size_t bytes, uint32_t *sum) {
  uint32_t *h = malloc(bytes);
  if (!h) {
    wgb_fail(b, "host out of memory (%zu bytes)", bytes);
    return NULL;
  }
  uint32_t s = 0;
  for (size_t i = 0; i < bytes / 4; i++)
    s += h[i] = pattern(i);
  *sum = s;
  cl_mem m = wgb_buffer(b, bytes, h);
  free(h);
  return m;
}

/* Full occupancy: LOCAL work-items per group, the groups every compute unit holds. */
static void full_grid(const wgb *b, size_t *global, size_t *local) {
  *local = 256 <= b->d->max_wg ? 256 : b->d->max_wg;
  *global = *local * b->d->compute_units * wgb_groups_per_cu(b, *local);
}

/* Times read kernel K over BUF (BYTES) with PASSES; *ns is the kernel time; the sum of
 * OUT must be WANT x passes. *bad set with WHY on a wrong sum. */
static int read_run(wgb *b, cl_kernel k, cl_mem buf, size_t bytes, cl_uint passes, size_t global, size_t local,
                    cl_mem out, uint32_t want, double *ns, int *bad, char *why, size_t whylen, bool check) {
  cl_uint n4 = (cl_uint)(bytes / 16);
  if (WGB_ARG(b, k, 0, buf) || WGB_ARG(b, k, 1, n4) || WGB_ARG(b, k, 2, passes) || WGB_ARG(b, k, 3, out) ||
      wgb_run(b, k, 1, &global, &local, ns))
    return -1;
  if (!check)
    return 0;
  uint32_t *h = malloc(global * 4);
  if (!h)
    return wgb_fail(b, "host out of memory");
  int rc = wgb_read(b, out, global * 4, h);
  uint32_t s = 0;
  for (size_t i = 0; i < global; i++)
    s += h[i];
  free(h);
  if (!rc && s != (uint32_t)(want * passes)) {
    snprintf(why, whylen, "sum of what was read is %u, expected %u", s, (uint32_t)(want * passes));
    *bad = 1;
  }
  return rc;
}

static int dram_read(wgb *b, stream_set *s) {
  size_t bytes = dram_bytes(b), global, local;
  full_grid(b, &global, &local);
  uint32_t want;
  cl_mem buf = pattern_buffer(b, bytes, &want);
  cl_mem out = buf ? wgb_buffer(b, global * 4, NULL) : NULL;
  char param[96], why[200] = "", note[300];
  snprintf(param, sizeof param, "bytes=%zu", bytes);
  int rc = out ? 0 : -1, bad = 0;
  double v[MAXREP];
  for (int r = -1; r < b->repeats && !rc && !bad; r++) {
    double ns;
    rc = read_run(b, s->r4, buf, bytes, 1, global, local, out, want, &ns, &bad, why, sizeof why, r < 0);
    if (r >= 0)
      v[r] = bytes / ns;
  }
  if (!rc && bad)
    rc = wgb_error(b, "bw_dram_read", param, "%s", why);
  else if (!rc) {
    snprintf(note, sizeof note, "uint4 loads; 4 in flight per work-item; %zu work-items of %zu per group", global,
             local);
    rc = wgb_add(b, "bw_dram_read", param, "GB/s", v, b->repeats, note);
  }
  if (out)
    clReleaseMemObject(out);
  if (buf)
    clReleaseMemObject(buf);
  return rc;
}

static int dram_write_copy(wgb *b, stream_set *s) {
  size_t bytes = dram_bytes(b), global, local;
  full_grid(b, &global, &local);
  cl_mem a = wgb_buffer(b, bytes, NULL);
  uint32_t *h = a ? malloc(bytes) : NULL;
  if (!h) {
    if (a)
      clReleaseMemObject(a);
    return a ? wgb_fail(b, "host out of memory") : -1;
  }
  char param[96], note[300];
  snprintf(param, sizeof param, "bytes=%zu", bytes);
  cl_uint n4 = (cl_uint)(bytes / 16), seed = 0x5eed;
  double v[MAXREP];
  int rc = WGB_ARG(b, s->wr, 0, a) || WGB_ARG(b, s->wr, 1, n4) || WGB_ARG(b, s->wr, 2, seed) ? -1 : 0;
  bool bad = false;
  for (int r = -1; r < b->repeats && !rc && !bad; r++) {
    double ns;
    rc = wgb_run(b, s->wr, 1, &global, &local, &ns);
    if (!rc && r < 0) {
      rc = wgb_read(b, a, bytes, h);
      for (size_t i = 0; i < n4 && !rc && !bad; i++) {
        uint32_t e[4] = {(uint32_t)i, (uint32_t)i ^ seed, (uint32_t)i + seed, ~(uint32_t)i};
        bad = memcmp(&h[4 * i], e, sizeof e) != 0;
        if (bad)
          rc = wgb_error(b, "bw_dram_write", param, "element %zu holds %u, expected %u", i, h[4 * i], e[0]);
      }
    }
    if (r >= 0)
      v[r] = bytes / ns;
  }
  if (!rc && !bad) {
    snprintf(note, sizeof note, "uint4 stores; %zu work-items", global);
    rc = wgb_add(b, "bw_dram_write", param, "GB/s", v, b->repeats, note);
  }
  /* copy: the first half into the second (pattern in the first half) */
  size_t half = bytes / 2 / 16 * 16;
  cl_mem src = NULL, dst = NULL;
  if (!rc) {
    for (size_t i = 0; i < half / 4; i++)
      h[i] = pattern(i);
    src = wgb_buffer(b, half, h);
    dst = src ? wgb_buffer(b, half, NULL) : NULL;
    rc = dst ? 0 : -1;
  }
  clReleaseMemObject(a);
  snprintf(param, sizeof param, "bytes=%zu", half);
  cl_uint c4 = (cl_uint)(half / 16);
  if (!rc)
    rc = WGB_ARG(b, s->cp, 0, src) || WGB_ARG(b, s->cp, 1, dst) || WGB_ARG(b, s->cp, 2, c4) ? -1 : 0;
  bad = false;
  for (int r = -1; r < b->repeats && !rc && !bad; r++) {
    double ns;
    rc = wgb_run(b, s->cp, 1, &global, &local, &ns);
    if (!rc && r < 0) {
      rc = wgb_read(b, dst, half, h + half / 4);
      for (size_t i = 0; i < half / 4 && !rc && !bad; i++)
        if (h[half / 4 + i] != pattern(i)) {
          bad = true;
          rc = wgb_error(b, "bw_dram_copy", param, "word %zu holds %u, expected %u", i, h[half / 4 + i], pattern(i));
        }
    }
    if (r >= 0)
      v[r] = 2.0 * half / ns;
  }
  if (!rc && !bad) {
    snprintf(note, sizeof note, "uint4 copy; bytes read + written; %zu work-items", global);
    rc = wgb_add(b, "bw_dram_copy", param, "GB/s", v, b->repeats, note);
  }
  free(h);
  if (src)
    clReleaseMemObject(src);
  if (dst)
    clReleaseMemObject(dst);
  return rc;
}

/* Reads a BYTES buffer PASSES and 2 x PASSES times; GB/s from the difference. */
static int l2_read(wgb *b, stream_set *s, cl_kernel k, size_t global, size_t local, const char *bench,
                   const char *param, const char *what) {
  size_t bytes = l2_bytes(b);
  uint32_t want;
  cl_mem buf = pattern_buffer(b, bytes, &want);
  cl_mem out = buf ? wgb_buffer(b, global * 4, NULL) : NULL;
  int rc = out ? 0 : -1, bad = 0;
  char why[200] = "", note[300], p2[192];
  double total = b->quick ? 64.0 * (1 << 20) : 1024.0 * (1 << 20);
  if (!b->d->is_gpu)
    total /= 8;
  cl_uint passes = (cl_uint)fmax(2, total / bytes);
  double v[MAXREP];
  snprintf(p2, sizeof p2, "%sbytes=%zu;passes=%u", param, bytes, passes);
  for (int r = -1; r < b->repeats && !rc && !bad; r++) {
    double t1, t2;
    rc = read_run(b, k, buf, bytes, passes, global, local, out, want, &t1, &bad, why, sizeof why, r < 0);
    if (!rc && !bad)
      rc = read_run(b, k, buf, bytes, 2 * passes, global, local, out, want, &t2, &bad, why, sizeof why, r < 0);
    if (r >= 0)
      v[r] = (double)bytes * passes / (t2 - t1);
  }
  if (!rc && bad)
    rc = wgb_error(b, bench, p2, "%s", why);
  else if (!rc) {
    snprintf(note, sizeof note, "%s; buffer = 1/4 of the second latency jump, read repeatedly; %zu work-items",
             what, global);
    rc = wgb_add(b, bench, p2, "GB/s", v, b->repeats, note);
  }
  if (out)
    clReleaseMemObject(out);
  if (buf)
    clReleaseMemObject(buf);
  return rc;
}

/* bw_local sum of one work-item (host reference). */
static uint32_t local_sum(size_t lid, cl_uint iters) {
  uint32_t acc = 0, base = (uint32_t)(lid & 4095);
  for (cl_uint it = 0; it < iters; it++) {
    for (uint32_t k = 0; k < 16; k++)
      acc += (base + 32 * k) & 4095;
    base = (base + 512) & 4095;
  }
  return acc;
}

/* Local-memory loads: B/cycle per compute unit (*gbps: over the device). */
static int local_read(wgb *b, stream_set *s, size_t global, size_t local, double *v, double *gbps, int *bad,
                      char *why, size_t whylen) {
  cl_mem out = wgb_buffer(b, global * 4, NULL);
  if (!out)
    return -1;
  uint32_t *h = malloc(global * 4);
  int rc = h ? 0 : wgb_fail(b, "host out of memory");
  cl_uint iters = 8;
  double target = b->d->is_gpu ? 2e6 : 2e6; /* ns per run */
  if (!rc)
    rc = WGB_ARG(b, s->loc, 1, out);
  for (int r = -3; r < b->repeats && !rc && !*bad; r++) {
    double t1, t2;
    cl_uint i2 = 2 * iters;
    rc = WGB_ARG(b, s->loc, 0, iters) || wgb_run(b, s->loc, 1, &global, &local, &t1) ||
                 WGB_ARG(b, s->loc, 0, i2) || wgb_run(b, s->loc, 1, &global, &local, &t2)
             ? -1
             : 0;
    if (rc)
      break;
    if (r < -1) { /* size the runs for about TARGET */
      double per = (t2 - t1) / iters;
      if (per > 0)
        iters = (cl_uint)fmin(fmax(target / per, 8), 1 << 20);
      continue;
    }
    if (r == -1) {
      rc = wgb_read(b, out, global * 4, h);
      for (size_t g = 0; g < global && !rc; g++) {
        if (g == 64 && global > 128)
          g = global - 64;
        if (h[g] != local_sum(g % local, i2)) {
          snprintf(why, whylen, "work-item %zu summed %u, expected %u", g, h[g], local_sum(g % local, i2));
          *bad = 1;
          break;
        }
      }
      continue;
    }
    double bytes = (double)global * 16 * 4 * iters;
    gbps[r] = bytes / (t2 - t1);
    v[r] = bytes / wgb_cycles(b, t2 - t1) / b->d->compute_units;
  }
  free(h);
  clReleaseMemObject(out);
  return rc;
}

int wgb_bench_bandwidth(wgb *b) {
  stream_set s;
  if (stream_open(b, &s))
    return -1;
  int rc = dram_read(b, &s);
  if (!rc)
    rc = dram_write_copy(b, &s);
  size_t global, local;
  full_grid(b, &global, &local);
  if (!rc)
    rc = l2_read(b, &s, s.r4, global, local, "bw_l2_read", "", "uint4 loads; 4 in flight per work-item");
  if (!rc) {
    double v[MAXREP], g[MAXREP];
    int bad = 0;
    char why[200] = "", param[96], note[300];
    snprintf(param, sizeof param, "block=%zu;blocks_per_sm=%u", local, wgb_groups_per_cu(b, local));
    rc = local_read(b, &s, global, local, v, g, &bad, why, sizeof why);
    if (!rc && bad)
      rc = wgb_error(b, "bw_shared", param, "%s", why);
    else if (!rc) {
      snprintf(note, sizeof note, "32-bit conflict-free __local loads; 16 per iteration; bytes / (cycles x %u CUs)",
               b->d->compute_units);
      rc = wgb_add(b, "bw_shared", param, "B/cycle/SM", v, b->repeats, note);
      if (!rc)
        rc = wgb_add(b, "bw_shared_total", param, "GB/s", g, b->repeats, "same runs; over the device");
    }
  }
  stream_release(&s);
  return rc;
}

/* ------------------------------------------------------------------------ */
/* Occupancy sweeps                                                         */
/* ------------------------------------------------------------------------ */

/* Groups of LOCAL work-items, GROUPS per compute unit, for W warps per unit. */
static void occupancy_grid(const wgb *b, unsigned w, size_t *global, size_t *local, unsigned *groups) {
  size_t items = (size_t)w * b->warp;
  size_t maxl = b->d->max_wg < 1024 ? b->d->max_wg : 1024;
  *groups = 1;
  while (items / *groups > maxl)
    (*groups) *= 2;
  *local = items / *groups;
  *global = *local * *groups * b->d->compute_units;
}

int wgb_bench_occupancy(wgb *b) {
  stream_set s;
  if (stream_open(b, &s))
    return -1;
  unsigned maxw = b->threads_per_cu / b->warp;
  unsigned ws[16];
  int nw = 0;
  if (b->quick) {
    unsigned q[] = {1, 2, 8, maxw};
    for (int i = 0; i < 4; i++)
      if (q[i] <= maxw && (nw == 0 || q[i] > ws[nw - 1]))
        ws[nw++] = q[i];
  } else {
    for (unsigned w = 1; w <= maxw && nw < 15; w *= 2)
      ws[nw++] = w;
    if (ws[nw - 1] != maxw)
      ws[nw++] = maxw;
  }
  size_t bytes = dram_bytes(b);
  uint32_t want;
  cl_mem buf = pattern_buffer(b, bytes, &want);
  int rc = buf ? 0 : -1;
  for (int ilp = 1; ilp <= 4 && !rc; ilp += 3) {
    if (b->quick && ilp > 1)
      break;
    for (int i = 0; i < nw && !rc; i++) {
      size_t global, local;
      unsigned groups;
      occupancy_grid(b, ws[i], &global, &local, &groups);
      cl_mem out = wgb_buffer(b, global * 4, NULL);
      if (!out) {
        rc = -1;
        break;
      }
      char param[192], why[200] = "", note[300];
      snprintf(param, sizeof param, "warps_per_sm=%u;ilp=%d;block=%zu;blocks_per_sm=%u;bytes_per_lane=16", ws[i],
               ilp, local, groups);
      double v[MAXREP];
      int bad = 0;
      for (int r = -1; r < b->repeats && !rc && !bad; r++) {
        double ns;
        rc = read_run(b, ilp == 1 ? s.r1 : s.r4, buf, bytes, 1, global, local, out, want, &ns, &bad, why, sizeof why,
                      r < 0);
        if (r >= 0)
          v[r] = bytes / ns;
      }
      clReleaseMemObject(out);
      if (!rc && bad)
        rc = wgb_error(b, "bw_dram_occupancy", param, "%s", why);
      else if (!rc) {
        snprintf(note, sizeof note, "DRAM read; uint4; ilp = independent loads in flight per work-item; %zu bytes",
                 bytes);
        rc = wgb_add(b, "bw_dram_occupancy", param, "GB/s", v, b->repeats, note);
      }
    }
  }
  if (buf)
    clReleaseMemObject(buf);
  for (int i = 0; i < nw && !rc; i++) {
    size_t global, local;
    unsigned groups;
    occupancy_grid(b, ws[i], &global, &local, &groups);
    char param[192];
    snprintf(param, sizeof param, "warps_per_sm=%u;ilp=1;block=%zu;blocks_per_sm=%u;bytes_per_lane=16;", ws[i], local,
             groups);
    rc = l2_read(b, &s, s.r1, global, local, "bw_l2_occupancy", param, "L2 read; uint4; 1 load in flight");
  }
  for (int i = 0; i < nw && !rc; i++) {
    size_t global, local;
    unsigned groups;
    occupancy_grid(b, ws[i], &global, &local, &groups);
    double v[MAXREP], g[MAXREP];
    int bad = 0;
    char why[200] = "", param[192];
    snprintf(param, sizeof param, "warps_per_sm=%u;ilp=16;block=%zu;blocks_per_sm=%u;bytes_per_lane=4", ws[i], local,
             groups);
    rc = local_read(b, &s, global, local, v, g, &bad, why, sizeof why);
    if (!rc && bad)
      rc = wgb_error(b, "bw_shared_occupancy", param, "%s", why);
    else if (!rc)
      rc = wgb_add(b, "bw_shared_occupancy", param, "B/cycle/SM", v, b->repeats,
                   "32-bit conflict-free __local loads; 16 independent per iteration");
  }
  stream_release(&s);
  return rc;
}
