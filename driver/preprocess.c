/* preprocess.c - a source preprocessed as wgp_extract compiles it
 * (wgperf/preprocess.h), and what identifies the driver's tools.
 *
 * The language options below are those extract.c gives clang: a change
 * there belongs here too (test/lit/tune-cache.test compares wgtune's model
 * with `wgperf extract`'s for the same flags).  Options that do not change
 * what the preprocessor produces (-c, -emit-llvm, the plugin, -mllvm)
 * are left out; -O is kept (it defines __OPTIMIZE__), and so is -g (it
 * defines __GCC_HAVE_DWARF2_CFI_ASM): the text is what the compile's own
 * preprocessor makes, which wgperf-cc compiles in its place
 * (wgp_extract_options.preprocessed).
 */
#define _XOPEN_SOURCE 700
#include "wgperf/preprocess.h"

#include "driver_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef WGPERF_DEFAULT_CLANG
#define WGPERF_DEFAULT_CLANG "clang-19"
#endif
#ifndef WGPERF_BUILD_PLUGIN
#define WGPERF_BUILD_PLUGIN ""
#endif
#ifndef WGPERF_SOURCE_DIR
#define WGPERF_SOURCE_DIR ""
#endif

static wgp_status no_memory(wgp_diag *diag) { return wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory"); }

bool drv_is_file(const char *p) {
  struct stat st;
  return p && *p && stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

const char *drv_clang_path(void) {
  const char *env = getenv("WGPERF_CLANG");
  return env && *env ? env : WGPERF_DEFAULT_CLANG;
}

/* <the running executable's folder>/REL into BUF; false when unknown. */
bool drv_beside_exe(const char *rel, char *buf, size_t size) {
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0)
    return false;
  exe[n] = '\0';
  char *slash = strrchr(exe, '/');
  if (!slash)
    return false;
  /* joined by hand: gcc 12's -Wformat-truncation takes snprintf's checked result for a
   * truncation once this is inlined with a constant REL */
  size_t d = (size_t)(slash - exe), r = strlen(rel);
  if (d + 1 + r + 1 > size)
    return false;
  memcpy(buf, exe, d);
  buf[d] = '/';
  memcpy(buf + d + 1, rel, r + 1);
  return true;
}

/* include/wgperf/NAME, where extract.c finds it: the source tree, else
 * beside the installed tools. */
bool drv_find_header(const char *name, char *buf, size_t size) {
  if (*WGPERF_SOURCE_DIR && snprintf(buf, size, "%s/include/wgperf/%s", WGPERF_SOURCE_DIR, name) < (int)size &&
      drv_is_file(buf))
    return true;
  char rel[128];
  snprintf(rel, sizeof rel, "../include/wgperf/%s", name);
  return drv_beside_exe(rel, buf, size) && drv_is_file(buf);
}

/* Runs ARGV; its stdout into *OUT (give), its stderr into *ERR (give).
 * Returns the exit status, -1 when it could not be run (errno). */
static int run_capture(char *const argv[], char **out, size_t *outlen, char **err) {
  *out = NULL, *err = NULL, *outlen = 0;
  int po[2], pe[2];
  if (pipe(po) != 0)
    return -1;
  if (pipe(pe) != 0) {
    close(po[0]), close(po[1]);
    return -1;
  }
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid < 0) {
    close(po[0]), close(po[1]), close(pe[0]), close(pe[1]);
    return -1;
  }
  if (pid == 0) {
    dup2(po[1], 1);
    dup2(pe[1], 2);
    close(po[0]), close(po[1]), close(pe[0]), close(pe[1]);
    execvp(argv[0], argv);
    dprintf(2, "cannot run %s: %s\n", argv[0], strerror(errno));
    _exit(127);
  }
  close(po[1]), close(pe[1]);
  char *buf[2] = {NULL, NULL};
  size_t len[2] = {0, 0}, cap[2] = {0, 0};
  struct pollfd fds[2] = {{po[0], POLLIN, 0}, {pe[0], POLLIN, 0}};
  int open_fds = 2;
  bool nomem = false;
  while (open_fds > 0) {
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR)
        continue;
      break;
    }
    for (int k = 0; k < 2; k++) {
      if (fds[k].fd < 0 || !(fds[k].revents & (POLLIN | POLLHUP | POLLERR)))
        continue;
      if (cap[k] - len[k] < 65536) {
        size_t nc = cap[k] ? 2 * cap[k] : 262144;
        char *nb = realloc(buf[k], nc + 1);
        if (!nb) {
          nomem = true;
          close(fds[k].fd);
          fds[k].fd = -1;
          open_fds--;
          continue;
        }
        buf[k] = nb, cap[k] = nc;
      }
      ssize_t n = read(fds[k].fd, buf[k] + len[k], cap[k] - len[k]);
      if (n > 0)
        len[k] += (size_t)n;
      else if (n == 0 || errno != EINTR) {
        close(fds[k].fd);
        fds[k].fd = -1;
        open_fds--;
      }
    }
  }
  for (int k = 0; k < 2; k++)
    if (fds[k].fd >= 0)
      close(fds[k].fd);
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) {
      status = -1;
      break;
    }
  for (int k = 0; k < 2; k++)
    if (!buf[k] && !nomem)
      buf[k] = malloc(1);
  if (nomem || !buf[0] || !buf[1]) {
    free(buf[0]);
    free(buf[1]);
    errno = ENOMEM;
    return -1;
  }
  buf[0][len[0]] = '\0';
  buf[1][len[1]] = '\0';
  *out = buf[0], *outlen = len[0], *err = buf[1];
  if (status == -1)
    return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

bool wgp_first_error_line(const char *log, char *buf, size_t size) {
  buf[0] = '\0';
  if (!log || !*log)
    return false;
  const char *first = NULL;
  for (const char *l = log; *l;) {
    const char *e = strchr(l, '\n');
    size_t n = e ? (size_t)(e - l) : strlen(l);
    bool blank = true;
    for (size_t i = 0; i < n && blank; i++)
      blank = l[i] == ' ' || l[i] == '\t' || l[i] == '\r';
    if (!blank && !first)
      first = l;
    const char *err = NULL;
    for (size_t i = 0; i + 6 <= n && !err; i++)
      if (memcmp(l + i, "error", 5) == 0 && (l[i + 5] == ':' || l[i + 5] == ' ') && (i == 0 || l[i - 1] == ' ' ||
                                                                                        l[i - 1] == ':'))
        err = l;
    if (err) {
      int w = snprintf(buf, size, "%.*s", (int)n, l);
      /* its first note, before the next error: what makes the error plain
       * ("no matching function for call to 'f'" and, below, "candidate
       * function not viable: call to __global__ function from __global__
       * function") */
      for (const char *m = l + n + (e ? 1 : 0); *m && w > 0 && (size_t)w < size;) {
        const char *me = strchr(m, '\n');
        size_t mn = me ? (size_t)(me - m) : strlen(m);
        const char *note = NULL, *again = NULL;
        for (size_t i = 0; i + 7 <= mn && !note && !again; i++) {
          if (i + 8 <= mn && memcmp(m + i, ": note: ", 8) == 0)
            note = m;
          else if (memcmp(m + i, ": error", 7) == 0)
            again = m;
        }
        if (again)
          break;
        if (note) {
          snprintf(buf + w, size - (size_t)w, "; %.*s", (int)mn, m);
          break;
        }
        m += mn + (me ? 1 : 0);
      }
      return true;
    }
    l += n + (e ? 1 : 0);
  }
  if (!first)
    return false;
  const char *e = strchr(first, '\n');
  snprintf(buf, size, "%.*s", (int)(e ? (size_t)(e - first) : strlen(first)), first);
  return true;
}

void wgp_preprocessed_free(wgp_preprocessed *p) {
  if (!p)
    return;
  free(p->text);
  for (size_t i = 0; i < p->ndeps; i++)
    free(p->deps[i]);
  free(p->deps);
  free(p->log);
  memset(p, 0, sizeof *p);
}

/* nvcc's options with a clang equivalent (wgp_nvcc_clang_equivalent): those
 * of the front end, and the back end's through -mllvm */
static const struct {
  const char *name, *value, *clang[2];
} nvcc_table[] = {
    {"use_fast_math", NULL, {"-ffast-math", "-fgpu-flush-denormals-to-zero"}},
    {"ftz", "true", {"-fgpu-flush-denormals-to-zero", NULL}},
    {"fmad", "false", {"-ffp-contract=off", NULL}},
    {"prec-div", "false", {"-mllvm", "-nvptx-prec-divf32=1"}},
    {"prec-sqrt", "false", {"-mllvm", "-nvptx-prec-sqrtf32=0"}},
};

size_t wgp_nvcc_clang_equivalent(const char *option, const char *value, const char *out[2]) {
  if (option[0] != '-')
    return 0;
  const char *name = option + (option[1] == '-' ? 2 : 1), *eq = strchr(name, '=');
  size_t len = eq ? (size_t)(eq - name) : strlen(name);
  if (eq && value)
    return 0;
  value = eq ? eq + 1 : value;
  for (size_t i = 0; i < sizeof nvcc_table / sizeof *nvcc_table; i++)
    if (strlen(nvcc_table[i].name) == len && strncmp(name, nvcc_table[i].name, len) == 0 &&
        (nvcc_table[i].value ? value && strcmp(value, nvcc_table[i].value) == 0 : !value)) {
      out[0] = nvcc_table[i].clang[0], out[1] = nvcc_table[i].clang[1];
      return out[1] ? 2 : 1;
    }
  return 0;
}

size_t wgp_maxrregcount_option(const char *option, const char *next, long *value) {
  const char *name = option[0] == '-' ? option + (option[1] == '-' ? 2 : 1) : NULL;
  if (name && strncmp(name, "cl-nv-", 6) == 0)
    name += 6;
  if (!name || strncmp(name, "maxrregcount", 12) != 0 || (name[12] != '=' && name[12] != '\0'))
    return 0;
  const char *v = name[12] == '=' ? name + 13 : next;
  char *end = NULL;
  long x = v && *v ? strtol(v, &end, 10) : -1;
  *value = end && !*end && x >= 1 && x <= 255 ? x : -1;
  return name[12] == '=' || !v ? 1 : 2;
}

int wgp_ptxas_cache_option(const char *option, const char **value) {
  static const struct {
    const char *name;
    int kind;
    const char *ops[6];
  } forms[] = {{"-dlcm=", 1, {"ca", "cg", "cs", "lu", "cv", NULL}},
               {"--def-load-cache=", 1, {"ca", "cg", "cs", "lu", "cv", NULL}},
               {"-dscm=", 2, {"wb", "cg", "cs", "wt", NULL}},
               {"--def-store-cache=", 2, {"wb", "cg", "cs", "wt", NULL}}};
  for (size_t f = 0; f < sizeof forms / sizeof *forms; f++) {
    size_t len = strlen(forms[f].name);
    if (strncmp(option, forms[f].name, len) != 0)
      continue;
    *value = NULL;
    for (size_t q = 0; forms[f].ops[q]; q++)
      if (strcmp(option + len, forms[f].ops[q]) == 0)
        *value = forms[f].ops[q];
    return forms[f].kind;
  }
  return 0;
}

size_t wgp_driver_option(const char *option, const char *next, const char **want) {
  const char *op, *why = NULL;
  long count;
  size_t took = 1;
  int kind = wgp_ptxas_cache_option(option, &op);
  if (kind == 1 && !op)
    why = "one of ca, cg, cs, lu, cv (ptxas' cache operators of a load)";
  else if (kind == 2 && !op)
    why = "one of wb, cg, cs, wt (ptxas' cache operators of a store)";
  else if (!kind && (took = wgp_maxrregcount_option(option, next, &count)) && count < 0)
    why = "a number of registers per thread, 1 to 255";
  if (want)
    *want = why;
  return took;
}

/* wgp_driver_option at FLAGS[I] of N flags. */
static size_t own_flag(char *const *flags, size_t n, size_t i, const char **want) {
  return wgp_driver_option(flags[i], i + 1 < n ? flags[i + 1] : NULL, want);
}

wgp_status drv_take_own_flags(const char *file, const wgp_extract_options *o, wgp_extract_options *copy,
                              wgp_diag *diag) {
  *copy = *o;
  for (size_t i = 0; i < o->num_flags;) {
    const char *want, *op;
    size_t took = own_flag(o->flags, o->num_flags, i, &want);
    if (took && want)
      return wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: %s: '%s%s%s': expected %s", file, o->flags[i],
                          took == 2 ? " " : "", took == 2 ? o->flags[i + 1] : "", want);
    /* the last one given of each, as nvcc and ptxas take them */
    int kind = took ? wgp_ptxas_cache_option(o->flags[i], &op) : 0;
    long v;
    if (kind == 1)
      copy->load_cache = op;
    else if (kind == 2)
      copy->store_cache = op;
    else if (took && wgp_maxrregcount_option(o->flags[i], i + 1 < o->num_flags ? o->flags[i + 1] : NULL, &v))
      copy->max_registers = (unsigned)v;
    i += took ? took : 1;
  }
  return WGP_OK;
}

size_t drv_append_flags(const wgp_extract_options *o, const char **v, size_t n) {
  for (size_t i = 0; i < o->num_flags; i++) {
    size_t skip = own_flag(o->flags, o->num_flags, i, NULL);
    if (skip)
      i += skip - 1;
    else
      v[n++] = o->flags[i];
  }
  return n;
}

wgp_status drv_opt_flags(const char *file, const wgp_extract_options *o, const char **v, size_t *n, wgp_diag *diag) {
  size_t from = *n, to = drv_append_flags(o, v, *n);
  size_t out = from;
  for (size_t i = from; i < to; i++) {
    /* the front end's equivalents (not those through -mllvm) */
    for (size_t q = 0; q < sizeof nvcc_table / sizeof *nvcc_table; q++)
      for (int c = 0; c < 2 && strcmp(nvcc_table[q].clang[0], "-mllvm") != 0; c++)
        if (nvcc_table[q].clang[c] && strcmp(v[i], nvcc_table[q].clang[c]) == 0)
          return wgp_diag_set(diag, WGP_ERR_INPUT,
                              "wgperf: error: %s: '%s' (what nvcc's -use_fast_math, -ftz=true or -fmad=false is for "
                              "clang) changes how a source compiles; LLVM IR is compiled already and carries its "
                              "own fast-math flags: give it to the compile that made the IR",
                              file, v[i]);
    if (strcmp(v[i], "-mllvm") == 0 && i + 1 < to) /* opt takes the back end's options itself */
      continue;
    v[out++] = v[i];
  }
  *n = out;
  return WGP_OK;
}

/* The prerequisites of a make rule as clang -MD writes it. */
static bool parse_deps(const char *text, wgp_preprocessed *out) {
  const char *p = strchr(text, ':');
  /* "C:\..." cannot occur here; the first ": " ends the target */
  while (p && p[1] != ' ' && p[1] != '\n' && p[1] != '\\' && p[1] != '\0')
    p = strchr(p + 1, ':');
  if (!p)
    return true;
  p++;
  char word[PATH_MAX];
  size_t n = 0;
  for (;; p++) {
    char c = *p;
    bool end = c == '\0' || c == ' ' || c == '\t' || c == '\n' || c == '\r';
    if (c == '\\' && (p[1] == '\n' || (p[1] == '\r' && p[2] == '\n'))) {
      p += p[1] == '\r' ? 2 : 1;
      end = true;
    } else if (c == '\\' && p[1] == ' ') {
      if (n + 1 < sizeof word)
        word[n++] = ' ';
      p++;
      continue;
    } else if (c == '$' && p[1] == '$') {
      if (n + 1 < sizeof word)
        word[n++] = '$';
      p++;
      continue;
    }
    if (end) {
      if (n) {
        word[n] = '\0';
        char **d = realloc(out->deps, (out->ndeps + 1) * sizeof *d);
        if (!d)
          return false;
        out->deps = d;
        if (!(d[out->ndeps] = strdup(word)))
          return false;
        out->ndeps++;
        n = 0;
      }
      if (c == '\0')
        break;
      continue;
    }
    if (n + 1 < sizeof word)
      word[n++] = c;
  }
  return true;
}

wgp_status drv_preprocess_argv(const char *file, wgp_source_kind kind, const wgp_extract_options *opts,
                               const char *depfile, const char *output, drv_argv *out, wgp_diag *diag) {
  static const wgp_extract_options defaults = {0};
  const wgp_extract_options *o = opts ? opts : &defaults;
  memset(out, 0, sizeof *out);
  if (kind != WGP_SOURCE_OPENCL && kind != WGP_SOURCE_CUDA)
    return wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: %s: only .cl and .cu sources are preprocessed", file);
  if (kind == WGP_SOURCE_OPENCL && !drv_find_header("opencl_compat.h", out->header, sizeof out->header))
    return wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: cannot find include/wgperf/opencl_compat.h");
  snprintf(out->oflag, sizeof out->oflag, "-O%s", o->olevel ? o->olevel : "3");
  const char **v = malloc((48 + o->num_flags + 1) * sizeof *v);
  if (!v)
    return no_memory(diag);
  size_t n = 0;
  v[n++] = drv_clang_path();
  if (kind == WGP_SOURCE_OPENCL) {
    const char *cl[] = {"-x", "cl", "-cl-std=CL1.2", "-Xclang", "-finclude-default-header", "-target",
                        "nvptx64-nvidia-nvcl", "-include", out->header};
    for (size_t i = 0; i < sizeof cl / sizeof *cl; i++)
      v[n++] = cl[i];
  } else {
    wgp_status st = drv_cuda_flags(file, o, v, &n, &out->cuda, diag);
    if (st != WGP_OK) {
      free(v);
      return st;
    }
  }
  const char *common[] = {out->oflag, "-g", "-E", "-MD", "-MF", depfile, "-o", output, file};
  for (size_t i = 0; i < sizeof common / sizeof *common; i++)
    v[n++] = common[i];
  n = drv_append_flags(o, v, n);
  v[n] = NULL;
  out->v = v, out->n = n;
  return WGP_OK;
}

wgp_status drv_read_deps(const char *depfile, wgp_preprocessed *out, wgp_diag *diag) {
  char *deps;
  size_t dlen;
  wgp_diag dd;
  if (wgp_read_file(depfile, &deps, &dlen, &dd) != WGP_OK)
    return WGP_OK; /* no dependencies known: the direct-mode cache will not be used */
  bool ok = parse_deps(deps, out);
  free(deps);
  return ok ? WGP_OK : no_memory(diag);
}

wgp_status wgp_preprocess(const char *file, wgp_source_kind kind, const wgp_extract_options *opts,
                          wgp_preprocessed *out, wgp_diag *diag) {
  memset(out, 0, sizeof *out);
  FILE *probe = fopen(file, "rb");
  if (!probe)
    return wgp_diag_set(diag, WGP_ERR_IO, "wgperf: error: %s: %s", file, strerror(errno));
  fclose(probe);
  char depfile[PATH_MAX];
  int fd = wgp_temp_template(depfile, sizeof depfile, "wgperf-deps", "") ? mkstemp(depfile) : -1;
  if (fd < 0)
    return wgp_diag_set(diag, WGP_ERR_IO, "wgperf: error: cannot make a temporary file: %s", strerror(errno));
  close(fd);
  drv_argv a;
  wgp_status st = drv_preprocess_argv(file, kind, opts, depfile, "-", &a, diag);
  if (st != WGP_OK) {
    unlink(depfile);
    return st;
  }
  int rc = run_capture((char *const *)a.v, &out->text, &out->len, &out->log);
  free(a.v);
  if (rc < 0) {
    st = errno == ENOMEM ? no_memory(diag)
                         : wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: %s: cannot run %s: %s", file,
                                        drv_clang_path(), strerror(errno));
  } else if (rc != 0) {
    char line[WGP_DIAG_SIZE - 64];
    if (!wgp_first_error_line(out->log, line, sizeof line))
      snprintf(line, sizeof line, "%s failed (exit %d)", drv_clang_path(), rc);
    st = wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: %s: %s", file, line);
  } else {
    st = drv_read_deps(depfile, out, diag);
  }
  unlink(depfile);
  return st;
}

/* "path size mtime" of FILE into BUF. */
static void file_stamp(const char *file, char *buf, size_t size) {
  struct stat st;
  if (file && stat(file, &st) == 0)
    snprintf(buf, size, "%s %lld %lld.%09ld", file, (long long)st.st_size, (long long)st.st_mtim.tv_sec,
             st.st_mtim.tv_nsec);
  else
    snprintf(buf, size, "%s (none)", file ? file : "");
}

/* The first line TOOL --version prints, into BUF. */
static void tool_version(const char *tool, char *buf, size_t size) {
  char *argv[] = {(char *)tool, "--version", NULL};
  char *out = NULL, *err = NULL;
  size_t len;
  buf[0] = '\0';
  if (run_capture(argv, &out, &len, &err) == 0 && out) {
    /* the line with the release: clang's first, ptxas' last */
    const char *rel = strstr(out, "release ");
    const char *line = rel ? rel : out;
    snprintf(buf, size, "%.*s", (int)strcspn(line, "\n"), line);
  }
  free(out);
  free(err);
}

wgp_status wgp_driver_identity(char **out, wgp_diag *diag) {
  char plugin[PATH_MAX] = "", clang_v[256], ptxas_v[256] = "none", pstamp[PATH_MAX + 64];
  const char *env = getenv("WGPERF_PLUGIN");
  if (env && *env)
    snprintf(plugin, sizeof plugin, "%s", env);
  else if (drv_is_file(WGPERF_BUILD_PLUGIN))
    snprintf(plugin, sizeof plugin, "%s", WGPERF_BUILD_PLUGIN);
  else
    drv_beside_exe("../lib/libwgperf.so", plugin, sizeof plugin);
  file_stamp(plugin, pstamp, sizeof pstamp);
  tool_version(drv_clang_path(), clang_v, sizeof clang_v);
  const char *ptxas = wgp_find_ptxas();
  if (ptxas) {
    char v[200];
    tool_version(ptxas, v, sizeof v);
    snprintf(ptxas_v, sizeof ptxas_v, "%s: %s", ptxas, v);
  }
  size_t n = strlen(pstamp) + strlen(clang_v) + strlen(ptxas_v) + strlen(drv_clang_path()) + 64;
  *out = malloc(n);
  if (!*out)
    return no_memory(diag);
  snprintf(*out, n, "clang %s: %s\nplugin %s\nptxas %s\n", drv_clang_path(), clang_v, pstamp, ptxas_v);
  return WGP_OK;
}
