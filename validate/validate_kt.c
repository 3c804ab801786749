/* validate_kt.c - a wgtune ranking against Kernel Tuner's brute-force
 * measurements (validate_kt.h).
 *
 * The figures are over the configurations both sides have a time for: we
 * predicted it and the GPU ran it.  The others are counted, not hidden:
 * those we say cannot run but the GPU ran, those we rank but the GPU failed
 * (compile or launch), those neither ran.  "Top 1%" and "top 5%" are 1% and
 * 5% of those configurations, at least one.
 */
#define _GNU_SOURCE /* qsort_r */
#include "validate_kt.h"

#include "wgperf/stats.h"
#include "wgperf/svg.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

struct vkt_cache {
  json_t *root, *cache, *keys;
  double brute_ms;
};

static wgp_status nomem(wgp_diag *d) { return wgp_diag_set(d, WGP_ERR_NOMEM, "wgperf: error: out of memory"); }

wgp_status vkt_load(const char *file, vkt_cache **out, wgp_diag *diag) {
  *out = NULL;
  gzFile g = gzopen(file, "rb"); /* reads plain files too */
  if (!g)
    return wgp_diag_set(diag, WGP_ERR_IO, "wgperf: error: %s: cannot open", file);
  size_t cap = 1 << 20, len = 0;
  char *buf = malloc(cap + 1);
  int n = 0;
  while (buf && (n = gzread(g, buf + len, (unsigned)(cap - len))) > 0) {
    len += (size_t)n;
    if (len == cap) {
      char *b = realloc(buf, 2 * cap + 1);
      if (!b) {
        free(buf);
        buf = NULL;
        break;
      }
      buf = b, cap *= 2;
    }
  }
  int err = 0;
  const char *gzmsg = n < 0 ? gzerror(g, &err) : NULL;
  char why[256] = "";
  if (gzmsg)
    snprintf(why, sizeof why, "%s", gzmsg);
  gzclose(g);
  if (!buf)
    return nomem(diag);
  if (n < 0) {
    free(buf);
    return wgp_diag_set(diag, WGP_ERR_IO, "wgperf: error: %s: cannot read: %s", file, why);
  }
  json_error_t je;
  json_t *root = json_loadb(buf, len, 0, &je);
  free(buf);
  if (!root)
    return wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: %s: line %d: malformed JSON: %s", file, je.line, je.text);
  json_t *cache = json_object_get(root, "cache"), *keys = json_object_get(root, "tune_params_keys");
  if (!json_is_object(cache) || !json_is_array(keys) || json_array_size(keys) == 0) {
    json_decref(root);
    return wgp_diag_set(diag, WGP_ERR_INPUT,
                        "wgperf: error: %s: not a Kernel Tuner cache file (no 'cache' object or 'tune_params_keys')", file);
  }
  for (size_t i = 0; i < json_array_size(keys); i++)
    if (!json_is_string(json_array_get(keys, i))) {
      json_decref(root);
      return wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: %s: tune_params_keys[%zu] is not a name", file, i);
    }
  vkt_cache *c = calloc(1, sizeof *c);
  if (!c) {
    json_decref(root);
    return nomem(diag);
  }
  c->root = root, c->cache = cache, c->keys = keys;
  const char *k;
  json_t *v;
  json_object_foreach(cache, k, v) {
    static const char *const costs[] = {"compile_time", "benchmark_time", "framework_time"};
    for (size_t q = 0; q < 3; q++) {
      json_t *x = json_object_get(v, costs[q]);
      if (json_is_number(x))
        c->brute_ms += json_number_value(x);
    }
  }
  *out = c;
  return WGP_OK;
}

void vkt_free(vkt_cache *c) {
  if (!c)
    return;
  json_decref(c->root);
  free(c);
}

const char *vkt_device(const vkt_cache *c) {
  json_t *d = json_object_get(c->root, "device_name");
  return json_is_string(d) ? json_string_value(d) : "";
}
bool vkt_not_a_gpu(const vkt_cache *c) {
  return json_is_true(json_object_get(json_object_get(c->root, "wgperf"), "not_a_gpu"));
}
size_t vkt_num_entries(const vkt_cache *c) { return json_object_size(c->cache); }
double vkt_brute_force_ms(const vkt_cache *c) { return c->brute_ms; }

/* ---- the comparison --------------------------------------------------------------- */

typedef struct row {
  const wgp_tune_config *c;
  double meas_ms; /* NAN: none */
  const char *failure; /* the GPU's failure, NULL when measured or absent */
  bool in_cache;
  size_t our_rank;  /* 1-based among BOTH by predicted time, 0 when not in BOTH */
  size_t meas_rank; /* 1-based among BOTH by measured time */
} row;

struct vkt_report {
  const wgp_tune_result *r;
  char *device;
  size_t nrows;
  row *rows;
  vkt_summary s;
  size_t *both; /* indices into rows, by our predicted time */
};

void vkt_report_free(vkt_report *rep) {
  if (!rep)
    return;
  free(rep->rows);
  free(rep->both);
  free(rep->device);
  free(rep);
}

const vkt_summary *vkt_report_summary(const vkt_report *rep) { return &rep->s; }

static int by_pred(const void *a, const void *b, void *ctx) {
  const row *rows = ctx;
  const row *x = &rows[*(const size_t *)a], *y = &rows[*(const size_t *)b];
  if (x->c->time_us != y->c->time_us)
    return x->c->time_us < y->c->time_us ? -1 : 1;
  return (x->c->index > y->c->index) - (x->c->index < y->c->index);
}

static int by_meas(const void *a, const void *b, void *ctx) {
  const row *rows = ctx;
  const row *x = &rows[*(const size_t *)a], *y = &rows[*(const size_t *)b];
  if (x->meas_ms != y->meas_ms)
    return x->meas_ms < y->meas_ms ? -1 : 1;
  return (x->c->index > y->c->index) - (x->c->index < y->c->index);
}

static int by_value(const void *a, const void *b, void *ctx) {
  const double *v = ctx;
  size_t x = *(const size_t *)a, y = *(const size_t *)b;
  if (v[x] != v[y])
    return v[x] < v[y] ? -1 : 1;
  return (x > y) - (x < y);
}

/* The figures of predictions P against measurements M (N of each, in the
 * space's order, which breaks ties); false when out of memory. */
static bool figures(const double *p, const double *m, size_t n, vkt_figures *f) {
  *f = (vkt_figures){n, NAN, NAN, NAN, NAN, NAN, NAN, 0, 0};
  if (!n)
    return true;
  size_t *byp = malloc(n * sizeof *byp), *bym = malloc(n * sizeof *bym), *rankp = malloc(n * sizeof *rankp);
  if (!byp || !bym || !rankp) {
    free(byp), free(bym), free(rankp);
    return false;
  }
  f->mape = wgp_stats_mape(p, m, n);
  f->geomean = wgp_stats_geomean_rel_error(p, m, n);
  if (n < 3 || wgp_stats_spearman(p, m, n, &f->spearman) != WGP_OK)
    f->spearman = NAN;
  for (size_t k = 0; k < n; k++)
    byp[k] = bym[k] = k;
  qsort_r(byp, n, sizeof *byp, by_value, (void *)p);
  qsort_r(bym, n, sizeof *bym, by_value, (void *)m);
  for (size_t k = 0; k < n; k++)
    rankp[byp[k]] = k;
  double best = m[bym[0]];
  f->pick_ratio = m[byp[0]] / best;
  size_t top1 = (size_t)ceil(0.01 * (double)n), top5 = (size_t)ceil(0.05 * (double)n);
  f->top1 = top1 = top1 < 1 ? 1 : top1;
  f->top5 = top5 = top5 < 1 ? 1 : top5;
  double best_top1 = INFINITY;
  size_t hit = 0;
  for (size_t k = 0; k < top1; k++) {
    best_top1 = m[byp[k]] < best_top1 ? m[byp[k]] : best_top1;
    hit += rankp[bym[k]] < top5;
  }
  f->top1_ratio = best_top1 / best;
  f->top1_in_top5 = (double)hit / (double)top1;
  free(byp), free(bym), free(rankp);
  return true;
}

/* The baselines' figures over the configurations of BOTH (in the space's
 * order) that have them. */
static bool baseline_figures(vkt_report *rep, size_t nboth) {
  vkt_summary *s = &rep->s;
  double *p = malloc((nboth ? nboth : 1) * sizeof *p), *m = malloc((nboth ? nboth : 1) * sizeof *m);
  bool ok = p && m;
  s->bsp_lambda = NAN;
  size_t n = 0;
  for (size_t k = 0; ok && k < nboth; k++) {
    const row *w = &rep->rows[rep->both[k]];
    if (!(w->c->bsp_us > 0) || !isfinite(w->c->bsp_us))
      continue;
    if (!n) { /* lambda: T(lambda = 1) / measured, on the first */
      s->bsp_lambda = w->c->bsp_us / 1e3 / w->meas_ms;
      s->bsp_fit_index = w->c->index;
    }
    p[n] = w->c->bsp_us / 1e3 / s->bsp_lambda, m[n] = w->meas_ms;
    n++;
  }
  ok = ok && figures(p, m, n, &s->bsp);
  n = 0;
  for (size_t k = 0; ok && k < nboth; k++) {
    const row *w = &rep->rows[rep->both[k]];
    if (w->c->roofline_us > 0 && isfinite(w->c->roofline_us))
      p[n] = w->c->roofline_us / 1e3, m[n] = w->meas_ms, n++;
  }
  ok = ok && figures(p, m, n, &s->roofline);
  free(p), free(m);
  return ok;
}

wgp_status vkt_compare(const vkt_cache *c, const wgp_tune_result *r, vkt_report **out, wgp_diag *diag) {
  *out = NULL;
  size_t nk = json_array_size(c->keys), np = wgp_tune_num_params(r);
  size_t *map = calloc(nk, sizeof *map);
  if (!map)
    return nomem(diag);
  for (size_t k = 0; k < nk; k++) {
    const char *name = json_string_value(json_array_get(c->keys, k));
    map[k] = SIZE_MAX;
    for (size_t p = 0; p < np; p++)
      if (strcmp(wgp_tune_param(r, p), name) == 0)
        map[k] = p;
    if (map[k] == SIZE_MAX) {
      free(map);
      return wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: the cache's parameter '%s' is not one of the space's",
                          name);
    }
  }
  if (nk != np) {
    free(map);
    return wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: the space has %zu parameters, the cache %zu", np, nk);
  }
  vkt_report *rep = calloc(1, sizeof *rep);
  size_t n = wgp_tune_num_configs(r);
  if (rep) {
    rep->rows = calloc(n ? n : 1, sizeof *rep->rows);
    rep->both = calloc(n ? n : 1, sizeof *rep->both);
    rep->device = strdup(vkt_device(c));
  }
  if (!rep || !rep->rows || !rep->both || !rep->device) {
    free(map);
    vkt_report_free(rep);
    return nomem(diag);
  }
  rep->r = r;
  rep->nrows = n;
  vkt_summary *s = &rep->s;
  s->configurations = n;
  char key[4096];
  size_t nboth = 0;
  for (size_t i = 0; i < n; i++) {
    row *w = &rep->rows[i];
    w->c = wgp_tune_config_at(r, i);
    w->meas_ms = NAN;
    size_t len = 0;
    for (size_t k = 0; k < nk && len < sizeof key; k++)
      len += (size_t)snprintf(key + len, sizeof key - len, "%s%s", k ? "," : "", w->c->values[map[k]].text);
    json_t *e = json_object_get(c->cache, key);
    json_t *t = e ? json_object_get(e, "time") : NULL;
    w->in_cache = e != NULL;
    if (json_is_number(t) && json_number_value(t) > 0)
      w->meas_ms = json_number_value(t);
    else if (json_is_string(t))
      w->failure = json_string_value(t);
    if (!e)
      s->not_in_cache++;
    else if (w->c->ok && isfinite(w->meas_ms))
      rep->both[nboth++] = i;
    else if (w->c->ok && w->failure)
      s->we_rank_gpu_failed++;
    else if (!w->c->ok && isfinite(w->meas_ms))
      s->we_cannot_gpu_ran++;
    else if (!w->c->ok)
      s->both_cannot++;
  }
  free(map);
  s->both = nboth;
  s->mape = s->geomean = s->spearman = s->pick_ratio = s->top1_ratio = s->top1_in_top5 = NAN;
  s->best_measured_ms = NAN;
  /* of our 10 predicted fastest, those the GPU failed */
  for (size_t k = 0; k < wgp_tune_num_ranked(r) && k < 10; k++) {
    const wgp_tune_config *cc = wgp_tune_ranked(r, k);
    for (size_t i = 0; i < n; i++)
      if (rep->rows[i].c == cc && rep->rows[i].failure)
        s->top10_gpu_failed++;
  }
  if (nboth == 0) {
    *out = rep;
    return WGP_OK;
  }
  double *p = malloc(nboth * sizeof *p), *m = malloc(nboth * sizeof *m);
  size_t *bym = malloc(nboth * sizeof *bym);
  vkt_figures ours;
  bool ok = p && m && bym;
  for (size_t k = 0; ok && k < nboth; k++) {
    p[k] = rep->rows[rep->both[k]].c->time_us / 1e3;
    m[k] = rep->rows[rep->both[k]].meas_ms;
  }
  /* BOTH is in the space's order here: the baselines' lambda is fitted on its first */
  ok = ok && figures(p, m, nboth, &ours) && baseline_figures(rep, nboth);
  if (!ok) {
    free(p);
    free(m);
    free(bym);
    vkt_report_free(rep);
    return nomem(diag);
  }
  s->mape = ours.mape, s->geomean = ours.geomean, s->spearman = ours.spearman;
  s->pick_ratio = ours.pick_ratio, s->top1_ratio = ours.top1_ratio, s->top1_in_top5 = ours.top1_in_top5;
  qsort_r(rep->both, nboth, sizeof *rep->both, by_pred, rep->rows);
  memcpy(bym, rep->both, nboth * sizeof *bym);
  qsort_r(bym, nboth, sizeof *bym, by_meas, rep->rows);
  for (size_t k = 0; k < nboth; k++) {
    rep->rows[rep->both[k]].our_rank = k + 1;
    rep->rows[bym[k]].meas_rank = k + 1;
  }
  s->best_measured_ms = rep->rows[bym[0]].meas_ms;
  s->top1 = ours.top1, s->top5 = ours.top5;
  free(p);
  free(m);
  free(bym);
  *out = rep;
  return WGP_OK;
}

/* ---- reports ------------------------------------------------------------------------ */

static void pct(FILE *f, double v) {
  if (isfinite(v))
    fprintf(f, "%.1f%%", v);
  else
    fprintf(f, "-");
}

static void baseline_text(FILE *f, const char *name, const vkt_figures *b) {
  if (!b->n) {
    fprintf(f, "  %s: none of these configurations\n", name);
    return;
  }
  fprintf(f, "  %s over %zu: MAPE ", name, b->n);
  pct(f, b->mape);
  if (isfinite(b->spearman))
    fprintf(f, ", rho %.3f", b->spearman);
  else
    fprintf(f, ", rho - (its times do not vary)");
  fprintf(f, ", pick %.3fx, best of top 1%% %.3fx, measured top 1%% in its top 5%% %.0f%%\n", b->pick_ratio,
          b->top1_ratio, 100 * b->top1_in_top5);
}

int vkt_write_text(const vkt_report *rep, const char *cache, FILE *f) {
  const vkt_summary *s = &rep->s;
  wgp_tune_counts n;
  wgp_tune_get_counts(rep->r, &n);
  fprintf(f, "Kernel Tuner cache %s (%s)\n", cache, *rep->device ? rep->device : "device unknown");
  fprintf(f, "wgtune's ranking of %s on %s: %zu configurations", wgp_tune_result_space(rep->r), wgp_tune_gpu(rep->r),
          s->configurations);
  if (n.sample)
    fprintf(f, " (a sample of the space's %zu)", n.total);
  fprintf(f, "\npredicted and measured: %zu", s->both);
  if (s->not_in_cache)
    fprintf(f, " (%zu not in the cache)", s->not_in_cache);
  fprintf(f, "\n");
  if (s->both) {
    fprintf(f, "  MAPE ");
    pct(f, s->mape);
    fprintf(f, ", geometric-mean error ");
    pct(f, s->geomean);
    fprintf(f, ", Spearman rho %.3f\n", s->spearman);
    fprintf(f, "  our predicted best: measured %.4g ms, %.3fx the measured best (%.4g ms)\n",
            s->pick_ratio * s->best_measured_ms, s->pick_ratio, s->best_measured_ms);
    fprintf(f, "  best measured among our top 1%% (%zu): %.3fx the measured best\n", s->top1, s->top1_ratio);
    fprintf(f, "  the measured top 1%% (%zu) in our top 5%% (%zu): %.0f%%\n", s->top1, s->top5, 100 * s->top1_in_top5);
    baseline_text(f, "BSP (seeds/003)", &s->bsp);
    if (s->bsp.n)
      fprintf(f, "    lambda %.4g, fitted on configuration %zu (its error is 0 by construction)\n", s->bsp_lambda,
              s->bsp_fit_index);
    baseline_text(f, "roofline (seeds/002)", &s->roofline);
  }
  fprintf(f, "cannot run: we rank %zu that the GPU failed (%zu of our 10 fastest), list as cannot run %zu that the "
             "GPU ran; %zu neither ran\n",
          s->we_rank_gpu_failed, s->top10_gpu_failed, s->we_cannot_gpu_ran, s->both_cannot);
  return ferror(f) ? -1 : 0;
}

static json_t *jnum(double v) { return isfinite(v) ? json_real(v) : json_null(); }

static json_t *figures_json(const vkt_figures *b) {
  json_t *j = json_object();
  json_object_set_new(j, "configurations", json_integer((json_int_t)b->n));
  json_object_set_new(j, "mape", jnum(b->mape));
  json_object_set_new(j, "geomean_rel_error", jnum(b->geomean));
  json_object_set_new(j, "spearman", jnum(b->spearman));
  json_object_set_new(j, "pick_ratio", jnum(b->pick_ratio));
  json_object_set_new(j, "top1_best_ratio", jnum(b->top1_ratio));
  json_object_set_new(j, "top1_in_top5", jnum(b->top1_in_top5));
  return j;
}

int vkt_write_json(const vkt_report *rep, const char *cache, FILE *f) {
  const vkt_summary *s = &rep->s;
  json_t *j = json_object();
  json_object_set_new(j, "tool", json_string("wgperf-validate --kernel-tuner"));
  json_object_set_new(j, "cache", json_string(cache));
  json_object_set_new(j, "device", json_string(rep->device));
  json_object_set_new(j, "space", json_string(wgp_tune_result_space(rep->r)));
  json_object_set_new(j, "gpu", json_string(wgp_tune_gpu(rep->r)));
  json_object_set_new(j, "configurations", json_integer((json_int_t)s->configurations));
  json_object_set_new(j, "both", json_integer((json_int_t)s->both));
  json_object_set_new(j, "mape", jnum(s->mape));
  json_object_set_new(j, "geomean_rel_error", jnum(s->geomean));
  json_object_set_new(j, "spearman", jnum(s->spearman));
  json_object_set_new(j, "best_measured_ms", jnum(s->best_measured_ms));
  json_object_set_new(j, "pick_ratio", jnum(s->pick_ratio));
  json_object_set_new(j, "top1_best_ratio", jnum(s->top1_ratio));
  json_object_set_new(j, "top1_in_top5", jnum(s->top1_in_top5));
  json_object_set_new(j, "top1", json_integer((json_int_t)s->top1));
  json_object_set_new(j, "top5", json_integer((json_int_t)s->top5));
  json_object_set_new(j, "we_rank_gpu_failed", json_integer((json_int_t)s->we_rank_gpu_failed));
  json_object_set_new(j, "top10_gpu_failed", json_integer((json_int_t)s->top10_gpu_failed));
  json_object_set_new(j, "we_cannot_gpu_ran", json_integer((json_int_t)s->we_cannot_gpu_ran));
  json_object_set_new(j, "both_cannot", json_integer((json_int_t)s->both_cannot));
  json_object_set_new(j, "not_in_cache", json_integer((json_int_t)s->not_in_cache));
  json_t *b = json_object(), *bsp = figures_json(&s->bsp);
  json_object_set_new(bsp, "lambda", jnum(s->bsp_lambda));
  json_object_set_new(bsp, "fitted_on_index", s->bsp.n ? json_integer((json_int_t)s->bsp_fit_index) : json_null());
  json_object_set_new(b, "bsp", bsp);
  json_object_set_new(b, "roofline", figures_json(&s->roofline));
  json_object_set_new(j, "baselines", b);
  int rc = json_dumpf(j, f, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(8));
  json_decref(j);
  if (rc == 0 && fputc('\n', f) == EOF)
    rc = -1;
  return rc;
}

static void csv_text(FILE *f, const char *s) {
  if (!strpbrk(s, ",\"\n")) {
    fputs(s, f);
    return;
  }
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"')
      fputc('"', f);
    fputc(*s, f);
  }
  fputc('"', f);
}

int vkt_write_csv(const vkt_report *rep, FILE *f) {
  const wgp_tune_result *r = rep->r;
  fprintf(f, "index");
  for (size_t p = 0; p < wgp_tune_num_params(r); p++)
    fprintf(f, ",%s", wgp_tune_param(r, p));
  fprintf(f, ",measured_ms,predicted_ms,our_rank,measured_rank,gpu,wgperf,bsp_ms,roofline_ms\n");
  for (size_t i = 0; i < rep->nrows; i++) {
    const row *w = &rep->rows[i];
    fprintf(f, "%zu", w->c->index);
    for (size_t p = 0; p < wgp_tune_num_params(r); p++) {
      fputc(',', f);
      csv_text(f, w->c->values[p].text);
    }
    fputc(',', f);
    if (isfinite(w->meas_ms))
      fprintf(f, "%.9g", w->meas_ms);
    fputc(',', f);
    if (w->c->ok)
      fprintf(f, "%.9g", w->c->time_us / 1e3);
    fputc(',', f);
    if (w->our_rank)
      fprintf(f, "%zu,%zu", w->our_rank, w->meas_rank);
    else
      fputc(',', f);
    fputc(',', f);
    csv_text(f, w->failure ? w->failure : w->in_cache ? "ran" : "not in the cache");
    fputc(',', f);
    csv_text(f, w->c->ok ? "ranked" : w->c->reason);
    fputc(',', f);
    if (w->c->ok && w->c->bsp_us > 0 && isfinite(w->c->bsp_us) && isfinite(rep->s.bsp_lambda))
      fprintf(f, "%.9g", w->c->bsp_us / 1e3 / rep->s.bsp_lambda);
    fputc(',', f);
    if (w->c->ok && w->c->roofline_us > 0 && isfinite(w->c->roofline_us))
      fprintf(f, "%.9g", w->c->roofline_us / 1e3);
    fputc('\n', f);
  }
  return ferror(f) ? -1 : 0;
}

int vkt_write_plot(const vkt_report *rep, const char *cache, FILE *f) {
  const vkt_summary *s = &rep->s;
  double lo = INFINITY, hi = 0;
  for (size_t k = 0; k < s->both; k++) {
    const row *w = &rep->rows[rep->both[k]];
    double v[2] = {w->meas_ms, w->c->time_us / 1e3};
    for (int q = 0; q < 2; q++) {
      if (v[q] > 0 && v[q] < lo)
        lo = v[q];
      if (v[q] > hi)
        hi = v[q];
    }
  }
  if (!(lo < INFINITY))
    lo = 0.01, hi = 10;
  if (hi <= lo)
    hi = lo * 10;
  double llo = log10(lo) - 0.05, lhi = log10(hi) + 0.05;
  const double W = 640, H = 600, L = 70, R = 20, T = 60, B = 60, S = W - L - R;
  fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" font-family=\"sans-serif\" "
             "font-size=\"11\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
          W, H);
  fprintf(f, "<text x=\"%.0f\" y=\"22\" font-size=\"14\">", L);
  wgp_svg_text(f, wgp_tune_result_space(rep->r));
  fputs(" on ", f);
  wgp_svg_text(f, wgp_tune_gpu(rep->r));
  fprintf(f, ": predicted against measured time</text>\n<text x=\"%.0f\" y=\"40\" fill=\"#555\">", L);
  wgp_svg_text(f, cache);
  fprintf(f, "; %zu configurations; red: the measured top 1%%, ringed: our top 5%%; MAPE %.1f%%, rho %.3f</text>\n",
          s->both, s->mape, s->spearman);
  fprintf(f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" fill=\"none\" stroke=\"#ccc\"/>\n", L, T, S,
          H - T - B);
#define PX(v) (L + (log10(v) - llo) / (lhi - llo) * S)
#define PY(v) (H - B - (log10(v) - llo) / (lhi - llo) * (H - T - B))
  for (int e = (int)floor(llo); e <= (int)ceil(lhi); e++) {
    if (e < llo || e > lhi)
      continue;
    double v = pow(10, e);
    fprintf(f, "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" stroke=\"#eee\"/>\n", PX(v), T, PX(v), H - B);
    fprintf(f, "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"#eee\"/>\n", L, PY(v), W - R, PY(v));
    fprintf(f, "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">%g</text>\n", PX(v), H - B + 14, v);
    fprintf(f, "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n", L - 4, PY(v) + 4, v);
  }
  fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#999\" stroke-dasharray=\"4 3\"/>\n",
          PX(pow(10, llo)), PY(pow(10, llo)), PX(pow(10, lhi)), PY(pow(10, lhi)));
  fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">measured (ms)</text>\n", L + S / 2, H - 20);
  fprintf(f, "<text x=\"20\" y=\"%.0f\" transform=\"rotate(-90 20 %.0f)\" text-anchor=\"middle\">predicted (ms)</text>\n",
          T + (H - T - B) / 2, T + (H - T - B) / 2);
  for (size_t k = 0; k < s->both; k++) {
    const row *w = &rep->rows[rep->both[k]];
    bool top = w->meas_rank <= s->top1, ours = w->our_rank <= s->top5;
    fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%s\" fill=\"%s\" fill-opacity=\"%s\"%s/>\n", PX(w->meas_ms),
            PY(w->c->time_us / 1e3), top ? "3" : "1.6", top ? "#d62728" : "#1f77b4", top ? "1" : "0.35",
            ours ? " stroke=\"black\" stroke-width=\"0.8\"" : "");
  }
#undef PX
#undef PY
  fprintf(f, "</svg>\n");
  return ferror(f) ? -1 : 0;
}
