/* extract.c - a kernel source or IR file compiled into a kernel model
 * (wgperf/driver.h).
 *
 * clang-19 -fpass-plugin=libwgperf.so for .cl/.cu, opt -load-pass-plugin for
 * .bc/.ll; the plugin writes the model to $WGPERF_OUTPUT.  For ptxas' register
 * count (registers.c) a second clang compile without the plugin runs beside
 * the first and keeps its bitcode.
 */
#define _XOPEN_SOURCE 700
#include "wgperf/driver.h"

#include "driver_internal.h"
#include "files_internal.h"
#include "model_cache_internal.h"
#include "registers_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <dirent.h>
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

static wgp_status no_memory(wgp_diag *diag) {
  return wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
}

/* A+B+C; give: free(); NULL when out of memory. */
static char *concat(const char *a, const char *b, const char *c) {
  size_t n = strlen(a) + strlen(b) + strlen(c) + 1;
  char *p = malloc(n);
  if (p)
    snprintf(p, n, "%s%s%s", a, b, c);
  return p;
}

static bool is_file(const char *p) {
  struct stat st;
  return p && *p && stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static bool ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && strcmp(s + n - m, suffix) == 0;
}

static const char *base_name(const char *p) {
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

wgp_source_kind wgp_source_kind_of(const char *file) {
  if (ends_with(file, ".cl"))
    return WGP_SOURCE_OPENCL;
  if (ends_with(file, ".cu"))
    return WGP_SOURCE_CUDA;
  if (ends_with(file, ".bc") || ends_with(file, ".ll"))
    return WGP_SOURCE_IR;
  return WGP_SOURCE_UNKNOWN;
}

/* The folder of the running executable ("" when unknown); give: free();
 * NULL when out of memory. */
static char *exe_dir(void) {
  char buf[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0)
    return strdup("");
  buf[n] = '\0';
  char *slash = strrchr(buf, '/');
  if (slash)
    *slash = '\0';
  return strdup(buf);
}

/* Where FILE is, of $ENV (when set), BUILT (when a file) and
 * <executable's folder>/RELATIVE (when a file); *OUT (give) is NULL when none
 * is.  Fails only when out of memory. */
static wgp_status find_file(const char *env, const char *built, const char *relative, char **out, wgp_diag *diag) {
  *out = NULL;
  const char *given = env ? getenv(env) : NULL;
  if ((given && *given) || is_file(built)) {
    *out = strdup(given && *given ? given : built);
    return *out ? WGP_OK : no_memory(diag);
  }
  char *dir = exe_dir();
  char *p = dir ? concat(dir, "/", relative) : NULL;
  free(dir);
  if (!p)
    return no_memory(diag);
  if (is_file(p))
    *out = p;
  else
    free(p);
  return WGP_OK;
}

/* include/wgperf/NAME: in the source tree, else beside the installed tools. */
static wgp_status find_header(const char *name, char **out, wgp_diag *diag) {
  char *built = concat(WGPERF_SOURCE_DIR, "/include/wgperf/", name);
  char *relative = concat("../include/wgperf/", name, "");
  wgp_status st =
      built && relative ? find_file(NULL, *WGPERF_SOURCE_DIR ? built : "", relative, out, diag) : no_memory(diag);
  free(built);
  free(relative);
  if (st == WGP_OK && !*out)
    st = wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: cannot find include/wgperf/%s", name);
  return st;
}

static const char *clang_path(void) {
  const char *env = getenv("WGPERF_CLANG");
  return env && *env ? env : WGPERF_DEFAULT_CLANG;
}

/* opt from the same LLVM as clang: /usr/bin/clang-19 -> /usr/lib/llvm-19/bin/opt;
 * give: free(); NULL when out of memory. */
static char *opt_path(void) {
  const char *env = getenv("WGPERF_OPT");
  if (env && *env)
    return strdup(env);
  char real[PATH_MAX];
  if (realpath(clang_path(), real)) {
    char *slash = strrchr(real, '/');
    if (slash) {
      *slash = '\0';
      char *p = concat(real, "/", "opt");
      if (!p || is_file(p))
        return p;
      free(p);
    }
  }
  return strdup("opt-19");
}

void drv_message(const wgp_extract_options *o, const char *fmt, ...) {
  if (!o->message)
    return;
  char line[WGP_DIAG_SIZE];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  o->message(o->message_user, line);
}

/* A tool started by start_tool: its process and the pipe that reports a
 * failed exec (pid 0: it could not be started, and DIAG says why). */
typedef struct {
  pid_t pid;
  int pipe;
} tool_run;

/* Starts ARGV with WGPERF_OUTPUT=OUTPUT; stdout passes through, stderr too
 * unless QUIET (then it goes to /dev/null) or ERRLOG names a file (then it goes
 * there).  finish_tool waits for it. */
static tool_run start_tool(const char *input, char *const argv[], const char *output, bool quiet, const char *errlog,
                           const char *env, wgp_diag *diag) {
  tool_run r = {0, -1};
  int pipefd[2];
  if (pipe(pipefd) != 0) {
    wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: %s: cannot create a pipe: %s", input, strerror(errno));
    return r;
  }
  fcntl(pipefd[1], F_SETFD, FD_CLOEXEC);
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid < 0) {
    close(pipefd[0]);
    close(pipefd[1]);
    wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: %s: cannot fork: %s", input, strerror(errno));
    return r;
  }
  if (pid == 0) {
    close(pipefd[0]);
    if (quiet || errlog) {
      int fd = quiet ? open("/dev/null", O_WRONLY) : open(errlog, O_WRONLY | O_CREAT | O_TRUNC, 0600);
      if (fd >= 0)
        dup2(fd, 2);
    }
    /* WGPERF_TOOL: a module without kernels is ours to report (once) */
    if (setenv("WGPERF_OUTPUT", output, 1) == 0 && setenv("WGPERF_TOOL", "1", 1) == 0 &&
        (!env || putenv((char *)env) == 0))
      execvp(argv[0], argv);
    int err = errno;
    ssize_t unused = write(pipefd[1], &err, sizeof err);
    (void)unused;
    _exit(127);
  }
  close(pipefd[1]);
  r.pid = pid;
  r.pipe = pipefd[0];
  return r;
}

/* Waits for R (ARGV's run).  WGP_OK when it succeeded, else WGP_ERR_INPUT
 * and, unless QUIET or it never started, why in DIAG. */
static wgp_status finish_tool(const char *input, char *const argv[], tool_run r, bool quiet, wgp_diag *diag) {
  if (r.pid == 0)
    return WGP_ERR_INPUT;
  int err = 0;
  ssize_t n;
  do
    n = read(r.pipe, &err, sizeof err);
  while (n < 0 && errno == EINTR);
  close(r.pipe);
  int status;
  while (waitpid(r.pid, &status, 0) < 0)
    if (errno != EINTR)
      return quiet ? WGP_ERR_INPUT
                   : wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: %s: waiting for %s: %s", input,
                                  base_name(argv[0]), strerror(errno));
  if (quiet && (n == (ssize_t)sizeof err || !WIFEXITED(status) || WEXITSTATUS(status) != 0))
    return WGP_ERR_INPUT;
  if (n == (ssize_t)sizeof err)
    return wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: %s: cannot run %s: %s", input, argv[0], strerror(err));
  if (WIFSIGNALED(status))
    return wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: %s: %s killed by signal %d", input, base_name(argv[0]),
                        WTERMSIG(status));
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: %s: %s failed (exit %d)", input, base_name(argv[0]),
                        WEXITSTATUS(status));
  return WGP_OK;
}

/* Runs ARGV with WGPERF_OUTPUT=OUTPUT and ENV (NAME=VALUE, or NULL) in its environment;
 * stdout passes through, stderr too, or through ERRLOG (when not NULL) once the tool is
 * done, so that it can be read (and recorded in LOG, when not NULL: the model cache). */
static wgp_status run_tool(const char *input, char *const argv[], const char *output, const char *errlog,
                           const char *env, mc_log *log, wgp_diag *diag) {
  wgp_status st = finish_tool(input, argv, start_tool(input, argv, output, false, errlog, env, diag), false, diag);
  FILE *f = errlog ? fopen(errlog, "r") : NULL;
  if (f) {
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
      fwrite(buf, 1, n, stderr);
      if (log)
        mc_log_stderr(log, buf, n);
    }
    fclose(f);
    fflush(stderr);
  }
  return st;
}

/* The file of FILE's folder (DIR, BASE its parts) that #includes a file named
 * BASE, into OUT; false when none does.  Only #include "..." lines count. */
static bool includer(const char *dir, const char *base, const char *except, char *out, size_t n) {
  DIR *d = opendir(*dir ? dir : ".");
  if (!d)
    return false;
  bool found = false;
  size_t bl = strlen(base);
  for (struct dirent *e; !found && (e = readdir(d));) {
    const char *name = e->d_name;
    if (!(ends_with(name, ".cu") || ends_with(name, ".cuh") || ends_with(name, ".h") || ends_with(name, ".c") ||
          ends_with(name, ".cpp") || ends_with(name, ".cl")) ||
        strcmp(name, base) == 0 || (except && strcmp(name, except) == 0))
      continue;
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s%s%s", dir, *dir ? "/" : "", name);
    FILE *f = fopen(path, "r");
    if (!f)
      continue;
    char line[1024];
    while (!found && fgets(line, sizeof line, f)) {
      const char *p = line + strspn(line, " \t");
      if (*p != '#')
        continue;
      p += 1 + strspn(p + 1, " \t");
      if (strncmp(p, "include", 7) != 0)
        continue;
      p += 7 + strspn(p + 7, " \t");
      if (*p != '"')
        continue;
      const char *q = strchr(p + 1, '"');
      /* "kernel.cu" or "./kernel.cu": the name after the last slash */
      if (q && (size_t)(q - p - 1) >= bl && strncmp(q - bl, base, bl) == 0 && (q - bl == p + 1 || q[-(long)bl - 1] == '/')) {
        snprintf(out, n, "%s", name);
        found = true;
      }
    }
    fclose(f);
  }
  closedir(d);
  return found;
}

/* Why clang failed on FILE, from its messages in LOG, for the error: the first
 * error, and for a file another one #includes (a fragment, which does not compile
 * alone), which file to extract instead.  Empty when LOG says nothing useful. */
static void explain_failure(const char *file, const char *log, char *out, size_t n) {
  out[0] = '\0';
  FILE *f = fopen(log, "r");
  if (!f)
    return;
  char line[1024], first[512] = "";
  while (fgets(line, sizeof line, f)) {
    const char *e = strstr(line, ": error: ");
    if (e) {
      line[strcspn(line, "\n")] = '\0';
      snprintf(first, sizeof first, "%s", e + 9);
      break;
    }
  }
  fclose(f);
  if (!*first)
    return;
  /* the declaration missing: "use of undeclared identifier 'fp'", "unknown type name 'fp'" */
  char missing[256] = "";
  static const char *const kinds[] = {"undeclared identifier '", "unknown type name '", "no template named '"};
  for (size_t k = 0; k < sizeof kinds / sizeof kinds[0] && !*missing; k++) {
    const char *p = strstr(first, kinds[k]);
    if (p) {
      p += strlen(kinds[k]);
      snprintf(missing, sizeof missing, "%.*s", (int)strcspn(p, "'"), p);
    }
  }
  char dir[PATH_MAX];
  snprintf(dir, sizeof dir, "%s", file);
  char *slash = strrchr(dir, '/');
  const char *base = slash ? slash + 1 : file;
  if (slash)
    *slash = '\0';
  else
    dir[0] = '\0';
  char by[256], top[256] = "", chain[256] = "";
  if (!*missing || !includer(dir, base, NULL, by, sizeof by)) {
    snprintf(out, n, "%s", first);
    return;
  }
  /* the file that includes it, and the one that includes that, ... (bounded) */
  snprintf(top, sizeof top, "%s", by);
  for (int depth = 0; depth < 8; depth++) {
    char up[256];
    if (!includer(dir, top, base, up, sizeof up) || strcmp(up, by) == 0)
      break;
    snprintf(chain, sizeof chain, "%s", top);
    snprintf(top, sizeof top, "%s", up);
  }
  const char *sep = *dir ? "/" : "";
  int w = snprintf(out, n, "'%s' is declared neither in %s nor in what it includes: it is a fragment that %s%s%s "
                   "#includes; extract %s%s%s instead", missing, base, dir, sep, by, dir, sep, top);
  if (*chain && w > 0 && (size_t)w < n)
    snprintf(out + w, n - (size_t)w, " (it includes %s through %s)", base, chain);
}

/* Whether IR input is OpenCL for NVIDIA (so it needs libclc before llc). */
static bool opencl_ir(const char *file) {
  FILE *f = fopen(file, "rb");
  if (!f)
    return false;
  char buf[65536];
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = '\0';
  for (size_t i = 0; i + 5 < n; i++)
    if (memcmp(buf + i, "nvcl", 4) == 0 || memcmp(buf + i, "spir_kernel", 11 < n - i ? 11 : n - i) == 0)
      return true;
  return false;
}

/* wgp_extract's compile of FILE (KIND) with the pass plugin PLUGIN into OUT.
 * With DEPFILE, clang writes the files it read there (a source's); with LOG,
 * what the compile shows the user is recorded there too (O's messages go
 * through it already: mc_log_message). */
static wgp_status compile_model(const char *file, wgp_source_kind kind, const wgp_extract_options *o,
                                const char *plugin, const char *out, const char *depfile, mc_log *log,
                                wgp_diag *diag) {
  const char *olevel = o->olevel;
  wgp_status st = WGP_OK;
  char pidbuf[32];
  snprintf(pidbuf, sizeof pidbuf, ".tmp%ld", (long)getpid());
  char *tmp = concat(out, pidbuf, "");
  /* Keep the bitcode when ptxas can count registers from it. */
  bool keep_bitcode = wgp_find_ptxas() && kind != WGP_SOURCE_IR;
  char *bitcode = keep_bitcode && tmp ? concat(tmp, ".bc", "") : NULL;
  drv_cuda_args *cuda = NULL; /* a CUDA source's flags' strings */
  char *plugin_flag = NULL, *oflag = NULL, *header = NULL, *tool = NULL,
       *passes = NULL, *errlog = NULL;
  const char *args[64 + 1];
  int n = 0;
  const char **argvx = NULL, **argvx2 = NULL;
  bool own_unroll = false;
  int plugin_at = -1, out_at = -1, unroll_at = -1;
  if (!tmp || (keep_bitcode && !bitcode)) {
    st = no_memory(diag);
    goto done;
  }
  for (size_t i = 0; i < o->num_flags; i++)
    own_unroll = own_unroll || strstr(o->flags[i], "unroll-threshold") != NULL;

  if (kind == WGP_SOURCE_IR) {
    tool = opt_path();
    plugin_flag = concat("-load-pass-plugin=", plugin, "");
    passes = olevel ? concat("-passes=default<O", olevel, ">,wgperf-extract") : strdup("-passes=wgperf-extract");
    if (!tool || !plugin_flag || !passes) {
      st = no_memory(diag);
      goto done;
    }
    const char *fixed[] = {tool, plugin_flag, passes, "-disable-output", file};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
      args[n++] = fixed[i];
    if (olevel && !own_unroll) /* optimizing here: unroll as nvcc would (below) */
      args[n++] = "-unroll-threshold=" WGP_NVCC_UNROLL_THRESHOLD;
  } else {
    tool = strdup(clang_path());
    plugin_flag = concat("-fpass-plugin=", plugin, "");
    /* -O3 by default: nvcc and NVIDIA's OpenCL compiler optimize device code at -O3 (its
     * loop unrolling decides what the GPU executes) */
    oflag = concat("-O", olevel ? olevel : "3", "");
    if (!tool || !plugin_flag || !oflag) {
      st = no_memory(diag);
      goto done;
    }
    args[n++] = tool;
    if (kind == WGP_SOURCE_OPENCL) {
      /* opencl_compat.h: the built-ins that are memory accesses or plain
       * arithmetic (vloadN, vstoreN, dot, length, ...), defined so that the
       * plugin sees their work */
      if ((st = find_header("opencl_compat.h", &header, diag)) != WGP_OK)
        goto done;
      const char *cl[] = {"-x",        "cl",          "-cl-std=CL1.2", "-Xclang", "-finclude-default-header",
                          "-cl-kernel-arg-info", "-target", "nvptx64-nvidia-nvcl", "-include", header};
      for (size_t i = 0; i < sizeof cl / sizeof cl[0]; i++)
        args[n++] = cl[i];
    } else {
      size_t cn = (size_t)n;
      if (!(cuda = malloc(sizeof *cuda))) {
        st = no_memory(diag);
        goto done;
      }
      if ((st = drv_cuda_flags(file, o, args, &cn, cuda, diag)) != WGP_OK)
        goto done;
      n = (int)cn;
    }
    const char *common[] = {"-fno-discard-value-names", "-g", oflag, "-c", "-emit-llvm", plugin_flag,
                            "-o", bitcode ? bitcode : "/dev/null", file};
    for (size_t i = 0; i < sizeof common / sizeof common[0]; i++) {
      if (common[i] == plugin_flag)
        plugin_at = n;
      else if (i > 0 && strcmp(common[i - 1], "-o") == 0)
        out_at = n;
      args[n++] = common[i];
    }
    /* NVIDIA's compilers unroll more than clang -O3: probe loops compiled by nvcc 13.0 to PTX
     * and by clang 19 (docs/kernel-model.md, "Unrolling") agree on full unrolling at this
     * threshold (clang's own is 300: a 32-iteration copy loop stays 4x unrolled, where nvcc
     * issues all 32 loads at once).  A threshold the user gives wins. */
    if (!own_unroll) {
      unroll_at = n;
      args[n++] = "-mllvm";
      args[n++] = "-unroll-threshold=" WGP_NVCC_UNROLL_THRESHOLD;
    }
  }
  size_t all = (size_t)n;
  argvx = malloc((all + o->num_flags + 4) * sizeof *argvx);
  if (!argvx) {
    st = no_memory(diag);
    goto done;
  }
  memcpy(argvx, args, (size_t)n * sizeof *args);
  if (kind != WGP_SOURCE_IR)
    all = drv_append_flags(o, argvx, all);
  else if ((st = drv_opt_flags(file, o, argvx, &all, diag)) != WGP_OK)
    goto done;
  argvx[all] = NULL;

  /* The register count comes from ptxas over bitcode at clang's own unrolling: LLVM's
   * NVPTX code for the more unrolled loops keeps far more values live than ptxas does with
   * nvcc's (subSeqMax: 128 registers against nvcc's 32; docs/kernel-model.md, "Unrolling"),
   * so that bitcode is a second compile, without the plugin.
   * The two compiles run at once; the second's messages are the first's, so it is quiet. */
  bool second = bitcode && unroll_at >= 0;
  /* A CUDA source goes to nvcc, which compiles it as the program is built;
   * the bitcode for ptxas is made only where nvcc gives no count. */
  bool nvcc_first = second && kind == WGP_SOURCE_CUDA && wgp_find_nvcc();
  tool_run other = {0, -1};
  if (second) {
    argvx2 = malloc((all + 2) * sizeof *argvx2);
    if (!argvx2) {
      st = no_memory(diag);
      goto done;
    }
    size_t m = 0;
    for (size_t i = 0; i < all; i++)
      if ((int)i != plugin_at && (int)i != unroll_at && (int)i != unroll_at + 1)
        argvx2[m++] = (int)i == out_at ? bitcode : argvx[i];
    argvx2[m++] = "-w";
    argvx2[m] = NULL;
    argvx[out_at] = "/dev/null";
    if (!nvcc_first) {
      wgp_diag started;
      other = start_tool(file, (char *const *)argvx2, tmp, true, NULL, NULL, &started);
      if (other.pid == 0) /* the model can still be made: not the error this call fails with */
        drv_message(o, "%s", started.message);
    }
  }
  if (depfile && kind != WGP_SOURCE_IR) { /* the files the compile reads (the model cache) */
    argvx[all] = "-MD";
    argvx[all + 1] = "-MF";
    argvx[all + 2] = depfile;
    argvx[all + 3] = NULL;
  }
  unlink(tmp);
  /* clang's messages, read when it fails (explain_failure), and opt's when they are recorded */
  errlog = kind != WGP_SOURCE_IR || log ? concat(tmp, ".log", "") : NULL;
  st = run_tool(file, (char *const *)argvx, tmp, errlog, cuda ? cuda->headers_env : NULL, log, diag);
  if (st != WGP_OK && errlog && kind != WGP_SOURCE_IR) {
    char why[WGP_DIAG_SIZE / 2];
    explain_failure(file, errlog, why, sizeof why);
    if (*why) {
      char was[WGP_DIAG_SIZE];
      snprintf(was, sizeof was, "%s", diag ? diag->message : "");
      wgp_diag_set(diag, st, "%.400s: %s", was, why);
    }
  }
  if (errlog)
    unlink(errlog);
  wgp_resource_request rq = {file,
                             kind == WGP_SOURCE_IR ? file : bitcode,
                             kind == WGP_SOURCE_OPENCL || (kind == WGP_SOURCE_IR && opencl_ir(file)),
                             clang_path(),
                             tmp,
                             o->flags,
                             o->num_flags,
                             o->num_flags,
                             o->archs,
                             o->num_archs,
                             o->message,
                             o->message_user,
                             o->max_registers};
  bool done[WGP_MAX_ARCHS] = {false};
  size_t want = o->num_archs ? (o->num_archs < WGP_MAX_ARCHS ? o->num_archs : WGP_MAX_ARCHS) : 1;
  int by_nvcc = 0;
  /* A kernel with more static shared memory than ptxas accepts for any
   * architecture: ptxas refuses the file whatever made its PTX, so neither
   * nvcc nor the route through llc runs (they would cost seconds to reach
   * that refusal: convolution's large tiles take nvcc's front end longest). */
  char big_kernel[256];
  unsigned long long big_bytes = 0;
  bool shared_refused = st == WGP_OK && wgp_find_ptxas() && is_file(tmp) &&
                        wgp_static_shared_refused(tmp, big_kernel, sizeof big_kernel, &big_bytes);
  if (shared_refused)
    drv_message(o,
            "wgperf: warning: %s: no register count from ptxas: kernel '%s' has %llu bytes of static shared "
            "memory, more than the %d ptxas accepts for any architecture (nvcc and ptxas not run); "
            "the IR estimate is used",
            file, big_kernel, big_bytes, WGP_PTXAS_STATIC_SHARED_MAX);
  if (nvcc_first && st == WGP_OK && is_file(tmp) && !shared_refused) {
    by_nvcc = wgp_add_nvcc_resources(&rq, done);
    if ((size_t)by_nvcc < want) { /* the bitcode for ptxas after all */
      wgp_diag started;
      other = start_tool(file, (char *const *)argvx2, tmp, true, NULL, NULL, &started);
      if (other.pid == 0)
        drv_message(o, "%s", started.message);
    } else {
      second = false;
    }
  } else if (nvcc_first) {
    second = false;
  }
  if (second && finish_tool(file, (char *const *)argvx2, other, true, NULL) != WGP_OK && st == WGP_OK) {
    /* the model stands, with the registers the plugin estimates */
    drv_message(o, "wgperf: warning: %s: the compile for ptxas failed; registers are estimated from the IR", file);
    unlink(bitcode);
    free(bitcode);
    bitcode = NULL;
  }
  if (st != WGP_OK) {
    unlink(tmp);
    goto done;
  }
  if (!is_file(tmp)) {
    st = wgp_diag_set(diag, WGP_ERR_INPUT,
                      "wgperf: error: %s: no kernels found (no __kernel or __global__ function), no model written",
                      file);
    goto done;
  }
  rq.bitcode = kind == WGP_SOURCE_IR ? file : bitcode;
  if (wgp_find_ptxas() && (kind == WGP_SOURCE_IR || bitcode) && (size_t)by_nvcc < want && !shared_refused)
    wgp_add_ptxas_registers(&rq, done);
  if (!wgp_record_compile_options(tmp, o)) {
    st = wgp_diag_set(diag, WGP_ERR_IO, "wgperf: error: %s: cannot record -maxrregcount, -dlcm or -dscm in the model",
                      file);
    unlink(tmp);
    goto done;
  }
  if (wgp_move_into(tmp, out) != 0) {
    st = wgp_diag_set(diag, WGP_ERR_IO, "wgperf: error: %s: cannot write: %s", out, strerror(errno));
    unlink(tmp);
    goto done;
  }
  st = WGP_OK;
done:
  if (bitcode)
    unlink(bitcode);
  free(bitcode);
  free(argvx);
  free(argvx2);
  free(tmp);
  free(plugin_flag);
  free(oflag);
  free(header);
  free(cuda);
  free(errlog);
  free(tool);
  free(passes);
  return st;
}

wgp_status wgp_extract(const char *file, wgp_source_kind kind, const wgp_extract_options *opts, const char *out,
                       wgp_diag *diag) {
  static const wgp_extract_options defaults = {0};
  wgp_extract_options taken;
  if (drv_take_own_flags(file, opts ? opts : &defaults, &taken, diag) != WGP_OK)
    return WGP_ERR_INPUT;
  const wgp_extract_options *o = &taken;
  /* say so ourselves rather than leave it to clang's two lines and its exit status */
  FILE *probe = fopen(file, "rb");
  if (!probe)
    return wgp_diag_set(diag, WGP_ERR_IO, "wgperf: error: %s: %s", file, strerror(errno));
  fclose(probe);
  if (kind != WGP_SOURCE_OPENCL && kind != WGP_SOURCE_CUDA && kind != WGP_SOURCE_IR)
    return wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: %s: unknown input kind (expected .cl, .cu, .bc or .ll)",
                        file);
  char *plugin;
  wgp_status st = find_file("WGPERF_PLUGIN", WGPERF_BUILD_PLUGIN, "../lib/libwgperf.so", &plugin, diag);
  if (st != WGP_OK)
    return st;
  if (!plugin)
    return wgp_diag_set(diag, WGP_ERR_INPUT,
                        "wgperf: error: cannot find the pass plugin libwgperf.so (set WGPERF_PLUGIN)");
  /* the model cache: a hit is the model and what its compile showed; a miss
   * compiles, recording both, and stores them when the compile succeeds */
  char key[65];
  char *tool = o->cache_dir && *o->cache_dir ? (kind == WGP_SOURCE_IR ? opt_path() : strdup(clang_path())) : NULL;
  mc_request rq = {file, kind, o, plugin, tool};
  if (!tool || !mc_key(&rq, key)) {
    st = compile_model(file, kind, o, plugin, out, NULL, NULL, diag);
  } else if (mc_fetch(o->cache_dir, key, out, o)) {
    st = WGP_OK;
  } else {
    char pidbuf[48];
    snprintf(pidbuf, sizeof pidbuf, ".tmp%ld.d", (long)getpid());
    char *depfile = concat(out, pidbuf, "");
    mc_log log = {.user = o};
    wgp_extract_options recorded = *o;
    recorded.message = mc_log_message;
    recorded.message_user = &log;
    long long started = mc_now_ns();
    st = depfile ? compile_model(file, kind, &recorded, plugin, out, depfile, &log, diag) : no_memory(diag);
    if (st == WGP_OK) {
      /* the files it read: clang's list; opt's input alone */
      wgp_preprocessed read = {0};
      char *self[1] = {(char *)file};
      if (kind == WGP_SOURCE_IR)
        mc_store(o->cache_dir, key, out, self, 1, &log, started);
      else if (drv_read_deps(depfile, &read, diag) == WGP_OK)
        mc_store(o->cache_dir, key, out, read.deps, read.ndeps, &log, started);
      wgp_preprocessed_free(&read);
    }
    if (depfile)
      unlink(depfile);
    free(depfile);
    mc_log_free(&log);
  }
  free(tool);
  free(plugin);
  return st;
}
