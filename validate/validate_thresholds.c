/* validate_thresholds.c - recorded accuracy thresholds (validate_thresholds.h). */
#include "validate_thresholds.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

#define THRESH_FORMAT "wgperf-validate-thresholds"

/* The value at dot PATH in ROOT (NULL when absent). */
static json_t *at(json_t *root, const char *path) {
  char buf[512];
  snprintf(buf, sizeof buf, "%s", path);
  json_t *j = root;
  for (char *p = buf, *dot; j && p; p = dot ? dot + 1 : NULL) {
    dot = strchr(p, '.');
    if (dot)
      *dot = '\0';
    j = json_object_get(j, p);
  }
  return j;
}

int vthresh_check(json_t *report, const char *file, FILE *log, wgp_diag *diag) {
  json_error_t err;
  json_t *t = json_load_file(file, JSON_REJECT_DUPLICATES, &err);
  if (!t) {
    wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: %s:%d: %s", file, err.line, err.text);
    return -1;
  }
  json_t *fmt = json_object_get(t, "format");
  json_t *mx = json_object_get(t, "max"), *mn = json_object_get(t, "min");
  if (!json_is_string(fmt) || strcmp(json_string_value(fmt), THRESH_FORMAT) != 0 ||
      !json_is_integer(json_object_get(t, "version")) || json_integer_value(json_object_get(t, "version")) != 1) {
    json_decref(t);
    wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: %s: not a thresholds file (\"format\": \"" THRESH_FORMAT
                 "\", \"version\": 1)", file);
    return -1;
  }
  if ((mx && !json_is_object(mx)) || (mn && !json_is_object(mn)) || (!mx && !mn)) {
    json_decref(t);
    wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: %s: 'max' and 'min' must be objects of PATH: number", file);
    return -1;
  }
  int failed = 0;
  for (int side = 0; side < 2; side++) {
    json_t *lim = side ? mn : mx;
    const char *key;
    json_t *v;
    json_object_foreach(lim, key, v) {
      if (!json_is_number(v)) {
        wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: %s: '%s.%s' must be a number", file, side ? "min" : "max",
                     key);
        json_decref(t); /* after the message: key lives in t */
        return -1;
      }
      double limit = json_number_value(v);
      json_t *got = at(report, key);
      if (!json_is_number(got)) {
        fprintf(log, "wgperf-validate: FAIL %s: no value in this run (limit %s %g)\n", key, side ? ">=" : "<=", limit);
        failed++;
        continue;
      }
      double x = json_number_value(got);
      bool ok = side ? x >= limit : x <= limit;
      fprintf(log, "wgperf-validate: %s %s = %.4g, limit %s %g\n", ok ? "ok  " : "FAIL", key, x, side ? ">=" : "<=",
              limit);
      failed += !ok;
    }
  }
  json_decref(t);
  return failed;
}

static void add(json_t *figs, json_t *mx, json_t *mn, json_t *report, const char *path) {
  json_t *v = at(report, path);
  if (!json_is_number(v))
    return;
  double x = json_number_value(v);
  json_object_set_new(figs, path, json_real(x));
  const char *last = strrchr(path, '.');
  last = last ? last + 1 : path;
  if (strcmp(last, "spearman") == 0)
    json_object_set_new(mn, path, json_real(floor((x - 0.05) * 1000) / 1000));
  else if (strcmp(last, "mean_slowdown") == 0)
    json_object_set_new(mx, path, json_real(ceil((x + 0.03) * 1000) / 1000));
  else
    json_object_set_new(mx, path, json_real(ceil((1.1 * x + 1) * 10) / 10));
}

wgp_status vthresh_write(json_t *report, const char *file, const char *command, wgp_diag *diag) {
  json_t *t = json_object(), *rec = json_object(), *figs = json_object(), *mx = json_object(), *mn = json_object();
  json_object_set_new(t, "format", json_string(THRESH_FORMAT));
  json_object_set_new(t, "version", json_integer(1));
  json_object_set_new(t, "description",
                      json_string("Accuracy of wgperf-validate on the measurements named in 'recorded.command'; CI "
                                  "fails when a figure passes its limit. Limits: MAPE-like figures 1.1 x + 1 point, "
                                  "Spearman - 0.05, mean slowdown + 0.03 (validation/README.md says how to renew "
                                  "them)."));
  json_object_set_new(rec, "command", json_string(command));
  static const char *const top[] = {"overall.mape", "overall.geomean_rel_error", "overall.spearman",
                                    "overall.shape_choice.mean_slowdown"};
  for (size_t i = 0; i < sizeof top / sizeof top[0]; i++)
    add(figs, mx, mn, report, top[i]);
  static const char *const scopes[] = {"per_gpu", "per_kernel"};
  for (int s = 0; s < 2; s++) {
    const char *key;
    json_t *v;
    json_object_foreach(json_object_get(report, scopes[s]), key, v) {
      char path[256];
      snprintf(path, sizeof path, "%s.%s.mape", scopes[s], key);
      add(figs, mx, mn, report, path);
    }
  }
  static const char *const ctr[] = {"gld_transactions_per_request", "gst_transactions_per_request",
                                    "shared_ld_transactions_per_request", "shared_st_transactions_per_request"};
  for (size_t i = 0; i < sizeof ctr / sizeof ctr[0]; i++) {
    char path[256];
    const char *key;
    json_t *v;
    snprintf(path, sizeof path, "counters.%s.per_rules", ctr[i]);
    json_object_foreach(at(report, path), key, v) {
      char p2[320];
      snprintf(p2, sizeof p2, "counters.%s.per_rules.%s.mape", ctr[i], key);
      add(figs, mx, mn, report, p2);
    }
  }
  json_object_set_new(rec, "figures", figs);
  json_object_set_new(t, "recorded", rec);
  json_object_set_new(t, "max", mx);
  json_object_set_new(t, "min", mn);
  int rc = json_dump_file(t, file, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6));
  json_decref(t);
  if (rc != 0)
    return wgp_diag_set(diag, WGP_ERR_IO, "wgperf: error: %s: cannot write", file);
  return WGP_OK;
}
