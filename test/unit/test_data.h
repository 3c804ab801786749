/* test_data.h - reading test/unit/data files whole (for the tests that load a
 * model's text, change it and load it again).  Include after cmocka.h. */
#ifndef WGPERF_TEST_DATA_H
#define WGPERF_TEST_DATA_H

#include <stdio.h>
#include <stdlib.h>

/* The contents of test/unit/data/NAME, NUL-terminated (give: free()). */
static char *test_data_text(const char *name) {
  char path[512];
  snprintf(path, sizeof path, "%s/test/unit/data/%s", WGPERF_SOURCE_DIR, name);
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *t = malloc((size_t)n + 1);
  assert_non_null(t);
  assert_int_equal(fread(t, 1, (size_t)n, f), (size_t)n);
  t[n] = 0;
  fclose(f);
  return t;
}

#endif
