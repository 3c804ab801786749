/* wgperf.c - the wgperf command line.
 *
 *   wgperf extract FILE.cl|FILE.cu|FILE.bc|FILE.ll [-o OUT.json] [-O N] [--print] [-- CLANG-FLAGS...]
 *   wgperf show MODEL.json [--kernel NAME] [--print]
 *
 * extract compiles OpenCL C or CUDA with clang-19 and the wgperf pass plugin
 * (or runs opt on bitcode), then loads the model it wrote, which checks the
 * plugin/analyzer contract end to end, and prints a summary.  Compilers run
 * through fork/execvp, never a shell, so file names may hold any character.
 *
 * Exit status: 0 ok, 1 bad input (a missing file, a compiler error, an
 * invalid model), 2 bad usage.
 */
#define _XOPEN_SOURCE 700
#include "wgperf/analyze.h"
#include "wgperf/model.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef WGPERF_VERSION
#define WGPERF_VERSION "unknown"
#endif
#ifndef WGPERF_DEFAULT_CLANG
#define WGPERF_DEFAULT_CLANG "clang-19"
#endif
#ifndef WGPERF_BUILD_PLUGIN
#define WGPERF_BUILD_PLUGIN ""
#endif
#ifndef WGPERF_SOURCE_DIR
#define WGPERF_SOURCE_DIR ""
#endif

#include "cli.h"

static const char usage_text[] =
    "usage: wgperf extract FILE.cl|FILE.cu|FILE.bc|FILE.ll [-o OUT.json] [-O N] [-DNAME=V] [-IDIR] [--print]\n"
    "                      [-- CLANG-FLAGS...]\n"
    "       wgperf show MODEL.json [--kernel NAME] [--print]\n"
    "       wgperf analyze INPUT [--kernel NAME] --global X[,Y[,Z]] --local X[,Y[,Z]] [LAUNCH OPTIONS]\n"
    "                      [--launch FILE.json] [--gpu NAME|FILE] [--json] [--trace] [-O N] [-- CLANG-FLAGS...]\n"
    "       wgperf predict INPUT [--kernel NAME] --global ... --local ... [LAUNCH OPTIONS] [--regs N] [--json]\n"
    "       wgperf --help | --version\n";

const char *cli_usage = usage_text;
const char *cli_prog = "wgperf";
const char *cli_command = "wgperf";

static const char help_text[] =
    "\n"
    "commands:\n"
    "  extract   compile a kernel file with the wgperf pass plugin and write its kernel model\n"
    "            (default <stem>.wgperf.json in the current directory); .cl is OpenCL C 1.2,\n"
    "            .cu is CUDA (device side), .bc/.ll is LLVM IR run through opt\n"
    "  show      check a kernel model and summarize it\n"
    "  analyze   trace one launch: distinct warps, divergence, memory cost of every access\n"
    "            (INPUT is a model .json or anything extract takes)\n"
    "  predict   simulate the launch: time, occupancy and its limiter, bounds, breakdown, bottleneck\n"
    "\n"
    "options:\n"
    "  -o OUT      where extract writes the model\n"
    "  -O N, -ON   optimization level for clang (0-3, s, z; default 3, as nvcc); extract, and\n"
    "              analyze/predict of a .cl/.cu/.bc/.ll input\n"
    "  --print     print the whole model instead of the summary\n"
    "  --kernel K  show only kernel K (name or IR symbol)\n"
    "  -DNAME[=VALUE], -UNAME, -IDIR  preprocessor flags for a .cl/.cu source (extract, analyze,\n"
    "              predict), as for nvcc or clang: -DTW=16, -D TW=16\n"
    "  -- FLAGS    pass the remaining arguments to clang (to opt for .bc/.ll)\n"
    "\n"
    "launch options (analyze, predict): --global X,Y,Z --local X,Y,Z (the same number of sizes), or CUDA's\n"
    "  --grid X,Y,Z --block X,Y,Z (global = grid x block; the shorter is padded with 1s, as dim3(256) is\n"
    "  256,1,1); [--offset X,Y,Z]\n"
    "  --arg NAME=VALUE  a scalar argument; an integer argument takes an integer (1048576, 0x100000,\n"
    "             or an exact integer in scientific notation: 1e6, 2.5e3), an unsigned one no negative value\n"
    "  --buffer NAME=BYTES[@ALIGN] --local-mem NAME=BYTES --nonuniform (or the same in --launch FILE.json)\n"
    "  a launch the driver would refuse is an error: a work-group size other than the kernel's\n"
    "  reqd_work_group_size or above its __launch_bounds__, more than 65535 work-groups in y or z\n"
    "  --gpu NAME|FILE  a shipped GPU description by file name, product name or alias, without regard\n"
    "             to case, '-', '_' or spaces (h100, H100-SXM, a100, gtx980, 'GeForce GTX 980'; default\n"
    "             h100-sxm; an unknown name lists them) or a description file\n"
    "  --trip L<n>=COUNT, --taken B<n>=FRACTION  hints for loops and branches that need loaded values\n"
    "  --cold-l2  L2 holds none of the data at launch (default: a launch whose data fits in 3/4 of L2\n"
    "             finds it there, as after the host copy or the kernel that wrote it)\n"
    "  --json  machine-readable output; --trace  also print each distinct warp's trace\n"
    "  --jobs N, -j N  threads for the cache analysis (default: the CPUs this process may use; the\n"
    "             answer is the same for any N)\n"
    "\n"
    "environment: WGPERF_PLUGIN (libwgperf.so), WGPERF_CLANG, WGPERF_OPT, WGPERF_PTXAS (empty: do not run\n"
    "  ptxas for register counts), WGPERF_GPU_DIR (where --gpu NAME finds NAME.json)\n";

int usage_error(const char *fmt, ...) {
  va_list ap;
  fprintf(stderr, "%s: error: ", cli_prog);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, "\n(see '%s --help')\n", cli_command);
  return EXIT_USAGE;
}

/* No command, or one wgperf does not have: the usage is the answer. */
static int usage_text_error(const char *fmt, ...) {
  va_list ap;
  fprintf(stderr, "wgperf: error: ");
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, "\n%s", usage_text);
  return EXIT_USAGE;
}

void cli_print_diag(const char *message) {
  if (strncmp(message, "wgperf: ", 8) == 0)
    fprintf(stderr, "%s: %s\n", cli_prog, message + 8);
  else
    fprintf(stderr, "%s\n", message);
}

bool cli_olevel_ok(const char *level) { return strlen(level) == 1 && strchr("0123sz", level[0]); }

int input_error(const char *fmt, ...) {
  va_list ap;
  fprintf(stderr, "%s: error: ", cli_prog);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, "\n");
  return EXIT_INPUT;
}

static char *xstrdup(const char *s) {
  char *p = strdup(s);
  if (!p) {
    fprintf(stderr, "%s: error: out of memory\n", cli_prog);
    exit(EXIT_INPUT);
  }
  return p;
}

static char *concat(const char *a, const char *b, const char *c) {
  size_t n = strlen(a) + strlen(b) + strlen(c) + 1;
  char *p = malloc(n);
  if (!p) {
    fprintf(stderr, "%s: error: out of memory\n", cli_prog);
    exit(EXIT_INPUT);
  }
  snprintf(p, n, "%s%s%s", a, b, c);
  return p;
}

static int is_file(const char *p) {
  struct stat st;
  return p && *p && stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* Directory of the running executable ("" when unknown); malloc'd. */
static char *exe_dir(void) {
  char buf[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0)
    return xstrdup("");
  buf[n] = '\0';
  char *slash = strrchr(buf, '/');
  if (slash)
    *slash = '\0';
  return xstrdup(buf);
}

static char *find_plugin(void) {
  const char *env = getenv("WGPERF_PLUGIN");
  if (env && *env)
    return xstrdup(env);
  if (is_file(WGPERF_BUILD_PLUGIN))
    return xstrdup(WGPERF_BUILD_PLUGIN);
  char *dir = exe_dir();
  char *p = concat(dir, "/../lib/", "libwgperf.so");
  free(dir);
  if (is_file(p))
    return p;
  free(p);
  return NULL;
}

/* include/wgperf/NAME: in the source tree, else beside the installed tools. */
static char *find_header(const char *name) {
  char *p = concat(WGPERF_SOURCE_DIR, "/include/wgperf/", name);
  if (*WGPERF_SOURCE_DIR && is_file(p))
    return p;
  free(p);
  char *dir = exe_dir();
  p = concat(dir, "/../include/wgperf/", name);
  free(dir);
  if (is_file(p))
    return p;
  free(p);
  return NULL;
}

static const char *clang_path(void) {
  const char *env = getenv("WGPERF_CLANG");
  return env && *env ? env : WGPERF_DEFAULT_CLANG;
}

/* opt from the same LLVM as clang: /usr/bin/clang-19 -> /usr/lib/llvm-19/bin/opt. */
static char *opt_path(void) {
  const char *env = getenv("WGPERF_OPT");
  if (env && *env)
    return xstrdup(env);
  char real[PATH_MAX];
  if (realpath(clang_path(), real)) {
    char *slash = strrchr(real, '/');
    if (slash) {
      *slash = '\0';
      char *p = concat(real, "/", "opt");
      if (is_file(p))
        return p;
      free(p);
    }
  }
  return xstrdup("opt-19");
}

static const char *base_name(const char *p) {
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

/* A tool started by start_tool: its process and the pipe that reports a
 * failed exec (pid 0: it could not be started, and said why). */
typedef struct {
  pid_t pid;
  int pipe;
} tool_run;

/* Starts ARGV with WGPERF_OUTPUT=OUTPUT; stdout passes through, stderr too
 * unless QUIET (then it goes to /dev/null).  finish_tool waits for it. */
static tool_run start_tool(const char *input, char *const argv[], const char *output, bool quiet) {
  tool_run r = {0, -1};
  int pipefd[2];
  if (pipe(pipefd) != 0) {
    input_error("%s: cannot create a pipe: %s", input, strerror(errno));
    return r;
  }
  fcntl(pipefd[1], F_SETFD, FD_CLOEXEC);
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid < 0) {
    close(pipefd[0]);
    close(pipefd[1]);
    input_error("%s: cannot fork: %s", input, strerror(errno));
    return r;
  }
  if (pid == 0) {
    close(pipefd[0]);
    if (quiet) {
      int null = open("/dev/null", O_WRONLY);
      if (null >= 0)
        dup2(null, 2);
    }
    /* WGPERF_TOOL: a module without kernels is ours to report (once) */
    if (setenv("WGPERF_OUTPUT", output, 1) == 0 && setenv("WGPERF_TOOL", "1", 1) == 0)
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

/* Waits for R (ARGV's run).  Returns 0 on success, else prints why (unless
 * QUIET) and returns EXIT_INPUT. */
static int finish_tool(const char *input, char *const argv[], tool_run r, bool quiet) {
  if (r.pid == 0)
    return EXIT_INPUT;
  int err = 0;
  ssize_t n;
  do
    n = read(r.pipe, &err, sizeof err);
  while (n < 0 && errno == EINTR);
  close(r.pipe);
  int status;
  while (waitpid(r.pid, &status, 0) < 0)
    if (errno != EINTR)
      return quiet ? EXIT_INPUT : input_error("%s: waiting for %s: %s", input, base_name(argv[0]), strerror(errno));
  if (quiet && (n == (ssize_t)sizeof err || !WIFEXITED(status) || WEXITSTATUS(status) != 0))
    return EXIT_INPUT;
  if (n == (ssize_t)sizeof err)
    return input_error("%s: cannot run %s: %s", input, argv[0], strerror(err));
  if (WIFSIGNALED(status))
    return input_error("%s: %s killed by signal %d", input, base_name(argv[0]), WTERMSIG(status));
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return input_error("%s: %s failed (exit %d)", input, base_name(argv[0]), WEXITSTATUS(status));
  return 0;
}

/* Runs ARGV with WGPERF_OUTPUT=OUTPUT; stdout and stderr pass through.
 * Returns 0 on success, else prints why and returns EXIT_INPUT. */
static int run_tool(const char *input, char *const argv[], const char *output) {
  return finish_tool(input, argv, start_tool(input, argv, output, false), false);
}

/* ------------------------------------------------------------------------ */
/* Printing a model                                                         */
/* ------------------------------------------------------------------------ */

static void print_expr_or(FILE *f, const wgp_expr *e, const char *none) {
  char *s = e ? wgp_expr_to_string(e) : NULL;
  fputs(s ? s : none, f);
  free(s);
}

/* A loop clang unrolled with a run-time count is two loops at one source
 * line: the unrolled body (header "for.body") and the remainder it left
 * (header "for.body.prol" or "for.body.epil").  The loop LOOP's partner, -1
 * when it has none; *REMAINDER says whether LOOP is the remainder. */
long cli_unroll_partner(const wgp_kernel *k, size_t loop, bool *remainder) {
  const char *name = wgp_block_name(wgp_kernel_block(k, wgp_loop_header(wgp_kernel_loop(k, loop))));
  size_t n = name ? strlen(name) : 0;
  *remainder = n > 5 && (strcmp(name + n - 5, ".prol") == 0 || strcmp(name + n - 5, ".epil") == 0);
  for (size_t i = 0; n && i < wgp_kernel_num_loops(k); i++) {
    const char *other = wgp_block_name(wgp_kernel_block(k, wgp_loop_header(wgp_kernel_loop(k, i))));
    size_t m = other && i != loop ? strlen(other) : 0;
    if (*remainder ? m == n - 5 && strncmp(other, name, m) == 0
                   : m == n + 5 && strncmp(other, name, n) == 0 &&
                         (strcmp(other + n, ".prol") == 0 || strcmp(other + n, ".epil") == 0))
      return (long)i;
  }
  return -1;
}

static void summarize_kernel(FILE *f, const wgp_kernel *k) {
  fprintf(f, "kernel %s (%s", wgp_kernel_name(k), wgp_language_name(wgp_kernel_language(k)));
  if (wgp_kernel_source(k))
    fprintf(f, ", %s", wgp_kernel_source(k));
  fprintf(f, ")\n");
  if (wgp_kernel_launch_attribute(k))
    fprintf(f, "  launch  %s\n", wgp_kernel_launch_attribute(k));

  fprintf(f, "  args    ");
  if (wgp_kernel_num_args(k) == 0)
    fprintf(f, "none");
  for (size_t i = 0; i < wgp_kernel_num_args(k); i++) {
    const wgp_arg *a = wgp_kernel_arg(k, i);
    fprintf(f, "%s%s: ", i ? ", " : "", wgp_arg_name(a));
    if (wgp_arg_get_kind(a) == WGP_ARG_POINTER)
      fprintf(f, "%s%s %s (%llu B elements)", wgp_space_name(wgp_arg_space(a)), wgp_arg_is_const(a) ? " const" : "",
              wgp_arg_type(a), (unsigned long long)wgp_arg_elem_bytes(a));
    else
      fprintf(f, "%s (%llu B)", wgp_arg_type(a), (unsigned long long)wgp_arg_bytes(a));
  }
  fprintf(f, "\n");

  if (wgp_kernel_num_arrays(k)) {
    fprintf(f, "  arrays  ");
    for (size_t i = 0; i < wgp_kernel_num_arrays(k); i++) {
      const wgp_array *a = wgp_kernel_array(k, i);
      fprintf(f, "%s%s: %s %llu B ", i ? ", " : "", wgp_array_name(a), wgp_space_name(wgp_array_space(a)),
              (unsigned long long)wgp_array_bytes(a));
      for (size_t d = 0; d < wgp_array_num_dims(a); d++)
        fprintf(f, "[%llu]", (unsigned long long)wgp_array_dim(a, d));
    }
    fprintf(f, "\n");
  }

  size_t nbr = 0, by_class[4] = {0};
  for (size_t i = 0; i < wgp_kernel_num_blocks(k); i++) {
    const wgp_branch *br = wgp_block_branch(wgp_kernel_block(k, i));
    if (br) {
      nbr++;
      by_class[wgp_branch_get_class(br)]++;
    }
  }
  fprintf(f, "  blocks  %zu, %zu branch%s", wgp_kernel_num_blocks(k), nbr, nbr == 1 ? "" : "es");
  const char *sep = " (";
  for (int c = 0; c < 4; c++)
    if (by_class[c]) {
      fprintf(f, "%s%zu %s", sep, by_class[c], wgp_branch_class_name((wgp_branch_class)c));
      sep = ", ";
    }
  fprintf(f, "%s%s\n", nbr ? ")" : "", wgp_kernel_irreducible(k) ? ", irreducible control flow" : "");

  fprintf(f, "  loops   %zu", wgp_kernel_num_loops(k));
  for (size_t i = 0; i < wgp_kernel_num_loops(k); i++) {
    const wgp_loop *l = wgp_kernel_loop(k, i);
    fprintf(f, "%s L%zu %s", i ? "," : ":", i, wgp_trip_kind_name(wgp_loop_trip_kind(l)));
    bool rem = false;
    long partner = cli_unroll_partner(k, i, &rem);
    char role[48] = "";
    if (partner >= 0)
      snprintf(role, sizeof role, rem ? "remainder of L%ld" : "unrolled, remainder L%ld", partner);
    else if (rem)
      snprintf(role, sizeof role, "remainder of an unrolled loop");
    if (wgp_loop_source(l) || *role)
      fprintf(f, " (%s%s%s)", wgp_loop_source(l) ? wgp_loop_source(l) : "", wgp_loop_source(l) && *role ? ", " : "",
              role);
  }
  fprintf(f, "\n");

  size_t count[5][3] = {{0}};
  for (size_t i = 0; i < wgp_kernel_num_accesses(k); i++) {
    const wgp_access *a = wgp_kernel_access(k, i);
    count[wgp_access_space(a)][wgp_access_get_kind(a)]++;
  }
  fprintf(f, "  memory  %zu access%s", wgp_kernel_num_accesses(k), wgp_kernel_num_accesses(k) == 1 ? "" : "es");
  sep = ": ";
  for (int s = 0; s < 5; s++) {
    size_t total = count[s][0] + count[s][1] + count[s][2];
    if (!total)
      continue;
    fprintf(f, "%s%s %zu (", sep, wgp_space_name((wgp_space)s), total);
    const char *inner = "";
    static const char *const kinds[] = {"load", "store", "atomic"};
    for (int kd = 0; kd < 3; kd++)
      if (count[s][kd]) {
        fprintf(f, "%s%zu %s%s", inner, count[s][kd], kinds[kd], count[s][kd] == 1 ? "" : "s");
        inner = ", ";
      }
    fprintf(f, ")");
    sep = "; ";
  }
  fprintf(f, "\n");
  const char *regs_src;
  unsigned regs = wgp_kernel_registers(k, &regs_src);
  if (regs)
    fprintf(f, "  regs    %u per thread (%s)\n", regs, regs_src);
  else
    fprintf(f, "  regs    about %u per thread (IR estimate; a CUDA toolkit gives ptxas' count)\n",
            wgp_kernel_register_pressure(k));
  if (wgp_kernel_num_calls(k))
    fprintf(f, "  calls   %zu unresolved\n", wgp_kernel_num_calls(k));
  for (size_t i = 0; i < wgp_kernel_num_diagnostics(k); i++)
    fprintf(f, "  %s\n", wgp_kernel_diagnostic(k, i));
}

static void print_list(FILE *f, size_t n, size_t (*get)(const void *, size_t), const void *obj) {
  if (n == 0)
    fputs("-", f);
  for (size_t i = 0; i < n; i++)
    fprintf(f, "%s%zu", i ? "," : "", get(obj, i));
}
static size_t get_succ(const void *b, size_t i) { return wgp_block_succ(b, i); }
static size_t get_back(const void *b, size_t i) { return wgp_block_back_edge(b, i); }
static size_t get_lblock(const void *l, size_t i) { return wgp_loop_block(l, i); }
static size_t get_latch(const void *l, size_t i) { return wgp_loop_latch(l, i); }
static size_t get_exiting(const void *l, size_t i) { return wgp_loop_exiting(l, i); }

static void print_counts(FILE *f, const wgp_block *b, bool reduced) {
  for (size_t c = 0; c < wgp_block_num_counts_in(b, reduced); c++) {
    const char *cls;
    uint64_t n = wgp_block_count_in(b, reduced, c, &cls);
    fprintf(f, " %s=%llu", cls, (unsigned long long)n);
  }
}

static void print_kernel(FILE *f, const wgp_kernel *k) {
  fprintf(f, "kernel %s (%s) %s", wgp_kernel_name(k), wgp_language_name(wgp_kernel_language(k)),
          wgp_kernel_signature(k));
  if (wgp_kernel_source(k))
    fprintf(f, " at %s", wgp_kernel_source(k));
  fprintf(f, "\n");
  if (wgp_kernel_launch_attribute(k))
    fprintf(f, "  launch %s\n", wgp_kernel_launch_attribute(k));
  for (size_t i = 0; i < wgp_kernel_num_args(k); i++) {
    const wgp_arg *a = wgp_kernel_arg(k, i);
    if (wgp_arg_get_kind(a) == WGP_ARG_POINTER)
      fprintf(f, "  arg %zu %s: pointer %s '%s' elem=%llu (%s)%s\n", i, wgp_arg_name(a),
              wgp_space_name(wgp_arg_space(a)), wgp_arg_type(a), (unsigned long long)wgp_arg_elem_bytes(a),
              wgp_arg_elem_bytes_from(a), wgp_arg_is_const(a) ? " const" : "");
    else
      fprintf(f, "  arg %zu %s: scalar '%s' bytes=%llu\n", i, wgp_arg_name(a), wgp_arg_type(a),
              (unsigned long long)wgp_arg_bytes(a));
  }
  for (size_t i = 0; i < wgp_kernel_num_arrays(k); i++) {
    const wgp_array *a = wgp_kernel_array(k, i);
    fprintf(f, "  array %s: %s %llu bytes, elem=%llu dims=", wgp_array_name(a), wgp_space_name(wgp_array_space(a)),
            (unsigned long long)wgp_array_bytes(a), (unsigned long long)wgp_array_elem_bytes(a));
    for (size_t d = 0; d < wgp_array_num_dims(a); d++)
      fprintf(f, "%s%llu", d ? "," : "", (unsigned long long)wgp_array_dim(a, d));
    fprintf(f, "%s\n", wgp_array_initialized(a) ? " initialized" : "");
  }
  for (size_t i = 0; i < wgp_kernel_num_blocks(k); i++) {
    const wgp_block *b = wgp_kernel_block(k, i);
    fprintf(f, "  block %zu %s", i, wgp_block_name(b));
    if (wgp_block_loop(b) >= 0)
      fprintf(f, " loop=L%ld", wgp_block_loop(b));
    if (wgp_block_source(b))
      fprintf(f, " [%s]", wgp_block_source(b));
    fprintf(f, ":");
    print_counts(f, b, false);
    fprintf(f, " -> ");
    print_list(f, wgp_block_num_succs(b), get_succ, b);
    if (wgp_block_num_back_edges(b)) {
      fprintf(f, " back=");
      print_list(f, wgp_block_num_back_edges(b), get_back, b);
    }
    fprintf(f, "%s", wgp_block_is_exit(b) ? " exit" : "");
    bool reduced = wgp_block_num_counts_in(b, true) != wgp_block_num_counts(b);
    for (size_t c = 0; c < wgp_block_num_counts(b) && !reduced; c++)
      reduced = wgp_block_count_in(b, true, c, NULL) != wgp_block_count(b, c, NULL);
    if (reduced) { /* what a compiler that strength-reduces loop addresses runs */
      fprintf(f, " (strength reduced:");
      print_counts(f, b, true);
      fprintf(f, ")");
    }
    fprintf(f, "\n");
    const wgp_branch *br = wgp_block_branch(b);
    if (br) {
      fprintf(f, "    %s %s: %s", wgp_branch_get_kind(br) == WGP_BRANCH_COND ? "branch" : "switch",
              wgp_branch_class_name(wgp_branch_get_class(br)), wgp_branch_cond_text(br));
      if (wgp_branch_get_kind(br) == WGP_BRANCH_COND)
        fprintf(f, " ? %zu : %zu", wgp_branch_target(br, 0), wgp_branch_target(br, 1));
      else {
        fprintf(f, " default->%zu", wgp_branch_target(br, 0));
        for (size_t t = 1; t < wgp_branch_num_targets(br); t++)
          fprintf(f, " %lld->%zu", (long long)wgp_branch_case_value(br, t - 1), wgp_branch_target(br, t));
      }
      fprintf(f, "\n");
    }
  }
  for (size_t i = 0; i < wgp_kernel_num_loops(k); i++) {
    const wgp_loop *l = wgp_kernel_loop(k, i);
    fprintf(f, "  loop L%zu header=%zu depth=%u", i, wgp_loop_header(l), wgp_loop_depth(l));
    if (wgp_loop_parent(l) >= 0)
      fprintf(f, " parent=L%ld", wgp_loop_parent(l));
    fprintf(f, " blocks=");
    print_list(f, wgp_loop_num_blocks(l), get_lblock, l);
    fprintf(f, " latches=");
    print_list(f, wgp_loop_num_latches(l), get_latch, l);
    fprintf(f, " exiting=");
    print_list(f, wgp_loop_num_exiting(l), get_exiting, l);
    if (wgp_loop_source(l))
      fprintf(f, " [%s]", wgp_loop_source(l));
    fprintf(f, "\n    trip %s: ", wgp_trip_kind_name(wgp_loop_trip_kind(l)));
    print_expr_or(f, wgp_loop_trip_count(l), "-");
    if (wgp_loop_max_trip_count(l)) {
      fprintf(f, " max ");
      print_expr_or(f, wgp_loop_max_trip_count(l), "-");
    }
    fprintf(f, "\n");
    if (wgp_loop_reason(l))
      fprintf(f, "    reason: %s\n", wgp_loop_reason(l));
    for (size_t r = 0; r < wgp_loop_num_recurrences(l); r++) {
      const wgp_expr *init, *next;
      const wgp_sym *s = wgp_loop_recurrence(l, r, &init, &next);
      fprintf(f, "    recurrence rv.L%u.%u = ", s->loop, s->index);
      print_expr_or(f, init, "?");
      fprintf(f, " then ");
      print_expr_or(f, next, "?");
      fprintf(f, "\n");
    }
    for (size_t e = 0; e < wgp_loop_num_exits(l); e++) {
      size_t blk;
      const wgp_expr *when = wgp_loop_exit(l, e, &blk);
      fprintf(f, "    exit at %zu when ", blk);
      print_expr_or(f, when, "?");
      fprintf(f, "\n");
    }
  }
  for (size_t i = 0; i < wgp_kernel_num_accesses(k); i++) {
    const wgp_access *a = wgp_kernel_access(k, i);
    fprintf(f, "  mem M%zu %s %s %lluB block=%zu base=%s", i, wgp_access_kind_name(wgp_access_get_kind(a)),
            wgp_space_name(wgp_access_space(a)), (unsigned long long)wgp_access_bytes(a), wgp_access_block(a),
            wgp_base_kind_name(wgp_access_base_kind(a)));
    if (wgp_access_base_name(a))
      fprintf(f, ":%s", wgp_access_base_name(a));
    if (wgp_access_atomic_op(a))
      fprintf(f, " op=%s", wgp_access_atomic_op(a));
    fprintf(f, " offset=");
    print_expr_or(f, wgp_access_offset(a), "?");
    fprintf(f, "%s", wgp_access_affine(a) ? " affine" : " non-affine");
    if (wgp_access_non_affine(a))
      fprintf(f, " (%s)", wgp_access_non_affine(a));
    if (wgp_access_source(a))
      fprintf(f, " [%s]", wgp_access_source(a));
    fprintf(f, "\n");
  }
  for (size_t i = 0; i < wgp_kernel_num_calls(k); i++) {
    size_t blk;
    const char *callee, *reason;
    wgp_kernel_call(k, i, &blk, &callee, &reason);
    fprintf(f, "  call %s block=%zu: %s\n", callee, blk, reason);
  }
  fprintf(f, "  totals:");
  for (size_t c = 0; c < wgp_kernel_num_static_counts(k); c++) {
    const char *cls;
    uint64_t n = wgp_kernel_static_count(k, c, &cls);
    fprintf(f, " %s=%llu", cls, (unsigned long long)n);
  }
  fprintf(f, "\n");
  if (wgp_kernel_irreducible(k))
    fprintf(f, "  irreducible control flow\n");
  for (size_t i = 0; i < wgp_kernel_num_diagnostics(k); i++)
    fprintf(f, "  %s\n", wgp_kernel_diagnostic(k, i));
}

/* Loads FILE and prints the chosen kernels; returns an exit status. */
static int show_model(const char *file, const char *kernel, int full) {
  wgp_model *m;
  wgp_diag diag;
  if (wgp_model_load_file(file, &m, &diag) != WGP_OK) {
    fprintf(stderr, "%s\n", diag.message);
    return EXIT_INPUT;
  }
  const wgp_kernel *only = NULL;
  if (kernel) {
    only = wgp_model_find_kernel(m, kernel);
    if (!only) {
      fprintf(stderr, "wgperf: error: %s: no kernel '%s' (kernels:", file, kernel);
      for (size_t i = 0; i < wgp_model_num_kernels(m); i++)
        fprintf(stderr, "%s %s", i ? "," : "", wgp_kernel_name(wgp_model_kernel(m, i)));
      fprintf(stderr, "%s)\n", wgp_model_num_kernels(m) ? "" : " none");
      wgp_model_free(m);
      return EXIT_INPUT;
    }
  }
  if (full)
    printf("model of '%s' (%s), %s\n", wgp_model_module(m), wgp_model_target(m), wgp_model_producer(m));
  else
    printf("%s: %zu kernel%s from %s (%s)\n", file, wgp_model_num_kernels(m), wgp_model_num_kernels(m) == 1 ? "" : "s",
           wgp_model_module(m), wgp_model_target(m));
  for (size_t i = 0; i < wgp_model_num_diagnostics(m); i++)
    printf("%s\n", wgp_model_diagnostic(m, i));
  for (size_t i = 0; i < wgp_model_num_kernels(m); i++) {
    const wgp_kernel *k = wgp_model_kernel(m, i);
    if (only && k != only)
      continue;
    if (full)
      print_kernel(stdout, k);
    else
      summarize_kernel(stdout, k);
  }
  wgp_model_free(m);
  return fflush(stdout) == 0 ? EXIT_OK : input_error("cannot write the output: %s", strerror(errno));
}

/* ------------------------------------------------------------------------ */
/* Commands                                                                 */
/* ------------------------------------------------------------------------ */


static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* "<stem>.wgperf.json" for FILE, in the current directory. */
static char *default_output(const char *file) {
  const char *base = base_name(file);
  char *stem = xstrdup(base);
  char *dot = strrchr(stem, '.');
  if (dot && dot != stem)
    *dot = '\0';
  char *out = concat(stem, ".wgperf.json", "");
  free(stem);
  return out;
}

/* Compiles or runs FILE (of KIND) through the plugin and writes the model to
 * OUTPUT (via a temporary file renamed on success).  Returns an exit code. */
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

int extract_to(const char *file, int kind, const char *olevel, char **extra, int nextra, const char *out) {
  /* say so ourselves rather than leave it to clang's two lines and its exit status */
  FILE *probe = fopen(file, "rb");
  if (!probe)
    return input_error("%s: %s", file, strerror(errno));
  fclose(probe);
  char *plugin = find_plugin();
  if (!plugin)
    return input_error("cannot find the pass plugin libwgperf.so (set WGPERF_PLUGIN)");
  char *output = xstrdup(out);
  char pidbuf[32];
  snprintf(pidbuf, sizeof pidbuf, ".tmp%ld", (long)getpid());
  char *tmp = concat(output, pidbuf, "");
  /* Keep the bitcode when ptxas can count registers from it. */
  char *bitcode = find_ptxas() && kind != IN_IR ? concat(tmp, ".bc", "") : NULL;
  char *plugin_flag = NULL, *oflag = NULL, *header = NULL, *hostdir = NULL, *tool = NULL, *passes = NULL;
  const char *args[64 + 1];
  int n = 0, rc;
  const char **argvx = NULL, **argvx2 = NULL;
  bool own_unroll = false;
  int plugin_at = -1, out_at = -1, unroll_at = -1;
  for (int i = 0; i < nextra; i++)
    own_unroll = own_unroll || strstr(extra[i], "unroll-threshold") != NULL;

  if (kind == IN_IR) {
    tool = opt_path();
    plugin_flag = concat("-load-pass-plugin=", plugin, "");
    passes = olevel ? concat("-passes=default<O", olevel, ">,wgperf-extract") : xstrdup("-passes=wgperf-extract");
    const char *fixed[] = {tool, plugin_flag, passes, "-disable-output", file};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
      args[n++] = fixed[i];
    if (olevel && !own_unroll) /* optimizing here: unroll as nvcc would (below) */
      args[n++] = "-unroll-threshold=" WGP_NVCC_UNROLL_THRESHOLD;
  } else {
    tool = xstrdup(clang_path());
    plugin_flag = concat("-fpass-plugin=", plugin, "");
    /* -O3 by default: nvcc and NVIDIA's OpenCL compiler optimize device code at -O3 (its
     * loop unrolling decides what the GPU executes) */
    oflag = concat("-O", olevel ? olevel : "3", "");
    args[n++] = tool;
    if (kind == IN_OPENCL) {
      /* opencl_compat.h: the built-ins that are memory accesses or plain
       * arithmetic (vloadN, vstoreN, dot, length, ...), defined so that the
       * plugin sees their work */
      header = find_header("opencl_compat.h");
      if (!header) {
        rc = input_error("cannot find include/wgperf/opencl_compat.h");
        goto done;
      }
      const char *cl[] = {"-x",        "cl",          "-cl-std=CL1.2", "-Xclang", "-finclude-default-header",
                          "-cl-kernel-arg-info", "-target", "nvptx64-nvidia-nvcl", "-include", header};
      for (size_t i = 0; i < sizeof cl / sizeof cl[0]; i++)
        args[n++] = cl[i];
    } else {
      header = find_header("cuda_compat.h");
      if (!header) {
        rc = input_error("cannot find include/wgperf/cuda_compat.h");
        goto done;
      }
      /* include/wgperf/cuda/: the runtime's host API as declarations, so
       * that a whole program (main, cudaMalloc, <<<...>>>) parses */
      size_t hl = strlen(header) - strlen("cuda_compat.h");
      hostdir = concat(header, "", "");
      strcpy(hostdir + hl, "cuda");
      const char *cu[] = {"-x",        "cuda",         "--cuda-device-only",        "--cuda-gpu-arch=sm_80",
                          "-nocudainc", "-nocudalib",   "-Wno-unknown-cuda-version", "-include",
                          header,      "-isystem",     hostdir,
                          /* clang keeps only line tables of optimized device code; the
                           * plugin names the fields of a struct argument from its type */
                          "-Xclang",   "-debug-info-kind=constructor"};
      for (size_t i = 0; i < sizeof cu / sizeof cu[0]; i++)
        args[n++] = cu[i];
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
  argvx = malloc(((size_t)n + (size_t)nextra + 1) * sizeof *argvx);
  if (!argvx) {
    rc = input_error("out of memory");
    goto done;
  }
  memcpy(argvx, args, (size_t)n * sizeof *args);
  for (int i = 0; i < nextra; i++)
    argvx[n + i] = extra[i];
  argvx[n + nextra] = NULL;

  /* The register count comes from ptxas over bitcode at clang's own unrolling: LLVM's
   * NVPTX code for the more unrolled loops keeps far more values live than ptxas does with
   * nvcc's (subSeqMax: 128 registers against nvcc's 32; docs/kernel-model.md, "Unrolling"),
   * so that bitcode is a second compile, without the plugin.
   * The two compiles run at once; the second's messages are the first's, so it is quiet. */
  bool second = bitcode && unroll_at >= 0;
  tool_run other = {0, -1};
  if (second) {
    argvx2 = malloc(((size_t)n + (size_t)nextra + 2) * sizeof *argvx2);
    if (!argvx2) {
      rc = input_error("out of memory");
      goto done;
    }
    int m = 0;
    for (int i = 0; i < n + nextra; i++)
      if (i != plugin_at && i != unroll_at && i != unroll_at + 1)
        argvx2[m++] = i == out_at ? bitcode : argvx[i];
    argvx2[m++] = "-w";
    argvx2[m] = NULL;
    argvx[out_at] = "/dev/null";
    other = start_tool(file, (char *const *)argvx2, tmp, true);
  }
  unlink(tmp);
  rc = run_tool(file, (char *const *)argvx, tmp);
  if (second && finish_tool(file, (char *const *)argvx2, other, true) != 0 && rc == 0) {
    /* the model stands, with the registers the plugin estimates */
    fprintf(stderr, "%s: warning: %s: the compile for ptxas failed; registers are estimated from the IR\n",
            cli_prog, file);
    unlink(bitcode);
    free(bitcode);
    bitcode = NULL;
  }
  if (rc != 0) {
    unlink(tmp);
    goto done;
  }
  if (!is_file(tmp)) {
    rc = input_error("%s: no kernels found (no __kernel or __global__ function), no model written", file);
    goto done;
  }
  if (find_ptxas() && (kind == IN_IR || bitcode))
    add_ptxas_registers(file, kind == IN_IR ? file : bitcode, kind == IN_OPENCL || opencl_ir(file), clang_path(), tmp);
  if (rename(tmp, output) != 0) {
    rc = input_error("%s: cannot write: %s", output, strerror(errno));
    unlink(tmp);
    goto done;
  }
  rc = EXIT_OK;
done:
  if (bitcode)
    unlink(bitcode);
  free(bitcode);
  free(argvx);
  free(argvx2);
  free(plugin);
  free(output);
  free(tmp);
  free(plugin_flag);
  free(oflag);
  free(header);
  free(hostdir);
  free(tool);
  free(passes);
  return rc;
}

static int flags_push(cli_flags *f, char *a) {
  if (f->n == f->cap) {
    int cap = f->cap ? 2 * f->cap : 8;
    char **v = realloc(f->v, (size_t)cap * sizeof *v);
    if (!v)
      return -1;
    f->v = v;
    f->cap = cap;
  }
  f->v[f->n++] = a;
  return 0;
}

int cli_source_flag(int argc, char **argv, int i, cli_flags *flags) {
  const char *a = argv[i];
  if (a[0] != '-' || !strchr("DUI", a[1]))
    return 0;
  if (a[2]) /* -DNAME=VALUE */
    return flags_push(flags, argv[i]) ? -1 : 1;
  if (i + 1 == argc || argv[i + 1][0] == '-')
    return -1;
  return flags_push(flags, argv[i]) || flags_push(flags, argv[i + 1]) ? -1 : 2;
}

int cli_source_flags_rest(int argc, char **argv, int i, cli_flags *flags) {
  for (; i < argc; i++, flags->after++)
    if (flags_push(flags, argv[i]))
      return -1;
  return 0;
}

int cli_no_kernel(const char *input, const char *name, const wgp_model *m) {
  size_t n = wgp_model_num_kernels(m), instances = name ? wgp_model_template_instances(m, name) : 0;
  if (!name)
    fprintf(stderr, "%s: error: %s: %zu kernels, pick one with --kernel:", cli_prog, input, n);
  else if (instances > 1)
    fprintf(stderr, "%s: error: %s: '%s' is a template with %zu instances, pick one with --kernel:", cli_prog, input,
            name, instances);
  else
    fprintf(stderr, "%s: error: %s: no kernel '%s'; kernels:", cli_prog, input, name);
  for (size_t i = 0; i < n; i++) {
    const char *kn = wgp_kernel_name(wgp_model_kernel(m, i));
    fprintf(stderr, strchr(kn, ' ') ? " '%s'" : " %s", kn);
  }
  fprintf(stderr, "\n");
  return name ? EXIT_INPUT : EXIT_USAGE;
}

int cli_source_flags_check(const char *input, const cli_flags *flags) {
  if (flags->n > 0 && ends_with(input, ".json"))
    return usage_error("%s: compiler flags ('%s') apply to .cl and .cu sources, not to a kernel model", input,
                       flags->v[0]);
  if (flags->n > flags->after && kind_of(input) == IN_IR)
    return usage_error("%s: compiler flags ('%s') apply to .cl and .cu sources, not to LLVM IR", input,
                       flags->v[0]);
  return EXIT_OK;
}

/* The kind of an input file from its name, or -1. */
int kind_of(const char *file) {
  if (ends_with(file, ".cl"))
    return IN_OPENCL;
  if (ends_with(file, ".cu"))
    return IN_CUDA;
  if (ends_with(file, ".bc") || ends_with(file, ".ll"))
    return IN_IR;
  return -1;
}

static int extract_checked(const char *file, const char *olevel, const cli_flags *fl, const char *out, int full);

static int cmd_extract(int argc, char **argv) {
  const char *file = NULL, *out = NULL, *olevel = NULL;
  int full = 0, took, rc = EXIT_OK;
  cli_flags fl = {0};
  for (int i = 0; i < argc && rc == EXIT_OK; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--") == 0) {
      if (cli_source_flags_rest(argc, argv, i + 1, &fl))
        rc = input_error("out of memory");
      break;
    } else if ((took = cli_source_flag(argc, argv, i, &fl)) != 0) {
      if (took < 0)
        rc = usage_error("'%s' needs a value (-DNAME[=VALUE], -UNAME or -IDIR)", a);
      i += took - 1;
    } else if (strcmp(a, "-o") == 0) {
      if (++i == argc)
        rc = usage_error("'-o' needs a file name");
      else
        out = argv[i];
    } else if (strcmp(a, "-O") == 0) {
      if (++i == argc)
        rc = usage_error("'-O' needs a level");
      else
        olevel = argv[i];
    } else if (strncmp(a, "-O", 2) == 0) {
      olevel = a + 2;
    } else if (strcmp(a, "--print") == 0) {
      full = 1;
    } else if (a[0] == '-' && a[1] != '\0') {
      rc = usage_error("unknown option '%s' for 'extract'", a);
    } else if (file) {
      rc = usage_error("'extract' takes one input file, got '%s' and '%s'", file, a);
    } else {
      file = a;
    }
  }
  if (rc == EXIT_OK)
    rc = extract_checked(file, olevel, &fl, out, full);
  free(fl.v);
  return rc;
}

/* Extracts FILE with the compiler flags FL into OUT (a name from FILE's when
 * NULL), then shows it. */
static int extract_checked(const char *file, const char *olevel, const cli_flags *fl, const char *out, int full) {
  if (!file)
    return usage_error("'extract' needs an input file");
  if (olevel && !cli_olevel_ok(olevel))
    return usage_error("bad optimization level '%s' (0, 1, 2, 3, s or z)", olevel);
  int kind = kind_of(file);
  if (kind < 0)
    return usage_error("%s: unknown input kind (expected .cl, .cu, .bc or .ll)", file);
  if (access(file, R_OK) != 0)
    return input_error("%s: %s", file, strerror(errno));
  if (!is_file(file))
    return input_error("%s: not a regular file", file);

  int rc = cli_source_flags_check(file, fl);
  if (rc != EXIT_OK)
    return rc;
  char *output = out ? xstrdup(out) : default_output(file);
  rc = extract_to(file, kind, olevel, fl->v, fl->n, output);
  if (rc == EXIT_OK)
    rc = show_model(output, NULL, full);
  free(output);
  return rc;
}

static int cmd_show(int argc, char **argv) {
  const char *file = NULL, *kernel = NULL;
  int full = 0;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--kernel") == 0) {
      if (++i == argc)
        return usage_error("'--kernel' needs a name");
      kernel = argv[i];
    } else if (strncmp(a, "--kernel=", 9) == 0) {
      kernel = a + 9;
    } else if (strcmp(a, "--print") == 0) {
      full = 1;
    } else if (a[0] == '-' && a[1] != '\0') {
      return usage_error("unknown option '%s' for 'show'", a);
    } else if (file) {
      return usage_error("'show' takes one model file, got '%s' and '%s'", file, a);
    } else {
      file = a;
    }
  }
  if (!file)
    return usage_error("'show' needs a model file");
  return show_model(file, kernel, full);
}

#ifndef WGPERF_NO_MAIN
int main(int argc, char **argv) {
  wgp_tune_allocator();
  if (argc < 2)
    return usage_text_error("no command given");
  const char *cmd = argv[1];
  if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
    printf("%s%s", usage_text, help_text);
    return EXIT_OK;
  }
  /* 'wgperf predict --help' (anywhere before '--', which starts clang's flags) */
  for (int i = 2; i < argc && strcmp(argv[i], "--") != 0; i++)
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      printf("%s%s", usage_text, help_text);
      return EXIT_OK;
    }
  if (strcmp(cmd, "--version") == 0) {
    printf("wgperf %s (kernel model version %d)\n", WGPERF_VERSION, WGP_MODEL_VERSION);
    return EXIT_OK;
  }
  static char command[32];
  snprintf(command, sizeof command, "wgperf %.20s", cmd);
  cli_command = command;
  if (strcmp(cmd, "extract") == 0)
    return cmd_extract(argc - 2, argv + 2);
  if (strcmp(cmd, "show") == 0)
    return cmd_show(argc - 2, argv + 2);
  if (strcmp(cmd, "analyze") == 0)
    return cmd_analyze(argc - 2, argv + 2);
  if (strcmp(cmd, "predict") == 0)
    return cmd_predict(argc - 2, argv + 2);
  return usage_text_error("unknown command '%s'", cmd);
}
#endif
