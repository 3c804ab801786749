/* report.c - a ranked tuning space as a table, CSV, the community's T4
 * results file and a Kernel Tuner search space (tune.h).
 *
 * T4: the results schema 1.0.0 of the autotuning community
 * (github.com/odgaard/TuningSchema, results-schema.json; Kernel Tuner ships
 * it as kernel_tuner/schema/T4/1.0.0/results-schema.json): an object with
 * schema_version and results, each result with configuration, times,
 * invalidity (correct, compile, runtime, ...), correctness and measurements
 * ({name, value, unit}).  Our entries hold predictions: the measurement
 * "time" is the predicted time in ms (Kernel Tuner's unit), times.runtimes
 * is empty (nothing ran), and a top-level "wgperf" object says so.
 */
#define _POSIX_C_SOURCE 200809L
#include "result_internal.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Parameters with more than one value among the configurations (the others
 * are printed once). */
static bool varies(const wgp_tune_result *r, size_t p) {
  for (size_t i = 1; i < r->nconfigs; i++)
    if (strcmp(r->configs[i].values[p].text, r->configs[0].values[p].text) != 0)
      return true;
  return false;
}

/* C's values of the parameters that vary in R ("name=value", by spaces);
 * SHOW, when given, says which vary (varies() of each). */
static void write_params(FILE *f, const wgp_tune_result *r, const wgp_tune_config *c, const bool *show) {
  size_t np = 0;
  for (size_t p = 0; p < r->nparams; p++)
    if (show ? show[p] : varies(r, p))
      fprintf(f, "%s%s=%s", np++ ? " " : "", r->params[p], c->values[p].text);
}

/* The registers' source of most predicted configurations. */
static const char *common_registers(const wgp_tune_result *r, size_t *count) {
  const char *best = NULL;
  size_t best_n = 0;
  const char *seen[16];
  size_t nseen = 0;
  for (size_t k = 0; k < r->nranked; k++) {
    const char *s = r->configs[r->ranked[k]].registers_from;
    bool done = false;
    for (size_t q = 0; q < nseen && !done; q++)
      done = strcmp(seen[q], s) == 0;
    if (done || nseen == 16)
      continue;
    seen[nseen++] = s;
    size_t n = 0;
    for (size_t q = k; q < r->nranked; q++)
      n += strcmp(r->configs[r->ranked[q]].registers_from, s) == 0;
    if (n > best_n)
      best_n = n, best = s;
  }
  *count = best_n;
  return best;
}

static void dims(char *buf, size_t size, const uint64_t d[3]) {
  snprintf(buf, size, "%llux%llux%llu", (unsigned long long)d[0], (unsigned long long)d[1], (unsigned long long)d[2]);
}

/* A reason's kind: its words with every number written N, up to its first
 * colon (or 48 characters), into BUF. */
static void kind_text(const char *reason, char *buf, size_t size) {
  size_t n = 0;
  for (const char *p = reason; *p && *p != ':' && n + 2 < size && n < 48; p++) {
    if ((*p >= '0' && *p <= '9') || (*p == 'x' && p > reason && p[-1] == '0')) {
      if (n == 0 || buf[n - 1] != 'N')
        buf[n++] = 'N';
      continue;
    }
    buf[n++] = *p;
  }
  buf[n] = '\0';
}

static bool same_kind(const char *a, const char *b) {
  char x[64], y[64];
  kind_text(a, x, sizeof x);
  kind_text(b, y, sizeof y);
  return strcmp(x, y) == 0;
}

int wgp_tune_write_table(const wgp_tune_result *r, FILE *f, size_t top) {
  const wgp_tune_counts *n = &r->counts;
  fprintf(f, "kernel %s on %s, space %s\n", r->kernel, r->gpu, r->space);
  fprintf(f, "configurations %zu of %llu combinations allowed by the conditions, %zu distinct codes", n->total,
          (unsigned long long)n->raw, n->distinct);
  if (n->sample)
    fprintf(f, "; a sample of %zu", n->sample);
  if (n->shards)
    fprintf(f, "; shard %u of %u: %zu configurations", n->shard, n->shards, n->run);
  fprintf(f, "\nranked %zu, cannot run %zu", n->ranked, n->cannot_run);
  if (n->prune_top)
    fprintf(f, ", pruned %zu (--prune %zu: ranks 1 to %zu exact; a configuration whose best case is slower than rank "
               "%zu's %.5g us is not estimated)",
            n->pruned, n->prune_top, n->prune_top, n->prune_top, wgp_tune_prune_threshold(r));
  fprintf(f, "\n");
  size_t nreg;
  const char *reg = common_registers(r, &nreg);
  if (reg) {
    fprintf(f, "registers per thread from %s", reg);
    if (nreg < n->ranked)
      fprintf(f, " for %zu, others as each row's --json or --csv entry says", nreg);
    fprintf(f, "\n");
  }
  bool *show = calloc(r->nparams ? r->nparams : 1, sizeof *show);
  if (!show)
    return -1;
  size_t nfixed = 0;
  for (size_t p = 0; p < r->nparams; p++) {
    show[p] = r->nconfigs > 0 && varies(r, p);
    if (!show[p] && r->nconfigs > 0)
      fprintf(f, "%s%s=%s", nfixed++ ? ", " : "fixed: ", r->params[p], r->configs[0].values[p].text);
  }
  if (nfixed)
    fprintf(f, "\n");
  /* column widths: the name or its widest value */
  size_t *w = calloc(r->nparams ? r->nparams : 1, sizeof *w);
  if (!w) {
    free(show);
    return -1;
  }
  for (size_t p = 0; p < r->nparams; p++) {
    w[p] = strlen(r->params[p]);
    for (size_t i = 0; i < r->nconfigs; i++) {
      size_t l = strlen(r->configs[i].values[p].text);
      if (l > w[p])
        w[p] = l;
    }
  }
  size_t rows = top && top < r->nranked ? top : r->nranked;
  if (rows > 0) { /* no header over no rows */
    fprintf(f, "%5s %11s %23s %5s %-14s %-11s", "rank", "time (us)", "between (us)", "warps", "limiter", "block");
    for (size_t p = 0; p < r->nparams; p++)
      if (show[p])
        fprintf(f, " %*s", (int)w[p], r->params[p]);
    fprintf(f, "  bottleneck\n");
  }
  for (size_t k = 0; k < rows; k++) {
    const wgp_tune_config *c = &r->configs[r->ranked[k]];
    char between[48], block[48];
    snprintf(between, sizeof between, "%.5g..%.5g", c->best_us, c->worst_us); /* as the time column */
    dims(block, sizeof block, c->block);
    fprintf(f, "%5zu %11.5g %23s %5u %-14s %-11s", k + 1, c->time_us, between, c->warps_per_sm, c->limiter, block);
    for (size_t p = 0; p < r->nparams; p++)
      if (show[p])
        fprintf(f, " %*s", (int)w[p], c->values[p].text);
    fprintf(f, "  %s\n", c->bottleneck);
  }
  if (rows < r->nranked)
    fprintf(f, "(%zu more ranked%s: --top 0 shows all, --json and --csv list them)\n", r->nranked - rows,
            n->prune_top && rows >= n->prune_top ? ", past the exact ranks" : "");
  /* ties at the top: why the first is first */
  size_t tied = 1;
  while (tied < r->nranked && r->configs[r->ranked[tied]].time_us == r->configs[r->ranked[0]].time_us)
    tied++;
  if (tied > 1)
    fprintf(f, "ranks 1 to %zu are predicted exactly as fast: the earlier in the space comes first\n", tied);
  if (n->cannot_run) {
    fprintf(f, "cannot run %zu configurations%s:\n", n->cannot_run, n->cannot_run > 5 ? " (the first 5; --json and --csv list them all)" : "");
    size_t shown = 0;
    for (size_t i = 0; i < r->nconfigs && shown < 5; i++) {
      const wgp_tune_config *c = &r->configs[i];
      if (c->ok || c->pruned)
        continue;
      fprintf(f, "  ");
      write_params(f, r, c, show);
      fprintf(f, ": %s\n", c->reason);
      shown++;
    }
    /* the reasons, counted by kind (numbers aside, up to the first colon) */
    const char *kinds[8];
    size_t counts[8], nk = 0, other = 0;
    for (size_t i = 0; i < r->nconfigs; i++) {
      const wgp_tune_config *c = &r->configs[i];
      if (c->ok || c->pruned)
        continue;
      size_t q = 0;
      while (q < nk && !same_kind(kinds[q], c->reason))
        q++;
      if (q == nk && nk < 8)
        kinds[nk] = c->reason, counts[nk++] = 0;
      if (q < nk)
        counts[q]++;
      else
        other++;
    }
    if (nk > 1 || other) {
      fprintf(f, "  by reason:");
      for (size_t q = 0; q < nk; q++) {
        char k[64];
        kind_text(kinds[q], k, sizeof k);
        fprintf(f, "%s %zu '%s'", q ? "," : "", counts[q], k);
      }
      if (other)
        fprintf(f, ", %zu other", other);
      fprintf(f, "\n");
    }
  }
  fprintf(f, "wall time %.1f s, CPU %.1f s (workers and compilers included: preprocessing %.1f, compiling %.1f, "
             "loading models %.1f, estimating %.1f); preprocessed %zu, compiled %zu (%zu with precompiled headers), from the "
             "cache %zu, estimates %zu\n",
          n->wall_ms / 1e3, n->cpu_ms / 1e3, n->cpu_preprocess_ms / 1e3, n->cpu_compile_ms / 1e3, n->cpu_load_ms / 1e3,
          n->cpu_estimate_ms / 1e3, n->preprocessed, n->compiled, n->precompiled, n->cached, n->estimates);
  free(show);
  free(w);
  return ferror(f) ? -1 : 0;
}

static void csv_field(FILE *f, const char *s) {
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

static void csv_row(const wgp_tune_result *r, FILE *f, const wgp_tune_config *c, size_t rank) {
  if (c->pruned) {
    /* its bounds in best_us and worst_us, no time: it was not estimated */
    fprintf(f, ",%zu", c->index);
    for (size_t p = 0; p < r->nparams; p++) {
      fputc(',', f);
      csv_field(f, c->values[p].text);
    }
    fprintf(f, ",,%.9g,%.9g,,,,,%llu,%llu,%llu,%llu,%llu,%llu,,,", c->lower_us, c->upper_us,
            (unsigned long long)c->grid[0], (unsigned long long)c->grid[1], (unsigned long long)c->grid[2],
            (unsigned long long)c->block[0], (unsigned long long)c->block[1], (unsigned long long)c->block[2]);
    char why[160];
    snprintf(why, sizeof why, "pruned: its best case, %.6g us, is slower than rank %zu (%.6g us)", c->lower_us,
             r->counts.prune_top, wgp_tune_prune_threshold(r));
    csv_field(f, why);
    fputc('\n', f);
    return;
  }
  if (c->ok)
    fprintf(f, "%zu,%zu", rank, c->index);
  else
    fprintf(f, ",%zu", c->index);
  for (size_t p = 0; p < r->nparams; p++) {
    fputc(',', f);
    csv_field(f, c->values[p].text);
  }
  if (c->ok) {
    fprintf(f, ",%.9g,%.9g,%.9g,%u,%s,%u,", c->time_us, c->best_us, c->worst_us, c->warps_per_sm, c->limiter,
            c->registers);
    csv_field(f, c->registers_from);
  } else {
    fprintf(f, ",,,,,,,");
  }
  fprintf(f, ",%llu,%llu,%llu,%llu,%llu,%llu,", (unsigned long long)c->grid[0], (unsigned long long)c->grid[1],
          (unsigned long long)c->grid[2], (unsigned long long)c->block[0], (unsigned long long)c->block[1],
          (unsigned long long)c->block[2]);
  if (c->ok) {
    csv_field(f, c->bound);
    fputc(',', f);
    csv_field(f, c->bottleneck);
    fputc(',', f);
  } else {
    fprintf(f, ",,");
    csv_field(f, c->reason);
  }
  fputc('\n', f);
}

/* The ranked configurations, then those that cannot run or were pruned (in
 * the space's order, the reason in the last column; a pruned one's bounds
 * as best_us and worst_us). */
int wgp_tune_write_csv(const wgp_tune_result *r, FILE *f) {
  fprintf(f, "rank,index");
  for (size_t p = 0; p < r->nparams; p++)
    fprintf(f, ",%s", r->params[p]);
  fprintf(f, ",time_us,best_us,worst_us,occupancy_warps,limiter,registers,registers_from,grid_x,grid_y,grid_z,"
             "block_x,block_y,block_z,bound,bottleneck,cannot_run\n");
  for (size_t k = 0; k < r->nranked; k++)
    csv_row(r, f, &r->configs[r->ranked[k]], k + 1);
  for (size_t i = 0; i < r->nconfigs; i++)
    if (!r->configs[i].ok)
      csv_row(r, f, &r->configs[i], 0);
  return ferror(f) ? -1 : 0;
}

/* ---- T4 --------------------------------------------------------------------------- */

static json_t *value_json(const wgp_tune_value *v) {
  if (v->kind == WGP_TUNE_INT)
    return json_integer((json_int_t)v->i);
  if (v->kind == WGP_TUNE_FLOAT)
    return json_real(v->f);
  return json_string(v->text);
}

static json_t *measurement(const char *name, json_t *value, const char *unit) {
  json_t *m = json_object();
  json_object_set_new(m, "name", json_string(name));
  json_object_set_new(m, "value", value);
  json_object_set_new(m, "unit", json_string(unit));
  return m;
}

/* T4's invalidity for a configuration that cannot run: the compiler refused
 * it ("compile": clang's error, ptxas', static shared memory past the
 * limit), or the GPU's resources or limits would at launch ("runtime"). */
static const char *invalidity(const char *reason) {
  if (strncmp(reason, "does not compile", 16) == 0 || strncmp(reason, "does not preprocess", 19) == 0 ||
      strncmp(reason, "the compiler refuses it", 23) == 0)
    return "compile";
  return "runtime";
}

int wgp_tune_write_t4(const wgp_tune_result *r, FILE *f) {
  char stamp[64];
  time_t now = time(NULL);
  struct tm tm;
  gmtime_r(&now, &tm);
  strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", &tm);
  json_t *j = json_object(), *res = json_array();
  json_object_set_new(j, "schema_version", json_string("1.0.0"));
  for (size_t i = 0; i < r->nconfigs; i++) {
    const wgp_tune_config *c = &r->configs[i];
    if (c->pruned) /* not estimated: T4 has no invalidity for it (the note below counts them) */
      continue;
    json_t *e = json_object(), *conf = json_object(), *times = json_object(), *ms = json_array();
    json_object_set_new(e, "timestamp", json_string(stamp));
    for (size_t p = 0; p < r->nparams; p++)
      json_object_set_new(conf, r->params[p], value_json(&c->values[p]));
    json_object_set_new(e, "configuration", conf);
    json_t *obj = json_array();
    json_array_append_new(obj, json_string("time"));
    json_object_set_new(e, "objectives", obj);
    json_object_set_new(times, "runtimes", json_array()); /* predicted: nothing ran */
    json_object_set_new(e, "times", times);
    json_object_set_new(e, "invalidity", json_string(c->ok ? "correct" : invalidity(c->reason)));
    json_object_set_new(e, "correctness", json_integer(1));
    if (c->ok) {
      json_array_append_new(ms, measurement("time", json_real(c->time_us / 1e3), "ms"));
      json_array_append_new(ms, measurement("time_best_case", json_real(c->best_us / 1e3), "ms"));
      json_array_append_new(ms, measurement("time_worst_case", json_real(c->worst_us / 1e3), "ms"));
      json_array_append_new(ms, measurement("occupancy_warps", json_integer(c->warps_per_sm), "warps/SM"));
      json_array_append_new(ms, measurement("registers", json_integer(c->registers), "registers/thread"));
      json_array_append_new(ms, measurement("bottleneck", json_string(c->bottleneck), ""));
    } else {
      json_array_append_new(ms, measurement("reason", json_string(c->reason), ""));
    }
    json_object_set_new(e, "measurements", ms);
    json_array_append_new(res, e);
  }
  json_object_set_new(j, "results", res);
  json_t *w = json_object();
  json_object_set_new(w, "note", json_string("predicted by wgperf without running the kernel: the measurement 'time' "
                                             "is a prediction"));
  json_object_set_new(w, "kernel", json_string(r->kernel));
  json_object_set_new(w, "gpu", json_string(r->gpu));
  json_object_set_new(w, "space", json_string(r->space));
  if (r->counts.prune_top) {
    char note[256];
    snprintf(note, sizeof note,
             "wgtune --prune %zu: %zu configurations are not listed, each one's best case being slower than rank %zu "
             "(%.6g ms)",
             r->counts.prune_top, r->counts.pruned, r->counts.prune_top, wgp_tune_prune_threshold(r) / 1e3);
    json_object_set_new(w, "pruned", json_string(note));
  }
  json_object_set_new(j, "wgperf", w);
  int rc = json_dumpf(j, f, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
  json_decref(j);
  if (rc == 0 && fputc('\n', f) == EOF)
    rc = -1;
  return rc;
}

/* ---- --emit-kernel-tuner ----------------------------------------------------------- */

/* A value as Python writes it in a restriction (strings quoted). */
static void python_literal(char *buf, size_t size, const wgp_tune_value *v) {
  if (v->kind == WGP_TUNE_STRING)
    snprintf(buf, size, "'%s'", v->text);
  else
    snprintf(buf, size, "%s", v->text);
}

int wgp_tune_write_kernel_tuner(const wgp_tune_result *r, FILE *f, size_t top) {
  size_t nr = top && top < r->nranked ? top : r->nranked;
  json_t *j = json_object(), *tp = json_object();
  bool *vary = calloc(r->nparams ? r->nparams : 1, sizeof *vary);
  if (!vary) {
    json_decref(j);
    json_decref(tp);
    return -1;
  }
  size_t nvary = 0;
  for (size_t p = 0; p < r->nparams; p++) {
    json_t *vals = json_array();
    /* the values among the chosen, in the space's order of first appearance by rank */
    for (size_t k = 0; k < nr; k++) {
      const wgp_tune_value *v = &r->configs[r->ranked[k]].values[p];
      bool dup = false;
      for (size_t q = 0; q < k && !dup; q++)
        dup = strcmp(r->configs[r->ranked[q]].values[p].text, v->text) == 0;
      if (!dup)
        json_array_append_new(vals, value_json(v));
    }
    vary[p] = json_array_size(vals) > 1;
    nvary += vary[p];
    json_object_set_new(tp, r->params[p], vals);
  }
  json_object_set_new(j, "tune_params", tp);
  /* the exact combinations, as one restriction over the parameters that vary */
  json_t *rs = json_array();
  if (nvary && nr) {
    size_t cap = 64 + nr * (nvary * 24 + 8) + r->nparams * 32, len = 0;
    char *t = malloc(cap);
    if (!t) {
      free(vary);
      json_decref(j);
      json_decref(rs);
      return -1;
    }
    len += (size_t)snprintf(t + len, cap - len, "(");
    size_t q = 0;
    for (size_t p = 0; p < r->nparams; p++)
      if (vary[p])
        len += (size_t)snprintf(t + len, cap - len, "%s%s", q++ ? ", " : "", r->params[p]);
    len += (size_t)snprintf(t + len, cap - len, "%s) in [", nvary == 1 ? "," : "");
    for (size_t k = 0; k < nr; k++) {
      len += (size_t)snprintf(t + len, cap - len, "%s(", k ? ", " : "");
      q = 0;
      for (size_t p = 0; p < r->nparams; p++)
        if (vary[p]) {
          char lit[280];
          python_literal(lit, sizeof lit, &r->configs[r->ranked[k]].values[p]);
          len += (size_t)snprintf(t + len, cap - len, "%s%s", q++ ? ", " : "", lit);
        }
      len += (size_t)snprintf(t + len, cap - len, "%s)", nvary == 1 ? "," : "");
    }
    snprintf(t + len, cap - len, "]");
    json_array_append_new(rs, json_string(t));
    free(t);
  }
  json_object_set_new(j, "restrictions", rs);
  json_t *order = json_array();
  for (size_t k = 0; k < nr; k++) {
    const wgp_tune_config *c = &r->configs[r->ranked[k]];
    json_t *e = json_object();
    for (size_t p = 0; p < r->nparams; p++)
      json_object_set_new(e, r->params[p], value_json(&c->values[p]));
    json_object_set_new(e, "predicted_time_us", json_real(c->time_us));
    json_array_append_new(order, e);
  }
  json_object_set_new(j, "wgperf_ranking", order);
  json_object_set_new(j, "wgperf_gpu", json_string(r->gpu));
  int rc = json_dumpf(j, f, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
  json_decref(j);
  free(vary);
  if (rc == 0 && fputc('\n', f) == EOF)
    rc = -1;
  return rc;
}

void wgp_tune_say_outside(const wgp_tune_result *r, wgp_message_fn fn, void *user) {
  size_t count = 0, first = 0;
  for (size_t k = 0; k < r->nranked; k++)
    if (r->configs[r->ranked[k]].outside && count++ == 0)
      first = k;
  if (!fn || !count)
    return;
  const wgp_tune_config *c = &r->configs[r->ranked[first]];
  char *line = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&line, &len);
  if (!m)
    return;
  fprintf(m, "wgperf: warning: %zu of the fastest configurations checked access outside the buffers the space gives "
             "(the first, rank %zu, ", count, first + 1);
  write_params(m, r, c, NULL);
  fprintf(m, ": %s): the kernel is not written for such a launch (no bound check for its grid), or a Size in the "
             "space's Arguments is too small; their times count those accesses", c->outside);
  if (fclose(m) == 0)
    fn(user, line);
  free(line);
}
