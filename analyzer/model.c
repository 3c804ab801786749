/* model.c - load and validate a kernel model (docs/kernel-model.md).
 *
 * The whole contract is checked here, once, so the analyzer can trust the
 * model afterwards: required keys and their types, enumerated values, every
 * id in range, cross references consistent (a block's accesses name that
 * block, back edges are successors, a block's loop contains it), the loop
 * nest a forest, and every expression parsed.  Keys this version does not
 * know are ignored, so a producer may add fields without a version bump.
 * Everything a model holds lives in one arena, freed with the model.
 */
#include "wgperf/model.h"
#include "wgperf/gpu.h"

#include "arena_internal.h"
#include "expr_internal.h"
#include "model_internal.h"

#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The most instructions a kernel's blocks may count together (the sum of
 * every block's counts): real kernels have thousands to tens of thousands. */
#define WGP_MODEL_MAX_INSNS (UINT64_C(1) << 20)

/* ------------------------------------------------------------------------ */
/* Enumerations                                                             */
/* ------------------------------------------------------------------------ */

static const char *const space_names[] = {"global", "local", "constant", "private", "generic"};
static const char *const language_names[] = {"opencl", "cuda"};
static const char *const arg_kind_names[] = {"pointer", "scalar"};
static const char *const branch_kind_names[] = {"cond", "switch"};
static const char *const branch_class_names[] = {"uniform", "work-item", "loop-variable", "data-dependent"};
static const char *const depends_names[] = {"work-item", "loop-variable", "data"};
static const char *const trip_kind_names[] = {"exact", "data-dependent", "recurrence", "max", "unknown"};
static const char *const access_kind_names[] = {"load", "store", "atomic"};
static const char *const base_kind_names[] = {"arg", "array", "private", "indirect", "unknown", "select"};
static const char *const elem_from_names[] = {"type", "accesses", "unknown"};

#define WGP_COUNT(a) (sizeof(a) / sizeof((a)[0]))

bool wgp_space_is_global(wgp_space s) { return s == WGP_SPACE_GLOBAL || s == WGP_SPACE_GENERIC; }

const char *wgp_space_name(wgp_space s) { return (size_t)s < WGP_COUNT(space_names) ? space_names[s] : "?"; }
const char *wgp_language_name(wgp_language l) {
  return (size_t)l < WGP_COUNT(language_names) ? language_names[l] : "?";
}
const char *wgp_branch_class_name(wgp_branch_class c) {
  return (size_t)c < WGP_COUNT(branch_class_names) ? branch_class_names[c] : "?";
}
const char *wgp_trip_kind_name(wgp_trip_kind t) {
  return (size_t)t < WGP_COUNT(trip_kind_names) ? trip_kind_names[t] : "?";
}
const char *wgp_access_kind_name(wgp_access_kind k) {
  return (size_t)k < WGP_COUNT(access_kind_names) ? access_kind_names[k] : "?";
}
const char *wgp_base_kind_name(wgp_base_kind k) {
  return (size_t)k < WGP_COUNT(base_kind_names) ? base_kind_names[k] : "?";
}

/* Fixed cost classes: the GPU description's instruction classes
 * (wgp_op_class, gpu.h) and these, which the pipeline prices itself;
 * ld.<space>.<bits>, st.<space>.<bits> and atom.<space> are checked by
 * pattern. */
static const char *const pipeline_classes[] = {"barrier", "fence", "branch",     "call",
                                               "other",   "sreg",  "reconverge", "shfl"};

static bool is_space_name(const char *s, size_t n) {
  for (size_t i = 0; i < WGP_COUNT(space_names); i++)
    if (strlen(space_names[i]) == n && memcmp(space_names[i], s, n) == 0)
      return true;
  return false;
}

static bool valid_cost_class(const char *c) {
  wgp_op_class op;
  if (wgp_op_class_from_name(c, &op))
    return true;
  for (size_t i = 0; i < WGP_COUNT(pipeline_classes); i++)
    if (strcmp(c, pipeline_classes[i]) == 0)
      return true;
  if (strncmp(c, "atom.", 5) == 0)
    return is_space_name(c + 5, strlen(c + 5));
  if (strncmp(c, "ld.", 3) == 0 || strncmp(c, "st.", 3) == 0) {
    const char *sp = c + 3;
    const char *dot = strchr(sp, '.');
    if (!dot || !is_space_name(sp, (size_t)(dot - sp)) || dot[1] == '\0' || dot[1] == '0')
      return false;
    for (const char *d = dot + 1; *d; d++)
      if (*d < '0' || *d > '9')
        return false;
    return strlen(dot + 1) <= 6;
  }
  return false;
}

/* ------------------------------------------------------------------------ */
/* Loader                                                                   */
/* ------------------------------------------------------------------------ */

typedef struct loader {
  wgp_arena *a;
  const char *file;
  wgp_diag *diag;
  char kernel[160]; /* "kernel 'vadd': " or "" */
  char item[96];    /* "block 3: " or "" */
  wgp_status status;
} loader;

static bool fail(loader *ld, const char *fmt, ...) {
  if (ld->status != WGP_OK)
    return false;
  ld->status = WGP_ERR_INPUT;
  if (ld->diag) {
    char *out = ld->diag->message;
    size_t size = sizeof ld->diag->message;
    int n = snprintf(out, size, "wgperf: error: %s: %s%s", ld->file, ld->kernel, ld->item);
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
  if (ld->status == WGP_OK) {
    ld->status = WGP_ERR_NOMEM;
    if (ld->diag)
      snprintf(ld->diag->message, sizeof ld->diag->message, "wgperf: error: %s: out of memory", ld->file);
  }
  return false;
}

static void *alloc_n(loader *ld, size_t n, size_t size) {
  if (n == 0)
    n = 1;
  if (n > SIZE_MAX / 4 / size) {
    nomem(ld);
    return NULL;
  }
  void *p = wgp_arena_alloc(ld->a, n * size);
  if (!p)
    nomem(ld);
  return p;
}

static const char *type_name(const json_t *j) {
  switch (json_typeof(j)) {
  case JSON_OBJECT: return "an object";
  case JSON_ARRAY: return "an array";
  case JSON_STRING: return "a string";
  case JSON_INTEGER: return "an integer";
  case JSON_REAL: return "a real number";
  case JSON_TRUE:
  case JSON_FALSE:
    return "a boolean";
  case JSON_NULL: return "null";
  }
  return "?";
}

/* The member KEY of OBJ with JSON type TYPE (or null when NULLABLE).
 * Returns NULL with *ok false on failure, NULL with *ok true for null. */
static json_t *member(loader *ld, json_t *obj, const char *key, json_type type, const char *what, bool nullable,
                      bool *ok) {
  json_t *v = json_object_get(obj, key);
  *ok = false;
  if (!v)
    return fail(ld, "missing key '%s'", key), NULL;
  if (nullable && json_is_null(v)) {
    *ok = true;
    return NULL;
  }
  bool good = json_typeof(v) == type || (type == JSON_TRUE && json_is_boolean(v));
  if (!good)
    return fail(ld, "'%s' must be %s%s, got %s", key, what, nullable ? " or null" : "", type_name(v)), NULL;
  *ok = true;
  return v;
}

static bool get_string(loader *ld, json_t *obj, const char *key, bool nullable, const char **out) {
  bool ok;
  json_t *v = member(ld, obj, key, JSON_STRING, "a string", nullable, &ok);
  if (!ok)
    return false;
  *out = NULL;
  if (!v)
    return true;
  *out = wgp_arena_strndup(ld->a, json_string_value(v), json_string_length(v));
  return *out ? true : nomem(ld);
}

static bool get_bool(loader *ld, json_t *obj, const char *key, bool *out) {
  bool ok;
  json_t *v = member(ld, obj, key, JSON_TRUE, "a boolean", false, &ok);
  if (ok)
    *out = json_is_true(v);
  return ok;
}

/* An integer in [0, limit], or -1 for null when nullable. */
static bool get_uint(loader *ld, json_t *obj, const char *key, bool nullable, uint64_t limit, int64_t *out) {
  bool ok;
  json_t *v = member(ld, obj, key, JSON_INTEGER, "an integer", nullable, &ok);
  if (!ok)
    return false;
  if (!v) {
    *out = -1;
    return true;
  }
  json_int_t x = json_integer_value(v);
  if (x < 0 || (uint64_t)x > limit)
    return fail(ld, "'%s' is %lld, expected 0 to %llu", key, (long long)x, (unsigned long long)limit);
  *out = (int64_t)x;
  return true;
}

static bool get_enum(loader *ld, json_t *obj, const char *key, const char *const *names, size_t n, int *out) {
  const char *s;
  if (!get_string(ld, obj, key, false, &s))
    return false;
  for (size_t i = 0; i < n; i++)
    if (strcmp(s, names[i]) == 0) {
      *out = (int)i;
      return true;
    }
  char allowed[256] = "";
  for (size_t i = 0; i < n; i++) {
    size_t len = strlen(allowed);
    snprintf(allowed + len, sizeof allowed - len, "%s'%s'", i ? ", " : "", names[i]);
  }
  return fail(ld, "'%s' is '%s', expected one of %s", key, s, allowed);
}

static json_t *get_array(loader *ld, json_t *obj, const char *key, bool *ok) {
  return member(ld, obj, key, JSON_ARRAY, "an array", false, ok);
}

/* An array of ids, each below LIMIT; WHAT names them in messages ("block"). */
static bool get_ids(loader *ld, json_t *obj, const char *key, size_t limit, const char *what, size_t **out,
                    size_t *n) {
  const char *plural = strcmp(what, "access") == 0 ? "accesses" : "blocks";
  bool ok;
  json_t *arr = get_array(ld, obj, key, &ok);
  if (!ok)
    return false;
  *n = json_array_size(arr);
  *out = alloc_n(ld, *n, sizeof **out);
  if (!*out)
    return false;
  for (size_t i = 0; i < *n; i++) {
    json_t *v = json_array_get(arr, i);
    if (!json_is_integer(v))
      return fail(ld, "'%s'[%zu] must be an integer, got %s", key, i, type_name(v));
    json_int_t x = json_integer_value(v);
    if (x < 0 || (uint64_t)x >= limit)
      return fail(ld, "%s %lld in '%s' out of range (%zu %s)", what, (long long)x, key, limit, plural);
    (*out)[i] = (size_t)x;
  }
  return true;
}

static bool get_strings(loader *ld, json_t *obj, const char *key, const char ***out, size_t *n) {
  bool ok;
  json_t *arr = get_array(ld, obj, key, &ok);
  if (!ok)
    return false;
  *n = json_array_size(arr);
  *out = alloc_n(ld, *n, sizeof **out);
  if (!*out)
    return false;
  for (size_t i = 0; i < *n; i++) {
    json_t *v = json_array_get(arr, i);
    if (!json_is_string(v))
      return fail(ld, "'%s'[%zu] must be a string, got %s", key, i, type_name(v));
    (*out)[i] = wgp_arena_strndup(ld->a, json_string_value(v), json_string_length(v));
    if (!(*out)[i])
      return nomem(ld);
  }
  return true;
}

static bool get_counts(loader *ld, json_t *obj, const char *key, count_entry **out, size_t *n) {
  bool ok;
  json_t *o = member(ld, obj, key, JSON_OBJECT, "an object", false, &ok);
  if (!ok)
    return false;
  *n = json_object_size(o);
  *out = alloc_n(ld, *n, sizeof **out);
  if (!*out)
    return false;
  size_t i = 0;
  const char *k;
  json_t *v;
  json_object_foreach(o, k, v) {
    if (!valid_cost_class(k))
      return fail(ld, "'%s': unknown cost class '%s'", key, k);
    if (!json_is_integer(v) || json_integer_value(v) < 0)
      return fail(ld, "'%s': count of '%s' must be a non-negative integer", key, k);
    (*out)[i].cls = wgp_arena_strdup(ld->a, k);
    if (!(*out)[i].cls)
      return nomem(ld);
    (*out)[i].n = (uint64_t)json_integer_value(v);
    i++;
  }
  return true;
}

static bool get_expr(loader *ld, json_t *obj, const char *key, bool nullable, const wgp_expr **out,
                     const char **text) {
  const char *s;
  if (!get_string(ld, obj, key, nullable, &s))
    return false;
  *out = NULL;
  if (text)
    *text = s;
  if (!s)
    return true;
  char reason[256];
  wgp_status st = wgp_expr_parse_in(ld->a, s, out, reason, sizeof reason);
  if (st == WGP_ERR_NOMEM)
    return nomem(ld);
  if (st != WGP_OK)
    return fail(ld, "'%s': invalid expression '%.200s': %s", key, s, reason);
  return true;
}

static json_t *element_object(loader *ld, json_t *arr, size_t i, const char *what) {
  json_t *v = json_array_get(arr, i);
  if (!json_is_object(v))
    return fail(ld, "%s %zu must be an object, got %s", what, i, type_name(v)), NULL;
  return v;
}

static bool check_id(loader *ld, json_t *obj, size_t expected) {
  int64_t id = 0;
  if (!get_uint(ld, obj, "id", false, SIZE_MAX / 4, &id))
    return false;
  if ((size_t)id != expected)
    return fail(ld, "'id' is %lld but the item is at position %zu", (long long)id, expected);
  return true;
}

bool wgp_ids_contain(const size_t *v, size_t n, size_t x) {
  for (size_t i = 0; i < n; i++)
    if (v[i] == x)
      return true;
  return false;
}

#define WGP_BYTES_LIMIT (UINT64_C(1) << 48)

static bool load_arg(loader *ld, json_t *o, size_t i, wgp_arg *a) {
  int kind = 0, space = 0; /* set by get_enum; gcc -O3 cannot tell */
  int64_t index = 0, bytes = 0; /* set by get_uint; gcc -O3 cannot tell */
  snprintf(ld->item, sizeof ld->item, "arg %zu: ", i);
  if (!get_uint(ld, o, "index", false, SIZE_MAX / 4, &index) || !get_string(ld, o, "name", false, &a->name) ||
      !get_string(ld, o, "type", false, &a->type) ||
      !get_enum(ld, o, "kind", arg_kind_names, WGP_COUNT(arg_kind_names), &kind) ||
      !get_enum(ld, o, "space", space_names, WGP_COUNT(space_names), &space))
    return false;
  if ((size_t)index != i)
    return fail(ld, "'index' is %lld but the argument is at position %zu", (long long)index, i);
  a->index = i;
  a->kind = (wgp_arg_kind)kind;
  a->space = (wgp_space)space;
  if (a->kind == WGP_ARG_POINTER) {
    int from;
    if (a->space == WGP_SPACE_PRIVATE || a->space == WGP_SPACE_GENERIC)
      return fail(ld, "pointer argument in space '%s' (expected global, local or constant)", space_names[space]);
    if (!get_uint(ld, o, "elem_bytes", false, WGP_BYTES_LIMIT, &bytes) ||
        !get_enum(ld, o, "elem_bytes_from", elem_from_names, WGP_COUNT(elem_from_names), &from) ||
        !get_bool(ld, o, "const", &a->is_const))
      return false;
    a->from = elem_from_names[from];
  } else {
    if (a->space != WGP_SPACE_PRIVATE)
      return fail(ld, "scalar argument in space '%s' (expected private)", space_names[space]);
    if (!get_uint(ld, o, "bytes", false, WGP_BYTES_LIMIT, &bytes))
      return false;
    if (bytes == 0)
      return fail(ld, "scalar argument of 0 bytes");
    json_t *fl = json_object_get(o, "floating"); /* optional: a floating-point IR type */
    if (fl && !json_is_boolean(fl))
      return fail(ld, "'floating' must be a boolean");
    a->floating = fl && json_is_true(fl);
  }
  a->bytes = (uint64_t)bytes;
  return true;
}

static bool load_array(loader *ld, json_t *o, size_t i, wgp_array *a) {
  int space;
  int64_t bytes, elem;
  bool ok;
  snprintf(ld->item, sizeof ld->item, "array %zu: ", i);
  if (!get_string(ld, o, "name", false, &a->name) ||
      !get_enum(ld, o, "space", space_names, 3, &space) || /* global, local, constant */
      !get_uint(ld, o, "bytes", false, WGP_BYTES_LIMIT, &bytes) ||
      !get_uint(ld, o, "elem_bytes", false, WGP_BYTES_LIMIT, &elem) || !get_bool(ld, o, "initialized", &a->initialized))
    return false;
  a->space = (wgp_space)space;
  a->bytes = (uint64_t)bytes;
  a->elem_bytes = (uint64_t)elem;
  json_t *dims = get_array(ld, o, "dims", &ok);
  if (!ok)
    return false;
  a->ndims = json_array_size(dims);
  if (!(a->dims = alloc_n(ld, a->ndims, sizeof *a->dims)))
    return false;
  for (size_t d = 0; d < a->ndims; d++) {
    json_t *v = json_array_get(dims, d);
    if (!json_is_integer(v) || json_integer_value(v) < 0)
      return fail(ld, "'dims'[%zu] must be a non-negative integer", d);
    a->dims[d] = (uint64_t)json_integer_value(v);
  }
  return true;
}

static bool load_branch(loader *ld, json_t *o, wgp_block *b, size_t nblocks) {
  wgp_branch *br = alloc_n(ld, 1, sizeof *br);
  int kind, cls;
  bool ok;
  if (!br)
    return false;
  b->branch = br;
  snprintf(ld->item, sizeof ld->item, "block %zu: branch: ", b->id);
  if (!get_enum(ld, o, "kind", branch_kind_names, WGP_COUNT(branch_kind_names), &kind) ||
      !get_expr(ld, o, "cond", false, &br->cond, &br->cond_text) ||
      !get_enum(ld, o, "class", branch_class_names, WGP_COUNT(branch_class_names), &cls) ||
      !get_ids(ld, o, "targets", nblocks, "block", &br->targets, &br->ntargets) ||
      !get_string(ld, o, "source", true, &br->source))
    return false;
  br->kind = (wgp_branch_kind)kind;
  br->cls = (wgp_branch_class)cls;
  json_t *deps = get_array(ld, o, "depends", &ok);
  if (!ok)
    return false;
  for (size_t i = 0; i < json_array_size(deps); i++) {
    json_t *v = json_array_get(deps, i);
    size_t d = 0;
    while (d < WGP_COUNT(depends_names) && !(json_is_string(v) && strcmp(json_string_value(v), depends_names[d]) == 0))
      d++;
    if (d == WGP_COUNT(depends_names))
      return fail(ld, "'depends'[%zu] must be 'work-item', 'loop-variable' or 'data'", i);
    br->depends |= 1u << d;
  }
  if (br->kind == WGP_BRANCH_COND && br->ntargets != 2)
    return fail(ld, "a 'cond' branch needs 2 targets, got %zu", br->ntargets);
  if (br->kind == WGP_BRANCH_SWITCH) {
    if (br->ntargets < 1)
      return fail(ld, "a 'switch' needs at least a default target");
    json_t *cases = get_array(ld, o, "case_values", &ok);
    if (!ok)
      return false;
    if (json_array_size(cases) != br->ntargets - 1)
      return fail(ld, "'case_values' has %zu entries for %zu case targets", json_array_size(cases), br->ntargets - 1);
    if (!(br->case_values = alloc_n(ld, br->ntargets, sizeof *br->case_values)))
      return false;
    for (size_t i = 0; i + 1 < br->ntargets; i++) {
      json_t *v = json_array_get(cases, i);
      const char *s = json_is_string(v) ? json_string_value(v) : NULL;
      char *end = NULL;
      errno = 0;
      long long x = s && *s ? strtoll(s, &end, 10) : 0;
      if (!s || !*s || *end || errno)
        return fail(ld, "'case_values'[%zu] must be a decimal integer string", i);
      br->case_values[i] = x;
    }
  }
  for (size_t i = 0; i < br->ntargets; i++)
    if (!wgp_ids_contain(b->succs, b->nsuccs, br->targets[i]))
      return fail(ld, "target %zu is not a successor of the block", br->targets[i]);
  return true;
}

static size_t count_index(const count_entry *c, size_t n, const char *cls) {
  size_t i = 0;
  while (i < n && strcmp(c[i].cls, cls) != 0)
    i++;
  return i;
}

/* The counts after loop strength reduction: the block's counts less what it
 * removes, plus its pointer increments (64-bit adds, class addr; one per
 * stream of accesses, so at most the kernel's accesses). */
static bool load_strength_reduced(loader *ld, json_t *o, wgp_block *b, size_t naccesses) {
  b->reduced = b->counts, b->nreduced = b->ncounts;
  json_t *sr = json_object_get(o, "strength_reduced");
  if (!sr)
    return true;
  if (!json_is_object(sr))
    return fail(ld, "'strength_reduced' must be an object, got %s", type_name(sr));
  count_entry *rm;
  size_t nrm;
  int64_t steps;
  if (!get_counts(ld, sr, "removes", &rm, &nrm) || !get_uint(ld, sr, "pointer_steps", false, naccesses, &steps))
    return false;
  b->reduced = alloc_n(ld, b->ncounts + 1, sizeof *b->reduced);
  if (!b->reduced)
    return false;
  if (b->ncounts)
    memcpy(b->reduced, b->counts, b->ncounts * sizeof *b->reduced);
  size_t n = b->ncounts;
  for (size_t i = 0; i < nrm; i++) { /* each class once: the loader refuses duplicate keys */
    size_t c = count_index(b->reduced, n, rm[i].cls);
    if (c == n || rm[i].n > b->reduced[c].n)
      return fail(ld, "'strength_reduced' removes %llu '%s' of the block's %llu", (unsigned long long)rm[i].n,
                  rm[i].cls, (unsigned long long)(c == n ? 0 : b->reduced[c].n));
    b->reduced[c].n -= rm[i].n;
  }
  size_t a = count_index(b->reduced, n, "addr");
  if (a < n)
    b->reduced[a].n += (uint64_t)steps;
  else if (steps > 0)
    b->reduced[n++] = (count_entry){"addr", (uint64_t)steps};
  b->nreduced = n;
  return true;
}

static bool load_block(loader *ld, json_t *o, size_t i, wgp_block *b, size_t nblocks, size_t nloops,
                       size_t naccesses) {
  int64_t loop;
  snprintf(ld->item, sizeof ld->item, "block %zu: ", i);
  b->id = i;
  if (!check_id(ld, o, i) || !get_string(ld, o, "name", false, &b->name) ||
      !get_string(ld, o, "source", true, &b->source) || !get_uint(ld, o, "loop", true, SIZE_MAX / 4, &loop) ||
      !get_counts(ld, o, "counts", &b->counts, &b->ncounts) || !load_strength_reduced(ld, o, b, naccesses) ||
      !get_bool(ld, o, "exit", &b->exit))
    return false;
  if (loop >= 0 && (size_t)loop >= nloops)
    return fail(ld, "loop %lld out of range (%zu loops)", (long long)loop, nloops);
  b->loop = (long)loop;
  json_t *succs = json_object_get(o, "succs");
  if (json_is_array(succs))
    for (size_t s = 0; s < json_array_size(succs); s++) {
      json_t *v = json_array_get(succs, s);
      if (json_is_integer(v) && (json_integer_value(v) < 0 || (uint64_t)json_integer_value(v) >= nblocks))
        return fail(ld, "successor %lld out of range (%zu blocks)", (long long)json_integer_value(v), nblocks);
    }
  if (!get_ids(ld, o, "succs", nblocks, "block", &b->succs, &b->nsuccs) ||
      !get_ids(ld, o, "back_edges", nblocks, "block", &b->back, &b->nback) ||
      !get_ids(ld, o, "memory", naccesses, "access", &b->mem, &b->nmem))
    return false;
  for (size_t k = 0; k < b->nback; k++)
    if (!wgp_ids_contain(b->succs, b->nsuccs, b->back[k]))
      return fail(ld, "back edge to %zu is not a successor", b->back[k]);
  if (b->exit && b->nsuccs)
    return fail(ld, "an exit block has successors");
  bool ok;
  json_t *br = member(ld, o, "branch", JSON_OBJECT, "an object", true, &ok);
  if (!ok)
    return false;
  return br ? load_branch(ld, br, b, nblocks) : true;
}

static bool load_loop(loader *ld, json_t *o, size_t i, wgp_loop *l, size_t nblocks, size_t nloops) {
  int64_t header = 0, parent = 0, depth = 0;
  int trip = 0;
  bool ok;
  snprintf(ld->item, sizeof ld->item, "loop %zu: ", i);
  l->id = i;
  if (!check_id(ld, o, i) || !get_uint(ld, o, "header", false, SIZE_MAX / 4, &header) ||
      !get_uint(ld, o, "parent", true, SIZE_MAX / 4, &parent) || !get_uint(ld, o, "depth", false, 1u << 20, &depth) ||
      !get_ids(ld, o, "blocks", nblocks, "block", &l->blocks, &l->nblocks) ||
      !get_ids(ld, o, "latches", nblocks, "block", &l->latches, &l->nlatches) ||
      !get_ids(ld, o, "exiting", nblocks, "block", &l->exiting, &l->nexiting) ||
      !get_enum(ld, o, "trip_kind", trip_kind_names, WGP_COUNT(trip_kind_names), &trip) ||
      !get_expr(ld, o, "backedge_count", true, &l->backedge, NULL) ||
      !get_expr(ld, o, "trip_count", true, &l->trip_count, NULL) ||
      !get_expr(ld, o, "max_trip_count", true, &l->max_trip, NULL) || !get_string(ld, o, "reason", true, &l->reason) ||
      !get_string(ld, o, "source", true, &l->source))
    return false;
  if ((size_t)header >= nblocks)
    return fail(ld, "header %lld out of range (%zu blocks)", (long long)header, nblocks);
  if (parent >= 0 && (size_t)parent >= nloops)
    return fail(ld, "parent %lld out of range (%zu loops)", (long long)parent, nloops);
  if (parent >= 0 && (size_t)parent == i)
    return fail(ld, "loop is its own parent");
  if (depth < 1)
    return fail(ld, "'depth' must be at least 1");
  l->header = (size_t)header;
  l->parent = (long)parent;
  l->depth = (unsigned)depth;
  l->trip = (wgp_trip_kind)trip;
  if (!wgp_ids_contain(l->blocks, l->nblocks, l->header))
    return fail(ld, "header %zu is not among the loop's blocks", l->header);
  if (l->trip == WGP_TRIP_EXACT && !l->trip_count)
    return fail(ld, "trip_kind 'exact' without a trip_count");

  json_t *recs = get_array(ld, o, "recurrences", &ok);
  if (!ok)
    return false;
  l->nrec = json_array_size(recs);
  if (!(l->rec = alloc_n(ld, l->nrec, sizeof *l->rec)))
    return false;
  for (size_t r = 0; r < l->nrec; r++) {
    json_t *ro = element_object(ld, recs, r, "recurrence");
    const wgp_expr *sym;
    snprintf(ld->item, sizeof ld->item, "loop %zu: recurrence %zu: ", i, r);
    if (!ro || !get_expr(ld, ro, "sym", false, &sym, NULL) || !get_expr(ld, ro, "init", false, &l->rec[r].init, NULL) ||
        !get_expr(ld, ro, "next", false, &l->rec[r].next, NULL))
      return false;
    const wgp_sym *s = wgp_expr_symbol(sym);
    if (!s || s->kind != WGP_SYM_RECUR || s->loop != i)
      return fail(ld, "'sym' must be a symbol rv.L%zu.<k>", i);
    l->rec[r].sym = *s;
  }
  snprintf(ld->item, sizeof ld->item, "loop %zu: ", i);
  json_t *exits = get_array(ld, o, "exits", &ok);
  if (!ok)
    return false;
  l->nexits = json_array_size(exits);
  if (!(l->exits = alloc_n(ld, l->nexits, sizeof *l->exits)))
    return false;
  for (size_t e = 0; e < l->nexits; e++) {
    json_t *eo = element_object(ld, exits, e, "exit");
    int64_t blk;
    snprintf(ld->item, sizeof ld->item, "loop %zu: exit %zu: ", i, e);
    if (!eo || !get_uint(ld, eo, "block", false, SIZE_MAX / 4, &blk) ||
        !get_expr(ld, eo, "exit_when", false, &l->exits[e].when, NULL))
      return false;
    if ((size_t)blk >= nblocks)
      return fail(ld, "block %lld out of range (%zu blocks)", (long long)blk, nblocks);
    if (!wgp_ids_contain(l->blocks, l->nblocks, (size_t)blk))
      return fail(ld, "block %lld is not in the loop", (long long)blk);
    l->exits[e].block = (size_t)blk;
  }
  return true;
}

/* A cache operator at KEY: a load's (ca cg cs lu cv, and nc when NC) or a
 * store's (wb cg cs wt). */
static bool get_cache_op(loader *ld, json_t *obj, const char *key, bool load, bool nc, wgp_cache_op *out) {
  static const char *const loads[] = {"ca", "cg", "cs", "lu", "cv", "nc"}, *const stores[] = {"wb", "cg", "cs", "wt"};
  static const wgp_cache_op load_ops[] = {WGP_CACHE_CA, WGP_CACHE_CG, WGP_CACHE_CS,
                                          WGP_CACHE_LU, WGP_CACHE_CV, WGP_CACHE_NC},
                            store_ops[] = {WGP_CACHE_WB, WGP_CACHE_CG, WGP_CACHE_CS, WGP_CACHE_WT};
  int i = 0;
  if (!get_enum(ld, obj, key, load ? loads : stores, load ? WGP_COUNT(loads) - !nc : WGP_COUNT(stores), &i))
    return false;
  *out = load ? load_ops[i] : store_ops[i];
  return true;
}

static bool load_access(loader *ld, json_t *o, size_t i, wgp_access *m, const wgp_kernel *k) {
  int64_t block = 0, bytes = 0, arg = 0;
  int kind = 0, space = 0, base_kind = 0;
  bool ok;
  snprintf(ld->item, sizeof ld->item, "access M%zu: ", i);
  m->id = i;
  if (!check_id(ld, o, i) || !get_uint(ld, o, "block", false, SIZE_MAX / 4, &block) ||
      !get_enum(ld, o, "kind", access_kind_names, WGP_COUNT(access_kind_names), &kind) ||
      !get_enum(ld, o, "space", space_names, WGP_COUNT(space_names), &space) ||
      !get_uint(ld, o, "bytes", false, WGP_BYTES_LIMIT, &bytes) ||
      !get_expr(ld, o, "offset", true, &m->offset, NULL) || !get_bool(ld, o, "affine", &m->affine) ||
      !get_string(ld, o, "non_affine", true, &m->non_affine) || !get_string(ld, o, "source", true, &m->source))
    return false;
  if ((size_t)block >= k->nblocks)
    return fail(ld, "block %lld out of range (%zu blocks)", (long long)block, k->nblocks);
  if (bytes == 0)
    return fail(ld, "an access of 0 bytes");
  m->block = (size_t)block;
  m->kind = (wgp_access_kind)kind;
  m->space = (wgp_space)space;
  m->bytes = (uint64_t)bytes;
  if (m->kind == WGP_ACCESS_ATOMIC && json_object_get(o, "atomic_op") &&
      !get_string(ld, o, "atomic_op", true, &m->atomic_op))
    return false;
  if (json_object_get(o, "cache")) {
    /* a PTX cache operator: a global load's or store's */
    if (m->kind == WGP_ACCESS_ATOMIC)
      return fail(ld, "'cache' is set for an atomic");
    if (!get_cache_op(ld, o, "cache", m->kind == WGP_ACCESS_LOAD, true, &m->cache))
      return false;
  }
  json_t *base = member(ld, o, "base", JSON_OBJECT, "an object", false, &ok);
  if (!ok)
    return false;
  snprintf(ld->item, sizeof ld->item, "access M%zu: base: ", i);
  if (!get_enum(ld, base, "kind", base_kind_names, WGP_COUNT(base_kind_names), &base_kind) ||
      !get_string(ld, base, "name", true, &m->base_name) || !get_uint(ld, base, "arg", true, SIZE_MAX / 4, &arg))
    return false;
  m->base_kind = (wgp_base_kind)base_kind;
  m->base_arg = (long)arg;
  if (m->base_kind == WGP_BASE_ARG) {
    if (arg < 0)
      return fail(ld, "'arg' is null for an argument base");
    if ((size_t)arg >= k->nargs)
      return fail(ld, "argument %lld out of range (%zu arguments)", (long long)arg, k->nargs);
    if (k->args[arg].kind != WGP_ARG_POINTER)
      return fail(ld, "argument %lld is not a pointer", (long long)arg);
  } else if (arg >= 0) {
    return fail(ld, "'arg' is set for a base of kind '%s'", base_kind_names[base_kind]);
  }
  if (m->base_kind == WGP_BASE_ARRAY && (!m->base_name || !wgp_kernel_find_array(k, m->base_name)))
    return fail(ld, "array '%s' is not among the kernel's arrays", m->base_name ? m->base_name : "(null)");
  snprintf(ld->item, sizeof ld->item, "access M%zu: ", i);
  const wgp_block *b = &k->blocks[m->block];
  if (!wgp_ids_contain(b->mem, b->nmem, i))
    return fail(ld, "not listed in the 'memory' of its block %zu", m->block);
  return true;
}

/* Whether E reads the value loaded by access ID. */
/* The ids of the loads E reads, appended to *IDS (*N of them, *CAP room);
 * false when out of memory. */
static bool loads_read(const wgp_expr *e, size_t **ids, size_t *n, size_t *cap) {
  if (!e)
    return true;
  if (wgp_expr_get_op(e) == WGP_OP_LOAD) {
    if (*n == *cap) {
      size_t nc = *cap ? 2 * *cap : 16;
      size_t *g = realloc(*ids, nc * sizeof *g);
      if (!g)
        return false;
      *ids = g, *cap = nc;
    }
    (*ids)[(*n)++] = (size_t)wgp_expr_int(e);
    return true;
  }
  for (size_t i = 0; i < wgp_expr_num_operands(e); i++)
    if (!loads_read(wgp_expr_operand(e, i), ids, n, cap))
      return false;
  return true;
}

/* wgp_access_load_level of every access, block by block in program order:
 * one more than the deepest earlier load of its block its offset reads.
 * Each offset is walked once (an unrolled block of 2000 accesses walked each
 * offset once per earlier access: most of the time of loading its model). */
static bool set_load_levels(wgp_kernel *k) {
  size_t *pos = malloc((k->naccesses ? k->naccesses : 1) * sizeof *pos), *ids = NULL, cap = 0;
  if (!pos)
    return false;
  for (size_t i = 0; i < k->nblocks; i++)
    for (size_t q = 0; q < k->blocks[i].nmem; q++)
      pos[k->blocks[i].mem[q]] = q;
  bool ok = true;
  for (size_t i = 0; i < k->nblocks && ok; i++) {
    const wgp_block *b = &k->blocks[i];
    for (size_t q = 0; q < b->nmem && ok; q++) {
      wgp_access *a = &k->accesses[b->mem[q]];
      a->load_level = 0;
      if (a->kind != WGP_ACCESS_LOAD || a->space == WGP_SPACE_PRIVATE)
        continue;
      size_t n = 0;
      ok = loads_read(a->offset, &ids, &n, &cap);
      for (size_t t = 0; ok && t < n; t++) {
        if (ids[t] >= k->naccesses)
          continue;
        const wgp_access *e = &k->accesses[ids[t]];
        if (e->block == i && pos[ids[t]] < q && e->kind == WGP_ACCESS_LOAD && e->space != WGP_SPACE_PRIVATE &&
            e->load_level + 1 > a->load_level)
          a->load_level = e->load_level + 1;
      }
    }
  }
  free(pos);
  free(ids);
  return ok;
}

/* Cross checks that need every block, loop and access loaded. */
static bool check_kernel(loader *ld, wgp_kernel *k) {
  for (size_t i = 0; i < k->nblocks; i++) {
    const wgp_block *b = &k->blocks[i];
    snprintf(ld->item, sizeof ld->item, "block %zu: ", i);
    for (size_t j = 0; j < b->nmem; j++)
      if (k->accesses[b->mem[j]].block != i)
        return fail(ld, "lists access M%zu, which belongs to block %zu", b->mem[j], k->accesses[b->mem[j]].block);
    if (b->loop >= 0 && !wgp_loop_contains(&k->loops[b->loop], i))
      return fail(ld, "loop %ld does not contain the block", b->loop);
  }
  for (size_t i = 0; i < k->nloops; i++) {
    wgp_loop *l = &k->loops[i];
    snprintf(ld->item, sizeof ld->item, "loop %zu: ", i);
    /* Walk the parent chain: more steps than loops means a cycle. */
    long p = l->parent;
    size_t steps = 0;
    while (p >= 0) {
      if (++steps > k->nloops || (size_t)p == i)
        return fail(ld, "loop nest cycle: the parent chain returns to loop %ld", p);
      p = k->loops[p].parent;
    }
    if (steps + 1 != l->depth)
      return fail(ld, "'depth' is %u but the loop is nested %zu deep", l->depth, steps + 1);
    if (l->parent >= 0)
      for (size_t j = 0; j < l->nblocks; j++)
        if (!wgp_loop_contains(&k->loops[l->parent], l->blocks[j]))
          return fail(ld, "block %zu is not in the parent loop %ld", l->blocks[j], l->parent);
  }
  ld->item[0] = '\0';
  for (size_t i = 0; i < k->ncalls; i++)
    if (k->calls[i].block >= k->nblocks)
      return fail(ld, "call %zu: block %zu out of range (%zu blocks)", i, k->calls[i].block, k->nblocks);
  return true;
}

/* resources: optional, added by `wgperf extract` (registers.c): one entry
 * per GPU architecture NVIDIA's compiler was asked for. */
static bool load_resources(loader *ld, json_t *o, wgp_kernel *k) {
  json_t *list = json_object_get(o, "resources");
  if (!list)
    return true;
  if (!json_is_array(list))
    return fail(ld, "'resources' must be an array");
  k->nresources = json_array_size(list);
  k->resources = alloc_n(ld, k->nresources, sizeof *k->resources);
  if (!k->resources)
    return false;
  size_t i;
  json_t *e;
  json_array_foreach(list, i, e) {
    wgp_kernel_resources *r = &k->resources[i];
    const char *arch, *compiler;
    int64_t regs, stack, sst, sld, smem, code;
    if (!json_is_object(e))
      return fail(ld, "'resources' must hold objects");
    if (!get_string(ld, e, "arch", false, &arch) || !get_string(ld, e, "compiler", false, &compiler) ||
        !get_string(ld, e, "source", false, &r->source) || !get_uint(ld, e, "registers", false, 1024, &regs) ||
        !get_uint(ld, e, "stack_bytes", false, 1u << 30, &stack) ||
        !get_uint(ld, e, "spill_store_bytes", false, 1u << 30, &sst) ||
        !get_uint(ld, e, "spill_load_bytes", false, 1u << 30, &sld) ||
        !get_uint(ld, e, "shared_bytes", false, 1u << 30, &smem))
      return false;
    if (json_object_get(e, "code_bytes")) {
      if (!get_uint(ld, e, "code_bytes", false, 1u << 30, &code))
        return false;
    } else {
      code = 0;
    }
    char *end;
    long cc = strncmp(arch, "sm_", 3) == 0 ? strtol(arch + 3, &end, 10) : -1;
    if (cc < 10 || cc > 999 || *end)
      return fail(ld, "'resources': arch '%s' is not sm_XY", arch);
    if (regs < 1)
      return fail(ld, "'resources': 'registers' is 0, expected 1 to 1024");
    if (strcmp(compiler, "nvcc") != 0 && strcmp(compiler, "ptxas") != 0)
      return fail(ld, "'resources': compiler '%s' is neither 'nvcc' nor 'ptxas'", compiler);
    r->arch = (unsigned)cc;
    r->registers = (unsigned)regs;
    r->stack_bytes = (uint64_t)stack;
    r->spill_store_bytes = (uint64_t)sst;
    r->spill_load_bytes = (uint64_t)sld;
    r->shared_bytes = (uint64_t)smem;
    r->code_bytes = (uint64_t)code;
    r->from_source = strcmp(compiler, "nvcc") == 0;
  }
  return true;
}

/* launch_attributes (optional; absent in models of before it, and for a
 * kernel whose source says nothing): OpenCL's reqd_work_group_size, CUDA's
 * __launch_bounds__ (docs/kernel-model.md, "Launch attributes"). */
static bool load_launch_attributes(loader *ld, json_t *o, wgp_kernel *k) {
  json_t *la = json_object_get(o, "launch_attributes");
  if (!la || json_is_null(la))
    return true;
  if (!json_is_object(la))
    return fail(ld, "'launch_attributes' must be an object, got %s", type_name(la));
  json_t *reqd = json_object_get(la, "reqd_work_group_size");
  if (reqd) {
    if (!json_is_array(reqd) || json_array_size(reqd) != 3)
      return fail(ld, "'launch_attributes.reqd_work_group_size' must be a list of 3 sizes");
    for (size_t d = 0; d < 3; d++) {
      json_t *x = json_array_get(reqd, d);
      if (!json_is_integer(x) || json_integer_value(x) < 1 || json_integer_value(x) > (1ll << 31))
        return fail(ld, "'launch_attributes.reqd_work_group_size'[%zu] must be an integer from 1 to 2^31", d);
      k->reqd[d] = (uint64_t)json_integer_value(x);
    }
  }
  static const char *const keys[2] = {"max_threads_per_block", "min_blocks_per_sm"};
  uint64_t *dst[2] = {&k->max_threads, &k->min_blocks};
  for (int i = 0; i < 2; i++) {
    json_t *x = json_object_get(la, keys[i]);
    if (!x)
      continue;
    if (!json_is_integer(x) || json_integer_value(x) < 1 || json_integer_value(x) > (1ll << 31))
      return fail(ld, "'launch_attributes.%s' must be an integer from 1 to 2^31", keys[i]);
    *dst[i] = (uint64_t)json_integer_value(x);
  }
  if (json_object_get(la, "attribute") && !get_string(ld, la, "attribute", true, &k->attribute))
    return false;
  /* nvcc's -maxrregcount, which the driver records for every kernel */
  json_t *mr = json_object_get(la, "max_registers_per_thread");
  if (mr) {
    if (!json_is_integer(mr) || json_integer_value(mr) < 1 || json_integer_value(mr) > 1024)
      return fail(ld, "'launch_attributes.max_registers_per_thread' must be an integer from 1 to 1024");
    k->max_registers = (unsigned)json_integer_value(mr);
  }
  /* ptxas' -dlcm and -dscm, which the driver records for every kernel */
  if (json_object_get(la, "global_load_cache") &&
      !get_cache_op(ld, la, "global_load_cache", true, false, &k->load_cache))
    return false;
  if (json_object_get(la, "global_store_cache") &&
      !get_cache_op(ld, la, "global_store_cache", false, false, &k->store_cache))
    return false;
  return true;
}

static bool load_kernel(loader *ld, json_t *o, size_t index, wgp_kernel *k) {
  int lang;
  bool ok;
  ld->item[0] = '\0';
  snprintf(ld->kernel, sizeof ld->kernel, "kernel %zu: ", index);
  if (!get_string(ld, o, "name", false, &k->name))
    return false;
  snprintf(ld->kernel, sizeof ld->kernel, "kernel '%.120s': ", k->name);
  if (!get_string(ld, o, "symbol", false, &k->symbol) || !get_string(ld, o, "signature", false, &k->signature) ||
      !get_enum(ld, o, "language", language_names, WGP_COUNT(language_names), &lang) ||
      !get_string(ld, o, "source", true, &k->source) ||
      !get_counts(ld, o, "static_counts", &k->static_counts, &k->nstatic) ||
      !get_bool(ld, o, "irreducible", &k->irreducible) || !get_strings(ld, o, "diagnostics", &k->diags, &k->ndiags))
    return false;
  k->lang = (wgp_language)lang;
  /* register_pressure: required by the format; an estimate in registers */
  int64_t regs;
  if (!get_uint(ld, o, "register_pressure", false, 1u << 20, &regs))
    return false;
  k->register_pressure = (unsigned)regs;
  /* registers: optional, added by `wgperf extract` from ptxas */
  json_t *rj = json_object_get(o, "registers");
  if (rj) {
    json_t *cnt = json_object_get(rj, "count"), *src = json_object_get(rj, "source");
    if (!json_is_object(rj) || !json_is_integer(cnt) || json_integer_value(cnt) < 1 ||
        json_integer_value(cnt) > 1024 || !json_is_string(src))
      return fail(ld, "'registers' must be {\"count\": 1..1024, \"source\": \"...\"}");
    k->registers = (unsigned)json_integer_value(cnt);
    k->registers_source = wgp_arena_strdup(ld->a, json_string_value(src));
    if (!k->registers_source)
      return nomem(ld);
  }

  if (!load_resources(ld, o, k) || !load_launch_attributes(ld, o, k))
    return false;

  json_t *args = get_array(ld, o, "args", &ok);
  json_t *arrays = ok ? get_array(ld, o, "arrays", &ok) : NULL;
  json_t *blocks = ok ? get_array(ld, o, "blocks", &ok) : NULL;
  json_t *loops = ok ? get_array(ld, o, "loops", &ok) : NULL;
  json_t *mem = ok ? get_array(ld, o, "memory", &ok) : NULL;
  json_t *calls = ok ? get_array(ld, o, "calls", &ok) : NULL;
  if (!ok)
    return false;
  k->nargs = json_array_size(args);
  k->narrays = json_array_size(arrays);
  k->nblocks = json_array_size(blocks);
  k->nloops = json_array_size(loops);
  k->naccesses = json_array_size(mem);
  k->ncalls = json_array_size(calls);
  if (k->nblocks == 0)
    return fail(ld, "no blocks");
  if (!(k->args = alloc_n(ld, k->nargs, sizeof *k->args)) || !(k->arrays = alloc_n(ld, k->narrays, sizeof *k->arrays)) ||
      !(k->blocks = alloc_n(ld, k->nblocks, sizeof *k->blocks)) ||
      !(k->loops = alloc_n(ld, k->nloops, sizeof *k->loops)) ||
      !(k->accesses = alloc_n(ld, k->naccesses, sizeof *k->accesses)) ||
      !(k->calls = alloc_n(ld, k->ncalls, sizeof *k->calls)))
    return false;
  for (size_t i = 0; i < k->nargs; i++) {
    json_t *e = element_object(ld, args, i, "arg");
    if (!e || !load_arg(ld, e, i, &k->args[i]))
      return false;
  }
  for (size_t i = 0; i < k->narrays; i++) {
    json_t *e = element_object(ld, arrays, i, "array");
    if (!e || !load_array(ld, e, i, &k->arrays[i]))
      return false;
  }
  uint64_t insns = 0;
  for (size_t i = 0; i < k->nblocks; i++) {
    json_t *e = element_object(ld, blocks, i, "block");
    if (!e || !load_block(ld, e, i, &k->blocks[i], k->nblocks, k->nloops, k->naccesses))
      return false;
    /* The simulator expands every counted instruction of a block into its
     * stream: a count no compiler makes would exhaust memory there. */
    for (size_t c = 0; c < k->blocks[i].ncounts; c++) {
      insns += k->blocks[i].counts[c].n < WGP_MODEL_MAX_INSNS ? k->blocks[i].counts[c].n : WGP_MODEL_MAX_INSNS;
      if (insns > WGP_MODEL_MAX_INSNS) {
        snprintf(ld->item, sizeof ld->item, "block %zu: ", i);
        return fail(ld, "more than %llu instructions counted in the kernel's blocks (count of '%s' %llu)",
                    (unsigned long long)WGP_MODEL_MAX_INSNS, k->blocks[i].counts[c].cls,
                    (unsigned long long)k->blocks[i].counts[c].n);
      }
    }
  }
  for (size_t i = 0; i < k->nloops; i++) {
    json_t *e = element_object(ld, loops, i, "loop");
    if (!e || !load_loop(ld, e, i, &k->loops[i], k->nblocks, k->nloops))
      return false;
  }
  for (size_t i = 0; i < k->naccesses; i++) {
    json_t *e = element_object(ld, mem, i, "access");
    if (!e || !load_access(ld, e, i, &k->accesses[i], k))
      return false;
  }
  for (size_t i = 0; i < k->ncalls; i++) {
    json_t *e = element_object(ld, calls, i, "call");
    int64_t blk;
    snprintf(ld->item, sizeof ld->item, "call %zu: ", i);
    if (!e || !get_uint(ld, e, "block", false, SIZE_MAX / 4, &blk) ||
        !get_string(ld, e, "callee", false, &k->calls[i].callee) ||
        !get_string(ld, e, "reason", false, &k->calls[i].reason) ||
        (json_object_get(e, "source") && !get_string(ld, e, "source", true, &k->calls[i].source)))
      return false;
    k->calls[i].block = (size_t)blk;
  }
  if (!check_kernel(ld, k))
    return false;
  return set_load_levels(k) || nomem(ld);
}

static bool load_model(loader *ld, json_t *root, wgp_model *m) {
  if (!json_is_object(root))
    return fail(ld, "not a wgperf kernel model (the top level is %s, not an object)", type_name(root));
  json_t *format = json_object_get(root, "format");
  if (!format)
    return fail(ld, "not a wgperf kernel model (no 'format' key)");
  if (!json_is_string(format) || strcmp(json_string_value(format), "wgperf-kernel-model") != 0)
    return fail(ld, "not a wgperf kernel model (format is %s%.100s%s, expected 'wgperf-kernel-model')",
                json_is_string(format) ? "'" : "", json_is_string(format) ? json_string_value(format) : type_name(format),
                json_is_string(format) ? "'" : "");
  json_t *version = json_object_get(root, "version");
  if (!version)
    return fail(ld, "missing key 'version'");
  if (!json_is_integer(version))
    return fail(ld, "'version' must be an integer, got %s", type_name(version));
  if (json_integer_value(version) != WGP_MODEL_VERSION)
    return fail(ld, "kernel model version %lld is not supported (this wgperf reads version %d); extract the model again "
                    "with this wgperf",
                (long long)json_integer_value(version), WGP_MODEL_VERSION);
  bool ok;
  if (!get_string(ld, root, "producer", false, &m->producer) || !get_string(ld, root, "module", false, &m->module) ||
      !get_string(ld, root, "source_file", true, &m->source_file) ||
      !get_string(ld, root, "target", false, &m->target) ||
      !get_strings(ld, root, "diagnostics", &m->diags, &m->ndiags))
    return false;
  /* cuda_headers: optional, what `wgperf extract` compiled a .cu file against */
  if (json_object_get(root, "cuda_headers") && !get_string(ld, root, "cuda_headers", false, &m->cuda_headers))
    return false;
  json_t *kernels = get_array(ld, root, "kernels", &ok);
  if (!ok)
    return false;
  m->nkernels = json_array_size(kernels);
  if (!(m->kernels = alloc_n(ld, m->nkernels, sizeof *m->kernels)))
    return false;
  for (size_t i = 0; i < m->nkernels; i++) {
    json_t *e = element_object(ld, kernels, i, "kernel");
    if (!e || !load_kernel(ld, e, i, &m->kernels[i]))
      return false;
    for (size_t j = 0; j < i; j++)
      if (strcmp(m->kernels[j].name, m->kernels[i].name) == 0) {
        ld->item[0] = '\0';
        return fail(ld, "two kernels have this name");
      }
  }
  return true;
}

wgp_status wgp_model_load_string(const char *text, size_t len, const char *name, wgp_model **out, wgp_diag *diag) {
  *out = NULL;
  loader ld = {NULL, name ? name : "<model>", diag, "", "", WGP_OK};
  json_error_t jerr;
  json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
  if (!root) {
    if (diag)
      snprintf(diag->message, sizeof diag->message, "wgperf: error: %s:%d:%d: invalid JSON: %s", ld.file, jerr.line,
               jerr.column, jerr.text);
    return WGP_ERR_INPUT;
  }
  wgp_model *m = calloc(1, sizeof *m);
  ld.a = m ? wgp_arena_new() : NULL;
  if (!ld.a) {
    free(m);
    json_decref(root);
    if (diag)
      snprintf(diag->message, sizeof diag->message, "wgperf: error: %s: out of memory", ld.file);
    return WGP_ERR_NOMEM;
  }
  m->arena = ld.a;
  load_model(&ld, root, m);
  json_decref(root);
  if (ld.status != WGP_OK) {
    wgp_model_free(m);
    return ld.status;
  }
  *out = m;
  return WGP_OK;
}

wgp_status wgp_model_load_file(const char *file, wgp_model **out, wgp_diag *diag) {
  *out = NULL;
  char *buf;
  size_t len;
  wgp_status st = wgp_read_file(file, &buf, &len, diag);
  if (st != WGP_OK)
    return st;
  st = wgp_model_load_string(buf, len, file, out, diag);
  free(buf);
  return st;
}

void wgp_model_free(wgp_model *m) {
  if (!m)
    return;
  wgp_arena_free(m->arena);
  free(m);
}

