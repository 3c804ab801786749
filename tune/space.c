/* space.c - T1 tuning-space files (tune.h): the parameters and their values,
 * the conditions, and each configuration's launch with Kernel Tuner's
 * semantics.
 *
 * Assumptions, as Kernel Tuner launches a configuration:
 *   - every parameter is a #define of its value as Python's str() writes it;
 *   - the block is LocalSize, else the parameters block_size_x/y/z, else
 *     (256, 1, 1);
 *   - the grid is ceil(ProblemSize[d] / product(GridDiv d)) when any GridDiv
 *     is given (a dimension without one divides by the block's extent), else
 *     GlobalSize (blocks when GlobalSizeType is CUDA, work-items when
 *     OpenCL), else ceil(ProblemSize[d] / block[d]);
 *   - Arguments are the kernel's arguments in order.
 * Every expression is parsed and its names checked when the file is read, so
 * that an unknown parameter is an error before anything is enumerated.
 */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include "space_internal.h"

#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define SP_MAX_CONFIGS 50000000u
/* Steps of evaluation (pyexpr_internal.h) the conditions may take over the
 * whole enumeration: a space whose conditions reject nearly everything, late
 * in the parameters' order, is refused rather than searched for hours (13-20 s
 * here; the 16,896 combinations of the Kernel Tuner convolution take 23,590,
 * the 82,944 of CLBlast's gemm 186,744), and one condition for one
 * configuration. */
#define SP_ENUM_STEPS 1000000000ull
#define SP_COND_STEPS 10000000u
/* Steps the Values lists of all parameters may take together (a parameter
 * has at most 65,535 values: a list made from millions of candidates is
 * already unusual). */
#define SP_VALUES_STEPS 100000000ull
/* Steps one launch expression may take for one configuration. */
#define SP_LAUNCH_STEPS 1000000u

static wgp_status nomem(wgp_diag *d) { return wgp_diag_set(d, WGP_ERR_NOMEM, "wgperf: error: out of memory"); }

static char *fmt(const char *f, ...) {
  va_list ap;
  va_start(ap, f);
  int n = vsnprintf(NULL, 0, f, ap);
  va_end(ap);
  char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
  if (s) {
    va_start(ap, f);
    vsnprintf(s, (size_t)n + 1, f, ap);
    va_end(ap);
  }
  return s;
}

static void expr_free(sp_expr *x) {
  pyx_free(x->e);
  free(x->field);
}

/* A list add_string made. */
static void free_strings(char **v, size_t n) {
  for (size_t i = 0; i < n; i++)
    free(v[i]);
  free(v);
}

void wgp_tune_space_free(wgp_tune_space *s) {
  if (!s)
    return;
  for (size_t p = 0; p < s->nparams; p++) {
    sp_param *pp = &s->params[p];
    for (size_t v = 0; v < pp->nvalues; v++)
      free((char *)pp->values[v].text);
    free(pp->values);
    free(pp->pyvalues);
    free(pp->name);
  }
  free(s->params);
  for (size_t c = 0; c < s->nconds; c++) {
    pyx_free(s->conds[c].e);
    free(s->conds[c].field);
  }
  free(s->conds);
  for (int d = 0; d < 3; d++) {
    expr_free(&s->local[d]);
    expr_free(&s->global[d]);
    expr_free(&s->problem[d]);
    for (size_t i = 0; i < s->ngriddiv[d]; i++)
      expr_free(&s->griddiv[d][i]);
    free(s->griddiv[d]);
  }
  expr_free(&s->shared);
  for (size_t a = 0; a < s->nargs; a++) {
    free(s->args[a].name);
    free(s->args[a].type);
    expr_free(&s->args[a].size);
  }
  free(s->args);
  free_strings(s->symbols, s->nsymbols);
  free_strings(s->files, s->nfiles);
  free_strings(s->flags, s->nflags);
  free_strings(s->ignored, s->nignored);
  free_strings(s->translated, s->ntranslated);
  free_strings(s->clang_only, s->nclang_only);
  free(s->kernel_name);
  free(s->benchmark);
  free(s->file);
  free(s->dir);
  free(s);
}

size_t wgp_tune_space_find_param(const wgp_tune_space *s, const char *name) {
  for (size_t p = 0; p < s->nparams; p++)
    if (strcmp(s->params[p].name, name) == 0)
      return p;
  return SIZE_MAX;
}

/* ---- evaluation environment ------------------------------------------------- */

typedef struct env_ctx {
  const wgp_tune_space *s;
  const uint16_t *config; /* value indices of parameters 0..known-1 */
  size_t known;
  bool problem;           /* ProblemSize is defined */
  pyx_value problem_list;
  pyx_value problem_items[3];
} env_ctx;

static bool env_find(void *user, const char *name, pyx_value *out) {
  env_ctx *c = user;
  if (c->problem && strcmp(name, "ProblemSize") == 0) {
    *out = c->problem_list;
    return true;
  }
  size_t p = wgp_tune_space_find_param(c->s, name);
  if (p == SIZE_MAX || p >= c->known)
    return false;
  *out = c->s->params[p].pyvalues[c->config[p]];
  return true;
}

static bool env_values(void *user, const char *name, pyx_value *out) {
  env_ctx *c = user;
  size_t p = wgp_tune_space_find_param(c->s, name);
  if (p == SIZE_MAX)
    return false;
  *out = c->s->params[p].all;
  return true;
}

/* The first NP parameters of CONFIG as text. */
static void config_text_n(const wgp_tune_space *s, const uint16_t *config, size_t np, char *buf, size_t size) {
  size_t n = 0;
  buf[0] = '\0';
  for (size_t p = 0; p < np && n < size; p++) {
    int w = snprintf(buf + n, size - n, "%s%s=%s", p ? ", " : "", s->params[p].name,
                     s->params[p].values[config[p]].text);
    if (w < 0)
      break;
    n += (size_t)w;
  }
}

void sp_config_text(const wgp_tune_space *s, const uint16_t *config, char *buf, size_t size) {
  config_text_n(s, config, s->nparams, buf, size);
}

/* ---- reading ------------------------------------------------------------------ */

typedef struct reader {
  wgp_tune_space *s;
  wgp_diag *diag;
  wgp_status st;
  uint64_t steps, steps_given; /* of evaluation left for the Values lists, and given (SP_VALUES_STEPS) */
} reader;

static bool rfail(reader *r, wgp_status st, const char *f, ...) {
  if (r->st != WGP_OK)
    return false;
  char msg[WGP_DIAG_SIZE - 64];
  va_list ap;
  va_start(ap, f);
  vsnprintf(msg, sizeof msg, f, ap);
  va_end(ap);
  r->st = wgp_diag_set(r->diag, st, "wgperf: error: %s: %s", r->s->file, msg);
  return false;
}

/* A key of OBJ (FIELD in messages, "" for the file's top) that differs from
 * one of KNOWN (NULL-terminated) in case alone ("memoryType"): T1's keys are
 * case-sensitive, and such a key would be passed over without a word, its
 * default taken.  An empty list or object under it changes nothing. */
static bool keys_cased(reader *r, json_t *obj, const char *field, const char *const *known) {
  if (!json_is_object(obj))
    return true;
  const char *key;
  json_t *v;
  json_object_foreach(obj, key, v) {
    if ((json_is_array(v) && json_array_size(v) == 0) || (json_is_object(v) && json_object_size(v) == 0))
      continue;
    for (const char *const *k = known; *k; k++)
      if (strcmp(key, *k) != 0 && strcasecmp(key, *k) == 0 && !json_object_get(obj, *k))
        return rfail(r, WGP_ERR_INPUT, "%s%s'%s' is not read: T1's keys are case-sensitive, write '%s'", field,
                     *field ? ": " : "", key, *k);
  }
  return true;
}

typedef struct name_check {
  reader *r;
  const char *field, *text;
  bool problem_ok;
  size_t last; /* the last parameter read, SIZE_MAX for none */
} name_check;

static bool check_name(void *user, const char *name, size_t column) {
  name_check *c = user;
  if (c->problem_ok && strcmp(name, "ProblemSize") == 0)
    return true;
  size_t p = wgp_tune_space_find_param(c->r->s, name);
  if (p == SIZE_MAX)
    return rfail(c->r, WGP_ERR_INPUT, "%s '%s': unknown %s '%s' at column %zu", c->field, c->text,
                 c->problem_ok ? "name" : "parameter", name, column + 1);
  if (c->last == SIZE_MAX || p > c->last)
    c->last = p;
  return true;
}

/* Parses TEXT (FIELD says where it is) and checks its names. */
static pyx_expr *parse_checked(reader *r, const char *field, const char *text, bool problem_ok, size_t *last) {
  char err[PYX_ERR_SIZE];
  pyx_expr *e = pyx_parse(text, err);
  if (!e) {
    rfail(r, WGP_ERR_INPUT, "%s '%s': %s", field, text, err);
    return NULL;
  }
  name_check c = {r, field, text, problem_ok, SIZE_MAX};
  if (!pyx_names(e, check_name, &c)) {
    rfail(r, WGP_ERR_NOMEM, "out of memory");
    pyx_free(e);
    return NULL;
  }
  if (r->st != WGP_OK) {
    pyx_free(e);
    return NULL;
  }
  if (last)
    *last = c.last;
  return e;
}

/* An expression field: a JSON integer or a string. */
static bool read_expr(reader *r, json_t *j, const char *field, sp_expr *out) {
  out->field = strdup(field);
  if (!out->field)
    return rfail(r, WGP_ERR_NOMEM, "out of memory");
  if (json_is_integer(j)) {
    out->constant = json_integer_value(j);
    return true;
  }
  if (json_is_real(j) && json_real_value(j) == floor(json_real_value(j))) {
    double x = json_real_value(j);
    if (!(x >= -0x1p63 && x < 0x1p63)) /* beyond int64_t: converting it is undefined */
      return rfail(r, WGP_ERR_INPUT, "%s: %g is out of the 64-bit integer range", field, x);
    out->constant = (int64_t)x;
    return true;
  }
  if (!json_is_string(j))
    return rfail(r, WGP_ERR_INPUT, "%s: expected an integer or an expression (a string)", field);
  out->e = parse_checked(r, field, json_string_value(j), true, NULL);
  return out->e != NULL;
}

static bool valid_identifier(const char *n) {
  if (!*n || !((*n >= 'a' && *n <= 'z') || (*n >= 'A' && *n <= 'Z') || *n == '_'))
    return false;
  for (; *n; n++)
    if (!((*n >= 'a' && *n <= 'z') || (*n >= 'A' && *n <= 'Z') || (*n >= '0' && *n <= '9') || *n == '_'))
      return false;
  return true;
}

/* A pyexpr value as a parameter value. */
static bool to_value(reader *r, const char *field, const pyx_value *v, wgp_tune_value *out) {
  char text[256];
  if (v->kind == PYX_LIST || v->kind == PYX_NONE)
    return rfail(r, WGP_ERR_INPUT, "%s: a value must be a number or a string, got '%s'", field, pyx_kind_name(v->kind));
  if (!pyx_str(v, text, sizeof text))
    return rfail(r, WGP_ERR_INPUT, "%s: a value longer than %zu characters", field, sizeof text - 1);
  out->text = strdup(text);
  if (!out->text)
    return rfail(r, WGP_ERR_NOMEM, "out of memory");
  if (v->kind == PYX_INT || v->kind == PYX_BOOL)
    out->kind = WGP_TUNE_INT, out->i = v->i, out->f = (double)v->i;
  else if (v->kind == PYX_FLOAT)
    out->kind = WGP_TUNE_FLOAT, out->f = v->f;
  else
    out->kind = WGP_TUNE_STRING;
  return true;
}

/* Whether VALUES[K]'s text is among those already in SET (open addressing
 * over indices into VALUES, SIZE a power of two, UINT32_MAX: empty); adds K
 * when not.  A parameter has at most 65,535 values: checking each against all
 * before it took 11 s for two of 60,000 here. */
static bool seen_before(uint32_t *set, size_t size, const wgp_tune_value *values, uint32_t k) {
  uint64_t h = 14695981039346656037ull; /* FNV-1a */
  for (const char *c = values[k].text; *c; c++)
    h = (h ^ (unsigned char)*c) * 1099511628211ull;
  for (size_t at = (size_t)h & (size - 1);; at = (at + 1) & (size - 1)) {
    if (set[at] == UINT32_MAX) {
      set[at] = k;
      return false;
    }
    if (strcmp(values[set[at]].text, values[k].text) == 0)
      return true;
  }
}

static bool read_param(reader *r, json_t *j, size_t i) {
  char field[96];
  snprintf(field, sizeof field, "TuningParameters[%zu]", i);
  if (!json_is_object(j))
    return rfail(r, WGP_ERR_INPUT, "%s: expected an object with Name and Values", field);
  static const char *const param_keys[] = {"Name", "Type", "Values", "Default", NULL};
  if (!keys_cased(r, j, field, param_keys))
    return false;
  json_t *name = json_object_get(j, "Name"), *values = json_object_get(j, "Values");
  if (!json_is_string(name))
    return rfail(r, WGP_ERR_INPUT, "%s: no Name (a string)", field);
  const char *n = json_string_value(name);
  if (!valid_identifier(n))
    return rfail(r, WGP_ERR_INPUT, "%s: Name '%s' is not an identifier (it becomes a #define)", field, n);
  if (wgp_tune_space_find_param(r->s, n) != SIZE_MAX)
    return rfail(r, WGP_ERR_INPUT, "%s: parameter '%s' is defined twice", field, n);
  sp_param *p = &r->s->params[i];
  p->name = strdup(n);
  if (!p->name)
    return rfail(r, WGP_ERR_NOMEM, "out of memory");
  r->s->nparams = i + 1; /* visible to wgp_tune_space_find_param from now on */
  snprintf(field, sizeof field, "TuningParameters[%zu] (%s).Values", i, n);
  pyx_arena *a = pyx_arena_new();
  if (!a)
    return rfail(r, WGP_ERR_NOMEM, "out of memory");
  pyx_value list;
  bool ok = true;
  pyx_value *tmp = NULL;
  pyx_expr *e = NULL; /* freed at the end: the values' strings are its literals */
  if (json_is_string(values)) {
    char err[PYX_ERR_SIZE];
    const char *text = json_string_value(values);
    e = pyx_parse(text, err);
    /* one list at most PYX_MAX_STEPS (its memory), all together r->steps */
    uint64_t steps = r->steps < PYX_MAX_STEPS ? r->steps : PYX_MAX_STEPS, given = steps;
    if (!e) {
      ok = rfail(r, WGP_ERR_INPUT, "%s '%s': %s", field, text, err);
    } else if (!pyx_eval(e, NULL, a, &list, &steps, err)) {
      r->steps -= given - steps;
      ok = r->steps == 0 ? rfail(r, WGP_ERR_INPUT, "%s '%s': the Values lists take more than %llu steps of evaluation",
                                 field, text, (unsigned long long)r->steps_given)
                         : rfail(r, WGP_ERR_INPUT, "%s '%s': %s", field, text, err);
    } else {
      r->steps -= given - steps;
      if (list.kind != PYX_LIST)
        ok = rfail(r, WGP_ERR_INPUT, "%s '%s': expected a list, got '%s'", field, text, pyx_kind_name(list.kind));
    }
  } else if (json_is_array(values)) {
    size_t n2 = json_array_size(values);
    tmp = calloc(n2 ? n2 : 1, sizeof *tmp);
    if (!tmp)
      ok = rfail(r, WGP_ERR_NOMEM, "out of memory");
    for (size_t k = 0; ok && k < n2; k++) {
      json_t *x = json_array_get(values, k);
      if (json_is_integer(x))
        tmp[k] = (pyx_value){.kind = PYX_INT, .i = json_integer_value(x)};
      else if (json_is_real(x))
        tmp[k] = (pyx_value){.kind = PYX_FLOAT, .f = json_real_value(x)};
      else if (json_is_boolean(x))
        tmp[k] = (pyx_value){.kind = PYX_BOOL, .i = json_is_true(x)};
      else if (json_is_string(x))
        tmp[k] = (pyx_value){.kind = PYX_STR, .s = json_string_value(x)};
      else
        ok = rfail(r, WGP_ERR_INPUT, "%s[%zu]: a value must be a number or a string", field, k);
    }
    list = (pyx_value){.kind = PYX_LIST, .n = n2, .items = tmp};
  } else {
    ok = rfail(r, WGP_ERR_INPUT, "%s: expected a list expression (a string) or a JSON array", field);
  }
  if (ok && list.n == 0)
    ok = rfail(r, WGP_ERR_INPUT, "%s: the parameter has no values", field);
  if (ok && list.n > UINT16_MAX)
    ok = rfail(r, WGP_ERR_INPUT, "%s: %zu values (at most %u)", field, list.n, UINT16_MAX);
  uint32_t *set = NULL;
  size_t set_size = 16;
  if (ok) {
    while (set_size < 2 * list.n)
      set_size *= 2;
    p->values = calloc(list.n, sizeof *p->values);
    p->pyvalues = calloc(list.n, sizeof *p->pyvalues);
    set = malloc(set_size * sizeof *set);
    if (!p->values || !p->pyvalues || !set)
      ok = rfail(r, WGP_ERR_NOMEM, "out of memory");
    else
      memset(set, 0xff, set_size * sizeof *set);
  }
  for (size_t k = 0; ok && k < list.n; k++) {
    ok = to_value(r, field, &list.items[k], &p->values[k]);
    p->nvalues = ok ? k + 1 : k;
    if (!ok)
      break;
    if (seen_before(set, set_size, p->values, (uint32_t)k))
      ok = rfail(r, WGP_ERR_INPUT, "%s: value %s is listed twice", field, p->values[k].text);
    const wgp_tune_value *v = &p->values[k];
    p->pyvalues[k] = v->kind == WGP_TUNE_INT     ? (pyx_value){.kind = list.items[k].kind == PYX_BOOL ? PYX_BOOL : PYX_INT,
                                                                .i = v->i}
                     : v->kind == WGP_TUNE_FLOAT ? (pyx_value){.kind = PYX_FLOAT, .f = v->f}
                                                 : (pyx_value){.kind = PYX_STR, .s = v->text};
  }
  p->all = (pyx_value){.kind = PYX_LIST, .n = p->nvalues, .items = p->pyvalues};
  free(set);
  free(tmp);
  pyx_free(e);
  pyx_arena_free(a);
  return ok;
}

static bool read_cond(reader *r, json_t *j, size_t i) {
  char field[64];
  snprintf(field, sizeof field, "Conditions[%zu]", i);
  static const char *const cond_keys[] = {"Expression", "Parameters", NULL};
  if (!keys_cased(r, j, field, cond_keys))
    return false;
  json_t *e = json_is_object(j) ? json_object_get(j, "Expression") : json_is_string(j) ? j : NULL;
  if (!json_is_string(e))
    return rfail(r, WGP_ERR_INPUT, "%s: no Expression (a string)", field);
  json_t *ps = json_is_object(j) ? json_object_get(j, "Parameters") : NULL;
  if (ps && !json_is_array(ps))
    return rfail(r, WGP_ERR_INPUT, "%s.Parameters: expected a list of parameter names", field);
  for (size_t k = 0; ps && k < json_array_size(ps); k++) {
    json_t *x = json_array_get(ps, k);
    if (!json_is_string(x))
      return rfail(r, WGP_ERR_INPUT, "%s.Parameters[%zu]: expected a parameter name", field, k);
    if (wgp_tune_space_find_param(r->s, json_string_value(x)) == SIZE_MAX)
      return rfail(r, WGP_ERR_INPUT, "%s.Parameters[%zu]: unknown parameter '%s'", field, k, json_string_value(x));
  }
  sp_cond *c = &r->s->conds[i];
  c->field = fmt("%s.Expression", field);
  if (!c->field)
    return rfail(r, WGP_ERR_NOMEM, "out of memory");
  c->e = parse_checked(r, c->field, json_string_value(e), false, &c->depth);
  r->s->nconds = i + 1;
  return c->e != NULL;
}

/* Element bytes of an Arguments Type: C and numpy names, with an OpenCL/CUDA
 * vector width (float4); 0 for an unknown type.  OPENCL: a 3-vector takes a
 * 4-vector's room (OpenCL's rule); CUDA's float3 is three floats, 12 bytes. */
static uint64_t type_bytes(const char *t, bool opencl) {
  static const struct {
    const char *name;
    uint64_t bytes;
  } types[] = {{"float", 4},  {"float32", 4}, {"single", 4},  {"double", 8},  {"float64", 8}, {"half", 2},
               {"float16", 2}, {"int", 4},    {"int32", 4},   {"uint32", 4},  {"uint", 4},    {"unsigned", 4},
               {"long", 8},   {"int64", 8},   {"uint64", 8},  {"ulong", 8},   {"size_t", 8},  {"short", 2},
               {"int16", 2},  {"uint16", 2},  {"ushort", 2},  {"char", 1},    {"int8", 1},    {"uint8", 1},
               {"uchar", 1},  {"bool", 1},    {"bfloat16", 2}};
  char base[32];
  size_t n = strlen(t);
  if (n == 0 || n >= sizeof base)
    return 0;
  memcpy(base, t, n + 1);
  uint64_t width = 1;
  /* a vector type: float4, int2 (not int16/int32/float16/...) */
  for (size_t k = 0; k < sizeof types / sizeof *types; k++)
    if (strcasecmp(base, types[k].name) == 0)
      return types[k].bytes;
  size_t d = n;
  while (d > 0 && base[d - 1] >= '0' && base[d - 1] <= '9')
    d--;
  if (d < n) {
    width = strtoull(base + d, NULL, 10);
    base[d] = '\0';
    if (width != 2 && width != 3 && width != 4 && width != 8 && width != 16)
      return 0;
    for (size_t k = 0; k < sizeof types / sizeof *types; k++)
      if (strcasecmp(base, types[k].name) == 0)
        return types[k].bytes * (width == 3 && opencl ? 4 : width);
  }
  return 0;
}

static bool add_string(reader *r, char ***v, size_t *n, const char *s);

static bool read_args(reader *r, json_t *args) {
  if (!args)
    return true;
  if (!json_is_array(args))
    return rfail(r, WGP_ERR_INPUT, "KernelSpecification.Arguments: expected a list");
  size_t n = json_array_size(args);
  if (n > 32)
    return rfail(r, WGP_ERR_INPUT, "KernelSpecification.Arguments: %zu arguments (at most 32)", n);
  r->s->args = calloc(n ? n : 1, sizeof *r->s->args);
  if (!r->s->args)
    return rfail(r, WGP_ERR_NOMEM, "out of memory");
  for (size_t i = 0; i < n; i++) {
    json_t *a = json_array_get(args, i);
    char field[96];
    snprintf(field, sizeof field, "Arguments[%zu]", i);
    if (!json_is_object(a))
      return rfail(r, WGP_ERR_INPUT, "%s: expected an object", field);
    static const char *const arg_keys[] = {"Name",     "Type", "MemoryType", "AccessType", "FillType", "FillValue",
                                            "Size",     "TypeSize", "MemType", "Value",  "Output",   NULL};
    json_t *name = json_object_get(a, "Name"), *type = json_object_get(a, "Type"),
           *mem = json_object_get(a, "MemoryType");
    char named[160];
    snprintf(named, sizeof named, "%s%s%.64s%s", field, json_is_string(name) ? " (" : "",
             json_is_string(name) ? json_string_value(name) : "", json_is_string(name) ? ")" : "");
    if (!keys_cased(r, a, named, arg_keys))
      return false;
    if (json_is_string(mem) && strcasecmp(json_string_value(mem), "Symbol") == 0) {
      /* KTT: a global the host sets by name (cudaMemcpyToSymbol), not a kernel
       * argument; its data reach no prediction (loaded values are unknown) */
      if (!json_is_string(name) || !*json_string_value(name))
        return rfail(r, WGP_ERR_INPUT, "%s: a Symbol argument needs the Name of the global it sets", field);
      if (!add_string(r, &r->s->symbols, &r->s->nsymbols, json_string_value(name)))
        return false;
      continue;
    }
    sp_arg *x = &r->s->args[r->s->nargs++];
    x->name = strdup(json_is_string(name) ? json_string_value(name) : "");
    x->type = strdup(json_is_string(type) ? json_string_value(type) : "");
    if (!x->name || !x->type)
      return rfail(r, WGP_ERR_NOMEM, "out of memory");
    if (*x->name)
      snprintf(field, sizeof field, "Arguments[%zu] (%s)", i, x->name);
    const char *m = json_is_string(mem) ? json_string_value(mem) : "Vector";
    if (strcasecmp(m, "Vector") == 0 || strcasecmp(m, "Local") == 0) {
      x->kind = strcasecmp(m, "Local") == 0 ? WGP_TUNE_ARG_LOCAL : WGP_TUNE_ARG_BUFFER;
      x->elem_bytes = type_bytes(x->type, r->s->language == WGP_SOURCE_OPENCL);
      if (strcasecmp(x->type, "custom") == 0) {
        json_t *ts = json_object_get(a, "TypeSize");
        /* KTT's T1 schema: a type of the user's own, TypeSize bytes each */
        if (!json_is_integer(ts) || json_integer_value(ts) < 1 || json_integer_value(ts) > 1 << 20)
          return rfail(r, WGP_ERR_INPUT, "%s: a custom Type needs a TypeSize (bytes per element, 1 to 1048576)",
                       field);
        x->elem_bytes = (uint64_t)json_integer_value(ts);
      }
      if (!x->elem_bytes)
        return rfail(r, WGP_ERR_INPUT, "%s.Type: unknown type '%s' (float, double, half, int32, int64, uint8, ... or "
                                       "a vector such as float4)",
                     field, x->type);
      json_t *size = json_object_get(a, "Size");
      if (!size)
        return rfail(r, WGP_ERR_INPUT, "%s: a %s argument needs a Size (elements)", field, m);
      char sf[128];
      snprintf(sf, sizeof sf, "%s.Size", field);
      if (!read_expr(r, size, sf, &x->size))
        return false;
      json_t *ft = json_object_get(a, "FillType"), *fv = json_object_get(a, "FillValue");
      const char *fill = json_is_string(ft) ? json_string_value(ft) : "Constant";
      /* data from elsewhere (KTT's T1 schema: a generator, a script, a raw or HDF5 file): the contents do not
       * reach a prediction (loaded values are unknown to the model whatever they are); plans refuse them */
      static const char *const elsewhere[] = {"Generator", "Script", "BinaryRaw", "BinaryHDF"};
      for (size_t q = 0; x->kind == WGP_TUNE_ARG_BUFFER && q < sizeof elsewhere / sizeof *elsewhere; q++)
        if (strcasecmp(fill, elsewhere[q]) == 0)
          x->fill_from = elsewhere[q];
      if (x->kind == WGP_TUNE_ARG_BUFFER && !x->fill_from && strcasecmp(fill, "Random") && strcasecmp(fill, "Constant"))
        return rfail(r, WGP_ERR_INPUT,
                     "%s.FillType: '%s' is not Random, Constant, Generator, Script, BinaryRaw or BinaryHDF", field,
                     fill);
      if (fv && json_is_string(fv))
        return rfail(r, WGP_ERR_INPUT, "%s.FillValue: \"%.64s\" is a string, not a number: write it without quotes",
                     field, json_string_value(fv));
      if (fv && !json_is_number(fv))
        return rfail(r, WGP_ERR_INPUT, "%s.FillValue: expected a number", field);
      x->random = strcasecmp(fill, "Random") == 0;
      json_t *mt = json_object_get(a, "MemType");
      x->constant = json_is_string(mt) && strcasecmp(json_string_value(mt), "Constant") == 0;
      x->value = fv ? json_number_value(fv) : x->random ? 1 : 0;
    } else if (strcasecmp(m, "Scalar") == 0) {
      x->kind = WGP_TUNE_ARG_SCALAR;
      json_t *v = json_object_get(a, "FillValue");
      if (!v)
        v = json_object_get(a, "Value");
      if (json_is_string(v))
        return rfail(r, WGP_ERR_INPUT, "%s: FillValue \"%.64s\" is a string, not a number: write it without quotes",
                     field, json_string_value(v));
      if (!json_is_number(v))
        return rfail(r, WGP_ERR_INPUT, "%s: a Scalar argument needs a FillValue (a number)", field);
      x->value = json_number_value(v);
    } else {
      return rfail(r, WGP_ERR_INPUT, "%s.MemoryType: '%s' is not Vector, Scalar, Local or Symbol%s", field, m,
                   strcasecmp(m, "Constant") == 0
                       ? " (a __constant__ array: MemoryType Vector with MemType Constant, as Kernel Tuner's "
                         "cmem_args, or MemoryType Symbol, as KTT's)"
                       : "");
    }
  }
  return true;
}

/* LocalSize / GlobalSize {X, Y, Z}. */
static bool read_xyz(reader *r, json_t *j, const char *what, sp_expr out[3]) {
  if (!json_is_object(j))
    return rfail(r, WGP_ERR_INPUT, "KernelSpecification.%s: expected an object with X, Y and Z", what);
  static const char *const keys[3] = {"X", "Y", "Z"};
  for (int d = 0; d < 3; d++) {
    json_t *v = json_object_get(j, keys[d]);
    char field[64];
    snprintf(field, sizeof field, "%s.%s", what, keys[d]);
    if (!v) {
      out[d].field = strdup(field);
      out[d].constant = 1;
      if (!out[d].field)
        return rfail(r, WGP_ERR_NOMEM, "out of memory");
    } else if (!read_expr(r, v, field, &out[d])) {
      return false;
    }
  }
  return true;
}

static bool add_string(reader *r, char ***v, size_t *n, const char *s) {
  char **g = realloc(*v, (*n + 1) * sizeof *g);
  if (!g)
    return rfail(r, WGP_ERR_NOMEM, "out of memory");
  *v = g;
  if (!(g[*n] = strdup(s)))
    return rfail(r, WGP_ERR_NOMEM, "out of memory");
  (*n)++;
  return true;
}

static bool read_spec(reader *r, json_t *k) {
  wgp_tune_space *s = r->s;
  if (!json_is_object(k))
    return rfail(r, WGP_ERR_INPUT, "no KernelSpecification (an object)");
  static const char *const spec_keys[] = {"Language",   "CompilerOptions", "BenchmarkName", "KernelName",
                                          "KernelFile", "KernelTypeNames", "GlobalSizeType", "LocalSize",
                                          "GlobalSize", "GridDivX",        "GridDivY",       "GridDivZ",
                                          "ProblemSize", "SharedMemory",   "Arguments",      NULL};
  static const char *const xyz_keys[] = {"X", "Y", "Z", NULL};
  if (!keys_cased(r, k, "KernelSpecification", spec_keys) ||
      !keys_cased(r, json_object_get(k, "LocalSize"), "KernelSpecification.LocalSize", xyz_keys) ||
      !keys_cased(r, json_object_get(k, "GlobalSize"), "KernelSpecification.GlobalSize", xyz_keys))
    return false;
  json_t *lang = json_object_get(k, "Language");
  const char *l = json_is_string(lang) ? json_string_value(lang) : "";
  if (strcasecmp(l, "CUDA") == 0)
    s->language = WGP_SOURCE_CUDA;
  else if (strcasecmp(l, "OpenCL") == 0)
    s->language = WGP_SOURCE_OPENCL;
  else if (!lang)
    return rfail(r, WGP_ERR_INPUT, "KernelSpecification: no Language (CUDA or OpenCL)");
  else
    return rfail(r, WGP_ERR_INPUT, "KernelSpecification.Language: '%s' is not CUDA or OpenCL", l);
  json_t *kn = json_object_get(k, "KernelName");
  if (json_is_string(kn) && !(s->kernel_name = strdup(json_string_value(kn))))
    return rfail(r, WGP_ERR_NOMEM, "out of memory");
  /* KTT's template arguments: the kernel is the instance KernelName<T1, T2, ...> */
  json_t *tn = json_object_get(k, "KernelTypeNames");
  if (tn && !json_is_null(tn) && !(json_is_array(tn) && (json_array_size(tn) == 0 || s->kernel_name)))
    return rfail(r, WGP_ERR_INPUT,
                 "KernelSpecification.KernelTypeNames: expected a list of template arguments (strings) of KernelName");
  if (json_is_array(tn) && json_array_size(tn) > 0) {
    if (s->language != WGP_SOURCE_CUDA)
      return rfail(r, WGP_ERR_INPUT,
                   "KernelSpecification.KernelTypeNames: template kernels are CUDA's, the Language is OpenCL");
    size_t len = strlen(s->kernel_name) + 3;
    for (size_t i = 0; i < json_array_size(tn); i++) {
      json_t *x = json_array_get(tn, i);
      if (!json_is_string(x) || !*json_string_value(x))
        return rfail(r, WGP_ERR_INPUT,
                     "KernelSpecification.KernelTypeNames[%zu]: expected a template argument (a non-empty string)", i);
      len += strlen(json_string_value(x)) + 2;
    }
    char *name = malloc(len);
    if (!name)
      return rfail(r, WGP_ERR_NOMEM, "out of memory");
    size_t at = (size_t)snprintf(name, len, "%s<", s->kernel_name);
    for (size_t i = 0; i < json_array_size(tn); i++)
      at += (size_t)snprintf(name + at, len - at, "%s%s", i ? ", " : "", json_string_value(json_array_get(tn, i)));
    snprintf(name + at, len - at, ">");
    free(s->kernel_name);
    s->kernel_name = name;
  }
  json_t *kf = json_object_get(k, "KernelFile");
  if (json_is_string(kf) || json_is_array(kf)) {
    size_t n = json_is_string(kf) ? 1 : json_array_size(kf);
    for (size_t i = 0; i < n; i++) {
      json_t *x = json_is_string(kf) ? kf : json_array_get(kf, i);
      if (!json_is_string(x))
        return rfail(r, WGP_ERR_INPUT, "KernelSpecification.KernelFile: expected a file name or a list of them");
      const char *f = json_string_value(x);
      char *path = f[0] == '/' || !*s->dir ? strdup(f) : fmt("%s/%s", s->dir, f);
      if (!path || !add_string(r, &s->files, &s->nfiles, path)) {
        free(path);
        return rfail(r, WGP_ERR_NOMEM, "out of memory");
      }
      free(path);
    }
  }
  json_t *co = json_object_get(k, "CompilerOptions");
  for (size_t i = 0; json_is_array(co) && i < json_array_size(co); i++) {
    json_t *x = json_array_get(co, i);
    if (!json_is_string(x))
      return rfail(r, WGP_ERR_INPUT, "KernelSpecification.CompilerOptions[%zu]: expected a string", i);
    const char *o = json_string_value(x);
    /* nvcc's and NVRTC's options with a clang equivalent the model follows
     * (-use_fast_math, -ftz=true, -fmad=false, -prec-div=false,
     * -prec-sqrt=false), as wgperf's
     * command line takes them after '--'; a plan keeps them as written */
    const char *as[2];
    size_t nas = s->language == WGP_SOURCE_CUDA ? wgp_nvcc_clang_equivalent(o, NULL, as) : 0;
    if (nas) {
      if (!add_string(r, &s->translated, &s->ntranslated, o) ||
          !add_string(r, &s->clang_only, &s->nclang_only, as[0]) ||
          (nas == 2 && !add_string(r, &s->clang_only, &s->nclang_only, as[1])))
        return false;
      continue;
    }
    /* nvcc's -Xptxas LIST (=LIST, or LIST as the next option;
     * --ptxas-options the same) with a -dlcm=OP, -dscm=OP or -maxrregcount=N:
     * those are the driver's (recorded in the model, as after wgperf's '--'),
     * the rest of the list is not passed; a plan keeps the option as written.
     * Without any of them, it is nvcc's own, as before. */
    bool xptxas = strcmp(o, "-Xptxas") == 0 || strcmp(o, "--ptxas-options") == 0;
    json_t *nx = json_array_get(co, i + 1);
    const char *list = xptxas ? (json_is_string(nx) ? json_string_value(nx) : NULL)
                       : strncmp(o, "-Xptxas=", 8) == 0 || strncmp(o, "--ptxas-options=", 16) == 0 ? strchr(o, '=') + 1
                                                                                               : NULL;
    size_t own = 0;
    for (const char *p = list; s->language == WGP_SOURCE_CUDA && p && *p;) {
      size_t len = strcspn(p, ",");
      char *piece = fmt("%.*s", (int)len, p);
      if (!piece)
        return rfail(r, WGP_ERR_NOMEM, "out of memory");
      const char *want;
      bool mine = wgp_driver_option(piece, NULL, &want);
      if (mine && want) {
        rfail(r, WGP_ERR_INPUT, "KernelSpecification.CompilerOptions[%zu]: '%s': expected %s", i, piece, want);
        free(piece);
        return false;
      }
      bool ok = !mine || add_string(r, &s->clang_only, &s->nclang_only, piece);
      free(piece);
      if (!ok)
        return false;
      own += mine;
      p += len + (p[len] == ',');
    }
    if (own) {
      if (!add_string(r, &s->translated, &s->ntranslated, o) ||
          (xptxas && !add_string(r, &s->translated, &s->ntranslated, list)))
        return false;
      i += xptxas;
      continue;
    }
    /* OpenCL's build options that change what the compiler may make of the
     * arithmetic (clang reads them as the OpenCL standard defines them) */
    static const char *const cl_math[] = {"-cl-fast-relaxed-math", "-cl-mad-enable", "-cl-unsafe-math-optimizations",
                                          "-cl-finite-math-only", "-cl-no-signed-zeros", "-cl-denorms-are-zero",
                                          "-cl-fp32-correctly-rounded-divide-sqrt", "-cl-single-precision-constant"};
    bool clang = (o[0] == '-' && (o[1] == 'D' || o[1] == 'U' || o[1] == 'I') && o[2]) || strncmp(o, "-std=", 5) == 0;
    /* nvcc's -maxrregcount, NVIDIA OpenCL's -cl-nv-maxrregcount (=N, or N as
     * the next option): the driver takes it for nvcc and ptxas and records it
     * in the model */
    const char *next = json_is_string(nx) ? json_string_value(nx) : NULL;
    long count;
    size_t took = wgp_maxrregcount_option(o, next, &count);
    if (took && (strncmp(o, "-cl-nv-", 7) == 0) == (s->language == WGP_SOURCE_OPENCL)) {
      if (count < 0)
        return rfail(r, WGP_ERR_INPUT,
                     "KernelSpecification.CompilerOptions[%zu]: '%s%s%s': expected a number of registers per thread, "
                     "1 to 255",
                     i, o, took == 2 ? " " : "", took == 2 ? next : "");
      if (!add_string(r, &s->flags, &s->nflags, o) ||
          (took == 2 && (i++, !add_string(r, &s->flags, &s->nflags, next))))
        return false;
      continue;
    }
    for (size_t q = 0; s->language == WGP_SOURCE_OPENCL && q < sizeof cl_math / sizeof *cl_math; q++)
      clang = clang || strcmp(o, cl_math[q]) == 0;
    if (!add_string(r, clang ? &s->flags : &s->ignored, clang ? &s->nflags : &s->nignored, o))
      return false;
  }
  json_t *gst = json_object_get(k, "GlobalSizeType");
  s->global_in_blocks = !json_is_string(gst) || strcasecmp(json_string_value(gst), "OpenCL") != 0;
  json_t *ls = json_object_get(k, "LocalSize"), *gs = json_object_get(k, "GlobalSize");
  if (ls && !(s->has_local = true && read_xyz(r, ls, "LocalSize", s->local)))
    return false;
  if (gs && !(s->has_global = true && read_xyz(r, gs, "GlobalSize", s->global)))
    return false;
  static const char *const gd[3] = {"GridDivX", "GridDivY", "GridDivZ"};
  for (int d = 0; d < 3; d++) {
    json_t *g = json_object_get(k, gd[d]);
    if (!g)
      continue;
    if (!json_is_array(g))
      return rfail(r, WGP_ERR_INPUT, "KernelSpecification.%s: expected a list of parameter names or expressions",
                   gd[d]);
    s->has_griddiv = true;
    s->ngriddiv[d] = json_array_size(g);
    s->griddiv[d] = calloc(s->ngriddiv[d] ? s->ngriddiv[d] : 1, sizeof *s->griddiv[d]);
    if (!s->griddiv[d])
      return rfail(r, WGP_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < s->ngriddiv[d]; i++) {
      char field[64];
      snprintf(field, sizeof field, "%s[%zu]", gd[d], i);
      if (!read_expr(r, json_array_get(g, i), field, &s->griddiv[d][i]))
        return false;
    }
  }
  json_t *ps = json_object_get(k, "ProblemSize");
  if (ps && (json_is_number(ps) || json_is_string(ps))) {
    /* one size, as Kernel Tuner takes problem_size=n for (n,) (BAT's pnpoly space writes it so) */
    s->nproblem = 1;
    if (!read_expr(r, ps, "ProblemSize[0]", &s->problem[0]))
      return false;
  } else if (ps) {
    if (!json_is_array(ps) || json_array_size(ps) < 1 || json_array_size(ps) > 3)
      return rfail(r, WGP_ERR_INPUT, "KernelSpecification.ProblemSize: expected a size or a list of 1 to 3 sizes");
    s->nproblem = json_array_size(ps);
    for (size_t d = 0; d < s->nproblem; d++) {
      char field[32];
      snprintf(field, sizeof field, "ProblemSize[%zu]", d);
      if (!read_expr(r, json_array_get(ps, d), field, &s->problem[d]))
        return false;
    }
  }
  for (size_t d = s->nproblem; d < 3; d++) {
    s->problem[d].constant = 1;
    if (!(s->problem[d].field = fmt("ProblemSize[%zu]", d)))
      return rfail(r, WGP_ERR_NOMEM, "out of memory");
  }
  if (!ps && !s->has_global)
    return rfail(r, WGP_ERR_INPUT, "KernelSpecification: no ProblemSize (or GlobalSize): the grid is unknown");
  json_t *sm = json_object_get(k, "SharedMemory");
  if (sm && !json_is_null(sm)) {
    if (!read_expr(r, sm, "SharedMemory", &s->shared))
      return false;
  } else if (!(s->shared.field = strdup("SharedMemory"))) {
    return rfail(r, WGP_ERR_NOMEM, "out of memory");
  }
  return read_args(r, json_object_get(k, "Arguments"));
}

wgp_status wgp_tune_space_load_string(const char *text, size_t len, const char *name, const char *dir, wgp_tune_space **out,
                                      wgp_diag *diag) {
  return sp_load_string(text, len, name, dir, SP_VALUES_STEPS, out, diag);
}

wgp_status sp_load_string(const char *text, size_t len, const char *name, const char *dir, uint64_t steps,
                          wgp_tune_space **out, wgp_diag *diag) {
  *out = NULL;
  wgp_tune_space *s = calloc(1, sizeof *s);
  if (!s)
    return nomem(diag);
  s->file = strdup(name);
  s->dir = strdup(dir ? dir : "");
  if (!s->file || !s->dir) {
    wgp_tune_space_free(s);
    return nomem(diag);
  }
  reader r = {s, diag, WGP_OK, steps, steps};
  json_error_t je;
  json_t *root = json_loadb(text, len, 0, &je);
  if (!root) {
    rfail(&r, WGP_ERR_INPUT, "line %d, column %d: malformed JSON: %s", je.line, je.column, je.text);
  } else if (!json_is_object(root)) {
    rfail(&r, WGP_ERR_INPUT, "expected a T1 object (ConfigurationSpace, KernelSpecification)");
  } else {
    json_t *cs = json_object_get(root, "ConfigurationSpace");
    json_t *tp = json_is_object(cs) ? json_object_get(cs, "TuningParameters") : NULL;
    json_t *conds = json_is_object(cs) ? json_object_get(cs, "Conditions") : NULL;
    json_t *gen = json_object_get(root, "General");
    json_t *bn = json_is_object(gen) ? json_object_get(gen, "BenchmarkName") : NULL;
    /* BAT's older files: their own names under a lower-case key, not T1's in another case */
    json_t *bat = json_object_get(root, "kernelSpecification");
    if (json_is_object(bat) && !json_object_get(root, "KernelSpecification") &&
        (json_object_get(bat, "blockSize") || json_object_get(bat, "gridSize")))
      rfail(&r, WGP_ERR_INPUT,
            "'kernelSpecification' with blockSize and gridSize is the older schema of BAT's benchmarks, which wgtune "
            "does not read: T1 writes KernelSpecification with Language, KernelName, LocalSize, GlobalSize (or "
            "ProblemSize and GridDivX/Y/Z), SharedMemory and Arguments (each with MemoryType and a Size)");
    /* a key in another case first: it would be found missing below */
    static const char *const root_keys[] = {"General", "ConfigurationSpace", "KernelSpecification", NULL};
    static const char *const cs_keys[] = {"TuningParameters", "Conditions", NULL};
    static const char *const gen_keys[] = {"BenchmarkName", "OutputFormat", NULL};
    if (keys_cased(&r, root, "", root_keys) && keys_cased(&r, cs, "ConfigurationSpace", cs_keys))
      keys_cased(&r, gen, "General", gen_keys);
    if (r.st != WGP_OK)
      ;
    else if (!json_is_object(cs))
      rfail(&r, WGP_ERR_INPUT, "no ConfigurationSpace (an object)");
    else if (!json_is_array(tp) || json_array_size(tp) == 0)
      rfail(&r, WGP_ERR_INPUT, "ConfigurationSpace.TuningParameters: expected a list of parameters");
    else if (conds && !json_is_array(conds))
      rfail(&r, WGP_ERR_INPUT, "ConfigurationSpace.Conditions: expected a list");
    /* restrictions under another name would be dropped without a word and
     * the space ranked larger than it is (BAT's builtin_vectors writes
     * Constraints): T1 reads Conditions only */
    static const char *const other[] = {"Constraints", "constraints", "Restrictions", "restrictions", "conditions"};
    for (size_t q = 0; r.st == WGP_OK && json_is_object(cs) && q < sizeof other / sizeof *other; q++) {
      json_t *o = json_object_get(cs, other[q]);
      if (o && !(json_is_array(o) && json_array_size(o) == 0))
        rfail(&r, WGP_ERR_INPUT,
              "ConfigurationSpace.%s: T1 names the restrictions Conditions (a list of Python expressions); %s is "
              "not read, and the space would be ranked without them",
              other[q], other[q]);
    }
    if (r.st == WGP_OK) {
      size_t np = json_array_size(tp), nc = conds ? json_array_size(conds) : 0;
      s->params = calloc(np, sizeof *s->params);
      s->conds = calloc(nc ? nc : 1, sizeof *s->conds);
      if (!s->params || !s->conds)
        rfail(&r, WGP_ERR_NOMEM, "out of memory");
      for (size_t i = 0; r.st == WGP_OK && i < np; i++)
        read_param(&r, json_array_get(tp, i), i);
      for (size_t i = 0; r.st == WGP_OK && i < nc; i++)
        read_cond(&r, json_array_get(conds, i), i);
    }
    if (r.st == WGP_OK)
      read_spec(&r, json_object_get(root, "KernelSpecification"));
    if (r.st == WGP_OK) {
      const char *b = json_is_string(bn) ? json_string_value(bn) : s->kernel_name ? s->kernel_name : "kernel";
      if (!(s->benchmark = strdup(b)))
        rfail(&r, WGP_ERR_NOMEM, "out of memory");
    }
  }
  json_decref(root);
  if (r.st != WGP_OK) {
    wgp_tune_space_free(s);
    return r.st;
  }
  *out = s;
  return WGP_OK;
}

wgp_status wgp_tune_space_load_file(const char *file, wgp_tune_space **out, wgp_diag *diag) {
  *out = NULL;
  char *text;
  size_t len;
  wgp_status st = wgp_read_file(file, &text, &len, diag);
  if (st != WGP_OK)
    return st;
  char *dir = strdup(file);
  if (!dir) {
    free(text);
    return nomem(diag);
  }
  char *slash = strrchr(dir, '/');
  if (slash == dir)
    dir[1] = '\0';
  else if (slash)
    *slash = '\0';
  else
    dir[0] = '\0';
  st = wgp_tune_space_load_string(text, len, file, dir, out, diag);
  free(dir);
  free(text);
  return st;
}

/* ---- accessors ------------------------------------------------------------------ */

const char *wgp_tune_space_name(const wgp_tune_space *s) { return s->file; }
const char *wgp_tune_space_benchmark(const wgp_tune_space *s) { return s->benchmark; }
size_t wgp_tune_space_num_params(const wgp_tune_space *s) { return s->nparams; }
const char *wgp_tune_space_param(const wgp_tune_space *s, size_t p) { return s->params[p].name; }
size_t wgp_tune_space_num_values(const wgp_tune_space *s, size_t p) { return s->params[p].nvalues; }
const wgp_tune_value *wgp_tune_space_value(const wgp_tune_space *s, size_t p, size_t v) { return &s->params[p].values[v]; }
const char *wgp_tune_space_kernel_name(const wgp_tune_space *s) { return s->kernel_name; }
wgp_source_kind wgp_tune_space_language(const wgp_tune_space *s) { return s->language; }
size_t wgp_tune_space_num_kernel_files(const wgp_tune_space *s) { return s->nfiles; }
const char *wgp_tune_space_kernel_file(const wgp_tune_space *s, size_t i) { return s->files[i]; }
size_t wgp_tune_space_num_compiler_flags(const wgp_tune_space *s) { return s->nflags; }
size_t wgp_tune_space_num_symbols(const wgp_tune_space *s) { return s->nsymbols; }
const char *wgp_tune_space_symbol(const wgp_tune_space *s, size_t i) { return s->symbols[i]; }
const char *wgp_tune_space_compiler_flag(const wgp_tune_space *s, size_t i) { return s->flags[i]; }
size_t wgp_tune_space_num_translated_options(const wgp_tune_space *s) { return s->ntranslated; }
const char *wgp_tune_space_translated_option(const wgp_tune_space *s, size_t i) { return s->translated[i]; }
size_t wgp_tune_space_num_clang_only_flags(const wgp_tune_space *s) { return s->nclang_only; }
const char *wgp_tune_space_clang_only_flag(const wgp_tune_space *s, size_t i) { return s->clang_only[i]; }
size_t wgp_tune_space_num_ignored_options(const wgp_tune_space *s) { return s->nignored; }
const char *wgp_tune_space_ignored_option(const wgp_tune_space *s, size_t i) { return s->ignored[i]; }

/* ---- enumeration ------------------------------------------------------------------ */

typedef struct enumerator {
  const wgp_tune_space *s;
  uint16_t *cur;
  uint16_t *rows;
  size_t count, cap;
  pyx_arena *a;
  env_ctx env;
  pyx_env penv;
  uint64_t steps, steps_given; /* left, and given (SP_ENUM_STEPS) */
  size_t max_configs;            /* SP_MAX_CONFIGS */
  wgp_diag *diag;
  wgp_status st;
} enumerator;

/* The size of the Cartesian product of the values (UINT64_MAX past it). */
static uint64_t raw_product(const wgp_tune_space *s) {
  uint64_t product = 1;
  for (size_t p = 0; p < s->nparams; p++)
    product = product > UINT64_MAX / s->params[p].nvalues ? UINT64_MAX : product * s->params[p].nvalues;
  return product;
}

/* Whether every condition of depth D holds for the parameters 0..D of E->cur. */
static bool conds_hold(enumerator *e, size_t d) {
  const wgp_tune_space *s = e->s;
  e->env.known = d == SIZE_MAX ? 0 : d + 1;
  for (size_t c = 0; c < s->nconds; c++) {
    if (s->conds[c].depth != d)
      continue;
    pyx_value v;
    char err[PYX_ERR_SIZE];
    pyx_arena_reset(e->a);
    uint64_t steps = e->steps < SP_COND_STEPS ? e->steps : SP_COND_STEPS, given = steps;
    bool ok = pyx_eval(s->conds[c].e, &e->penv, e->a, &v, &steps, err);
    e->steps -= given - steps;
    if (!ok) {
      if (e->steps == 0) {
        uint64_t product = raw_product(s);
        e->st = wgp_diag_set(e->diag, WGP_ERR_INPUT,
                             "wgperf: error: %s: checking the conditions takes more than %llu steps of evaluation "
                             "(%llu combinations of the values); a condition is checked as soon as the parameters "
                             "it reads are set, so list the parameters the conditions restrict most first",
                             s->file, (unsigned long long)e->steps_given, (unsigned long long)product);
        return false;
      }
      char cfg[512];
      config_text_n(s, e->cur, e->env.known, cfg, sizeof cfg); /* the parameters assigned so far */
      e->st = wgp_diag_set(e->diag, WGP_ERR_INPUT, "wgperf: error: %s: %s '%s': %s (for %s)", s->file,
                           s->conds[c].field, pyx_text(s->conds[c].e), err, *cfg ? cfg : "every configuration");
      return false;
    }
    if (!pyx_truthy(&v))
      return false;
  }
  return true;
}

static bool descend(enumerator *e, size_t d) {
  const wgp_tune_space *s = e->s;
  if (d == s->nparams) {
    if (e->count == e->max_configs) {
      e->st = wgp_diag_set(e->diag, WGP_ERR_INPUT,
                           "wgperf: error: %s: more than %zu configurations satisfy the conditions (of %llu "
                           "combinations of the values): the space is enumerated before any sample is drawn, so "
                           "--sample does not avoid this; restrict it with Conditions or fewer Values",
                           s->file, e->max_configs, (unsigned long long)raw_product(s));
      return false;
    }
    if (e->count == e->cap) {
      size_t cap = e->cap ? 2 * e->cap : 1024;
      uint16_t *r = realloc(e->rows, cap * s->nparams * sizeof *r);
      if (!r) {
        e->st = nomem(e->diag);
        return false;
      }
      e->rows = r, e->cap = cap;
    }
    memcpy(e->rows + e->count * s->nparams, e->cur, s->nparams * sizeof *e->cur);
    e->count++;
    return true;
  }
  for (size_t v = 0; v < s->params[d].nvalues; v++) {
    e->cur[d] = (uint16_t)v;
    if (conds_hold(e, d)) {
      if (!descend(e, d + 1))
        return false;
    } else if (e->st != WGP_OK) {
      return false;
    }
  }
  return true;
}

wgp_status wgp_tune_space_enumerate(const wgp_tune_space *s, uint16_t **idx, size_t *count, uint64_t *raw, wgp_diag *diag) {
  return sp_enumerate(s, SP_ENUM_STEPS, SP_MAX_CONFIGS, idx, count, raw, diag);
}

wgp_status sp_enumerate(const wgp_tune_space *s, uint64_t steps, size_t max_configs, uint16_t **idx, size_t *count,
                        uint64_t *raw, wgp_diag *diag) {
  *idx = NULL;
  *count = 0;
  uint64_t product = raw_product(s);
  if (raw)
    *raw = product;
  enumerator e = {.s = s, .steps = steps, .steps_given = steps, .max_configs = max_configs, .diag = diag, .st = WGP_OK};
  e.cur = calloc(s->nparams, sizeof *e.cur);
  e.a = pyx_arena_new();
  e.env = (env_ctx){.s = s, .config = e.cur};
  e.penv = (pyx_env){env_find, env_values, &e.env};
  if (!e.cur || !e.a) {
    free(e.cur);
    pyx_arena_free(e.a);
    return nomem(diag);
  }
  if (s->nconds == 0 && product > max_configs) /* no condition can bring it down: said before any work */
    e.st = wgp_diag_set(diag, WGP_ERR_INPUT,
                        "wgperf: error: %s: %llu combinations of the values and no Conditions: more than the %zu "
                        "configurations wgtune enumerates (before any sample is drawn, so --sample does not avoid "
                        "this); restrict the space with Conditions or fewer Values",
                        s->file, (unsigned long long)product, max_configs);
  else if (conds_hold(&e, SIZE_MAX)) /* conditions of no parameter */
    descend(&e, 0);
  free(e.cur);
  pyx_arena_free(e.a);
  if (e.st != WGP_OK) {
    free(e.rows);
    return e.st;
  }
  if (e.count == 0) {
    free(e.rows);
    return wgp_diag_set(diag, WGP_ERR_INPUT,
                        "wgperf: error: %s: no configuration satisfies the conditions (%llu combinations of the "
                        "values, %zu condition%s)",
                        s->file, (unsigned long long)product, s->nconds, s->nconds == 1 ? "" : "s");
  }
  *idx = e.rows;
  *count = e.count;
  return WGP_OK;
}

/* ---- launches ------------------------------------------------------------------------ */

typedef struct lctx {
  const wgp_tune_space *s;
  const uint16_t *config;
  env_ctx env;
  pyx_env penv;
  pyx_arena *a;
  wgp_diag *diag;
  wgp_status st;
} lctx;

/* X's value for the configuration as a number; fails naming the field. */
static bool value_of(lctx *c, const sp_expr *x, double *out, bool *integral, int64_t *iv) {
  if (!x->e) {
    *out = (double)x->constant, *iv = x->constant, *integral = true;
    return true;
  }
  pyx_value v;
  char err[PYX_ERR_SIZE];
  pyx_arena_reset(c->a);
  uint64_t steps = SP_LAUNCH_STEPS;
  if (!pyx_eval(x->e, &c->penv, c->a, &v, &steps, err) || !pyx_as_number(&v, out)) {
    char cfg[512];
    sp_config_text(c->s, c->config, cfg, sizeof cfg);
    if (!err[0])
      snprintf(err, sizeof err, "a number was expected, got '%s'", pyx_kind_name(v.kind));
    c->st = wgp_diag_set(c->diag, WGP_ERR_INPUT, "wgperf: error: %s: %s '%s': %s (for %s)", c->s->file, x->field,
                         pyx_text(x->e), err, cfg);
    return false;
  }
  *integral = pyx_as_int(&v, iv);
  return true;
}

/* X as a positive integer (sizes, block extents); a float with a fraction is
 * rounded up for a divisor's product only where the caller says so. */
static bool positive(lctx *c, const sp_expr *x, uint64_t *out) {
  double f;
  bool integral;
  int64_t iv;
  if (!value_of(c, x, &f, &integral, &iv))
    return false;
  if (!integral || iv < 1) {
    char cfg[512];
    sp_config_text(c->s, c->config, cfg, sizeof cfg);
    c->st = wgp_diag_set(c->diag, WGP_ERR_INPUT, "wgperf: error: %s: %s%s%s%s: %.17g is not a positive integer (for %s)",
                         c->s->file, x->field, x->e ? " '" : "", x->e ? pyx_text(x->e) : "", x->e ? "'" : "", f, cfg);
    return false;
  }
  *out = (uint64_t)iv;
  return true;
}

wgp_status wgp_tune_space_launch(const wgp_tune_space *s, const uint16_t *config, wgp_tune_launch *out, wgp_diag *diag) {
  memset(out, 0, sizeof *out);
  lctx c = {.s = s, .config = config, .diag = diag, .st = WGP_OK};
  c.env = (env_ctx){.s = s, .config = config, .known = s->nparams, .problem = true};
  c.penv = (pyx_env){env_find, env_values, &c.env};
  c.a = pyx_arena_new();
  if (!c.a)
    return nomem(diag);
  uint64_t problem[3] = {1, 1, 1};
  for (size_t d = 0; d < 3 && c.st == WGP_OK; d++)
    if (d < s->nproblem && !positive(&c, &s->problem[d], &problem[d]))
      break;
  for (size_t d = 0; d < s->nproblem; d++)
    c.env.problem_items[d] = (pyx_value){.kind = PYX_INT, .i = (int64_t)problem[d]};
  c.env.problem_list = (pyx_value){.kind = PYX_LIST, .n = s->nproblem, .items = c.env.problem_items};
  /* the block */
  static const char *const bnames[3] = {"block_size_x", "block_size_y", "block_size_z"};
  for (int d = 0; d < 3 && c.st == WGP_OK; d++) {
    if (s->has_local) {
      positive(&c, &s->local[d], &out->block[d]);
    } else {
      size_t p = wgp_tune_space_find_param(s, bnames[d]);
      out->block[d] = d == 0 ? 256 : 1;
      if (p != SIZE_MAX) {
        const wgp_tune_value *v = &s->params[p].values[config[p]];
        if (v->kind != WGP_TUNE_INT || v->i < 1)
          c.st = wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: %s: parameter %s = %s is not a block size", s->file,
                              bnames[d], v->text);
        else
          out->block[d] = (uint64_t)v->i;
      }
    }
  }
  /* the grid */
  for (int d = 0; d < 3 && c.st == WGP_OK; d++) {
    if (s->has_griddiv || !s->has_global) {
      double div = 1;
      if (s->ngriddiv[d]) {
        for (size_t i = 0; i < s->ngriddiv[d] && c.st == WGP_OK; i++) {
          double f;
          bool integral;
          int64_t iv;
          if (value_of(&c, &s->griddiv[d][i], &f, &integral, &iv) && !(f > 0)) {
            char cfg[512];
            sp_config_text(s, config, cfg, sizeof cfg);
            c.st = wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: %s: %s: %.17g is not a positive divisor (for %s)",
                                s->file, s->griddiv[d][i].field, f, cfg);
          }
          div *= f;
        }
      } else {
        div = (double)out->block[d];
      }
      double g = ceil((double)problem[d] / div);
      if (c.st == WGP_OK && !(g < 0x1p64)) { /* a divisor near 0: converting it would be undefined */
        char cfg[512];
        sp_config_text(s, config, cfg, sizeof cfg);
        c.st = wgp_diag_set(diag, WGP_ERR_INPUT,
                            "wgperf: error: %s: ProblemSize / GridDiv%c gives a grid of %.17g blocks (for %s)", s->file,
                            "XYZ"[d], g, cfg);
      }
      if (c.st == WGP_OK)
        out->grid[d] = (uint64_t)g;
      if (out->grid[d] < 1)
        out->grid[d] = 1;
    } else {
      uint64_t g;
      if (positive(&c, &s->global[d], &g))
        out->grid[d] = s->global_in_blocks ? g : (g + out->block[d] - 1) / out->block[d];
    }
  }
  if (c.st == WGP_OK && (s->shared.e || s->shared.constant)) {
    double f;
    bool integral;
    int64_t iv;
    if (value_of(&c, &s->shared, &f, &integral, &iv)) {
      if (!integral || iv < 0) {
        char cfg[512];
        sp_config_text(s, config, cfg, sizeof cfg);
        c.st = wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: %s: SharedMemory: %.17g is not a byte count (for %s)",
                            s->file, f, cfg);
      } else {
        out->shared_bytes = (uint64_t)iv;
      }
    }
  }
  out->num_args = s->nargs;
  for (size_t i = 0; i < s->nargs && c.st == WGP_OK; i++) {
    const sp_arg *a = &s->args[i];
    wgp_tune_arg *o = &out->args[i];
    o->kind = a->kind;
    o->name = a->name;
    o->type = a->type;
    o->value = a->value;
    o->random = a->random;
    o->constant = a->constant;
    o->fill_from = a->fill_from;
    if (a->kind != WGP_TUNE_ARG_SCALAR) {
      uint64_t n;
      if (positive(&c, &a->size, &n)) {
        if (n > UINT64_MAX / a->elem_bytes)
          c.st = wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: %s: %s: too many bytes", s->file, a->size.field);
        else
          o->bytes = n * a->elem_bytes;
      }
    }
  }
  pyx_arena_free(c.a);
  return c.st;
}
