/* wgperf.c - the wgperf command line.
 *
 *   wgperf extract FILE.cl|FILE.cu|FILE.bc|FILE.ll [-o OUT.json] [-O N] [--print] [-- CLANG-FLAGS...]
 *   wgperf show MODEL.json [--kernel NAME] [--print]
 *
 * extract compiles OpenCL C or CUDA with clang-19 and the wgperf pass plugin
 * (or runs opt on bitcode) through the driver (wgperf/driver.h), then loads
 * the model it wrote, which checks the plugin/analyzer contract end to end,
 * and prints a summary.
 *
 * Exit status: 0 ok, 1 bad input (a missing file, a compiler error, an
 * invalid model), 2 bad usage.
 */
#define _DEFAULT_SOURCE
#define _XOPEN_SOURCE 700
#include "cli.h"
#include "files_internal.h"

#include "wgperf/analyze.h"
#include "wgperf/driver.h"
#include "wgperf/estimate.h"
#include "wgperf/hints.h"
#include "wgperf/model.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef WGPERF_VERSION
#define WGPERF_VERSION "unknown"
#endif

static const char usage_text[] =
    "usage: wgperf extract FILE.cl|FILE.cu|FILE.bc|FILE.ll [-o OUT.json] [-O N] [-DNAME=V] [-IDIR] [--print]\n"
    "                      [--gpu NAME|FILE]... [--no-cache] [-- CLANG-FLAGS...]\n"
    "       wgperf show MODEL.json [--kernel NAME] [--print]\n"
    "       wgperf analyze INPUT [--kernel NAME] --global X[,Y[,Z]] --local X[,Y[,Z]] [LAUNCH OPTIONS]\n"
    "                      [--launch FILE.json] [--gpu NAME|FILE] [--json] [--trace] [-O N] [-- CLANG-FLAGS...]\n"
    "       wgperf predict INPUT [--kernel NAME] --global ... --local ... [LAUNCH OPTIONS] [--regs N] [--json]\n"
    "       wgperf --help (-h) | --version\n";

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
    "  --gpu G     (extract, repeatable) ask NVIDIA's compiler for registers, spills and local memory\n"
    "              for G's architecture (default sm_80); analyze/predict of a source ask for their --gpu's\n"
    "  --kernel K  the kernel to show, analyze or predict (name or IR symbol; needed when the file has\n"
    "              several); a CUDA template's instance, 'scale<float, 256>', is instantiated from a .cu\n"
    "              source that does not instantiate it\n"
    "  -DNAME[=VALUE], -UNAME, -IDIR  preprocessor flags for a .cl/.cu source (extract, analyze,\n"
    "              predict), as for nvcc or clang: -DTW=16, -D TW=16\n"
    "  -- FLAGS    pass the remaining arguments to clang (to opt for .bc/.ll)\n"
    "  --no-cache  compile a source (extract, analyze, predict) even when the model cache holds its\n"
    "              model, and store nothing\n"
    "\n"
    "launch options (analyze, predict): --global X,Y,Z --local X,Y,Z (the same number of sizes), or CUDA's\n"
    "  --grid X,Y,Z --block X,Y,Z (global = grid x block; the shorter is padded with 1s, as dim3(256) is\n"
    "  256,1,1); [--offset X,Y,Z]\n"
    "  --arg NAME=VALUE  a scalar argument; an integer argument takes an integer (1048576, 0x100000,\n"
    "             or an exact integer in scientific notation: 1e6, 2.5e3), an unsigned one no negative value\n"
    "  --buffer NAME=BYTES[@ALIGN] --local-mem NAME=BYTES --nonuniform (or the same in --launch FILE.json,\n"
    "             a launch file with the same names, not together with these options)\n"
    "  a launch the driver would refuse is an error: a work-group size other than the kernel's\n"
    "  reqd_work_group_size or above its __launch_bounds__, more than 65535 work-groups in y or z\n"
    "  --gpu NAME|FILE  a shipped GPU description by file name, product name or alias, without regard\n"
    "             to case, '-', '_' or spaces (h100, H100-SXM, a100, gtx980, 'GeForce GTX 980'; default\n"
    "             h100-sxm; an unknown name lists them) or a description file\n"
    "  --trip L<n>=COUNT, --taken B<n>=FRACTION  hints for loops and branches that need loaded values;\n"
    "             or by source line, FILE:LINE=COUNT (LINE=COUNT), every loop or branch at that line\n"
    "  --cold-l2  L2 holds none of the data at launch (default: a launch whose data fits in 3/4 of L2\n"
    "             finds it there, as after the host copy or the kernel that wrote it)\n"
    "  --regs N   registers per thread, instead of the model's (ptxas' count or the IR estimate)\n"
    "  --json  machine-readable output; --trace  also print each distinct warp's trace (analyze)\n"
    "  --baselines  (predict --json) also the BSP time at lambda = 1 (seeds/003) and the roofline time\n"
    "             (seeds/002) of the same analysis: \"baselines\": {bsp_lambda1_us, roofline_us}\n"
    "  --jobs N, -j N  threads for the cache analysis (default: the CPUs this process may use; the\n"
    "             answer is the same for any N)\n"
    "\n"
    "environment: WGPERF_PLUGIN (libwgperf.so), WGPERF_CLANG, WGPERF_OPT, WGPERF_PTXAS (empty: do not run\n"
    "  ptxas for register counts), WGPERF_NVCC (empty: do not run nvcc on CUDA sources), WGPERF_GPU_DIR\n"
    "  (where --gpu NAME finds NAME.json), WGPERF_CUDA_PATH and CUDA_PATH: .cu files compile against the\n"
    "  headers of the first CUDA 11.0-12.x toolkit of clang's cuda-path=DIR flag after --,\n"
    "  $WGPERF_CUDA_PATH (empty: wgperf's stand-ins), $CUDA_PATH, /usr/local/cuda, /usr/lib/cuda\n"
    "  WGPERF_CACHE_DIR: the model cache of compiled sources (empty: none; default\n"
    "  $XDG_CACHE_HOME/wgperf/models, else ~/.cache/wgperf/models), bounded by WGPERF_CACHE_MAX_MB\n"
    "  (default 1024); a hit copies the model and shows the compile's messages again\n"
    "  (wgperf --version)\n"
    "  TMPDIR: where temporary files go (when it is a folder the tools may write in; else /tmp)\n";

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

static const char *base_name(const char *p) {
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

/* ------------------------------------------------------------------------ */
/* Printing a model                                                         */
/* ------------------------------------------------------------------------ */

static void print_expr_or(FILE *f, const wgp_expr *e, const char *none) {
  char *s = e ? wgp_expr_to_string(e) : NULL;
  fputs(s ? s : none, f);
  free(s);
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
    long partner = wgp_loop_unroll_partner(k, i, &rem);
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
  unsigned maxr = wgp_kernel_max_registers_per_thread(k);
  maxr = maxr && maxr < WGP_PTXAS_MIN_MAXRREG ? WGP_PTXAS_MIN_MAXRREG : maxr;
  if (regs)
    fprintf(f, "  regs    %u per thread (%s)%s\n", regs, regs_src, maxr ? ", compiled with -maxrregcount" : "");
  else if (maxr && wgp_kernel_register_pressure(k) > maxr)
    fprintf(f, "  regs    about %u per thread (IR estimate), at most %u by -maxrregcount, the rest spilled (not "
            "priced: a CUDA toolkit gives ptxas' count and spills)\n",
            wgp_kernel_register_pressure(k), maxr);
  else
    fprintf(f, "  regs    about %u per thread (IR estimate; a CUDA toolkit gives ptxas' count)\n",
            wgp_kernel_register_pressure(k));
  if (wgp_kernel_global_load_cache(k) != WGP_CACHE_DEFAULT || wgp_kernel_global_store_cache(k) != WGP_CACHE_DEFAULT) {
    fprintf(f, "  caches  compiled with");
    if (wgp_kernel_global_load_cache(k) != WGP_CACHE_DEFAULT)
      fprintf(f, " -dlcm=%s", wgp_cache_op_name(wgp_kernel_global_load_cache(k)));
    if (wgp_kernel_global_store_cache(k) != WGP_CACHE_DEFAULT)
      fprintf(f, " -dscm=%s", wgp_cache_op_name(wgp_kernel_global_store_cache(k)));
    fprintf(f, " (the global accesses without a cache operator of their own)\n");
  }
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
    if (wgp_access_cache(a) != WGP_CACHE_DEFAULT)
      fprintf(f, " cache=%s", wgp_cache_op_name(wgp_access_cache(a)));
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

/* Loads FILE (AS, where it is read from a temporary copy of AS) and prints
 * the chosen kernels; returns an exit status. */
static int show_model(const char *as, const char *file, const char *kernel, int full) {
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
      fprintf(stderr, "wgperf: error: %s: no kernel '%s' (kernels:", as, kernel);
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
    printf("%s: %zu kernel%s from %s (%s)\n", as, wgp_model_num_kernels(m), wgp_model_num_kernels(m) == 1 ? "" : "s",
           wgp_model_module(m), wgp_model_target(m));
  if (wgp_model_cuda_headers(m))
    printf("CUDA headers: %s\n", wgp_model_cuda_headers(m));
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
    } else if (cli_cache_option(a, &fl)) {
    } else if (strcmp(a, "--gpu") == 0) {
      if (++i == argc)
        rc = usage_error("'--gpu' needs a GPU name or description file");
      else
        rc = cli_flags_add_gpu(&fl, argv[i]);
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
  wgp_source_kind kind = wgp_source_kind_of(file);
  if (kind == WGP_SOURCE_UNKNOWN)
    return usage_error("%s: unknown input kind (expected .cl, .cu, .bc or .ll)", file);
  if (access(file, R_OK) != 0)
    return input_error("%s: %s", file, strerror(errno));
  if (!is_file(file))
    return input_error("%s: not a regular file", file);

  int rc = cli_source_flags_check(file, fl);
  if (rc != EXIT_OK)
    return rc;
  char *output = out ? xstrdup(out) : default_output(file);
  /* a FIFO or a device (-o /dev/stdout) is read once: the model is made and
   * shown in a temporary file, then written through to it */
  struct stat st;
  char tmp[PATH_MAX];
  bool through = stat(output, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
  int fd = through && wgp_temp_template(tmp, sizeof tmp, "wgperf-extract", ".json") ? mkstemps(tmp, 5) : -1;
  if (through && fd < 0) {
    rc = input_error("%s: cannot make a temporary file: %s", output, strerror(errno));
    free(output);
    return rc;
  }
  if (fd >= 0)
    close(fd);
  rc = cli_extract(file, kind, olevel, fl, NULL, through ? tmp : output);
  if (rc == EXIT_OK)
    rc = show_model(output, through ? tmp : output, NULL, full);
  if (rc == EXIT_OK && through && wgp_move_into(tmp, output) != 0)
    rc = input_error("%s: cannot write: %s", output, strerror(errno));
  if (through)
    unlink(tmp);
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
  return show_model(file, file, kernel, full);
}

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
    /* what a .cu file compiles against (driver.h), and what counts registers */
    wgp_cuda_toolkit tk;
    wgp_diag d;
    if (wgp_find_cuda_toolkit(NULL, 0, &tk, &d) != WGP_OK)
      printf("CUDA headers: none usable (%s)\n", d.message + strlen("wgperf: error: "));
    else if (tk.version)
      printf("CUDA headers: CUDA %d.%d at %s (%s%s%s)\n", tk.version / 1000, tk.version % 1000 / 10, tk.path,
             tk.origin, *tk.passed_over ? "; passed over " : "", tk.passed_over);
    else
      printf("CUDA headers: wgperf's stand-ins (no CUDA toolkit that clang 19 reads: %s)\n", tk.passed_over);
    const char *ptxas = wgp_find_ptxas();
    printf("ptxas: %s\n", ptxas ? ptxas : "none (registers are estimated)");
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
