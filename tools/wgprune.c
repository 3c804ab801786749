/* wgprune - prune and rank work-group sizes without running the kernel
 * (seeds/004 sec. 6, Algorithm 4): the command line over wgp_prune_run
 * (include/wgperf/prune.h, sim/prune.c; docs/wgprune.md).
 *
 *   wgprune kernel.cl --kernel mm --global 1024,1024 --arg N=1024 [--gpu h100-sxm] [--json|--csv]
 *
 * Prints the ranking as a table (or --json, --csv; --top N makes its first
 * N ranks exact, wgp_prune_options.top), draws the space
 * (--plot), writes the survivors as a Kernel Tuner search space
 * (--emit-kernel-tuner), or compares the pruned search with the exhaustive
 * one (--study).
 */
#define _DEFAULT_SOURCE
#include "cli.h"

#include "wgperf/estimate.h"
#include "wgperf/launch.h"
#include "wgperf/prune.h"
#include "wgperf/svg.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_LOCAL_ARGS 16
#define MAX_RESTRICTIONS 16

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void size_str(char *buf, size_t n, const uint64_t l[3], unsigned dims) {
  if (dims == 1)
    snprintf(buf, n, "%llu", (unsigned long long)l[0]);
  else if (dims == 2)
    snprintf(buf, n, "%llux%llu", (unsigned long long)l[0], (unsigned long long)l[1]);
  else
    snprintf(buf, n, "%llux%llux%llu", (unsigned long long)l[0], (unsigned long long)l[1], (unsigned long long)l[2]);
}

static const char *limiter_of(const wgp_sim_result *r) { return r->limiter && *r->limiter ? r->limiter : "warps"; }

/* ---- --plot: predicted time over the space, as SVG ------------------------- */

/* Where C goes on the plot: its time when simulated; a size left out for
 * idle lanes at least at the time of the size filling its warps (what stage
 * 1 takes it to be no faster than); any other at its best-case bound. */
static double plotted_us(const wgp_prune *p, const wgp_prune_candidate *c) {
  if (c->simulated)
    return c->sim.time_us;
  if (c->stage == WGP_PRUNE_IDLE_LANES) {
    const wgp_prune_candidate *r = wgp_prune_candidate_at(p, c->rep);
    double t = r->simulated ? r->sim.time_us : r->best_us;
    return t > c->best_us ? t : c->best_us;
  }
  return c->best_us;
}

/* A legend entry: a mark drawn by MARK (a format taking its centre twice)
 * and TEXT. */
typedef struct {
  const char *mark;
  char text[128];
} legend_entry;

/* Lays the entries out in rows from (X0, Y0) that stay left of XMAX, 18 px
 * apart; draws them when F is not NULL and returns the rows used. */
static int legend(FILE *f, const legend_entry *e, size_t n, double x0, double y0, double xmax) {
  double x = x0, y = y0;
  int rows = 1;
  for (size_t i = 0; i < n; i++) {
    double w = 14 + wgp_svg_text_width(e[i].text, 11);
    if (x > x0 && x + w > xmax)
      x = x0, y += 18, rows++;
    if (f) {
      fprintf(f, e[i].mark, x + 5, y - 4);
      fprintf(f, "<text x=\"%.0f\" y=\"%.0f\">", x + 14, y);
      wgp_svg_text(f, e[i].text);
      fprintf(f, "</text>\n");
    }
    x += w + 16;
  }
  return rows;
}

/* Candidates on the x axis in enumeration order, log time on the y axis
 * with 1-2-5 ticks (decades alone over a wide range) and both axes titled;
 * simulated sizes as filled dots, sizes pruned as duplicates or by bounds
 * as hollow marks at their best-case bound, sizes left out for idle lanes as
 * small marks (plotted_us); rank 1 ringed, and named in the legend.  Size labels are
 * thinned so that they do not overlap. */
static int write_plot(const char *file, const wgp_prune *p, const char *kernel, const char *gpu) {
  FILE *f = fopen(file, "w");
  if (!f)
    return -1;
  wgp_prune_counts cn;
  wgp_prune_get_counts(p, &cn);
  size_t nc = wgp_prune_num_candidates(p);
  unsigned dims = wgp_prune_dims(p);
  double lo = INFINITY, hi = 0;
  size_t nv = 0;
  for (size_t i = 0; i < nc; i++) {
    const wgp_prune_candidate *c = wgp_prune_candidate_at(p, i);
    if (c->stage == WGP_PRUNE_INVALID)
      continue;
    nv++;
    double t = plotted_us(p, c);
    if (t > 0 && t < lo)
      lo = t;
    if (t > hi)
      hi = t;
  }
  if (!(lo < INFINITY))
    lo = 1, hi = 10;
  if (hi <= lo * 1.05)
    lo /= 1.1, hi *= 1.1;
  size_t best = wgp_prune_num_ranked(p) ? wgp_prune_ranked(p, 0) : (size_t)-1;
  legend_entry le[5] = {{"<circle cx=\"%.0f\" cy=\"%.0f\" r=\"4\" fill=\"#1f77b4\"/>\n", "simulated"},
                        {"<circle cx=\"%.0f\" cy=\"%.0f\" r=\"6\" fill=\"none\" stroke=\"black\" "
                         "stroke-width=\"1.5\"/>\n",
                         "rank 1"},
                        {"<circle cx=\"%.0f\" cy=\"%.0f\" r=\"4\" fill=\"none\" stroke=\"#999\"/>\n",
                         "same traces (best case)"},
                        {"<circle cx=\"%.0f\" cy=\"%.0f\" r=\"4\" fill=\"none\" stroke=\"#d62728\"/>\n",
                         "pruned by bounds (best case)"},
                        {"<circle cx=\"%.0f\" cy=\"%.0f\" r=\"2\" fill=\"none\" stroke=\"#2ca02c\"/>\n",
                         "idle lanes (at the time of the size filling their warps)"}};
  if (best != (size_t)-1) {
    const wgp_prune_candidate *c = wgp_prune_candidate_at(p, best);
    char sz[64];
    size_str(sz, sizeof sz, c->local, dims);
    snprintf(le[1].text, sizeof le[1].text, "rank 1: %s, %.4g us", sz, plotted_us(p, c));
  }
  /* the kinds of mark the plot has */
  bool has[5] = {false, best != (size_t)-1, false, false, cn.idle_lanes > 0};
  for (size_t i = 0; i < nc; i++) {
    const wgp_prune_candidate *c = wgp_prune_candidate_at(p, i);
    has[0] = has[0] || c->simulated;
    has[2] = has[2] || (!c->simulated && c->stage == WGP_PRUNE_DUPLICATE);
    has[3] = has[3] || (!c->simulated && c->stage != WGP_PRUNE_INVALID && c->stage != WGP_PRUNE_DUPLICATE &&
                        c->stage != WGP_PRUNE_IDLE_LANES);
  }
  size_t nle = 0;
  for (size_t i = 0; i < 5; i++)
    if (has[i])
      le[nle++] = le[i];
  const double W = 900, L = 80, R = 20, B = 86;
  const double T = 44 + 18 * legend(NULL, le, nle, L, 44, W - R);
  const double H = T + 386, PW = W - L - R, PH = H - T - B;
  double llo = log10(lo) - 0.04 * (log10(hi) - log10(lo)), lhi = log10(hi) + 0.06 * (log10(hi) - log10(lo));
#define PY(v) (T + PH - (log10(v) - llo) / (lhi - llo) * PH)
  fprintf(f,
          "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" font-family=\"sans-serif\" "
          "font-size=\"11\">\n",
          W, H);
  fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
  fprintf(f, "<text x=\"%.0f\" y=\"22\" font-size=\"14\">", L);
  wgp_svg_text(f, kernel);
  fprintf(f, " on ");
  wgp_svg_text(f, gpu);
  fprintf(f, ": predicted time per work-group size</text>\n");
  legend(f, le, nle, L, 44, W - R);
  /* y ticks: 1, 2 and 5 per decade, or decades alone beyond 2.5 decades */
  fprintf(f, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"black\"/>\n", L, T + PH, L + PW, T + PH);
  fprintf(f, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"black\"/>\n", L, T, L, T + PH);
  static const double steps[] = {1, 2, 5};
  int nsteps = lhi - llo > 2.5 ? 1 : 3, ticks = 0;
  for (int e = (int)floor(llo); e <= (int)ceil(lhi); e++)
    for (int m = 0; m < nsteps; m++) {
      double v = steps[m] * pow(10, e);
      if (log10(v) < llo || log10(v) > lhi)
        continue;
      double y = PY(v);
      fprintf(f, "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", L, y, L + PW, y);
      fprintf(f, "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">%g us</text>\n", L - 5, y + 4, v);
      ticks++;
    }
  if (ticks < 2) /* a narrow range: its ends */
    for (int k = 0; k < 2; k++) {
      double v = k ? hi : lo, y = PY(v);
      fprintf(f, "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", L, y, L + PW, y);
      fprintf(f, "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">%.3g us</text>\n", L - 5, y + 4, v);
    }
  fprintf(f,
          "<text x=\"18\" y=\"%.0f\" transform=\"rotate(-90 18 %.0f)\" text-anchor=\"middle\">predicted time "
          "(us, log scale)</text>\n",
          T + PH / 2, T + PH / 2);
  fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">work-group size, in the order enumerated (%zu that "
             "can run)</text>\n",
          L + PW / 2, H - 10, nv);
  /* size labels, rotated; every k-th where they would touch */
  double step = PW / (double)(nv ? nv : 1);
  size_t every = step >= 14 ? 1 : (size_t)ceil(14 / step);
  size_t k = 0;
  for (size_t i = 0; i < nc; i++) {
    const wgp_prune_candidate *c = wgp_prune_candidate_at(p, i);
    if (c->stage == WGP_PRUNE_INVALID)
      continue;
    double t = plotted_us(p, c);
    double x = L + ((double)k + 0.5) * step;
    double y = PY(t > 0 ? t : lo);
    char sz[64];
    size_str(sz, sizeof sz, c->local, dims);
    bool dup = c->stage == WGP_PRUNE_DUPLICATE, idle = c->stage == WGP_PRUNE_IDLE_LANES;
    if (c->simulated) {
      fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"#1f77b4\"><title>%s: %.4g us</title></circle>\n", x,
              y, sz, t);
    } else if (idle) {
      const wgp_prune_candidate *r = wgp_prune_candidate_at(p, c->rep);
      char rs[64];
      size_str(rs, sizeof rs, r->local, dims);
      fprintf(f,
              "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2\" fill=\"none\" stroke=\"#2ca02c\"><title>%s: pruned (idle "
              "lanes), left to %s (%s %.4g us)</title></circle>\n",
              x, y, sz, rs, r->simulated ? "its time" : "its best case", t);
    } else
      fprintf(f,
              "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"none\" stroke=\"%s\"><title>%s: pruned (%s), "
              "best case %.4g us</title></circle>\n",
              x, y, dup ? "#999" : "#d62728", sz, dup ? "same traces" : "bounds", t);
    if (i == best)
      fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"6\" fill=\"none\" stroke=\"black\" stroke-width=\"1.5\"/>\n",
              x, y);
    if (k % every == 0)
      fprintf(f, "<text x=\"%.1f\" y=\"%.0f\" transform=\"rotate(-60 %.1f %.0f)\" text-anchor=\"end\">%s</text>\n", x,
              T + PH + 12, x, T + PH + 12, sz);
    k++;
  }
#undef PY
  fprintf(f, "</svg>\n");
  return fclose(f) == 0 ? 0 : -1;
}

/* ---- --emit-kernel-tuner: the survivors as a Kernel Tuner search space ---- */

/* The first NR ranks of P (with --top N the N best, else every simulated size). */
static int write_kernel_tuner(const char *file, const wgp_prune *p, size_t nr) {
  static const char *names[3] = {"block_size_x", "block_size_y", "block_size_z"};
  wgp_prune_counts cn;
  wgp_prune_get_counts(p, &cn);
  unsigned dims = wgp_prune_dims(p);
  json_t *j = json_object(), *tp = json_object();
  for (unsigned d = 0; d < dims; d++) {
    json_t *vals = json_array();
    for (size_t i = 0; i < nr; i++) {
      uint64_t v = wgp_prune_candidate_at(p, wgp_prune_ranked(p, i))->local[d];
      bool dup = false;
      for (size_t q = 0; q < i && !dup; q++)
        dup = wgp_prune_candidate_at(p, wgp_prune_ranked(p, q))->local[d] == v;
      if (!dup)
        json_array_append_new(vals, json_integer((json_int_t)v));
    }
    json_object_set_new(tp, names[d], vals);
  }
  json_object_set_new(j, "tune_params", tp);
  /* the exact set of surviving combinations, as one restriction */
  size_t cap = 64 + nr * 64;
  char *r = malloc(cap);
  if (!r) {
    json_decref(j);
    return -1;
  }
  size_t n = (size_t)snprintf(r, cap, "(%s", names[0]);
  for (unsigned d = 1; d < dims; d++)
    n += (size_t)snprintf(r + n, cap - n, ", %s", names[d]);
  n += (size_t)snprintf(r + n, cap - n, "%s in [", dims == 1 ? ",)" : ")");
  for (size_t i = 0; i < nr; i++) {
    const wgp_prune_candidate *c = wgp_prune_candidate_at(p, wgp_prune_ranked(p, i));
    n += (size_t)snprintf(r + n, cap - n, "%s(", i ? ", " : "");
    for (unsigned d = 0; d < dims; d++)
      n += (size_t)snprintf(r + n, cap - n, "%s%llu", d ? ", " : "", (unsigned long long)c->local[d]);
    n += (size_t)snprintf(r + n, cap - n, "%s)", dims == 1 ? "," : "");
  }
  snprintf(r + n, cap - n, "]");
  json_t *rs = json_array();
  json_array_append_new(rs, json_string(r));
  free(r);
  json_object_set_new(j, "restrictions", rs);
  json_t *order = json_array();
  for (size_t i = 0; i < nr; i++) {
    const wgp_prune_candidate *c = wgp_prune_candidate_at(p, wgp_prune_ranked(p, i));
    json_t *e = json_object();
    for (unsigned d = 0; d < dims; d++)
      json_object_set_new(e, names[d], json_integer((json_int_t)c->local[d]));
    json_object_set_new(e, "predicted_time_us", json_real(c->sim.time_us));
    json_array_append_new(order, e);
  }
  json_object_set_new(j, "wgperf_ranking", order);
  /* how many of them are the exhaustive search's first ranks */
  json_object_set_new(j, "wgperf_exact_ranks", json_integer((json_int_t)(cn.exact_ranks < nr ? cn.exact_ranks : nr)));
  int rc = json_dump_file(j, file, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
  json_decref(j);
  return rc;
}

/* ---- output ----------------------------------------------------------------- */

/* Percent of the sizes that can run that the two pruning stages removed. */
static double pruned_percent(const wgp_prune_counts *n) {
  return n->valid ? 100.0 * (1.0 - (double)n->after_bounds / (double)n->valid) : 0;
}

/* The names --json and --study --json share: kernel, GPU and the counts per stage. */
static json_t *counts_json(const wgp_kernel *k, const wgp_gpu *gpu, const wgp_prune_counts *n) {
  json_t *j = json_object();
  json_object_set_new(j, "kernel", json_string(wgp_kernel_name(k)));
  json_object_set_new(j, "gpu", json_string(wgp_gpu_name(gpu)));
  json_object_set_new(j, "candidates_total", json_integer((json_int_t)n->total));
  json_object_set_new(j, "candidates_valid", json_integer((json_int_t)n->valid));
  json_object_set_new(j, "after_duplicate_pruning", json_integer((json_int_t)n->after_duplicates));
  json_object_set_new(j, "idle_lane_pruned", json_integer((json_int_t)n->idle_lanes));
  json_object_set_new(j, "after_bound_pruning", json_integer((json_int_t)n->after_bounds));
  json_object_set_new(j, "excluded_by_restrictions", json_integer((json_int_t)n->restricted));
  return j;
}

/* The TOP fastest sizes (20 when not given, every one for --top 0, at most
 * 100) checked for accesses outside the sizes --buffer gives L's arguments
 * (wgp_prune_outside, which checks nothing where --buffer gives no size):
 * OUTSIDE[rank] set for each such, and a warning naming the fastest. */
static void check_outside(const wgp_prune *p, const wgp_kernel *k, const wgp_launch *l, size_t top, bool top_given,
                          bool *outside) {
  size_t n = wgp_prune_num_ranked(p), want = !top_given ? 20 : top ? top : 100;
  want = want < 100 ? want : 100;
  want = want < n ? want : n;
  size_t na = wgp_kernel_num_args(k) ? wgp_kernel_num_args(k) : 1;
  uint64_t *bytes = calloc(na, sizeof *bytes);
  if (!bytes)
    return;
  wgp_launch_buffer_sizes(l, k, bytes); /* the warning's --buffer size */
  size_t found = 0, first = 0, first_arg = 0;
  double first_lo = 0, first_hi = 0;
  for (size_t r = 0; r < want; r++) {
    size_t arg, count = 0;
    double lo, hi;
    wgp_diag d;
    if (wgp_prune_outside(p, wgp_prune_ranked(p, r), 1, &arg, &lo, &hi, &count, &d) != WGP_OK || !count)
      continue;
    outside[r] = true;
    if (!found++)
      first = r, first_arg = arg, first_lo = lo, first_hi = hi;
  }
  if (found) {
    const wgp_prune_candidate *c = wgp_prune_candidate_at(p, wgp_prune_ranked(p, first));
    fprintf(stderr,
            "wgprune: warning: %zu of the %zu fastest sizes checked access outside the buffers --buffer gives (the "
            "first, rank %zu, %llux%llux%llu: the launch accesses bytes %.0f to %.0f of '%s', whose --buffer is "
            "%llu bytes): a grid past the data of a kernel without a bound check, or a --buffer too small; their "
            "times count those accesses\n",
            found, want, first + 1, (unsigned long long)c->local[0], (unsigned long long)c->local[1],
            (unsigned long long)c->local[2], first_lo, first_hi, wgp_arg_name(wgp_kernel_arg(k, first_arg)),
            (unsigned long long)bytes[first_arg]);
  }
  free(bytes);
}

static void print_json(const wgp_prune *p, const wgp_kernel *k, const wgp_gpu *gpu, double wall, double t_extract,
                       const bool *outside) {
  wgp_prune_counts n;
  wgp_prune_get_counts(p, &n);
  double pruned = pruned_percent(&n);
  json_t *j = counts_json(k, gpu, &n);
  json_object_set_new(j, "simulated", json_integer((json_int_t)n.simulated));
  json_object_set_new(j, "analyses", json_integer((json_int_t)n.analyses));
  json_object_set_new(j, "cache_analyses", json_integer((json_int_t)n.cache_analyses));
  json_object_set_new(j, "pruned_percent", json_real(pruned));
  json_object_set_new(j, "exact_ranks", json_integer((json_int_t)n.exact_ranks));
  json_t *rank = json_array();
  for (size_t i = 0; i < wgp_prune_num_ranked(p); i++) {
    const wgp_prune_candidate *c = wgp_prune_candidate_at(p, wgp_prune_ranked(p, i));
    json_t *e = json_object(), *lc = json_array();
    for (int d = 0; d < 3; d++)
      json_array_append_new(lc, json_integer((json_int_t)c->local[d]));
    json_object_set_new(e, "local", lc);
    json_object_set_new(e, "time_us", json_real(c->sim.time_us));
    json_object_set_new(e, "occupancy_warps", json_integer(c->sim.active_warps_per_sm));
    json_object_set_new(e, "limiter", json_string(limiter_of(&c->sim)));
    json_object_set_new(e, "rounds", json_real(c->rounds));
    if (outside && outside[i])
      json_object_set_new(e, "outside", json_true());
    json_array_append_new(rank, e);
  }
  json_object_set_new(j, "ranking", rank);
  json_object_set_new(j, "wall_ms", json_real(wall));
  json_object_set_new(j, "extract_ms", json_real(t_extract));
  json_t *ph = json_object();
  json_object_set_new(ph, "enumeration", json_real(n.enumeration_ms));
  json_object_set_new(ph, "search", json_real(n.search_ms));
  json_object_set_new(ph, "exhaustive", json_real(n.exhaustive_ms));
  json_object_set_new(j, "phases_ms", ph);
  const char *attr = wgp_kernel_launch_attribute(k);
  json_object_set_new(j, "launch_attribute", attr ? json_string(attr) : json_null());
  json_t *bad = json_array();
  for (size_t i = 0; i < wgp_prune_num_candidates(p); i++) {
    const wgp_prune_candidate *c = wgp_prune_candidate_at(p, i);
    if (c->stage != WGP_PRUNE_INVALID)
      continue;
    json_t *e = json_object(), *lc = json_array();
    for (int d = 0; d < 3; d++)
      json_array_append_new(lc, json_integer((json_int_t)c->local[d]));
    json_object_set_new(e, "local", lc);
    json_object_set_new(e, "why", json_string(c->why));
    json_array_append_new(bad, e);
  }
  json_object_set_new(j, "cannot_run", bad);
  char *text = json_dumps(j, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(8));
  printf("%s\n", text ? text : "");
  free(text);
  json_decref(j);
}

static void print_csv(const wgp_prune *p) {
  wgp_prune_counts n;
  wgp_prune_get_counts(p, &n);
  printf("rank,local_x,local_y,local_z,time_us,active_warps_per_sm,limiter,rounds,exact\n");
  for (size_t i = 0; i < wgp_prune_num_ranked(p); i++) {
    const wgp_prune_candidate *c = wgp_prune_candidate_at(p, wgp_prune_ranked(p, i));
    printf("%zu,%llu,%llu,%llu,%.6g,%u,%s,%.6g,%d\n", i + 1, (unsigned long long)c->local[0],
           (unsigned long long)c->local[1], (unsigned long long)c->local[2], c->sim.time_us,
           c->sim.active_warps_per_sm, limiter_of(&c->sim), c->rounds, i < n.exact_ranks);
  }
}

/* TOP: the rows to print (0: all); TOP_GIVEN: --top asked for them exact. */
static void print_table(const wgp_prune *p, const wgp_kernel *k, const wgp_gpu *gpu, bool exhaustive,
                        bool user_restricted, size_t top, bool top_given, double wall, double t_extract) {
  wgp_prune_counts n;
  wgp_prune_get_counts(p, &n);
  unsigned dims = wgp_prune_dims(p);
  double pruned = pruned_percent(&n);
  printf("kernel %s on %s, %u registers per thread\n", wgp_kernel_name(k), wgp_gpu_name(gpu), wgp_prune_registers(p));
  const char *attr = wgp_kernel_launch_attribute(k);
  uint64_t reqd[3];
  if (wgp_kernel_reqd_work_group_size(k, reqd))
    printf("restricted to %llux%llux%llu by the kernel's %s\n", (unsigned long long)reqd[0],
           (unsigned long long)reqd[1], (unsigned long long)reqd[2], attr);
  else if (wgp_kernel_max_threads_per_block(k))
    printf("restricted to at most %llu work-items per group by the kernel's %s\n",
           (unsigned long long)wgp_kernel_max_threads_per_block(k), attr);
  bool by_attr = wgp_kernel_reqd_work_group_size(k, reqd) || wgp_kernel_max_threads_per_block(k);
  printf("candidates %zu (%zu can run", n.total, n.valid);
  if (n.restricted)
    printf("; %zu more excluded by %s%s%s", n.restricted, user_restricted ? "--restrict" : "",
           user_restricted && by_attr ? " and " : "", by_attr ? attr : "");
  printf("), after duplicate traces %zu", n.after_duplicates);
  if (n.idle_lanes)
    printf(" (%zu with idle lanes left to the size filling their warps)", n.idle_lanes);
  printf(", after bounds %zu: %.1f%% pruned%s\n", n.after_bounds, pruned,
         exhaustive ? " (--exhaustive: all simulated)" : "");
  /* the sizes that cannot run, and why (the first few) */
  size_t ninvalid = 0;
  for (size_t i = 0; i < wgp_prune_num_candidates(p); i++) {
    const wgp_prune_candidate *c = wgp_prune_candidate_at(p, i);
    if (c->stage != WGP_PRUNE_INVALID)
      continue;
    if (ninvalid++ < 3) {
      char sz[64];
      size_str(sz, sizeof sz, c->local, dims);
      printf("cannot run %s: %s\n", sz, c->why);
    }
  }
  if (ninvalid > 3)
    printf("cannot run %zu more sizes (--json lists them all)\n", ninvalid - 3);
  printf("%4s  %-14s %12s %10s %-14s %7s\n", "rank", "work-group", "time (us)", "warps/SM", "limiter", "rounds");
  size_t nr = wgp_prune_num_ranked(p), nc = wgp_prune_num_candidates(p);
  for (size_t i = 0; i < nr && i < (top ? top : nr); i++) {
    size_t me = wgp_prune_ranked(p, i);
    const wgp_prune_candidate *c = wgp_prune_candidate_at(p, me);
    char sz[64];
    size_str(sz, sizeof sz, c->local, dims);
    printf("%4zu  %-14s %12.4g %10u %-14s %7.4g", i + 1, sz, c->sim.time_us, c->sim.active_warps_per_sm,
           limiter_of(&c->sim), c->rounds);
    /* the sizes its batch stands for (the same rounds), but those simulated
     * for a tie (ranked on their own) */
    int shown = 0;
    for (size_t q = 0; q < nc; q++) {
      const wgp_prune_candidate *o = wgp_prune_candidate_at(p, q);
      if (o->stage == WGP_PRUNE_DUPLICATE && o->rep == me && !o->simulated) {
        char other[64];
        size_str(other, sizeof other, o->local, dims);
        printf("%s%s", shown++ ? ", " : "  same traces: ", other);
        if (shown == 6) {
          printf(", ...");
          break;
        }
      }
    }
    printf("\n");
  }
  size_t shown = top && top < nr ? top : nr;
  if (!exhaustive && n.idle_lanes)
    printf("rank 1 is the predicted fastest of the sizes searched: %zu sizes whose last warp has idle lanes were left "
           "to the size that fills the same warps, as eq. 10 ranks them (--partial-warps searches them as well, "
           "--exhaustive simulates every size)\n",
           n.idle_lanes);
  else if (!exhaustive && top_given && n.exact_ranks > 1)
    printf("ranks 1 to %zu are the %zu predicted fastest of all sizes that can run, in the order --exhaustive ranks "
           "them%s\n",
           n.exact_ranks, n.exact_ranks,
           nr > shown ? "; the search simulated more on its way (--json and --csv list them)" : "");
  else if (!exhaustive && top_given && nr)
    printf("rank 1 is the predicted fastest of all sizes that can run, as --exhaustive ranks it%s\n",
           nr > shown ? "; the search simulated more on its way (--json and --csv list them)" : "");
  else if (!exhaustive && nr > 1)
    printf("rank 1 is the predicted fastest of all sizes that can run; the others are the sizes the search simulated on "
           "its way, in order: a size it pruned may fall between them (--exhaustive ranks every size, --top N the first "
           "N exactly)\n");
  /* sizes predicted exactly as fast as the first: why the first is first */
  size_t tied = 1;
  if (nr > 1) {
    double t0 = wgp_prune_candidate_at(p, wgp_prune_ranked(p, 0))->sim.time_us;
    while (tied < nr && wgp_prune_candidate_at(p, wgp_prune_ranked(p, tied))->sim.time_us == t0)
      tied++;
  }
  if (tied > 1)
    printf("ranks 1 %s %zu are predicted exactly as fast (limited by %s): a tie goes to the smaller work-group (then "
           "the first enumerated), which measured as fast or faster where the model ties them (docs/wgprune.md)\n",
           tied == 2 ? "and" : "to", tied, wgp_prune_candidate_at(p, wgp_prune_ranked(p, 0))->sim.bound);
  printf("wall time %.0f ms (extraction %.0f ms)\n", wall, t_extract);
}

/* ---- --study: the pruned search against the exhaustive one ---------------- */

/* The fastest simulated candidate of P, or SIZE_MAX. */
static size_t best_of(const wgp_prune *p) { return wgp_prune_num_ranked(p) ? wgp_prune_ranked(p, 0) : SIZE_MAX; }

static const char *stage_name(wgp_prune_stage s) {
  switch (s) {
  case WGP_PRUNE_INVALID: return "invalid";
  case WGP_PRUNE_DUPLICATE: return "stage 1 (same traces)";
  case WGP_PRUNE_BOUND: return "stage 2 (bounds)";
  case WGP_PRUNE_IDLE_LANES: return "stage 1 (idle lanes)";
  default: return "survivor";
  }
}

/* Whether the first TOP ranks of PR are those of EX (TOP: 0 for all of
 * EX's): "yes" the same sizes in the same order, "tie" where they differ
 * only by sizes predicted exactly as fast, else "NO"; *AT the first rank
 * (from 1) that differs, 0 where none does. */
static const char *top_agreement(const wgp_prune *pr, const wgp_prune *ex, size_t top, size_t *at) {
  size_t ne = wgp_prune_num_ranked(ex), n = top && top < ne ? top : ne;
  bool tie = false;
  *at = 0;
  for (size_t r = 0; r < n; r++) {
    size_t ip = r < wgp_prune_num_ranked(pr) ? wgp_prune_ranked(pr, r) : SIZE_MAX, ie = wgp_prune_ranked(ex, r);
    if (ip == ie)
      continue;
    if (!*at)
      *at = r + 1;
    /* the pruned search's size as the exhaustive search simulated it */
    const wgp_prune_candidate *cp = ip == SIZE_MAX ? NULL : wgp_prune_candidate_at(ex, ip);
    if (!cp || !cp->simulated || cp->sim.time_us != wgp_prune_candidate_at(ex, ie)->sim.time_us)
      return "NO";
    tie = true;
  }
  return tie ? "tie" : "yes";
}

/* TOP_GIVEN: PR ran with --top TOP, and the line says whether its first TOP
 * ranks are the exhaustive search's. */
static int study(const wgp_prune *pr, const wgp_prune *ex, double pruned_ms, double exhaustive_ms, bool json,
                 const wgp_kernel *k, const wgp_gpu *gpu, bool top_given, size_t top) {
  wgp_prune_counts n;
  wgp_prune_get_counts(pr, &n);
  unsigned dims = wgp_prune_dims(pr);
  size_t bp = best_of(pr), be = best_of(ex);
  if (bp == SIZE_MAX || be == SIZE_MAX)
    return input_error("%s: nothing was simulated", wgp_kernel_name(k));
  const wgp_prune_candidate *cp = wgp_prune_candidate_at(pr, bp), *ce = wgp_prune_candidate_at(ex, be);
  /* the pruned search's choice as the exhaustive search simulated it */
  const wgp_prune_candidate *cpe = wgp_prune_candidate_at(ex, bp);
  bool match = bp == be;
  double ratio = cpe->simulated ? cpe->sim.time_us / ce->sim.time_us : NAN;
  /* ties: another size predicted exactly as fast is as good a choice */
  bool tie = !match && ratio == 1.0;
  const char *dropped = match ? "" : stage_name(wgp_prune_candidate_at(pr, be)->stage);
  double pct = pruned_percent(&n);
  char sp[64], se[64];
  size_str(sp, sizeof sp, cp->local, dims);
  size_str(se, sizeof se, ce->local, dims);
  size_t top_at = 0;
  const char *top_m = top_given ? top_agreement(pr, ex, top, &top_at) : NULL;
  char top_col[32] = "";
  if (top_given && top)
    snprintf(top_col, sizeof top_col, "top%zu", top);
  else if (top_given)
    snprintf(top_col, sizeof top_col, "all");
  if (json) {
    json_t *j = counts_json(k, gpu, &n);
    json_object_set_new(j, "pruned_percent", json_real(pct));
    json_object_set_new(j, "best_pruned", json_string(sp));
    json_object_set_new(j, "best_exhaustive", json_string(se));
    json_object_set_new(j, "match", json_boolean(match || tie));
    json_object_set_new(j, "time_ratio", json_real(ratio));
    json_object_set_new(j, "exhaustive_best_dropped_by", json_string(dropped));
    json_object_set_new(j, "pruned_wall_ms", json_real(pruned_ms));
    json_object_set_new(j, "exhaustive_wall_ms", json_real(exhaustive_ms));
    if (top_given) {
      json_object_set_new(j, "top", json_integer((json_int_t)(top ? top : wgp_prune_num_ranked(ex))));
      json_object_set_new(j, "exact_ranks", json_integer((json_int_t)n.exact_ranks));
      json_object_set_new(j, "top_match", json_boolean(strcmp(top_m, "NO") != 0));
      json_object_set_new(j, "top_first_difference", top_at ? json_integer((json_int_t)top_at) : json_null());
    }
    const char *attr = wgp_kernel_launch_attribute(k);
    json_object_set_new(j, "launch_attribute", attr ? json_string(attr) : json_null());
    char *text = json_dumps(j, JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(8));
    printf("%s\n", text ? text : "");
    free(text);
    json_decref(j);
  } else {
    printf("%-28s %10s %6s %7s %7s %7s  %-12s %-12s %-5s %7s %9s %9s", "kernel", "candidates", "valid", "stage1",
           "stage2", "pruned", "best", "exhaustive", "match", "ratio", "pruned_ms", "exh_ms");
    printf(top_given ? " %6s\n" : "\n", top_col);
    printf("%-28s %10zu %6zu %7zu %7zu %6.1f%%  %-12s %-12s %-5s %7.4f %9.0f %9.0f", wgp_kernel_name(k), n.total,
           n.valid, n.after_duplicates, n.after_bounds, pct, sp, se, match ? "yes" : tie ? "tie" : "NO", ratio,
           pruned_ms, exhaustive_ms);
    if (top_given)
      printf(" %6s", top_m);
    printf("%s%s", match || tie ? "" : "  exhaustive best dropped by ", match || tie ? "" : dropped);
    if (top_given && strcmp(top_m, "NO") == 0)
      printf("  first differs at rank %zu", top_at);
    printf("\n");
  }
  return EXIT_OK;
}

/* ---- progress on a terminal ------------------------------------------------- */

static void progress(void *user, const char *phase, size_t done, size_t total) {
  (void)user;
  fprintf(stderr, "\rwgprune: %s %zu/%zu sizes   ", phase, done, total);
}

static const char usage_text[] =
    "usage: wgprune INPUT --global X[,Y[,Z]] | --grid X[,Y[,Z]] [--kernel NAME] [--arg NAME=V]\n"
    "               [--buffer NAME=BYTES[@ALIGN]] [--local-arg NAME=EXPR] [--local-mem NAME=BYTES]\n"
    "               [--restrict COND]... [--nonuniform] [--partial-warps] [--gpu NAME|FILE]\n"
    "               [--regs N] [--trip L<n>=COUNT] [--taken B<n>=FRACTION] [--cold-l2]\n"
    "               [--exhaustive] [--study] [--top N] [--json | --csv] [--plot FILE.svg]\n"
    "               [--emit-kernel-tuner FILE.json] [--jobs N] [-O N] [-DNAME=V] [-IDIR] [--no-cache]\n"
    "               [-- CLANG-FLAGS]\n"
    "       wgprune --help (-h)\n";

static const char help_text[] =
    "  INPUT is a kernel model (.json) or a .cl/.cu/.bc/.ll file; EXPR uses lx, ly, lz,\n"
    "  integers, + - * / % and parentheses, e.g. --local-arg tile=4*lx*ly\n"
    "  -DNAME[=VALUE], -UNAME, -IDIR: preprocessor flags for a .cl/.cu source, as for nvcc or clang;\n"
    "  -O N (-ON): the level it is compiled at (default 3); --no-cache: compile it even when the\n"
    "  model cache ($WGPERF_CACHE_DIR, else ~/.cache/wgperf/models; empty: none) holds its model\n"
    "  every __local argument and extern __shared__ array needs a size: --local-arg NAME=EXPR (an\n"
    "  expression of the work-group size) or --local-mem NAME=BYTES (the same for every size)\n"
    "  --global: the work-items, fixed (sizes whose extents divide it); --grid: the work-groups, fixed\n"
    "  (a kernel with a group per row: each size's global size is grid x size; the sizes tried are\n"
    "  the powers of two and, in x, the multiples of the warp size)\n"
    "  --arg: an integer argument takes an integer (1e6 and 2.5e3 are taken as the integers they are)\n"
    "  --gpu: a file name, product name or alias, without regard to case, '-', '_' or spaces (h100,\n"
    "  a100, gtx980), or a description file\n"
    "  the kernel's reqd_work_group_size or __launch_bounds__ restrict the sizes searched, as the\n"
    "  GPU's limits do (65535 work-groups in y and z: sizes past them cannot run)\n"
    "  --restrict COND: search only the sizes for which COND holds (every --restrict given), an\n"
    "  EXPR with == != < <= > >= && || !, e.g. --restrict 'lx == 16 && ly == 16' for a kernel\n"
    "  written for 16x16 tiles, --restrict 'lx * ly % 64 == 0'\n"
    "  --jobs N (-j N): search threads (default: the CPUs this process may use); the result is\n"
    "  the same for any N\n"
    "  --partial-warps: search the 1-D sizes whose last warp has idle lanes (684 of 704) as any other;\n"
    "  without it, with --nonuniform and without --top, such a size is left to the size filling the\n"
    "  same warps when that one can run with the same residency and the kernel's branches and loops\n"
    "  read threadIdx.x only through the global id (stage 1: eq. 10 ranks it no faster)\n"
    "  --top N: the first N ranks are exact, the N predicted fastest sizes in the order --exhaustive\n"
    "  ranks them (0: every size; without --top only rank 1 is, and the table shows 10 rows);\n"
    "  --emit-kernel-tuner then writes those N\n"
    "  --study runs the pruned and the exhaustive search and prints one line: candidates, after\n"
    "  stage 1, after stage 2, pruned %, both best sizes, whether they match, the time ratio, wall ms\n"
    "  (with --top N also whether the first N ranks match)\n";

/* Every __local argument and dynamic shared array (CUDA's extern
 * __shared__) of K needs a size, from --local-arg (an expression of the
 * work-group size) or --local-mem (fixed), and every scalar argument an
 * address, branch or loop count reads a value (--arg): one error that names
 * all that are missing, and for a missing size both ways to give it. */
static int check_local_sizes(const wgp_kernel *k, const wgp_launch *l, const char *const *names, size_t nnames) {
  size_t na = wgp_kernel_num_args(k), nd = wgp_kernel_num_arrays(k), n = 0;
  char list[1024] = "", one[640] = "";
  for (size_t i = 0; i < na + nd; i++) {
    const char *name;
    bool dynamic = i >= na, scalar = false;
    if (!dynamic) {
      const wgp_arg *a = wgp_kernel_arg(k, i);
      name = wgp_arg_name(a);
      scalar = wgp_arg_get_kind(a) == WGP_ARG_SCALAR;
      if (scalar) {
        bool given = false;
        for (size_t j = 0; j < wgp_launch_num_args(l) && !given; j++) {
          int64_t v;
          given = strcmp(wgp_launch_arg(l, j, &v), name) == 0;
        }
        if (given || !wgp_kernel_uses_arg(k, name))
          continue;
      } else if (wgp_arg_space(a) != WGP_SPACE_LOCAL) {
        continue;
      }
    } else {
      const wgp_array *a = wgp_kernel_array(k, i - na);
      if (wgp_array_space(a) != WGP_SPACE_LOCAL || wgp_array_bytes(a) != 0)
        continue;
      name = wgp_array_short_name(a);
    }
    bool given = false;
    for (size_t j = 0; j < nnames && !given && !scalar; j++)
      given = strcmp(names[j], name) == 0;
    for (size_t j = 0; j < wgp_launch_num_local_mem(l) && !given && !scalar; j++) {
      uint64_t bytes;
      given = strcmp(wgp_launch_local_mem(l, j, &bytes), name) == 0;
    }
    if (given)
      continue;
    size_t len = strlen(list);
    snprintf(list + len, sizeof list - len, "%s%s%s%s", len ? ", " : "", scalar ? "--arg " : "--local-arg ", name,
             scalar ? "=VALUE" : "=EXPR");
    if (n++)
      continue;
    if (scalar)
      snprintf(one, sizeof one, "kernel '%s' needs a value for its argument '%s' (--arg %s=VALUE)", wgp_kernel_name(k),
               name, name);
    else if (dynamic)
      snprintf(one, sizeof one,
               "kernel '%s' uses the dynamic shared array '%s' (extern __shared__, the third <<<>>> launch "
               "parameter): give its size as an expression of the block size, --local-arg %s=EXPR (e.g. "
               "%s=4*lx*ly*lz for a float per thread), or as a fixed size, --local-mem %s=BYTES",
               wgp_kernel_name(k), name, name, name, name);
    else
      snprintf(one, sizeof one,
               "argument '%s' of kernel '%s' is a __local pointer: give its size as an expression of the "
               "work-group size, --local-arg %s=EXPR (e.g. %s=4*lx*ly*lz for a float per work-item), or as "
               "a fixed size, --local-mem %s=BYTES",
               name, wgp_kernel_name(k), name, name, name);
  }
  if (n == 1)
    return input_error("%s", one);
  if (n > 1)
    return input_error("kernel '%s' needs %zu launch inputs that were not given: %s (a size of a __local pointer "
                       "argument or dynamic shared array as an expression of the work-group size, e.g. 4*lx*ly*lz "
                       "for a float per work-item, or --local-mem NAME=BYTES for a fixed one)",
                       wgp_kernel_name(k), n, list);
  return EXIT_OK;
}

/* The sizes K's launch attributes allow, as conditions added to R (after
 * its *N): reqd_work_group_size(X, Y, Z) the one size, __launch_bounds__(MAXT)
 * at most MAXT work-items.  A required size the global size cannot take is
 * an error. */
static int attribute_restrictions(const wgp_kernel *k, const wgp_launch *l, bool fixed_grid, const wgp_gpu *gpu,
                                  char cond[2][128], const char **r, size_t *n) {
  uint64_t reqd[3];
  if (wgp_kernel_reqd_work_group_size(k, reqd)) {
    const uint64_t lim[3] = {wgp_gpu_max_block_dim_x(gpu), wgp_gpu_max_block_dim_y(gpu), wgp_gpu_max_block_dim_z(gpu)};
    if (reqd[0] > lim[0] || reqd[1] > lim[1] || reqd[2] > lim[2] ||
        (double)reqd[0] * (double)reqd[1] * (double)reqd[2] > wgp_gpu_max_threads_per_block(gpu))
      return input_error("kernel '%s' requires work-groups of %llux%llux%llu (%s), larger than %s allows (%u "
                         "work-items, %llux%llux%llu)",
                         wgp_kernel_name(k), (unsigned long long)reqd[0], (unsigned long long)reqd[1],
                         (unsigned long long)reqd[2], wgp_kernel_launch_attribute(k), wgp_gpu_name(gpu),
                         wgp_gpu_max_threads_per_block(gpu), (unsigned long long)lim[0], (unsigned long long)lim[1],
                         (unsigned long long)lim[2]);
    for (unsigned d = 0; d < 3 && !fixed_grid; d++) { /* a fixed grid takes any size */
      uint64_t g = d < wgp_launch_dims(l) ? wgp_launch_global(l, d) : 1;
      if (reqd[d] > g || (!wgp_launch_nonuniform(l) && g % reqd[d]))
        return input_error("kernel '%s' requires work-groups of %llux%llux%llu (%s), which the global size %llu in "
                           "dimension %c cannot take%s: no work-group size to search",
                           wgp_kernel_name(k), (unsigned long long)reqd[0], (unsigned long long)reqd[1],
                           (unsigned long long)reqd[2], wgp_kernel_launch_attribute(k), (unsigned long long)g,
                           "xyz"[d],
                           reqd[d] > g ? "" : " (not a multiple; --nonuniform allows a smaller last group)");
    }
    snprintf(cond[0], sizeof cond[0], "lx == %llu && ly == %llu && lz == %llu", (unsigned long long)reqd[0],
             (unsigned long long)reqd[1], (unsigned long long)reqd[2]);
    r[(*n)++] = cond[0];
  }
  if (wgp_kernel_max_threads_per_block(k)) {
    snprintf(cond[1], sizeof cond[1], "lx * ly * lz <= %llu", (unsigned long long)wgp_kernel_max_threads_per_block(k));
    r[(*n)++] = cond[1];
  }
  return EXIT_OK;
}

/* Whether to tell a CUDA programmer about --nonuniform: a CUDA kernel
 * searched under OpenCL's uniform rule (every extent divides the global
 * size) where the rule leaves sizes out that the device could run.  CUDA
 * launches ceil(N / blockDim) blocks behind a bounds check. */
static bool suggest_nonuniform(const wgp_kernel *k, const wgp_launch *l, bool fixed_grid, const wgp_gpu *gpu) {
  uint64_t reqd[3];
  if (wgp_kernel_language(k) != WGP_LANG_CUDA || fixed_grid || wgp_launch_nonuniform(l) ||
      wgp_kernel_reqd_work_group_size(k, reqd))
    return false;
  const uint64_t lim[3] = {wgp_gpu_max_block_dim_x(gpu), wgp_gpu_max_block_dim_y(gpu), wgp_gpu_max_block_dim_z(gpu)};
  for (unsigned d = 0; d < wgp_launch_dims(l); d++) {
    uint64_t g = wgp_launch_global(l, d), top = g < lim[d] ? g : lim[d];
    if (top > wgp_gpu_max_threads_per_block(gpu))
      top = wgp_gpu_max_threads_per_block(gpu);
    for (uint64_t x = 2; x <= top; x++)
      if (g % x)
        return true;
  }
  return false;
}

/* The group id, local id and local size of dimension D as the kernel's
 * language spells them (blockIdx.x, threadIdx.x, blockDim.x; get_group_id(0),
 * ...), into buffers of 32 bytes. */
static void id_names(bool cuda, unsigned d, char *grp, char *lid, char *lsz) {
  if (cuda) {
    snprintf(grp, 32, "blockIdx.%c", "xyz"[d]);
    snprintf(lid, 32, "threadIdx.%c", "xyz"[d]);
    snprintf(lsz, 32, "blockDim.%c", "xyz"[d]);
  } else {
    snprintf(grp, 32, "get_group_id(%u)", d);
    snprintf(lid, 32, "get_local_id(%u)", d);
    snprintf(lsz, 32, "get_local_size(%u)", d);
  }
}

/* A kernel that combines the group id and the local id of a dimension but
 * never reads the work-group size there (blockIdx.x * 256 + threadIdx.x, a
 * tile of TILE x TILE) is written for one size, a macro or template parameter:
 * at the others it does other work (less of the data, a wrong tile), which
 * its predicted times do not know.  Says so on stderr, once, naming an access
 * that combines the two where one does; nothing when --restrict was given, the
 * kernel fixes its size itself, or an unmodelled call could read the size. */
static void note_fixed_size(const wgp_kernel *k, unsigned dims, size_t user_restrictions, size_t valid) {
  uint64_t reqd[3];
  if (user_restrictions || valid < 2 || wgp_kernel_reqd_work_group_size(k, reqd) || wgp_kernel_num_calls(k))
    return;
  bool cuda = wgp_kernel_language(k) == WGP_LANG_CUDA;
  for (unsigned d = 0; d < dims && d < 3; d++) {
    if (!wgp_kernel_reads_sym(k, WGP_SYM_GRP, d) || !wgp_kernel_reads_sym(k, WGP_SYM_LID, d) ||
        wgp_kernel_reads_sym(k, WGP_SYM_LSZ, d) || wgp_kernel_reads_sym(k, WGP_SYM_GID, d) ||
        wgp_kernel_reads_sym(k, WGP_SYM_GSZ, d))
      continue;
    char grp[32], lid[32], lsz[32], where[160] = "";
    id_names(cuda, d, grp, lid, lsz);
    for (size_t i = 0; i < wgp_kernel_num_accesses(k); i++) {
      const wgp_access *a = wgp_kernel_access(k, i);
      const wgp_expr *off = wgp_access_offset(a);
      if (wgp_expr_reads_sym(off, WGP_SYM_GRP, d) && wgp_expr_reads_sym(off, WGP_SYM_LID, d)) {
        snprintf(where, sizeof where, " (M%zu%s%s combines them)", i, wgp_access_source(a) ? " at " : "",
                 wgp_access_source(a) ? wgp_access_source(a) : "");
        break;
      }
    }
    fprintf(stderr,
            "wgprune: note: kernel '%s' combines %s with %s but never reads %s%s: it is probably written for one "
            "work-group size (a macro or template parameter as its block size); at the other sizes it does other "
            "work (part of the data, a wrong tile), and their times are those of that work; --restrict 'l%c == N', "
            "N the size it is written for, ranks only that size\n",
            wgp_kernel_name(k), grp, lid, lsz, where, "xyz"[d]);
    return;
  }
}

/* Whether wgprune's own option A takes a value. */
static bool takes_value(const char *a) {
  static const char *const with[] = {"--kernel",   "--gpu",  "--top",  "--jobs", "-j",   "--regs",
                                     "--local-arg", "--restrict", "--trip", "--taken", "--plot", "--emit-kernel-tuner"};
  for (size_t i = 0; i < sizeof with / sizeof *with; i++)
    if (strcmp(a, with[i]) == 0)
      return true;
  return false;
}

static int usage(void) {
  fprintf(stderr, "%s%s", usage_text, help_text);
  return EXIT_USAGE;
}

int main(int argc, char **argv) {
  wgp_tune_allocator();
  cli_prog = cli_command = "wgprune";
  double t0 = now_ms();
  const char *input = NULL, *kname = NULL, *gname = "h100-sxm";
  /* the --restrict conditions, then those of the kernel's launch attributes */
  const char *local_names[MAX_LOCAL_ARGS], *local_exprs[MAX_LOCAL_ARGS], *restrictions[MAX_RESTRICTIONS + 2];
  char attr_cond[2][128];
  size_t nlocal = 0, nrestrict = 0, top = 10; /* rows of the table; exact ranks with --top */
  cli_hints hints = {0};
  bool json = false, csv = false, exhaustive = false, do_study = false, cold = false, top_given = false,
       partial_warps = false;
  bool fixed_grid = false, sized = false; /* --grid / --global seen */
  const char *plot_file = NULL, *kt_file = NULL, *olevel = NULL;
  unsigned regs_opt = 0, jobs = 0;
  cli_flags flags = {0}; /* for a .cl/.cu input */
  int took;
  wgp_diag d;
  /* --help anywhere before '--' (which starts clang's flags) */
  for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      printf("%s%s", usage_text, help_text);
      return EXIT_OK;
    }
  wgp_launch *l = wgp_launch_new();
  if (!l)
    return input_error("out of memory");
  int rc = EXIT_OK;
  for (int i = 1; i < argc && rc == EXIT_OK; i++) {
    const char *a = argv[i];
    bool val;
    if (strcmp(a, "--") == 0) {
      if (cli_source_flags_rest(argc, argv, i + 1, &flags))
        rc = input_error("out of memory");
      break;
    }
    if ((took = cli_source_flag(argc, argv, i, &flags)) != 0) {
      if (took < 0)
        rc = usage_error("'%s' needs a value (-DNAME[=VALUE], -UNAME or -IDIR)", a);
      else
        i += took - 1;
    } else if (cli_cache_option(a, &flags)) {
    } else if (strcmp(a, "--local") == 0 || strcmp(a, "--block") == 0) {
      rc = usage_error("wgprune chooses the work-group size: no %s", a);
    } else if (strcmp(a, "--offset") == 0) {
      rc = usage_error("wgprune searches launches without a global offset: no --offset");
    } else if (strcmp(a, "--grid") == 0 || strcmp(a, "--global") == 0) {
      /* --grid: the work-groups are fixed and each size's global size is
       * grid x size; the launch template holds the grid as its global size */
      if (i + 1 == argc)
        rc = usage_error("'%s' needs a value", a);
      else if (fixed_grid || sized)
        rc = usage_error("give the global size (--global, every size dividing it) or the grid (--grid, a fixed "
                         "number of work-groups), once");
      else if (wgp_launch_set_option(l, "--global", argv[++i], &d) != WGP_OK)
        /* the message names --global, which holds the grid here */
        rc = usage_error("%s%s", a, d.message + strlen("wgperf: error: --global"));
      fixed_grid = fixed_grid || strcmp(a, "--grid") == 0;
      sized = true;
    } else if (wgp_launch_is_option(a, &val)) {
      if (val && i + 1 == argc)
        rc = usage_error("'%s' needs a value", a);
      else if (wgp_launch_set_option(l, a, val ? argv[++i] : NULL, &d) != WGP_OK)
        rc = usage_error("%s", d.message + strlen("wgperf: error: "));
    } else if (i + 1 == argc && takes_value(a)) {
      rc = usage_error("'%s' needs a value", a);
    } else if (strncmp(a, "-O", 2) == 0) {
      /* -O N or -ON: the level a .cl/.cu source is compiled at */
      if (!a[2] && i + 1 == argc)
        rc = usage_error("'-O' needs a level (0, 1, 2, 3, s or z)");
      else if (!cli_olevel_ok(olevel = a[2] ? a + 2 : argv[++i]))
        rc = usage_error("bad optimization level '%s' (0, 1, 2, 3, s or z)", olevel);
    } else if (i + 1 < argc && strcmp(a, "--kernel") == 0) {
      kname = argv[++i];
    } else if (i + 1 < argc && strcmp(a, "--gpu") == 0) {
      gname = argv[++i];
    } else if (i + 1 < argc && strcmp(a, "--top") == 0) {
      const char *v = argv[++i];
      char *end;
      top = strtoul(v, &end, 10);
      top_given = true;
      if (!*v || *end || v[0] == '-')
        rc = usage_error("--top '%s': expected a number of sizes (0: all)", v);
    } else if (i + 1 < argc && (strcmp(a, "--jobs") == 0 || strcmp(a, "-j") == 0)) {
      const char *v = argv[++i];
      if (parse_jobs(v, &jobs))
        rc = usage_error("%s '%s': expected a number of threads, 1 to %u", a, v, WGP_MAX_THREADS);
    } else if (i + 1 < argc && strcmp(a, "--regs") == 0) {
      const char *v = argv[++i];
      char *end;
      unsigned long r = strtoul(v, &end, 10);
      if (!*v || *end || r == 0 || r > 1024)
        rc = usage_error("--regs '%s': expected registers per thread, 1 to 1024", v);
      else
        regs_opt = (unsigned)r;
    } else if (i + 1 < argc && strcmp(a, "--local-arg") == 0) {
      const char *v = argv[++i], *eq = strchr(v, '=');
      uint64_t probe[3] = {1, 1, 1}, x;
      if (!eq || eq == v || nlocal == MAX_LOCAL_ARGS) {
        rc = usage_error("--local-arg '%s': expected NAME=EXPR", v);
      } else if (!wgp_size_expr_eval(eq + 1, probe, &x)) {
        rc = usage_error("--local-arg '%s': bad expression (use lx, ly, lz, integers, + - * / %% and parentheses)",
                         v);
      } else {
        local_names[nlocal] = strndup(v, (size_t)(eq - v));
        local_exprs[nlocal++] = eq + 1;
      }
    } else if (i + 1 < argc && strcmp(a, "--restrict") == 0) {
      const char *v = argv[++i];
      if (nrestrict == MAX_RESTRICTIONS)
        rc = usage_error("--restrict: at most %d conditions (join them with &&)", MAX_RESTRICTIONS);
      else if (!wgp_size_expr_valid(v))
        rc = usage_error("--restrict '%s': bad condition (use lx, ly, lz, integers, + - * / %% ( ), "
                         "== != < <= > >=, && || !)",
                         v);
      else
        restrictions[nrestrict++] = v;
    } else if (i + 1 < argc && (strcmp(a, "--trip") == 0 || strcmp(a, "--taken") == 0)) {
      rc = cli_hint_option(a, argv[++i], &hints, true);
    } else if (strcmp(a, "--cold-l2") == 0) {
      cold = true;
    } else if (strcmp(a, "--json") == 0) {
      json = true;
    } else if (strcmp(a, "--csv") == 0) {
      csv = true;
    } else if (i + 1 < argc && strcmp(a, "--plot") == 0) {
      plot_file = argv[++i];
    } else if (i + 1 < argc && strcmp(a, "--emit-kernel-tuner") == 0) {
      kt_file = argv[++i];
    } else if (strcmp(a, "--exhaustive") == 0) {
      exhaustive = true;
    } else if (strcmp(a, "--study") == 0) {
      do_study = true;
    } else if (strcmp(a, "--partial-warps") == 0) {
      partial_warps = true;
    } else if (a[0] == '-') {
      rc = usage_error("unknown option '%s'", a);
    } else if (input) {
      rc = usage_error("one input only, got '%s' and '%s'", input, a);
    } else {
      input = a;
    }
  }
  if (rc == EXIT_OK && !input)
    rc = usage();
  if (rc == EXIT_OK && wgp_launch_dims(l) == 0)
    rc = usage_error("give the global size with --global X[,Y[,Z]] (or the number of work-groups with --grid)");
  if (rc == EXIT_OK)
    rc = cli_source_flags_check(input, &flags);
  if (rc == EXIT_OK && olevel && strlen(input) > 5 && strcmp(input + strlen(input) - 5, ".json") == 0)
    rc = usage_error("%s: -O%s applies to .cl, .cu and IR inputs, not to a kernel model", input, olevel);
  if (rc != EXIT_OK) {
    for (size_t i = 0; i < nlocal; i++)
      free((void *)local_names[i]);
    wgp_launch_free(l);
    free(flags.v);
    cli_hints_free(&hints);
    return rc;
  }
  /* the model */
  char tmpl[PATH_MAX];
  const char *model_path = input;
  bool made = false;
  size_t n = strlen(input);
  if (!(n > 5 && strcmp(input + n - 5, ".json") == 0)) {
    wgp_source_kind kind = wgp_source_kind_of(input);
    if (kind == WGP_SOURCE_UNKNOWN)
      rc = usage_error("%s: unknown input kind (expected .json, .cl, .cu, .bc or .ll)", input);
    int fd = rc == EXIT_OK && wgp_temp_template(tmpl, sizeof tmpl, "wgprune", ".json") ? mkstemps(tmpl, 5) : -1;
    if (rc == EXIT_OK && fd < 0)
      rc = input_error("cannot make a temporary file: %s", strerror(errno));
    if (rc == EXIT_OK) {
      close(fd);
      made = true;
      rc = cli_flags_add_gpu(&flags, gname);
      if (rc == EXIT_OK)
        rc = cli_extract(input, kind, olevel, &flags, kname, tmpl);
      model_path = tmpl;
    }
  }
  double t_extract = now_ms() - t0;
  wgp_model *m = NULL;
  wgp_gpu *gpu = NULL;
  const wgp_kernel *k = NULL;
  if (rc == EXIT_OK && wgp_model_load_file(model_path, &m, &d) != WGP_OK) {
    cli_print_diag(d.message);
    rc = EXIT_INPUT;
  }
  if (made)
    unlink(tmpl);
  if (rc == EXIT_OK) {
    k = cli_find_kernel(m, kname, &flags);
    if (!k)
      rc = cli_no_kernel(input, kname, m);
  }
  if (rc == EXIT_OK) {
    wgp_status st = wgp_gpu_open(gname, &gpu, &d);
    if (st != WGP_OK) {
      cli_print_diag(d.message);
      rc = EXIT_INPUT;
    }
  }
  if (rc == EXIT_OK)
    rc = cli_hints_resolve(&hints, k);
  if (rc == EXIT_OK)
    rc = check_local_sizes(k, l, local_names, nlocal);
  size_t nall = nrestrict;
  if (rc == EXIT_OK)
    rc = attribute_restrictions(k, l, fixed_grid, gpu, attr_cond, restrictions, &nall);
  wgp_prune *p = NULL, *ex = NULL;
  double wall = 0, wall_ex = 0;
  if (rc == EXIT_OK) {
    uint64_t grid[3];
    for (unsigned dd = 0; dd < 3; dd++)
      grid[dd] = dd < wgp_launch_dims(l) ? wgp_launch_global(l, dd) : 1;
    wgp_prune_options o = {.launch = l,
                           .grid = fixed_grid ? grid : NULL,
                           .local_arg_names = local_names,
                           .local_arg_exprs = local_exprs,
                           .num_local_args = nlocal,
                           .restrictions = restrictions,
                           .num_restrictions = nall,
                           .regs = regs_opt,
                           .flags = exhaustive && !do_study ? WGP_PRUNE_EXHAUSTIVE : 0,
                           /* --top 0: every rank exact */
                           .top = !top_given ? 0 : top ? top : SIZE_MAX,
                           .trip_loops = hints.trip_loop,
                           .trip_counts = hints.trip,
                           .num_trip_hints = hints.ntrip,
                           .taken_blocks = hints.taken_block,
                           .taken_fractions = hints.taken,
                           .num_taken_hints = hints.ntaken,
                           .l2_cold = cold,
                           .partial_warps = partial_warps,
                           .threads = jobs,
                           .progress = isatty(2) ? progress : NULL};
    double t1 = now_ms();
    wgp_status st = wgp_prune_run(k, gpu, &o, &p, &d);
    wall = now_ms() - t0;
    if (st == WGP_OK && do_study) {
      wall = now_ms() - t1;
      double t2 = now_ms();
      o.flags = WGP_PRUNE_EXHAUSTIVE;
      o.top = 0; /* the exhaustive search of --exhaustive alone */
      st = wgp_prune_run(k, gpu, &o, &ex, &d);
      wall_ex = now_ms() - t2;
    }
    if (o.progress)
      fprintf(stderr, "\r%60s\r", "");
    if (st != WGP_OK) {
      cli_print_diag(d.message);
      rc = EXIT_INPUT;
    }
  }
  if (rc == EXIT_OK) {
    wgp_prune_counts cn;
    wgp_prune_get_counts(p, &cn);
    if (cn.truncated)
      fprintf(stderr, "wgprune: warning: only the first %zu work-group sizes were searched\n", cn.total);
    note_fixed_size(k, wgp_launch_dims(l), nrestrict, cn.valid);
    if (suggest_nonuniform(k, l, fixed_grid, gpu))
      fprintf(stderr, "wgprune: note: only sizes whose extents divide the global size were searched (OpenCL's "
                      "uniform work-groups); for a CUDA launch of ceil(N / blockDim) blocks behind a bounds check, "
                      "--nonuniform searches every size\n");
    const char *where;
    if (wgp_prune_idle_rule_refused(p, &where)) {
      char grp[32], lid[32], lsz[32];
      id_names(wgp_kernel_language(k) == WGP_LANG_CUDA, 0, grp, lid, lsz);
      fprintf(stderr,
              "wgprune: note: the sizes whose last warp has idle lanes were searched like any other: the kernel's "
              "control flow%s%s reads %s, %s or %s other than through the global id, so that a smaller group runs "
              "other code (docs/wgprune.md, stage 1, idle lanes)\n",
              where ? " at " : "", where ? where : "", lid, lsz, grp);
    }
    bool *outside = calloc(wgp_prune_num_ranked(p) + 1, sizeof *outside);
    if (outside && !do_study)
      check_outside(p, k, l, top, top_given, outside);
    if (do_study)
      rc = study(p, ex, wall, wall_ex, json, k, gpu, top_given, top);
    else if (json)
      print_json(p, k, gpu, wall, t_extract, outside);
    else if (csv)
      print_csv(p);
    else
      print_table(p, k, gpu, exhaustive, nrestrict > 0, top, top_given, wall, t_extract);
    if (plot_file && write_plot(plot_file, p, wgp_kernel_name(k), wgp_gpu_name(gpu)) != 0)
      rc = input_error("%s: cannot write: %s", plot_file, strerror(errno));
    size_t nkt = wgp_prune_num_ranked(p); /* with --top N the N best, else every size simulated */
    if (top_given && top && top < nkt)
      nkt = top;
    if (kt_file && write_kernel_tuner(kt_file, p, nkt) != 0)
      rc = input_error("%s: cannot write: %s", kt_file, strerror(errno));
    free(outside);
  }
  wgp_prune_free(p);
  wgp_prune_free(ex);
  for (size_t i = 0; i < nlocal; i++)
    free((void *)local_names[i]);
  wgp_gpu_free(gpu);
  wgp_model_free(m);
  wgp_launch_free(l);
  free(flags.v);
  cli_hints_free(&hints);
  return rc;
}
