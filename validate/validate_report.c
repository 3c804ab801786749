/* validate_report.c - statistics and outputs of wgperf-validate
 * (validate_report.h; names and meanings: docs/validation.md).
 *
 * A row counts for a model when the row has a measured duration and the
 * model a finite prediction; the BSP baseline additionally leaves out the
 * row its lambda was fitted on (seeds/003: lambda = BSP time / measured time
 * of one run per kernel and GPU).  Launch-shape statistics work on groups of
 * rows with the same (gpu, kernel, input_size), each row one shape.
 */
#define _DEFAULT_SOURCE
#include "validate_report.h"

#include "wgperf/stats.h"

#include <jansson.h>

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const model_names[VR_NMODELS] = {"wgperf", "bsp", "roofline"};
static const char *const model_titles[VR_NMODELS] = {"wgperf (ours)", "BSP, seeds/003", "roofline, seeds/002"};

typedef struct vgroup {
  size_t gpu, kernel; /* indices into the name lists */
  long long input_size;
  size_t *members;    /* indices into the selection */
  size_t n;
  /* per model */
  double spearman[VR_NMODELS];
  size_t best;                  /* member with the smallest measured time */
  size_t rank_of_best[VR_NMODELS]; /* 0 when the model has no prediction for every member */
  size_t chosen[VR_NMODELS];
  double slowdown[VR_NMODELS];
} vgroup;

typedef struct vlambda {
  size_t gpu, kernel;
  double lambda;   /* NaN when not fitted */
  size_t row;      /* selection index of the row it was fitted on */
} vlambda;

struct vreport {
  vreport_input in;
  double *meas;               /* per selection index: the measured quantity, NaN when unusable */
  double *pred[VR_NMODELS];   /* per selection index; NaN when none */
  char **gpus, **kernels;     /* sorted distinct names */
  size_t ngpus, nkernels;
  size_t *gi, *ki;            /* per selection index */
  vgroup *groups;
  size_t ngroups;
  vlambda *lambdas;
  size_t nlambdas;
  vr_stats overall[VR_NMODELS];
  /* counters: overall, per counting rule (wgp_counter_rules), per kernel */
  vr_counter_stats ctr_all[WGP_NUM_COUNTERS], ctr_rules[3][WGP_NUM_COUNTERS], *ctr_kernel; /* kernel * NC + c */
  vr_stats *per_gpu[VR_NMODELS], *per_kernel[VR_NMODELS], *per_pair[VR_NMODELS]; /* pair: gpu * nkernels + kernel */
  size_t predicted, unpredicted;
};

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static size_t find_name(char **names, size_t n, const char *s) {
  char *const *p = bsearch(&s, names, n, sizeof *names, cmp_str);
  return p ? (size_t)(p - names) : 0;
}

/* Sorted distinct strings of the selected rows' column (gpu when GPU). */
static char **distinct(const vreport_input *in, bool gpu, size_t *n) {
  char **v = malloc((in->n ? in->n : 1) * sizeof *v);
  if (!v)
    return NULL;
  for (size_t i = 0; i < in->n; i++) {
    const vrow *r = &in->rows[in->idx[i]];
    v[i] = (char *)(gpu ? r->gpu : r->kernel);
  }
  qsort(v, in->n, sizeof *v, cmp_str);
  size_t k = 0;
  for (size_t i = 0; i < in->n; i++)
    if (k == 0 || strcmp(v[k - 1], v[i]) != 0)
      v[k++] = v[i];
  *n = k;
  return v;
}

typedef struct gkey {
  size_t gpu, kernel;
  long long size;
  long long threads; /* per block */
  size_t sel;
} gkey;

static int cmp_gkey(const void *a, const void *b) {
  const gkey *x = a, *y = b;
  if (x->gpu != y->gpu)
    return x->gpu < y->gpu ? -1 : 1;
  if (x->kernel != y->kernel)
    return x->kernel < y->kernel ? -1 : 1;
  if (x->size != y->size)
    return x->size < y->size ? -1 : 1;
  /* a group's members by threads per block: predicted ties go to the smaller
   * block, as wgprune ranks them (wgp_stats_argmin takes the first) */
  if (x->threads != y->threads)
    return x->threads < y->threads ? -1 : 1;
  return x->sel < y->sel ? -1 : x->sel > y->sel;
}

/* Fits one lambda per (gpu, kernel): on the row of the pair's most frequent
 * launch shape whose input size is the median of that shape's sizes (the
 * first such row in the file). */
static void fit_lambdas(vreport *r) {
  size_t np = r->ngpus * r->nkernels;
  r->lambdas = calloc(np ? np : 1, sizeof *r->lambdas);
  if (!r->lambdas)
    return;
  r->nlambdas = np;
  for (size_t p = 0; p < np; p++) {
    vlambda *l = &r->lambdas[p];
    l->gpu = p / r->nkernels;
    l->kernel = p % r->nkernels;
    l->lambda = NAN;
    l->row = (size_t)-1;
    /* candidate rows */
    size_t best_count = 0;
    const vrow *shape = NULL;
    for (size_t i = 0; i < r->in.n; i++) {
      if (r->gi[i] != l->gpu || r->ki[i] != l->kernel || !isfinite(r->meas[i]) || !isfinite(r->pred[VR_BSP][i]))
        continue;
      const vrow *a = &r->in.rows[r->in.idx[i]];
      size_t count = 0;
      for (size_t j = 0; j < r->in.n; j++) {
        const vrow *b = &r->in.rows[r->in.idx[j]];
        if (r->gi[j] == l->gpu && r->ki[j] == l->kernel && isfinite(r->meas[j]) && isfinite(r->pred[VR_BSP][j]) &&
            memcmp(a->r.block, b->r.block, sizeof a->r.block) == 0)
          count++;
      }
      if (count > best_count)
        best_count = count, shape = a;
    }
    if (!shape)
      continue;
    long long *sizes = malloc(best_count * sizeof *sizes);
    if (!sizes)
      continue;
    size_t k = 0;
    for (size_t i = 0; i < r->in.n; i++) {
      const vrow *a = &r->in.rows[r->in.idx[i]];
      if (r->gi[i] == l->gpu && r->ki[i] == l->kernel && isfinite(r->meas[i]) && isfinite(r->pred[VR_BSP][i]) &&
          memcmp(a->r.block, shape->r.block, sizeof a->r.block) == 0)
        sizes[k++] = a->r.input_size;
    }
    /* lower median */
    for (size_t a = 1; a < k; a++)
      for (size_t b = a; b > 0 && sizes[b - 1] > sizes[b]; b--) {
        long long t = sizes[b];
        sizes[b] = sizes[b - 1];
        sizes[b - 1] = t;
      }
    long long med = sizes[(k - 1) / 2];
    free(sizes);
    for (size_t i = 0; i < r->in.n && l->row == (size_t)-1; i++) {
      const vrow *a = &r->in.rows[r->in.idx[i]];
      if (r->gi[i] == l->gpu && r->ki[i] == l->kernel && isfinite(r->meas[i]) && isfinite(r->pred[VR_BSP][i]) &&
          memcmp(a->r.block, shape->r.block, sizeof a->r.block) == 0 && a->r.input_size == med && r->pred[VR_BSP][i] > 0)
        l->row = i;
    }
    if (l->row != (size_t)-1)
      l->lambda = r->pred[VR_BSP][l->row] / r->meas[l->row];
  }
  /* scale, and leave the fitting rows out */
  for (size_t i = 0; i < r->in.n; i++) {
    vlambda *l = &r->lambdas[r->gi[i] * r->nkernels + r->ki[i]];
    if (l->row == i || !isfinite(l->lambda))
      r->pred[VR_BSP][i] = NAN;
    else
      r->pred[VR_BSP][i] /= l->lambda;
  }
}

static void group_stats(vreport *r, vgroup *g) {
  double *m = malloc(2 * g->n * sizeof *m);
  if (!m)
    return;
  double *p = m + g->n;
  for (size_t j = 0; j < g->n; j++)
    m[j] = r->meas[g->members[j]];
  g->best = wgp_stats_argmin(m, g->n);
  for (int mo = 0; mo < VR_NMODELS; mo++) {
    g->spearman[mo] = NAN;
    g->rank_of_best[mo] = 0;
    g->slowdown[mo] = NAN;
    bool all = true;
    for (size_t j = 0; j < g->n; j++) {
      p[j] = r->pred[mo][g->members[j]];
      all = all && isfinite(p[j]);
    }
    if (!all || g->n < 2)
      continue;
    if (g->n >= 3 && wgp_stats_spearman(p, m, g->n, &g->spearman[mo]) != WGP_OK)
      g->spearman[mo] = NAN;
    g->rank_of_best[mo] = wgp_stats_rank_of(p, g->n, g->best);
    g->chosen[mo] = wgp_stats_argmin(p, g->n);
    g->slowdown[mo] = m[g->chosen[mo]] / m[g->best];
  }
  free(m);
}

static void counter_add(vr_counter_stats *st, double p, double m, double *sum, size_t *nsum) {
  if (!isfinite(p) || !isfinite(m))
    return;
  st->rows++;
  if (m > 0) {
    *sum += fabs(p - m) / m;
    (*nsum)++;
    st->within_5 += fabs(p - m) <= 0.05 * m;
  } else {
    st->within_5 += p == 0;
  }
}

static void counter_stats(vreport *r) {
  for (int c = 0; c < WGP_NUM_COUNTERS; c++) {
    double sum[2 + 3] = {0};
    size_t ns[2 + 3] = {0};
    vr_counter_stats *all = &r->ctr_all[c];
    memset(all, 0, sizeof *all);
    for (int f = 0; f < 3; f++)
      memset(&r->ctr_rules[f][c], 0, sizeof r->ctr_rules[f][c]);
    for (size_t i = 0; i < r->in.n; i++) {
      const vresult *res = &r->in.res[i];
      if (!res->ok)
        continue;
      double p = res->counters[c], m = r->in.rows[r->in.idx[i]].counters[c];
      counter_add(all, p, m, &sum[0], &ns[0]);
      if (res->counter_rules >= 0 && res->counter_rules < 3)
        counter_add(&r->ctr_rules[res->counter_rules][c], p, m, &sum[2 + res->counter_rules],
                    &ns[2 + res->counter_rules]);
    }
    all->mape = ns[0] ? 100 * sum[0] / (double)ns[0] : NAN;
    for (int f = 0; f < 3; f++)
      r->ctr_rules[f][c].mape = ns[2 + f] ? 100 * sum[2 + f] / (double)ns[2 + f] : NAN;
    for (size_t k = 0; r->ctr_kernel && k < r->nkernels; k++) {
      vr_counter_stats *st = &r->ctr_kernel[k * WGP_NUM_COUNTERS + (size_t)c];
      double s1 = 0;
      size_t n1 = 0;
      memset(st, 0, sizeof *st);
      for (size_t i = 0; i < r->in.n; i++)
        if (r->ki[i] == k && r->in.res[i].ok)
          counter_add(st, r->in.res[i].counters[c], r->in.rows[r->in.idx[i]].counters[c], &s1, &n1);
      st->mape = n1 ? 100 * s1 / (double)n1 : NAN;
    }
  }
}

/* Statistics of model MO over the selection indices for which KEEP is true. */
typedef bool (*keep_fn)(const vreport *r, size_t sel, size_t a, size_t b);
static bool keep_all(const vreport *r, size_t s, size_t a, size_t b) { return (void)r, (void)s, (void)a, (void)b, true; }
static bool keep_gpu(const vreport *r, size_t s, size_t a, size_t b) { return (void)b, r->gi[s] == a; }
static bool keep_kernel(const vreport *r, size_t s, size_t a, size_t b) { return (void)b, r->ki[s] == a; }
static bool keep_pair(const vreport *r, size_t s, size_t a, size_t b) { return r->gi[s] == a && r->ki[s] == b; }

static void scope_stats(const vreport *r, int mo, keep_fn keep, size_t a, size_t b, vr_stats *st) {
  memset(st, 0, sizeof *st);
  double *p = malloc(2 * (r->in.n ? r->in.n : 1) * sizeof *p);
  if (!p) {
    st->mape = st->geomean = st->spearman = NAN;
    return;
  }
  double *m = p + r->in.n;
  size_t k = 0;
  for (size_t i = 0; i < r->in.n; i++)
    if (keep(r, i, a, b) && isfinite(r->meas[i]) && isfinite(r->pred[mo][i])) {
      p[k] = r->pred[mo][i];
      m[k++] = r->meas[i];
    }
  st->rows = k;
  st->mape = wgp_stats_mape(p, m, k);
  st->geomean = wgp_stats_geomean_rel_error(p, m, k);
  free(p);
  double rho = 0, slow = 0;
  st->max_slowdown = NAN;
  for (size_t gi = 0; gi < r->ngroups; gi++) {
    const vgroup *g = &r->groups[gi];
    if (!keep(r, g->members[0], a, b))
      continue;
    if (isfinite(g->spearman[mo])) {
      rho += g->spearman[mo];
      st->spearman_groups++;
    }
    if (g->rank_of_best[mo]) {
      st->choice_groups++;
      st->best_rank1 += g->rank_of_best[mo] == 1;
      st->within_105 += g->slowdown[mo] <= 1.05;
      slow += g->slowdown[mo];
      if (!(g->slowdown[mo] <= st->max_slowdown))
        st->max_slowdown = g->slowdown[mo];
    }
  }
  st->spearman = st->spearman_groups ? rho / (double)st->spearman_groups : NAN;
  st->mean_slowdown = st->choice_groups ? slow / (double)st->choice_groups : NAN;
}

wgp_status vreport_build(const vreport_input *in, vreport **out, wgp_diag *diag) {
  *out = NULL;
  vreport *r = calloc(1, sizeof *r);
  size_t n = in->n ? in->n : 1;
  if (!r)
    return wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
  r->in = *in;
  r->meas = malloc(n * sizeof *r->meas);
  r->gi = malloc(n * sizeof *r->gi);
  r->ki = malloc(n * sizeof *r->ki);
  bool ok = r->meas && r->gi && r->ki;
  for (int m = 0; m < VR_NMODELS && ok; m++)
    ok = (r->pred[m] = malloc(n * sizeof *r->pred[m])) != NULL;
  ok = ok && (r->gpus = distinct(in, true, &r->ngpus)) && (r->kernels = distinct(in, false, &r->nkernels));
  if (!ok) {
    vreport_free(r);
    return wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
  }
  for (size_t i = 0; i < in->n; i++) {
    const vrow *row = &in->rows[in->idx[i]];
    const vresult *res = &in->res[i];
    r->gi[i] = find_name(r->gpus, r->ngpus, row->gpu);
    r->ki[i] = find_name(r->kernels, r->nkernels, row->kernel);
    r->meas[i] = res->ok ? vrow_measured_s(row) : NAN;
    r->pred[VR_OURS][i] = res->ok ? res->pred_s : NAN;
    r->pred[VR_BSP][i] = res->ok ? res->bsp_raw_s : NAN;
    r->pred[VR_ROOFLINE][i] = res->ok ? res->roofline_s : NAN;
    if (res->ok)
      r->predicted++;
    else
      r->unpredicted++;
  }
  fit_lambdas(r);
  /* groups */
  gkey *keys = malloc(n * sizeof *keys);
  if (!keys) {
    vreport_free(r);
    return wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
  }
  size_t nk = 0;
  for (size_t i = 0; i < in->n; i++) {
    const vm_row *v = &in->rows[in->idx[i]].r;
    if (isfinite(r->meas[i]))
      keys[nk++] = (gkey){r->gi[i], r->ki[i], v->input_size, v->block[0] * v->block[1] * v->block[2], i};
  }
  qsort(keys, nk, sizeof *keys, cmp_gkey);
  r->groups = calloc(nk ? nk : 1, sizeof *r->groups);
  for (size_t a = 0; r->groups && a < nk;) {
    size_t b = a + 1;
    while (b < nk && keys[b].gpu == keys[a].gpu && keys[b].kernel == keys[a].kernel && keys[b].size == keys[a].size)
      b++;
    vgroup *g = &r->groups[r->ngroups++];
    g->gpu = keys[a].gpu;
    g->kernel = keys[a].kernel;
    g->input_size = keys[a].size;
    g->n = b - a;
    g->members = malloc(g->n * sizeof *g->members);
    for (size_t j = 0; g->members && j < g->n; j++)
      g->members[j] = keys[a + j].sel;
    if (g->members)
      group_stats(r, g);
    else
      g->n = 0;
    a = b;
  }
  free(keys);
  if (!r->groups) {
    vreport_free(r);
    return wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
  }
  for (int m = 0; m < VR_NMODELS; m++) {
    scope_stats(r, m, keep_all, 0, 0, &r->overall[m]);
    r->per_gpu[m] = calloc(r->ngpus ? r->ngpus : 1, sizeof *r->per_gpu[m]);
    r->per_kernel[m] = calloc(r->nkernels ? r->nkernels : 1, sizeof *r->per_kernel[m]);
    r->per_pair[m] = calloc(r->ngpus * r->nkernels > 0 ? r->ngpus * r->nkernels : 1, sizeof *r->per_pair[m]);
    if (!r->per_gpu[m] || !r->per_kernel[m] || !r->per_pair[m]) {
      vreport_free(r);
      return wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
    }
    for (size_t g = 0; g < r->ngpus; g++)
      scope_stats(r, m, keep_gpu, g, 0, &r->per_gpu[m][g]);
    for (size_t k = 0; k < r->nkernels; k++)
      scope_stats(r, m, keep_kernel, k, 0, &r->per_kernel[m][k]);
    for (size_t g = 0; g < r->ngpus; g++)
      for (size_t k = 0; k < r->nkernels; k++)
        scope_stats(r, m, keep_pair, g, k, &r->per_pair[m][g * r->nkernels + k]);
  }
  r->ctr_kernel = calloc((r->nkernels ? r->nkernels : 1) * WGP_NUM_COUNTERS, sizeof *r->ctr_kernel);
  if (!r->ctr_kernel) {
    vreport_free(r);
    return wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
  }
  counter_stats(r);
  *out = r;
  return WGP_OK;
}

void vreport_free(vreport *r) {
  if (!r)
    return;
  free(r->meas);
  free(r->gi);
  free(r->ki);
  for (int m = 0; m < VR_NMODELS; m++) {
    free(r->pred[m]);
    free(r->per_gpu[m]);
    free(r->per_kernel[m]);
    free(r->per_pair[m]);
  }
  free(r->gpus);
  free(r->kernels);
  for (size_t g = 0; g < r->ngroups; g++)
    free(r->groups[g].members);
  free(r->groups);
  free(r->lambdas);
  free(r->ctr_kernel);
  free(r);
}

const vr_stats *vreport_overall(const vreport *r, int m) { return &r->overall[m]; }

/* ---- text ------------------------------------------------------------------- */

static void pct(FILE *f, double v, int width) {
  if (isfinite(v))
    fprintf(f, " %*.1f%%", width - 1, v);
  else
    fprintf(f, " %*s", width, "-");
}

static void num(FILE *f, double v, int width, int prec) {
  if (isfinite(v))
    fprintf(f, " %*.*f", width, prec, v);
  else
    fprintf(f, " %*s", width, "-");
}

/* Models with a prediction for some row (a baseline the run could not
 * compute gets no columns). */
static bool active(const vreport *r, int m) { return r->overall[m].rows > 0 || m == VR_OURS; }

static void stats_row(const vreport *r, FILE *f, const char *label, const vr_stats *st[VR_NMODELS]) {
  fprintf(f, "  %-34s %5zu", label, st[VR_OURS]->rows);
  for (int m = 0; m < VR_NMODELS; m++) {
    if (!active(r, m))
      continue;
    fprintf(f, " |");
    pct(f, st[m]->mape, 7);
    pct(f, st[m]->geomean, 7);
    num(f, st[m]->spearman, 6, 2);
  }
  fprintf(f, "\n");
}

static void stats_header(const vreport *r, FILE *f, const char *what) {
  fprintf(f, "  %-34s %5s", what, "rows");
  for (int m = 0; m < VR_NMODELS; m++)
    if (active(r, m))
      fprintf(f, " | %-22s", model_titles[m]);
  fprintf(f, "\n  %-34s %5s", "", "");
  for (int m = 0; m < VR_NMODELS; m++)
    if (active(r, m))
      fprintf(f, " | %7s %7s %6s", "MAPE", "geomean", "rho");
  fprintf(f, "\n");
}

static const char *shape_of(const vrow *row, char *buf, size_t n) {
  if (row->r.block[2] > 1)
    snprintf(buf, n, "%lldx%lldx%lld", (long long)row->r.block[0], (long long)row->r.block[1],
             (long long)row->r.block[2]);
  else if (row->r.block[1] > 1)
    snprintf(buf, n, "%lldx%lld", (long long)row->r.block[0], (long long)row->r.block[1]);
  else
    snprintf(buf, n, "%lld", (long long)row->r.block[0]);
  return buf;
}

static void choice_line(FILE *f, const vreport *r, const vgroup *g) {
  char b1[48], b2[48];
  const vrow *best = &r->in.rows[r->in.idx[g->members[g->best]]];
  fprintf(f, "  %-11s %-32s %10lld %5zu  %-9s", r->gpus[g->gpu], r->kernels[g->kernel], g->input_size, g->n,
          shape_of(best, b1, sizeof b1));
  for (int m = 0; m < VR_NMODELS; m++) {
    if (!active(r, m))
      continue;
    if (!g->rank_of_best[m]) {
      fprintf(f, " | %4s %-9s %6s", "-", "-", "-");
      continue;
    }
    const vrow *ch = &r->in.rows[r->in.idx[g->members[g->chosen[m]]]];
    fprintf(f, " | %4zu %-9s %5.2fx", g->rank_of_best[m], shape_of(ch, b2, sizeof b2), g->slowdown[m]);
  }
  fprintf(f, "\n");
}

void vreport_text(const vreport *r, FILE *f, bool all_groups) {
  const vreport_input *in = &r->in;
  fprintf(f, "wgperf-validate: %s: %zu rows", in->csv_name, in->total_rows);
  if (in->selection && *in->selection)
    fprintf(f, ", %zu selected (%s)", in->n, in->selection);
  fprintf(f, "; %zu predicted, %zu not predicted%s\n", r->predicted, r->unpredicted,
          r->unpredicted ? " (listed at the end)" : "");
  fprintf(f, "\nDuration: MAPE and geometric-mean relative error in percent; rho = mean Spearman rank correlation over\n"
             "launch shapes within each (gpu, kernel, input_size) of 3 or more shapes. BSP: lambda fitted per kernel and\n"
             "GPU on one row (listed below), which its errors leave out. Roofline: max of bytes / bandwidth per memory\n"
             "level and operations / peak, no latency.\n\n");
  const vr_stats *st[VR_NMODELS];
  stats_header(r, f, "overall");
  for (int m = 0; m < VR_NMODELS; m++)
    st[m] = &r->overall[m];
  stats_row(r, f, "all rows", st);
  fprintf(f, "\n");
  stats_header(r, f, "per GPU");
  for (size_t g = 0; g < r->ngpus; g++) {
    for (int m = 0; m < VR_NMODELS; m++)
      st[m] = &r->per_gpu[m][g];
    stats_row(r, f, r->gpus[g], st);
  }
  fprintf(f, "\n");
  stats_header(r, f, "per kernel");
  for (size_t k = 0; k < r->nkernels; k++) {
    for (int m = 0; m < VR_NMODELS; m++)
      st[m] = &r->per_kernel[m][k];
    stats_row(r, f, r->kernels[k], st);
  }
  fprintf(f, "\n");
  stats_header(r, f, "per GPU and kernel");
  for (size_t g = 0; g < r->ngpus; g++)
    for (size_t k = 0; k < r->nkernels; k++) {
      for (int m = 0; m < VR_NMODELS; m++)
        st[m] = &r->per_pair[m][g * r->nkernels + k];
      if (!st[VR_OURS]->rows && !st[VR_BSP]->rows)
        continue;
      char label[96];
      snprintf(label, sizeof label, "%s %s", r->gpus[g], r->kernels[k]);
      stats_row(r, f, label, st);
    }

  fprintf(f, "\nLaunch-shape choice over %zu (gpu, kernel, input_size) groups of 2 or more shapes:\n",
          r->overall[VR_OURS].choice_groups);
  fprintf(f, "  %-22s %8s %16s %14s %14s\n", "model", "groups", "best predicted", "within 1.05x", "mean slowdown");
  for (int m = 0; m < VR_NMODELS; m++) {
    const vr_stats *s = &r->overall[m];
    if (!active(r, m))
      continue;
    fprintf(f, "  %-22s %8zu", model_titles[m], s->choice_groups);
    pct(f, s->choice_groups ? 100.0 * (double)s->best_rank1 / (double)s->choice_groups : NAN, 16);
    pct(f, s->choice_groups ? 100.0 * (double)s->within_105 / (double)s->choice_groups : NAN, 14);
    if (isfinite(s->mean_slowdown))
      fprintf(f, " %13.3fx\n", s->mean_slowdown);
    else
      fprintf(f, " %14s\n", "-");
  }
  /* per group: all, or the 10 worst choices of ours */
  size_t listed = 0;
  size_t *order = malloc((r->ngroups ? r->ngroups : 1) * sizeof *order);
  if (order) {
    for (size_t g = 0; g < r->ngroups; g++)
      if (r->groups[g].rank_of_best[VR_OURS] || all_groups)
        order[listed++] = g;
    if (!all_groups) { /* worst slowdown first, then file order */
      for (size_t a = 1; a < listed; a++)
        for (size_t b = a; b > 0; b--) {
          const vgroup *x = &r->groups[order[b - 1]], *y = &r->groups[order[b]];
          if (!(y->slowdown[VR_OURS] > x->slowdown[VR_OURS]))
            break;
          size_t t = order[b];
          order[b] = order[b - 1];
          order[b - 1] = t;
        }
      if (listed > 10)
        listed = 10;
    }
    if (listed) {
      fprintf(f, "\n%s: rank of the measured-best shape among the predictions, the shape chosen, and its measured "
                 "slowdown\n",
              all_groups ? "Every group" : "The 10 worst choices of ours (--all-groups lists every group)");
      fprintf(f, "  %-11s %-32s %10s %5s  %-9s", "gpu", "kernel", "size", "shapes", "best");
      for (int m = 0; m < VR_NMODELS; m++)
        if (active(r, m))
          fprintf(f, " | %-21s", model_names[m]);
      fprintf(f, "\n");
      for (size_t i = 0; i < listed; i++)
        choice_line(f, r, &r->groups[order[i]]);
    }
    free(order);
  }

  size_t measured = 0;
  for (int c = 0; c < WGP_NUM_COUNTERS; c++)
    measured += r->ctr_all[c].rows;
  if (measured) {
    static const char *const family[3] = {"Kepler rules", "Maxwell rules", "sector rules"};
    fprintf(f, "\nCounters against nvprof (rules per architecture: docs/counters.md); MAPE over rows measured above 0,\n"
               "and the rows predicted within 5%%:\n");
    fprintf(f, "  %-36s %7s %8s %9s", "counter", "rows", "MAPE", "within 5%");
    for (int fa = 0; fa < 3; fa++)
      fprintf(f, " | %-24s", family[fa]);
    fprintf(f, "\n");
    for (int c = 0; c < WGP_NUM_COUNTERS; c++) {
      const vr_counter_stats *cs = &r->ctr_all[c];
      if (!cs->rows)
        continue;
      fprintf(f, "  %-36s %7zu", wgp_counter_name((wgp_counter)c), cs->rows);
      pct(f, cs->mape, 8);
      pct(f, 100.0 * (double)cs->within_5 / (double)cs->rows, 9);
      for (int fa = 0; fa < 3; fa++) {
        const vr_counter_stats *sf = &r->ctr_rules[fa][c];
        if (sf->rows) {
          fprintf(f, " | %6zu", sf->rows);
          pct(f, sf->mape, 8);
          pct(f, 100.0 * (double)sf->within_5 / (double)sf->rows, 8);
        } else
          fprintf(f, " | %24s", "-");
      }
      fprintf(f, "\n");
    }
    fprintf(f, "\n  transactions per request, per kernel: MAPE / within 5%%\n");
    fprintf(f, "  %-36s", "kernel");
    for (int c = WGP_CTR_GLD_PER_REQUEST; c <= WGP_CTR_SHARED_ST_PER_REQUEST; c++)
      fprintf(f, " | %-20.20s", wgp_counter_name((wgp_counter)c));
    fprintf(f, "\n");
    for (size_t k = 0; k < r->nkernels; k++) {
      fprintf(f, "  %-36s", r->kernels[k]);
      for (int c = WGP_CTR_GLD_PER_REQUEST; c <= WGP_CTR_SHARED_ST_PER_REQUEST; c++) {
        const vr_counter_stats *cs = &r->ctr_kernel[k * WGP_NUM_COUNTERS + (size_t)c];
        if (!cs->rows) {
          fprintf(f, " | %20s", "-");
          continue;
        }
        fprintf(f, " |");
        pct(f, cs->mape, 9);
        pct(f, 100.0 * (double)cs->within_5 / (double)cs->rows, 9);
        fprintf(f, " ");
      }
      fprintf(f, "\n");
    }
  }

  size_t fitted = 0;
  for (size_t i = 0; i < r->nlambdas; i++)
    fitted += isfinite(r->lambdas[i].lambda);
  if (fitted) {
    fprintf(f, "\nBSP lambda per GPU and kernel (seeds/003 eq. 3; fitted on the row named, left out of its errors):\n");
    for (size_t i = 0; i < r->nlambdas; i++) {
      const vlambda *l = &r->lambdas[i];
      if (!isfinite(l->lambda))
        continue;
      const vrow *row = &r->in.rows[r->in.idx[l->row]];
      char b[48];
      fprintf(f, "  %-11s %-32s lambda %9.4g  (line %zu: size %lld, block %s)\n", r->gpus[l->gpu],
              r->kernels[l->kernel], l->lambda, row->line, (long long)row->r.input_size, shape_of(row, b, sizeof b));
    }
  }
  if (r->unpredicted) {
    fprintf(f, "\nNot predicted (%zu rows):\n", r->unpredicted);
    for (size_t i = 0; i < in->n; i++)
      if (!in->res[i].ok) {
        const vrow *row = &in->rows[in->idx[i]];
        fprintf(f, "  %s:%zu: %s %s: %s\n", in->csv_name, row->line, row->gpu, row->kernel, in->res[i].reason);
      }
  }
}


/* ---- JSON --------------------------------------------------------------------- */

static json_t *jnum(double v) { return isfinite(v) ? json_real(v) : json_null(); }

static json_t *scope_json(const vr_stats *st[VR_NMODELS]) {
  json_t *o = json_object();
  json_t *models[VR_NMODELS];
  for (int m = 0; m < VR_NMODELS; m++) {
    const vr_stats *s = st[m];
    json_t *j = m == VR_OURS ? o : json_object();
    json_object_set_new(j, "rows", json_integer((json_int_t)s->rows));
    json_object_set_new(j, "mape", jnum(s->mape));
    json_object_set_new(j, "geomean_rel_error", jnum(s->geomean));
    json_object_set_new(j, "spearman", jnum(s->spearman));
    json_object_set_new(j, "spearman_groups", json_integer((json_int_t)s->spearman_groups));
    json_t *ch = json_object();
    json_object_set_new(ch, "groups", json_integer((json_int_t)s->choice_groups));
    json_object_set_new(ch, "best_predicted", json_integer((json_int_t)s->best_rank1));
    json_object_set_new(ch, "within_1_05", json_integer((json_int_t)s->within_105));
    json_object_set_new(ch, "mean_slowdown", jnum(s->mean_slowdown));
    json_object_set_new(ch, "max_slowdown", jnum(s->max_slowdown));
    json_object_set_new(j, "shape_choice", ch);
    models[m] = j;
  }
  json_t *b = json_object();
  for (int m = 1; m < VR_NMODELS; m++)
    json_object_set_new(b, model_names[m], models[m]);
  json_object_set_new(o, "baselines", b);
  return o;
}

static json_t *counter_json(const vr_counter_stats *s) {
  json_t *o = json_object();
  json_object_set_new(o, "rows", json_integer((json_int_t)s->rows));
  json_object_set_new(o, "mape", jnum(s->mape));
  json_object_set_new(o, "within_5pct", json_integer((json_int_t)s->within_5));
  return o;
}

json_t *vreport_to_json(const vreport *r) {
  const vreport_input *in = &r->in;
  json_t *root = json_object();
  json_object_set_new(root, "tool", json_string("wgperf-validate"));
  json_object_set_new(root, "format_version", json_integer(1));
  json_object_set_new(root, "input", json_string(in->csv_name));
  json_object_set_new(root, "rows_total", json_integer((json_int_t)in->total_rows));
  json_object_set_new(root, "rows_selected", json_integer((json_int_t)in->n));
  json_object_set_new(root, "selection", json_string(in->selection ? in->selection : ""));
  json_object_set_new(root, "rows_predicted", json_integer((json_int_t)r->predicted));
  json_object_set_new(root, "rows_not_predicted", json_integer((json_int_t)r->unpredicted));
  const vr_stats *st[VR_NMODELS];
  for (int m = 0; m < VR_NMODELS; m++)
    st[m] = &r->overall[m];
  json_object_set_new(root, "overall", scope_json(st));
  json_t *pg = json_object(), *pk = json_object(), *pp = json_object();
  for (size_t g = 0; g < r->ngpus; g++) {
    for (int m = 0; m < VR_NMODELS; m++)
      st[m] = &r->per_gpu[m][g];
    json_object_set_new(pg, r->gpus[g], scope_json(st));
    json_t *kk = json_object();
    for (size_t k = 0; k < r->nkernels; k++) {
      for (int m = 0; m < VR_NMODELS; m++)
        st[m] = &r->per_pair[m][g * r->nkernels + k];
      if (st[VR_OURS]->rows || st[VR_BSP]->rows)
        json_object_set_new(kk, r->kernels[k], scope_json(st));
    }
    json_object_set_new(pp, r->gpus[g], kk);
  }
  for (size_t k = 0; k < r->nkernels; k++) {
    for (int m = 0; m < VR_NMODELS; m++)
      st[m] = &r->per_kernel[m][k];
    json_object_set_new(pk, r->kernels[k], scope_json(st));
  }
  json_object_set_new(root, "per_gpu", pg);
  json_object_set_new(root, "per_kernel", pk);
  json_object_set_new(root, "per_gpu_kernel", pp);
  json_t *groups = json_array();
  for (size_t gi = 0; gi < r->ngroups; gi++) {
    const vgroup *g = &r->groups[gi];
    char b[48];
    json_t *j = json_object();
    json_object_set_new(j, "gpu", json_string(r->gpus[g->gpu]));
    json_object_set_new(j, "kernel", json_string(r->kernels[g->kernel]));
    json_object_set_new(j, "input_size", json_integer((json_int_t)g->input_size));
    json_object_set_new(j, "shapes", json_integer((json_int_t)g->n));
    json_object_set_new(j, "measured_best", json_string(shape_of(&in->rows[in->idx[g->members[g->best]]], b, sizeof b)));
    for (int m = 0; m < VR_NMODELS; m++) {
      json_t *x = json_object();
      if (g->rank_of_best[m]) {
        json_object_set_new(x, "rank_of_measured_best", json_integer((json_int_t)g->rank_of_best[m]));
        json_object_set_new(x, "chosen",
                            json_string(shape_of(&in->rows[in->idx[g->members[g->chosen[m]]]], b, sizeof b)));
        json_object_set_new(x, "slowdown", jnum(g->slowdown[m]));
      } else {
        json_object_set_new(x, "rank_of_measured_best", json_null());
        json_object_set_new(x, "chosen", json_null());
        json_object_set_new(x, "slowdown", json_null());
      }
      json_object_set_new(x, "spearman", jnum(g->spearman[m]));
      json_object_set_new(j, model_names[m], x);
    }
    json_array_append_new(groups, j);
  }
  json_object_set_new(root, "groups", groups);
  json_t *lam = json_array();
  for (size_t i = 0; i < r->nlambdas; i++) {
    const vlambda *l = &r->lambdas[i];
    if (!isfinite(l->lambda))
      continue;
    const vrow *row = &in->rows[in->idx[l->row]];
    char b[48];
    json_t *j = json_object();
    json_object_set_new(j, "gpu", json_string(r->gpus[l->gpu]));
    json_object_set_new(j, "kernel", json_string(r->kernels[l->kernel]));
    json_object_set_new(j, "lambda", jnum(l->lambda));
    json_object_set_new(j, "line", json_integer((json_int_t)row->line));
    json_object_set_new(j, "input_size", json_integer((json_int_t)row->r.input_size));
    json_object_set_new(j, "block", json_string(shape_of(row, b, sizeof b)));
    json_array_append_new(lam, j);
  }
  json_object_set_new(root, "bsp_lambda", lam);
  json_t *ctr = json_object();
  static const char *const fam[3] = {"kepler", "maxwell", "sectors"};
  for (int c = 0; c < WGP_NUM_COUNTERS; c++) {
    json_t *j = counter_json(&r->ctr_all[c]);
    json_t *pf = json_object(), *kk = json_object();
    for (int fa = 0; fa < 3; fa++)
      if (r->ctr_rules[fa][c].rows)
        json_object_set_new(pf, fam[fa], counter_json(&r->ctr_rules[fa][c]));
    for (size_t k = 0; k < r->nkernels; k++)
      if (r->ctr_kernel[k * WGP_NUM_COUNTERS + (size_t)c].rows)
        json_object_set_new(kk, r->kernels[k], counter_json(&r->ctr_kernel[k * WGP_NUM_COUNTERS + (size_t)c]));
    json_object_set_new(j, "per_rules", pf);
    json_object_set_new(j, "per_kernel", kk);
    json_object_set_new(ctr, wgp_counter_name((wgp_counter)c), j);
  }
  json_object_set_new(root, "counters", ctr);
  json_t *np = json_array();
  for (size_t i = 0; i < in->n; i++)
    if (!in->res[i].ok) {
      const vrow *row = &in->rows[in->idx[i]];
      json_t *j = json_object();
      json_object_set_new(j, "line", json_integer((json_int_t)row->line));
      json_object_set_new(j, "gpu", json_string(row->gpu));
      json_object_set_new(j, "kernel", json_string(row->kernel));
      json_object_set_new(j, "reason", json_string(in->res[i].reason));
      json_array_append_new(np, j);
    }
  json_object_set_new(root, "not_predicted", np);
  return root;
}

void vreport_json(const vreport *r, FILE *f) {
  json_t *root = vreport_to_json(r);
  char *text = json_dumps(root, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(8));
  json_decref(root);
  if (text)
    fprintf(f, "%s\n", text);
  free(text);
}

/* ---- CSV: one line per selected row ---------------------------------------------------- */

static void csv_str(FILE *f, const char *s) {
  if (strpbrk(s, ",\"\n\r")) {
    fputc('"', f);
    for (; *s; s++) {
      if (*s == '"')
        fputc('"', f);
      fputc(*s, f);
    }
    fputc('"', f);
  } else {
    fputs(s, f);
  }
}

static void csv_num(FILE *f, double v) {
  if (isfinite(v))
    fprintf(f, ",%.6g", v);
  else
    fputs(",", f);
}

void vreport_csv(const vreport *r, FILE *f) {
  const vreport_input *in = &r->in;
  fprintf(f, "line,gpu,kernel,input_size,grid_x,grid_y,grid_z,block_x,block_y,block_z,measured_s,predicted_s,"
             "error_pct,bsp_s,roofline_s,bound,pipeline_s,regs,launches,launches_simulated,status,reason");
  for (int c = 0; c < WGP_NUM_COUNTERS; c++)
    fprintf(f, ",%s_measured,%s_predicted", wgp_counter_name((wgp_counter)c), wgp_counter_name((wgp_counter)c));
  fprintf(f, "\n");
  for (size_t i = 0; i < in->n; i++) {
    const vrow *row = &in->rows[in->idx[i]];
    const vresult *res = &in->res[i];
    fprintf(f, "%zu,", row->line);
    csv_str(f, row->gpu);
    fputc(',', f);
    csv_str(f, row->kernel);
    fprintf(f, ",%lld,%lld,%lld,%lld,%lld,%lld,%lld", (long long)row->r.input_size, (long long)row->r.grid[0],
            (long long)row->r.grid[1], (long long)row->r.grid[2], (long long)row->r.block[0],
            (long long)row->r.block[1], (long long)row->r.block[2]);
    double m = vrow_measured_s(row);
    csv_num(f, m);
    csv_num(f, r->pred[VR_OURS][i]);
    csv_num(f, 100 * (r->pred[VR_OURS][i] - m) / m);
    csv_num(f, r->pred[VR_BSP][i]);
    csv_num(f, r->pred[VR_ROOFLINE][i]);
    fprintf(f, ",%s", res->ok ? res->bound : "");
    csv_num(f, res->ok ? res->pipeline_s : NAN);
    if (res->ok)
      fprintf(f, ",%u,%d,%d,ok,", res->regs, res->launches, res->launches_simulated);
    else {
      fprintf(f, ",,,,not_predicted,");
      csv_str(f, res->reason);
    }
    for (int c = 0; c < WGP_NUM_COUNTERS; c++) {
      csv_num(f, row->counters[c]);
      csv_num(f, res->ok ? res->counters[c] : NAN);
    }
    fprintf(f, "\n");
  }
}

/* ---- SVG: predicted vs measured, log-log ------------------------------------------------ */

static const char *const palette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
                                      "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#ad494a"};

static void xml_text(FILE *f, const char *s) {
  for (; *s; s++) {
    if (*s == '<')
      fputs("&lt;", f);
    else if (*s == '>')
      fputs("&gt;", f);
    else if (*s == '&')
      fputs("&amp;", f);
    else if (*s == '"')
      fputs("&quot;", f);
    else
      fputc(*s, f);
  }
}

/* About how wide TEXT is at font size PX in a sans-serif face: what keeps
 * labels inside the picture (test/lit/Inputs/svg/check_svg.py measures the
 * same way). */
static double text_width(const char *text, double px) { return 0.6 * px * (double)strlen(text); }

/* "1 us", "10 ms", "1 s": a power of ten of seconds, in the unit a reader
 * uses for it. */
static void time_label(char *buf, size_t n, int e) {
  static const char *const units[] = {"ns", "us", "ms", "s"};
  int u = e < -6 ? 0 : e < -3 ? 1 : e < 0 ? 2 : 3;
  int p = e - (u == 0 ? -9 : u == 1 ? -6 : u == 2 ? -3 : 0);
  if (u == 0 && p < 0)
    snprintf(buf, n, "%g ns", pow(10, e + 9));
  else
    snprintf(buf, n, "%.0f %s", pow(10, p), units[u]);
}

/* Predicted against measured time of every predicted row, log-log, with
 * y = x and a factor of 2 either way; one colour per kernel, named in a
 * legend as wide as the longest name; the CSV named under the title. */
int vreport_svg(const vreport *r, const char *file) {
  FILE *f = fopen(file, "w");
  if (!f)
    return errno ? errno : EIO;
  double lo = INFINITY, hi = 0;
  for (size_t i = 0; i < r->in.n; i++) {
    double m = r->meas[i], p = r->pred[VR_OURS][i];
    if (!(m > 0 && p > 0 && isfinite(m) && isfinite(p)))
      continue;
    lo = fmin(lo, fmin(m, p));
    hi = fmax(hi, fmax(m, p));
  }
  if (!(lo < INFINITY))
    lo = 1e-6, hi = 1e-3;
  if (hi <= lo)
    hi = lo * 10;
  double llo = floor(log10(lo)), lhi = ceil(log10(hi));
  if (lhi - llo < 2)
    lhi = llo + 2;
  double longest = text_width("solid: exact; dashed: 2x off", 11);
  for (size_t k = 0; k < r->nkernels; k++)
    longest = fmax(longest, 16 + text_width(r->kernels[k], 11));
  const double PW = 480, L = 84, R = 30 + longest, T = 64, B = 60, W = L + PW + R, PH = 480, H = T + PH + B;
#define PX(v) (L + (log10(v) - llo) / (lhi - llo) * PW)
#define PY(v) (T + PH - (log10(v) - llo) / (lhi - llo) * PH)
  fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" font-family=\"sans-serif\" "
             "font-size=\"11\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
          W, H);
  fprintf(f, "<text x=\"%.0f\" y=\"24\" font-size=\"14\">predicted vs measured time, %zu rows, MAPE %.1f%%</text>\n", L,
          r->overall[VR_OURS].rows, r->overall[VR_OURS].mape);
  /* the CSV's name, its end kept where the whole would not fit */
  const char *name = r->in.csv_name;
  size_t fit = (size_t)((W - L - 10) / (0.6 * 11));
  fprintf(f, "<text x=\"%.0f\" y=\"42\" fill=\"#555\">", L);
  if (strlen(name) > fit && fit > 3) {
    fputs("...", f);
    name += strlen(name) - (fit - 3);
  }
  xml_text(f, name);
  fprintf(f, "</text>\n");
  for (int e = (int)llo; e <= (int)lhi; e++) {
    double v = pow(10, e), x = PX(v), y = PY(v);
    char lab[32];
    time_label(lab, sizeof lab, e);
    fprintf(f, "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" stroke=\"#e5e5e5\"/>\n", x, T, x, T + PH);
    fprintf(f, "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"#e5e5e5\"/>\n", L, y, L + PW, y);
    fprintf(f, "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">%s</text>\n", x, T + PH + 20, lab);
    fprintf(f, "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", L - 5, y + 4, lab);
  }
  fprintf(f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" fill=\"none\" stroke=\"black\"/>\n", L, T, PW,
          PH);
  /* y = x and a factor of 2 either way */
  static const double factors[] = {1, 2, 0.5};
  for (int i = 0; i < 3; i++) {
    /* predicted = k x measured, clipped to the box */
    double k = factors[i], a = pow(10, llo), b = pow(10, lhi);
    double m1 = k > 1 ? a : a / k, m2 = k > 1 ? b / k : b;
    fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"%s/>\n", PX(m1), PY(k * m1),
            PX(m2), PY(k * m2), i ? "#999" : "#333", i ? " stroke-dasharray=\"4 3\"" : "");
  }
  fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">measured time (log scale)</text>\n", L + PW / 2,
          H - 16);
  fprintf(f, "<text x=\"20\" y=\"%.0f\" transform=\"rotate(-90 20 %.0f)\" text-anchor=\"middle\">predicted "
             "time, wgperf (log scale)</text>\n",
          T + PH / 2, T + PH / 2);
  for (size_t i = 0; i < r->in.n; i++) {
    double m = r->meas[i], p = r->pred[VR_OURS][i];
    if (!(m > 0 && p > 0 && isfinite(m) && isfinite(p)))
      continue;
    const vrow *row = &r->in.rows[r->in.idx[i]];
    char b[48];
    fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\" fill-opacity=\"0.7\"><title>", PX(m), PY(p),
            palette[r->ki[i] % (sizeof palette / sizeof palette[0])]);
    xml_text(f, row->gpu);
    fputc(' ', f);
    xml_text(f, row->kernel);
    fprintf(f, " size %lld block %s (line %zu): measured %.4g s, predicted %.4g s</title></circle>\n",
            (long long)row->r.input_size, shape_of(row, b, sizeof b), row->line, m, p);
  }
  for (size_t k = 0; k < r->nkernels; k++) {
    double y = T + 10 + 18.0 * (double)k;
    fprintf(f, "<circle cx=\"%.0f\" cy=\"%.0f\" r=\"5\" fill=\"%s\"/><text x=\"%.0f\" y=\"%.0f\">", L + PW + 24, y,
            palette[k % (sizeof palette / sizeof palette[0])], L + PW + 34, y + 4);
    xml_text(f, r->kernels[k]);
    fprintf(f, "</text>\n");
  }
  fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" fill=\"#666\">solid: exact; dashed: 2x off</text>\n", L + PW + 18,
          T + 10 + 18.0 * (double)r->nkernels + 10);
  fprintf(f, "</svg>\n");
#undef PX
#undef PY
  return fclose(f) == 0 ? 0 : (errno ? errno : EIO);
}
