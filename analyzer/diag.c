/* diag.c - filling a wgp_diag (include/wgperf/diag.h). */
#include "wgperf/diag.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

wgp_status wgp_diag_set(wgp_diag *diag, wgp_status st, const char *fmt, ...) {
  if (diag) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(diag->message, sizeof diag->message, fmt, ap);
    va_end(ap);
  }
  return st;
}

wgp_status wgp_read_file(const char *file, char **text, size_t *len, wgp_diag *diag) {
  *text = NULL;
  *len = 0;
  FILE *f = fopen(file, "rb");
  if (!f)
    return wgp_diag_set(diag, WGP_ERR_IO, "wgperf: error: %s: cannot open: %s", file, strerror(errno));
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap);
  wgp_status st = buf ? WGP_OK : WGP_ERR_NOMEM;
  while (st == WGP_OK) {
    if (n + 1 >= cap) {
      char *grown = cap < SIZE_MAX / 2 ? realloc(buf, cap * 2) : NULL;
      if (!grown) {
        st = WGP_ERR_NOMEM;
        break;
      }
      buf = grown;
      cap *= 2;
    }
    size_t got = fread(buf + n, 1, cap - n - 1, f);
    n += got;
    if (got == 0) {
      if (ferror(f))
        st = WGP_ERR_IO;
      break;
    }
  }
  fclose(f);
  if (st != WGP_OK) {
    free(buf);
    return wgp_diag_set(diag, st, "wgperf: error: %s: %s", file, st == WGP_ERR_IO ? "read error" : "out of memory");
  }
  buf[n] = '\0';
  *text = buf;
  *len = n;
  return WGP_OK;
}
