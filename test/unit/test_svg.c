/* test_svg.c - text in the SVG pictures: every character XML reserves
 * escaped, everything else as it is, and the width estimate the layout and
 * test/lit/Inputs/svg/check_svg.py share. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "wgperf/svg.h"

/* What wgp_svg_text writes for S. */
static char *escaped(const char *s) {
  char *out = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&out, &n);
  assert_non_null(f);
  wgp_svg_text(f, s);
  assert_int_equal(fclose(f), 0);
  return out;
}

static void text(void **state) {
  (void)state;
  static const struct {
    const char *in, *out;
  } cases[] = {
      {"", ""},
      {"saxpy on H100 SXM", "saxpy on H100 SXM"},
      {"scale<float, 256>", "scale&lt;float, 256&gt;"},
      {"a & b", "a &amp; b"},
      {"&amp;", "&amp;amp;"},
      {"\"quoted\"", "&quot;quoted&quot;"},
      {"NVIDIA's GPU", "NVIDIA&apos;s GPU"},
      {"<>&\"'", "&lt;&gt;&amp;&quot;&apos;"},
      {"t\xc3\xa9st", "t\xc3\xa9st"}, /* UTF-8 bytes pass through */
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char *got = escaped(cases[i].in);
    assert_string_equal(got, cases[i].out);
    free(got);
  }
}

static void width(void **state) {
  (void)state;
  assert_true(fabs(wgp_svg_text_width("", 11)) < 1e-12);
  assert_true(fabs(wgp_svg_text_width("saxpy", 11) - 0.6 * 11 * 5) < 1e-12);
  assert_true(fabs(wgp_svg_text_width("a<b", 13) - 0.6 * 13 * 3) < 1e-12);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(text), cmocka_unit_test(width)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
