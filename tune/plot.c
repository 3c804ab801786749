/* plot.c - predicted time over a tuning space as SVG (wgp_tune_write_plot).
 *
 * One panel of the whole ranking (time against rank, log scale, the chosen
 * first ranks in red), then one panel per parameter that takes more than one
 * value: for each value, the spread of the predicted times of the
 * configurations with that value (whisker from the fastest to the slowest,
 * box from the 25th to the 75th percentile, a tick at the median), the
 * chosen configurations in red, and the count of those that cannot run
 * printed under the axis.  Every mark has a <title> a browser shows.
 */
#define _POSIX_C_SOURCE 200809L
#include "result_internal.h"

#include "wgperf/svg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PW 420.0 /* panel width and height */
#define PH 260.0
#define ML 64.0 /* margins inside a panel */
#define MR 12.0
#define MT 28.0
#define MB 46.0

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

typedef struct axis {
  double lo, hi; /* log10 of the times */
} axis;

static double ypos(const axis *a, double oy, double t) {
  double l = log10(t > 0 ? t : pow(10, a->lo));
  return oy + MT + (PH - MT - MB) * (1 - (l - a->lo) / (a->hi - a->lo));
}

static void frame(FILE *f, double ox, double oy, const axis *a, const char *title) {
  fprintf(f, "<g>\n<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"#ccc\"/>\n",
          ox + ML, oy + MT, PW - ML - MR, PH - MT - MB);
  fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"13\" font-weight=\"bold\">", ox + ML, oy + MT - 8);
  wgp_svg_text(f, title);
  fprintf(f, "</text>\n");
  /* ticks at 1, 2 and 5 per decade, or finer over a narrow range */
  static const double steps[2][9] = {{1, 2, 5}, {1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 7}};
  static const int nsteps[2] = {3, 9};
  for (int fine = 0; fine < 2; fine++) {
    int count = 0;
    for (int e = (int)floor(a->lo); e <= (int)ceil(a->hi); e++)
      for (int k = 0; k < nsteps[fine]; k++) {
        double v = log10(steps[fine][k]) + e;
        count += v >= a->lo && v <= a->hi;
      }
    if (count < 3 && fine == 0)
      continue;
    for (int e = (int)floor(a->lo); e <= (int)ceil(a->hi); e++)
      for (int k = 0; k < nsteps[fine]; k++) {
        double v = log10(steps[fine][k]) + e;
        if (v < a->lo || v > a->hi)
          continue;
        double y = ypos(a, oy, pow(10, v));
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/>\n", ox + ML, y,
                ox + PW - MR, y);
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" font-size=\"10\">%g</text>\n", ox + ML - 4,
                y + 3, pow(10, v));
      }
    break;
  }
  fprintf(f,
          "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" transform=\"rotate(-90 %.1f %.1f)\" "
          "text-anchor=\"middle\">predicted time (us)</text>\n",
          ox + 14, oy + MT + (PH - MT - MB) / 2, ox + 14, oy + MT + (PH - MT - MB) / 2);
}

int wgp_tune_write_plot(const wgp_tune_result *r, FILE *f, size_t top) {
  size_t nr = r->nranked, chosen = top && top < nr ? top : (nr < 10 ? nr : 10);
  double lo = INFINITY, hi = 0;
  for (size_t k = 0; k < nr; k++) {
    double t = r->configs[r->ranked[k]].time_us;
    if (t > 0 && t < lo)
      lo = t;
    if (t > hi)
      hi = t;
  }
  if (!(lo < INFINITY))
    lo = 1, hi = 10;
  if (hi <= lo)
    hi = lo * 10;
  axis a = {log10(lo) - 0.05, log10(hi) + 0.05};
  size_t npanels = 1;
  for (size_t p = 0; p < r->nparams; p++) {
    size_t nv = 0;
    for (size_t i = 0; i < r->nconfigs && nv < 2; i++)
      nv += i == 0 || strcmp(r->configs[i].values[p].text, r->configs[0].values[p].text) != 0;
    npanels += nv > 1;
  }
  int cols = npanels < 3 ? (int)npanels : 3;
  int rows = (int)((npanels + (size_t)cols - 1) / (size_t)cols);
  double W = cols * PW + 20, H = rows * PH + 90;
  fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" font-family=\"sans-serif\" "
             "font-size=\"11\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
          W, H);
  fprintf(f, "<text x=\"10\" y=\"22\" font-size=\"15\">");
  wgp_svg_text(f, r->kernel);
  fprintf(f, " on ");
  wgp_svg_text(f, r->gpu);
  fprintf(f, ": predicted time of %zu configurations (%zu cannot run", nr, r->counts.cannot_run);
  if (r->counts.prune_top)
    fprintf(f, "; %zu pruned, not drawn: best case slower than rank %zu", r->counts.pruned, r->counts.prune_top);
  fprintf(f, ")</text>\n");
  fprintf(f, "<text x=\"10\" y=\"40\" fill=\"#555\">");
  wgp_svg_text(f, r->space);
  fprintf(f, "; red: the %zu predicted fastest; box: 25th to 75th percentile, whisker: fastest to slowest, tick: "
             "median; the numbers under an axis: configurations that cannot run</text>\n",
          chosen);
  double oy0 = 50;
  /* panel 0: the ranking */
  {
    double ox = 10, oy = oy0;
    frame(f, ox, oy, &a, "all configurations, by rank");
    double x0 = ox + ML, x1 = ox + PW - MR;
    size_t step = nr > 1500 ? nr / 1500 : 1;
    fprintf(f, "<polyline fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"1.2\" points=\"");
    for (size_t k = 0; k < nr; k += step)
      fprintf(f, "%.1f,%.1f ", x0 + (x1 - x0) * (nr > 1 ? (double)k / (double)(nr - 1) : 0.5),
              ypos(&a, oy, r->configs[r->ranked[k]].time_us));
    if (nr && (nr - 1) % step)
      fprintf(f, "%.1f,%.1f", x1, ypos(&a, oy, r->configs[r->ranked[nr - 1]].time_us));
    fprintf(f, "\"/>\n");
    for (size_t k = 0; k < chosen; k++) {
      const wgp_tune_config *c = &r->configs[r->ranked[k]];
      fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"#d62728\"><title>rank %zu: %.4g us",
              x0 + (x1 - x0) * (nr > 1 ? (double)k / (double)(nr - 1) : 0.5), ypos(&a, oy, c->time_us), k + 1,
              c->time_us);
      for (size_t p = 0; p < r->nparams; p++) {
        fprintf(f, "%s", p ? ", " : " (");
        wgp_svg_text(f, r->params[p]);
        fputc('=', f);
        wgp_svg_text(f, c->values[p].text);
      }
      fprintf(f, ")</title></circle>\n");
    }
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">rank (1 to %zu)</text>\n</g>\n", (x0 + x1) / 2,
            oy + PH - MB + 18, nr);
  }
  /* a panel per parameter */
  size_t panel = 1;
  double *times = malloc((r->nconfigs ? r->nconfigs : 1) * sizeof *times);
  const char **vals = malloc((r->nconfigs ? r->nconfigs : 1) * sizeof *vals);
  if (!times || !vals) {
    free(times);
    free(vals);
    return -1;
  }
  for (size_t p = 0; p < r->nparams; p++) {
    /* the parameter's values in the order they appear in the space */
    size_t nv = 0;
    for (size_t i = 0; i < r->nconfigs; i++) {
      bool seen = false;
      for (size_t q = 0; q < nv && !seen; q++)
        seen = strcmp(vals[q], r->configs[i].values[p].text) == 0;
      if (!seen)
        vals[nv++] = r->configs[i].values[p].text;
    }
    if (nv < 2)
      continue;
    double ox = 10 + (double)(panel % (size_t)cols) * PW, oy = oy0 + (double)(panel / (size_t)cols) * PH;
    panel++;
    char title[160];
    snprintf(title, sizeof title, "by %s", r->params[p]);
    frame(f, ox, oy, &a, title);
    double x0 = ox + ML, slot = (PW - ML - MR) / (double)nv;
    for (size_t q = 0; q < nv; q++) {
      size_t n = 0, bad = 0;
      for (size_t i = 0; i < r->nconfigs; i++) {
        const wgp_tune_config *c = &r->configs[i];
        if (strcmp(c->values[p].text, vals[q]) != 0)
          continue;
        if (c->ok)
          times[n++] = c->time_us;
        else if (!c->pruned)
          bad++;
      }
      double cx = x0 + slot * ((double)q + 0.5), bw = slot * 0.5 > 18 ? 18 : slot * 0.5;
      if (n) {
        qsort(times, n, sizeof *times, cmp_double);
        double q1 = times[n / 4], med = times[n / 2], q3 = times[(3 * n) / 4 < n ? (3 * n) / 4 : n - 1];
        fprintf(f, "<g><title>");
        wgp_svg_text(f, r->params[p]);
        fprintf(f, "=");
        wgp_svg_text(f, vals[q]);
        fprintf(f, ": %zu configurations, fastest %.4g us, median %.4g us, slowest %.4g us; %zu cannot run</title>\n",
                n, times[0], med, times[n - 1], bad);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#888\"/>\n", cx,
                ypos(&a, oy, times[0]), cx, ypos(&a, oy, times[n - 1]));
        double yt = ypos(&a, oy, q3), yb = ypos(&a, oy, q1);
        fprintf(f,
                "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#aec7e8\" stroke=\"#1f77b4\"/>\n",
                cx - bw / 2, yt, bw, yb - yt > 1 ? yb - yt : 1);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#1f77b4\" stroke-width=\"2\"/></g>\n",
                cx - bw / 2, ypos(&a, oy, med), cx + bw / 2, ypos(&a, oy, med));
      }
      if (bad)
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"9\" fill=\"#999\">%zu</text>\n", cx,
                oy + PH - MB + 28, bad);
      fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"10\">", cx, oy + PH - MB + 14);
      wgp_svg_text(f, vals[q]);
      fprintf(f, "</text>\n");
    }
    /* the chosen ones, spread a little across their value's slot */
    for (size_t k = 0; k < chosen; k++) {
      const wgp_tune_config *c = &r->configs[r->ranked[k]];
      size_t q = 0;
      while (q < nv && strcmp(vals[q], c->values[p].text) != 0)
        q++;
      /* spread the chosen of one value across its slot */
      size_t same = 0, before = 0;
      for (size_t o = 0; o < chosen; o++)
        if (strcmp(r->configs[r->ranked[o]].values[p].text, c->values[p].text) == 0)
          same++, before += o < k;
      double jitter = same > 1 ? ((double)before / (double)(same - 1) - 0.5) * slot * 0.4 : 0;
      fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"#d62728\"><title>rank %zu: %.4g us</title></circle>\n",
              x0 + slot * ((double)q + 0.5) + jitter, ypos(&a, oy, c->time_us), k + 1, c->time_us);
    }
    fprintf(f, "</g>\n");
  }
  fprintf(f, "</svg>\n");
  free(times);
  free(vals);
  return ferror(f) ? -1 : 0;
}
