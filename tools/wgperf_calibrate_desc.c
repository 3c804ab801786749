/* wgperf_calibrate_desc.c - fitted fields into a GPU description (calibrate.h).
 *
 * Works on the JSON text of the base description so that everything it does not
 * measure (limits, line sizes, notes) stays exactly as the base has it, sources
 * included; validity is the library's to judge (wgp_gpu_load_string), after every
 * single change, so one bad measurement costs one field, not the description.
 */
#define _POSIX_C_SOURCE 200809L
#include "calibrate.h"

#include <ctype.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool contains_ci(const char *hay, const char *needle) {
  size_t n = strlen(needle);
  for (const char *p = hay; *p; p++) {
    size_t i = 0;
    while (i < n && p[i] && tolower((unsigned char)p[i]) == tolower((unsigned char)needle[i]))
      i++;
    if (i == n)
      return true;
  }
  return false;
}

const char *calib_pick_base(const char *device_name, const char *cc, char *why, size_t whylen) {
  /* more specific fragments first */
  static const struct {
    const char *fragment, *name;
  } by_name[] = {
      {"H100 PCIe", "h100-pcie"}, {"H100", "h100-sxm"},         {"H200", "h200"},
      {"A100-SXM4-80GB", "a100-80gb"}, {"A100", "a100"},       {"V100", "v100"},             {"P100", "p100"},
      {"L40S", "l40s"},           {"RTX 4090", "rtx-4090"},     {"RTX 3090", "rtx-3090"},
      {"RTX 2080 Ti", "rtx-2080-ti"}, {"GTX 1080 Ti", "gtx-1080-ti"}, {"Tesla T4", "t4"},
      {"TITAN X", "titan-x"},     {"TITAN Black", "titan-black"},
      {"GTX 980", "gtx-980"},     {"GTX 970", "gtx-970"},       {"GTX 750", "gtx-750"},
      {"GTX 680", "gtx-680"},     {"GTX 645", "gtx-645"},       {"K5200", "quadro-k5200"},
      {"K620", "quadro-k620"},    {"K600", "quadro-k600"},      {"K40", "tesla-k40"},
      {"K20", "tesla-k20"},       {"940M", "geforce-940m"},     {"GTX TITAN", "titan"},
  };
  if (device_name)
    for (size_t i = 0; i < sizeof by_name / sizeof by_name[0]; i++)
      if (contains_ci(device_name, by_name[i].fragment)) {
        snprintf(why, whylen, "the device name contains \"%s\"", by_name[i].fragment);
        return by_name[i].name;
      }
  unsigned major = 0, minor = 0;
  if (cc && sscanf(cc, "%u.%u", &major, &minor) >= 1) {
    static const struct {
      unsigned major, minor; /* minor 99: any */
      const char *name;
    } by_cc[] = {{9, 99, "h100-sxm"}, {8, 9, "rtx-4090"}, {8, 6, "rtx-3090"}, {8, 99, "a100"},  {7, 5, "t4"},
                 {7, 99, "v100"},     {6, 0, "p100"},     {6, 99, "gtx-1080-ti"}, {5, 99, "gtx-980"}, {3, 99, "tesla-k40"}};
    for (size_t i = 0; i < sizeof by_cc / sizeof by_cc[0]; i++)
      if (by_cc[i].major == major && (by_cc[i].minor == 99 || by_cc[i].minor == minor)) {
        snprintf(why, whylen, "compute capability %u.%u", major, minor);
        return by_cc[i].name;
      }
  }
  snprintf(why, whylen, "no known GPU name or NVIDIA compute capability: the default description");
  return WGP_GPU_DEFAULT;
}

void calib_result_free(calib_result *r) {
  for (size_t i = 0; i < r->rejected; i++)
    free(r->rejected_why[i]);
  free(r->rejected_why);
  free(r->json);
  memset(r, 0, sizeof *r);
}

/* The object holding field KEY ("memory.l1_bytes" -> root.memory, "l1_bytes";
 * "ops.fp32_add.latency_cycles" -> root.ops.fp32_add, "latency_cycles"). */
static json_t *parent_of(json_t *root, const char *key, const char **leaf) {
  char buf[128];
  snprintf(buf, sizeof buf, "%s", key);
  json_t *obj = root;
  char *p = buf;
  for (;;) {
    char *dot = strchr(p, '.');
    if (!dot) {
      *leaf = key + (p - buf);
      return obj;
    }
    *dot = 0;
    obj = json_object_get(obj, p);
    if (!json_is_object(obj))
      return NULL;
    p = dot + 1;
  }
}

static bool valid(json_t *root, const char *name, wgp_diag *diag, char **text_out) {
  char *text = json_dumps(root, JSON_INDENT(2) | JSON_REAL_PRECISION(6));
  if (!text) {
    snprintf(diag->message, sizeof diag->message, "wgperf: error: %s: out of memory", name);
    return false;
  }
  wgp_gpu *g = NULL;
  wgp_status st = wgp_gpu_load_string(text, strlen(text), name, &g, diag);
  wgp_gpu_free(g);
  if (st != WGP_OK || !text_out) {
    free(text);
    if (text_out)
      *text_out = NULL;
    return st == WGP_OK;
  }
  *text_out = text;
  return true;
}

static int add_rejected(calib_result *r, const wgb_field *f, const char *why) {
  char **p = realloc(r->rejected_why, (r->rejected + 1) * sizeof *p);
  if (!p)
    return -1;
  r->rejected_why = p;
  char buf[1400];
  if (f->is_string)
    snprintf(buf, sizeof buf, "%s = \"%s\": %s", f->key, f->str, why);
  else
    snprintf(buf, sizeof buf, "%s = %.6g: %s", f->key, f->value, why);
  if (!(p[r->rejected] = strdup(buf)))
    return -1;
  r->rejected++;
  return 0;
}

/* The loader's reason in DIAG_MESSAGE without its prefix: "wgperf: error:
 * NAME: reason" -> "reason". */
static const char *loader_reason(const char *diag_message, const char *name) {
  const char *p = strstr(diag_message, name);
  return p && p[strlen(name)] == ':' ? p + strlen(name) + 2 : diag_message;
}

/* Optional fields a base may lack, applied as groups (also where the base
 * has none of them): the DRAM row geometry, five keys the loader takes all
 * or none of, the copy bandwidth, and the SM's L2 port. */
static bool row_key(const char *key) {
  static const char *const keys[] = {"memory.dram_devices", "memory.dram_banks_per_device", "memory.dram_row_bytes",
                                     "memory.dram_interleave_bytes", "memory.dram_activate_window_ns"};
  for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
    if (strcmp(key, keys[i]) == 0)
      return true;
  return false;
}

static bool copy_key(const char *key) { return strcmp(key, "memory.dram_copy_bandwidth_gbps") == 0; }
static bool port_key(const char *key) { return strcmp(key, "memory.l2_port_bytes_per_cycle") == 0; }

/* the groups, each applied as one */
static bool (*const optional_groups[])(const char *) = {row_key, copy_key, port_key};
#define NUM_OPTIONAL_GROUPS (sizeof optional_groups / sizeof *optional_groups)

static bool optional_key(const char *key) {
  for (size_t g = 0; g < NUM_OPTIONAL_GROUPS; g++)
    if (optional_groups[g](key))
      return true;
  return false;
}

static json_t *field_json(const wgb_field *f, bool integer) {
  json_t *nf = json_object();
  json_t *v = f->is_string ? json_string(f->str)
              : integer && fabs(f->value - nearbyint(f->value)) < 1e-9 ? json_integer((json_int_t)llround(f->value))
                                                                         : json_real(f->value);
  if (!v || !nf || json_object_set_new(nf, "value", v) || json_object_set_new(nf, "source", json_string(f->source)) ||
      (f->note[0] && json_object_set_new(nf, "note", json_string(f->note)))) {
    json_decref(nf);
    return NULL;
  }
  return nf;
}

/* Applies the fit's fields of the group IN to ROOT as one: all of them stay,
 * or none (each then rejected with the loader's reason).  -1 out of memory. */
static int apply_group(json_t *root, const wgb_fit *fit, bool (*in)(const char *), const char *name,
                       calib_result *r) {
  json_t *old[8] = {NULL};
  size_t idx[8], n = 0;
  for (size_t i = 0; i < fit->n && n < 8; i++)
    if (in(fit->fields[i].key))
      idx[n++] = i;
  if (!n)
    return 0;
  bool oom = false;
  for (size_t j = 0; j < n; j++) {
    const wgb_field *f = &fit->fields[idx[j]];
    const char *leaf = NULL;
    json_t *parent = parent_of(root, f->key, &leaf);
    /* the row geometry's counts stay integers; the rest are rates */
    bool integer = row_key(f->key) && strcmp(leaf, "dram_activate_window_ns") != 0;
    json_t *nf = parent ? field_json(f, integer) : NULL;
    if (!nf) {
      oom = parent != NULL;
      continue;
    }
    old[j] = json_incref(json_object_get(parent, leaf));
    json_object_set_new(parent, leaf, nf);
  }
  wgp_diag d;
  if (!oom && valid(root, name, &d, NULL)) {
    r->applied += n;
    for (size_t j = 0; j < n; j++)
      json_decref(old[j]);
    return 0;
  }
  for (size_t j = 0; j < n; j++) { /* back to the base's fields (or none) */
    const char *leaf = NULL;
    json_t *parent = parent_of(root, fit->fields[idx[j]].key, &leaf);
    if (parent && old[j])
      json_object_set_new(parent, leaf, old[j]);
    else if (parent)
      json_object_del(parent, leaf);
  }
  if (oom)
    return -1;
  for (size_t j = 0; j < n; j++)
    if (add_rejected(r, &fit->fields[idx[j]], loader_reason(d.message, name)))
      return -1;
  return 0;
}

wgp_status calib_apply(const char *base_file, const wgb_fit *fit, const char *description, const char *name,
                       calib_result *r, wgp_diag *diag) {
  memset(r, 0, sizeof *r);
  json_error_t jerr;
  json_t *root = json_load_file(base_file, JSON_REJECT_DUPLICATES, &jerr);
  if (!root)
    return wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: %s:%d: %s", base_file, jerr.line, jerr.text);
  for (size_t g = 0; g < NUM_OPTIONAL_GROUPS; g++)
    if (apply_group(root, fit, optional_groups[g], name, r)) {
      json_decref(root);
      return wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
    }
  for (size_t i = 0; i < fit->n; i++) {
    const wgb_field *f = &fit->fields[i];
    if (optional_key(f->key))
      continue;
    const char *leaf = NULL;
    json_t *parent = parent_of(root, f->key, &leaf);
    json_t *old = parent ? json_object_get(parent, leaf) : NULL;
    json_t *oldval = json_is_object(old) ? json_object_get(old, "value") : NULL;
    if (!oldval) {
      if (add_rejected(r, f, "the base description has no such field")) {
        json_decref(root);
        return wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
      }
      continue;
    }
    json_t *nf = field_json(f, json_is_integer(oldval)); /* counts stay integers */
    if (!nf) {
      json_decref(root);
      return wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
    }
    json_t *keep = json_incref(old);
    json_object_set_new(parent, leaf, nf);
    wgp_diag d;
    if (valid(root, name, &d, NULL)) {
      r->applied++;
      json_decref(keep);
      continue;
    }
    json_object_set_new(parent, leaf, keep); /* back to the base's field */
    if (add_rejected(r, f, loader_reason(d.message, name))) {
      json_decref(root);
      return wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
    }
  }
  if (description) { /* after format and version, where a reader looks first */
    json_t *ordered = json_object();
    const char *k;
    json_t *v;
    if (!ordered) {
      json_decref(root);
      return wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
    }
    json_object_set(ordered, "format", json_object_get(root, "format"));
    json_object_set(ordered, "version", json_object_get(root, "version"));
    json_object_set_new(ordered, "description", json_string(description));
    json_object_foreach(root, k, v) {
      if (strcmp(k, "format") != 0 && strcmp(k, "version") != 0 && strcmp(k, "description") != 0)
        json_object_set(ordered, k, v);
    }
    json_decref(root);
    root = ordered;
  }
  wgp_diag d;
  if (!valid(root, name, &d, &r->json)) {
    json_decref(root);
    calib_result_free(r);
    return wgp_diag_set(diag, WGP_ERR_INPUT, "%s", d.message);
  }
  /* fields of the base left as they were */
  size_t fields = 0;
  const char *sk;
  json_t *sv;
  json_object_foreach(root, sk, sv) {
    if (!json_is_object(sv))
      continue;
    const char *k2;
    json_t *v2;
    json_object_foreach(sv, k2, v2) {
      if (json_object_get(v2, "value"))
        fields++;
      else if (json_is_object(v2)) {
        const char *k3;
        json_t *v3;
        json_object_foreach(v2, k3, v3) fields += json_object_get(v3, "value") != NULL;
      }
    }
  }
  r->kept = fields - r->applied;
  json_decref(root);
  return WGP_OK;
}

static size_t count_measured(json_t *obj) {
  size_t n = 0;
  const char *k;
  json_t *v;
  json_object_foreach(obj, k, v) {
    if (!json_is_object(v))
      continue;
    json_t *src = json_object_get(v, "source");
    if (json_object_get(v, "value") && json_is_string(src))
      n += strncmp(json_string_value(src), "measured:", 9) == 0;
    else
      n += count_measured(v);
  }
  return n;
}

size_t calib_count_measured(const char *file) {
  json_error_t e;
  json_t *root = json_load_file(file, 0, &e);
  if (!root)
    return 0;
  size_t n = count_measured(root);
  json_decref(root);
  return n;
}
