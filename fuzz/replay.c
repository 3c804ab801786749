/* replay.c - runs a fuzz target's LLVMFuzzerTestOneInput on files, without
 * libFuzzer, so any build (any compiler, sanitized or not) can replay the
 * committed corpus and the regression inputs.
 *
 *   fuzz-replay-model FILE|DIR...     (a directory: every file in it, sorted)
 *
 * Prints one line per input with -v; exits 0 when every input ran (a crash
 * or a contract violation aborts).
 */
#define _POSIX_C_SOURCE 200809L
#include "fuzz.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int verbose;

static int run_file(const char *path) {
  char *buf;
  size_t len;
  wgp_diag d;
  if (wgp_read_file(path, &buf, &len, &d) != WGP_OK) {
    fprintf(stderr, "%s\n", d.message);
    return 1;
  }
  if (verbose)
    fprintf(stderr, "replay: %s (%zu bytes)\n", path, len);
  /* an exact-size copy, so reading past the input is caught as it is by libFuzzer */
  uint8_t *data = malloc(len ? len : 1);
  if (!data)
    return 1;
  memcpy(data, buf, len);
  free(buf);
  LLVMFuzzerTestOneInput(data, len);
  free(data);
  return 0;
}

static int cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static int run_path(const char *path, size_t *count) {
  struct stat st;
  if (stat(path, &st) != 0) {
    fprintf(stderr, "replay: cannot open %s\n", path);
    return 1;
  }
  if (!S_ISDIR(st.st_mode)) {
    ++*count;
    return run_file(path);
  }
  DIR *dir = opendir(path);
  if (!dir)
    return 1;
  char **names = NULL;
  size_t n = 0, cap = 0;
  for (struct dirent *e; (e = readdir(dir));) {
    if (e->d_name[0] == '.')
      continue;
    if (n == cap) {
      cap = cap ? 2 * cap : 64;
      char **nn = realloc(names, cap * sizeof *names);
      if (!nn)
        return 1;
      names = nn;
    }
    size_t l = strlen(path) + strlen(e->d_name) + 2;
    names[n] = malloc(l);
    if (!names[n])
      return 1;
    snprintf(names[n++], l, "%s/%s", path, e->d_name);
  }
  closedir(dir);
  if (n)
    qsort(names, n, sizeof *names, cmp);
  int rc = 0;
  for (size_t i = 0; i < n; i++) {
    rc |= run_path(names[i], count);
    free(names[i]);
  }
  free(names);
  return rc;
}

int main(int argc, char **argv) {
  int rc = 0;
  size_t count = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-v") == 0)
      verbose = 1;
    else
      rc |= run_path(argv[i], &count);
  }
  printf("replay: %zu inputs ran\n", count);
  return rc;
}
