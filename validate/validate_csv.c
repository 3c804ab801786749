/* validate_csv.c - CSV tables (validate_csv.h).  Every field is copied into
 * one arena of NUL-terminated strings; rows index into it. */
#include "validate_csv.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct vcsv {
  char *name;
  char *buf;      /* all fields, NUL-terminated, back to back */
  size_t *fields; /* offsets into buf: header first, then rows x ncols */
  size_t *lines;  /* per row */
  size_t ncols, nrows;
};

typedef struct growth {
  size_t *v;
  size_t n, cap;
} growth;

static bool push(growth *g, size_t x) {
  if (g->n == g->cap) {
    size_t nc = g->cap ? 2 * g->cap : 256;
    size_t *p = realloc(g->v, nc * sizeof *p);
    if (!p)
      return false;
    g->v = p;
    g->cap = nc;
  }
  g->v[g->n++] = x;
  return true;
}

wgp_status vcsv_read_string(const char *text, size_t len, const char *name, vcsv **out, wgp_diag *diag) {
  *out = NULL;
  vcsv *t = calloc(1, sizeof *t);
  if (!t || !(t->name = strdup(name)) || !(t->buf = malloc(len + 1))) {
    vcsv_free(t);
    return wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: %s: out of memory", name);
  }
  growth fields = {0}, lines = {0};
  wgp_status st = WGP_OK;
  size_t i = 0, w = 0, line = 1;
  if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
    i = 3;
  size_t rec_fields = 0; /* fields in the current record */
  bool header_done = false;
  while (i < len && st == WGP_OK) {
    /* one record */
    size_t rec_line = line;
    size_t rec_start = fields.n;
    rec_fields = 0;
    if (text[i] == '\n' || (text[i] == '\r' && i + 1 < len && text[i + 1] == '\n')) { /* blank line */
      i += text[i] == '\r' ? 2 : 1;
      line++;
      continue;
    }
    for (;;) {
      /* one field */
      if (!push(&fields, w)) {
        st = wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: %s: out of memory", name);
        break;
      }
      rec_fields++;
      if (i < len && text[i] == '"') {
        size_t qline = line;
        i++;
        for (;;) {
          if (i >= len) {
            st = wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: %s:%zu: a quoted field is not closed", name,
                              qline);
            break;
          }
          if (text[i] == '"') {
            if (i + 1 < len && text[i + 1] == '"') {
              t->buf[w++] = '"';
              i += 2;
              continue;
            }
            i++;
            break;
          }
          if (text[i] == '\n')
            line++;
          t->buf[w++] = text[i++];
        }
        if (st != WGP_OK)
          break;
        if (i < len && text[i] != ',' && text[i] != '\n' && !(text[i] == '\r')) {
          st = wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: %s:%zu: text after the closing quote of a field",
                            name, line);
          break;
        }
      } else {
        while (i < len && text[i] != ',' && text[i] != '\n' && text[i] != '\r') {
          if (text[i] == '"') {
            st = wgp_diag_set(diag, WGP_ERR_INPUT,
                              "wgperf: error: %s:%zu: a quote inside an unquoted field (quote the whole field)", name,
                              line);
            break;
          }
          t->buf[w++] = text[i++];
        }
        if (st != WGP_OK)
          break;
      }
      t->buf[w++] = '\0';
      if (i < len && text[i] == ',') {
        i++;
        continue;
      }
      if (i < len && text[i] == '\r') {
        if (i + 1 < len && text[i + 1] == '\n')
          i++;
        else {
          st = wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: %s:%zu: a carriage return not followed by a newline",
                            name, line);
          break;
        }
      }
      if (i < len && text[i] == '\n') {
        i++;
        line++;
      }
      break;
    }
    if (st != WGP_OK)
      break;
    if (!header_done) {
      header_done = true;
      t->ncols = rec_fields;
      for (size_t c = 0; c < rec_fields; c++) {
        const char *h = t->buf + fields.v[rec_start + c];
        if (!*h) {
          st = wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: %s:%zu: column %zu of the header has no name", name,
                            rec_line, c + 1);
          break;
        }
        for (size_t d = 0; d < c && st == WGP_OK; d++)
          if (strcmp(h, t->buf + fields.v[rec_start + d]) == 0)
            st = wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: %s:%zu: the header names column '%s' twice", name,
                              rec_line, h);
      }
    } else if (rec_fields != t->ncols) {
      st = wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: %s:%zu: %zu field%s, the header has %zu", name, rec_line,
                        rec_fields, rec_fields == 1 ? "" : "s", t->ncols);
    } else if (!push(&lines, rec_line)) {
      st = wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: %s: out of memory", name);
    }
  }
  if (st == WGP_OK && !header_done)
    st = wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: %s: empty file: expected a header line", name);
  t->fields = fields.v;
  t->lines = lines.v;
  t->nrows = lines.n;
  if (st != WGP_OK) {
    vcsv_free(t);
    return st;
  }
  *out = t;
  return WGP_OK;
}

wgp_status vcsv_read_file(const char *file, vcsv **out, wgp_diag *diag) {
  char *text;
  size_t len;
  *out = NULL;
  wgp_status st = wgp_read_file(file, &text, &len, diag);
  if (st != WGP_OK)
    return st;
  if (memchr(text, '\0', len)) {
    free(text);
    return wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: %s: not a text file (it holds a NUL byte)", file);
  }
  st = vcsv_read_string(text, len, file, out, diag);
  free(text);
  return st;
}

void vcsv_free(vcsv *t) {
  if (!t)
    return;
  free(t->name);
  free(t->buf);
  free(t->fields);
  free(t->lines);
  free(t);
}

const char *vcsv_name(const vcsv *t) { return t->name; }
size_t vcsv_num_columns(const vcsv *t) { return t->ncols; }
const char *vcsv_column(const vcsv *t, size_t c) { return c < t->ncols ? t->buf + t->fields[c] : NULL; }

long vcsv_find_column(const vcsv *t, const char *name) {
  for (size_t c = 0; c < t->ncols; c++)
    if (strcmp(t->buf + t->fields[c], name) == 0)
      return (long)c;
  return -1;
}

size_t vcsv_num_rows(const vcsv *t) { return t->nrows; }
const char *vcsv_field(const vcsv *t, size_t r, size_t c) {
  return r < t->nrows && c < t->ncols ? t->buf + t->fields[(r + 1) * t->ncols + c] : "";
}
size_t vcsv_line(const vcsv *t, size_t r) { return r < t->nrows ? t->lines[r] : 0; }
