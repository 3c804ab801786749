/* plan_file.c - the measurement plan and the Kernel Tuner cache file of the
 * timing harnesses (plan_file.h; the format: tune/plan.c). */
#define _POSIX_C_SOURCE 200809L
#include "plan_file.h"
#include "files_internal.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *g_prefix = "wgperf-measure";

static int plan_error(const char *file, size_t line, const char *fmt, ...) {
  if (!g_prefix) /* quiet (the fuzz target) */
    return -1;
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "%s: error: %s", g_prefix, file);
  if (line)
    fprintf(stderr, ":%zu", line);
  fputs(": ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  return -1;
}

/* Splits LINE at tabs in place: up to MAX fields in F; the count. */
static size_t split_tabs(char *line, char **f, size_t max) {
  size_t n = 0;
  for (char *p = line; n < max;) {
    f[n++] = p;
    char *t = strchr(p, '\t');
    if (!t)
      break;
    *t = 0;
    p = t + 1;
  }
  return n;
}

static int parse_size(const char *s, unsigned long long *out) {
  char *end;
  errno = 0;
  if (!*s || *s == '-')
    return -1;
  unsigned long long v = strtoull(s, &end, 10);
  if (*end || errno)
    return -1;
  *out = v;
  return 0;
}

/* "X,Y,Z" of positive sizes. */
static int parse_xyz(const char *s, size_t out[3]) {
  char buf[96];
  snprintf(buf, sizeof buf, "%s", s);
  char *f[4];
  size_t n = 0;
  for (char *p = buf; n < 4;) {
    f[n++] = p;
    char *c = strchr(p, ',');
    if (!c)
      break;
    *c = 0;
    p = c + 1;
  }
  unsigned long long v;
  if (n != 3)
    return -1;
  for (size_t d = 0; d < 3; d++) {
    if (parse_size(f[d], &v) || v == 0 || v > (1ull << 40))
      return -1;
    out[d] = (size_t)v;
  }
  return 0;
}

/* Whether V fits the element E of EB bytes (plan_element). */
static bool fits(const char *e, size_t eb, double v) {
  if (!strcmp(e, "double"))
    return true;
  if (!strcmp(e, "float"))
    return fabs(v) <= FLT_MAX;
  if (!strcmp(e, "half"))
    return fabs(v) <= 65504;
  double top = ldexp(1, (int)(8 * eb)); /* 2^bits */
  return e[0] == 'u' ? v >= 0 && v < top : v >= -top / 2 && v < top / 2;
}

/* V (in E's range: fits()) as EB bytes of the integer element E at P. */
static void store_int(const char *e, size_t eb, double v, unsigned char *p) {
  unsigned long long u = e[0] == 'u' ? (unsigned long long)v : (unsigned long long)(long long)v;
  if (eb == 1) {
    unsigned char y = (unsigned char)u;
    memcpy(p, &y, 1);
  } else if (eb == 2) {
    unsigned short y = (unsigned short)u;
    memcpy(p, &y, 2);
  } else if (eb == 4) {
    unsigned int y = (unsigned int)u;
    memcpy(p, &y, 4);
  } else {
    memcpy(p, &u, 8);
  }
}

void plan_shuffle(plan *p) {
  uint64_t st = 0x6a09e667f3bcc909ULL;
  for (size_t i = p->ncfgs; i > 1; i--) {
    st ^= st >> 12, st ^= st << 25, st ^= st >> 27;
    size_t j = (size_t)((st * 0x2545F4914F6CDD1DULL) % i);
    plan_cfg t = p->cfgs[i - 1];
    p->cfgs[i - 1] = p->cfgs[j];
    p->cfgs[j] = t;
  }
}

void plan_free(plan *p) {
  for (size_t i = 0; i < p->nparams; i++)
    free(p->pvalues[i]);
  for (size_t i = 0; i < p->ncfgs; i++)
    free(p->cfgs[i].values);
  free(p->cfgs);
  free(p->text);
}

int plan_read(const char *prefix, const char *file, plan *p) {
  g_prefix = prefix;
  memset(p, 0, sizeof *p);
  p->file = file;
  FILE *f = fopen(file, "rb");
  if (!f)
    return plan_error(file, 0, "cannot open: %s", strerror(errno));
  size_t cap = 1 << 16, len = 0;
  char *text = malloc(cap);
  for (size_t k; text && (k = fread(text + len, 1, cap - len - 1, f)) > 0;) {
    len += k;
    if (len + 1 == cap) {
      char *g = realloc(text, cap *= 2);
      if (!g)
        free(text);
      text = g;
    }
  }
  bool bad = ferror(f);
  fclose(f);
  if (!text || bad) {
    free(text);
    return plan_error(file, 0, bad ? "cannot read" : "out of memory");
  }
  return plan_parse(prefix, file, text, len, p);
}

/* A C identifier: what a #define can name. */
static bool identifier(const char *s) {
  if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_'))
    return false;
  for (s++; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_'))
      return false;
  return true;
}

int plan_parse(const char *prefix, const char *file, char *text, size_t len, plan *p) {
  g_prefix = prefix;
  memset(p, 0, sizeof *p);
  p->file = file;
  p->text = text;
  p->text[len] = 0;
  if (memchr(p->text, 0, len))
    return plan_error(file, 0, "not a plan: it holds a NUL byte (write one with wgtune --plan)");
  size_t capc = 0, line = 0;
  bool header = false;
  char *save = p->text;
  while (save && *save) {
    char *l = save;
    char *nl = strchr(l, '\n');
    save = nl ? nl + 1 : NULL;
    if (nl)
      *nl = 0;
    line++;
    size_t ll = strlen(l);
    if (ll && l[ll - 1] == '\r')
      l[--ll] = 0;
    if (!*l || *l == '#')
      continue;
    char *fld[PLAN_MAX_PARAMS + 8];
    size_t n = split_tabs(l, fld, sizeof fld / sizeof *fld);
    const char *w = fld[0];
    if (!header) {
      if (strcmp(w, "wgperf-plan") || n != 2)
        return plan_error(file, line, "not a plan: it starts with '%.40s', not 'wgperf-plan' (write one with wgtune "
                                      "--plan)", w);
      if (strcmp(fld[1], "1"))
        return plan_error(file, line, "plan version '%s': %s reads version 1", fld[1], g_prefix);
      header = true;
      continue;
    }
    if (p->declared_seen && strcmp(w, "config"))
      return plan_error(file, line, "'%s' after the configurations began", w);
    if (!strcmp(w, "space") || !strcmp(w, "benchmark") || !strcmp(w, "kernel") || !strcmp(w, "language")) {
      if (n != 2 || !*fld[1])
        return plan_error(file, line, "'%s' takes one value", w);
      const char **slot = !strcmp(w, "space") ? &p->space : !strcmp(w, "benchmark") ? &p->benchmark
                          : !strcmp(w, "kernel")                                    ? &p->kernel
                                                                                    : &p->language;
      *slot = fld[1];
      if (slot == &p->language && strcmp(fld[1], "opencl") && strcmp(fld[1], "cuda"))
        return plan_error(file, line, "language '%s' is not opencl or cuda", fld[1]);
    } else if (!strcmp(w, "file") || !strcmp(w, "flag")) {
      bool isfile = !strcmp(w, "file");
      if (n != 2 || !*fld[1])
        return plan_error(file, line, "'%s' takes one value", w);
      if ((isfile ? p->nfiles : p->nflags) == (isfile ? PLAN_MAX_FILES : PLAN_MAX_FLAGS))
        return plan_error(file, line, "too many %ss (at most %d)", w, isfile ? PLAN_MAX_FILES : PLAN_MAX_FLAGS);
      if (isfile)
        p->files[p->nfiles++] = fld[1];
      else
        p->flags[p->nflags++] = fld[1];
    } else if (!strcmp(w, "param")) {
      if (n < 3)
        return plan_error(file, line, "'param' takes a name and its values");
      if (p->nparams == PLAN_MAX_PARAMS)
        return plan_error(file, line, "too many parameters (at most %d)", PLAN_MAX_PARAMS);
      if (!identifier(fld[1]))
        return plan_error(file, line, "parameter '%s' is not an identifier (it becomes a #define)", fld[1]);
      for (size_t q = 0; q < p->nparams; q++)
        if (!strcmp(p->pname[q], fld[1]))
          return plan_error(file, line, "parameter '%s' twice", fld[1]);
      size_t k = p->nparams++;
      p->pname[k] = fld[1];
      if (!(p->pvalues[k] = malloc((n - 2) * sizeof(char *))))
        return plan_error(file, line, "out of memory");
      for (size_t v = 2; v < n; v++)
        p->pvalues[k][v - 2] = fld[v];
      p->npvalues[k] = n - 2;
    } else if (!strcmp(w, "arg")) {
      if (n != 6)
        return plan_error(file, line, "'arg' takes a name, kind, type, fill and value");
      if (p->nargs == PLAN_MAX_ARGS)
        return plan_error(file, line, "too many arguments (at most %d)", PLAN_MAX_ARGS);
      plan_arg *a = &p->args[p->nargs++];
      a->name = fld[1], a->kind = fld[2], a->type = fld[3], a->fill = fld[4];
      char *end;
      a->value = strtod(fld[5], &end);
      if (*end || !*fld[5] || !isfinite(a->value))
        return plan_error(file, line, "argument '%s': value '%s' is not a number", a->name, fld[5]);
      size_t eb = 0;
      const char *el = plan_element(a->type, &eb);
      if (el && !fits(el, eb, a->value))
        return plan_error(file, line, "argument '%s': value %s does not fit its type %s", a->name, fld[5], a->type);
      if (strcmp(a->kind, "buffer") && strcmp(a->kind, "constant") && strcmp(a->kind, "scalar") &&
          strcmp(a->kind, "local"))
        return plan_error(file, line, "argument '%s': kind '%s' is not buffer, constant, scalar or local", a->name,
                          a->kind);
      if (strcmp(a->fill, "random") && strcmp(a->fill, "constant"))
        return plan_error(file, line, "argument '%s': fill '%s' is not random or constant", a->name, a->fill);
    } else if (!strcmp(w, "configurations")) {
      unsigned long long a, b;
      if (n != 3 || parse_size(fld[1], &a) || parse_size(fld[2], &b) || a > b)
        return plan_error(file, line, "'configurations' takes the count and the space's total");
      p->declared = (size_t)a, p->total = (size_t)b, p->declared_seen = true;
    } else if (!strcmp(w, "config")) {
      if (!p->declared_seen)
        return plan_error(file, line, "a 'config' before 'configurations'");
      if (n != 6 + p->nparams)
        return plan_error(file, line, "'config' has %zu fields, expected %zu (index, grid, block, shared memory, "
                                      "bytes, and a value for each of the %zu parameters)",
                          n, 6 + p->nparams, p->nparams);
      if (p->ncfgs == p->declared)
        return plan_error(file, line, "more configurations than the %zu declared", p->declared);
      if (p->ncfgs == capc) {
        capc = capc ? 2 * capc : 256;
        plan_cfg *g = realloc(p->cfgs, capc * sizeof *g);
        if (!g)
          return plan_error(file, line, "out of memory");
        p->cfgs = g;
      }
      plan_cfg *c = &p->cfgs[p->ncfgs];
      memset(c, 0, sizeof *c);
      unsigned long long v;
      if (parse_size(fld[1], &v))
        return plan_error(file, line, "index '%s' is not a number", fld[1]);
      c->index = (size_t)v;
      if (parse_xyz(fld[2], c->grid) || parse_xyz(fld[3], c->block))
        return plan_error(file, line, "grid '%s' or block '%s' is not X,Y,Z of positive sizes", fld[2], fld[3]);
      if (parse_size(fld[4], &c->shared))
        return plan_error(file, line, "shared memory '%s' is not a byte count", fld[4]);
      char *b = fld[5];
      for (size_t a = 0; a < p->nargs; a++) {
        char *comma = strchr(b, ',');
        if ((comma != NULL) != (a + 1 < p->nargs))
          return plan_error(file, line, "bytes '%s': expected one size for each of the %zu arguments", fld[5],
                            p->nargs);
        if (comma)
          *comma = 0;
        if (parse_size(b, &c->bytes[a]))
          return plan_error(file, line, "bytes: '%s' is not a byte count", b);
        if (strcmp(p->args[a].kind, "scalar") && c->bytes[a] == 0)
          return plan_error(file, line, "argument '%s' has no bytes", p->args[a].name);
        b = comma ? comma + 1 : b;
      }
      if (!(c->values = malloc((p->nparams ? p->nparams : 1) * sizeof(char *))))
        return plan_error(file, line, "out of memory");
      p->ncfgs++;
      for (size_t k = 0; k < p->nparams; k++) {
        c->values[k] = fld[6 + k];
        if (!*c->values[k] || strchr(c->values[k], ','))
          return plan_error(file, line, "parameter %s: value '%s' is empty or holds a comma", p->pname[k],
                            c->values[k]);
      }
    } else {
      return plan_error(file, line, "unknown line '%s'", w);
    }
  }
  if (!header)
    return plan_error(file, 0, "not a plan: it is empty (write one with wgtune --plan)");
  if (!p->kernel || !p->language || p->nfiles == 0 || !p->declared_seen)
    return plan_error(file, 0, "incomplete: it needs kernel, language, file and configurations lines (write one with "
                               "wgtune --plan)");
  if (p->ncfgs != p->declared)
    return plan_error(file, 0, "%zu configurations declared, %zu given: the plan is cut short", p->declared,
                      p->ncfgs);
  return 0;
}

/* ---- JSON out, by hand ----------------------------------------------------------- */

static void json_str(FILE *f, const char *s) {
  fputc('"', f);
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '"' || *p == '\\')
      fprintf(f, "\\%c", *p);
    else if (*p < 0x20)
      fprintf(f, "\\u%04x", *p);
    else
      fputc(*p, f);
  }
  fputc('"', f);
}

/* TEXT as a JSON number where it is one (32, 1.5, -2e-05), else as a string. */
static void json_value(FILE *f, const char *t) {
  const char *p = t;
  if (*p == '-')
    p++;
  bool ok = *p >= '0' && *p <= '9';
  if (ok && *p == '0' && p[1] >= '0' && p[1] <= '9')
    ok = false;
  while (ok && *p >= '0' && *p <= '9')
    p++;
  if (ok && *p == '.') {
    p++;
    ok = *p >= '0' && *p <= '9';
    while (ok && *p >= '0' && *p <= '9')
      p++;
  }
  if (ok && (*p == 'e' || *p == 'E')) {
    p++;
    if (*p == '+' || *p == '-')
      p++;
    ok = *p >= '0' && *p <= '9';
    while (ok && *p >= '0' && *p <= '9')
      p++;
  }
  if (ok && !*p)
    fputs(t, f);
  else
    json_str(f, t);
}

void plan_one_line(char *s) {
  size_t n = 0;
  for (char *p = s; *p; p++) {
    if (*p == '\n' || *p == '\r' || *p == '\t')
      *p = ' ';
    if (*p != ' ' || (n && s[n - 1] != ' '))
      s[n++] = *p; /* runs of blanks as one */
  }
  while (n && s[n - 1] == ' ')
    n--;
  s[n] = 0;
}

double plan_mean(const plan_result *r) {
  double sum = 0;
  for (int k = 0; k < r->n; k++)
    sum += r->times[k];
  return r->n ? sum / r->n : 0;
}

void plan_stamp(char *out, size_t len) {
  time_t t = time(NULL);
  struct tm tm;
  gmtime_r(&t, &tm);
  strftime(out, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

int plan_write_cache(const char *prefix, const plan_device *d, const plan *p, const plan_result *res, const char *out,
                     int repeats, const char *started, size_t measured) {
  g_prefix = prefix ? prefix : "wgperf";
  char tmp[4200];
  snprintf(tmp, sizeof tmp, "%s.tmp", out);
  FILE *f = fopen(tmp, "w");
  if (!f)
    return plan_error(out, 0, "cannot write: %s", strerror(errno));
  fputs("{\n\"device_name\": ", f);
  json_str(f, d->name);
  fputs(",\n\"kernel_name\": ", f);
  json_str(f, p->kernel);
  fputs(",\n\"tune_params_keys\": [", f);
  for (size_t k = 0; k < p->nparams; k++) {
    fputs(k ? ", " : "", f);
    json_str(f, p->pname[k]);
  }
  fputs("],\n\"tune_params\": {", f);
  for (size_t k = 0; k < p->nparams; k++) {
    fputs(k ? ", " : "", f);
    json_str(f, p->pname[k]);
    fputs(": [", f);
    for (size_t v = 0; v < p->npvalues[k]; v++) {
      fputs(v ? ", " : "", f);
      json_value(f, p->pvalues[k][v]);
    }
    fputc(']', f);
  }
  fputs("},\n\"objective\": \"time\",\n\"wgperf\": {\"harness\": ", f);
  json_str(f, d->harness);
  fputs(", \"plan\": ", f);
  json_str(f, p->file);
  fputs(", \"space\": ", f);
  json_str(f, p->space ? p->space : "");
  fputs(", \"platform\": ", f);
  json_str(f, d->platform);
  fputs(", \"driver\": ", f);
  json_str(f, d->driver);
  fprintf(f, ", \"not_a_gpu\": %s, \"repeats\": %d, \"started\": \"%s\", \"planned\": %zu, \"measured\": %zu",
          d->not_a_gpu ? "true" : "false", repeats, started, p->ncfgs, measured);
  if (d->cc[0])
    fprintf(f, ", \"compute_capability\": \"%s\"", d->cc);
  fputs("},\n\"cache\": {", f);
  bool first = true;
  for (size_t i = 0; i < p->ncfgs; i++) {
    const plan_result *r = &res[i];
    if (!r->done)
      continue;
    const plan_cfg *c = &p->cfgs[i];
    char key[4096];
    size_t len = 0;
    for (size_t k = 0; k < p->nparams && len < sizeof key; k++)
      len += (size_t)snprintf(key + len, sizeof key - len, "%s%s", k ? "," : "", c->values[k]);
    fputs(first ? "\n" : ",\n", f);
    first = false;
    json_str(f, key);
    fputs(": {", f);
    for (size_t k = 0; k < p->nparams; k++) {
      json_str(f, p->pname[k]);
      fputs(": ", f);
      json_value(f, c->values[k]);
      fputs(", ", f);
    }
    if (r->failure) {
      fprintf(f, "\"time\": \"%s\", \"wgperf_reason\": ", r->failure);
      json_str(f, r->reason);
    } else {
      fprintf(f, "\"time\": %.9g, \"times\": [", plan_mean(r));
      for (int k = 0; k < r->n; k++)
        fprintf(f, "%s%.9g", k ? ", " : "", r->times[k]);
      fputc(']', f);
    }
    fprintf(f, ", \"compile_time\": %.6g, \"benchmark_time\": %.6g, \"framework_time\": %.6g, \"timestamp\": \"%s\"}",
            r->compile_ms, r->bench_ms, r->frame_ms, r->stamp);
  }
  fputs("\n}\n}\n", f);
  if (fclose(f) != 0 || wgp_move_into(tmp, out) != 0) {
    remove(tmp);
    return plan_error(out, 0, "cannot write: %s", strerror(errno));
  }
  return 0;
}


double plan_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The element of a Kernel Tuner Type (numpy or C names, with a vector width) as
 * one of float, double, half, i8..i64, u8..u64; the element's bytes. */
const char *plan_element(const char *type, size_t *bytes) {
  static const struct {
    const char *name, *elem;
    size_t bytes;
  } t[] = {{"float", "float", 4}, {"float32", "float", 4}, {"single", "float", 4}, {"double", "double", 8},
           {"float64", "double", 8}, {"half", "half", 2}, {"float16", "half", 2}, {"bfloat16", "half", 2},
           {"int", "i32", 4}, {"int32", "i32", 4}, {"uint", "u32", 4}, {"uint32", "u32", 4}, {"unsigned", "u32", 4},
           {"long", "i64", 8}, {"int64", "i64", 8}, {"ulong", "u64", 8}, {"uint64", "u64", 8}, {"size_t", "u64", 8},
           {"short", "i16", 2}, {"int16", "i16", 2}, {"ushort", "u16", 2}, {"uint16", "u16", 2}, {"char", "i8", 1},
           {"int8", "i8", 1}, {"uchar", "u8", 1}, {"uint8", "u8", 1}, {"bool", "u8", 1}};
  char base[32];
  snprintf(base, sizeof base, "%s", type);
  size_t n = strlen(base);
  for (int pass = 0; pass < 2; pass++) {
    for (size_t k = 0; k < sizeof t / sizeof *t; k++)
      if (!strcmp(base, t[k].name)) {
        *bytes = t[k].bytes;
        return t[k].elem;
      }
    while (n > 0 && base[n - 1] >= '0' && base[n - 1] <= '9') /* float4 -> float */
      base[--n] = 0;
  }
  return NULL;
}

static uint64_t next_random(uint64_t *s) {
  *s ^= *s >> 12, *s ^= *s << 25, *s ^= *s >> 27;
  return *s * 0x2545F4914F6CDD1DULL;
}

/* BYTES of arguments A's elements: its value, or random ones up to it. */
void plan_fill(void *host, size_t bytes, const plan_arg *a, uint64_t seed) {
  size_t eb = 1;
  const char *e = plan_element(a->type, &eb);
  bool random = !strcmp(a->fill, "random");
  uint64_t s = seed | 1;
  if (!e || !fits(e, eb, a->value)) { /* a type the harness does not know: bytes */
    for (size_t i = 0; i < bytes; i++)
      ((unsigned char *)host)[i] = random ? (unsigned char)(next_random(&s) >> 56) : 0;
    return;
  }
  double top = a->value > 0 ? a->value : 1;
  for (size_t i = 0; i + eb <= bytes; i += eb) {
    double v = random ? (double)((next_random(&s) >> 40) + 1) / 16777216.0 * top : a->value;
    unsigned char *p = (unsigned char *)host + i;
    if (!strcmp(e, "float")) {
      float x = (float)fmin(v, FLT_MAX);
      memcpy(p, &x, 4);
    } else if (!strcmp(e, "double")) {
      memcpy(p, &v, 8);
    } else if (!strcmp(e, "half")) {
      unsigned short h = random ? (unsigned short)(0x3c00 | (next_random(&s) >> 54)) : (v == 0 ? 0 : 0x3c00);
      memcpy(p, &h, 2);
    } else {
      double x = random ? floor(v) : trunc(v);
      if (!fits(e, eb, x)) /* top rounded up to the type's bound */
        x = a->value;
      store_int(e, eb, x, p);
    }
  }
}

/* The source: the plan's files in order, each found where the plan says or,
 * with KDIR, under that folder by its base name. */
char *plan_sources(const char *prefix, const plan *p, const char *kdir) {
  g_prefix = prefix ? prefix : "wgperf";
  size_t cap = 1 << 16, len = 0;
  char *src = malloc(cap);
  for (size_t i = 0; src && i < p->nfiles; i++) {
    char path[4200];
    const char *f = p->files[i];
    if (kdir) {
      const char *b = strrchr(f, '/');
      snprintf(path, sizeof path, "%s/%s", kdir, b ? b + 1 : f);
      f = path;
    }
    FILE *in = fopen(f, "rb");
    if (!in) {
      plan_error(f, 0, "cannot open (a kernel file of %s%s): %s", p->file, kdir ? "" : "; --kernel-dir DIR looks for "
                                                                               "the files in DIR",
                 strerror(errno));
      free(src);
      return NULL;
    }
    for (size_t k;;) {
      if (cap - len < 4096) {
        char *g = realloc(src, cap *= 2);
        if (!g) {
          free(src);
          src = NULL;
          break;
        }
        src = g;
      }
      if ((k = fread(src + len, 1, cap - len - 2, in)) == 0)
        break;
      len += k;
    }
    fclose(in);
    if (src)
      src[len++] = '\n';
  }
  if (src)
    src[len] = 0;
  else
    fprintf(stderr, "%s: error: out of memory reading the kernel files\n", prefix);
  return src;
}

int plan_scalar(const plan_arg *a, unsigned char buf[8], size_t *size, char *why, size_t wl) {
  size_t eb = 0;
  const char *e = plan_element(a->type, &eb);
  double v = a->value;
  if (!e || !strcmp(e, "half")) {
    snprintf(why, wl, "argument '%s': type '%s' cannot be set", a->name, a->type);
    return -1;
  }
  if (!fits(e, eb, v)) {
    snprintf(why, wl, "argument '%s': value %g does not fit its type %s", a->name, v, a->type);
    return -1;
  }
  if (!strcmp(e, "float")) {
    float x = (float)v;
    memcpy(buf, &x, 4);
  } else if (!strcmp(e, "double")) {
    memcpy(buf, &v, 8);
  } else {
    if (v != floor(v)) {
      snprintf(why, wl, "argument '%s' is %s, its value %g is not an integer", a->name, a->type, v);
      return -1;
    }
    store_int(e, eb, v, buf);
  }
  *size = eb;
  return 0;
}

int plan_jobs(int asked, int cap) {
  if (asked > 0)
    return asked > 256 ? 256 : asked;
  long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
  return ncpu > 2 ? (int)(ncpu - 1 > cap ? cap : ncpu - 1) : 1;
}

static void *ahead_worker(void *arg) {
  plan_ahead *a = arg;
  pthread_mutex_lock(&a->mu);
  for (;;) {
    while (!a->stop && a->next < a->n && a->next >= a->limit)
      pthread_cond_wait(&a->cv, &a->mu);
    if (a->stop || a->next >= a->n)
      break;
    size_t i = a->next++;
    pthread_mutex_unlock(&a->mu);
    a->work(a->ctx, i);
    pthread_mutex_lock(&a->mu);
    a->done[i] = true;
    pthread_cond_broadcast(&a->cv);
  }
  pthread_mutex_unlock(&a->mu);
  return NULL;
}

int plan_ahead_start(plan_ahead *a, size_t n, int jobs, size_t window, void (*work)(void *, size_t), void *ctx) {
  memset(a, 0, sizeof *a);
  a->work = work, a->ctx = ctx, a->n = n, a->window = window, a->limit = window;
  pthread_mutex_init(&a->mu, NULL);
  pthread_cond_init(&a->cv, NULL);
  if (!(a->done = calloc(n ? n : 1, sizeof *a->done)))
    return 0;
  for (int t = 0; t < jobs && t < 256; t++)
    a->nth += pthread_create(&a->th[a->nth], NULL, ahead_worker, a) == 0;
  return a->nth;
}

void plan_ahead_wait(plan_ahead *a, size_t i) {
  pthread_mutex_lock(&a->mu);
  if (i + a->window > a->limit)
    a->limit = i + a->window;
  pthread_cond_broadcast(&a->cv);
  while (!a->done[i])
    pthread_cond_wait(&a->cv, &a->mu);
  pthread_mutex_unlock(&a->mu);
}

void plan_ahead_finish(plan_ahead *a) {
  pthread_mutex_lock(&a->mu);
  a->stop = true;
  pthread_cond_broadcast(&a->cv);
  pthread_mutex_unlock(&a->mu);
  for (int t = 0; t < a->nth; t++)
    pthread_join(a->th[t], NULL);
  a->nth = 0;
  free(a->done);
  a->done = NULL;
  pthread_cond_destroy(&a->cv);
  pthread_mutex_destroy(&a->mu);
}
