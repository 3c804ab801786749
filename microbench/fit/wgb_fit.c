/* wgb_fit.c - microbenchmark rows to GPU description parameters (see wgb_fit.h).
 *
 * Assumptions: rows of one device; cycle figures are already in core-clock cycles;
 * bandwidths in GB/s (10^9 B/s) for the chip and B/cycle/SM for shared memory; a
 * "warp" is header warp_size (32 when absent). Nothing here is tuned to a GPU: every
 * value is a measured median, or a least-squares fit of a one- or two-parameter model
 * over measured rows.
 */
#define _POSIX_C_SOURCE 200809L
#include "wgb_fit.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* ------------------------------------------------------------------------ */
/* Building blocks                                                          */
/* ------------------------------------------------------------------------ */

bool wgb_fit_line(const double *x, const double *y, int n, double *a, double *b) {
  if (n < 2)
    return false;
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (int i = 0; i < n; i++) {
    sx += x[i];
    sy += y[i];
    sxx += x[i] * x[i];
    sxy += x[i] * y[i];
  }
  double d = n * sxx - sx * sx;
  if (!(fabs(d) > 1e-300))
    return false;
  *b = (n * sxy - sx * sy) / d;
  *a = (sy - *b * sx) / n;
  return isfinite(*a) && isfinite(*b);
}

typedef struct xy {
  double x, y;
} xy;

static int cmp_xy(const void *p, const void *q) {
  const xy *a = p, *b = q;
  return a->x < b->x ? -1 : a->x > b->x ? 1 : 0;
}

bool wgb_fit_knee(const double *x, const double *y, int n, double *slope, double *peak) {
  if (n < 2)
    return false;
  xy *p = malloc((size_t)n * sizeof *p);
  if (!p)
    return false;
  for (int i = 0; i < n; i++) {
    if (!(x[i] > 0) || !isfinite(y[i])) {
      free(p);
      return false;
    }
    p[i] = (xy){x[i], y[i]};
  }
  qsort(p, (size_t)n, sizeof *p, cmp_xy);
  double best = INFINITY, bs = 0, bp = 0;
  /* k points rise (slope through the origin), n - k are flat (their mean) */
  for (int k = 1; k <= n; k++) {
    double sxy = 0, sxx = 0, sum = 0;
    for (int i = 0; i < k; i++) {
      sxy += p[i].x * p[i].y;
      sxx += p[i].x * p[i].x;
    }
    for (int i = k; i < n; i++)
      sum += p[i].y;
    double s = sxy / sxx;
    double pk = k < n ? sum / (n - k) : s * p[n - 1].x;
    if (!(s > 0) || !(pk > 0))
      continue;
    double sse = 0;
    for (int i = 0; i < n; i++) {
      double m = fmin(s * p[i].x, pk);
      sse += (p[i].y - m) * (p[i].y - m);
    }
    if (sse < best) {
      best = sse;
      bs = s;
      bp = pk;
    }
  }
  free(p);
  if (!isfinite(best))
    return false;
  *slope = bs;
  *peak = bp;
  return true;
}

void wgb_detect_levels(const double *fp, const double *lat, int n, double *first, double *second) {
  *first = *second = 0;
  if (n < 2)
    return;
  int j1 = -1;
  for (int i = 1; i < n; i++)
    if (lat[i] > 1.5 * lat[0]) {
      j1 = i;
      break;
    }
  if (j1 < 0)
    return;
  *first = fp[j1];
  int p = -1;
  for (int i = j1; i < n; i++)
    if (fp[i] >= 2 * fp[j1]) {
      p = i;
      break;
    }
  if (p < 0)
    return;
  for (int i = p + 1; i < n; i++)
    if (lat[i] > 1.5 * lat[p]) {
      *second = fp[i];
      return;
    }
}

double wgb_detect_granule(const double *stride, const double *lat, int n) {
  if (n < 2)
    return 0;
  double lo = lat[0], hi = lat[n - 1];
  if (!(hi > 1.2 * lo))
    return 0;
  for (int i = 0; i < n; i++)
    if (lat[i] >= lo + 0.9 * (hi - lo))
      return stride[i];
  return 0;
}

static const wgb_op_map op_table[] = {
    {"fp32_add", "fadd", 1, "x = x + y"},
    {"fp32_mul", "fmul", 1, "x = x * y"},
    {"fp32_fma", "ffma", 1, "x = fma(x, y, z)"},
    {"fp32_div", "div", 1, "x = y / x, the whole division sequence"},
    {"fp64_add", "dadd", 1, "x = x + y in double"},
    {"fp64_mul", "dmul", 1, "x = x * y in double"},
    {"fp64_fma", "dfma", 1, "x = fma(x, y, z) in double"},
    {"fp64_div", "ddiv", 1, "x = y / x in double"},
    {"int_add", "iadd", 1, "Fibonacci step a + b"},
    {"int64_add", "ladd", 1, "64-bit Fibonacci step a + b"},
    {"int_mul", "imul", 1, "x = x * y (CUDA) or x * y + w (OpenCL), one IMAD, 32-bit"},
    {"int64_mul", "lmul", 1, "x = x * y + w, 64-bit"},
    {"int_div", "idiv", 1, "x = x / y + z, division by a runtime divisor (the add is glue)"},
    {"int64_div", "ldiv", 1, "x = x / y + z, 64-bit (the add is glue)"},
    {"int_logic", "lop3", 1, "x = x ^ y ^ z as one lop3"},
    {"int_logic", "rotxor", 2, "x = rotate(x, x) ^ z: a rotate and a xor per step"},
    {"cmp_select", "select", 2, "x = x > y ? z : w: a compare and a select per step"},
    {"conv", "f2i", 1, "float to int conversion"},
    {"addr", "imul", 1, "stands for address scaling, one integer multiply-add per index"},
    {"sfu_sqrt", "sqrt", 1, "x = sqrt(x)"},
    {"sfu_rsqrt", "rsqrt", 1, "x = rsqrt(x)"},
    {"sfu_sin", "sin", 1, "x = sin(x)"},
    {"sfu_cos", "cos", 1, "x = cos(x)"},
    {"sfu_tan", "tan", 1, "x = fma(tan(x), y, z) (the fma is glue)"},
    {"sfu_exp", "exp", 1, "x = exp(-x)"},
    {"sfu_log", "log", 1, "x = log(x) + y (the add is glue)"},
    {"sfu_pow", "pow", 1, "x = pow(x, y) + z (the add is glue)"},
    {"fp64_special", "dexp", 1, "x = exp(-x) in double"},
    {"sfu_fast", "exp_fast", 1, "x = __expf(-x), a fast intrinsic: FMUL + MUFU.EX2"},
};

const wgb_op_map *wgb_op_table(size_t *n) {
  *n = COUNT(op_table);
  return op_table;
}

/* ------------------------------------------------------------------------ */
/* Fit state                                                                */
/* ------------------------------------------------------------------------ */

typedef struct ctx {
  const wgb_table *t;
  const char *where;
  wgb_fit_options opt;
  wgb_fit *fit;
  int err;
  double clock_mhz;
  unsigned sm_count, warp;
} ctx;

static void report(ctx *c, const char *fmt, ...) {
  wgb_fit *f = c->fit;
  if (f->nlines == f->lcap) {
    size_t cap = f->lcap ? 2 * f->lcap : 64;
    char **p = realloc(f->lines, cap * sizeof *p);
    if (!p) {
      c->err = 1;
      return;
    }
    f->lines = p;
    f->lcap = cap;
  }
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  f->lines[f->nlines] = strdup(buf);
  if (!f->lines[f->nlines])
    c->err = 1;
  else
    f->nlines++;
}

static wgb_field *new_field(ctx *c, const char *key) {
  wgb_fit *f = c->fit;
  for (size_t i = 0; i < f->n; i++)
    if (strcmp(f->fields[i].key, key) == 0)
      return &f->fields[i];
  if (f->n == f->cap) {
    size_t cap = f->cap ? 2 * f->cap : 64;
    wgb_field *p = realloc(f->fields, cap * sizeof *p);
    if (!p) {
      c->err = 1;
      return NULL;
    }
    f->fields = p;
    f->cap = cap;
  }
  wgb_field *fl = &f->fields[f->n++];
  memset(fl, 0, sizeof *fl);
  snprintf(fl->key, sizeof fl->key, "%s", key);
  return fl;
}

/* Sets KEY to VALUE with source "measured: WHERE (WHAT)" and NOTE (may be NULL). A WHAT
 * that begins "assumed:" is not a measurement: its source stays "assumed: ...", naming
 * WHERE only as the calibration it came with. */
static void set_num(ctx *c, const char *key, double value, const char *what, const char *note) {
  if (!isfinite(value))
    return;
  wgb_field *f = new_field(c, key);
  if (!f)
    return;
  f->is_string = false;
  f->value = value;
  if (strncmp(what, "assumed:", 8) == 0)
    snprintf(f->source, sizeof f->source, "%s (set with the calibration from %s)", what, c->where);
  else
    snprintf(f->source, sizeof f->source, "measured: %s (%s)", c->where, what);
  snprintf(f->note, sizeof f->note, "%s", note ? note : "");
  report(c, "%-40s %12.6g   %s%s%s", key, value, what, note && *note ? "; " : "", note ? note : "");
}

static void set_str(ctx *c, const char *key, const char *value, const char *what) {
  wgb_field *f = new_field(c, key);
  if (!f)
    return;
  f->is_string = true;
  snprintf(f->str, sizeof f->str, "%s", value);
  snprintf(f->source, sizeof f->source, "measured: %s (%s)", c->where, what);
  report(c, "%-40s %12s   %s", key, value, what);
}

const wgb_field *wgb_fit_get(const wgb_fit *fit, const char *key) {
  for (size_t i = 0; i < fit->n; i++)
    if (strcmp(fit->fields[i].key, key) == 0)
      return &fit->fields[i];
  return NULL;
}

void wgb_fit_free(wgb_fit *fit) {
  for (size_t i = 0; i < fit->nlines; i++)
    free(fit->lines[i]);
  free(fit->lines);
  free(fit->fields);
  memset(fit, 0, sizeof *fit);
}

/* The first ok row named BENCH (whose parameter KEY equals VAL when KEY is given). */
static const wgb_row *row(const ctx *c, const char *bench, const char *key, const char *val) {
  for (size_t i = 0; i < c->t->n; i++) {
    const wgb_row *r = &c->t->rows[i];
    if (!r->ok || strcmp(r->bench, bench) != 0)
      continue;
    if (key) {
      char v[64];
      if (!wgb_row_param_str(r, key, v, sizeof v) || strcmp(v, val) != 0)
        continue;
    }
    return r;
  }
  return NULL;
}

/* Of the ok rows named BENCH, the one with the smallest parameter KEY. */
static const wgb_row *row_min_param(const ctx *c, const char *bench, const char *key) {
  const wgb_row *best = NULL;
  double bv = INFINITY;
  for (size_t i = 0; i < c->t->n; i++) {
    const wgb_row *r = &c->t->rows[i];
    double v;
    if (r->ok && strcmp(r->bench, bench) == 0 && wgb_row_param(r, key, &v) && v < bv) {
      bv = v;
      best = r;
    }
  }
  return best;
}

static unsigned header_uint(const ctx *c, const char *key) {
  const char *v = wgb_table_header(c->t, key);
  if (!v)
    return 0;
  char *end;
  double d = strtod(v, &end);
  return (end != v && d > 0 && d < 4e9) ? (unsigned)d : 0;
}

/* Collects (param X, median) of ok rows named BENCH whose parameters FILTER_KEY equals
 * FILTER_VAL (when given), sorted by X. Returns the count (at most cap). */
static int collect(const ctx *c, const char *bench, const char *xkey, const char *fkey, const char *fval, double *x,
                   double *y, int cap) {
  xy pts[256];
  int n = 0;
  for (size_t i = 0; i < c->t->n && n < cap && n < (int)COUNT(pts); i++) {
    const wgb_row *r = &c->t->rows[i];
    double v;
    if (!r->ok || strcmp(r->bench, bench) != 0 || !wgb_row_param(r, xkey, &v))
      continue;
    if (fkey) {
      char s[64];
      if (!wgb_row_param_str(r, fkey, s, sizeof s) || strcmp(s, fval) != 0)
        continue;
    }
    pts[n++] = (xy){v, r->median};
  }
  qsort(pts, (size_t)n, sizeof *pts, cmp_xy);
  for (int i = 0; i < n; i++) {
    x[i] = pts[i].x;
    y[i] = pts[i].y;
  }
  return n;
}

static double round_to(double v, double unit) {
  double r = floor(v / unit + 0.5) * unit;
  return r < unit ? unit : r;
}

/* ------------------------------------------------------------------------ */
/* Parameters                                                               */
/* ------------------------------------------------------------------------ */

static const char *arch_of_cc(unsigned major, unsigned minor) {
  switch (major) {
  case 3: return "kepler";
  case 5: return "maxwell";
  case 6: return "pascal";
  case 7: return minor >= 5 ? "turing" : "volta";
  case 8: return minor == 9 ? "ada" : "ampere";
  case 9: return "hopper";
  default: return NULL;
  }
}

static void fit_identity(ctx *c) {
  const char *name = wgb_table_header(c->t, "gpu");
  if (name && *name)
    set_str(c, "identity.name", name, "device name reported by the driver");
  const char *cc = wgb_table_header(c->t, "compute_capability");
  unsigned major, minor;
  if (cc && sscanf(cc, "%u.%u", &major, &minor) == 2) {
    char v[16];
    snprintf(v, sizeof v, "%u.%u", major, minor);
    set_str(c, "identity.compute_capability", v, "device query: compute capability");
    const char *arch = arch_of_cc(major, minor);
    if (arch)
      set_str(c, "identity.architecture", arch, "architecture of the queried compute capability");
  }
  if (c->sm_count)
    set_num(c, "chip.sm_count", c->sm_count, "device query: multiprocessors (compute units)", NULL);
  const wgb_row *m = row(c, "clock_measured", NULL, NULL);
  const wgb_row *a = row(c, "clock_attr", NULL, NULL);
  if (m && m->median > 0) {
    char note[160] = "";
    if (a)
      snprintf(note, sizeof note, "driver attribute %.0f MHz", a->median);
    set_num(c, "chip.core_clock_mhz", m->median, "clock_measured: device clock counter over timer", note);
  } else if (a && a->median > 0)
    set_num(c, "chip.core_clock_mhz", a->median, "clock_attr: the driver's maximum clock; no clock counter",
            "cycle figures of this calibration are event time x this clock");
}

static void fit_latencies(ctx *c) {
  const wgb_row *r;
  if ((r = row(c, "lat_shared", NULL, NULL)))
    set_num(c, "latencies.shared_cycles", r->median, "lat_shared: dependent local/shared memory chain", NULL);
  const wgb_row *one = row(c, "lat_shared_conflict", "ways", "1"), *all = row(c, "lat_shared_conflict", "ways", "32");
  if (one && all) {
    /* Kepler's bank rows are 64 bits wide: lanes 2k and 2k + 1 of the
     * one-bank chase (words 32 apart in one 64-word segment) are served
     * together, 16 transactions (docs/counters.md); elsewhere 32 */
    const char *cc = wgb_table_header(c->t, "compute_capability");
    unsigned major = 0, minor = 0;
    bool kepler = cc && sscanf(cc, "%u.%u", &major, &minor) == 2 && major == 3;
    unsigned extra = kepler ? 15 : 31;
    char note[160], what[160];
    snprintf(note, sizeof note, "%.1f cycles a load with 32 banks, %.1f with one (%s)", one->median, all->median,
             kepler ? "16 transactions on Kepler's 64-bit bank rows" : "32-way");
    snprintf(what, sizeof what, "lat_shared_conflict: a warp's chain with one bank less the conflict-free one, over %u",
             extra);
    set_num(c, "latencies.shared_replay_cycles", fmax(0, (all->median - one->median) / extra), what, note);
  }
  if ((r = row(c, "lat_l1", NULL, NULL)))
    set_num(c, "latencies.l1_hit_cycles", r->median, "lat_l1: random chain within L1", NULL);
  if ((r = row(c, "lat_l2", NULL, NULL)))
    set_num(c, "latencies.l2_hit_cycles", r->median, "lat_l2: random chain larger than L1, within L2", NULL);
  if ((r = row_min_param(c, "lat_dram", "footprint_bytes"))) {
    double fp = 0;
    wgb_row_param(r, "footprint_bytes", &fp);
    char what[160];
    snprintf(what, sizeof what, "lat_dram: cold random chain over %.0f MiB", fp / 1048576.0);
    set_num(c, "latencies.dram_cycles", r->median, what, NULL);
  }
  if ((r = row_min_param(c, "lat_const", "footprint_bytes"))) {
    double fp = 0;
    wgb_row_param(r, "footprint_bytes", &fp);
    char what[160];
    snprintf(what, sizeof what, "lat_const: warm constant chain over %.0f B", fp);
    set_num(c, "latencies.constant_hit_cycles", r->median, what, NULL);
  }
  if ((r = row(c, "lat_const_cold", NULL, NULL)))
    set_num(c, "latencies.constant_miss_cycles", r->median, "lat_const_cold: first touch of each constant line",
            NULL);
}

static void fit_geometry(ctx *c) {
  double l1u = c->opt.l1_line_bytes ? c->opt.l1_line_bytes : 128;
  double l2u = c->opt.l2_line_bytes ? c->opt.l2_line_bytes : 128;
  /* sizes in whole KiB (a multiple of any line size) */
  if (l1u < 1024)
    l1u = 1024;
  if (l2u < 1024)
    l2u = 1024;
  const wgb_row *r1 = row(c, "geom_l1_size", NULL, NULL), *r2 = row(c, "geom_l2_size", NULL, NULL);
  double s1 = r1 ? r1->median : 0, s2 = r2 ? r2->median : 0;
  const char *how1 = "geom_l1_size", *how2 = "geom_l2_size";
  if (!r1 || !r2) {
    double fp[256], lat[256], a, b;
    int n = collect(c, "geom_curve", "footprint_bytes", NULL, NULL, fp, lat, 256);
    wgb_detect_levels(fp, lat, n, &a, &b);
    if (!c->opt.l1_caches_global_loads) { /* the first jump is L2's */
      b = a;
      a = 0;
    }
    if (!r1 && a > 0)
      s1 = a, how1 = "geom_curve: first footprint with latency > 1.5x the smallest footprint's";
    if (!r2 && b > 0)
      s2 = b, how2 = "geom_curve: first footprint beyond the L1 plateau with latency > 1.5x that plateau's";
  }
  char note[200];
  if (s1 > 0) {
    snprintf(note, sizeof note, "%.0f B detected, rounded to whole KiB", s1);
    set_num(c, "memory.l1_bytes", round_to(s1, l1u), how1, note);
  }
  unsigned attr = header_uint(c, "l2_bytes");
  if (attr) {
    snprintf(note, sizeof note, "latency sweep: %s", s2 > 0 ? "see geom rows" : "no jump found");
    if (s2 > 0)
      snprintf(note, sizeof note, "latency sweep saw the jump at %.0f B", s2);
    set_num(c, "memory.l2_bytes", attr, "device attribute: L2 cache size", note);
  } else if (s2 > 0) {
    snprintf(note, sizeof note, "%.0f B detected, rounded to whole KiB; rough where L2 is partitioned", s2);
    set_num(c, "memory.l2_bytes", round_to(s2, l2u), how2, note);
  }
  const wgb_row *g = row(c, "geom_l1_fetch_granule", NULL, NULL);
  double gran = g ? g->median : 0;
  if (!g) {
    double st[64], lat[64];
    int n = collect(c, "geom_l1_stride", "stride_bytes", NULL, NULL, st, lat, 64);
    gran = wgb_detect_granule(st, lat, n);
  }
  if (gran >= 4)
    set_num(c, "memory.l1_sector_bytes", gran, "geom_l1_stride: smallest stride reaching 90% of the miss plateau",
            NULL);
}

static void fit_bandwidth(ctx *c) {
  const wgb_row *r;
  const wgb_row *w = row(c, "bw_dram_write", NULL, NULL), *cp = row(c, "bw_dram_copy", NULL, NULL);
  if ((r = row(c, "bw_dram_read", NULL, NULL))) {
    char note[160];
    snprintf(note, sizeof note, "write %.6g GB/s, copy %.6g GB/s", w ? w->median : NAN, cp ? cp->median : NAN);
    set_num(c, "memory.dram_bandwidth_gbps", r->median, "bw_dram_read: streaming read of a buffer >> L2", note);
    /* reads and writes mixed cost more than either alone where the bus turns
     * around between them; the copy says how much (taken only below twice
     * the read bandwidth, as the loader requires) */
    if (cp && cp->median > 0 && cp->median < 2 * r->median)
      set_num(c, "memory.dram_copy_bandwidth_gbps", cp->median,
              "bw_dram_copy: a buffer >> L2 copied, bytes read + written", NULL);
  }
  /* Random sectors each open a DRAM row: their rate is the memory's row
   * activations per ns.  The row geometry comes with it, all of it (the GPU
   * loader takes all five keys or none): the devices from the bus width (32
   * bits each: GDDR5/6 devices, HBM pseudo-channels), the rest GDDR5's. */
  unsigned bus = header_uint(c, "bus_width_bits");
  if ((r = row(c, "bw_dram_scatter", NULL, NULL)) && r->median > 0 && bus >= 32) {
    double devices = bus / 32, window = WGB_ACTIVATIONS_PER_WINDOW * devices / r->median;
    char note[200];
    snprintf(note, sizeof note, "%.4g rows per ns over %.0f devices, %d per window each", r->median, devices,
             WGB_ACTIVATIONS_PER_WINDOW);
    set_num(c, "memory.dram_devices", devices, "device attribute: memory bus width / 32 bits per device", NULL);
    set_num(c, "memory.dram_banks_per_device", 16, "assumed: GDDR5's 16 banks; only the density of open rows", NULL);
    set_num(c, "memory.dram_row_bytes", 2048, "assumed: a GDDR5 x32 row of 2 KB; only the density of open rows",
            NULL);
    set_num(c, "memory.dram_interleave_bytes", 256, "assumed: NVIDIA's 256 B partition interleave", NULL);
    set_num(c, "memory.dram_activate_window_ns", window,
            "bw_dram_scatter: random 32 B sectors of a buffer >> L2, each opening a row", note);
  }
  if ((r = row(c, "bw_l2_read", NULL, NULL)))
    set_num(c, "memory.l2_bandwidth_gbps", r->median, "bw_l2_read: a buffer within L2 read repeatedly", NULL);
  if ((r = row(c, "bw_l2_port", NULL, NULL)))
    set_num(c, "memory.l2_port_bytes_per_cycle", r->median,
            "bw_l2_port: one SM's block reading a buffer within L2, bytes per cycle of that SM", NULL);
  if ((r = row(c, "bw_shared", NULL, NULL)))
    set_num(c, "memory.shared_bandwidth_bytes_per_cycle", r->median,
            "bw_shared: conflict-free 32-bit local/shared loads, all compute units busy", NULL);
}

static void fit_ops(ctx *c) {
  size_t n;
  const wgb_op_map *m = wgb_op_table(&n);
  bool done[64] = {false};
  const char *classes[64];
  size_t nc = 0;
  for (size_t i = 0; i < n; i++) {
    size_t k = 0;
    while (k < nc && strcmp(classes[k], m[i].cls) != 0)
      k++;
    if (k == nc)
      classes[nc++] = m[i].cls;
    if (done[k])
      continue;
    const wgb_row *lat = row(c, "arith_latency", "op", m[i].op);
    const wgb_row *thr = row(c, "arith_throughput", "op", m[i].op);
    if (!lat || !thr || !(lat->median > 0) || !(thr->median > 0))
      continue;
    done[k] = true;
    char key[96], what[256];
    snprintf(what, sizeof what, "arith_latency/arith_throughput op=%s: %s%s", m[i].op, m[i].how,
             m[i].ops_per_step != 1 ? "; per operation" : "");
    snprintf(key, sizeof key, "ops.%s.latency_cycles", m[i].cls);
    set_num(c, key, lat->median / m[i].ops_per_step, what, NULL);
    snprintf(key, sizeof key, "ops.%s.throughput_per_cycle", m[i].cls);
    set_num(c, key, thr->median * m[i].ops_per_step, what, NULL);
  }
}

static void fit_sync_launch(ctx *c) {
  double x[64], y[64];
  int n = 0;
  for (size_t i = 0; i < c->t->n && n < 64; i++) {
    const wgb_row *r = &c->t->rows[i];
    double bps, block;
    if (!r->ok || strcmp(r->bench, "barrier") != 0 || !wgb_row_param(r, "blocks_per_sm", &bps) || bps != 1 ||
        !wgb_row_param(r, "block", &block))
      continue;
    x[n] = ceil(block / c->warp);
    y[n++] = r->median;
  }
  double a, b;
  if (n >= 2 && wgb_fit_line(x, y, n, &a, &b)) {
    char what[200];
    snprintf(what, sizeof what, "barrier, one work-group per compute unit, %d sizes: least squares %.3g + %.3g x warps",
             n, a, b);
    set_num(c, "sync.barrier_base_cycles", fmax(a, 0), what, NULL);
    set_num(c, "sync.barrier_per_warp_cycles", fmax(b, 0), what, NULL);
  }
  const wgb_row *r = row(c, "launch_throughput", NULL, NULL);
  if (r)
    set_num(c, "launch.overhead_us", r->median, "launch_throughput: back-to-back empty kernels, time per launch",
            NULL);
  /* per-group cost: slope over the block size with the most points */
  static const char *blocks[] = {"256", "32", "1024", "64", "128", "8"};
  for (size_t k = 0; k < COUNT(blocks); k++) {
    n = collect(c, "launch_blocks", "blocks", "block", blocks[k], x, y, 64);
    if (n < 3)
      continue;
    if (wgb_fit_line(x, y, n, &a, &b)) {
      char what[200];
      snprintf(what, sizeof what, "launch_blocks, block=%s, %d grid sizes: least-squares slope of time per launch",
               blocks[k], n);
      set_num(c, "launch.per_block_ns", fmax(b * 1e3, 0), what, NULL);
    }
    break;
  }
}

/* seeds/004 sec. 5.2: latency = pre-wait + delay + post-wait, from a bandwidth vs
 * resident warps curve (Little's law) and the chain latency of the same level. */
static void split_level(ctx *c, const char *level, const char *bench, const char *lat_key) {
  const wgb_field *lf = wgb_fit_get(c->fit, lat_key);
  if (!lf || !(c->clock_mhz > 0) || !c->sm_count)
    return;
  double x[256], y[256];
  /* the rows with the fewest independent loads per work-item (ilp) */
  double ilp = INFINITY;
  for (size_t i = 0; i < c->t->n; i++) {
    double v;
    if (c->t->rows[i].ok && strcmp(c->t->rows[i].bench, bench) == 0 && wgb_row_param(&c->t->rows[i], "ilp", &v))
      ilp = fmin(ilp, v);
  }
  char ilps[32];
  snprintf(ilps, sizeof ilps, "%g", ilp);
  int n = collect(c, bench, "warps_per_sm", isfinite(ilp) ? "ilp" : NULL, ilps, x, y, 256);
  if (n < 3)
    return;
  if (!isfinite(ilp))
    ilp = 1;
  double bpl = 16;
  const wgb_row *any = row(c, bench, NULL, NULL);
  if (any)
    wgb_row_param(any, "bytes_per_lane", &bpl);
  bool per_cycle = any && strcmp(any->unit, "B/cycle/SM") == 0;
  double slope, peak;
  if (!wgb_fit_knee(x, y, n, &slope, &peak))
    return;
  /* to bytes per cycle per SM */
  double to_bpc = per_cycle ? 1 : 1e9 / (c->sm_count * c->clock_mhz * 1e6);
  double per_warp = slope * to_bpc, peak_bpc = peak * to_bpc;
  double loaded = c->warp * bpl * ilp / per_warp;
  double pre = 128.0 / peak_bpc;
  double chain = lf->value;
  double delay = chain - pre, post = fmax(loaded - chain, 0);
  report(c, "%s latency split (seeds/004 sec. 5.2; %s, ilp %g, %d points, Little's law fit): peak %.3g B/cycle/SM, loaded "
            "latency %.4g cycles; pre-wait %.3g (one 128 B request at peak) + delay %.4g = chain %.4g; post-wait "
            "under load %.4g",
         level, bench, ilp, n, peak_bpc, loaded, pre, delay, chain, post);
  if (delay < 0) {
    report(c, "%s latency split not kept: the chain latency (%.4g) is below one request's pre-wait (%.3g): the "
              "curve does not describe a GPU's memory pipeline",
           level, chain, pre);
    return;
  }
  wgb_field *f = new_field(c, lat_key);
  if (f)
    snprintf(f->note, sizeof f->note,
             "split as seeds/004 sec. 5.2: pre-wait %.3g + delay %.4g cycles; a warp under load waits %.4g more "
             "(Little's law over %s)",
             pre, delay, post, bench);
}

int wgb_fit_run(const wgb_table *t, const char *where, const wgb_fit_options *opt, wgb_fit *fit) {
  memset(fit, 0, sizeof *fit);
  ctx c = {.t = t, .where = where, .fit = fit};
  c.opt = opt ? *opt : (wgb_fit_options){.l1_caches_global_loads = true};
  c.sm_count = header_uint(&c, "sm_count");
  c.warp = header_uint(&c, "warp_size");
  if (!c.warp)
    c.warp = 32;
  fit_identity(&c);
  const wgb_field *clk = wgb_fit_get(fit, "chip.core_clock_mhz");
  c.clock_mhz = clk ? clk->value : 0;
  fit_latencies(&c);
  fit_geometry(&c);
  fit_bandwidth(&c);
  fit_ops(&c);
  fit_sync_launch(&c);
  split_level(&c, "DRAM", "bw_dram_occupancy", "latencies.dram_cycles");
  split_level(&c, "L2", "bw_l2_occupancy", "latencies.l2_hit_cycles");
  split_level(&c, "shared", "bw_shared_occupancy", "latencies.shared_cycles");
  if (c.err) {
    wgb_fit_free(fit);
    return -1;
  }
  return 0;
}
