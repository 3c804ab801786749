/* diag.c - filling a wgp_diag (include/wgperf/diag.h). */
#include "wgperf/diag.h"

#include <stdarg.h>
#include <stdio.h>

wgp_status wgp_diag_set(wgp_diag *diag, wgp_status st, const char *fmt, ...) {
  if (diag) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(diag->message, sizeof diag->message, fmt, ap);
    va_end(ap);
  }
  return st;
}
