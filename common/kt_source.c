/* kt_source.c - a configuration's kernel text as Kernel Tuner prepares it
 * (kt_source_internal.h). */
#include "kt_source_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool kt_unroll_param(const char *name, bool cuda) { return cuda && strstr(name, "loop_unroll_factor") != NULL; }

const char *const kt_grid_names[3] = {"grid_size_x", "grid_size_y", "grid_size_z"};
const char *const kt_block_names[3] = {"block_size_x", "block_size_y", "block_size_z"};

bool kt_ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

const char *kt_blanks(const char *p, const char *end) {
  while (p < end && (*p == ' ' || *p == '\t'))
    p++;
  return p;
}

/* The end of `#pragma unroll NAME` at AT (END: the line's end) for NAME one
 * of NAMES; NULL otherwise. */
static const char *unroll_pragma(const char *at, const char *end, const char *const *names, size_t num_names) {
  static const char pragma[] = "#pragma", unroll[] = "unroll";
  if ((size_t)(end - at) < sizeof pragma - 1 || memcmp(at, pragma, sizeof pragma - 1) != 0)
    return NULL;
  const char *p = at + sizeof pragma - 1, *q = kt_blanks(p, end);
  if (q == p || (size_t)(end - q) < sizeof unroll - 1 || memcmp(q, unroll, sizeof unroll - 1) != 0)
    return NULL;
  p = q + sizeof unroll - 1;
  q = kt_blanks(p, end);
  if (q == p)
    return NULL;
  const char *name = q;
  while (q < end && kt_ident_char(*q))
    q++;
  for (size_t k = 0; k < num_names; k++)
    if (strlen(names[k]) == (size_t)(q - name) && memcmp(names[k], name, (size_t)(q - name)) == 0)
      return q;
  return NULL;
}

char *kt_strip_unroll_names(const char *text, size_t len, const char *const *names, size_t num_names, size_t *out_len) {
  char *out = malloc(len + 1);
  if (!out)
    return NULL;
  size_t n = 0;
  for (const char *line = text, *end = text + len; line < end;) {
    const char *eol = memchr(line, '\n', (size_t)(end - line));
    eol = eol ? eol + 1 : end;
    const char *at = kt_blanks(line, eol), *past = num_names ? unroll_pragma(at, eol, names, num_names) : NULL;
    if (past) {
      memcpy(out + n, line, (size_t)(at - line)), n += (size_t)(at - line);
      memcpy(out + n, past, (size_t)(eol - past)), n += (size_t)(eol - past);
    } else {
      memcpy(out + n, line, (size_t)(eol - line)), n += (size_t)(eol - line);
    }
    line = eol;
  }
  out[n] = '\0';
  *out_len = n;
  return out;
}

static bool is_name(const char *name, const char *const *names, size_t n) {
  for (size_t k = 0; k < n; k++)
    if (strcmp(names[k], name) == 0)
      return true;
  return false;
}

char *kt_source(const char *text, const char *const *names, const char *const *values, size_t num_params,
                const size_t grid[3], const size_t block[3], bool cuda) {
  const char **zeros = calloc(num_params + 1, sizeof *zeros);
  if (!zeros)
    return NULL;
  size_t nz = 0, cap = 128;
  for (size_t k = 0; k < num_params; k++) {
    cap += strlen(names[k]) + strlen(values[k]) + 32;
    if (kt_unroll_param(names[k], cuda) && strcmp(values[k], "0") == 0)
      zeros[nz++] = names[k];
  }
  size_t slen = 0;
  char *body = kt_strip_unroll_names(text, strlen(text), zeros, nz, &slen);
  char *out = body ? malloc(cap + 6 * 48 + slen + 1) : NULL;
  if (!out) {
    free(zeros);
    free(body);
    return NULL;
  }
  size_t n = 0;
  for (int d = 0; d < 3; d++)
    if (!is_name(kt_grid_names[d], names, num_params))
      n += (size_t)sprintf(out + n, "#define %s %zu\n", kt_grid_names[d], grid[d]);
  for (int d = 0; d < 3; d++)
    if (!is_name(kt_block_names[d], names, num_params))
      n += (size_t)sprintf(out + n, "#define %s %zu\n", kt_block_names[d], block[d]);
  for (size_t k = 0; k < num_params; k++) {
    if (!kt_unroll_param(names[k], cuda))
      n += (size_t)sprintf(out + n, "#define %s %s\n", names[k], values[k]);
    else if (strcmp(values[k], "0") != 0)
      n += (size_t)sprintf(out + n, "constexpr int %s = %s;\n", names[k], values[k]);
  }
  n += (size_t)sprintf(out + n, "#define kernel_tuner 1\n#line 1\n");
  memcpy(out + n, body, slen + 1);
  free(body);
  free(zeros);
  return out;
}
