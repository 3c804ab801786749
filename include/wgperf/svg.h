/* svg.h - text in the SVG pictures wgperf draws (wgprune --plot, wgtune
 * --plot, wgperf-validate --plot and --kernel-tuner --plot).
 *
 * Names written into a picture come from its inputs (kernel names of C++
 * templates hold '<' and '>', GPU names and kernel names of a measurement CSV
 * can hold anything), so every one goes through wgp_svg_text.
 */
#ifndef WGPERF_SVG_H
#define WGPERF_SVG_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Writes S to F with the five characters XML reserves escaped: & < > " and '
 * as &amp; &lt; &gt; &quot; &apos;, so that S is safe as element text and as
 * an attribute value in either kind of quotes.  Errors show in ferror(F). */
void wgp_svg_text(FILE *f, const char *s);

/* About how wide TEXT is at font size PX in a sans-serif face (0.6 PX a
 * character): what keeps labels apart and inside the picture
 * (test/lit/Inputs/svg/check_svg.py measures the same way). */
double wgp_svg_text_width(const char *text, double px);

#ifdef __cplusplus
}
#endif

#endif
