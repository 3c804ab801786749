/* cuda_toolkit.c - the CUDA toolkit whose headers a .cu file compiles against
 * (wgperf/driver.h, wgp_find_cuda_toolkit).
 *
 * clang 19 reads the headers of CUDA 11.0 (the first toolkit with sm_80, the
 * architecture wgperf compiles device code for) to 12.x; it knows 12.5 by name
 * and reads later 12.x headers, but not CUDA 13's.  A toolkit is a folder with
 * include/cuda.h (whose CUDA_VERSION clang reads too) and a bin/ folder, as
 * clang's own detection asks.  scripts/install-deps.sh unpacks Debian's CUDA
 * 11.8 in NVIDIA's layout into WGPERF_DEFAULT_CUDA_DIR (/opt/wgperf/cuda-11.8)
 * without installing it.  Debian's nvidia-cuda-toolkit, when installed, has that layout in
 * /usr/lib/cuda: include/cuda.h and nvvm/libdevice are links into /usr/include
 * and /usr/lib/nvidia-cuda-toolkit, bin/ is empty, and the other headers are
 * found in /usr/include, where the compiler looks anyway.
 */
#define _XOPEN_SOURCE 700
#include "wgperf/driver.h"

#include "driver_internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef WGPERF_DEFAULT_CUDA_DIR
#define WGPERF_DEFAULT_CUDA_DIR "/opt/wgperf/cuda-11.8"
#endif

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
  } places[] = {{"/usr/local/cuda", "/usr/local/cuda"},
                {WGPERF_DEFAULT_CUDA_DIR, "scripts/install-deps.sh"},
                {"/usr/lib/cuda", "Debian's nvidia-cuda-toolkit"}};
  for (size_t i = 0; i < sizeof places / sizeof places[0]; i++) {
    if (usable(places[i].dir, &version, why, sizeof why))
      return take(tk, places[i].dir, version, places[i].origin, diag);
    append(tk->passed_over, sizeof tk->passed_over, "%s: %s", places[i].dir, why);
  }
  return WGP_OK;
}

wgp_status drv_cuda_flags(const char *file, const wgp_extract_options *o, const char **v, size_t *n,
                          drv_cuda_args *b, wgp_diag *diag) {
  memset(b, 0, sizeof *b);
  wgp_cuda_toolkit tk;
  wgp_status st = wgp_find_cuda_toolkit(o->flags, o->num_flags, &tk, diag);
  if (st != WGP_OK)
    return st;
  static const char *const common[] = {"-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=sm_80", "-nocudalib",
                                       "-Wno-unknown-cuda-version",
                                       /* clang keeps only line tables of optimized device code; the
                                        * plugin names the fields of a struct argument from its type */
                                       "-Xclang", "-debug-info-kind=constructor"};
  for (size_t i = 0; i < sizeof common / sizeof common[0]; i++)
    v[(*n)++] = common[i];
  if (tk.version && strncmp(tk.passed_over, "CUDA_PATH=", 10) == 0) /* the user's, not usable */
    drv_message(o, "wgperf: warning: %s: %.*s; compiled against CUDA %d.%d at %s instead", file,
            (int)strcspn(tk.passed_over, ";"), tk.passed_over, tk.version / 1000, tk.version % 1000 / 10, tk.path);
  if (tk.version) {
    snprintf(b->headers_env, sizeof b->headers_env, "WGPERF_CUDA_HEADERS=CUDA %d.%d at %s (%s)", tk.version / 1000,
             tk.version % 1000 / 10, tk.path, tk.origin);
    /* cuda_toolkit_compat.h: what clang's CUDA wrappers leave out of the toolkit's
     * headers (docs/cuda.md) */
    if (!drv_find_header("cuda_toolkit_compat.h", b->header, sizeof b->header))
      return wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: cannot find include/wgperf/cuda_toolkit_compat.h");
    snprintf(b->cuda_path, sizeof b->cuda_path, "--cuda-path=%s", tk.path);
    /* with -nocudalib clang does not pass the toolkit's version to its front end,
     * which then lowers <<<...>>> to the pre-9.2 cudaConfigureCall that no header
     * declares */
    snprintf(b->sdk, sizeof b->sdk, "-target-sdk-version=%d.%d", tk.version / 1000, tk.version % 1000 / 10);
    if (strcmp(tk.origin, "--cuda-path") != 0)
      v[(*n)++] = b->cuda_path;
    v[(*n)++] = "-Xclang";
    v[(*n)++] = b->sdk;
    /* nvcc accepts `register` and narrowing conversions in braces, which C++17 (clang's
     * default for CUDA) makes errors */
    v[(*n)++] = "-Wno-register";
    v[(*n)++] = "-Wno-c++11-narrowing";
    /* the toolkit's headers before /usr/include: clang adds --cuda-path's include/
     * after the system folders, where Debian's nvidia-cuda-dev puts another CUDA's
     * (docs/cuda.md, "Which CUDA headers") */
    snprintf(b->include, sizeof b->include, "%s/include", tk.path);
    v[(*n)++] = "-isystem";
    v[(*n)++] = b->include;
    v[(*n)++] = "-include";
    v[(*n)++] = b->header;
    return WGP_OK;
  }
  drv_message(o,
          "wgperf: warning: %s: no CUDA toolkit that clang 19 reads (%s); compiled against wgperf's stand-ins "
          "for the CUDA headers, which declare only part of them (scripts/install-deps.sh sets up Debian's CUDA "
          "11.8)",
          file, tk.passed_over);
  snprintf(b->headers_env, sizeof b->headers_env,
           "WGPERF_CUDA_HEADERS=wgperf's stand-ins (no CUDA toolkit that clang 19 reads)");
  if (!drv_find_header("cuda_compat.h", b->header, sizeof b->header))
    return wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: cannot find include/wgperf/cuda_compat.h");
  /* include/wgperf/cuda/: the runtime's host API as declarations, so
   * that a whole program (main, cudaMalloc, <<<...>>>) parses */
  snprintf(b->hostdir, sizeof b->hostdir, "%.*s/cuda", (int)(strrchr(b->header, '/') - b->header), b->header);
  /* clang takes the PTX version from the CUDA installation it finds by itself
   * (/usr/local/cuda, /usr/lib/cuda); without one, PTX 4.2, which has no
   * __shfl_sync and the like that the stand-ins use.  PTX 7.8 (CUDA 11.8, which
   * every ptxas from 11.8 on reads) whichever CUDA is or is not installed. */
  const char *standin[] = {"-nocudainc", "--cuda-feature=+ptx78", "-include", b->header, "-isystem", b->hostdir};
  for (size_t i = 0; i < sizeof standin / sizeof standin[0]; i++)
    v[(*n)++] = standin[i];
  return WGP_OK;
}

const char *drv_installed_ptxas(void) {
  static const char path[] = WGPERF_DEFAULT_CUDA_DIR "/bin/ptxas";
  return access(path, X_OK) == 0 ? path : NULL;
}
