/* defines.c - a configuration's definitions as Kernel Tuner gives them to its
 * kernel (defines_internal.h).
 *
 * Kernel Tuner compiles a configuration as the kernel's text after a prefix
 * of #defines (kernel_tuner/util.py, prepare_kernel_string): grid_size_x/y/z
 * (the grid, in blocks), block_size_x/y/z (the block), every tuning
 * parameter, and kernel_tuner 1.  Being the kernel's text, they come after
 * what the compiler includes by itself: CUDA's runtime headers never see
 * them, so a parameter named like an argument of a prototype there (the
 * hotspot space's grid_width, an argument of cuda.h's cuLaunchGrid) is
 * harmless.  -DNAME=VALUE on the command line is defined before those
 * headers, and breaks them.  So each name is defined by a header the compile
 * includes after the compiler's own (-include, after CUDA's runtime wrapper
 * and OpenCL's header) as a stand-in whose value the command line gives:
 * `#define tile_size_x __wgtune_tile_size_x` there, -D__wgtune_tile_size_x=2
 * for the configuration.  The header is one file for the whole space
 * (CACHE/src, named by its content), and what the kernel's own text makes is
 * what Kernel Tuner's prefix makes of it.
 *
 * Two of Kernel Tuner's rules hold for CUDA parameters whose names hold
 * "loop_unroll_factor", made for `#pragma unroll NAME` (nvcc does not expand
 * a macro there, and fails): such a parameter is `constexpr int NAME =
 * VALUE;`, and at 0 the kernel's `#pragma unroll NAME` is taken out, so that
 * the compiler unrolls as it would without it (clang would read `#pragma
 * unroll 0` as "do not unroll").  kt_strip_unroll makes the text without
 * them (common/kt_source.c, which the plan harnesses share); run.c compiles
 * such configurations from a copy of the kernel files.  Where we differ, on
 * purpose: a name is matched whole (Kernel Tuner's pattern also takes a
 * longer name that begins with it), lines are kept (line numbers stay the
 * file's), and a parameter at 0 is still declared (an unused constant).
 */
#include "defines_internal.h"
#include "kt_source_internal.h"

#include "wgperf/driver.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool is_param(const wgp_tune_space *s, const char *name) { return wgp_tune_space_find_param(s, name) != SIZE_MAX; }

static bool is_unroll(const wgp_tune_space *s, size_t p) {
  return kt_unroll_param(s->params[p].name, s->language == WGP_SOURCE_CUDA);
}

/* A name given by the launch (grid_size_x, block_size_y): by a parameter of
 * that name instead, when there is one. */
static size_t launch_names(const wgp_tune_space *s, const char *names[6], int dims[6], bool grid[6]) {
  size_t n = 0;
  for (int d = 0; d < 3; d++)
    if (!is_param(s, kt_grid_names[d]))
      names[n] = kt_grid_names[d], dims[n] = d, grid[n++] = true;
  for (int d = 0; d < 3; d++)
    if (!is_param(s, kt_block_names[d]))
      names[n] = kt_block_names[d], dims[n] = d, grid[n++] = false;
  return n;
}

size_t kt_num_defines(const wgp_tune_space *s) {
  const char *names[6];
  int dims[6];
  bool grid[6];
  return launch_names(s, names, dims, grid) + s->nparams;
}

typedef struct textbuf {
  char *p;
  size_t len, cap;
  bool failed;
} textbuf;

/* Room for N more bytes and the NUL after them; false (T failed) when there is none. */
static bool room(textbuf *t, size_t n) {
  if (t->failed)
    return false;
  if (t->len + n + 1 > t->cap) {
    size_t cap = (t->cap + n + 1) * 2;
    char *p = realloc(t->p, cap);
    if (!p) {
      t->failed = true;
      return false;
    }
    t->p = p, t->cap = cap;
  }
  return true;
}

static void append(textbuf *t, const char *s, size_t n) {
  if (!room(t, n))
    return;
  memcpy(t->p + t->len, s, n);
  t->len += n;
  t->p[t->len] = '\0';
}

static void add(textbuf *t, const char *fmt, const char *a, const char *b) {
  int need = snprintf(NULL, 0, fmt, a, b);
  if (need < 0 || !room(t, (size_t)need))
    return;
  snprintf(t->p + t->len, t->cap - t->len, fmt, a, b);
  t->len += (size_t)need;
}

wgp_status kt_header(const wgp_tune_space *s, const char *dir, char *out, size_t size, wgp_diag *diag) {
  size_t nunroll = 0;
  for (size_t p = 0; p < s->nparams; p++)
    nunroll += is_unroll(s, p);
  if (nunroll > KT_MAX_UNROLL)
    return wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: %s: %zu parameters named loop_unroll_factor*, more than %d",
                        s->file, nunroll, KT_MAX_UNROLL);
  textbuf t = {0};
  add(&t, "%s%s",
      "/* wgtune: the definitions Kernel Tuner writes before a configuration's kernel,\n"
      " * after the compiler's own headers; the command line gives each stand-in its\n",
      " * value (-D" KT_STANDIN "NAME=VALUE) */\n");
  const char *names[6];
  int dims[6];
  bool grid[6];
  size_t n = launch_names(s, names, dims, grid);
  for (size_t i = 0; i < n; i++)
    add(&t, "#define %s " KT_STANDIN "%s\n", names[i], names[i]);
  for (size_t p = 0; p < s->nparams; p++)
    add(&t, is_unroll(s, p) ? "constexpr int %s = " KT_STANDIN "%s;\n" : "#define %s " KT_STANDIN "%s\n",
        s->params[p].name, s->params[p].name);
  add(&t, "%s%s", "#define kernel_tuner 1\n", "");
  if (t.failed) {
    free(t.p);
    return wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
  }
  wgp_status st = wgp_source_by_digest(dir, "kernel-tuner-", ".h", t.p, t.len, out, size, diag);
  free(t.p);
  return st;
}

/* A configuration's values by name: its parameters' and the launch's. */
typedef struct values_of {
  const wgp_tune_space *s;
  const uint16_t *v;
  const char *names[6];
  char launch[6][24];
  size_t nl;
} values_of;

static void values_init(values_of *o, const wgp_tune_space *s, const uint16_t *v, const wgp_tune_launch *l) {
  int dims[6];
  bool grid[6];
  o->s = s, o->v = v;
  o->nl = launch_names(s, o->names, dims, grid);
  for (size_t i = 0; i < o->nl; i++)
    snprintf(o->launch[i], sizeof o->launch[i], "%llu",
             (unsigned long long)(grid[i] ? l->grid[dims[i]] : l->block[dims[i]]));
}

static char *define(const char *name, const char *value) {
  size_t len = strlen(KT_STANDIN) + strlen(name) + strlen(value) + 4;
  char *d = malloc(len);
  if (d)
    snprintf(d, len, "-D" KT_STANDIN "%s=%s", name, value);
  return d;
}

bool kt_defines(const wgp_tune_space *s, const uint16_t *v, const wgp_tune_launch *l, char **out) {
  values_of o;
  values_init(&o, s, v, l);
  size_t k = 0;
  bool ok = true;
  for (size_t i = 0; i < o.nl && ok; i++)
    ok = (out[k++] = define(o.names[i], o.launch[i])) != NULL;
  for (size_t p = 0; p < s->nparams && ok; p++)
    ok = (out[k++] = define(s->params[p].name, s->params[p].values[v[p]].text)) != NULL;
  if (!ok)
    while (k > 0)
      free(out[--k]), out[k] = NULL;
  return ok;
}

uint32_t kt_unroll_zeros(const wgp_tune_space *s, const uint16_t *v) {
  uint32_t mask = 0;
  unsigned j = 0;
  for (size_t p = 0; p < s->nparams && j < KT_MAX_UNROLL; p++)
    if (is_unroll(s, p)) {
      if (strcmp(s->params[p].values[v[p]].text, "0") == 0)
        mask |= 1u << j;
      j++;
    }
  return mask;
}

char *kt_strip_unroll(const wgp_tune_space *s, uint32_t mask, const char *text, size_t len, size_t *out_len) {
  const char *names[KT_MAX_UNROLL];
  size_t n = 0;
  unsigned j = 0;
  for (size_t p = 0; p < s->nparams && j < KT_MAX_UNROLL; p++)
    if (is_unroll(s, p)) {
      if (mask >> j & 1u)
        names[n++] = s->params[p].name;
      j++;
    }
  return kt_strip_unroll_names(text, len, names, n, out_len);
}

/* A loop pragma's own words (clang's #pragma unroll and #pragma clang loop). */
static bool pragma_word(const char *w, size_t n) {
  static const char *const words[] = {"unroll", "nounroll", "unroll_and_jam", "nounroll_and_jam", "clang", "loop",
                                      "vectorize", "vectorize_width", "interleave", "interleave_count", "unroll_count",
                                      "pipeline", "pipeline_initiation_interval", "distribute", "vectorize_predicate",
                                      "enable", "disable", "full", "assume_safety", "fixed", "scalable"};
  for (size_t i = 0; i < sizeof words / sizeof *words; i++)
    if (strlen(words[i]) == n && memcmp(words[i], w, n) == 0)
      return true;
  return false;
}

/* Where a loop pragma's operands begin on the line at AT (END: its end), NULL
 * when the line holds none. */
static const char *loop_pragma(const char *at, const char *end) {
  static const char pragma[] = "#pragma";
  if ((size_t)(end - at) < sizeof pragma - 1 || memcmp(at, pragma, sizeof pragma - 1) != 0)
    return NULL;
  const char *p = kt_blanks(at + sizeof pragma - 1, end), *w = p;
  while (p < end && kt_ident_char(*p))
    p++;
  size_t n = (size_t)(p - w);
  if ((n == 6 && memcmp(w, "unroll", 6) == 0) || (n == 8 && memcmp(w, "nounroll", 8) == 0) ||
      (n == 14 && memcmp(w, "unroll_and_jam", 14) == 0) || (n == 16 && memcmp(w, "nounroll_and_jam", 16) == 0))
    return p;
  if (n == 5 && memcmp(w, "clang", 5) == 0) {
    const char *q = kt_blanks(p, end);
    if ((size_t)(end - q) >= 4 && memcmp(q, "loop", 4) == 0 && (q + 4 == end || !kt_ident_char(q[4])))
      return q + 4;
  }
  return NULL;
}

/* NAME (N bytes) as a configuration name: its own spelling into *NAME_OUT and
 * its value; NULL when it is none. */
static const char *value_of(const values_of *o, const char *w, size_t n, const char **name_out) {
  for (size_t k = 0; k < o->s->nparams; k++)
    if (strlen(o->s->params[k].name) == n && memcmp(o->s->params[k].name, w, n) == 0)
      return *name_out = o->s->params[k].name, o->s->params[k].values[o->v[k]].text;
  for (size_t k = 0; k < o->nl; k++)
    if (strlen(o->names[k]) == n && memcmp(o->names[k], w, n) == 0)
      return *name_out = o->names[k], o->launch[k];
  return NULL;
}

/* Walks the identifiers of TEXT's loop pragmas other than their own words:
 * each configuration name's "NAME=VALUE;" into KEY, and into OUT (when not
 * NULL) the text with those names replaced by their values.  True when a
 * pragma reads an identifier that is no configuration name. */
static bool pragma_scan(const values_of *o, const char *text, size_t len, textbuf *key, textbuf *out, bool *replaced) {
  bool unknown = false;
  const char *copied = text;
  for (const char *line = text, *end = text + len; line < end;) {
    const char *eol = memchr(line, '\n', (size_t)(end - line));
    eol = eol ? eol : end;
    const char *p = loop_pragma(kt_blanks(line, eol), eol);
    while (p && p < eol) {
      if (*p >= '0' && *p <= '9') { /* a number, its suffix included */
        while (p < eol && (kt_ident_char(*p) || *p == '.'))
          p++;
        continue;
      }
      if (!kt_ident_char(*p)) {
        p++;
        continue;
      }
      const char *w = p;
      while (p < eol && kt_ident_char(*p))
        p++;
      size_t n = (size_t)(p - w);
      if (pragma_word(w, n))
        continue;
      const char *name, *value = value_of(o, w, n, &name);
      if (!value) {
        unknown = true;
        continue;
      }
      add(key, "%s=%s;", name, value);
      if (out) {
        append(out, copied, (size_t)(w - copied));
        append(out, value, strlen(value));
        copied = p;
        *replaced = true;
      }
    }
    line = eol < end ? eol + 1 : end;
  }
  if (out && *replaced)
    append(out, copied, (size_t)(text + len - copied));
  return unknown;
}

char *kt_pragma_key(const wgp_tune_space *s, const uint16_t *v, const wgp_tune_launch *l, const char *text, size_t len) {
  values_of o;
  values_init(&o, s, v, l);
  textbuf t = {0};
  add(&t, "%s%s", "", "");
  bool replaced = false;
  if (pragma_scan(&o, text, len, &t, NULL, &replaced)) { /* a macro of the kernel's: every name's value */
    t.len = 0;
    add(&t, "%s%s", "all:", "");
    for (size_t k = 0; k < o.nl; k++)
      add(&t, "%s=%s;", o.names[k], o.launch[k]);
    for (size_t k = 0; k < s->nparams; k++)
      add(&t, "%s=%s;", s->params[k].name, s->params[k].values[v[k]].text);
  }
  if (t.failed) {
    free(t.p);
    return NULL;
  }
  return t.p;
}

char *kt_expand_pragmas(const wgp_tune_space *s, const uint16_t *v, const wgp_tune_launch *l, const char *text,
                        size_t len, size_t *out_len) {
  values_of o;
  values_init(&o, s, v, l);
  textbuf key = {0}, out = {0};
  bool replaced = false;
  pragma_scan(&o, text, len, &key, &out, &replaced);
  free(key.p);
  if (!replaced || out.failed) {
    free(out.p);
    return NULL;
  }
  *out_len = out.len;
  return out.p;
}
