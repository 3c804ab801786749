/* cuda_toolkit.c - the CUDA toolkit whose headers a .cu file compiles against
 * (wgperf/driver.h, wgp_find_cuda_toolkit).
 *
 * clang 19 reads the headers of CUDA 11.0 (the first toolkit with sm_80, the
 * architecture wgperf compiles device code for) to 12.x; it knows 12.5 by name
 * and reads later 12.x headers, but not CUDA 13's.  A toolkit is a folder with
 * include/cuda.h (whose CUDA_VERSION clang reads too) and a bin/ folder, as
 * clang's own detection asks.  Debian's nvidia-cuda-toolkit has that layout in
 * /usr/lib/cuda: include/cuda.h and nvvm/libdevice are links into /usr/include
 * and /usr/lib/nvidia-cuda-toolkit, bin/ is empty, and the other headers are
 * found in /usr/include, where the compiler looks anyway.
 */
#define _XOPEN_SOURCE 700
#include "wgperf/driver.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define CUDA_OLDEST 11000 /* sm_80 */
#define CUDA_TOO_NEW 13000

static bool is_dir(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Appends the printf-style text to BUF (SIZE bytes), "; "-separated. */
static void append(char *buf, size_t size, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static void append(char *buf, size_t size, const char *fmt, ...) {
  size_t n = strlen(buf);
  if (n && n + 2 < size) {
    memcpy(buf + n, "; ", 3);
    n += 2;
  }
  if (n + 1 >= size)
    return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf + n, size - n, fmt, ap);
  va_end(ap);
}

/* Whether DIR is a toolkit clang 19 reads: true with its CUDA_VERSION in
 * *VERSION; false with why not in WHY ("no include/cuda.h", "CUDA 13.0, newer
 * than clang 19 reads", ...). */
static bool usable(const char *dir, int *version, char *why, size_t n) {
  *version = 0;
  char path[WGP_CUDA_PATH_SIZE + 32];
  snprintf(path, sizeof path, "%s/include/cuda.h", dir);
  FILE *f = fopen(path, "r");
  if (!f) {
    snprintf(why, n, "%s", is_dir(dir) ? "no include/cuda.h" : "no such folder");
    return false;
  }
  char line[512];
  while (fgets(line, sizeof line, f))
    if (sscanf(line, " #define CUDA_VERSION %d", version) == 1)
      break;
  fclose(f);
  if (*version <= 0) {
    snprintf(why, n, "include/cuda.h defines no CUDA_VERSION");
    *version = 0;
    return false;
  }
  int major = *version / 1000, minor = *version % 1000 / 10;
  if (*version >= CUDA_TOO_NEW) {
    snprintf(why, n, "CUDA %d.%d, newer than clang 19 reads (11.0 to 12.x)", major, minor);
    return false;
  }
  if (*version < CUDA_OLDEST) {
    snprintf(why, n, "CUDA %d.%d, older than 11.0 (the first with sm_80)", major, minor);
    return false;
  }
  snprintf(path, sizeof path, "%s/bin", dir);
  if (!is_dir(path)) {
    snprintf(why, n, "CUDA %d.%d without a bin/ folder, which clang asks for", major, minor);
    return false;
  }
  return true;
}

/* The folder a --cuda-path flag among FLAGS names (the last one), or NULL. */
static const char *flag_path(char *const *flags, size_t num_flags) {
  const char *found = NULL;
  for (size_t i = 0; i < num_flags; i++) {
    if (strncmp(flags[i], "--cuda-path=", 12) == 0)
      found = flags[i] + 12;
    else if (strcmp(flags[i], "--cuda-path") == 0 && i + 1 < num_flags)
      found = flags[++i];
  }
  return found;
}

static wgp_status take(wgp_cuda_toolkit *tk, const char *dir, int version, const char *origin, wgp_diag *diag) {
  if (strlen(dir) >= sizeof tk->path)
    return wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: %s=%s: the path is too long", origin, dir);
  snprintf(tk->path, sizeof tk->path, "%s", dir);
  snprintf(tk->origin, sizeof tk->origin, "%s", origin);
  tk->version = version;
  return WGP_OK;
}

wgp_status wgp_find_cuda_toolkit(char *const *flags, size_t num_flags, wgp_cuda_toolkit *tk, wgp_diag *diag) {
  memset(tk, 0, sizeof *tk);
  char why[256];
  int version;
  /* named by the user for this call or for wgperf: used, or an error */
  const char *given = flag_path(flags, num_flags);
  const char *origin = "--cuda-path";
  if (!given) {
    given = getenv("WGPERF_CUDA_PATH");
    origin = "WGPERF_CUDA_PATH";
    if (given && !*given) {
      snprintf(tk->passed_over, sizeof tk->passed_over, "WGPERF_CUDA_PATH is empty");
      return WGP_OK;
    }
  }
  if (given) {
    if (!usable(given, &version, why, sizeof why))
      return wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: %s=%s: not a CUDA toolkit clang 19 reads: %s", origin,
                          given, why);
    return take(tk, given, version, origin, diag);
  }
  /* the user's usual toolkit, then the default places */
  const char *env = getenv("CUDA_PATH");
  if (env && *env) {
    if (usable(env, &version, why, sizeof why))
      return take(tk, env, version, "CUDA_PATH", diag);
    append(tk->passed_over, sizeof tk->passed_over, "CUDA_PATH=%s: %s", env, why);
  }
  static const struct {
    const char *dir, *origin;
  } places[] = {{"/usr/local/cuda", "/usr/local/cuda"}, {"/usr/lib/cuda", "Debian's nvidia-cuda-toolkit"}};
  for (size_t i = 0; i < sizeof places / sizeof places[0]; i++) {
    if (usable(places[i].dir, &version, why, sizeof why))
      return take(tk, places[i].dir, version, places[i].origin, diag);
    append(tk->passed_over, sizeof tk->passed_over, "%s: %s", places[i].dir, why);
  }
  return WGP_OK;
}
