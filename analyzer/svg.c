/* svg.c - text in the SVG pictures (include/wgperf/svg.h). */
#include "wgperf/svg.h"

#include <string.h>

void wgp_svg_text(FILE *f, const char *s) {
  for (; *s; s++) {
    if (*s == '<')
      fputs("&lt;", f);
    else if (*s == '>')
      fputs("&gt;", f);
    else if (*s == '&')
      fputs("&amp;", f);
    else if (*s == '"')
      fputs("&quot;", f);
    else if (*s == '\'')
      fputs("&apos;", f);
    else
      fputc(*s, f);
  }
}

double wgp_svg_text_width(const char *text, double px) { return 0.6 * px * (double)strlen(text); }
