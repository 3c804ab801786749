/* launch.c - parsing and checking a launch (see include/wgperf/launch.h). */
#define _POSIX_C_SOURCE 200809L
#include "wgperf/launch.h"

#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NAMED 256

typedef struct named {
  char *name;
  int64_t value; /* args: the value; buffers and local_mem: bytes */
  double real;   /* args: the value as given, fraction included */
  uint64_t align;
  bool is_float;
  bool integral; /* is_float, but an exact integer (1e6, 2.5e3): value holds it */
  char text[40]; /* is_float: the value as given, for messages */
} named;

struct wgp_launch {
  unsigned dims, local_dims, offset_dims;
  uint64_t global[3], local[3], offset[3];
  bool has_global, has_local, nonuniform;
  uint64_t grid[3]; /* CUDA style: blocks per dimension; global = grid x local */
  unsigned grid_dims;
  bool has_grid;
  named args[MAX_NAMED], buffers[MAX_NAMED], locals[MAX_NAMED];
  size_t nargs, nbuffers, nlocals;
  const char *source; /* file name for messages, or NULL for the command line */
};

#define fail(diag, ...) wgp_diag_set((diag), WGP_ERR_INPUT, __VA_ARGS__)

/* "wgperf: error: FILE: " or "wgperf: error: " */
static const char *where(const wgp_launch *l, char *buf, size_t n) {
  snprintf(buf, n, "wgperf: error: %s%s", l->source ? l->source : "", l->source ? ": " : "");
  return buf;
}

wgp_launch *wgp_launch_new(void) { return calloc(1, sizeof(wgp_launch)); }

static void free_named(named *v, size_t n) {
  for (size_t i = 0; i < n; i++)
    free(v[i].name);
}

void wgp_launch_free(wgp_launch *l) {
  if (!l)
    return;
  free_named(l->args, l->nargs);
  free_named(l->buffers, l->nbuffers);
  free_named(l->locals, l->nlocals);
  free(l);
}

bool wgp_parse_size(const char *s, uint64_t *out) {
  if (!s || !isdigit((unsigned char)*s))
    return false;
  errno = 0;
  char *end;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno)
    return false;
  uint64_t mult = 1;
  if (*end) {
    static const struct { const char *suffix; uint64_t mult; } units[] = {
        {"B", 1},          {"K", 1ull << 10}, {"KiB", 1ull << 10}, {"KB", 1ull << 10}, {"M", 1ull << 20},
        {"MiB", 1ull << 20}, {"MB", 1ull << 20}, {"G", 1ull << 30}, {"GiB", 1ull << 30}, {"GB", 1ull << 30},
    };
    bool found = false;
    for (size_t i = 0; i < sizeof units / sizeof *units; i++)
      if (strcmp(end, units[i].suffix) == 0) {
        mult = units[i].mult;
        found = true;
      }
    if (!found)
      return false;
  }
  if (v > UINT64_MAX / mult)
    return false;
  *out = (uint64_t)v * mult;
  return true;
}

/* A floating-point argument's value is never used as an integer (lookups
 * report it as unknown); it is kept truncated where it fits, else 0, since
 * converting an out-of-range double is undefined. */
static int64_t float_value(double d) { return d > -9.2e18 && d < 9.2e18 ? (int64_t)d : 0; }

/* Whether D, a value written with a fraction or an exponent, is exactly an
 * integer that a double holds exactly (|D| <= 2^53): "1e6" and "2.5e3" are,
 * "1.5" and "1e30" are not. */
static bool exact_integer(double d) {
  return d >= -9007199254740992.0 && d <= 9007199254740992.0 && d == (double)(int64_t)d;
}

/* Sets the value of the argument just added (the last of L's) to the
 * floating-point R, written TEXT (NULL: R's shortest form). */
static void set_real(wgp_launch *l, double r, const char *text) {
  named *a = &l->args[l->nargs - 1];
  a->real = r;
  if (text)
    snprintf(a->text, sizeof a->text, "%s", text);
  else
    snprintf(a->text, sizeof a->text, "%.17g", r);
  a->integral = exact_integer(r);
  if (a->integral)
    a->value = (int64_t)r;
}

/* An integer (decimal, 0x hex or 0 octal) or a floating-point number.  An
 * integer past 64 bits sets *too_big and fails rather than becoming a
 * floating-point value. */
static bool parse_i64(const char *s, int64_t *out, bool *is_float, bool *too_big) {
  errno = 0;
  char *end;
  *is_float = false;
  *too_big = false;
  long long v = strtoll(s, &end, 0);
  if (*s && !*end && errno == ERANGE) {
    *too_big = true;
    return false;
  }
  if (*s && !*end && !errno) {
    *out = v;
    return true;
  }
  errno = 0;
  double d = strtod(s, &end);
  if (*s && !*end && !errno) {
    *is_float = true;
    *out = float_value(d);
    return true;
  }
  return false;
}

static wgp_status parse_dims(wgp_launch *l, const char *what, const char *text, uint64_t v[3], unsigned *dims,
                             wgp_diag *diag) {
  char w[512];
  unsigned n = 0;
  const char *p = text;
  uint64_t tmp[3] = {1, 1, 1};
  while (*p) {
    if (n == 3)
      return fail(diag, "%s--%s '%s': at most 3 dimensions", where(l, w, sizeof w), what, text);
    if (!isdigit((unsigned char)*p))
      return fail(diag, "%s--%s '%s': expected sizes like 1024,1024", where(l, w, sizeof w), what, text);
    errno = 0;
    char *end;
    unsigned long long x = strtoull(p, &end, 10);
    if (errno || x == 0)
      return fail(diag, "%s--%s '%s': sizes must be between 1 and 2^64-1", where(l, w, sizeof w), what, text);
    tmp[n++] = x;
    p = end;
    if (*p == ',' || *p == 'x')
      p++;
    else if (*p)
      return fail(diag, "%s--%s '%s': expected sizes like 1024,1024", where(l, w, sizeof w), what, text);
  }
  if (!n)
    return fail(diag, "%s--%s: no size given", where(l, w, sizeof w), what);
  memcpy(v, tmp, sizeof tmp);
  *dims = n;
  return WGP_OK;
}

static wgp_status add_named(wgp_launch *l, named *v, size_t *n, const char *kind, const char *name, int64_t value,
                            uint64_t align, bool is_float, wgp_diag *diag) {
  char w[512];
  if (!*name)
    return fail(diag, "%s%s: empty name", where(l, w, sizeof w), kind);
  for (size_t i = 0; i < *n; i++)
    if (strcmp(v[i].name, name) == 0)
      return fail(diag, "%s%s '%s' given twice", where(l, w, sizeof w), kind, name);
  if (*n == MAX_NAMED)
    return fail(diag, "%stoo many %s values", where(l, w, sizeof w), kind);
  v[*n].name = strdup(name);
  if (!v[*n].name)
    return WGP_ERR_NOMEM;
  v[*n].value = value;
  v[*n].real = (double)value;
  v[*n].align = align;
  v[*n].is_float = is_float;
  (*n)++;
  return WGP_OK;
}

/* "NAME=VALUE" split in place into a copy. */
static wgp_status split_eq(wgp_launch *l, const char *opt, const char *text, char **name, char **value,
                           wgp_diag *diag) {
  char w[512];
  const char *eq = strchr(text, '=');
  if (!eq || eq == text || !eq[1])
    return fail(diag, "%s%s '%s': expected NAME=VALUE", where(l, w, sizeof w), opt, text);
  *name = *value = NULL;
  *name = strndup(text, (size_t)(eq - text));
  *value = strdup(eq + 1);
  if (!*name || !*value) {
    free(*name), free(*value);
    return WGP_ERR_NOMEM;
  }
  return WGP_OK;
}

bool wgp_launch_is_option(const char *name, bool *takes_value) {
  static const char *with[] = {"--global", "--local", "--block", "--grid", "--offset", "--arg", "--buffer", "--local-mem"};
  for (size_t i = 0; i < sizeof with / sizeof *with; i++)
    if (strcmp(name, with[i]) == 0) {
      *takes_value = true;
      return true;
    }
  if (strcmp(name, "--nonuniform") == 0) {
    *takes_value = false;
    return true;
  }
  return false;
}

static wgp_status set_buffer(wgp_launch *l, const char *name, const char *spec, wgp_diag *diag) {
  char w[512];
  uint64_t bytes, align = 0;
  char *copy = strdup(spec);
  if (!copy)
    return WGP_ERR_NOMEM;
  char *at = strchr(copy, '@');
  if (at)
    *at++ = '\0';
  bool ok = wgp_parse_size(copy, &bytes) && (!at || wgp_parse_size(at, &align));
  free(copy);
  if (!ok)
    return fail(diag, "%s--buffer %s=%s: expected BYTES[@ALIGN] such as 4MiB or 1048576@256", where(l, w, sizeof w),
                name, spec);
  if (bytes == 0)
    return fail(diag, "%s--buffer %s: size must be positive", where(l, w, sizeof w), name);
  if (at && (align == 0 || (align & (align - 1))))
    return fail(diag, "%s--buffer %s: alignment %llu is not a power of two", where(l, w, sizeof w), name,
                (unsigned long long)align);
  return add_named(l, l->buffers, &l->nbuffers, "buffer", name, (int64_t)bytes, align, false, diag);
}

wgp_status wgp_launch_set_option(wgp_launch *l, const char *opt, const char *value, wgp_diag *diag) {
  char w[512];
  if (strcmp(opt, "--nonuniform") == 0) {
    l->nonuniform = true;
    return WGP_OK;
  }
  if (!value)
    return fail(diag, "%s%s needs a value", where(l, w, sizeof w), opt);
  if (strcmp(opt, "--global") == 0) {
    l->has_global = true;
    return parse_dims(l, "global", value, l->global, &l->dims, diag);
  }
  if (strcmp(opt, "--local") == 0 || strcmp(opt, "--block") == 0) {
    l->has_local = true;
    return parse_dims(l, opt + 2, value, l->local, &l->local_dims, diag);
  }
  if (strcmp(opt, "--grid") == 0) {
    l->has_grid = true;
    return parse_dims(l, "grid", value, l->grid, &l->grid_dims, diag);
  }
  if (strcmp(opt, "--offset") == 0) {
    /* offsets may be 0 */
    unsigned n = 0;
    const char *p = value;
    while (*p) {
      if (n == 3 || !isdigit((unsigned char)*p))
        return fail(diag, "%s--offset '%s': expected up to 3 offsets like 0,0", where(l, w, sizeof w), value);
      char *end;
      l->offset[n++] = strtoull(p, &end, 10);
      p = end;
      if (*p == ',')
        p++;
      else if (*p)
        return fail(diag, "%s--offset '%s': expected up to 3 offsets like 0,0", where(l, w, sizeof w), value);
    }
    l->offset_dims = n;
    return WGP_OK;
  }
  char *name = NULL, *val = NULL;
  wgp_status st = split_eq(l, opt, value, &name, &val, diag);
  if (st != WGP_OK)
    return st;
  if (strcmp(opt, "--arg") == 0) {
    int64_t v;
    bool is_float, too_big;
    if (!parse_i64(val, &v, &is_float, &too_big))
      st = fail(diag, "%s--arg %s=%s: %s", where(l, w, sizeof w), name, val,
                too_big ? "out of the 64-bit integer range" : "not a number");
    else if ((st = add_named(l, l->args, &l->nargs, "argument", name, v, 0, is_float, diag)) == WGP_OK && is_float)
      set_real(l, strtod(val, NULL), val);
  } else if (strcmp(opt, "--buffer") == 0) {
    st = set_buffer(l, name, val, diag);
  } else if (strcmp(opt, "--local-mem") == 0) {
    uint64_t bytes;
    if (!wgp_parse_size(val, &bytes))
      st = fail(diag, "%s--local-mem %s=%s: expected a size in bytes", where(l, w, sizeof w), name, val);
    else
      st = add_named(l, l->locals, &l->nlocals, "local-mem", name, (int64_t)bytes, 0, false, diag);
  } else {
    st = fail(diag, "%sunknown launch option '%s'", where(l, w, sizeof w), opt);
  }
  free(name);
  free(val);
  return st;
}

/* ---- JSON ---------------------------------------------------------------- */

static wgp_status json_dims(wgp_launch *l, json_t *root, const char *key, uint64_t v[3], unsigned *dims,
                            bool allow_zero, bool *present, wgp_diag *diag) {
  char w[512];
  json_t *a = json_object_get(root, key);
  *present = a != NULL;
  if (!a)
    return WGP_OK;
  if (json_is_integer(a)) {
    json_int_t x = json_integer_value(a);
    if (x < (allow_zero ? 0 : 1))
      return fail(diag, "%s'%s' must be positive, got %lld", where(l, w, sizeof w), key, (long long)x);
    v[0] = (uint64_t)x, v[1] = v[2] = allow_zero ? 0 : 1;
    *dims = 1;
    return WGP_OK;
  }
  if (!json_is_array(a) || json_array_size(a) < 1 || json_array_size(a) > 3)
    return fail(diag, "%s'%s' must be a list of 1 to 3 sizes", where(l, w, sizeof w), key);
  uint64_t tmp[3] = {allow_zero ? 0 : 1, allow_zero ? 0 : 1, allow_zero ? 0 : 1};
  for (size_t i = 0; i < json_array_size(a); i++) {
    json_t *x = json_array_get(a, i);
    if (!json_is_integer(x) || json_integer_value(x) < (allow_zero ? 0 : 1))
      return fail(diag, "%s'%s'[%zu] must be a %s integer", where(l, w, sizeof w), key, i,
                  allow_zero ? "non-negative" : "positive");
    tmp[i] = (uint64_t)json_integer_value(x);
  }
  memcpy(v, tmp, sizeof tmp);
  *dims = (unsigned)json_array_size(a);
  return WGP_OK;
}

static wgp_status from_json(wgp_launch *l, json_t *root, wgp_diag *diag) {
  char w[512];
  if (!json_is_object(root))
    return fail(diag, "%sa launch must be a JSON object", where(l, w, sizeof w));
  const char *key;
  json_t *val;
  json_object_foreach(root, key, val) {
    static const char *known[] = {"global", "local", "grid", "block", "offset", "args", "buffers", "local_mem",
                                  "nonuniform"};
    bool ok = false;
    for (size_t i = 0; i < sizeof known / sizeof *known; i++)
      ok = ok || strcmp(key, known[i]) == 0;
    if (!ok)
      return fail(diag,
                  "%sunknown key '%s' (known: global, local, grid, block, offset, args, buffers, local_mem, "
                  "nonuniform)",
                  where(l, w, sizeof w), key);
  }
  wgp_status st;
  if ((st = json_dims(l, root, "global", l->global, &l->dims, false, &l->has_global, diag)) != WGP_OK ||
      (st = json_dims(l, root, "local", l->local, &l->local_dims, false, &l->has_local, diag)) != WGP_OK ||
      (st = json_dims(l, root, "grid", l->grid, &l->grid_dims, false, &l->has_grid, diag)) != WGP_OK)
    return st;
  if (json_object_get(root, "block")) {
    if (l->has_local)
      return fail(diag, "%s'local' and 'block' are the same thing: give one", where(l, w, sizeof w));
    if ((st = json_dims(l, root, "block", l->local, &l->local_dims, false, &l->has_local, diag)) != WGP_OK)
      return st;
  }
  bool has_off;
  if ((st = json_dims(l, root, "offset", l->offset, &l->offset_dims, true, &has_off, diag)) != WGP_OK)
    return st;
  json_t *nu = json_object_get(root, "nonuniform");
  if (nu && !json_is_boolean(nu))
    return fail(diag, "%s'nonuniform' must be true or false", where(l, w, sizeof w));
  l->nonuniform = nu && json_is_true(nu);
  json_t *args = json_object_get(root, "args");
  if (args) {
    if (!json_is_object(args))
      return fail(diag, "%s'args' must be an object of NAME: value", where(l, w, sizeof w));
    json_object_foreach(args, key, val) {
      if (json_is_integer(val))
        st = add_named(l, l->args, &l->nargs, "argument", key, json_integer_value(val), 0, false, diag);
      else if (json_is_real(val)) {
        st = add_named(l, l->args, &l->nargs, "argument", key, float_value(json_real_value(val)), 0, true, diag);
        if (st == WGP_OK)
          set_real(l, json_real_value(val), NULL);
      }
      else
        st = fail(diag, "%sargs.%s must be a number", where(l, w, sizeof w), key);
      if (st != WGP_OK)
        return st;
    }
  }
  json_t *bufs = json_object_get(root, "buffers");
  if (bufs) {
    if (!json_is_object(bufs))
      return fail(diag, "%s'buffers' must be an object of NAME: size", where(l, w, sizeof w));
    json_object_foreach(bufs, key, val) {
      char spec[96];
      if (json_is_integer(val) && json_integer_value(val) > 0)
        snprintf(spec, sizeof spec, "%lld", (long long)json_integer_value(val));
      else if (json_is_string(val))
        snprintf(spec, sizeof spec, "%s", json_string_value(val));
      else if (json_is_object(val)) {
        json_t *b = json_object_get(val, "bytes"), *a = json_object_get(val, "align");
        if (!json_is_integer(b) || json_integer_value(b) <= 0 || (a && (!json_is_integer(a) || json_integer_value(a) <= 0)))
          return fail(diag, "%sbuffers.%s: expected {\"bytes\": N, \"align\": N}", where(l, w, sizeof w), key);
        if (a)
          snprintf(spec, sizeof spec, "%lld@%lld", (long long)json_integer_value(b), (long long)json_integer_value(a));
        else
          snprintf(spec, sizeof spec, "%lld", (long long)json_integer_value(b));
      } else
        return fail(diag, "%sbuffers.%s must be a size", where(l, w, sizeof w), key);
      if ((st = set_buffer(l, key, spec, diag)) != WGP_OK)
        return st;
    }
  }
  json_t *lm = json_object_get(root, "local_mem");
  if (lm) {
    if (!json_is_object(lm))
      return fail(diag, "%s'local_mem' must be an object of NAME: bytes", where(l, w, sizeof w));
    json_object_foreach(lm, key, val) {
      uint64_t bytes = 0;
      if (json_is_integer(val) && json_integer_value(val) >= 0)
        bytes = (uint64_t)json_integer_value(val);
      else if (!json_is_string(val) || !wgp_parse_size(json_string_value(val), &bytes))
        return fail(diag, "%slocal_mem.%s must be a size in bytes", where(l, w, sizeof w), key);
      if ((st = add_named(l, l->locals, &l->nlocals, "local-mem", key, (int64_t)bytes, 0, false, diag)) != WGP_OK)
        return st;
    }
  }
  return WGP_OK;
}

wgp_status wgp_launch_load_string(const char *text, const char *name, wgp_launch **out, wgp_diag *diag) {
  *out = NULL;
  json_error_t err;
  json_t *root = json_loads(text, JSON_REJECT_DUPLICATES, &err);
  if (!root)
    return fail(diag, "wgperf: error: %s:%d: %s", name, err.line, err.text);
  wgp_launch *l = wgp_launch_new();
  if (!l) {
    json_decref(root);
    return WGP_ERR_NOMEM;
  }
  l->source = name;
  wgp_status st = from_json(l, root, diag);
  json_decref(root);
  l->source = NULL;
  if (st != WGP_OK) {
    wgp_launch_free(l);
    return st;
  }
  *out = l;
  return WGP_OK;
}

wgp_status wgp_launch_load_file(const char *file, wgp_launch **out, wgp_diag *diag) {
  *out = NULL;
  char *buf;
  size_t len;
  wgp_status st = wgp_read_file(file, &buf, &len, diag);
  if (st != WGP_OK)
    return st;
  if (strlen(buf) != len) {
    free(buf);
    return fail(diag, "wgperf: error: %s: not a text file", file);
  }
  st = wgp_launch_load_string(buf, file, out, diag);
  free(buf);
  return st;
}

/* ---- binding -------------------------------------------------------------- */

static const named *find(const named *v, size_t n, const char *name) {
  for (size_t i = 0; i < n; i++)
    if (strcmp(v[i].name, name) == 0)
      return &v[i];
  return NULL;
}

/* Whether static array A ("kernel::buf" in CUDA, "kernel.buf" in OpenCL,
 * "buf" at file scope) is what the user calls USER. */
static bool array_named(const wgp_array *a, const char *user) {
  return strcmp(wgp_array_name(a), user) == 0 || strcmp(wgp_array_short_name(a), user) == 0;
}

/* The dynamic shared-memory array (CUDA `extern __shared__ T a[]`: local
 * space, no size in the model) that the user calls USER, or -1. */
static long dynamic_array(const wgp_kernel *k, const char *user, const wgp_array **found) {
  *found = NULL;
  for (size_t j = 0; j < wgp_kernel_num_arrays(k); j++) {
    const wgp_array *a = wgp_kernel_array(k, j);
    if (wgp_array_space(a) == WGP_SPACE_LOCAL && array_named(a, user)) {
      *found = a;
      if (wgp_array_bytes(a) == 0)
        return (long)j;
    }
  }
  return -1;
}

/* Launch inputs a kernel needs and was not given: their options in a list,
 * and the error for the first alone (the message of one missing input). */
typedef struct missing {
  size_t n;
  char list[1024];
  char one[512];
} missing;

__attribute__((format(printf, 4, 5))) static void note_missing(missing *m, const char *option, const char *name,
                                                              const char *alone, ...) {
  size_t len = strlen(m->list);
  if (len < sizeof m->list - 1) {
    int w = snprintf(m->list + len, sizeof m->list - len, "%s", len ? ", " : "");
    if (w >= 0 && (size_t)w < sizeof m->list - len)
      snprintf(m->list + len + (size_t)w, sizeof m->list - len - (size_t)w, option, name);
  }
  if (!m->n++) {
    va_list ap;
    va_start(ap, alone);
    vsnprintf(m->one, sizeof m->one, alone, ap);
    va_end(ap);
  }
}

static wgp_eval_status lookup(void *user, const wgp_sym *sym, int64_t *value, char *reason, size_t size) {
  const wgp_launch *l = user;
  if (sym->kind == WGP_SYM_ARG) {
    const named *a = find(l->args, l->nargs, sym->name);
    if (a && (!a->is_float || a->integral)) {
      *value = a->value;
      return WGP_EVAL_OK;
    }
    snprintf(reason, size, a ? "argument '%s' is floating point" : "no value for argument '%s'", sym->name);
    return a ? WGP_EVAL_UNKNOWN : WGP_EVAL_ERROR;
  }
  snprintf(reason, size, "the value is loaded from memory at run time");
  return WGP_EVAL_UNKNOWN;
}

wgp_status wgp_launch_bind(const wgp_launch *l, const wgp_kernel *k, wgp_trace_launch *out, uint64_t *buffer_align,
                           uint64_t *local_bytes, wgp_diag *diag) {
  const char *kn = wgp_kernel_name(k);
  if (l->has_grid && l->has_global)
    return fail(diag, "wgperf: error: give the global size (--global, OpenCL) or the grid (--grid, CUDA), not both");
  if (!l->has_global && !l->has_grid)
    return fail(diag, "wgperf: error: the launch has no global size (--global X[,Y[,Z]], or CUDA's --grid X[,Y[,Z]])");
  if (!l->has_local)
    return fail(diag, "wgperf: error: the launch has no work-group size (--local X[,Y[,Z]], or CUDA's --block)");
  /* CUDA: dim3(256) is 256,1,1, so the shorter of --grid and --block is
   * padded with 1s (wgp_launch_dims); OpenCL's clEnqueueNDRangeKernel takes
   * one work_dim for both sizes */
  if (!l->has_grid && l->local_dims != l->dims)
    return fail(diag,
                "wgperf: error: the global size has %u dimension%s but the work-group size has %u (OpenCL gives both "
                "the same number)",
                l->dims, l->dims == 1 ? "" : "s", l->local_dims);
  if (l->offset_dims > l->dims)
    return fail(diag, "wgperf: error: offset has %u dimensions but the launch has %u", l->offset_dims, l->dims);
  uint64_t items = 1, group = 1;
  for (unsigned d = 0; d < wgp_launch_dims(l) && d < 3; d++) { /* d < 3: gcc -O3 cannot see it */
    if (wgp_launch_global(l, d) > (1ull << 32))
      return fail(diag, "wgperf: error: global size %llu in dimension %u is above 2^32",
                  (unsigned long long)wgp_launch_global(l, d), d);
    /* global ids (offset + id) stay far from 64-bit overflow */
    if (d < l->offset_dims && l->offset[d] > (1ull << 32))
      return fail(diag, "wgperf: error: global offset %llu in dimension %u is above 2^32",
                  (unsigned long long)l->offset[d], d);
    if (l->local[d] > wgp_launch_global(l, d))
      return fail(diag, "wgperf: error: work-group size %llu is larger than the global size %llu in dimension %u",
                  (unsigned long long)l->local[d], (unsigned long long)wgp_launch_global(l, d), d);
    if (!l->nonuniform && wgp_launch_global(l, d) % l->local[d])
      return fail(diag,
                  "wgperf: error: global size %llu is not a multiple of the work-group size %llu in dimension %u "
                  "(OpenCL 1.2 uniform work-groups; add --nonuniform to allow a smaller last group)",
                  (unsigned long long)wgp_launch_global(l, d), (unsigned long long)l->local[d], d);
    if (items > UINT64_MAX / wgp_launch_global(l, d))
      return fail(diag, "wgperf: error: the launch has more than 2^64 work-items");
    items *= wgp_launch_global(l, d);
    group *= l->local[d];
  }
  if (group > (1ull << 31))
    return fail(diag, "wgperf: error: a work-group of %llu work-items is too large", (unsigned long long)group);
  /* names must exist in the kernel */
  const named *lists[3] = {l->args, l->buffers, l->locals};
  size_t counts[3] = {l->nargs, l->nbuffers, l->nlocals};
  const char *opt[3] = {"--arg", "--buffer", "--local-mem"};
  size_t na = wgp_kernel_num_args(k);
  for (size_t j = 0; j < wgp_kernel_num_arrays(k); j++)
    local_bytes[na + j] = 0;
  for (int j = 0; j < 3; j++)
    for (size_t i = 0; i < counts[j]; i++) {
      const wgp_arg *a = wgp_kernel_find_arg(k, lists[j][i].name);
      const wgp_array *arr;
      long dyn = !a && j == 2 ? dynamic_array(k, lists[j][i].name, &arr) : -1;
      if (dyn >= 0) {
        local_bytes[na + (size_t)dyn] = (uint64_t)lists[j][i].value;
        continue;
      }
      if (!a && j == 2 && arr)
        return fail(diag,
                    "wgperf: error: '%s' of kernel '%s' is a shared array of fixed size (%llu bytes); --local-mem "
                    "sizes __local pointer arguments and dynamic (extern __shared__) arrays",
                    lists[j][i].name, kn, (unsigned long long)wgp_array_bytes(arr));
      if (!a) {
        /* a field of a struct argument the kernel never reads (only the fields
         * it reads are arguments, docs/kernel-model.md) */
        const char *name = lists[j][i].name, *dot = strchr(name, '.');
        char fields[256] = "";
        size_t fl = 0;
        for (size_t q = 0; dot && q < na && fl < sizeof fields - 1; q++) {
          const char *an = wgp_arg_name(wgp_kernel_arg(k, q));
          if (strncmp(an, name, (size_t)(dot - name) + 1) == 0) {
            int w = snprintf(fields + fl, sizeof fields - fl, "%s%s", fl ? ", " : "", an);
            fl = w > 0 && (size_t)w < sizeof fields - fl ? fl + (size_t)w : sizeof fields - 1;
          }
        }
        if (fl)
          return fail(diag,
                      "wgperf: error: kernel '%s' never reads '%s' (%s): of its struct argument '%.*s' it reads only "
                      "%s; leave '%s' out",
                      kn, name, opt[j], (int)(dot - name), name, fields, name);
        return fail(diag, "wgperf: error: kernel '%s' has no argument '%s' (%s)", kn, name, opt[j]);
      }
      bool ptr = wgp_arg_get_kind(a) == WGP_ARG_POINTER;
      if (j == 0 && ptr)
        return fail(diag, "wgperf: error: argument '%s' of kernel '%s' is a pointer: give its size with --buffer",
                    lists[j][i].name, kn);
      if (j == 1 && (!ptr || wgp_arg_space(a) == WGP_SPACE_LOCAL))
        return fail(diag, "wgperf: error: argument '%s' of kernel '%s' is not a global or constant buffer",
                    lists[j][i].name, kn);
      if (j == 2 && (!ptr || wgp_arg_space(a) != WGP_SPACE_LOCAL))
        return fail(diag, "wgperf: error: argument '%s' of kernel '%s' is not a __local pointer", lists[j][i].name,
                    kn);
    }
  /* Every launch input the kernel needs and the launch lacks, named in one
   * error (a kernel with seven __local pointers took seven runs to learn
   * it needs seven --local-mem). */
  missing miss = {0};
  for (size_t i = 0; i < na; i++) {
    const wgp_arg *a = wgp_kernel_arg(k, i);
    const char *name = wgp_arg_name(a);
    if (wgp_arg_get_kind(a) == WGP_ARG_SCALAR) {
      if (!find(l->args, l->nargs, name) && wgp_kernel_uses_arg(k, name))
        note_missing(&miss, "--arg %s=VALUE", name,
                     "wgperf: error: kernel '%s' needs a value for its argument '%s' (--arg %s=VALUE)", kn, name, name);
    } else if (wgp_arg_space(a) == WGP_SPACE_LOCAL && !find(l->locals, l->nlocals, name)) {
      note_missing(&miss, "--local-mem %s=BYTES", name,
                   "wgperf: error: argument '%s' of kernel '%s' is a __local pointer: give its size with --local-mem "
                   "%s=BYTES",
                   name, kn, name);
    }
  }
  for (size_t j = 0; j < wgp_kernel_num_arrays(k); j++) {
    const wgp_array *a = wgp_kernel_array(k, j);
    if (wgp_array_space(a) == WGP_SPACE_LOCAL && wgp_array_bytes(a) == 0 && local_bytes[na + j] == 0) {
      const char *short_name = wgp_array_short_name(a);
      note_missing(&miss, "--local-mem %s=BYTES", short_name,
                   "wgperf: error: kernel '%s' uses the dynamic shared array '%s' (extern __shared__): give its size "
                   "with --local-mem %s=BYTES (the third <<<>>> launch parameter)",
                   kn, short_name, short_name);
    }
  }
  if (miss.n == 1)
    return fail(diag, "%s", miss.one);
  if (miss.n > 1)
    return fail(diag,
                "wgperf: error: kernel '%s' needs %zu launch inputs that were not given: %s (scalar arguments that "
                "an address, branch or loop count reads: --arg; __local pointer arguments and dynamic shared arrays: "
                "--local-mem)",
                kn, miss.n, miss.list);
  for (size_t i = 0; i < na; i++) {
    const wgp_arg *a = wgp_kernel_arg(k, i);
    const char *name = wgp_arg_name(a);
    buffer_align[i] = 0;
    local_bytes[i] = 0;
    if (wgp_arg_get_kind(a) == WGP_ARG_SCALAR) {
      const named *v = find(l->args, l->nargs, name);
      if (!v)
        continue; /* no address, branch or loop count reads it: any value gives the same analysis */
      if (v->is_float && !v->integral && !wgp_arg_is_floating(a))
        return fail(diag, "wgperf: error: argument '%s' of kernel '%s' is an integer (%s): --arg %s=%s is %s", name,
                    kn, wgp_arg_type(a), name, v->text,
                    v->real == v->real && v->real - v->real == 0 && v->real == floor(v->real)
                        ? "not an integer a 64-bit value holds exactly (at most 2^53 in scientific notation; "
                          "write it in digits)"
                        : "not an integer");
      if (v->value < 0 && !wgp_arg_is_floating(a) && wgp_arg_is_unsigned(a))
        return fail(diag, "wgperf: error: argument '%s' of kernel '%s' is unsigned (%s): --arg %s=%lld is negative",
                    name, kn, wgp_arg_type(a), name, (long long)v->value);
      uint64_t bits = wgp_arg_bytes(a) * 8;
      if ((!v->is_float || v->integral) && !wgp_arg_is_floating(a) && bits < 64) {
        int64_t lo = -(int64_t)(1ull << (bits - 1)), hi = (int64_t)((1ull << bits) - 1);
        if (v->value < lo || v->value > hi)
          return fail(diag, "wgperf: error: value %lld of argument '%s' does not fit its %llu-bit type",
                      (long long)v->value, name, (unsigned long long)bits);
      }
    } else if (wgp_arg_space(a) == WGP_SPACE_LOCAL) {
      local_bytes[i] = (uint64_t)find(l->locals, l->nlocals, name)->value; /* given: checked above */
    } else {
      const named *v = find(l->buffers, l->nbuffers, name);
      if (v)
        buffer_align[i] = v->align;
    }
  }
  memset(out, 0, sizeof *out);
  out->dims = wgp_launch_dims(l);
  for (unsigned d = 0; d < 3; d++) {
    out->global[d] = d < wgp_launch_dims(l) ? wgp_launch_global(l, d) : 1;
    out->local[d] = d < wgp_launch_dims(l) ? l->local[d] : 1;
    out->offset[d] = d < l->offset_dims ? l->offset[d] : 0;
  }
  out->lookup = lookup;
  out->user = (void *)l;
  return WGP_OK;
}

unsigned wgp_launch_dims(const wgp_launch *l) {
  if (l->has_grid)
    return l->grid_dims > l->local_dims ? l->grid_dims : l->local_dims;
  return l->dims;
}
uint64_t wgp_launch_global(const wgp_launch *l, unsigned d) {
  if (d >= 3)
    return 1;
  if (l->has_grid)
    return l->grid[d] * (l->has_local ? l->local[d] : 1);
  return l->global[d];
}
uint64_t wgp_launch_local(const wgp_launch *l, unsigned d) { return d < 3 ? l->local[d] : 1; }
bool wgp_launch_nonuniform(const wgp_launch *l) { return l->nonuniform; }
size_t wgp_launch_num_args(const wgp_launch *l) { return l->nargs; }
const char *wgp_launch_arg(const wgp_launch *l, size_t i, int64_t *value) {
  if (i >= l->nargs)
    return NULL;
  *value = l->args[i].value;
  return l->args[i].name;
}
double wgp_launch_arg_real(const wgp_launch *l, size_t i) { return i < l->nargs ? l->args[i].real : 0; }
size_t wgp_launch_num_buffers(const wgp_launch *l) { return l->nbuffers; }
const char *wgp_launch_buffer(const wgp_launch *l, size_t i, uint64_t *bytes, uint64_t *align) {
  if (i >= l->nbuffers)
    return NULL;
  *bytes = (uint64_t)l->buffers[i].value;
  *align = l->buffers[i].align;
  return l->buffers[i].name;
}
void wgp_launch_buffer_sizes(const wgp_launch *l, const wgp_kernel *k, uint64_t *bytes) {
  for (size_t i = 0; i < wgp_kernel_num_args(k); i++) {
    const named *v = find(l->buffers, l->nbuffers, wgp_arg_name(wgp_kernel_arg(k, i)));
    bytes[i] = v ? (uint64_t)v->value : 0;
  }
}
size_t wgp_launch_num_local_mem(const wgp_launch *l) { return l->nlocals; }
const char *wgp_launch_local_mem(const wgp_launch *l, size_t i, uint64_t *bytes) {
  if (i >= l->nlocals)
    return NULL;
  *bytes = (uint64_t)l->locals[i].value;
  return l->locals[i].name;
}
