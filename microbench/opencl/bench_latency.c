/* bench_latency.c - clock, pointer-chasing latencies and cache geometry.
 *
 *   clock_attr, clock_measured   the driver's maximum clock; a device cycle counter over
 *                                event time where NVIDIA's inline PTX exposes %clock64
 *   geom_curve                   latency vs footprint (random chain over 128 B nodes,
 *                                footprint read by the grid before each run so it sits
 *                                in L2 when it fits): the jumps give L1 and L2 sizes
 *   lat_shared, lat_l1, lat_l2   dependent chains in local memory, within L1, beyond L1
 *                                and within L2 (footprints from the curve's jumps)
 *   lat_dram                     random chain over a footprint >> L2, every node visited
 *                                for the first time (each run starts elsewhere)
 *   lat_const, lat_const_cold    __constant chain, warm (256 B..64 KiB), and first touch
 *                                of each 256 B line after the buffer was rewritten
 *   geom_l1_stride, geom_l2_stride  one sequential pass at strides 8..1024 B over data in
 *                                L2 (not L1), or after a flush: the stride from which
 *                                every load misses is the fetch granule
 *   geom_l1_assoc                (full mode) N lines P bytes apart: set conflicts
 *
 * Every run's final node is checked against the chain followed on the host; a run
 * that ends elsewhere is an error row. Latencies are per step: (t(s2) - t(s1)) /
 * (s2 - s1) of two runs that start at different, unvisited nodes.
 */
#define _POSIX_C_SOURCE 200809L
#include "wgb.h"
#include "wgb_fit.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXREP 64

/* ------------------------------------------------------------------------ */
/* Clock                                                                    */
/* ------------------------------------------------------------------------ */

int wgb_measure_clock(wgb *b) {
  b->clk_n = 0;
  if (!b->d->nv) {
    snprintf(b->clk_why, sizeof b->clk_why, "no cl_nv_device_attribute_query: no clock counter");
    return 0;
  }
  char err[1024];
  char opts[64] = "-cl-std=CL1.2 -D WGB_NV_CLOCK=1";
  cl_program p = wgb_build(b->d, wgb_src_clock, opts, err, sizeof err);
  if (!p) {
    snprintf(b->clk_why, sizeof b->clk_why, "inline PTX %%clock64 did not build: %.400s", err);
    return 0;
  }
  int rc = -1;
  cl_kernel k = wgb_kernel(b, p, "clock_nv");
  cl_mem out = k ? wgb_buffer(b, 2 * sizeof(cl_ulong), NULL) : NULL;
  if (out && !WGB_ARG(b, k, 1, out)) {
    size_t one = 1;
    cl_uint n1 = 1u << 16, n2 = 1u << 17;
    rc = 0;
    for (int r = -1; r < b->repeats && r < MAXREP && rc == 0; r++) {
      double t1 = 0, t2 = 0;
      cl_ulong c1[2] = {0, 0}, c2[2] = {0, 0};
      if (WGB_ARG(b, k, 0, n1) || wgb_run(b, k, 1, &one, &one, &t1) || wgb_read(b, out, sizeof c1, c1) ||
          WGB_ARG(b, k, 0, n2) || wgb_run(b, k, 1, &one, &one, &t2) || wgb_read(b, out, sizeof c2, c2)) {
        rc = -1;
        break;
      }
      if (r < 0)
        continue;
      double mhz = (t2 > t1 && c2[0] > c1[0]) ? (double)(c2[0] - c1[0]) / (t2 - t1) * 1e3 : 0;
      if (!(mhz > 0.2 * b->d->clock_mhz && mhz < 5.0 * b->d->clock_mhz)) {
        snprintf(b->clk_why, sizeof b->clk_why,
                 "clock counter gave %.0f MHz against the %u MHz attribute: not used", mhz, b->d->clock_mhz);
        b->clk_n = 0;
        break;
      }
      b->clk_v[b->clk_n++] = mhz;
    }
  }
  if (rc)
    snprintf(b->clk_why, sizeof b->clk_why, "clock counter kernel failed: %.400s", b->err);
  if (b->clk_n > 0) {
    double v[MAXREP];
    memcpy(v, b->clk_v, (size_t)b->clk_n * sizeof *v);
    b->clock_mhz = wgb_median(v, b->clk_n);
    b->clock_measured = true;
  }
  if (out)
    clReleaseMemObject(out);
  if (k)
    clReleaseKernel(k);
  clReleaseProgram(p);
  return 0; /* no usable counter is not a failure: the attribute stands */
}

int wgb_bench_clock(wgb *b) {
  char note[600];
  if (wgb_add1(b, "clock_attr", "", "MHz", b->d->clock_mhz, "CL_DEVICE_MAX_CLOCK_FREQUENCY (the driver's maximum)"))
    return -1;
  if (b->clk_n > 0)
    return wgb_add(b, "clock_measured", "", "MHz", b->clk_v, b->clk_n,
                   "%clock64 cycles of one work-item over event time (difference of two loop lengths)");
  snprintf(note, sizeof note, "cycle figures use the attribute: %s", b->clk_why);
  /* informational, not an error: the suite runs without a counter */
  fprintf(stderr, "wgbench-ocl: note: %s\n", note);
  return 0;
}

/* ------------------------------------------------------------------------ */
/* Chains                                                                   */
/* ------------------------------------------------------------------------ */

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;
static uint32_t rng(void) {
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return (uint32_t)((rng_state * 0x2545F4914F6CDD1DULL) >> 32);
}

typedef struct chain {
  uint32_t *words; /* the buffer as uploaded */
  uint32_t *order; /* order[k] = offset of the k-th node along the chain */
  size_t nwords, n;
} chain;

static void chain_free(chain *c) {
  free(c->words);
  free(c->order);
  memset(c, 0, sizeof *c);
}

/* N nodes STRIDE_W words apart in a buffer of NWORDS words, linked in a random cycle
 * (Sattolo) or in address order. */
static int chain_make(wgb *b, chain *c, size_t nwords, size_t n, size_t stride_w, bool random) {
  memset(c, 0, sizeof *c);
  c->words = calloc(nwords ? nwords : 1, sizeof *c->words);
  c->order = malloc((n ? n : 1) * sizeof *c->order);
  if (!c->words || !c->order) {
    chain_free(c);
    return wgb_fail(b, "host out of memory for a chain of %zu words", nwords);
  }
  c->nwords = nwords;
  c->n = n;
  for (size_t i = 0; i < n; i++)
    c->order[i] = (uint32_t)(i * stride_w);
  if (random)
    for (size_t i = n - 1; i > 0; i--) {
      size_t j = (size_t)(((uint64_t)rng() << 32 | rng()) % i);
      uint32_t t = c->order[i];
      c->order[i] = c->order[j];
      c->order[j] = t;
    }
  /* rotate the cycle so that the node at offset 0 comes first: a chase from 0 is
   * then at position 0 */
  size_t z = 0;
  while (z < n && c->order[z] != 0)
    z++;
  if (z > 0 && z < n) {
    uint32_t *tmp = malloc(n * sizeof *tmp);
    if (!tmp) {
      chain_free(c);
      return wgb_fail(b, "host out of memory");
    }
    for (size_t i = 0; i < n; i++)
      tmp[i] = c->order[(i + z) % n];
    free(c->order);
    c->order = tmp;
  }
  for (size_t i = 0; i < n; i++)
    c->words[c->order[i]] = c->order[(i + 1) % n];
  return 0;
}

/* The node STEPS steps after position POS. */
static uint32_t chain_at(const chain *c, size_t pos) { return c->order[pos % c->n]; }

typedef struct chase_set {
  cl_program prog;
  cl_kernel kg, kc, kl, touch, flush;
  cl_mem out;
} chase_set;

static void chase_release(chase_set *s) {
  if (s->kg)
    clReleaseKernel(s->kg);
  if (s->kc)
    clReleaseKernel(s->kc);
  if (s->kl)
    clReleaseKernel(s->kl);
  if (s->touch)
    clReleaseKernel(s->touch);
  if (s->flush)
    clReleaseKernel(s->flush);
  if (s->out)
    clReleaseMemObject(s->out);
  if (s->prog)
    clReleaseProgram(s->prog);
  memset(s, 0, sizeof *s);
}

static int chase_open(wgb *b, chase_set *s) {
  memset(s, 0, sizeof *s);
  s->prog = wgb_program(b, wgb_src_chase, NULL);
  if (!s->prog)
    return -1;
  if (!(s->kg = wgb_kernel(b, s->prog, "chase_global")) || !(s->kc = wgb_kernel(b, s->prog, "chase_const")) ||
      !(s->kl = wgb_kernel(b, s->prog, "chase_local")) || !(s->touch = wgb_kernel(b, s->prog, "touch")) ||
      !(s->flush = wgb_kernel(b, s->prog, "flush")) || !(s->out = wgb_buffer(b, 16, NULL))) {
    chase_release(s);
    return -1;
  }
  return 0;
}

/* The grid reads (touch) or writes (flush, with seed X) BYTES of BUF. */
static int grid_pass(wgb *b, chase_set *s, bool write, cl_mem buf, size_t bytes, cl_uint x) {
  cl_kernel k = write ? s->flush : s->touch;
  cl_uint n4 = (cl_uint)(bytes / 16);
  size_t local = 256 <= b->d->max_wg ? 256 : b->d->max_wg;
  size_t global = local * b->d->compute_units * 4;
  if (WGB_ARG(b, k, 0, buf) || WGB_ARG(b, k, 1, n4) || (write ? WGB_ARG(b, k, 2, x) : WGB_ARG(b, k, 2, s->out)))
    return -1;
  return wgb_run(b, k, 1, &global, &local, NULL);
}

typedef struct chase_opts {
  uint32_t s1, s2;   /* the two step counts */
  uint32_t warm;     /* warm-up words (global) or steps (constant) */
  bool fresh;        /* each run starts at a node no earlier run visited */
  bool touch;        /* read the whole footprint with the grid before each run */
  cl_mem flush;      /* write this buffer before each run (NULL: no) */
  size_t flush_bytes;
  bool rewrite;      /* upload the chain again before each run (constant cold) */
} chase_opts;

/* Times chase_global (CONSTANT: chase_const) over chain C in BUF; V[r] = cycles per
 * step. Returns 0 (v filled, *bad = 0), 0 with *bad = 1 (a wrong final node: WHY
 * says which), or -1 on an OpenCL failure. */
static int chase_time(wgb *b, chase_set *s, const chain *c, cl_mem buf, bool constant, chase_opts *o,
                      double *v, int *bad, char *why, size_t whylen) {
  cl_kernel k = constant ? s->kc : s->kg;
  size_t one = 1;
  size_t pos = 0;
  *bad = 0;
  if (WGB_ARG(b, k, 0, buf) || WGB_ARG(b, k, 2, o->warm) || WGB_ARG(b, k, 4, s->out))
    return -1;
  if (!o->rewrite) {
    /* more steps until the timed difference is well above the timer's jitter; runs
     * that must start at unvisited nodes keep within the chain */
    double target = b->d->is_gpu ? 1e5 : 1e6, t1 = 0, t2 = 0;
    size_t cap = o->fresh ? c->n / (4 * (size_t)(b->repeats + 2)) : ((size_t)1 << 24);
    for (int tries = 0; tries < 12; tries++) {
      cl_uint a = o->s1, z = o->s2;
      if (WGB_ARG(b, k, 1, c->order[0]) || WGB_ARG(b, k, 3, a) || wgb_run(b, k, 1, &one, &one, &t1) ||
          WGB_ARG(b, k, 3, z) || wgb_run(b, k, 1, &one, &one, &t2))
        return -1;
      if (t2 - t1 >= target || 2 * (size_t)o->s2 > cap)
        break;
      o->s1 *= 2;
      o->s2 *= 2;
    }
  }
  for (int r = -1; r < b->repeats; r++) {
    double t[2];
    for (int j = 0; j < 2; j++) {
      cl_uint steps = j ? o->s2 : o->s1;
      cl_uint start = chain_at(c, pos);
      size_t end_pos = pos + (constant ? o->warm : 0) + steps;
      if (o->fresh)
        pos += 2 * (size_t)o->s2 + (constant ? o->warm : 0);
      if (o->rewrite && wgb_write(b, buf, c->nwords * 4, c->words))
        return -1;
      if (o->flush && grid_pass(b, s, true, o->flush, o->flush_bytes, (cl_uint)r + 7))
        return -1;
      if (o->touch && grid_pass(b, s, false, buf, c->nwords * 4, 0))
        return -1;
      if (WGB_ARG(b, k, 1, start) || WGB_ARG(b, k, 3, steps) || wgb_run(b, k, 1, &one, &one, &t[j]))
        return -1;
      if (r < 0) { /* the warm-up runs are checked */
        cl_uint got[2];
        if (wgb_read(b, s->out, sizeof got, got))
          return -1;
        uint32_t want = chain_at(c, end_pos);
        if (got[0] != want) {
          snprintf(why, whylen, "chain ended at word %u after %u steps, expected %u", got[0], steps, want);
          *bad = 1;
          return 0;
        }
      }
    }
    if (r >= 0)
      v[r] = wgb_cycles(b, (t[1] - t[0]) / (o->s2 - o->s1));
  }
  return 0;
}

static void clock_note(const wgb *b, double cycles, char *out, size_t n) {
  snprintf(out, n, "%.1f ns at %.0f MHz (%s)", cycles * 1e3 / b->clock_mhz, b->clock_mhz,
           b->clock_measured ? "measured clock" : "attribute clock");
}

/* One global chase configuration as a row. */
static int global_row(wgb *b, chase_set *s, const char *bench, size_t footprint, size_t stride, bool random,
                      const chase_opts *o0, const char *what, double *median_out) {
  chain c;
  char param[160], note[600], why[256];
  snprintf(param, sizeof param, "footprint_bytes=%zu;stride_bytes=%zu", footprint, stride);
  size_t nwords = footprint / 4, n = footprint / stride;
  if (n < 2)
    return wgb_error(b, bench, param, "footprint holds fewer than two nodes");
  if (chain_make(b, &c, nwords, n, stride / 4, random))
    return -1;
  chase_opts o = *o0;
  cl_mem buf = wgb_buffer(b, footprint, c.words);
  if (!buf) {
    chain_free(&c);
    return -1;
  }
  double v[MAXREP];
  int bad = 0;
  int rc = chase_time(b, s, &c, buf, false, &o, v, &bad, why, sizeof why);
  clReleaseMemObject(buf);
  chain_free(&c);
  if (rc)
    return -1;
  if (bad)
    return wgb_error(b, bench, param, "%s", why);
  double tmp[MAXREP];
  memcpy(tmp, v, sizeof(double) * (size_t)b->repeats);
  double med = wgb_median(tmp, b->repeats);
  if (median_out)
    *median_out = med;
  char cn[128];
  clock_note(b, med, cn, sizeof cn);
  snprintf(note, sizeof note, "1 work-item; %s; %u-%u steps; %s", what, o.s1, o.s2, cn);
  return wgb_add(b, bench, param, "cycles", v, b->repeats, note);
}

static uint32_t steps1(const wgb *b) { return b->quick ? 1024 : 4096; }

/* The chase kernels hold word indices in 32-bit uints: a chain's buffer stays within
 * 4 GiB (an 80 GB H100 allows 20 GB, whose chain wrapped and failed its check). */
static size_t cap_alloc(const wgb *b, size_t want) { return wgb_cap_alloc(b, want, (size_t)1 << 32); }

/* ------------------------------------------------------------------------ */
/* Geometry: latency vs footprint                                           */
/* ------------------------------------------------------------------------ */

int wgb_bench_geometry(wgb *b) {
  chase_set s;
  if (chase_open(b, &s))
    return -1;
  size_t maxfp = b->quick ? (b->d->is_gpu ? (size_t)128 << 20 : (size_t)8 << 20) : (size_t)1 << 30;
  maxfp = cap_alloc(b, maxfp);
  double fp[128], lat[128];
  int n = 0, rc = 0;
  /* quarter-octave steps (octaves in quick mode), footprints a multiple of 128 B */
  double step = b->quick ? 2.0 : pow(2.0, 0.25);
  for (double f = 4096; f <= (double)maxfp * 1.0001 && n < 128 && rc == 0; f *= step) {
    size_t footprint = (size_t)(f / 128) * 128;
    chase_opts o = {steps1(b), 2 * steps1(b), 0, true, footprint > (1u << 20), NULL, 0, false};
    o.warm = (cl_uint)((footprint < (1u << 20) ? footprint : (1u << 20)) / 4);
    double med = NAN;
    size_t before = b->t->n;
    rc = global_row(b, &s, "geom_curve", footprint, 128, true, &o,
                    "random chain over 128 B nodes; footprint read by the grid first", &med);
    if (rc == 0 && b->t->n > before && b->t->rows[b->t->n - 1].ok) {
      fp[n] = (double)footprint;
      lat[n++] = med;
    }
  }
  chase_release(&s);
  if (rc)
    return -1;
  wgb_detect_levels(fp, lat, n, &b->first_jump, &b->second_jump);
  char note[200];
  if (b->first_jump > 0) {
    snprintf(note, sizeof note, "first footprint with latency > 1.5x that of %.0f B", fp[0]);
    if (wgb_add1(b, "geom_jump", "level=1", "bytes", b->first_jump, note))
      return -1;
  }
  if (b->second_jump > 0) {
    snprintf(note, sizeof note, "first footprint beyond 2x the first jump with latency > 1.5x that plateau");
    if (wgb_add1(b, "geom_jump", "level=2", "bytes", b->second_jump, note))
      return -1;
  }
  return 0;
}

/* ------------------------------------------------------------------------ */
/* Latencies                                                                */
/* ------------------------------------------------------------------------ */

static int local_latency(wgb *b, chase_set *s) {
  const size_t n = 1024;
  if (b->d->local_mem < n * 4)
    return wgb_error(b, "lat_shared", "", "device has only %llu B of local memory",
                     (unsigned long long)b->d->local_mem);
  chain c;
  if (chain_make(b, &c, n, n, 1, true))
    return -1;
  cl_mem buf = wgb_buffer(b, n * 4, c.words);
  int rc = buf ? 0 : -1;
  cl_uint nn = (cl_uint)n, s1 = steps1(b), s2 = 2 * s1;
  size_t one = 1;
  double v[MAXREP];
  int bad = 0;
  char why[200] = "";
  if (!rc)
    rc = WGB_ARG(b, s->kl, 0, buf) || WGB_ARG(b, s->kl, 1, nn) || WGB_ARG(b, s->kl, 3, s->out) ||
                 wgb_arg(b, s->kl, 4, n * 4, NULL)
             ? -1
             : 0;
  for (int r = -1; r < b->repeats && !rc && !bad; r++) {
    double t[2];
    for (int j = 0; j < 2 && !rc; j++) {
      cl_uint steps = j ? s2 : s1;
      if (WGB_ARG(b, s->kl, 2, steps) || wgb_run(b, s->kl, 1, &one, &one, &t[j])) {
        rc = -1;
        break;
      }
      if (r < 0) {
        cl_uint got[2];
        if (wgb_read(b, s->out, sizeof got, got)) {
          rc = -1;
          break;
        }
        if (got[0] != chain_at(&c, steps)) {
          snprintf(why, sizeof why, "chain ended at %u after %u steps, expected %u", got[0], steps,
                   chain_at(&c, steps));
          bad = 1;
        }
      }
    }
    if (r >= 0 && !rc)
      v[r] = wgb_cycles(b, (t[1] - t[0]) / (s2 - s1));
  }
  if (buf)
    clReleaseMemObject(buf);
  chain_free(&c);
  if (rc)
    return -1;
  if (bad)
    return wgb_error(b, "lat_shared", "footprint_bytes=4096", "%s", why);
  double tmp[MAXREP];
  memcpy(tmp, v, sizeof(double) * (size_t)b->repeats);
  char cn[128], note[300];
  clock_note(b, wgb_median(tmp, b->repeats), cn, sizeof cn);
  snprintf(note, sizeof note, "1 work-item; random chain of 1024 words in __local memory; %s", cn);
  return wgb_add(b, "lat_shared", "footprint_bytes=4096", "cycles", v, b->repeats, note);
}

int wgb_bench_latency(wgb *b) {
  chase_set s;
  if (chase_open(b, &s))
    return -1;
  int rc = local_latency(b, &s);
  size_t l1fp = 16384;
  if (b->first_jump > 0 && b->first_jump / 4 < l1fp)
    l1fp = (size_t)(b->first_jump / 4) / 128 * 128;
  if (l1fp < 1024)
    l1fp = 1024;
  chase_opts o = {steps1(b), 2 * steps1(b), (cl_uint)(l1fp / 4), false, false, NULL, 0, false};
  if (!rc)
    rc = global_row(b, &s, "lat_l1", l1fp, 128, true, &o, "random chain; warm pass first", NULL);
  /* L2: between twice the first jump and half the second */
  double f2 = 4 << 20;
  if (b->first_jump > 0 && b->second_jump > 0)
    f2 = sqrt(2 * b->first_jump * (b->second_jump / 2));
  else if (b->first_jump > 0)
    f2 = 4 * b->first_jump;
  size_t l2fp = cap_alloc(b, (size_t)(f2 / 4096) * 4096);
  chase_opts o2 = {steps1(b), 2 * steps1(b), (cl_uint)((l2fp < (1u << 20) ? l2fp : (1u << 20)) / 4), true, true,
                   NULL, 0, false};
  if (!rc)
    rc = global_row(b, &s, "lat_l2", l2fp, 128, true, &o2, "random chain beyond L1; footprint read by the grid first",
                    NULL);
  /* DRAM: >> L2, nodes visited once; several footprints in full mode (TLB reach) */
  double base = b->second_jump > 0 ? 8 * b->second_jump : 64.0 * (1 << 20);
  if (base < 64.0 * (1 << 20))
    base = 64.0 * (1 << 20);
  int nfp = b->quick ? 1 : 4;
  for (int i = 0; i < nfp && !rc; i++) {
    size_t fp = cap_alloc(b, (size_t)(base * pow(4, i)) / 4096 * 4096);
    if (i > 0 && fp <= (size_t)(base * pow(4, i - 1)))
      break;
    chase_opts od = {steps1(b) / 2, steps1(b), 0, true, false, NULL, 0, false};
    rc = global_row(b, &s, "lat_dram", fp, 256, true, &od,
                    "random chain >> L2; each node visited once per process", NULL);
  }
  chase_release(&s);
  return rc;
}

/* ------------------------------------------------------------------------ */
/* Constant memory                                                          */
/* ------------------------------------------------------------------------ */

static int const_row(wgb *b, chase_set *s, const char *bench, size_t fp, size_t stride, bool cold) {
  chain c;
  char param[160], why[256], note[400];
  snprintf(param, sizeof param, "footprint_bytes=%zu;stride_bytes=%zu", fp, stride);
  size_t n = fp / stride;
  if (chain_make(b, &c, fp / 4, n, stride / 4, !cold))
    return -1;
  cl_mem buf = wgb_buffer(b, fp, c.words);
  if (!buf) {
    chain_free(&c);
    return -1;
  }
  chase_opts o;
  if (cold)
    o = (chase_opts){(cl_uint)(n / 4), (cl_uint)(n / 2), 0, false, false, NULL, 0, true};
  else
    o = (chase_opts){steps1(b), 2 * steps1(b), (cl_uint)(2 * n), false, false, NULL, 0, false};
  double v[MAXREP];
  int bad = 0;
  int rc = chase_time(b, s, &c, buf, true, &o, v, &bad, why, sizeof why);
  clReleaseMemObject(buf);
  chain_free(&c);
  if (rc)
    return -1;
  if (bad)
    return wgb_error(b, bench, param, "%s", why);
  double tmp[MAXREP];
  memcpy(tmp, v, sizeof(double) * (size_t)b->repeats);
  char cn[128];
  clock_note(b, wgb_median(tmp, b->repeats), cn, sizeof cn);
  snprintf(note, sizeof note, "1 work-item; __constant chain; %s; %s",
           cold ? "first touch of each line after the buffer was rewritten" : "warm", cn);
  return wgb_add(b, bench, param, "cycles", v, b->repeats, note);
}

int wgb_bench_const(wgb *b) {
  chase_set s;
  if (chase_open(b, &s))
    return -1;
  size_t maxfp = 65536;
  if (b->d->const_mem && b->d->const_mem < maxfp)
    maxfp = (size_t)b->d->const_mem;
  int rc = 0;
  for (size_t fp = 256; fp <= maxfp && !rc; fp *= b->quick ? 16 : 2)
    rc = const_row(b, &s, "lat_const", fp, 64, false);
  if (!rc && maxfp >= 4096)
    rc = const_row(b, &s, "lat_const_cold", maxfp, 256, true);
  chase_release(&s);
  return rc;
}

/* ------------------------------------------------------------------------ */
/* Stride sweeps and set conflicts                                          */
/* ------------------------------------------------------------------------ */

static int stride_sweep(wgb *b, chase_set *s, const char *bench, const char *granule_bench, size_t fp, bool l1) {
  double st[16], lat[16];
  int n = 0, rc = 0;
  cl_mem flushbuf = NULL;
  size_t flush_bytes = 0;
  if (!l1) {
    double least = (b->d->is_gpu ? 32.0 : 8.0) * (1 << 20);
    double fb = b->second_jump > 0 ? 4 * b->second_jump : least;
    if (fb < least)
      fb = least;
    flush_bytes = cap_alloc(b, (size_t)fb / 4096 * 4096);
    if (!(flushbuf = wgb_buffer(b, flush_bytes, NULL)))
      return -1;
  }
  for (size_t stride = 8; stride <= 1024 && !rc; stride *= 2) {
    if (b->quick && stride > 256)
      break;
    size_t nodes = fp / stride;
    cl_uint s2 = (cl_uint)(nodes / 2 < 2 * steps1(b) ? nodes / 2 : 2 * steps1(b));
    if (s2 < 16)
      break;
    chase_opts o = {s2 / 2, s2, l1 ? (cl_uint)(fp / 4) : 0, false, false, flushbuf, flush_bytes, false};
    double med = NAN;
    size_t before = b->t->n;
    char what[160];
    snprintf(what, sizeof what, "one sequential pass; %s", l1 ? "data in L2 (streamed first), not in L1"
                                                              : "caches flushed by writing a large buffer first");
    rc = global_row(b, s, bench, fp, stride, false, &o, what, &med);
    if (!rc && b->t->n > before && b->t->rows[b->t->n - 1].ok) {
      st[n] = (double)stride;
      lat[n++] = med;
    }
  }
  if (flushbuf)
    clReleaseMemObject(flushbuf);
  if (rc)
    return -1;
  double g = wgb_detect_granule(st, lat, n);
  if (g > 0 && n > 1) {
    char note[200];
    snprintf(note, sizeof note, "smallest stride reaching 90%% of the plateau (%.1f -> %.1f cycles)", lat[0],
             lat[n - 1]);
    return wgb_add1(b, granule_bench, "", "bytes", g, note);
  }
  return 0;
}

int wgb_bench_stride(wgb *b) {
  chase_set s;
  if (chase_open(b, &s))
    return -1;
  /* footprint: beyond L1 (twice its size) but within half of L2 */
  double fp = 1 << 20;
  if (b->second_jump > 0)
    fp = fmin(4.0 * (1 << 20), b->second_jump / 2);
  if (b->first_jump > 0 && fp < 2 * b->first_jump)
    fp = 2 * b->first_jump;
  size_t fpz = cap_alloc(b, (size_t)fp / 4096 * 4096);
  int rc = stride_sweep(b, &s, "geom_l1_stride", "geom_l1_fetch_granule", fpz, true);
  if (!rc)
    rc = stride_sweep(b, &s, "geom_l2_stride", "geom_l2_fetch_granule", fpz, false);
  /* set conflicts: N lines P bytes apart, cycled (full mode) */
  for (size_t p = 4096; p <= 65536 && !rc && !b->quick; p *= 4)
    for (size_t lines = 2; lines <= 64 && !rc; lines *= 2) {
      chain c;
      char param[128], why[256], note[300];
      snprintf(param, sizeof param, "lines=%zu;stride_bytes=%zu", lines, p);
      if (chain_make(b, &c, lines * p / 4, lines, p / 4, false))
        return chase_release(&s), -1;
      cl_mem buf = wgb_buffer(b, lines * p, c.words);
      chase_opts o = {1024, 2048, 0, false, false, NULL, 0, false};
      double v[MAXREP];
      int bad = 0;
      rc = buf ? chase_time(b, &s, &c, buf, false, &o, v, &bad, why, sizeof why) : -1;
      if (buf)
        clReleaseMemObject(buf);
      chain_free(&c);
      if (!rc && bad)
        rc = wgb_error(b, "geom_l1_assoc", param, "%s", why);
      else if (!rc) {
        snprintf(note, sizeof note, "1 work-item; %zu lines %zu B apart chased in a cycle; a jump = set conflicts",
                 lines, p);
        rc = wgb_add(b, "geom_l1_assoc", param, "cycles", v, b->repeats, note);
      }
    }
  chase_release(&s);
  return rc;
}
