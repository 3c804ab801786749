/* validate_predict.c - from a measurement row to our prediction
 * (validate_predict.h).
 *
 * A row names a GPU (resolved through --gpu-map, then the descriptions'
 * file names and identity.aliases) and a kernel (resolved through the
 * manifest).  The manifest turns the row into macros (one kernel model per
 * distinct set, extracted once per run and optionally kept in a cache
 * folder), launches (several for a bitonic sort), arguments, buffers and
 * hints.  Each launch is one wgp_estimate (analysis, occupancy, caches) and
 * one simulation, exactly what `wgperf predict` does.
 */
#define _GNU_SOURCE
#include "validate_predict.h"

#include "wgperf/baseline.h"
#include "wgperf/driver.h"
#include "wgperf/estimate.h"
#include "wgperf/launch.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef WGPERF_VERSION
#define WGPERF_VERSION "unknown"
#endif

#define MAX_MACROS 8
#define MAX_OPTS 32

/* ---- rows ----------------------------------------------------------------- */

static wgp_status cell_error(const vcsv *t, size_t r, const char *col, const char *val, const char *what,
                             wgp_diag *diag) {
  return wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: %s:%zu: column '%s': '%s' is not %s", vcsv_name(t),
                      vcsv_line(t, r), col, val, what);
}

/* A whole number >= MIN ("256", also "256.0" as spreadsheets write it). */
static bool parse_int(const char *s, long long min, long long *out) {
  char *end;
  errno = 0;
  long long v = strtoll(s, &end, 10);
  if (end != s && *end == '.') {
    char *e2;
    double d = strtod(s, &e2);
    if (*e2 || d != floor(d) || d < -9e18 || d > 9e18)
      return false;
    v = (long long)d;
    end = e2;
  }
  if (errno || end == s || *end || v < min)
    return false;
  *out = v;
  return true;
}

static bool parse_num(const char *s, double *out) {
  char *end;
  errno = 0;
  double d = strtod(s, &end);
  if (errno == ERANGE && fabs(d) > 1)
    return false;
  if (end == s || *end || !isfinite(d))
    return false;
  *out = d;
  return true;
}

wgp_status vrows_parse(const vcsv *t, vrow **out, size_t *n, wgp_diag *diag) {
  *out = NULL;
  *n = 0;
  static const char *const required[] = {"gpu",    "kernel", "input_size", "grid_x",  "grid_y",
                                         "grid_z", "block_x", "block_y",   "block_z", "duration_s"};
  long col[10];
  for (size_t i = 0; i < 10; i++)
    if ((col[i] = vcsv_find_column(t, required[i])) < 0)
      return wgp_diag_set(diag, WGP_ERR_INPUT,
                          "wgperf: error: %s:1: no column '%s' (the columns of "
                          "../shared/data/amaris-nvprof/measurements.csv are expected)",
                          vcsv_name(t), required[i]);
  long c_regs = vcsv_find_column(t, "regs_per_thread"), c_lpr = vcsv_find_column(t, "launches_per_run"),
       c_sum = vcsv_find_column(t, "duration_sum_per_run_s");
  long c_ctr[WGP_NUM_COUNTERS];
  for (int c = 0; c < WGP_NUM_COUNTERS; c++)
    c_ctr[c] = vcsv_find_column(t, wgp_counter_name((wgp_counter)c));
  size_t nr = vcsv_num_rows(t);
  vrow *rows = calloc(nr ? nr : 1, sizeof *rows);
  if (!rows)
    return wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
  for (size_t r = 0; r < nr; r++) {
    vrow *w = &rows[r];
    w->line = vcsv_line(t, r);
    w->gpu = vcsv_field(t, r, (size_t)col[0]);
    w->kernel = vcsv_field(t, r, (size_t)col[1]);
    if (!*w->gpu || !*w->kernel) {
      size_t line = w->line;
      const char *empty = *w->gpu ? "kernel" : "gpu";
      free(rows);
      return wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: %s:%zu: column '%s' is empty", vcsv_name(t), line,
                          empty);
    }
    long long v[7];
    for (size_t i = 0; i < 7; i++) {
      const char *s = vcsv_field(t, r, (size_t)col[2 + i]);
      if (!parse_int(s, 1, &v[i]) || v[i] > (1ll << 40)) {
        free(rows);
        return cell_error(t, r, required[2 + i], s, "a whole number from 1 to 2^40", diag);
      }
    }
    w->r.input_size = v[0];
    for (int d = 0; d < 3; d++) {
      w->r.grid[d] = v[1 + d];
      w->r.block[d] = v[4 + d];
    }
    const char *s = vcsv_field(t, r, (size_t)col[9]);
    w->duration_s = NAN;
    if (*s && (!parse_num(s, &w->duration_s) || w->duration_s <= 0)) {
      free(rows);
      return cell_error(t, r, "duration_s", s, "a positive number of seconds", diag);
    }
    w->duration_sum_s = NAN;
    if (c_sum >= 0 && *(s = vcsv_field(t, r, (size_t)c_sum)) &&
        (!parse_num(s, &w->duration_sum_s) || w->duration_sum_s <= 0)) {
      free(rows);
      return cell_error(t, r, "duration_sum_per_run_s", s, "a positive number of seconds", diag);
    }
    for (int c = 0; c < WGP_NUM_COUNTERS; c++) {
      w->counters[c] = NAN;
      if (c_ctr[c] >= 0 && *(s = vcsv_field(t, r, (size_t)c_ctr[c])) &&
          (!parse_num(s, &w->counters[c]) || w->counters[c] < 0)) {
        free(rows);
        return cell_error(t, r, wgp_counter_name((wgp_counter)c), s, "a count (a number, at least 0)", diag);
      }
    }
    long long x;
    if (c_regs >= 0 && *(s = vcsv_field(t, r, (size_t)c_regs))) {
      if (!parse_int(s, 1, &x) || x > 1024) {
        free(rows);
        return cell_error(t, r, "regs_per_thread", s, "a register count from 1 to 1024", diag);
      }
      w->regs = (unsigned)x;
    }
    if (c_lpr >= 0 && *(s = vcsv_field(t, r, (size_t)c_lpr))) {
      if (!parse_int(s, 1, &x) || x > 1000000) {
        free(rows);
        return cell_error(t, r, "launches_per_run", s, "a whole number from 1 to 10^6", diag);
      }
      w->launches_per_run = (long)x;
    }
  }
  *out = rows;
  *n = nr;
  return WGP_OK;
}

double vrow_measured_s(const vrow *row) {
  if (row->launches_per_run > 1 && isfinite(row->duration_sum_s))
    return row->duration_sum_s;
  return row->duration_s;
}

/* ---- the predictor: GPU and model caches ---------------------------------- */

typedef struct gpu_entry {
  char *name;
  wgp_gpu *gpu;
  char *reason; /* when it cannot be had */
} gpu_entry;

typedef struct model_entry {
  char *key; /* kernel|MACRO=V|... */
  const vm_kernel *vk;
  wgp_model *model;
  const wgp_kernel *k;
  char *reason;
} model_entry;

struct vpredictor {
  vpredict_opts o;
  char *tmpdir; /* ours to remove */
  const char *dir;
  gpu_entry *gpus;
  size_t ngpus, capgpus;
  model_entry *models;
  size_t nmodels, capmodels;
};

static const struct gpu_entry *get_gpu(vpredictor *p, const char *name);

wgp_status vpredictor_new(const vpredict_opts *o, vpredictor **out, wgp_diag *diag) {
  *out = NULL;
  vpredictor *p = calloc(1, sizeof *p);
  if (!p)
    return wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
  p->o = *o;
  if (o->cache_dir) {
    if (mkdir(o->cache_dir, 0777) != 0 && errno != EEXIST) {
      free(p);
      return wgp_diag_set(diag, WGP_ERR_IO, "wgperf: error: %s: cannot create the cache folder: %s", o->cache_dir,
                          strerror(errno));
    }
    p->dir = o->cache_dir;
  } else {
    char tmpl[PATH_MAX];
    char *d = wgp_temp_template(tmpl, sizeof tmpl, "wgperf-validate", "") ? mkdtemp(tmpl) : NULL;
    if (!d || !(p->tmpdir = strdup(d))) {
      free(p);
      return wgp_diag_set(diag, WGP_ERR_IO, "wgperf: error: cannot create a temporary folder: %s", strerror(errno));
    }
    p->dir = p->tmpdir;
  }
  /* A mapping the user gave must work: check it now, not row by row. */
  for (size_t i = 0; i < o->ngpu_map; i++) {
    char name[256];
    snprintf(name, sizeof name, "%.*s", (int)(strchr(o->gpu_map[i], '=') - o->gpu_map[i]), o->gpu_map[i]);
    const struct gpu_entry *e = get_gpu(p, name);
    if (!e || !e->gpu) {
      wgp_status st = wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: %s", e ? e->reason : "out of memory");
      vpredictor_free(p);
      return st;
    }
  }
  *out = p;
  return WGP_OK;
}

void vpredictor_free(vpredictor *p) {
  if (!p)
    return;
  for (size_t i = 0; i < p->ngpus; i++) {
    free(p->gpus[i].name);
    wgp_gpu_free(p->gpus[i].gpu);
    free(p->gpus[i].reason);
  }
  free(p->gpus);
  for (size_t i = 0; i < p->nmodels; i++) {
    free(p->models[i].key);
    wgp_model_free(p->models[i].model);
    free(p->models[i].reason);
  }
  free(p->models);
  if (p->tmpdir) {
    /* only the models we wrote live there */
    for (size_t i = 0; i < p->nmodels; i++) {
      char f[4200];
      snprintf(f, sizeof f, "%s/m%zu.wgperf.json", p->tmpdir, i);
      unlink(f);
    }
    rmdir(p->tmpdir);
    free(p->tmpdir);
  }
  free(p);
}

static char *xfmt(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = NULL;
  if (vasprintf(&s, fmt, ap) < 0)
    s = NULL;
  va_end(ap);
  return s;
}

static const struct gpu_entry *get_gpu(vpredictor *p, const char *name) {
  for (size_t i = 0; i < p->ngpus; i++)
    if (strcmp(p->gpus[i].name, name) == 0)
      return &p->gpus[i];
  if (p->ngpus == p->capgpus) {
    size_t nc = p->capgpus ? 2 * p->capgpus : 16;
    gpu_entry *g = realloc(p->gpus, nc * sizeof *g);
    if (!g)
      return NULL;
    p->gpus = g;
    p->capgpus = nc;
  }
  gpu_entry *e = &p->gpus[p->ngpus];
  memset(e, 0, sizeof *e);
  if (!(e->name = strdup(name)))
    return NULL;
  p->ngpus++;
  const char *target = NULL;
  size_t len = strlen(name);
  for (size_t i = 0; i < p->o.ngpu_map; i++)
    if (strncmp(p->o.gpu_map[i], name, len) == 0 && p->o.gpu_map[i][len] == '=')
      target = p->o.gpu_map[i] + len + 1;
  wgp_diag d;
  wgp_status st;
  if (target && (strchr(target, '/') || strstr(target, ".json")))
    st = wgp_gpu_load_file(target, &e->gpu, &d);
  else if (target)
    st = wgp_gpu_load_builtin(target, &e->gpu, &d);
  else
    st = wgp_gpu_find(name, &e->gpu, &d);
  if (st != WGP_OK) {
    const char *msg = strncmp(d.message, "wgperf: error: ", 15) == 0 ? d.message + 15 : d.message;
    e->reason = target ? xfmt("--gpu-map %s=%s: %s", name, target, msg)
                       : xfmt("%s (add the name to a description's identity.aliases or give --gpu-map %s=FILE)", msg,
                              name);
  }
  return e;
}

/* FNV-1a, for cache file names. */
static uint64_t fnv(uint64_t h, const void *data, size_t n) {
  const unsigned char *c = data;
  for (size_t i = 0; i < n; i++)
    h = (h ^ c[i]) * 1099511628211ull;
  return h;
}

static model_entry *get_model(vpredictor *p, const vm_kernel *vk, const vm_row *row, char *err, size_t errsize) {
  char flags[MAX_MACROS][64];
  int nf = vm_macros(vk, row, flags, MAX_MACROS, err, errsize);
  if (nf < 0)
    return NULL;
  char key[1024];
  int used = snprintf(key, sizeof key, "%s", vm_kernel_name(vk));
  for (int i = 0; i < nf && used > 0 && (size_t)used < sizeof key; i++)
    used += snprintf(key + used, sizeof key - (size_t)used, "|%s", flags[i]);
  for (size_t i = 0; i < p->nmodels; i++)
    if (strcmp(p->models[i].key, key) == 0)
      return &p->models[i];
  if (p->nmodels == p->capmodels) {
    size_t nc = p->capmodels ? 2 * p->capmodels : 32;
    model_entry *m = realloc(p->models, nc * sizeof *m);
    if (!m) {
      snprintf(err, errsize, "out of memory");
      return NULL;
    }
    p->models = m;
    p->capmodels = nc;
  }
  model_entry *e = &p->models[p->nmodels];
  memset(e, 0, sizeof *e);
  if (!(e->key = strdup(key))) {
    snprintf(err, errsize, "out of memory");
    return NULL;
  }
  e->vk = vk;
  size_t mindex = p->nmodels++;
  const char *src = vm_kernel_source(vk, p->o.opencl);
  if (!src) {
    e->reason = xfmt("the manifest gives no OpenCL twin of '%s'", vm_kernel_name(vk));
    return e;
  }
  char *text;
  size_t len;
  wgp_diag d;
  if (wgp_read_file(src, &text, &len, &d) != WGP_OK) {
    e->reason = xfmt("%s", d.message + (strncmp(d.message, "wgperf: error: ", 15) == 0 ? 15 : 0));
    return e;
  }
  char path[4096];
  if (p->tmpdir) {
    snprintf(path, sizeof path, "%s/m%zu.wgperf.json", p->dir, mindex);
  } else {
    uint64_t h = fnv(1469598103934665603ull, text, len);
    h = fnv(h, key, strlen(key));
    h = fnv(h, WGPERF_VERSION, strlen(WGPERF_VERSION));
    h = fnv(h, WGP_NVCC_UNROLL_THRESHOLD, strlen(WGP_NVCC_UNROLL_THRESHOLD));
    int v = WGP_MODEL_VERSION;
    h = fnv(h, &v, sizeof v);
    char macros[256] = ""; /* "TW16" for -DTW=16: readable file names */
    size_t mu = 0;
    for (int i = 0; i < nf; i++)
      for (const char *c = flags[i]; *c && mu + 2 < sizeof macros; c++)
        if (*c != '=')
          macros[mu++] = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ? *c : '_';
    macros[mu] = '\0';
    snprintf(path, sizeof path, "%s/%s%s%s%s-%016llx.wgperf.json", p->dir, vm_kernel_name(vk), p->o.opencl ? "-cl" : "",
             nf ? "-" : "", macros, (unsigned long long)h);
  }
  free(text);
  if (!p->tmpdir && access(path, R_OK) == 0 && wgp_model_load_file(path, &e->model, &d) == WGP_OK) {
    /* cached */
  } else {
    char *extra[MAX_MACROS];
    char dflags[MAX_MACROS][68];
    for (int i = 0; i < nf; i++) {
      snprintf(dflags[i], sizeof dflags[i], "-D%.63s", flags[i]);
      extra[i] = dflags[i];
    }
    if (p->o.verbose && p->o.message) {
      char *line = xfmt("wgperf-validate: extracting %s", src);
      for (int i = 0; line && i < nf; i++) {
        char *longer = xfmt("%s -D%s", line, flags[i]);
        free(line);
        line = longer;
      }
      if (line)
        p->o.message(p->o.message_user, line);
      free(line);
    }
    wgp_extract_options eo = {
        .flags = extra, .num_flags = (size_t)nf, .message = p->o.message, .message_user = p->o.message_user};
    /* a manifest's file of another name compiles as CUDA, as it always has */
    wgp_source_kind kind = wgp_source_kind_of(src);
    if (wgp_extract(src, kind == WGP_SOURCE_UNKNOWN ? WGP_SOURCE_CUDA : kind, &eo, path, &d) != WGP_OK) {
      if (p->o.message)
        p->o.message(p->o.message_user, d.message);
      e->reason = xfmt("cannot extract the model of %s (the error is printed above)", src);
      return e;
    }
    if (wgp_model_load_file(path, &e->model, &d) != WGP_OK) {
      e->reason = xfmt("%s", d.message + (strncmp(d.message, "wgperf: error: ", 15) == 0 ? 15 : 0));
      return e;
    }
  }
  e->k = wgp_model_find_kernel(e->model, vm_kernel_function(vk));
  if (!e->k)
    e->reason = xfmt("%s has no kernel '%s'", src, vm_kernel_function(vk));
  return e;
}

void vpredictor_prepare(vpredictor *p, const vrow *rows, const size_t *idx, size_t n) {
  char err[256];
  for (size_t i = 0; i < n; i++) {
    const vrow *row = &rows[idx[i]];
    const vm_kernel *vk = vm_find(p->o.manifest, row->kernel);
    if (vk)
      get_model(p, vk, &row->r, err, sizeof err);
    get_gpu(p, row->gpu);
  }
}

/* ---- one row ------------------------------------------------------------------ */

static void failf(vresult *res, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(res->reason, sizeof res->reason, fmt, ap);
  va_end(ap);
  res->ok = 0;
}

/* The source line of "file:line[:col]", or -1. */
static long source_line(const char *src) {
  if (!src)
    return -1;
  const char *c = strrchr(src, ':');
  if (!c)
    return -1;
  /* file:line:col: take the field before the last when both are numbers */
  const char *c2 = c;
  while (c2 > src && c2[-1] != ':')
    c2--;
  if (c2 > src) {
    char *end;
    long a = strtol(c2, &end, 10);
    if (end == c && a > 0) {
      long b = strtol(c + 1, &end, 10);
      if (!*end && b >= 0)
        return a;
    }
  }
  char *end;
  long v = strtol(c + 1, &end, 10);
  return *end ? -1 : v;
}

/* A hint selector (L<n>, B<n>, line:<n>) as a loop or block id of K. */
static long resolve(const wgp_kernel *k, const char *sel, bool loop) {
  if (sel[0] == 'L' || sel[0] == 'B') {
    long id = strtol(sel + 1, NULL, 10);
    if (loop)
      return (size_t)id < wgp_kernel_num_loops(k) ? id : -1;
    return (size_t)id < wgp_kernel_num_blocks(k) && wgp_block_branch(wgp_kernel_block(k, (size_t)id)) ? id : -1;
  }
  long line = strtol(sel + 5, NULL, 10);
  if (loop) {
    for (size_t i = 0; i < wgp_kernel_num_loops(k); i++)
      if (source_line(wgp_loop_source(wgp_kernel_loop(k, i))) == line)
        return (long)i;
    return -1;
  }
  /* the first block of that line ending in a data-dependent branch that
   * does not decide a loop exit (those follow the loop's trip hint) */
  for (size_t b = 0; b < wgp_kernel_num_blocks(k); b++) {
    const wgp_block *bl = wgp_kernel_block(k, b);
    const wgp_branch *br = wgp_block_branch(bl);
    if (!br || wgp_branch_get_class(br) != WGP_BRANCH_DATA_DEPENDENT || source_line(wgp_block_source(bl)) != line)
      continue;
    bool exiting = false;
    for (size_t l = 0; l < wgp_kernel_num_loops(k) && !exiting; l++) {
      const wgp_loop *lp = wgp_kernel_loop(k, l);
      for (size_t e = 0; e < wgp_loop_num_exiting(lp); e++)
        exiting = exiting || wgp_loop_exiting(lp, e) == b;
    }
    if (!exiting)
      return (long)b;
  }
  return -1;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

void vpredict_row(vpredictor *p, const vrow *row, vresult *res) {
  memset(res, 0, sizeof *res);
  res->pred_s = res->bsp_raw_s = res->roofline_s = res->pipeline_s = NAN;
  for (int c = 0; c < WGP_NUM_COUNTERS; c++)
    res->counters[c] = NAN;
  double *ctr = NULL; /* per simulated launch, WGP_NUM_COUNTERS each */
  if (!isfinite(vrow_measured_s(row)))
    return failf(res, "no measured duration (duration_s is empty)");
  const gpu_entry *g = get_gpu(p, row->gpu);
  if (!g)
    return failf(res, "out of memory");
  if (!g->gpu)
    return failf(res, "%s", g->reason);
  const vm_kernel *vk = vm_find(p->o.manifest, row->kernel);
  if (!vk)
    return failf(res, "kernel '%s' is not in the manifest %s", row->kernel, vm_file(p->o.manifest));
  char err[240];
  const model_entry *me = get_model(p, vk, &row->r, err, sizeof err);
  if (!me)
    return failf(res, "%s", err);
  if (me->reason)
    return failf(res, "%s", me->reason);
  const wgp_kernel *k = me->k;
  static vm_launch launches[VM_MAX_LAUNCHES];
  int nl = vm_launches(vk, &row->r, launches, VM_MAX_LAUNCHES, err, sizeof err);
  if (nl < 0)
    return failf(res, "%s", err);
  if (row->launches_per_run && row->launches_per_run != nl)
    return failf(res, "the manifest gives %d launches per run, the row's launches_per_run says %ld", nl,
                 row->launches_per_run);
  res->launches = nl;
  /* Which launches to simulate: all, or an even spread of at most max_launches. */
  int ns = p->o.max_launches > 0 && nl > p->o.max_launches ? p->o.max_launches : nl;
  res->launches_simulated = ns;
  double sum = 0, overhead = 0, bsp_sum = 0, roof_sum = 0, pipe_sum = 0;
  uint64_t threads = (uint64_t)(row->r.grid[0] * row->r.block[0]) * (uint64_t)(row->r.grid[1] * row->r.block[1]) *
                     (uint64_t)(row->r.grid[2] * row->r.block[2]);
  unsigned dims = row->r.block[2] > 1 || row->r.grid[2] > 1 ? 3 : row->r.block[1] > 1 || row->r.grid[1] > 1 ? 2 : 1;
  char global[96], local[96];
  if (dims == 1) {
    snprintf(global, sizeof global, "%lld", (long long)(row->r.grid[0] * row->r.block[0]));
    snprintf(local, sizeof local, "%lld", (long long)row->r.block[0]);
  } else if (dims == 2) {
    snprintf(global, sizeof global, "%lld,%lld", (long long)(row->r.grid[0] * row->r.block[0]),
             (long long)(row->r.grid[1] * row->r.block[1]));
    snprintf(local, sizeof local, "%lld,%lld", (long long)row->r.block[0], (long long)row->r.block[1]);
  } else {
    snprintf(global, sizeof global, "%lld,%lld,%lld", (long long)(row->r.grid[0] * row->r.block[0]),
             (long long)(row->r.grid[1] * row->r.block[1]), (long long)(row->r.grid[2] * row->r.block[2]));
    snprintf(local, sizeof local, "%lld,%lld,%lld", (long long)row->r.block[0], (long long)row->r.block[1],
             (long long)row->r.block[2]);
  }
  unsigned regs = p->o.regs_from_model ? 0 : row->regs;
  size_t na = wgp_kernel_num_args(k) ? wgp_kernel_num_args(k) : 1;
  uint64_t *align = calloc(na, sizeof *align), *lbytes = calloc(na + wgp_kernel_num_arrays(k), sizeof *lbytes);
  uint64_t *bbytes = calloc(na, sizeof *bbytes);
  size_t ntrip = vm_num_trip_hints(vk, p->o.opencl), ntaken = vm_num_taken_hints(vk, p->o.opencl);
  size_t *trip_loops = calloc(ntrip + 1, sizeof *trip_loops), *taken_blocks = calloc(ntaken + 1, sizeof *taken_blocks);
  uint64_t *trips = calloc(ntrip + 1, sizeof *trips);
  double *taken = calloc(ntaken + 1, sizeof *taken);
  ctr = malloc((size_t)ns * WGP_NUM_COUNTERS * sizeof *ctr);
  if (!align || !lbytes || !bbytes || !trip_loops || !taken_blocks || !trips || !taken || !ctr) {
    failf(res, "out of memory");
    goto done;
  }
  for (size_t i = 0; i < ntaken; i++) {
    const char *sel = vm_taken_hint(vk, p->o.opencl, i, &taken[i]);
    long b = resolve(k, sel, false);
    if (b < 0) {
      failf(res, "manifest: taken.%s: kernel '%s' has no such branch block%s", sel, wgp_kernel_name(k),
            p->o.opencl ? " (the OpenCL twin's lines and blocks differ: give them in opencl_taken)" : "");
      goto done;
    }
    taken_blocks[i] = (size_t)b;
  }
  for (int s = 0; s < ns; s++) {
    int li = ns == nl ? s : (int)(((double)s + 0.5) * nl / ns);
    const vm_launch *L = &launches[li];
    for (size_t i = 0; i < ntrip; i++) {
      int64_t c;
      const char *sel = vm_trip_hint(vk, p->o.opencl, i, &row->r, L, &c, err, sizeof err);
      if (!sel) {
        failf(res, "%s", err);
        goto done;
      }
      long l = resolve(k, sel, true);
      if (l < 0) {
        failf(res, "manifest: trip.%s: kernel '%s' has no such loop%s", sel, wgp_kernel_name(k),
              p->o.opencl ? " (the OpenCL twin's lines and blocks differ: give them in opencl_trip)" : "");
        goto done;
      }
      trip_loops[i] = (size_t)l;
      trips[i] = (uint64_t)c;
    }
    char opts[MAX_OPTS][2][96];
    int no = vm_launch_options(vk, &row->r, L, opts, MAX_OPTS, err, sizeof err);
    if (no < 0) {
      failf(res, "%s", err);
      goto done;
    }
    wgp_launch *l = wgp_launch_new();
    wgp_diag d;
    wgp_status st = l ? WGP_OK : WGP_ERR_NOMEM;
    if (st == WGP_OK)
      st = wgp_launch_set_option(l, "--global", global, &d);
    if (st == WGP_OK)
      st = wgp_launch_set_option(l, "--local", local, &d);
    for (int i = 0; i < no && st == WGP_OK; i++)
      st = wgp_launch_set_option(l, opts[i][0], opts[i][1], &d);
    wgp_analysis_input in = {0};
    if (st == WGP_OK) {
      memset(align, 0, na * sizeof *align);
      memset(lbytes, 0, na * sizeof *lbytes);
      st = wgp_launch_bind(l, k, &in.launch, align, lbytes, &d);
      if (st == WGP_OK)
        wgp_launch_buffer_sizes(l, k, bbytes);
    }
    wgp_estimate *e = NULL;
    wgp_sim_result r;
    if (st == WGP_OK) {
      in.kernel = k;
      in.gpu = g->gpu;
      in.buffer_align = align;
      in.buffer_bytes = bbytes;
      in.local_bytes = lbytes;
      in.trip_loops = trip_loops;
      in.trip_counts = trips;
      in.num_trip_hints = ntrip;
      in.taken_blocks = taken_blocks;
      in.taken_fractions = taken;
      in.num_taken_hints = ntaken;
      st = wgp_estimate_new(&in, regs, &e, &d);
    }
    if (st == WGP_OK)
      st = wgp_estimate_simulate(e, 0, &r, &d);
    wgp_bsp_result bsp;
    wgp_roofline_result roof;
    if (st == WGP_OK)
      st = wgp_baseline_bsp(k, g->gpu, wgp_estimate_analysis(e), threads, &bsp, &d);
    if (st == WGP_OK)
      st = wgp_baseline_roofline(k, g->gpu, wgp_estimate_analysis(e), wgp_estimate_cache(e), wgp_estimate_groups(e),
                                 &roof, &d);
    wgp_counter_values cv;
    if (st == WGP_OK)
      st = wgp_counters_compute(&in, wgp_estimate_analysis(e), wgp_estimate_cache(e), wgp_estimate_groups(e), &cv, &d);
    if (st == WGP_OK) {
      for (int c = 0; c < WGP_NUM_COUNTERS; c++)
        ctr[(size_t)s * WGP_NUM_COUNTERS + (size_t)c] = cv.value[c];
      res->counter_rules = (int)cv.rules;
      bsp_sum += bsp.time_s;
      roof_sum += roof.time_s;
      res->regs = wgp_estimate_registers(e, NULL);
      sum += r.time_us * 1e-6;
      pipe_sum += r.pipeline_us * 1e-6;
      overhead += r.launch_overhead_us * 1e-6;
      snprintf(res->bound, sizeof res->bound, "%s", r.bound ? r.bound : "pipeline");
    }
    wgp_estimate_free(e);
    wgp_launch_free(l);
    if (st != WGP_OK) {
      failf(res, "%s", st == WGP_ERR_NOMEM ? "out of memory"
                                          : d.message + (strncmp(d.message, "wgperf: error: ", 15) == 0 ? 15 : 0));
      goto done;
    }
  }
  {
    double scale = (double)nl / ns;
    res->pred_s = sum * scale;
    res->overhead_s = overhead * scale;
    res->bsp_raw_s = bsp_sum * scale;
    res->roofline_s = roof_sum * scale;
    res->pipeline_s = pipe_sum * scale;
    /* one launch's figure when the measurement is one launch's (no run sum) */
    if (nl > 1 && !(row->launches_per_run > 1 && isfinite(row->duration_sum_s))) {
      res->pred_s /= nl;
      res->overhead_s /= nl;
      res->bsp_raw_s /= nl;
      res->roofline_s /= nl;
      res->pipeline_s /= nl;
    }
    if (p->o.no_overhead)
      res->pred_s -= res->overhead_s;
    /* counters of one launch: the median over the launches, as the data set
     * gives them for bitonic */
    double *col = malloc((size_t)ns * sizeof *col);
    for (int c = 0; col && c < WGP_NUM_COUNTERS; c++) {
      for (int i = 0; i < ns; i++)
        col[i] = ctr[(size_t)i * WGP_NUM_COUNTERS + (size_t)c];
      qsort(col, (size_t)ns, sizeof *col, cmp_double);
      res->counters[c] = ns % 2 ? col[ns / 2] : (col[ns / 2 - 1] + col[ns / 2]) / 2;
    }
    free(col);
    res->ok = 1;
  }
done:
  free(ctr);
  free(align);
  free(bbytes);
  free(lbytes);
  free(trip_loops);
  free(taken_blocks);
  free(trips);
  free(taken);
}
