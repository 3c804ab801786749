/* result.c - a ranked tuning space (tune.h): accessors, --json written and
 * read back exactly (17 significant digits), and the merge of shards.
 *
 * Shards merge into exactly what one process gives: a configuration's
 * prediction does not depend on the run it was made in (same model, same
 * launch, same estimate), ranks sort by time then by the configuration's
 * place in the space, and `distinct` is counted over the codes every shard
 * lists.  What each shard did (compiled, cached, estimates, preprocessed,
 * cpu_ms) is summed; wall_ms is the longest shard's.
 */
#define _GNU_SOURCE /* qsort_r */
#include "pyexpr_internal.h"
#include "result_internal.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifndef WGPERF_VERSION
#define WGPERF_VERSION "0"
#endif

const char *tr_keep(wgp_tune_result *r, const char *s) {
  if (!s)
    return NULL;
  if (r->npool == r->cappool) {
    size_t cap = r->cappool ? 2 * r->cappool : 256;
    char **p = realloc(r->pool, cap * sizeof *p);
    if (!p)
      return NULL;
    r->pool = p, r->cappool = cap;
  }
  char *c = strdup(s);
  if (c)
    r->pool[r->npool++] = c;
  return c;
}

wgp_tune_result *tr_new(const char *space, const char *kernel, const char *gpu, const char *key, size_t nparams,
                        const char *const *params, size_t nconfigs) {
  wgp_tune_result *r = calloc(1, sizeof *r);
  if (!r)
    return NULL;
  r->space = strdup(space ? space : "");
  r->kernel = strdup(kernel ? kernel : "");
  r->gpu = strdup(gpu ? gpu : "");
  r->key = strdup(key ? key : "");
  r->nparams = nparams;
  r->params = calloc(nparams ? nparams : 1, sizeof *r->params);
  r->nconfigs = nconfigs;
  r->configs = calloc(nconfigs ? nconfigs : 1, sizeof *r->configs);
  r->values = calloc(nconfigs * nparams > 0 ? nconfigs * nparams : 1, sizeof *r->values);
  bool ok = r->space && r->kernel && r->gpu && r->key && r->params && r->configs && r->values;
  for (size_t p = 0; ok && p < nparams; p++)
    ok = (r->params[p] = strdup(params[p])) != NULL;
  if (!ok) {
    wgp_tune_result_free(r);
    return NULL;
  }
  return r;
}

void wgp_tune_result_free(wgp_tune_result *r) {
  if (!r)
    return;
  for (size_t i = 0; i < r->npool; i++)
    free(r->pool[i]);
  free(r->pool);
  for (size_t p = 0; r->params && p < r->nparams; p++)
    free(r->params[p]);
  free(r->params);
  free(r->configs);
  free(r->values);
  free(r->ranked);
  free(r->space);
  free(r->kernel);
  free(r->gpu);
  free(r->key);
  free(r);
}

static int by_time(const void *a, const void *b, void *ctx) {
  const wgp_tune_result *r = ctx;
  const wgp_tune_config *x = &r->configs[*(const size_t *)a], *y = &r->configs[*(const size_t *)b];
  if (x->time_us != y->time_us)
    return x->time_us < y->time_us ? -1 : 1;
  return (x->index > y->index) - (x->index < y->index);
}

bool tr_rank(wgp_tune_result *r) {
  free(r->ranked);
  r->ranked = malloc((r->nconfigs ? r->nconfigs : 1) * sizeof *r->ranked);
  if (!r->ranked)
    return false;
  r->nranked = 0;
  size_t pruned = 0;
  for (size_t i = 0; i < r->nconfigs; i++)
    if (r->configs[i].ok)
      r->ranked[r->nranked++] = i;
    else
      pruned += r->configs[i].pruned;
  qsort_r(r->ranked, r->nranked, sizeof *r->ranked, by_time, r);
  r->counts.ranked = r->nranked;
  r->counts.pruned = pruned;
  r->counts.cannot_run = r->nconfigs - r->nranked - pruned;
  return true;
}

double wgp_tune_prune_threshold(const wgp_tune_result *r) {
  size_t k = r->counts.prune_top;
  if (!k)
    return 0;
  return r->nranked >= k ? r->configs[r->ranked[k - 1]].time_us : INFINITY;
}

bool tr_prune_trim(wgp_tune_result *r) {
  double t = wgp_tune_prune_threshold(r);
  if (!r->counts.prune_top || !(t < INFINITY))
    return true;
  bool moved = false;
  for (size_t i = 0; i < r->nconfigs; i++) {
    wgp_tune_config *c = &r->configs[i];
    if (c->ok && c->lower_us > t) {
      c->ok = false, c->pruned = true, moved = true;
      c->limiter = c->bottleneck = c->bound = c->registers_from = NULL;
    }
  }
  return !moved || tr_rank(r);
}

void wgp_tune_get_counts(const wgp_tune_result *r, wgp_tune_counts *out) { *out = r->counts; }
const char *wgp_tune_result_space(const wgp_tune_result *r) { return r->space; }
const char *wgp_tune_kernel(const wgp_tune_result *r) { return r->kernel; }
const char *wgp_tune_gpu(const wgp_tune_result *r) { return r->gpu; }
size_t wgp_tune_num_params(const wgp_tune_result *r) { return r->nparams; }
const char *wgp_tune_param(const wgp_tune_result *r, size_t p) { return r->params[p]; }
size_t wgp_tune_num_configs(const wgp_tune_result *r) { return r->nconfigs; }
const wgp_tune_config *wgp_tune_config_at(const wgp_tune_result *r, size_t i) { return &r->configs[i]; }
size_t wgp_tune_num_ranked(const wgp_tune_result *r) { return r->nranked; }
const wgp_tune_config *wgp_tune_ranked(const wgp_tune_result *r, size_t rank) {
  return &r->configs[r->ranked[rank]];
}

/* ---- --json ---------------------------------------------------------------------- */

/* A value as JSON: a number for a number, true/false for Python's booleans,
 * a string for a string. */
static json_t *value_json(const wgp_tune_value *v) {
  if (v->kind == WGP_TUNE_INT) {
    if (strcmp(v->text, "True") == 0 || strcmp(v->text, "False") == 0)
      return json_boolean(v->text[0] == 'T');
    return json_integer((json_int_t)v->i);
  }
  if (v->kind == WGP_TUNE_FLOAT)
    return json_real(v->f);
  return json_string(v->text);
}

static json_t *params_json(const wgp_tune_result *r, const wgp_tune_config *c) {
  json_t *o = json_object();
  for (size_t p = 0; p < r->nparams; p++)
    json_object_set_new(o, r->params[p], value_json(&c->values[p]));
  return o;
}

static json_t *dims_json(const uint64_t d[3]) {
  json_t *a = json_array();
  for (int i = 0; i < 3; i++)
    json_array_append_new(a, json_integer((json_int_t)d[i]));
  return a;
}

int wgp_tune_write_json(const wgp_tune_result *r, FILE *f) {
  const wgp_tune_counts *n = &r->counts;
  json_t *j = json_object();
  json_object_set_new(j, "tool", json_string("wgtune"));
  json_object_set_new(j, "version", json_string(WGPERF_VERSION));
  json_object_set_new(j, "space", json_string(r->space));
  json_object_set_new(j, "kernel", json_string(r->kernel));
  json_object_set_new(j, "gpu", json_string(r->gpu));
  json_object_set_new(j, "key", json_string(r->key));
  json_t *ps = json_array();
  for (size_t p = 0; p < r->nparams; p++)
    json_array_append_new(ps, json_string(r->params[p]));
  json_object_set_new(j, "parameters", ps);
  if (n->shards) {
    json_t *sh = json_object();
    json_object_set_new(sh, "index", json_integer(n->shard));
    json_object_set_new(sh, "count", json_integer(n->shards));
    json_object_set_new(j, "shard", sh);
  } else {
    json_object_set_new(j, "shard", json_null());
  }
  json_object_set_new(j, "configurations_raw", json_integer((json_int_t)n->raw));
  json_object_set_new(j, "configurations_total", json_integer((json_int_t)n->total));
  json_object_set_new(j, "sample", n->sample ? json_integer((json_int_t)n->sample) : json_null());
  json_object_set_new(j, "configurations", json_integer((json_int_t)n->run));
  json_object_set_new(j, "distinct", json_integer((json_int_t)n->distinct));
  json_object_set_new(j, "estimates", json_integer((json_int_t)n->estimates));
  json_object_set_new(j, "compiled", json_integer((json_int_t)n->compiled));
  json_object_set_new(j, "cached", json_integer((json_int_t)n->cached));
  json_object_set_new(j, "preprocessed", json_integer((json_int_t)n->preprocessed));
  json_object_set_new(j, "precompiled", json_integer((json_int_t)n->precompiled));
  json_object_set_new(j, "prune_top", n->prune_top ? json_integer((json_int_t)n->prune_top) : json_null());
  if (n->prune_top) {
    double t = wgp_tune_prune_threshold(r);
    json_object_set_new(j, "prune_threshold_us", isfinite(t) ? json_real(t) : json_null());
  }
  json_t *rank = json_array();
  for (size_t k = 0; k < r->nranked; k++) {
    const wgp_tune_config *c = &r->configs[r->ranked[k]];
    json_t *e = json_object();
    json_object_set_new(e, "rank", json_integer((json_int_t)k + 1));
    json_object_set_new(e, "index", json_integer((json_int_t)c->index));
    json_object_set_new(e, "params", params_json(r, c));
    json_object_set_new(e, "time_us", json_real(c->time_us));
    json_object_set_new(e, "best_us", json_real(c->best_us));
    json_object_set_new(e, "worst_us", json_real(c->worst_us));
    json_object_set_new(e, "limiter", json_string(c->limiter ? c->limiter : ""));
    json_object_set_new(e, "bottleneck", json_string(c->bottleneck ? c->bottleneck : ""));
    json_object_set_new(e, "bound", json_string(c->bound ? c->bound : ""));
    json_object_set_new(e, "occupancy_warps", json_integer(c->warps_per_sm));
    json_object_set_new(e, "groups_per_sm", json_integer(c->groups_per_sm));
    json_object_set_new(e, "registers", json_integer(c->registers));
    json_object_set_new(e, "registers_from", json_string(c->registers_from ? c->registers_from : ""));
    json_object_set_new(e, "grid", dims_json(c->grid));
    json_object_set_new(e, "block", dims_json(c->block));
    json_object_set_new(e, "code", c->code ? json_string(c->code) : json_null());
    if (c->outside)
      json_object_set_new(e, "outside", json_string(c->outside));
    if (n->prune_top) {
      json_object_set_new(e, "lower_us", json_real(c->lower_us));
      json_object_set_new(e, "upper_us", json_real(c->upper_us));
    }
    if (isfinite(c->bsp_us) || isfinite(c->roofline_us)) {
      json_t *b = json_object();
      if (isfinite(c->bsp_us))
        json_object_set_new(b, "bsp_lambda1_us", json_real(c->bsp_us));
      if (isfinite(c->roofline_us))
        json_object_set_new(b, "roofline_us", json_real(c->roofline_us));
      json_object_set_new(e, "baselines", b);
    }
    json_array_append_new(rank, e);
  }
  json_object_set_new(j, "ranked", rank);
  json_t *bad = json_array(), *pruned = json_array();
  for (size_t i = 0; i < r->nconfigs; i++) {
    const wgp_tune_config *c = &r->configs[i];
    if (c->ok)
      continue;
    if (c->pruned) {
      json_t *e = json_object();
      json_object_set_new(e, "index", json_integer((json_int_t)c->index));
      json_object_set_new(e, "params", params_json(r, c));
      json_object_set_new(e, "lower_us", json_real(c->lower_us));
      json_object_set_new(e, "upper_us", json_real(c->upper_us));
      json_object_set_new(e, "grid", dims_json(c->grid));
      json_object_set_new(e, "block", dims_json(c->block));
      json_object_set_new(e, "code", c->code ? json_string(c->code) : json_null());
      json_array_append_new(pruned, e);
      continue;
    }
    json_t *e = json_object();
    json_object_set_new(e, "index", json_integer((json_int_t)c->index));
    json_object_set_new(e, "params", params_json(r, c));
    json_object_set_new(e, "reason", json_string(c->reason ? c->reason : ""));
    json_object_set_new(e, "grid", dims_json(c->grid));
    json_object_set_new(e, "block", dims_json(c->block));
    json_object_set_new(e, "code", c->code ? json_string(c->code) : json_null());
    json_array_append_new(bad, e);
  }
  json_object_set_new(j, "cannot_run", bad);
  if (n->prune_top)
    json_object_set_new(j, "pruned", pruned);
  else
    json_decref(pruned);
  json_object_set_new(j, "wall_ms", json_real(n->wall_ms));
  json_object_set_new(j, "cpu_ms", json_real(n->cpu_ms));
  json_t *ph = json_object();
  json_object_set_new(ph, "preprocessing", json_real(n->preprocess_ms));
  json_object_set_new(ph, "compiling_and_estimating", json_real(n->compile_ms));
  json_object_set_new(j, "phases_ms", ph);
  json_t *pc = json_object();
  json_object_set_new(pc, "preprocess", json_real(n->cpu_preprocess_ms));
  json_object_set_new(pc, "compile", json_real(n->cpu_compile_ms));
  json_object_set_new(pc, "load_models", json_real(n->cpu_load_ms));
  json_object_set_new(pc, "estimate", json_real(n->cpu_estimate_ms));
  json_object_set_new(j, "cpu_ms_by_step", pc);
  /* 17 significant digits: the times read back exactly, so that shards merge */
  int rc = json_dumpf(j, f, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
  json_decref(j);
  if (rc == 0 && fputc('\n', f) == EOF)
    rc = -1;
  return rc;
}

/* ---- reading --json back ------------------------------------------------------------ */

static bool read_dims(json_t *a, uint64_t d[3]) {
  if (!json_is_array(a) || json_array_size(a) != 3)
    return false;
  for (int i = 0; i < 3; i++) {
    json_t *x = json_array_get(a, (size_t)i);
    if (!json_is_integer(x) || json_integer_value(x) < 1)
      return false;
    d[i] = (uint64_t)json_integer_value(x);
  }
  return true;
}

static const char *str_or(json_t *o, const char *key) {
  json_t *s = json_object_get(o, key);
  return json_is_string(s) ? json_string_value(s) : NULL;
}

/* One configuration of the file into C. */
static bool read_config(wgp_tune_result *r, json_t *e, size_t slot, bool ok, bool pruned, const char **why) {
  wgp_tune_config *c = &r->configs[slot];
  c->values = &r->values[slot * r->nparams];
  json_t *idx = json_object_get(e, "index"), *ps = json_object_get(e, "params");
  if (!json_is_integer(idx) || json_integer_value(idx) < 0 || !json_is_object(ps)) {
    *why = "an entry without index or params";
    return false;
  }
  c->index = (size_t)json_integer_value(idx);
  for (size_t p = 0; p < r->nparams; p++) {
    json_t *v = json_object_get(ps, r->params[p]);
    wgp_tune_value *tv = (wgp_tune_value *)&c->values[p];
    char text[256];
    if (json_is_integer(v)) {
      tv->kind = WGP_TUNE_INT, tv->i = json_integer_value(v), tv->f = (double)tv->i;
      snprintf(text, sizeof text, "%lld", (long long)tv->i);
    } else if (json_is_boolean(v)) {
      tv->kind = WGP_TUNE_INT, tv->i = json_is_true(v), tv->f = (double)tv->i;
      snprintf(text, sizeof text, "%s", tv->i ? "True" : "False");
    } else if (json_is_real(v)) {
      tv->kind = WGP_TUNE_FLOAT, tv->f = json_real_value(v);
      pyx_value pv = {.kind = PYX_FLOAT, .f = tv->f};
      pyx_str(&pv, text, sizeof text);
    } else if (json_is_string(v)) {
      tv->kind = WGP_TUNE_STRING;
      snprintf(text, sizeof text, "%s", json_string_value(v));
    } else {
      *why = "an entry whose params lack a parameter";
      return false;
    }
    if (!(tv->text = tr_keep(r, text))) {
      *why = "out of memory";
      return false;
    }
  }
  c->ok = ok;
  const char *code = str_or(e, "code");
  c->code = code ? tr_keep(r, code) : NULL;
  if (!read_dims(json_object_get(e, "grid"), c->grid) || !read_dims(json_object_get(e, "block"), c->block)) {
    *why = "an entry without grid or block";
    return false;
  }
  json_t *lo = json_object_get(e, "lower_us"), *hi = json_object_get(e, "upper_us");
  if (r->counts.prune_top && (ok || pruned)) {
    if (!json_is_number(lo) || !json_is_number(hi)) {
      *why = "an entry of a pruned run without lower_us or upper_us";
      return false;
    }
    c->lower_us = json_number_value(lo), c->upper_us = json_number_value(hi);
  }
  if (pruned) {
    c->pruned = true;
    return true;
  }
  if (!ok) {
    c->reason = tr_keep(r, str_or(e, "reason") ? str_or(e, "reason") : "");
    return true;
  }
  json_t *t = json_object_get(e, "time_us"), *b = json_object_get(e, "best_us"), *w = json_object_get(e, "worst_us");
  if (!json_is_number(t) || !json_is_number(b) || !json_is_number(w)) {
    *why = "a ranked entry without time_us, best_us or worst_us";
    return false;
  }
  c->time_us = json_number_value(t), c->best_us = json_number_value(b), c->worst_us = json_number_value(w);
  json_t *bl = json_object_get(e, "baselines");
  json_t *bsp = json_object_get(bl, "bsp_lambda1_us"), *roof = json_object_get(bl, "roofline_us");
  c->bsp_us = json_is_number(bsp) ? json_number_value(bsp) : NAN;
  c->roofline_us = json_is_number(roof) ? json_number_value(roof) : NAN;
  c->limiter = tr_keep(r, str_or(e, "limiter") ? str_or(e, "limiter") : "");
  c->bottleneck = tr_keep(r, str_or(e, "bottleneck") ? str_or(e, "bottleneck") : "");
  c->bound = tr_keep(r, str_or(e, "bound") ? str_or(e, "bound") : "");
  c->registers_from = tr_keep(r, str_or(e, "registers_from") ? str_or(e, "registers_from") : "");
  c->registers = (unsigned)json_integer_value(json_object_get(e, "registers"));
  c->warps_per_sm = (unsigned)json_integer_value(json_object_get(e, "occupancy_warps"));
  c->groups_per_sm = (unsigned)json_integer_value(json_object_get(e, "groups_per_sm"));
  c->outside = str_or(e, "outside") ? tr_keep(r, str_or(e, "outside")) : NULL;
  return true;
}

static size_t count_of(json_t *j, const char *key) {
  json_t *x = json_object_get(j, key);
  return json_is_integer(x) && json_integer_value(x) > 0 ? (size_t)json_integer_value(x) : 0;
}

static int by_index(const void *a, const void *b) {
  const wgp_tune_config *x = a, *y = b;
  return (x->index > y->index) - (x->index < y->index);
}

wgp_status wgp_tune_read_json(const char *file, wgp_tune_result **out, wgp_diag *diag) {
  *out = NULL;
  json_error_t je;
  json_t *j = json_load_file(file, 0, &je);
  if (!j)
    return wgp_diag_set(diag, je.line > 0 ? WGP_ERR_INPUT : WGP_ERR_IO, "wgperf: error: %s: %s%s%s", file,
                        je.line > 0 ? "malformed JSON: " : "", je.text, je.line > 0 ? "" : "");
  const char *why = NULL;
  json_t *ps = json_object_get(j, "parameters"), *ranked = json_object_get(j, "ranked"),
         *bad = json_object_get(j, "cannot_run"), *pruned = json_object_get(j, "pruned"),
         *ptop = json_object_get(j, "prune_top");
  if (!json_is_object(j) || !json_is_string(json_object_get(j, "tool")) ||
      strcmp(json_string_value(json_object_get(j, "tool")), "wgtune") != 0)
    why = "not the --json output of wgtune";
  else if (!json_is_array(ps) || !json_is_array(ranked) || !json_is_array(bad))
    why = "no parameters, ranked or cannot_run";
  else if (ptop && !json_is_null(ptop) && (!json_is_integer(ptop) || json_integer_value(ptop) < 1 || !json_is_array(pruned)))
    why = "prune_top without a number of ranks, or without pruned";
  wgp_tune_result *r = NULL;
  if (!why) {
    size_t ntop = json_is_integer(ptop) ? (size_t)json_integer_value(ptop) : 0;
    size_t np = json_array_size(ps), n = json_array_size(ranked) + json_array_size(bad) + (ntop ? json_array_size(pruned) : 0);
    const char **names = calloc(np ? np : 1, sizeof *names);
    for (size_t p = 0; names && p < np; p++)
      names[p] = json_is_string(json_array_get(ps, p)) ? json_string_value(json_array_get(ps, p)) : "";
    r = names ? tr_new(str_or(j, "space"), str_or(j, "kernel"), str_or(j, "gpu"), str_or(j, "key"), np, names, n)
              : NULL;
    free(names);
    if (!r)
      why = "out of memory";
    else
      r->counts.prune_top = ntop;
    size_t slot = 0;
    for (size_t i = 0; !why && i < json_array_size(ranked); i++)
      if (read_config(r, json_array_get(ranked, i), slot++, true, false, &why))
        continue;
    for (size_t i = 0; !why && i < json_array_size(bad); i++)
      if (read_config(r, json_array_get(bad, i), slot++, false, false, &why))
        continue;
    for (size_t i = 0; !why && ntop && i < json_array_size(pruned); i++)
      if (read_config(r, json_array_get(pruned, i), slot++, false, true, &why))
        continue;
    if (!why) {
      /* back to the space's order (values move with their configuration) */
      wgp_tune_config *sorted = malloc((n ? n : 1) * sizeof *sorted);
      wgp_tune_value *vals = malloc((n * np > 0 ? n * np : 1) * sizeof *vals);
      if (!sorted || !vals) {
        free(sorted);
        free(vals);
        why = "out of memory";
      } else {
        memcpy(sorted, r->configs, n * sizeof *sorted);
        qsort(sorted, n, sizeof *sorted, by_index);
        for (size_t i = 0; i < n; i++) {
          memcpy(&vals[i * np], sorted[i].values, np * sizeof *vals);
          sorted[i].values = &vals[i * np];
          if (i && sorted[i].index == sorted[i - 1].index)
            why = "a configuration listed twice";
        }
        free(r->configs);
        free(r->values);
        r->configs = sorted, r->values = vals;
      }
    }
    if (!why && !tr_rank(r))
      why = "out of memory";
    if (!why) {
      wgp_tune_counts *c = &r->counts;
      json_t *sh = json_object_get(j, "shard");
      c->shard = json_is_object(sh) ? (unsigned)count_of(sh, "index") : 0;
      c->shards = json_is_object(sh) ? (unsigned)count_of(sh, "count") : 0;
      c->raw = count_of(j, "configurations_raw");
      c->total = count_of(j, "configurations_total");
      c->sample = count_of(j, "sample");
      c->run = count_of(j, "configurations");
      c->distinct = count_of(j, "distinct");
      c->estimates = count_of(j, "estimates");
      c->compiled = count_of(j, "compiled");
      c->cached = count_of(j, "cached");
      c->preprocessed = count_of(j, "preprocessed");
      c->precompiled = count_of(j, "precompiled");
      c->wall_ms = json_number_value(json_object_get(j, "wall_ms"));
      c->cpu_ms = json_number_value(json_object_get(j, "cpu_ms"));
      json_t *ph = json_object_get(j, "phases_ms");
      c->preprocess_ms = json_number_value(json_object_get(ph, "preprocessing"));
      c->compile_ms = json_number_value(json_object_get(ph, "compiling_and_estimating"));
      json_t *pc = json_object_get(j, "cpu_ms_by_step");
      c->cpu_preprocess_ms = json_number_value(json_object_get(pc, "preprocess"));
      c->cpu_compile_ms = json_number_value(json_object_get(pc, "compile"));
      c->cpu_load_ms = json_number_value(json_object_get(pc, "load_models"));
      c->cpu_estimate_ms = json_number_value(json_object_get(pc, "estimate"));
      if (c->run != n)
        why = "configurations does not count the entries of ranked, cannot_run and pruned";
    }
  }
  json_decref(j);
  if (why) {
    wgp_tune_result_free(r);
    return wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: %s: %s", file, why);
  }
  *out = r;
  return WGP_OK;
}

/* ---- merging shards --------------------------------------------------------------- */

static int by_code(const void *a, const void *b) {
  const char *x = *(const char *const *)a, *y = *(const char *const *)b;
  return strcmp(x, y);
}

wgp_status wgp_tune_merge(wgp_tune_result *const *shards, size_t n, wgp_tune_result **out, wgp_diag *diag) {
  *out = NULL;
  if (n == 0)
    return wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: no shards to merge");
  const wgp_tune_result *f = shards[0];
  unsigned count = f->counts.shards;
  if (count == 0)
    return wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: %s: not a shard (made without --shard)", f->space);
  bool *seen = calloc(count + 1, sizeof *seen);
  if (!seen)
    return wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
  size_t total = 0;
  for (size_t i = 0; i < n; i++) {
    const wgp_tune_result *s = shards[i];
    const char *what = NULL;
    if (s->counts.shards != count)
      what = "a shard of another division (--shard K/N with another N)";
    else if (strcmp(s->key, f->key) != 0)
      what = "a shard of another run (space, kernel, GPU, flags, --trip/--taken or tools differ)";
    else if (s->nparams != f->nparams)
      what = "a shard with other parameters";
    else if (s->counts.total != f->counts.total)
      what = "a shard of a space of another size";
    else if (s->counts.prune_top != f->counts.prune_top)
      what = "a shard made with another --prune (or without it)";
    else if (s->counts.shard < 1 || s->counts.shard > count)
      what = "a shard number out of range";
    else if (seen[s->counts.shard])
      what = "the same shard twice";
    for (size_t p = 0; !what && p < s->nparams; p++)
      if (strcmp(s->params[p], f->params[p]) != 0)
        what = "a shard with other parameters";
    if (what) {
      free(seen);
      return wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: shard %u of %u: %s", s->counts.shard, s->counts.shards,
                          what);
    }
    seen[s->counts.shard] = true;
    total += s->nconfigs;
  }
  for (unsigned k = 1; k <= count; k++)
    if (!seen[k]) {
      free(seen);
      return wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: shard %u of %u is missing", k, count);
    }
  free(seen);
  size_t want = f->counts.sample ? f->counts.sample : f->counts.total;
  if (total != want)
    return wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: the shards hold %zu configurations, the %s %zu", total,
                        f->counts.sample ? "sample" : "space", want);
  wgp_tune_result *r =
      tr_new(f->space, f->kernel, f->gpu, f->key, f->nparams, (const char *const *)f->params, total);
  if (!r)
    return wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
  size_t slot = 0;
  bool ok = true;
  for (size_t i = 0; i < n && ok; i++)
    for (size_t q = 0; q < shards[i]->nconfigs && ok; q++, slot++) {
      const wgp_tune_config *c = &shards[i]->configs[q];
      wgp_tune_config *d = &r->configs[slot];
      *d = *c;
      d->values = &r->values[slot * r->nparams];
      for (size_t p = 0; p < r->nparams; p++) {
        wgp_tune_value v = c->values[p];
        ok = ok && (v.text = tr_keep(r, v.text)) != NULL;
        ((wgp_tune_value *)d->values)[p] = v;
      }
      d->reason = tr_keep(r, c->reason);
      d->code = tr_keep(r, c->code);
      d->limiter = tr_keep(r, c->limiter);
      d->bottleneck = tr_keep(r, c->bottleneck);
      d->bound = tr_keep(r, c->bound);
      d->registers_from = tr_keep(r, c->registers_from);
    }
  /* the space's order */
  wgp_tune_config *sorted = ok ? malloc(total * sizeof *sorted) : NULL;
  wgp_tune_value *vals = sorted ? malloc((total * r->nparams > 0 ? total * r->nparams : 1) * sizeof *vals) : NULL;
  const char **codes = vals ? malloc((total ? total : 1) * sizeof *codes) : NULL;
  if (!codes) {
    free(sorted);
    free(vals);
    wgp_tune_result_free(r);
    return wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
  }
  memcpy(sorted, r->configs, total * sizeof *sorted);
  qsort(sorted, total, sizeof *sorted, by_index);
  const char *dup = NULL;
  for (size_t i = 0; i < total; i++) {
    memcpy(&vals[i * r->nparams], sorted[i].values, r->nparams * sizeof *vals);
    sorted[i].values = &vals[i * r->nparams];
    if (f->counts.sample ? i > 0 && sorted[i].index == sorted[i - 1].index : sorted[i].index != i)
      dup = "the shards do not hold each configuration of the space once";
  }
  free(r->configs);
  free(r->values);
  r->configs = sorted, r->values = vals;
  if (dup) {
    free(codes);
    wgp_tune_result_free(r);
    return wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: %s", dup);
  }
  size_t nc = 0;
  for (size_t i = 0; i < total; i++)
    if (r->configs[i].code)
      codes[nc++] = r->configs[i].code;
  qsort(codes, nc, sizeof *codes, by_code);
  size_t distinct = 0;
  for (size_t i = 0; i < nc; i++)
    distinct += i == 0 || strcmp(codes[i], codes[i - 1]) != 0;
  free(codes);
  /* pruned shards: each ranked what its own N-th fastest let through; the
   * whole space's N-th fastest is among them, and what one process keeps is
   * what that time lets through (tr_prune_trim) */
  r->counts.prune_top = f->counts.prune_top;
  if (!tr_rank(r) || !tr_prune_trim(r)) {
    wgp_tune_result_free(r);
    return wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
  }
  wgp_tune_counts *c = &r->counts;
  c->raw = f->counts.raw;
  c->total = f->counts.total;
  c->sample = f->counts.sample;
  c->run = total;
  c->distinct = distinct;
  for (size_t i = 0; i < n; i++) {
    const wgp_tune_counts *s = &shards[i]->counts;
    c->estimates += s->estimates;
    c->compiled += s->compiled;
    c->cached += s->cached;
    c->preprocessed += s->preprocessed;
    c->precompiled += s->precompiled;
    c->cpu_ms += s->cpu_ms;
    c->cpu_preprocess_ms += s->cpu_preprocess_ms;
    c->cpu_compile_ms += s->cpu_compile_ms;
    c->cpu_load_ms += s->cpu_load_ms;
    c->cpu_estimate_ms += s->cpu_estimate_ms;
    c->wall_ms = s->wall_ms > c->wall_ms ? s->wall_ms : c->wall_ms;
    c->preprocess_ms = s->preprocess_ms > c->preprocess_ms ? s->preprocess_ms : c->preprocess_ms;
    c->compile_ms = s->compile_ms > c->compile_ms ? s->compile_ms : c->compile_ms;
  }
  *out = r;
  return WGP_OK;
}
