/* wgb_table.c - result rows and their CSV form (see wgb_table.h). */
#define _POSIX_C_SOURCE 200809L
#include "wgb_table.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void wgb_table_init(wgb_table *t) { memset(t, 0, sizeof *t); }

void wgb_table_free(wgb_table *t) {
  for (size_t i = 0; i < t->nh; i++) {
    free(t->hkey[i]);
    free(t->hval[i]);
  }
  free(t->hkey);
  free(t->hval);
  free(t->rows);
  memset(t, 0, sizeof *t);
}

/* Copies S into a fixed field, turning commas and line breaks into ';' and ' ' so the
 * CSV stays one row per line with ten columns. */
static void put_field(char *dst, size_t n, const char *s) {
  size_t i = 0;
  for (; s && s[i] && i + 1 < n; i++)
    dst[i] = s[i] == ',' ? ';' : (s[i] == '\n' || s[i] == '\r') ? ' ' : s[i];
  dst[i] = 0;
}

int wgb_table_add(wgb_table *t, const wgb_row *r) {
  if (t->n == t->cap) {
    size_t cap = t->cap ? 2 * t->cap : 64;
    wgb_row *p = realloc(t->rows, cap * sizeof *p);
    if (!p)
      return -1;
    t->rows = p;
    t->cap = cap;
  }
  t->rows[t->n++] = *r;
  return 0;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y ? 1 : 0;
}

double wgb_median(double *v, int n) {
  if (n <= 0)
    return 0;
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static void row_init(wgb_row *r, const char *bench, const char *param, const char *unit, const char *note) {
  memset(r, 0, sizeof *r);
  put_field(r->bench, sizeof r->bench, bench);
  put_field(r->param, sizeof r->param, param);
  put_field(r->unit, sizeof r->unit, unit);
  put_field(r->note, sizeof r->note, note);
}

int wgb_table_add_stats(wgb_table *t, const char *bench, const char *param, const char *unit, const double *v,
                        int n, const char *note) {
  wgb_row r;
  row_init(&r, bench, param, unit, note);
  double *tmp = malloc((size_t)(n > 0 ? n : 1) * sizeof *tmp);
  if (!tmp)
    return -1;
  memcpy(tmp, v, (size_t)(n > 0 ? n : 0) * sizeof *tmp);
  r.median = wgb_median(tmp, n);
  r.min = n > 0 ? tmp[0] : 0;
  r.max = n > 0 ? tmp[n - 1] : 0;
  free(tmp);
  r.repeats = n;
  r.ok = true;
  return wgb_table_add(t, &r);
}

int wgb_table_add_value(wgb_table *t, const char *bench, const char *param, const char *unit, double value,
                        const char *note) {
  return wgb_table_add_stats(t, bench, param, unit, &value, 1, note);
}

int wgb_table_add_error(wgb_table *t, const char *bench, const char *param, const char *why) {
  wgb_row r;
  row_init(&r, bench, param, "", why);
  r.median = r.min = r.max = NAN;
  r.ok = false;
  return wgb_table_add(t, &r);
}

int wgb_table_set_header(wgb_table *t, const char *key, const char *value) {
  char buf[512];
  put_field(buf, sizeof buf, value);
  for (size_t i = 0; i < t->nh; i++)
    if (strcmp(t->hkey[i], key) == 0) {
      char *v = strdup(buf);
      if (!v)
        return -1;
      free(t->hval[i]);
      t->hval[i] = v;
      return 0;
    }
  if (t->nh == t->hcap) {
    size_t cap = t->hcap ? 2 * t->hcap : 32;
    char **k = realloc(t->hkey, cap * sizeof *k);
    if (!k)
      return -1;
    t->hkey = k;
    char **v = realloc(t->hval, cap * sizeof *v);
    if (!v)
      return -1;
    t->hval = v;
    t->hcap = cap;
  }
  t->hkey[t->nh] = strdup(key);
  t->hval[t->nh] = strdup(buf);
  if (!t->hkey[t->nh] || !t->hval[t->nh]) {
    free(t->hkey[t->nh]);
    free(t->hval[t->nh]);
    return -1;
  }
  t->nh++;
  return 0;
}

const char *wgb_table_header(const wgb_table *t, const char *key) {
  for (size_t i = 0; i < t->nh; i++)
    if (strcmp(t->hkey[i], key) == 0)
      return t->hval[i];
  return NULL;
}

void wgb_row_write_csv(const wgb_row *r, FILE *f) {
  if (r->ok)
    fprintf(f, "%s,%s,%.6g,%s,%.6g,%.6g,%.6g,%d,ok,%s\n", r->bench, r->param, r->median, r->unit, r->median, r->min,
            r->max, r->repeats, r->note);
  else
    fprintf(f, "%s,%s,,%s,,,,%d,error,%s\n", r->bench, r->param, r->unit, r->repeats, r->note);
}

int wgb_table_write_csv(const wgb_table *t, FILE *f) {
  /* a few pairs per line keep the header readable */
  for (size_t i = 0; i < t->nh; i++)
    fprintf(f, "%s%s=%s%s", i % 6 == 0 ? "# " : ", ", t->hkey[i], t->hval[i],
            (i % 6 == 5 || i + 1 == t->nh) ? "\n" : "");
  fprintf(f, "%s\n", WGB_CSV_COLUMNS);
  for (size_t i = 0; i < t->n; i++)
    wgb_row_write_csv(&t->rows[i], f);
  return ferror(f) ? -1 : 0;
}

static int set_err(char *err, size_t n, const char *fmt, ...) {
  if (err && n) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, n, fmt, ap);
    va_end(ap);
  }
  return -1;
}

static char *trim(char *s) {
  while (*s == ' ' || *s == '\t')
    s++;
  size_t n = strlen(s);
  while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r'))
    s[--n] = 0;
  return s;
}

/* "# a=1, b=2" */
static int read_header_line(wgb_table *t, char *line) {
  char *save = NULL;
  for (char *tok = strtok_r(line + 1, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    char *eq = strchr(tok, '=');
    if (!eq)
      continue;
    *eq = 0;
    char *k = trim(tok), *v = trim(eq + 1);
    if (*k && wgb_table_set_header(t, k, v))
      return -1;
  }
  return 0;
}

static bool parse_num(const char *s, double *out) {
  if (!*s)
    return false;
  char *end;
  errno = 0;
  double d = strtod(s, &end);
  if (errno || *end)
    return false;
  *out = d;
  return true;
}

int wgb_table_read_csv(wgb_table *t, const char *file, char *err, size_t errlen) {
  FILE *f = fopen(file, "r");
  if (!f)
    return set_err(err, errlen, "%s: cannot open: %s", file, strerror(errno));
  char *line = NULL;
  size_t cap = 0;
  long lineno = 0;
  bool columns = false;
  int rc = 0;
  while (getline(&line, &cap, f) > 0) {
    lineno++;
    char *s = trim(line);
    if (!*s)
      continue;
    if (*s == '#') {
      if (read_header_line(t, s)) {
        rc = set_err(err, errlen, "%s: out of memory", file);
        break;
      }
      continue;
    }
    if (!columns) {
      if (strcmp(s, WGB_CSV_COLUMNS) != 0) {
        rc = set_err(err, errlen, "%s:%ld: expected the column line '%s'", file, lineno, WGB_CSV_COLUMNS);
        break;
      }
      columns = true;
      continue;
    }
    char *fld[10];
    int nf = 0;
    char *p = s;
    while (nf < 9) {
      fld[nf++] = p;
      char *c = strchr(p, ',');
      if (!c)
        break;
      *c = 0;
      p = c + 1;
    }
    if (nf < 9) {
      rc = set_err(err, errlen, "%s:%ld: expected 10 columns, got %d", file, lineno, nf);
      break;
    }
    fld[9] = p; /* the note keeps any further commas */
    wgb_row r;
    row_init(&r, fld[0], fld[1], fld[3], fld[9]);
    if (!*fld[0]) {
      rc = set_err(err, errlen, "%s:%ld: empty benchmark name", file, lineno);
      break;
    }
    if (strcmp(fld[8], "ok") == 0) {
      r.ok = true;
      if (!parse_num(fld[4], &r.median) && !parse_num(fld[2], &r.median)) {
        rc = set_err(err, errlen, "%s:%ld: '%s' row has no median", file, lineno, fld[0]);
        break;
      }
      if (!parse_num(fld[5], &r.min))
        r.min = r.median;
      if (!parse_num(fld[6], &r.max))
        r.max = r.median;
    } else if (strcmp(fld[8], "error") == 0) {
      r.ok = false;
      r.median = r.min = r.max = NAN;
    } else {
      rc = set_err(err, errlen, "%s:%ld: status must be 'ok' or 'error', got '%s'", file, lineno, fld[8]);
      break;
    }
    double reps = 0;
    r.repeats = parse_num(fld[7], &reps) ? (int)reps : 0;
    if (wgb_table_add(t, &r)) {
      rc = set_err(err, errlen, "%s: out of memory", file);
      break;
    }
  }
  if (rc == 0 && !columns)
    rc = set_err(err, errlen, "%s: no column line '%s': not a microbenchmark CSV", file, WGB_CSV_COLUMNS);
  free(line);
  fclose(f);
  return rc;
}

/* Finds KEY=VALUE in "k1=v1;k2=v2"; VALUE ends at ';' or the end. */
static const char *param_value(const char *param, const char *key, size_t *len) {
  size_t kl = strlen(key);
  const char *p = param;
  while (*p) {
    const char *end = strchr(p, ';');
    size_t seg = end ? (size_t)(end - p) : strlen(p);
    if (seg > kl && strncmp(p, key, kl) == 0 && p[kl] == '=') {
      *len = seg - kl - 1;
      return p + kl + 1;
    }
    if (!end)
      break;
    p = end + 1;
  }
  return NULL;
}

bool wgb_row_param(const wgb_row *r, const char *key, double *value) {
  size_t len;
  const char *v = param_value(r->param, key, &len);
  if (!v || len == 0 || len >= 64)
    return false;
  char buf[64];
  memcpy(buf, v, len);
  buf[len] = 0;
  return parse_num(buf, value);
}

bool wgb_row_param_str(const wgb_row *r, const char *key, char *out, size_t outlen) {
  size_t len;
  const char *v = param_value(r->param, key, &len);
  if (!v || len + 1 > outlen)
    return false;
  memcpy(out, v, len);
  out[len] = 0;
  return true;
}
