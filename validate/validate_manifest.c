/* validate_manifest.c - the manifest of wgperf-validate (validate_manifest.h).
 * Every expression is checked when the manifest is loaded (syntax and
 * names), so a row can only fail on values (division by zero, overflow). */
#define _DEFAULT_SOURCE
#include "validate_manifest.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MANIFEST_FORMAT "wgperf-validate-manifest"
#define MANIFEST_VERSION 1

typedef struct kv {
  char *key, *expr;
} kv;

typedef struct vm_loop {
  char *var, *from, *cond, *next;
} vm_loop;

typedef struct vm_hint {
  char *sel, *expr;
  double fraction;
} vm_hint;

struct vm_kernel {
  char *name, *function, *source, *opencl, *size;
  kv *macros, *args, *buffers, *local_mem;
  size_t nmacros, nargs, nbuffers, nlocal;
  vm_loop *loops;
  size_t nloops;
  /* [0]: the hints of "trip" and "taken"; [1]: those of "opencl_trip" and
   * "opencl_taken", for the OpenCL twin (its lines and blocks differ) */
  vm_hint *trip[2], *taken[2];
  size_t ntrip[2], ntaken[2];
  bool has_cl_hints;
};

struct vm_manifest {
  char *file;
  vm_kernel *k;
  size_t n;
};

typedef struct loader {
  const char *file;
  const char *kernel;
  wgp_diag *diag;
  wgp_status st;
} loader;

static bool fail(loader *ld, const char *fmt, ...) {
  if (ld->st != WGP_OK)
    return false;
  ld->st = WGP_ERR_INPUT;
  if (ld->diag) {
    char *out = ld->diag->message;
    size_t size = sizeof ld->diag->message;
    int n = ld->kernel ? snprintf(out, size, "wgperf: error: %s: kernel '%s': ", ld->file, ld->kernel)
                       : snprintf(out, size, "wgperf: error: %s: ", ld->file);
    if (n >= 0 && (size_t)n < size) {
      va_list ap;
      va_start(ap, fmt);
      vsnprintf(out + n, size - (size_t)n, fmt, ap);
      va_end(ap);
    }
  }
  return false;
}

static bool nomem(loader *ld) {
  if (ld->st == WGP_OK) {
    ld->st = WGP_ERR_NOMEM;
    if (ld->diag)
      snprintf(ld->diag->message, sizeof ld->diag->message, "wgperf: error: %s: out of memory", ld->file);
  }
  return false;
}

/* An expression member: a string or an integer, as text. */
static char *expr_text(loader *ld, json_t *v, const char *what) {
  char buf[32];
  const char *s;
  if (json_is_string(v))
    s = json_string_value(v);
  else if (json_is_integer(v)) {
    snprintf(buf, sizeof buf, "%lld", (long long)json_integer_value(v));
    s = buf;
  } else
    return fail(ld, "'%s' must be an expression (a string) or an integer", what), NULL;
  char *r = strdup(s);
  if (!r)
    nomem(ld);
  return r;
}

static bool check_expr(loader *ld, const char *text, const char *what, const char *const *names, size_t n) {
  char err[160];
  if (!vx_check(text, names, n, err, sizeof err))
    return fail(ld, "'%s': %s in \"%s\"", what, err, text);
  return true;
}

/* Names every expression may use, then the loop variables up to NLOOPS. */
static size_t names_of(const vm_kernel *k, size_t nloops, const char **names) {
  static const char *const base[] = {"input_size", "block_x", "block_y", "block_z", "grid_x", "grid_y", "grid_z"};
  size_t n = 0;
  for (size_t i = 0; i < sizeof base / sizeof base[0]; i++)
    names[n++] = base[i];
  if (k->size)
    names[n++] = k->size;
  for (size_t i = 0; i < nloops && i < k->nloops; i++)
    names[n++] = k->loops[i].var;
  return n;
}

static bool read_map(loader *ld, json_t *obj, const char *section, kv **out, size_t *n, const char *const *names,
                     size_t nnames) {
  *out = NULL;
  *n = 0;
  if (!obj)
    return true;
  if (!json_is_object(obj))
    return fail(ld, "'%s' must be an object of NAME: expression", section);
  *out = calloc(json_object_size(obj) + 1, sizeof **out);
  if (!*out)
    return nomem(ld);
  const char *key;
  json_t *v;
  json_object_foreach(obj, key, v) {
    char what[160];
    snprintf(what, sizeof what, "%s.%s", section, key);
    kv *e = &(*out)[(*n)++];
    if (!(e->key = strdup(key)))
      return nomem(ld);
    if (!(e->expr = expr_text(ld, v, what)) || !check_expr(ld, e->expr, what, names, nnames))
      return false;
  }
  return true;
}

static bool valid_selector(const char *s) {
  if ((s[0] == 'L' || s[0] == 'B') && s[1]) {
    for (const char *p = s + 1; *p; p++)
      if (*p < '0' || *p > '9')
        return false;
    return true;
  }
  if (strncmp(s, "line:", 5) == 0 && s[5]) {
    for (const char *p = s + 5; *p; p++)
      if (*p < '0' || *p > '9')
        return false;
    return true;
  }
  return false;
}

/* Reads the hints TNAME (loop trip counts) and BNAME (branch fractions) of OBJ into
 * set W of K. */
static bool read_hints(loader *ld, vm_kernel *k, json_t *obj, int w, const char *tname, const char *bname,
                       const char *const *names, size_t nall) {
  const char *key;
  json_t *v;
  kv *trip;
  size_t ntrip;
  if (!read_map(ld, json_object_get(obj, tname), tname, &trip, &ntrip, names, nall))
    return false;
  k->trip[w] = calloc(ntrip + 1, sizeof *k->trip[w]);
  if (!k->trip[w]) {
    free(trip);
    return nomem(ld);
  }
  for (size_t i = 0; i < ntrip; i++) {
    k->trip[w][i].sel = trip[i].key;
    k->trip[w][i].expr = trip[i].expr;
    k->ntrip[w] = i + 1;
    if (!valid_selector(trip[i].key) || trip[i].key[0] == 'B') {
      for (size_t j = i + 1; j < ntrip; j++)
        free(trip[j].key), free(trip[j].expr);
      free(trip);
      return fail(ld, "%s: '%s' is not a loop: expected L<n> or line:<n>", tname, k->trip[w][i].sel);
    }
  }
  free(trip);
  json_t *taken = json_object_get(obj, bname);
  if (taken) {
    if (!json_is_object(taken))
      return fail(ld, "'%s' must be an object of B<n> or line:<n>: fraction", bname);
    k->taken[w] = calloc(json_object_size(taken) + 1, sizeof *k->taken[w]);
    if (!k->taken[w])
      return nomem(ld);
    json_object_foreach(taken, key, v) {
      vm_hint *h = &k->taken[w][k->ntaken[w]++];
      if (!(h->sel = strdup(key)))
        return nomem(ld);
      if (!valid_selector(key) || key[0] == 'L')
        return fail(ld, "%s: '%s' is not a branch: expected B<n> or line:<n>", bname, key);
      if (!json_is_number(v) || json_number_value(v) < 0 || json_number_value(v) > 1)
        return fail(ld, "%s.%s must be a fraction between 0 and 1", bname, key);
      h->fraction = json_number_value(v);
    }
  }
  return true;
}

static bool read_kernel(loader *ld, vm_kernel *k, const char *name, json_t *obj, const char *dir) {
  ld->kernel = name;
  if (!(k->name = strdup(name)))
    return nomem(ld);
  if (!json_is_object(obj))
    return fail(ld, "must be an object");
  static const char *const known[] = {"source", "opencl", "function", "size",   "macros", "args",
                                      "buffers", "local_mem", "launches", "trip", "taken",  "opencl_trip",
                                      "opencl_taken", "note"};
  const char *key;
  json_t *v;
  json_object_foreach(obj, key, v) {
    bool ok = false;
    for (size_t i = 0; i < sizeof known / sizeof known[0] && !ok; i++)
      ok = strcmp(key, known[i]) == 0;
    if (!ok)
      return fail(ld, "unknown member '%s' (expected source, opencl, function, size, macros, args, buffers, "
                      "local_mem, launches, trip, taken, note)",
                  key);
  }
  static const char *const strings[] = {"source", "opencl", "function", "size", "note"};
  for (size_t i = 0; i < sizeof strings / sizeof strings[0]; i++) {
    json_t *s = json_object_get(obj, strings[i]);
    if (s && (!json_is_string(s) || json_string_length(s) == 0))
      return fail(ld, "'%s' must be a non-empty string", strings[i]);
  }
  json_t *src = json_object_get(obj, "source");
  if (!src)
    return fail(ld, "has no 'source' (the kernel file to compile)");
  for (int twin = 0; twin < 2; twin++) {
    json_t *s = json_object_get(obj, twin ? "opencl" : "source");
    if (!s)
      continue;
    const char *p = json_string_value(s);
    size_t len = strlen(dir) + strlen(p) + 2;
    char *path = malloc(len);
    if (!path)
      return nomem(ld);
    if (p[0] == '/' || !dir[0])
      snprintf(path, len, "%s", p);
    else
      snprintf(path, len, "%s/%s", dir, p);
    *(twin ? &k->opencl : &k->source) = path;
  }
  json_t *fn = json_object_get(obj, "function");
  if (!(k->function = strdup(fn ? json_string_value(fn) : name)))
    return nomem(ld);
  json_t *size = json_object_get(obj, "size");
  if (size) {
    const char *s = json_string_value(size);
    for (const char *p = s; *p; p++)
      if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p == '_' || (p > s && *p >= '0' && *p <= '9')))
        return fail(ld, "'size' must be a name, got '%s'", s);
    if (!(k->size = strdup(s)))
      return nomem(ld);
  }
  const char *names[VM_MAX_VARS + 16];
  size_t nbase = names_of(k, 0, names);
  json_t *loops = json_object_get(obj, "launches");
  if (loops) {
    if (!json_is_array(loops) || json_array_size(loops) == 0 || json_array_size(loops) > VM_MAX_VARS)
      return fail(ld, "'launches' must be an array of 1 to %d loops {\"var\", \"from\", \"while\", \"next\"}",
                  VM_MAX_VARS);
    k->loops = calloc(json_array_size(loops), sizeof *k->loops);
    if (!k->loops)
      return nomem(ld);
    for (size_t i = 0; i < json_array_size(loops); i++) {
      json_t *l = json_array_get(loops, i);
      vm_loop *lp = &k->loops[i];
      k->nloops = i + 1;
      if (!json_is_object(l) || json_object_size(l) != 4 || !json_is_string(json_object_get(l, "var")))
        return fail(ld, "launches[%zu] must be {\"var\": NAME, \"from\": EXPR, \"while\": EXPR, \"next\": EXPR}", i);
      if (!(lp->var = strdup(json_string_value(json_object_get(l, "var")))))
        return nomem(ld);
      for (size_t j = 0; j < nbase + i; j++)
        if (strcmp(names[j], lp->var) == 0)
          return fail(ld, "launches[%zu]: variable '%s' is already a name", i, lp->var);
      const char *members[] = {"from", "while", "next"};
      char **dst[] = {&lp->from, &lp->cond, &lp->next};
      for (int m = 0; m < 3; m++) {
        json_t *e = json_object_get(l, members[m]);
        char what[64];
        snprintf(what, sizeof what, "launches[%zu].%s", i, members[m]);
        if (!e)
          return fail(ld, "'%s' is missing", what);
        /* from: the earlier loops' variables; while and next: this one's too */
        size_t nn = names_of(k, m == 0 ? i : i + 1, names);
        if (!(*dst[m] = expr_text(ld, e, what)) || !check_expr(ld, *dst[m], what, names, nn))
          return false;
      }
    }
  }
  size_t nall = names_of(k, k->nloops, names);
  if (!read_map(ld, json_object_get(obj, "macros"), "macros", &k->macros, &k->nmacros, names, nbase) ||
      !read_map(ld, json_object_get(obj, "args"), "args", &k->args, &k->nargs, names, nall) ||
      !read_map(ld, json_object_get(obj, "buffers"), "buffers", &k->buffers, &k->nbuffers, names, nall) ||
      !read_map(ld, json_object_get(obj, "local_mem"), "local_mem", &k->local_mem, &k->nlocal, names, nall))
    return false;
  for (size_t i = 0; i < k->nmacros; i++) {
    const char *s = k->macros[i].key;
    for (const char *p = s; *p; p++)
      if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p == '_' || (p > s && *p >= '0' && *p <= '9')))
        return fail(ld, "macro name '%s' is not an identifier", s);
  }
  k->has_cl_hints = json_object_get(obj, "opencl_trip") || json_object_get(obj, "opencl_taken");
  if (!read_hints(ld, k, obj, 0, "trip", "taken", names, nall) ||
      !read_hints(ld, k, obj, 1, "opencl_trip", "opencl_taken", names, nall))
    return false;
  ld->kernel = NULL;
  return true;
}

static void free_map(kv *m, size_t n) {
  for (size_t i = 0; i < n; i++) {
    free(m[i].key);
    free(m[i].expr);
  }
  free(m);
}

void vm_free(vm_manifest *m) {
  if (!m)
    return;
  for (size_t i = 0; i < m->n; i++) {
    vm_kernel *k = &m->k[i];
    free(k->name);
    free(k->function);
    free(k->source);
    free(k->opencl);
    free(k->size);
    free_map(k->macros, k->nmacros);
    free_map(k->args, k->nargs);
    free_map(k->buffers, k->nbuffers);
    free_map(k->local_mem, k->nlocal);
    for (size_t j = 0; j < k->nloops; j++) {
      free(k->loops[j].var);
      free(k->loops[j].from);
      free(k->loops[j].cond);
      free(k->loops[j].next);
    }
    free(k->loops);
    for (int w = 0; w < 2; w++) {
      for (size_t j = 0; j < k->ntrip[w]; j++) {
        free(k->trip[w][j].sel);
        free(k->trip[w][j].expr);
      }
      free(k->trip[w]);
      for (size_t j = 0; j < k->ntaken[w]; j++)
        free(k->taken[w][j].sel);
      free(k->taken[w]);
    }
  }
  free(m->k);
  free(m->file);
  free(m);
}

wgp_status vm_load_string(const char *text, const char *name, const char *dir, vm_manifest **out, wgp_diag *diag) {
  *out = NULL;
  loader ld = {name, NULL, diag, WGP_OK};
  json_error_t err;
  json_t *root = json_loads(text, JSON_REJECT_DUPLICATES, &err);
  if (!root)
    return wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: %s:%d: %s", name, err.line, err.text);
  vm_manifest *m = calloc(1, sizeof *m);
  if (!m || !(m->file = strdup(name))) {
    json_decref(root);
    free(m);
    return wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: %s: out of memory", name);
  }
  json_t *fmt = json_object_get(root, "format"), *ver = json_object_get(root, "version");
  json_t *kernels = json_object_get(root, "kernels");
  if (!json_is_object(root) || !json_is_string(fmt) || strcmp(json_string_value(fmt), MANIFEST_FORMAT) != 0)
    fail(&ld, "not a validation manifest ('format' must be \"" MANIFEST_FORMAT "\")");
  else if (!json_is_integer(ver) || json_integer_value(ver) != MANIFEST_VERSION)
    fail(&ld, "manifest version must be %d", MANIFEST_VERSION);
  else if (!json_is_object(kernels) || json_object_size(kernels) == 0)
    fail(&ld, "'kernels' must be an object with one member per kernel name");
  else {
    const char *key;
    json_t *v;
    json_object_foreach(root, key, v) {
      if (strcmp(key, "format") && strcmp(key, "version") && strcmp(key, "kernels") && strcmp(key, "description")) {
        fail(&ld, "unknown member '%s' (expected format, version, description, kernels)", key);
        break;
      }
    }
    if (ld.st == WGP_OK && !(m->k = calloc(json_object_size(kernels), sizeof *m->k)))
      nomem(&ld);
    json_object_foreach(kernels, key, v) {
      if (ld.st != WGP_OK)
        break;
      m->n++;
      read_kernel(&ld, &m->k[m->n - 1], key, v, dir);
    }
  }
  json_decref(root);
  if (ld.st != WGP_OK) {
    vm_free(m);
    return ld.st;
  }
  *out = m;
  return WGP_OK;
}

wgp_status vm_load_file(const char *file, vm_manifest **out, wgp_diag *diag) {
  char *text;
  size_t len;
  *out = NULL;
  wgp_status st = wgp_read_file(file, &text, &len, diag);
  if (st != WGP_OK)
    return st;
  char *dir = strdup(file);
  if (!dir) {
    free(text);
    return wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: %s: out of memory", file);
  }
  char *slash = strrchr(dir, '/');
  if (slash)
    *slash = '\0';
  else
    dir[0] = '\0';
  st = vm_load_string(text, file, dir, out, diag);
  free(dir);
  free(text);
  return st;
}

const char *vm_file(const vm_manifest *m) { return m->file; }
size_t vm_num_kernels(const vm_manifest *m) { return m->n; }
const vm_kernel *vm_kernel_at(const vm_manifest *m, size_t i) { return i < m->n ? &m->k[i] : NULL; }
const vm_kernel *vm_find(const vm_manifest *m, const char *name) {
  for (size_t i = 0; i < m->n; i++)
    if (strcmp(m->k[i].name, name) == 0)
      return &m->k[i];
  return NULL;
}
const char *vm_kernel_name(const vm_kernel *k) { return k->name; }
const char *vm_kernel_function(const vm_kernel *k) { return k->function; }
const char *vm_kernel_source(const vm_kernel *k, bool opencl) { return opencl ? k->opencl : k->source; }

/* The row's bindings, then the launch's. */
static size_t bind(const vm_kernel *k, const vm_row *row, const vm_launch *l, vx_var *v) {
  static const char *const dims[] = {"block_x", "block_y", "block_z", "grid_x", "grid_y", "grid_z"};
  size_t n = 0;
  v[n++] = (vx_var){"input_size", row->input_size};
  if (k->size)
    v[n++] = (vx_var){k->size, row->input_size};
  for (int d = 0; d < 3; d++) {
    v[n++] = (vx_var){dims[d], row->block[d]};
    v[n++] = (vx_var){dims[3 + d], row->grid[d]};
  }
  for (size_t i = 0; l && i < l->nvars; i++)
    v[n++] = l->vars[i];
  return n;
}

static bool eval_named(const char *what, const char *key, const char *text, const vx_var *v, size_t n, int64_t *out,
                       char *err, size_t errsize) {
  char e[160];
  if (vx_eval(text, v, n, out, e, sizeof e))
    return true;
  snprintf(err, errsize, "%s.%s = \"%s\": %s", what, key, text, e);
  return false;
}

int vm_macros(const vm_kernel *k, const vm_row *row, char (*flags)[64], int max, char *err, size_t errsize) {
  vx_var v[2 * VM_MAX_VARS];
  size_t n = bind(k, row, NULL, v);
  int count = 0;
  for (size_t i = 0; i < k->nmacros; i++) {
    int64_t x;
    if (!eval_named("macros", k->macros[i].key, k->macros[i].expr, v, n, &x, err, errsize))
      return -1;
    if (count == max) {
      snprintf(err, errsize, "more than %d macros", max);
      return -1;
    }
    snprintf(flags[count++], 64, "%s=%lld", k->macros[i].key, (long long)x);
  }
  return count;
}

static int expand(const vm_kernel *k, const vm_row *row, size_t depth, vm_launch *cur, vm_launch *out, int *count,
                  int max, char *err, size_t errsize) {
  if (depth == k->nloops) {
    if (*count == max) {
      snprintf(err, errsize, "more than %d launches per run", max);
      return -1;
    }
    out[(*count)++] = *cur;
    return 0;
  }
  const vm_loop *lp = &k->loops[depth];
  vx_var v[2 * VM_MAX_VARS];
  size_t n = bind(k, row, cur, v);
  int64_t x;
  if (!eval_named("launches", lp->var, lp->from, v, n, &x, err, errsize))
    return -1;
  cur->vars[cur->nvars++] = (vx_var){lp->var, x};
  for (long guard = 0;; guard++) {
    n = bind(k, row, cur, v);
    int64_t go;
    if (!eval_named("launches", lp->var, lp->cond, v, n, &go, err, errsize))
      return -1;
    if (!go)
      break;
    if (guard >= max) {
      snprintf(err, errsize, "launches: loop over '%s' runs more than %d times", lp->var, max);
      return -1;
    }
    if (expand(k, row, depth + 1, cur, out, count, max, err, errsize) != 0)
      return -1;
    cur->nvars = depth + 1;
    n = bind(k, row, cur, v);
    if (!eval_named("launches", lp->var, lp->next, v, n, &x, err, errsize))
      return -1;
    cur->vars[depth].value = x;
  }
  cur->nvars = depth;
  return 0;
}

int vm_launches(const vm_kernel *k, const vm_row *row, vm_launch *out, int max, char *err, size_t errsize) {
  vm_launch cur = {.nvars = 0};
  int count = 0;
  if (k->nloops == 0) {
    if (max < 1) {
      snprintf(err, errsize, "no room for a launch");
      return -1;
    }
    out[0] = cur;
    return 1;
  }
  if (expand(k, row, 0, &cur, out, &count, max, err, errsize) != 0)
    return -1;
  if (count == 0) {
    snprintf(err, errsize, "launches: the loops give no launch for this row");
    return -1;
  }
  return count;
}

int vm_launch_options(const vm_kernel *k, const vm_row *row, const vm_launch *l, char (*opt)[2][96], int max,
                      char *err, size_t errsize) {
  vx_var v[2 * VM_MAX_VARS];
  size_t n = bind(k, row, l, v);
  int count = 0;
  const struct {
    const char *what, *option;
    const kv *m;
    size_t n;
  } maps[] = {{"args", "--arg", k->args, k->nargs},
              {"buffers", "--buffer", k->buffers, k->nbuffers},
              {"local_mem", "--local-mem", k->local_mem, k->nlocal}};
  for (size_t s = 0; s < 3; s++)
    for (size_t i = 0; i < maps[s].n; i++) {
      int64_t x;
      if (!eval_named(maps[s].what, maps[s].m[i].key, maps[s].m[i].expr, v, n, &x, err, errsize))
        return -1;
      if (s > 0 && x < 0) {
        snprintf(err, errsize, "%s.%s = \"%s\" is negative (%lld)", maps[s].what, maps[s].m[i].key,
                 maps[s].m[i].expr, (long long)x);
        return -1;
      }
      if (count == max) {
        snprintf(err, errsize, "more than %d launch options", max);
        return -1;
      }
      snprintf(opt[count][0], 96, "%s", maps[s].option);
      snprintf(opt[count][1], 96, "%s=%lld", maps[s].m[i].key, (long long)x);
      count++;
    }
  return count;
}

/* the hint set for the kernel's CUDA source or its OpenCL twin */
static int hint_set(const vm_kernel *k, bool opencl) { return opencl && k->has_cl_hints; }

size_t vm_num_trip_hints(const vm_kernel *k, bool opencl) { return k->ntrip[hint_set(k, opencl)]; }

const char *vm_trip_hint(const vm_kernel *k, bool opencl, size_t i, const vm_row *row, const vm_launch *l,
                         int64_t *count, char *err, size_t errsize) {
  int w = hint_set(k, opencl);
  if (i >= k->ntrip[w])
    return NULL;
  vx_var v[2 * VM_MAX_VARS];
  size_t n = bind(k, row, l, v);
  const char *section = w ? "opencl_trip" : "trip";
  if (!eval_named(section, k->trip[w][i].sel, k->trip[w][i].expr, v, n, count, err, errsize))
    return NULL;
  if (*count < 0) {
    snprintf(err, errsize, "%s.%s = \"%s\" is negative (%lld)", section, k->trip[w][i].sel, k->trip[w][i].expr,
             (long long)*count);
    return NULL;
  }
  return k->trip[w][i].sel;
}

size_t vm_num_taken_hints(const vm_kernel *k, bool opencl) { return k->ntaken[hint_set(k, opencl)]; }
const char *vm_taken_hint(const vm_kernel *k, bool opencl, size_t i, double *fraction) {
  int w = hint_set(k, opencl);
  if (i >= k->ntaken[w])
    return NULL;
  *fraction = k->taken[w][i].fraction;
  return k->taken[w][i].sel;
}
