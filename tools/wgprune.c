/* wgprune - prune and rank work-group sizes without running the kernel
 * (seeds/004 sec. 6, Algorithm 4).
 *
 *   wgprune kernel.cl --kernel mm --global 1024,1024 --arg N=1024 [--gpu h100-sxm] [--json|--csv]
 *
 * 1. Candidates: every work-group size whose extent divides the global size
 *    in each dimension (OpenCL 1.2; --nonuniform allows any), within the
 *    GPU's per-dimension and total limits, that can be resident at all
 *    (registers, shared memory with --local-arg sizes given as expressions of
 *    lx, ly, lz).
 * 2. Duplicated traces (sec. 6.1): sizes whose distinct warps have the same
 *    traces and memory costs in the same proportions form one batch; the
 *    size with the fewest rounds of resident groups represents it.
 * 3. Inferior pipelines (sec. 6.2): a size whose best-case time exceeds
 *    another's worst-case time is dropped (bounds from the simulator before
 *    any cache analysis: the best case with every global access hitting in
 *    L1/L2, the worst with every one missing).
 * 4. The survivors are simulated with the cache analysis and ranked.
 * --exhaustive simulates every candidate instead.
 */
#define _DEFAULT_SOURCE
#include "cli.h"

#include "wgperf/estimate.h"
#include "wgperf/launch.h"

#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_CANDIDATES 65536
#define MAX_LOCAL_ARGS 16

typedef struct cand {
  uint64_t local[3];
  bool valid;
  char why[1024];          /* why it cannot run */
  wgp_analysis *an;
  uint64_t sig;            /* duplicate-trace signature */
  double rounds;
  int rep;                 /* index of its batch representative, or -1 */
  bool pruned_bound;
  double best_us, worst_us;
  bool simulated;
  wgp_sim_result r;
} cand;

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* ---- --local-arg NAME=EXPR: integers, lx ly lz, + - * / ( ) ------------ */

typedef struct pexpr {
  const char *p;
  const uint64_t *l;
  bool bad;
} pexpr;

static double pe_sum(pexpr *e);

static double pe_atom(pexpr *e) {
  while (isspace((unsigned char)*e->p))
    e->p++;
  if (*e->p == '(') {
    e->p++;
    double v = pe_sum(e);
    while (isspace((unsigned char)*e->p))
      e->p++;
    if (*e->p != ')')
      e->bad = true;
    else
      e->p++;
    return v;
  }
  if (e->p[0] == 'l' && (e->p[1] == 'x' || e->p[1] == 'y' || e->p[1] == 'z')) {
    double v = (double)e->l[e->p[1] - 'x'];
    e->p += 2;
    return v;
  }
  if (isdigit((unsigned char)*e->p)) {
    char *end;
    double v = strtod(e->p, &end);
    e->p = end;
    return v;
  }
  e->bad = true;
  return 0;
}

static double pe_prod(pexpr *e) {
  double v = pe_atom(e);
  for (;;) {
    while (isspace((unsigned char)*e->p))
      e->p++;
    if (*e->p == '*')
      e->p++, v *= pe_atom(e);
    else if (*e->p == '/') {
      e->p++;
      double d = pe_atom(e);
      if (d == 0)
        e->bad = true;
      else
        v = floor(v / d);
    } else
      return v;
  }
}

static double pe_sum(pexpr *e) {
  double v = pe_prod(e);
  for (;;) {
    while (isspace((unsigned char)*e->p))
      e->p++;
    if (*e->p == '+')
      e->p++, v += pe_prod(e);
    else if (*e->p == '-')
      e->p++, v -= pe_prod(e);
    else
      return v;
  }
}

static bool eval_size_expr(const char *text, const uint64_t l[3], uint64_t *out) {
  pexpr e = {text, l, false};
  double v = pe_sum(&e);
  while (isspace((unsigned char)*e.p))
    e.p++;
  if (e.bad || *e.p || v < 0 || v > 1e12)
    return false;
  *out = (uint64_t)v;
  return true;
}

/* ---- candidates ---------------------------------------------------------- */

static size_t divisors(uint64_t n, uint64_t limit, bool any, uint64_t *out, size_t max) {
  size_t k = 0;
  for (uint64_t d = 1; d <= limit && d <= n && k < max; d++)
    if (any || n % d == 0)
      out[k++] = d;
  return k;
}

static uint64_t mix(uint64_t h, uint64_t v) { return h ^ (v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2)); }

/* Traces and memory costs, with each class's share of the warps. */
static uint64_t signature(const wgp_analysis *an, const wgp_kernel *k) {
  const wgp_warp_set *ws = wgp_analysis_warps(an);
  double total = wgp_warp_set_total(ws);
  uint64_t h = 0;
  for (size_t i = 0; i < wgp_warp_set_size(ws); i++) {
    const wgp_warp_class *c = wgp_warp_set_class(ws, i);
    uint64_t ch = wgp_trace_hash(c->trace);
    const wgp_mem_stats *s = wgp_analysis_class_stats(an, i);
    for (size_t a = 0; a < wgp_kernel_num_accesses(k); a++) {
      ch = mix(ch, (uint64_t)llround(s[a].sectors * 64));
      ch = mix(ch, (uint64_t)llround(s[a].wavefronts * 64));
    }
    ch = mix(ch, (uint64_t)llround(c->count / total * 1e6));
    h += ch; /* order of classes does not matter */
  }
  return h;
}

/* The user's launch with work-group size LOCAL and the __local sizes its
 * expressions give; NULL with WHY filled when it cannot be built. */
static wgp_launch *candidate_launch(const wgp_launch *l, unsigned dims, bool any, const uint64_t local[3],
                                    const char **names, const char **exprs, size_t nlocal, char *why, size_t whysz) {
  wgp_diag d;
  wgp_launch *li = wgp_launch_new();
  char gbuf[96] = "", lbuf[96] = "";
  for (unsigned dd = 0; dd < dims; dd++) {
    size_t gl = strlen(gbuf), ll = strlen(lbuf);
    snprintf(gbuf + gl, sizeof gbuf - gl, "%s%llu", dd ? "," : "", (unsigned long long)wgp_launch_global(l, dd));
    snprintf(lbuf + ll, sizeof lbuf - ll, "%s%llu", dd ? "," : "", (unsigned long long)local[dd]);
  }
  bool ok = li && wgp_launch_set_option(li, "--global", gbuf, &d) == WGP_OK &&
            wgp_launch_set_option(li, "--local", lbuf, &d) == WGP_OK;
  if (ok && any)
    ok = wgp_launch_set_option(li, "--nonuniform", NULL, &d) == WGP_OK;
  for (size_t a = 0; ok && a < wgp_launch_num_args(l); a++) {
    int64_t v;
    const char *nm = wgp_launch_arg(l, a, &v);
    char buf[256];
    snprintf(buf, sizeof buf, "%s=%lld", nm, (long long)v);
    ok = wgp_launch_set_option(li, "--arg", buf, &d) == WGP_OK;
  }
  for (size_t a = 0; ok && a < wgp_launch_num_buffers(l); a++) {
    uint64_t bytes, align;
    const char *nm = wgp_launch_buffer(l, a, &bytes, &align);
    char buf[256];
    if (align)
      snprintf(buf, sizeof buf, "%s=%llu@%llu", nm, (unsigned long long)bytes, (unsigned long long)align);
    else
      snprintf(buf, sizeof buf, "%s=%llu", nm, (unsigned long long)bytes);
    ok = wgp_launch_set_option(li, "--buffer", buf, &d) == WGP_OK;
  }
  for (size_t a = 0; ok && a < nlocal; a++) {
    uint64_t bytes;
    char buf[256];
    if (!eval_size_expr(exprs[a], local, &bytes)) {
      snprintf(why, whysz, "--local-arg %s cannot be evaluated", names[a]);
      wgp_launch_free(li);
      return NULL;
    }
    snprintf(buf, sizeof buf, "%s=%llu", names[a], (unsigned long long)bytes);
    ok = wgp_launch_set_option(li, "--local-mem", buf, &d) == WGP_OK;
  }
  if (!ok) {
    snprintf(why, whysz, "%s", li ? d.message : "out of memory");
    wgp_launch_free(li);
    return NULL;
  }
  return li;
}

/* ---- output ---------------------------------------------------------------- */

static int cmp_time(const void *a, const void *b) {
  const cand *x = *(cand *const *)a, *y = *(cand *const *)b;
  return x->r.time_us < y->r.time_us ? -1 : x->r.time_us > y->r.time_us;
}

static void size_str(char *buf, size_t n, const uint64_t l[3], unsigned dims) {
  if (dims == 1)
    snprintf(buf, n, "%llu", (unsigned long long)l[0]);
  else if (dims == 2)
    snprintf(buf, n, "%llux%llu", (unsigned long long)l[0], (unsigned long long)l[1]);
  else
    snprintf(buf, n, "%llux%llux%llu", (unsigned long long)l[0], (unsigned long long)l[1], (unsigned long long)l[2]);
}

/* ---- --plot: predicted time over the space, as SVG ------------------------- */

/* Candidates on the x axis in enumeration order, log time on the y axis;
 * simulated sizes as filled dots, sizes pruned as duplicates or by bounds as
 * hollow marks at their best-case bound. */
static int write_plot(const char *file, const cand *cs, size_t nc, unsigned dims, const char *kernel,
                      const char *gpu) {
  FILE *f = fopen(file, "w");
  if (!f)
    return -1;
  double lo = INFINITY, hi = 0;
  for (size_t i = 0; i < nc; i++) {
    if (!cs[i].valid)
      continue;
    double t = cs[i].simulated ? cs[i].r.time_us : cs[i].best_us;
    if (t > 0 && t < lo) lo = t;
    if (t > hi) hi = t;
  }
  if (!(lo < INFINITY)) lo = 1, hi = 10;
  if (hi <= lo) hi = lo * 10;
  const double W = 900, H = 420, L = 70, R = 20, T = 40, B = 70;
  double llo = log10(lo) - 0.05, lhi = log10(hi) + 0.05;
  fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" font-family=\"sans-serif\" "
             "font-size=\"11\">\n", W, H);
  fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
  fprintf(f, "<text x=\"%.0f\" y=\"22\" font-size=\"14\">%s on %s: predicted time per work-group size</text>\n", L,
          kernel, gpu);
  fprintf(f, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"black\"/>\n", L, H - B, W - R, H - B);
  fprintf(f, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"black\"/>\n", L, T, L, H - B);
  for (int e = (int)floor(llo); e <= (int)ceil(lhi); e++) {
    if (e < llo || e > lhi)
      continue;
    double y = H - B - (e - llo) / (lhi - llo) * (H - T - B);
    fprintf(f, "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", L, y, W - R, y);
    fprintf(f, "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">%g us</text>\n", L - 4, y + 4, pow(10, e));
  }
  size_t nv = 0;
  for (size_t i = 0; i < nc; i++)
    nv += cs[i].valid;
  size_t k = 0;
  for (size_t i = 0; i < nc; i++) {
    if (!cs[i].valid)
      continue;
    double t = cs[i].simulated ? cs[i].r.time_us : cs[i].best_us;
    double x = L + (k + 0.5) / (double)nv * (W - L - R);
    double y = H - B - (log10(t > 0 ? t : lo) - llo) / (lhi - llo) * (H - T - B);
    char sz[64];
    size_str(sz, sizeof sz, cs[i].local, dims);
    if (cs[i].simulated)
      fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"#1f77b4\"><title>%s: %.4g us</title></circle>\n", x,
              y, sz, t);
    else
      fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"none\" stroke=\"%s\"><title>%s: pruned (%s), "
                 "best case %.4g us</title></circle>\n",
              x, y, cs[i].rep >= 0 ? "#999" : "#d62728", sz, cs[i].rep >= 0 ? "same traces" : "bounds", t);
    if (nv <= 80)
      fprintf(f, "<text x=\"%.1f\" y=\"%.0f\" transform=\"rotate(-60 %.1f %.0f)\" text-anchor=\"end\">%s</text>\n",
              x, H - B + 12, x, H - B + 12, sz);
    k++;
  }
  fprintf(f, "<circle cx=\"%.0f\" cy=\"%.0f\" r=\"4\" fill=\"#1f77b4\"/><text x=\"%.0f\" y=\"%.0f\">simulated</text>\n",
          W - 300, T - 10, W - 292, T - 6);
  fprintf(f, "<circle cx=\"%.0f\" cy=\"%.0f\" r=\"4\" fill=\"none\" stroke=\"#999\"/><text x=\"%.0f\" y=\"%.0f\">"
             "same traces</text>\n", W - 220, T - 10, W - 212, T - 6);
  fprintf(f, "<circle cx=\"%.0f\" cy=\"%.0f\" r=\"4\" fill=\"none\" stroke=\"#d62728\"/><text x=\"%.0f\" y=\"%.0f\">"
             "pruned by bounds (best case)</text>\n", W - 130, T - 10, W - 122, T - 6);
  fprintf(f, "</svg>\n");
  return fclose(f) == 0 ? 0 : -1;
}

/* ---- --emit-kernel-tuner: the survivors as a Kernel Tuner search space ---- */

static int write_kernel_tuner(const char *file, cand **ranked, size_t nr, unsigned dims) {
  static const char *names[3] = {"block_size_x", "block_size_y", "block_size_z"};
  json_t *j = json_object(), *tp = json_object();
  for (unsigned d = 0; d < dims; d++) {
    json_t *vals = json_array();
    uint64_t seen[4096];
    size_t ns = 0;
    for (size_t i = 0; i < nr; i++) {
      uint64_t v = ranked[i]->local[d];
      bool dup = false;
      for (size_t q = 0; q < ns; q++)
        dup = dup || seen[q] == v;
      if (!dup && ns < 4096) {
        seen[ns++] = v;
        json_array_append_new(vals, json_integer((json_int_t)v));
      }
    }
    json_object_set_new(tp, names[d], vals);
  }
  json_object_set_new(j, "tune_params", tp);
  /* the exact set of surviving combinations, as one restriction */
  size_t cap = 64 + nr * 48;
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
    n += (size_t)snprintf(r + n, cap - n, "%s(", i ? ", " : "");
    for (unsigned d = 0; d < dims; d++)
      n += (size_t)snprintf(r + n, cap - n, "%s%llu", d ? ", " : "", (unsigned long long)ranked[i]->local[d]);
    n += (size_t)snprintf(r + n, cap - n, "%s)", dims == 1 ? "," : "");
  }
  snprintf(r + n, cap - n, "]");
  json_t *rs = json_array();
  json_array_append_new(rs, json_string(r));
  free(r);
  json_object_set_new(j, "restrictions", rs);
  json_t *order = json_array();
  for (size_t i = 0; i < nr; i++) {
    json_t *e = json_object();
    for (unsigned d = 0; d < dims; d++)
      json_object_set_new(e, names[d], json_integer((json_int_t)ranked[i]->local[d]));
    json_object_set_new(e, "predicted_time_us", json_real(ranked[i]->r.time_us));
    json_array_append_new(order, e);
  }
  json_object_set_new(j, "wgperf_ranking", order);
  int rc = json_dump_file(j, file, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
  json_decref(j);
  return rc;
}

static int usage(void) {
  fprintf(stderr, "usage: wgprune INPUT --global X[,Y[,Z]] [--kernel NAME] [--arg NAME=V] [--buffer NAME=BYTES]\n"
                  "               [--local-arg NAME=EXPR] [--nonuniform] [--gpu NAME|FILE] [--regs N]\n"
                  "               [--exhaustive] [--top N] [--json | --csv] [--plot FILE.svg]\n"
                  "               [--emit-kernel-tuner FILE.json] [-- CLANG-FLAGS]\n"
                  "  INPUT is a kernel model (.json) or a .cl/.cu/.bc/.ll file; EXPR uses lx, ly, lz,\n"
                  "  integers, + - * / and parentheses, e.g. --local-arg tile=4*lx*ly\n");
  return EXIT_USAGE;
}

int main(int argc, char **argv) {
  double t0 = now_ms();
  const char *input = NULL, *kname = NULL, *gname = "h100-sxm";
  const char *local_names[MAX_LOCAL_ARGS], *local_exprs[MAX_LOCAL_ARGS];
  size_t nlocal = 0, top = 10;
  bool json = false, csv = false, exhaustive = false;
  const char *plot_file = NULL, *kt_file = NULL;
  unsigned regs_opt = 0;
  char **extra = NULL;
  int nextra = 0;
  wgp_launch *l = wgp_launch_new();
  wgp_diag d;
  if (!l)
    return input_error("out of memory");
  if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
    usage();
    return EXIT_OK;
  }
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    bool val;
    if (strcmp(a, "--") == 0) {
      extra = argv + i + 1;
      nextra = argc - i - 1;
      break;
    }
    if (strcmp(a, "--local") == 0 || strcmp(a, "--block") == 0)
      return usage_error("wgprune chooses the work-group size: no %s", a);
    if (strcmp(a, "--grid") == 0)
      return usage_error("wgprune needs the total size in work-items: --global X[,Y[,Z]] (grid x block)");
    if (wgp_launch_is_option(a, &val)) {
      if (val && i + 1 == argc)
        return usage_error("'%s' needs a value", a);
      if (wgp_launch_set_option(l, a, val ? argv[++i] : NULL, &d) != WGP_OK)
        return usage_error("%s", d.message + strlen("wgperf: error: "));
      continue;
    }
    if (i + 1 < argc && strcmp(a, "--kernel") == 0)
      kname = argv[++i];
    else if (i + 1 < argc && strcmp(a, "--gpu") == 0)
      gname = argv[++i];
    else if (i + 1 < argc && strcmp(a, "--top") == 0)
      top = strtoul(argv[++i], NULL, 10);
    else if (i + 1 < argc && strcmp(a, "--regs") == 0)
      regs_opt = (unsigned)strtoul(argv[++i], NULL, 10);
    else if (i + 1 < argc && strcmp(a, "--local-arg") == 0) {
      const char *v = argv[++i], *eq = strchr(v, '=');
      if (!eq || eq == v || nlocal == MAX_LOCAL_ARGS)
        return usage_error("--local-arg '%s': expected NAME=EXPR", v);
      local_names[nlocal] = strndup(v, (size_t)(eq - v));
      local_exprs[nlocal++] = eq + 1;
      uint64_t probe[3] = {1, 1, 1}, x;
      if (!eval_size_expr(eq + 1, probe, &x))
        return usage_error("--local-arg '%s': bad expression (use lx, ly, lz, integers, + - * / and parentheses)", v);
    } else if (strcmp(a, "--json") == 0)
      json = true;
    else if (strcmp(a, "--csv") == 0)
      csv = true;
    else if (i + 1 < argc && strcmp(a, "--plot") == 0)
      plot_file = argv[++i];
    else if (i + 1 < argc && strcmp(a, "--emit-kernel-tuner") == 0)
      kt_file = argv[++i];
    else if (strcmp(a, "--exhaustive") == 0)
      exhaustive = true;
    else if (a[0] == '-')
      return usage_error("unknown option '%s' (wgprune --help)", a);
    else if (input)
      return usage_error("one input only, got '%s' and '%s'", input, a);
    else
      input = a;
  }
  if (!input)
    return usage();
  /* the model */
  char tmpl[] = "/tmp/wgprune-XXXXXX.json";
  const char *model_path = input;
  bool made = false;
  size_t n = strlen(input);
  if (!(n > 5 && strcmp(input + n - 5, ".json") == 0)) {
    int kind = kind_of(input);
    if (kind < 0)
      return usage_error("%s: unknown input kind (expected .json, .cl, .cu, .bc or .ll)", input);
    int fd = mkstemps(tmpl, 5);
    if (fd < 0)
      return input_error("cannot make a temporary file: %s", strerror(errno));
    close(fd);
    made = true;
    int rc = extract_to(input, kind, NULL, extra, nextra, tmpl);
    if (rc != EXIT_OK) {
      unlink(tmpl);
      return rc;
    }
    model_path = tmpl;
  }
  double t_extract = now_ms() - t0;
  wgp_model *m = NULL;
  wgp_gpu *gpu = NULL;
  int rc = EXIT_OK;
  if (wgp_model_load_file(model_path, &m, &d) != WGP_OK) {
    fprintf(stderr, "%s\n", d.message);
    rc = EXIT_INPUT;
  }
  if (made)
    unlink(tmpl);
  const wgp_kernel *k = NULL;
  if (rc == EXIT_OK) {
    k = kname ? wgp_model_find_kernel(m, kname) : wgp_model_num_kernels(m) == 1 ? wgp_model_kernel(m, 0) : NULL;
    if (!k) {
      fprintf(stderr, "wgperf: error: %s: %s\n", input, kname ? "no such kernel" : "pick a kernel with --kernel");
      rc = kname ? EXIT_INPUT : EXIT_USAGE;
    }
  }
  if (rc == EXIT_OK) {
    wgp_status st = strchr(gname, '/') || strstr(gname, ".json") ? wgp_gpu_load_file(gname, &gpu, &d)
                                                                 : wgp_gpu_load_builtin(gname, &gpu, &d);
    if (st != WGP_OK) {
      fprintf(stderr, "%s\n", d.message);
      rc = EXIT_INPUT;
    }
  }
  if (rc != EXIT_OK) {
    wgp_model_free(m);
    wgp_launch_free(l);
    return rc;
  }
  unsigned dims = wgp_launch_dims(l);
  if (dims == 0) {
    wgp_model_free(m), wgp_gpu_free(gpu), wgp_launch_free(l);
    return usage_error("give the global size with --global X[,Y[,Z]]");
  }
  unsigned regs = wgp_kernel_choose_registers(k, regs_opt, NULL);
  /* enumerate */
  uint64_t lim[3] = {wgp_gpu_max_block_dim_x(gpu), wgp_gpu_max_block_dim_y(gpu), wgp_gpu_max_block_dim_z(gpu)};
  uint64_t dv[3][1024];
  size_t nd[3] = {1, 1, 1};
  dv[1][0] = dv[2][0] = 1;
  bool any = wgp_launch_nonuniform(l);
  for (unsigned dd = 0; dd < dims; dd++)
    nd[dd] = divisors(wgp_launch_global(l, dd), lim[dd], any, dv[dd], 1024);
  cand *cs = calloc(MAX_CANDIDATES, sizeof *cs);
  size_t nc = 0;
  if (!cs)
    return input_error("out of memory");
  for (size_t z = 0; z < nd[2]; z++)
    for (size_t y = 0; y < nd[1]; y++)
      for (size_t x = 0; x < nd[0] && nc < MAX_CANDIDATES; x++) {
        uint64_t t = dv[0][x] * dv[1][y] * dv[2][z];
        if (t > wgp_gpu_max_threads_per_block(gpu))
          continue;
        cs[nc].local[0] = dv[0][x], cs[nc].local[1] = dv[1][y], cs[nc].local[2] = dv[2][z];
        cs[nc].rep = -1;
        nc++;
      }
  size_t total = nc, valid = 0, after1 = 0, after2 = 0, simulated = 0;
  /* analyze each; a progress line on a terminal for long searches */
  bool progress = isatty(2) && nc > 16;
  for (size_t i = 0; i < nc; i++) {
    cand *c = &cs[i];
    if (progress)
      fprintf(stderr, "\rwgprune: analyzing %zu/%zu sizes", i + 1, nc);
    wgp_launch *li = candidate_launch(l, dims, any, c->local, local_names, local_exprs, nlocal, c->why,
                                      sizeof c->why);
    bool ok = li != NULL;
    wgp_analysis_input in = {0};
    size_t na = wgp_kernel_num_args(k) ? wgp_kernel_num_args(k) : 1;
    uint64_t *al = calloc(na, sizeof *al), *lb = calloc(na, sizeof *lb);
    if (ok && wgp_launch_bind(li, k, &in.launch, al, lb, &d) != WGP_OK) {
      if (i == 0 || strstr(d.message, "needs a value") || strstr(d.message, "has no argument") ||
          strstr(d.message, "--local-mem")) {
        fprintf(stderr, "%s\n", d.message);
        if (strstr(d.message, "--local-mem"))
          fprintf(stderr, "wgprune: give __local sizes as expressions of the work-group size: --local-arg NAME=EXPR\n");
        free(al), free(lb), wgp_launch_free(li);
        rc = EXIT_INPUT;
        break;
      }
      ok = false;
      snprintf(c->why, sizeof c->why, "%s", d.message + strlen("wgperf: error: "));
    }
    in.kernel = k;
    in.gpu = gpu;
    in.buffer_align = al;
    in.local_bytes = lb;
    if (ok && wgp_analyze(&in, &c->an, &d) != WGP_OK) {
      ok = false;
      snprintf(c->why, sizeof c->why, "%s", d.message);
    }
    wgp_occupancy occ;
    if (ok) {
      uint64_t t = c->local[0] * c->local[1] * c->local[2];
      wgp_occupancy_request req = {(unsigned)t, regs, (unsigned long)wgp_analysis_local_bytes(c->an), 0};
      if (wgp_occupancy_compute(gpu, &req, &occ, &d) != WGP_OK) {
        ok = false;
        snprintf(c->why, sizeof c->why, "%s", d.message + (strncmp(d.message, "wgperf: error: ", 15) ? 0 : 15));
      }
    }
    if (ok) {
      uint64_t groups = 1;
      for (unsigned dd = 0; dd < dims; dd++)
        groups *= (wgp_launch_global(l, dd) + c->local[dd] - 1) / c->local[dd];
      c->rounds = ceil((double)groups / ((double)occ.active_blocks_per_sm * wgp_gpu_sm_count(gpu)));
      c->sig = signature(c->an, k);
      c->valid = true;
      valid++;
      /* bounds before any cache analysis: the best case with every global
       * access hitting, the worst with every one missing */
      wgp_sim_result hits;
      if (wgp_simulate_analysis(&in, c->an, regs, NULL, 1.0, WGP_SIM_BOUNDS_ONLY, &hits, &d) == WGP_OK &&
          wgp_simulate_analysis(&in, c->an, regs, NULL, 0.0, WGP_SIM_BOUNDS_ONLY, &c->r, &d) == WGP_OK) {
        c->best_us = hits.best_us;
        c->worst_us = c->r.worst_us;
      } else {
        c->valid = false;
        valid--;
        snprintf(c->why, sizeof c->why, "%s", d.message);
      }
    }
    free(al), free(lb);
    wgp_launch_free(li);
    if (!c->valid && c->an) {
      wgp_analysis_free(c->an);
      c->an = NULL;
    }
  }
  if (rc != EXIT_OK)
    goto done;
  /* stage 1: duplicated traces; the fewest rounds represent a batch */
  for (size_t i = 0; i < nc; i++) {
    if (!cs[i].valid)
      continue;
    for (size_t j = 0; j < i; j++)
      if (cs[j].valid && cs[j].rep < 0 && cs[j].sig == cs[i].sig) {
        if (cs[i].rounds < cs[j].rounds) {
          cs[j].rep = (int)i;
          for (size_t q = 0; q < nc; q++)
            if (cs[q].rep == (int)j)
              cs[q].rep = (int)i;
        } else {
          cs[i].rep = (int)j;
        }
        break;
      }
  }
  double min_worst = INFINITY;
  for (size_t i = 0; i < nc; i++)
    if (cs[i].valid && cs[i].rep < 0) {
      after1++;
      if (cs[i].worst_us < min_worst)
        min_worst = cs[i].worst_us;
    }
  /* stage 2: inferior pipelines */
  for (size_t i = 0; i < nc; i++)
    if (cs[i].valid && cs[i].rep < 0) {
      if (cs[i].best_us > min_worst)
        cs[i].pruned_bound = true;
      else
        after2++;
    }
  /* stage 3: simulate the survivors (or every valid size) */
  cand **ranked = calloc(nc ? nc : 1, sizeof *ranked);
  size_t nr = 0, todo = exhaustive ? valid : after2;
  for (size_t i = 0; ranked && i < nc; i++) {
    cand *c = &cs[i];
    if (!c->valid || (!exhaustive && (c->rep >= 0 || c->pruned_bound)))
      continue;
    if (progress)
      fprintf(stderr, "\rwgprune: simulating %zu/%zu sizes   ", nr + 1, todo);
    uint64_t groups = 1;
    for (unsigned dd = 0; dd < dims; dd++)
      groups *= (wgp_launch_global(l, dd) + c->local[dd] - 1) / c->local[dd];
    wgp_analysis_input in = {0};
    in.kernel = k;
    in.gpu = gpu;
    size_t na = wgp_kernel_num_args(k) ? wgp_kernel_num_args(k) : 1;
    /* the cache analysis needs the launch again */
    wgp_launch *li = candidate_launch(l, dims, any, c->local, local_names, local_exprs, nlocal, c->why,
                                      sizeof c->why);
    uint64_t *al = calloc(na, sizeof *al), *lb = calloc(na, sizeof *lb);
    bool ok = li && al && lb;
    wgp_cache_result cache;
    bool have_cache = false;
    if (ok && wgp_launch_bind(li, k, &in.launch, al, lb, &d) == WGP_OK) {
      in.buffer_align = al;
      in.local_bytes = lb;
      wgp_occupancy occ;
      uint64_t t = c->local[0] * c->local[1] * c->local[2];
      wgp_occupancy_request req = {(unsigned)t, regs, (unsigned long)wgp_analysis_local_bytes(c->an), 0};
      if (wgp_occupancy_compute(gpu, &req, &occ, &d) == WGP_OK &&
          wgp_cache_analyze(&in, occ.active_blocks_per_sm, wgp_analysis_local_bytes(c->an), &cache, &d) == WGP_OK)
        have_cache = true;
    }
    if (wgp_simulate_analysis(&in, c->an, regs, have_cache ? &cache : NULL, -1, 0, &c->r, &d) == WGP_OK) {
      c->simulated = true;
      ranked[nr++] = c;
      simulated++;
    }
    if (have_cache)
      wgp_cache_result_free(&cache);
    free(al), free(lb);
    wgp_launch_free(li);
  }
  if (progress)
    fprintf(stderr, "\r%60s\r", "");
  qsort(ranked, nr, sizeof *ranked, cmp_time);
  double wall = now_ms() - t0;
  double pruned = valid ? 100.0 * (1.0 - (double)after2 / (double)valid) : 0;
  if (json) {
    json_t *j = json_object();
    json_object_set_new(j, "kernel", json_string(wgp_kernel_name(k)));
    json_object_set_new(j, "gpu", json_string(wgp_gpu_name(gpu)));
    json_object_set_new(j, "candidates_total", json_integer((json_int_t)total));
    json_object_set_new(j, "candidates_valid", json_integer((json_int_t)valid));
    json_object_set_new(j, "after_duplicate_pruning", json_integer((json_int_t)after1));
    json_object_set_new(j, "after_bound_pruning", json_integer((json_int_t)after2));
    json_object_set_new(j, "simulated", json_integer((json_int_t)simulated));
    json_object_set_new(j, "pruned_percent", json_real(pruned));
    json_t *rank = json_array();
    for (size_t i = 0; i < nr; i++) {
      json_t *e = json_object(), *lc = json_array();
      for (int dd = 0; dd < 3; dd++)
        json_array_append_new(lc, json_integer((json_int_t)ranked[i]->local[dd]));
      json_object_set_new(e, "local", lc);
      json_object_set_new(e, "time_us", json_real(ranked[i]->r.time_us));
      json_object_set_new(e, "occupancy_warps", json_integer(ranked[i]->r.active_warps_per_sm));
      json_object_set_new(e, "limiter", json_string(ranked[i]->r.limiter ? ranked[i]->r.limiter : "warps"));
      json_object_set_new(e, "rounds", json_real(ranked[i]->rounds));
      json_array_append_new(rank, e);
    }
    json_object_set_new(j, "ranking", rank);
    json_object_set_new(j, "wall_ms", json_real(wall));
    json_object_set_new(j, "extract_ms", json_real(t_extract));
    char *text = json_dumps(j, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(8));
    printf("%s\n", text ? text : "");
    free(text);
    json_decref(j);
  } else if (csv) {
    printf("rank,local_x,local_y,local_z,time_us,active_warps_per_sm,limiter,rounds\n");
    for (size_t i = 0; i < nr; i++)
      printf("%zu,%llu,%llu,%llu,%.6g,%u,%s,%.0f\n", i + 1, (unsigned long long)ranked[i]->local[0],
             (unsigned long long)ranked[i]->local[1], (unsigned long long)ranked[i]->local[2], ranked[i]->r.time_us,
             ranked[i]->r.active_warps_per_sm, ranked[i]->r.limiter ? ranked[i]->r.limiter : "warps",
             ranked[i]->rounds);
  } else {
    printf("kernel %s on %s, %u registers per thread\n", wgp_kernel_name(k), wgp_gpu_name(gpu), regs);
    printf("candidates %zu (%zu can run), after duplicate traces %zu, after bounds %zu: %.1f%% pruned%s\n", total,
           valid, after1, after2, pruned, exhaustive ? " (--exhaustive: all simulated)" : "");
    printf("%4s  %-14s %12s %10s %-14s %7s\n", "rank", "work-group", "time (us)", "warps/SM", "limiter", "rounds");
    for (size_t i = 0; i < nr && i < (top ? top : nr); i++) {
      char sz[64];
      size_str(sz, sizeof sz, ranked[i]->local, dims);
      printf("%4zu  %-14s %12.4g %10u %-14s %7.0f", i + 1, sz, ranked[i]->r.time_us, ranked[i]->r.active_warps_per_sm,
             ranked[i]->r.limiter ? ranked[i]->r.limiter : "warps", ranked[i]->rounds);
      /* the sizes its batch stands for (same traces and memory costs) */
      int me = (int)(ranked[i] - cs), shown = 0;
      for (size_t q = 0; q < nc; q++)
        if (cs[q].valid && cs[q].rep == me) {
          char other[64];
          size_str(other, sizeof other, cs[q].local, dims);
          printf("%s%s", shown++ ? ", " : "  same traces: ", other);
          if (shown == 6) {
            printf(", ...");
            break;
          }
        }
      printf("\n");
    }
    printf("wall time %.0f ms (extraction %.0f ms)\n", wall, t_extract);
  }
  if (plot_file && write_plot(plot_file, cs, nc, dims, wgp_kernel_name(k), wgp_gpu_name(gpu)) != 0) {
    fprintf(stderr, "wgperf: error: %s: cannot write: %s\n", plot_file, strerror(errno));
    rc = EXIT_INPUT;
  }
  if (kt_file && write_kernel_tuner(kt_file, ranked, nr, dims) != 0) {
    fprintf(stderr, "wgperf: error: %s: cannot write: %s\n", kt_file, strerror(errno));
    rc = EXIT_INPUT;
  }
  free(ranked);
done:
  for (size_t i = 0; i < nc; i++)
    wgp_analysis_free(cs[i].an);
  free(cs);
  for (size_t i = 0; i < nlocal; i++)
    free((void *)local_names[i]);
  wgp_gpu_free(gpu);
  wgp_model_free(m);
  wgp_launch_free(l);
  return rc;
}
