/* cc_client.c - the commands of wgp_preprocess and wgp_extract (without
 * ptxas) sent to a wgperf-cc that stays running (wgperf/ccserver.h).
 *
 * The compile's command line is extract.c's for a .cl/.cu source when no
 * ptxas is found: a change there belongs here too (the lit test
 * tune-cache.test compares the models the two make).
 */
#define _XOPEN_SOURCE 700
#include "wgperf/ccserver.h"

#include "driver_internal.h"
#include "files_internal.h"
#include "registers_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef WGPERF_BUILD_PLUGIN
#define WGPERF_BUILD_PLUGIN ""
#endif
#ifndef WGPERF_BUILD_CC_SERVER
#define WGPERF_BUILD_CC_SERVER ""
#endif

struct wgp_ccs {
  pid_t pid;
  FILE *to, *from;
  bool dead;
  char tmpdir[PATH_MAX - 64]; /* room for its files' names in PATH_MAX */
  unsigned serial;
  unsigned precompiled; /* jobs of the last request that loaded a precompiled header */
};

static wgp_status no_memory(wgp_diag *diag) { return wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory"); }

wgp_status wgp_ccs_start(wgp_ccs **out, wgp_diag *diag) {
  *out = NULL;
  char path[PATH_MAX];
  const char *env = getenv("WGPERF_CC");
  if (env && !*env)
    return WGP_OK; /* WGPERF_CC= turns the server off */
  if (env)
    snprintf(path, sizeof path, "%s", env);
  else if (drv_is_file(WGPERF_BUILD_CC_SERVER))
    snprintf(path, sizeof path, "%s", WGPERF_BUILD_CC_SERVER);
  else if (!drv_beside_exe("wgperf-cc", path, sizeof path) || !drv_is_file(path))
    return WGP_OK;
  wgp_ccs *s = calloc(1, sizeof *s);
  if (!s)
    return no_memory(diag);
  if (!wgp_temp_template(s->tmpdir, sizeof s->tmpdir, "wgperf-cc", "") || !mkdtemp(s->tmpdir)) {
    free(s);
    return wgp_diag_set(diag, WGP_ERR_IO, "wgperf: error: cannot create a temporary folder: %s", strerror(errno));
  }
  int a[2], b[2];
  if (pipe(a) != 0) {
    rmdir(s->tmpdir);
    free(s);
    return wgp_diag_set(diag, WGP_ERR_IO, "wgperf: error: cannot create a pipe: %s", strerror(errno));
  }
  if (pipe(b) != 0) {
    close(a[0]), close(a[1]);
    rmdir(s->tmpdir);
    free(s);
    return wgp_diag_set(diag, WGP_ERR_IO, "wgperf: error: cannot create a pipe: %s", strerror(errno));
  }
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid < 0) {
    close(a[0]), close(a[1]), close(b[0]), close(b[1]);
    rmdir(s->tmpdir);
    free(s);
    return wgp_diag_set(diag, WGP_ERR_IO, "wgperf: error: cannot fork: %s", strerror(errno));
  }
  if (pid == 0) {
    dup2(a[0], 0);
    dup2(b[1], 1);
    close(a[0]), close(a[1]), close(b[0]), close(b[1]);
    /* the server's precompiled headers go to the folder, removed with it */
    char *argv[] = {path, (char *)drv_clang_path(), s->tmpdir, NULL};
    execv(path, argv);
    _exit(127);
  }
  close(a[0]), close(b[1]);
  fcntl(a[1], F_SETFD, FD_CLOEXEC);
  fcntl(b[0], F_SETFD, FD_CLOEXEC);
  s->pid = pid;
  s->to = fdopen(a[1], "w");
  s->from = fdopen(b[0], "r");
  if (!s->to || !s->from) {
    s->dead = true;
    wgp_ccs_stop(s);
    return no_memory(diag);
  }
  *out = s;
  return WGP_OK;
}

void wgp_ccs_stop(wgp_ccs *s) {
  if (!s)
    return;
  if (s->to)
    fclose(s->to);
  if (s->from)
    fclose(s->from);
  if (s->pid > 0) {
    int st;
    if (s->dead)
      kill(s->pid, SIGKILL);
    while (waitpid(s->pid, &st, 0) < 0 && errno == EINTR)
      ;
  }
  wgp_remove_tree(s->tmpdir); /* with what a server that died left (its precompiled headers) */
  free(s);
}

bool wgp_ccs_alive(const wgp_ccs *s) { return s && !s->dead; }

bool wgp_ccs_precompiled(const wgp_ccs *s) { return s && s->precompiled > 0; }

double wgp_ccs_cpu_ms(const wgp_ccs *s) {
  char path[64], buf[1024];
  snprintf(path, sizeof path, "/proc/%ld/stat", (long)s->pid);
  FILE *f = fopen(path, "r");
  if (!f)
    return 0;
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = '\0';
  /* after the command's ")": fields 3.. ; utime and stime are fields 14 and 15 */
  const char *p = strrchr(buf, ')');
  unsigned long long ut = 0, stime = 0;
  if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &stime) != 2)
    return 0;
  long hz = sysconf(_SC_CLK_TCK);
  return hz > 0 ? (double)(ut + stime) * 1e3 / (double)hz : 0;
}

/* Runs ARGV with the variables ENV (NAME=VALUE, NENV of them) in the server,
 * clang's messages into LOG.  The exit status, or -1 when the server died. */
static int request(wgp_ccs *s, const char *const *env, size_t nenv, const char *const *argv, size_t argc,
                   const char *log) {
  if (s->dead)
    return -1;
  for (size_t i = 0; i < argc; i++)
    if (strchr(argv[i], '\n'))
      return -2; /* not expressible in the protocol */
  void (*old)(int) = signal(SIGPIPE, SIG_IGN);
  fprintf(s->to, "R %zu %zu %s\n", nenv, argc, log);
  for (size_t i = 0; i < nenv; i++)
    fprintf(s->to, "%s\n", env[i]);
  for (size_t i = 0; i < argc; i++)
    fprintf(s->to, "%s\n", argv[i]);
  bool ok = fflush(s->to) == 0;
  signal(SIGPIPE, old);
  char line[64];
  int status;
  s->precompiled = 0;
  if (!ok || !fgets(line, sizeof line, s->from) || sscanf(line, "D %d %u", &status, &s->precompiled) < 1) {
    s->dead = true;
    return -1;
  }
  return status;
}

static char *read_log(const char *path) {
  char *text;
  size_t len;
  wgp_diag d;
  if (wgp_read_file(path, &text, &len, &d) != WGP_OK)
    return strdup("");
  return text;
}

wgp_status wgp_ccs_preprocess(wgp_ccs *s, const char *file, wgp_source_kind kind, const wgp_extract_options *opts,
                              wgp_preprocessed *out, wgp_diag *diag) {
  memset(out, 0, sizeof *out);
  if (access(file, R_OK) != 0)
    return wgp_diag_set(diag, WGP_ERR_IO, "wgperf: error: %s: %s", file, strerror(errno));
  char dep[PATH_MAX], text[PATH_MAX], log[PATH_MAX];
  unsigned k = s->serial++;
  snprintf(dep, sizeof dep, "%s/%u.d", s->tmpdir, k);
  snprintf(text, sizeof text, "%s/%u.i", s->tmpdir, k);
  snprintf(log, sizeof log, "%s/%u.log", s->tmpdir, k);
  drv_argv a;
  wgp_status st = drv_preprocess_argv(file, kind, opts, dep, text, &a, diag);
  if (st != WGP_OK)
    return st;
  int rc = request(s, NULL, 0, a.v, a.n, log);
  free(a.v);
  if (rc == -2) {
    st = wgp_preprocess(file, kind, opts, out, diag);
  } else if (rc < 0) {
    st = wgp_diag_set(diag, WGP_ERR_IO, "wgperf: error: %s: wgperf-cc died", file);
  } else {
    out->log = read_log(log);
    if (rc != 0) {
      char line[WGP_DIAG_SIZE - 64];
      if (!wgp_first_error_line(out->log, line, sizeof line))
        snprintf(line, sizeof line, "clang failed (exit %d)", rc);
      st = wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: %s: %s", file, line);
    } else if (wgp_read_file(text, &out->text, &out->len, diag) != WGP_OK) {
      st = WGP_ERR_IO;
    } else {
      st = drv_read_deps(dep, out, diag);
    }
  }
  unlink(dep), unlink(text), unlink(log);
  return st;
}

/* The plugin, where extract.c finds it. */
static bool find_plugin(char *buf, size_t size) {
  const char *env = getenv("WGPERF_PLUGIN");
  if (env && *env)
    return snprintf(buf, size, "%s", env) < (int)size;
  if (drv_is_file(WGPERF_BUILD_PLUGIN))
    return snprintf(buf, size, "%s", WGPERF_BUILD_PLUGIN) < (int)size;
  return drv_beside_exe("../lib/libwgperf.so", buf, size) && drv_is_file(buf);
}

wgp_status wgp_ccs_extract(wgp_ccs *s, const char *file, wgp_source_kind kind, const wgp_extract_options *opts,
                           const char *out, char **log, wgp_diag *diag) {
  static const wgp_extract_options defaults = {0};
  wgp_extract_options taken;
  *log = NULL;
  if (drv_take_own_flags(file, opts ? opts : &defaults, &taken, diag) != WGP_OK)
    return WGP_ERR_INPUT;
  const wgp_extract_options *o = &taken;
  if (access(file, R_OK) != 0)
    return wgp_diag_set(diag, WGP_ERR_IO, "wgperf: error: %s: %s", file, strerror(errno));
  if (kind != WGP_SOURCE_OPENCL && kind != WGP_SOURCE_CUDA)
    return wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: %s: only .cl and .cu sources compile in wgperf-cc", file);
  char plugin[PATH_MAX], plugin_flag[PATH_MAX + 16], header[PATH_MAX], oflag[8];
  drv_cuda_args *cuda = NULL; /* a CUDA source's flags' strings (large) */
  if (!find_plugin(plugin, sizeof plugin))
    return wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: cannot find the pass plugin libwgperf.so (set WGPERF_PLUGIN)");
  snprintf(plugin_flag, sizeof plugin_flag, "-fpass-plugin=%s", plugin);
  if (kind == WGP_SOURCE_OPENCL && !drv_find_header("opencl_compat.h", header, sizeof header))
    return wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: cannot find include/wgperf/opencl_compat.h");
  snprintf(oflag, sizeof oflag, "-O%s", o->olevel ? o->olevel : "3");
  bool own_unroll = false;
  for (size_t i = 0; i < o->num_flags; i++)
    own_unroll = own_unroll || strstr(o->flags[i], "unroll-threshold") != NULL;
  const char **v = malloc((64 + o->num_flags) * sizeof *v);
  if (!v)
    return no_memory(diag);
  size_t n = 0;
  v[n++] = drv_clang_path();
  if (kind == WGP_SOURCE_OPENCL) {
    const char *cl[] = {"-x", "cl", "-cl-std=CL1.2", "-Xclang", "-finclude-default-header", "-cl-kernel-arg-info",
                        "-target", "nvptx64-nvidia-nvcl", "-include", header};
    for (size_t i = 0; i < sizeof cl / sizeof *cl; i++)
      v[n++] = cl[i];
  } else {
    cuda = malloc(sizeof *cuda);
    wgp_status st = cuda ? drv_cuda_flags(file, o, v, &n, cuda, diag) : no_memory(diag);
    if (st != WGP_OK) {
      free(v);
      free(cuda);
      return st;
    }
  }
  /* -emit-llvm-only (cc1's last action wins over the driver's -emit-llvm-bc):
   * the optimizer and the plugin run, no bitcode is written to /dev/null */
  const char *common[] = {"-fno-discard-value-names", "-g", oflag, "-c", "-emit-llvm", "-Xclang", "-emit-llvm-only",
                          plugin_flag, "-o", "/dev/null", file};
  for (size_t i = 0; i < sizeof common / sizeof *common; i++)
    v[n++] = common[i];
  if (!own_unroll) {
    v[n++] = "-mllvm";
    v[n++] = "-unroll-threshold=" WGP_NVCC_UNROLL_THRESHOLD;
  }
  n = drv_append_flags(o, v, n);
  char tmp[PATH_MAX + 32], logf[PATH_MAX], envout[PATH_MAX + 48];
  snprintf(tmp, sizeof tmp, "%s.tmp%ld", out, (long)getpid());
  snprintf(logf, sizeof logf, "%s/%u.log", s->tmpdir, s->serial++);
  snprintf(envout, sizeof envout, "WGPERF_OUTPUT=%s", tmp);
  char envpre[PATH_MAX + 32] = "", envgate[1024] = "";
  if (o->preprocessed)
    snprintf(envpre, sizeof envpre, "WGPERF_CC_PREPROCESSED=%s", o->preprocessed);
  if (o->shared_gate && o->gate_kernel && *o->gate_kernel && !strchr(o->gate_kernel, '\n') &&
      snprintf(envgate, sizeof envgate, "WGPERF_SHARED_GATE=%llu:%s", o->shared_gate, o->gate_kernel) >=
          (int)sizeof envgate)
    envgate[0] = '\0';
  const char *env[5] = {envout, "WGPERF_TOOL=1"};
  size_t nenv = 2;
  if (cuda)
    env[nenv++] = cuda->headers_env;
  if (*envpre)
    env[nenv++] = envpre;
  if (*envgate)
    env[nenv++] = envgate;
  unlink(tmp);
  int rc = request(s, env, nenv, v, n, logf);
  free(v);
  free(cuda);
  wgp_status st = WGP_OK;
  struct stat stt;
  if (rc == -2) {
    unlink(logf);
    *log = strdup("");
    return wgp_extract(file, kind, o, out, diag);
  }
  *log = read_log(logf);
  unlink(logf);
  if (rc < 0)
    st = wgp_diag_set(diag, WGP_ERR_IO, "wgperf: error: %s: wgperf-cc died", file);
  else if (rc != 0)
    st = wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: %s: %s failed (exit 1)", file, drv_clang_path());
  else if (stat(tmp, &stt) != 0)
    st = wgp_diag_set(diag, WGP_ERR_INPUT,
                      "wgperf: error: %s: no kernels found (no __kernel or __global__ function), no model written", file);
  else if (!wgp_record_compile_options(tmp, o))
    st = wgp_diag_set(diag, WGP_ERR_IO, "wgperf: error: %s: cannot record -maxrregcount, -dlcm or -dscm in the model",
                      file);
  else if (wgp_move_into(tmp, out) != 0)
    st = wgp_diag_set(diag, WGP_ERR_IO, "wgperf: error: %s: cannot write: %s", out, strerror(errno));
  if (st != WGP_OK)
    unlink(tmp);
  return st;
}
