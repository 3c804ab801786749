/* wgperf-measure - time kernels through OpenCL; rows in the columns of measurements.csv.
 *
 *   wgperf-measure [-o OUT.csv] [--quick] [--only K1,K2] [--budget-s S] [--max-launch-s S]
 *                  [--config-cap-s S] [--kernels DIR] [--gpu-name NAME] [--skipped FILE]
 *   wgperf-measure --list [--quick] [--only K1,K2]
 *   wgperf-measure --plan PLAN.tsv [-o CACHE.json] [--repeats N] [--budget-s S] [--max-launch-s S]
 *                  [--kernel-dir DIR] [--jobs N] [--in-order]
 *   wgperf-measure KERNEL.cl [--kernel NAME] (--launch FILE.json | --global X[,Y[,Z]] --local ...
 *                  [--arg N=V] [--buffer N=SIZE] [--local-mem N=SIZE]) [--build-options OPTS]
 *                  [--fill random|zero] [--repeats N] [--input-size N] [-o OUT.csv]
 *   (all take --platform N --device N)
 *
 * Without a kernel file: the validation kernels (validation/kernels/NAME.cl) with the
 * configurations, inputs and CPU checks of the CUDA harness (measure_validation.c).
 * With one: the user's kernel with the launch of include/wgperf/launch.h; buffers are
 * filled (uniform (0, 1] floats, integers 0..99, or zeros) and restored before every
 * launch, and every timed launch must leave the same results as the warm-up launch
 * (the only check possible without a reference). With --plan: the configurations of a
 * tuning space (wgtune --plan) timed into a Kernel Tuner cache file (measure_plan.c).
 * Durations come from OpenCL profiling
 * events: the kernel alone. Rows of a CPU device (PoCL) say not_a_gpu in notes: they
 * show that the harness works, and are never a GPU's timings.
 *
 * Exit status: 0 every row verified; 1 bad input (no OpenCL device, a kernel file or
 * launch that does not fit); 2 bad usage; 3 some verification failed.
 */
#define _POSIX_C_SOURCE 200809L
#include "measure.h"

#ifndef WGP_MEASURE_STANDALONE
#include "wgperf/launch.h"
#endif

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#ifndef WGPERF_SOURCE_DIR
#define WGPERF_SOURCE_DIR "."
#endif

enum { X_OK = 0, X_INPUT = 1, X_USAGE = 2, X_VERIFY = 3 };

static void usage(FILE *f) {
  fprintf(f,
          "usage: wgperf-measure [-o OUT.csv] [--quick] [--only K1,K2] [--budget-s S] [--max-launch-s S]\n"
          "                      [--config-cap-s S] [--kernels DIR] [--gpu-name NAME] [--skipped FILE]\n"
          "       wgperf-measure --list [--quick] [--only K1,K2]\n"
          "       wgperf-measure --plan PLAN.tsv [-o CACHE.json] [--repeats N] [--budget-s S]\n"
          "                      [--max-launch-s S] [--kernel-dir DIR] [--jobs N] [--in-order]\n"
          "       (a tuning space's configurations from wgtune's plan, timed into a Kernel Tuner cache\n"
          "       file that wgperf-validate compares with wgtune's ranking)\n"
#ifndef WGP_MEASURE_STANDALONE
          "       wgperf-measure KERNEL.cl [--kernel NAME] (--launch FILE.json | --global X[,Y[,Z]] --local ...\n"
          "                      [--arg N=V] [--buffer N=SIZE] [--local-mem N=SIZE]) [--build-options OPTS]\n"
          "                      [--fill random|zero] [--repeats N] [--input-size N] [-o OUT.csv]\n"
          "       (the launch options are wgperf predict's: also --grid X[,Y[,Z]] --block X[,Y[,Z]],\n"
          "       --offset X[,Y[,Z]], --nonuniform)\n"
#endif
          "       wgperf-measure --help (-h)\n"
          "       (all take --platform N --device N; default: the first GPU, else the first device)\n"
          "Times the validation kernels (or your kernel) through OpenCL, checks every result, and writes\n"
          "rows in the columns of measurements.csv (docs/cli/wgperf-measure.md).\n");
}

static int fail(int code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("wgperf-measure: error: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  if (code == X_USAGE)
    usage(stderr);
  return code;
}

/* ---- shared helpers (measure.h) ------------------------------------------ */

void mx_gpu_name(const char *dev, char *out, size_t len) {
  if (strstr(dev, "H100")) {
    snprintf(out, len, "%s", strstr(dev, "PCIe") ? "H100-PCIe" : strstr(dev, "NVL") ? "H100-NVL" : "H100-SXM");
    return;
  }
  if (strstr(dev, "H200")) {
    snprintf(out, len, "H200");
    return;
  }
  const char *p = strncmp(dev, "NVIDIA ", 7) == 0 ? dev + 7 : dev;
  size_t i = 0;
  for (; *p && i + 1 < len; p++) {
    if (*p == ',' || *p == '"')
      continue;
    out[i++] = *p == ' ' ? '-' : *p;
  }
  out[i] = 0;
}

int mx_regs_from_log(const char *log, const char *kernel) {
  char needle[256];
  snprintf(needle, sizeof needle, "entry function '%s'", kernel);
  const char *p = strstr(log, needle);
  if (!p)
    return -1;
  const char *u = strstr(p, "Used ");
  const char *next = strstr(p + strlen(needle), "entry function '");
  if (!u || (next && u > next))
    return -1;
  int regs;
  return sscanf(u, "Used %d registers", &regs) == 1 ? regs : -1;
}

cl_program mx_build_file(mx_ctx *x, const char *file, const char *opts, char **log) {
  if (log)
    *log = NULL;
  FILE *f = fopen(file, "rb");
  if (!f) {
    wgb_fail(&x->b, "%s: cannot open: %s", file, strerror(errno));
    return NULL;
  }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *src = n >= 0 ? malloc((size_t)n + 1) : NULL;
  if (!src || fread(src, 1, (size_t)n, f) != (size_t)n) {
    fclose(f);
    free(src);
    wgb_fail(&x->b, "%s: cannot read", file);
    return NULL;
  }
  fclose(f);
  src[n] = 0;
  char err[1024];
  cl_program p = wgb_build(&x->dev, src, opts, err, sizeof err);
  free(src);
  if (!p) {
    wgb_fail(&x->b, "%s: %s", file, err);
    return NULL;
  }
  size_t ln = 0;
  if (log && clGetProgramBuildInfo(p, x->dev.device, CL_PROGRAM_BUILD_LOG, 0, NULL, &ln) == CL_SUCCESS && ln > 0 &&
      (*log = calloc(ln + 1, 1)) != NULL)
    clGetProgramBuildInfo(p, x->dev.device, CL_PROGRAM_BUILD_LOG, ln, *log, NULL);
  return p;
}

int mx_time_launch(mx_ctx *x, cl_kernel k, cl_uint dims, const size_t *global, const size_t *local, double *sec) {
  double ns = 0;
  if (wgb_run(&x->b, k, dims, global, local, &ns))
    return -1;
  *sec = ns * 1e-9;
  return 0;
}

void mx_write_header(mx_ctx *x) {
  if (!x->header_done)
    fprintf(x->csv, "%s\n", MX_CSV_HEADER);
  x->header_done = true;
}

void mx_write_row(mx_ctx *x, const mx_row *r) {
  FILE *f = x->csv;
  mx_write_header(x);
  fprintf(f, "%s,%s,%s,%lld,%zu,%zu,%zu,%zu,%zu,%zu,", x->gpu, x->cc, r->kernel, r->input_size, r->grid[0], r->grid[1],
          r->grid[2], r->block[0], r->block[1], r->block[2]);
  if (r->regs >= 0)
    fprintf(f, "%d", r->regs);
  fputc(',', f);
  if (r->static_smem >= 0)
    fprintf(f, "%ld", r->static_smem);
  fprintf(f, ",%ld,%.6g,%d,%.6g,%.6g,%d,", r->dynamic_smem, r->med, r->n_runs, r->mn, r->mx, r->launches);
  if (r->sum_med >= 0)
    fprintf(f, "%.6g", r->sum_med);
  fprintf(f, ",%d,0,", r->n_repeat);
  for (int i = 0; i < MX_COUNTER_COLUMNS + 1; i++) /* the counters and counters_source: empty */
    fputc(',', f);
  fprintf(f, "%s\n", r->notes);
  fflush(f);
}

/* ---- a user's kernel -------------------------------------------------------- */

#ifndef WGP_MEASURE_STANDALONE
typedef struct user_opts {
  const char *file, *kernel, *build, *fill;
  int repeats;
  long long input_size;
} user_opts;

typedef struct uarg {
  char name[128], type[128];
  cl_kernel_arg_address_qualifier aq;
  cl_mem buf;
  void *host;
  size_t bytes;
} uarg;

static void fill(void *host, size_t bytes, const char *type, bool zero, uint64_t seed) {
  if (zero) {
    memset(host, 0, bytes);
    return;
  }
  uint64_t s = seed | 1;
#define NEXT() (s ^= s >> 12, s ^= s << 25, s ^= s >> 27, (uint32_t)((s * 0x2545F4914F6CDD1DULL) >> 32))
  if (strncmp(type, "float", 5) == 0)
    for (size_t i = 0; i < bytes / 4; i++)
      ((float *)host)[i] = (float)((NEXT() >> 8) + 1) / 16777216.0f;
  else if (strncmp(type, "double", 6) == 0)
    for (size_t i = 0; i < bytes / 8; i++)
      ((double *)host)[i] = (double)((NEXT() >> 8) + 1) / 16777216.0;
  else if (strstr(type, "char"))
    for (size_t i = 0; i < bytes; i++)
      ((unsigned char *)host)[i] = (unsigned char)(NEXT() % 100);
  else if (strstr(type, "short"))
    for (size_t i = 0; i < bytes / 2; i++)
      ((unsigned short *)host)[i] = (unsigned short)(NEXT() % 100);
  else if (strstr(type, "long"))
    for (size_t i = 0; i < bytes / 8; i++)
      ((uint64_t *)host)[i] = NEXT() % 100;
  else if (strstr(type, "int"))
    for (size_t i = 0; i < bytes / 4; i++)
      ((uint32_t *)host)[i] = NEXT() % 100;
  else
    for (size_t i = 0; i < bytes; i++)
      ((unsigned char *)host)[i] = (unsigned char)NEXT();
#undef NEXT
}

/* Sets scalar argument I of type TYPE to V (as given). */
static int set_scalar(mx_ctx *x, cl_kernel k, cl_uint i, const char *type, const char *name, double v) {
#define SET(T)                                                                                                         \
  do {                                                                                                                 \
    T t = (T)v;                                                                                                        \
    return wgb_arg(&x->b, k, i, sizeof t, &t);                                                                         \
  } while (0)
  if (!strcmp(type, "float"))
    SET(cl_float);
  if (!strcmp(type, "double"))
    SET(cl_double);
  if (v != floor(v))
    return wgb_fail(&x->b, "argument '%s' is %s, got %g", name, type, v);
  if (!strcmp(type, "int"))
    SET(cl_int);
  if (!strcmp(type, "uint"))
    SET(cl_uint);
  if (!strcmp(type, "long"))
    SET(cl_long);
  if (!strcmp(type, "ulong"))
    SET(cl_ulong);
  if (!strcmp(type, "short"))
    SET(cl_short);
  if (!strcmp(type, "ushort"))
    SET(cl_ushort);
  if (!strcmp(type, "char"))
    SET(cl_char);
  if (!strcmp(type, "uchar"))
    SET(cl_uchar);
#undef SET
  return wgb_fail(&x->b, "argument '%s' has type %s, which wgperf-measure cannot set", name, type);
}

static int run_user(mx_ctx *x, const user_opts *u, const wgp_launch *l) {
  char opts[2048];
  snprintf(opts, sizeof opts, "-cl-std=CL1.2 -cl-kernel-arg-info%s %s", x->dev.nv ? " -cl-nv-verbose" : "",
           u->build ? u->build : "");
  char *log = NULL;
  cl_program p = mx_build_file(x, u->file, opts, &log);
  if (!p)
    return fail(X_INPUT, "%s", x->b.err);
  /* the kernel: named, or the only one */
  cl_uint nk = 0;
  cl_kernel ks[64];
  cl_int e = clCreateKernelsInProgram(p, 64, ks, &nk);
  if (e != CL_SUCCESS || nk == 0) {
    free(log);
    clReleaseProgram(p);
    return fail(X_INPUT, "%s: no kernel (%s)", u->file, wgb_cl_error(e));
  }
  cl_kernel k = NULL;
  char names[1024] = "", kname[128] = "";
  for (cl_uint i = 0; i < nk; i++) {
    char nm[128] = "";
    clGetKernelInfo(ks[i], CL_KERNEL_FUNCTION_NAME, sizeof nm, nm, NULL);
    snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? ", " : "", nm);
    if (!k && ((u->kernel && !strcmp(nm, u->kernel)) || (!u->kernel && nk == 1))) {
      k = ks[i];
      snprintf(kname, sizeof kname, "%s", nm);
    } else
      clReleaseKernel(ks[i]);
  }
  int rc = X_OK;
  if (!k) {
    rc = u->kernel ? fail(X_INPUT, "%s: no kernel '%s' (it has: %s)", u->file, u->kernel, names)
                   : fail(X_INPUT, "%s has %u kernels (%s): choose one with --kernel", u->file, nk, names);
    free(log);
    clReleaseProgram(p);
    return rc;
  }
  int regs = x->dev.nv && log ? mx_regs_from_log(log, kname) : -1;
  free(log);
  /* arguments, bound by name */
  cl_uint na = 0;
  clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof na, &na, NULL);
  uarg *a = calloc(na ? na : 1, sizeof *a);
  bool *used_buf = calloc(wgp_launch_num_buffers(l) + 1, 1), *used_arg = calloc(wgp_launch_num_args(l) + 1, 1),
       *used_loc = calloc(wgp_launch_num_local_mem(l) + 1, 1);
  long dynamic = 0;
  if (!a || !used_buf || !used_arg || !used_loc)
    rc = fail(X_INPUT, "out of memory");
  for (cl_uint i = 0; i < na && rc == X_OK; i++) {
    if (clGetKernelArgInfo(k, i, CL_KERNEL_ARG_NAME, sizeof a[i].name, a[i].name, NULL) != CL_SUCCESS ||
        clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof a[i].aq, &a[i].aq, NULL) != CL_SUCCESS ||
        clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_NAME, sizeof a[i].type, a[i].type, NULL) != CL_SUCCESS) {
      rc = fail(X_INPUT, "%s: the driver gives no argument information for %s", u->file, kname);
      break;
    }
    if (a[i].aq == CL_KERNEL_ARG_ADDRESS_GLOBAL || a[i].aq == CL_KERNEL_ARG_ADDRESS_CONSTANT) {
      uint64_t bytes = 0, align;
      for (size_t j = 0; j < wgp_launch_num_buffers(l); j++)
        if (!strcmp(wgp_launch_buffer(l, j, &bytes, &align), a[i].name)) {
          used_buf[j] = true;
          a[i].bytes = (size_t)bytes;
        }
      if (!a[i].bytes) {
        rc = fail(X_INPUT, "argument '%s' of %s is a buffer: give its size (--buffer %s=SIZE or \"buffers\")",
                  a[i].name, kname, a[i].name);
        break;
      }
      if (!(a[i].host = malloc(a[i].bytes))) {
        rc = fail(X_INPUT, "out of memory for buffer '%s' (%zu bytes)", a[i].name, a[i].bytes);
        break;
      }
      fill(a[i].host, a[i].bytes, a[i].type, u->fill && !strcmp(u->fill, "zero"), 0x9e3779b97f4a7c15ULL + i);
      if (!(a[i].buf = wgb_buffer(&x->b, a[i].bytes, a[i].host)) || WGB_ARG(&x->b, k, i, a[i].buf))
        rc = fail(X_INPUT, "buffer '%s': %s", a[i].name, x->b.err);
    } else if (a[i].aq == CL_KERNEL_ARG_ADDRESS_LOCAL) {
      uint64_t bytes = 0;
      for (size_t j = 0; j < wgp_launch_num_local_mem(l); j++)
        if (!strcmp(wgp_launch_local_mem(l, j, &bytes), a[i].name))
          used_loc[j] = true;
      if (!bytes) {
        rc = fail(X_INPUT, "argument '%s' of %s is __local: give its size (--local-mem %s=BYTES or \"local_mem\")",
                  a[i].name, kname, a[i].name);
        break;
      }
      dynamic += (long)bytes;
      if (wgb_arg(&x->b, k, i, (size_t)bytes, NULL))
        rc = fail(X_INPUT, "__local '%s': %s", a[i].name, x->b.err);
    } else {
      bool found = false;
      int64_t iv;
      for (size_t j = 0; j < wgp_launch_num_args(l) && !found; j++)
        if (!strcmp(wgp_launch_arg(l, j, &iv), a[i].name)) {
          found = used_arg[j] = true;
          if (set_scalar(x, k, i, a[i].type, a[i].name, wgp_launch_arg_real(l, j)))
            rc = fail(X_INPUT, "%s", x->b.err);
        }
      if (!found && rc == X_OK)
        rc = fail(X_INPUT, "argument '%s' (%s) of %s has no value: give --arg %s=VALUE", a[i].name, a[i].type, kname,
                  a[i].name);
    }
  }
  /* names the launch gives that the kernel does not have: a typo would go unnoticed */
  int64_t iv;
  uint64_t b1, b2;
  for (size_t j = 0; j < wgp_launch_num_args(l) && rc == X_OK; j++)
    if (!used_arg[j])
      rc = fail(X_INPUT, "the launch gives argument '%s', which %s does not have", wgp_launch_arg(l, j, &iv), kname);
  for (size_t j = 0; j < wgp_launch_num_buffers(l) && rc == X_OK; j++)
    if (!used_buf[j])
      rc = fail(X_INPUT, "the launch gives buffer '%s', which is not a buffer argument of %s",
                wgp_launch_buffer(l, j, &b1, &b2), kname);
  for (size_t j = 0; j < wgp_launch_num_local_mem(l) && rc == X_OK; j++)
    if (!used_loc[j])
      rc = fail(X_INPUT, "the launch gives local memory '%s', which is not a __local argument of %s",
                wgp_launch_local_mem(l, j, &b1), kname);
  /* the NDRange */
  unsigned dims = wgp_launch_dims(l);
  size_t global[3], local[3];
  for (unsigned d = 0; d < 3; d++) {
    global[d] = (size_t)wgp_launch_global(l, d);
    local[d] = (size_t)wgp_launch_local(l, d);
  }
  if (rc == X_OK && (dims == 0 || local[0] == 0))
    rc = fail(X_INPUT, "give the global and local sizes (--global and --local, or \"global\" and \"local\")");
  for (unsigned d = 0; d < dims && rc == X_OK; d++)
    if (global[d] % local[d])
      rc = fail(X_INPUT, "global size %zu is not a multiple of local size %zu in dimension %u (OpenCL 1.2)", global[d],
                local[d], d);
  /* warm-up, reference results, timed launches */
  double t[64], warm = 0;
  unsigned char **ref = calloc(na ? na : 1, sizeof *ref);
  int reps = 0, differ = 0;
  if (rc == X_OK && !ref)
    rc = fail(X_INPUT, "out of memory");
  for (int r = -1; rc == X_OK && r < reps; r++) {
    for (cl_uint i = 0; i < na && rc == X_OK; i++)
      if (a[i].buf && wgb_write(&x->b, a[i].buf, a[i].bytes, a[i].host))
        rc = fail(X_INPUT, "%s", x->b.err);
    double sec = 0;
    if (rc == X_OK && mx_time_launch(x, k, dims, global, local, &sec))
      rc = fail(X_INPUT, "%s: %s", kname, x->b.err);
    if (rc != X_OK)
      break;
    if (r < 0) {
      warm = sec;
      reps = u->repeats > 0 ? u->repeats : (int)fmin(fmax(2.0 / fmax(warm, 1e-9), 3), 10);
      if (reps > 64)
        reps = 64;
    } else
      t[r] = sec;
    for (cl_uint i = 0; i < na && rc == X_OK; i++) {
      if (!a[i].buf || a[i].aq == CL_KERNEL_ARG_ADDRESS_CONSTANT)
        continue;
      unsigned char *now = malloc(a[i].bytes);
      if (!now || wgb_read(&x->b, a[i].buf, a[i].bytes, now)) {
        free(now);
        rc = fail(X_INPUT, "reading '%s' back: %s", a[i].name, now ? x->b.err : "out of memory");
        break;
      }
      if (r < 0)
        ref[i] = now;
      else {
        if (memcmp(now, ref[i], a[i].bytes) != 0 && !differ++)
          fprintf(stderr, "wgperf-measure: error: %s: buffer '%s' after timed launch %d differs from the warm-up "
                          "launch's (same inputs): a race or nondeterminism\n",
                  kname, a[i].name, r + 1);
        free(now);
      }
    }
  }
  if (rc == X_OK) {
    mx_row row;
    memset(&row, 0, sizeof row);
    row.kernel = kname;
    uint64_t total = 1;
    for (unsigned d = 0; d < 3; d++) {
      row.grid[d] = d < dims ? global[d] / local[d] : 1;
      row.block[d] = d < dims ? local[d] : 1;
      total *= d < dims ? global[d] : 1;
    }
    row.input_size = u->input_size > 0 ? u->input_size : (long long)total;
    row.regs = regs;
    cl_ulong lm = 0;
    row.static_smem = clGetKernelWorkGroupInfo(k, x->dev.device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof lm, &lm, NULL) ==
                              CL_SUCCESS
                          ? (long)lm - dynamic
                          : -1;
    if (row.static_smem < -1)
      row.static_smem = 0;
    row.dynamic_smem = dynamic;
    double tmp[64];
    memcpy(tmp, t, sizeof(double) * (size_t)reps);
    row.med = wgb_median(tmp, reps);
    row.mn = tmp[0];
    row.mx = tmp[reps - 1];
    row.n_runs = row.n_repeat = reps;
    row.launches = 1;
    row.sum_med = -1;
    snprintf(row.notes, sizeof row.notes, "%s%s%s", differ ? "results_differ_between_runs" : "",
             differ && x->cpu ? ";" : "", x->cpu ? "not_a_gpu" : "");
    mx_write_row(x, &row);
    fprintf(stderr, "wgperf-measure: %s: median %.4g us over %d launches (warm-up %.4g us)%s\n", kname, row.med * 1e6,
            reps, warm * 1e6, differ ? "; RESULTS DIFFER BETWEEN RUNS" : "");
    if (differ)
      rc = X_VERIFY;
  }
  for (cl_uint i = 0; i < na; i++) {
    if (a && a[i].buf)
      clReleaseMemObject(a[i].buf);
    if (a)
      free(a[i].host);
    if (ref)
      free(ref[i]);
  }
  free(ref);
  free(a);
  free(used_buf);
  free(used_arg);
  free(used_loc);
  clReleaseKernel(k);
  clReleaseProgram(p);
  return rc;
}
#endif

/* ---- command line ------------------------------------------------------------ */

static int parse_num(const char *s, double lo, double hi, double *out) {
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (!*s || *end || errno || !(v >= lo && v <= hi))
    return -1;
  *out = v;
  return 0;
}

#ifndef WGP_MEASURE_STANDALONE
/* the body of main; *lp is the launch of a user kernel, freed by main on every path */
static int measure_main(int argc, char **argv, wgp_launch **lp) {
#else
static int measure_main(int argc, char **argv) {
#endif
  const char *out = NULL, *gpu_name = NULL, *skipped = NULL;
  mx_val_opts vo = {NULL, false, false, 200, 2.5, 2, NULL};
  mx_plan_opts po = {NULL, NULL, NULL, 7, 0, 2.5, 0, false};
  bool budget_given = false, launch_given = false, have_plan = false;
  plan pl;
  int platform = -1, device = -1;
#ifndef WGP_MEASURE_STANDALONE
  user_opts uo = {NULL, NULL, NULL, "random", 0, 0};
  wgp_launch *l = *lp;
  const char *launch_file = NULL;
  bool launch_opts = false;
#endif
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    bool more = i + 1 < argc;
    double v;
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      usage(stdout);
      return X_OK;
    } else if (!strcmp(a, "-o") && more)
      out = argv[++i];
    else if (!strcmp(a, "--quick"))
      vo.quick = true;
    else if (!strcmp(a, "--list"))
      vo.list = true;
    else if (!strcmp(a, "--only") && more)
      vo.only = argv[++i];
    else if (!strcmp(a, "--kernels") && more)
      vo.kernels_dir = argv[++i];
    else if (!strcmp(a, "--gpu-name") && more)
      gpu_name = argv[++i];
    else if (!strcmp(a, "--skipped") && more)
      skipped = argv[++i];
    else if ((!strcmp(a, "--budget-s") || !strcmp(a, "--max-launch-s") || !strcmp(a, "--config-cap-s")) && more) {
      if (parse_num(argv[++i], 1e-3, 1e6, &v))
        return fail(X_USAGE, "%s takes positive seconds, got '%s'", a, argv[i]);
      *(!strcmp(a, "--budget-s") ? &vo.budget_s : !strcmp(a, "--max-launch-s") ? &vo.max_launch_s : &vo.config_cap_s) =
          v;
      budget_given |= !strcmp(a, "--budget-s");
      launch_given |= !strcmp(a, "--max-launch-s");
    } else if (!strcmp(a, "--plan") && more)
      po.plan = argv[++i];
    else if (!strcmp(a, "--kernel-dir") && more)
      po.kernel_dir = argv[++i];
    else if (!strcmp(a, "--in-order"))
      po.in_order = true;
    else if (!strcmp(a, "--jobs") && more) {
      if (parse_num(argv[++i], 1, 64, &v) || v != floor(v))
        return fail(X_USAGE, "--jobs takes a number from 1 to 64, got '%s'", argv[i]);
      po.jobs = (int)v;
    }
    else if (!strcmp(a, "--repeats") && more) {
      if (parse_num(argv[++i], 1, 64, &v) || v != floor(v))
        return fail(X_USAGE, "--repeats takes a number from 1 to 64, got '%s'", argv[i]);
      po.repeats = (int)v;
#ifndef WGP_MEASURE_STANDALONE
      uo.repeats = (int)v;
#endif
    } else if ((!strcmp(a, "--platform") || !strcmp(a, "--device")) && more) {
      if (parse_num(argv[++i], 0, 15, &v) || v != floor(v))
        return fail(X_USAGE, "%s takes a number from 0 to 15, got '%s'", a, argv[i]);
      *(!strcmp(a, "--platform") ? &platform : &device) = (int)v;
    }
#ifndef WGP_MEASURE_STANDALONE
    else if (!strcmp(a, "--kernel") && more)
      uo.kernel = argv[++i];
    else if (!strcmp(a, "--build-options") && more)
      uo.build = argv[++i];
    else if (!strcmp(a, "--fill") && more) {
      uo.fill = argv[++i];
      if (strcmp(uo.fill, "random") && strcmp(uo.fill, "zero"))
        return fail(X_USAGE, "--fill takes random or zero, got '%s'", uo.fill);
    } else if (!strcmp(a, "--input-size") && more) {
      if (parse_num(argv[++i], 1, 9e18, &v) || v != floor(v))
        return fail(X_USAGE, "--input-size takes a positive integer, got '%s'", argv[i]);
      uo.input_size = (long long)v;
    } else if (!strcmp(a, "--launch") && more)
      launch_file = argv[++i];
    else if (a[0] == '-' && a[1] == '-') {
      bool takes;
      if (!wgp_launch_is_option(a, &takes))
        return fail(X_USAGE, "unknown option '%s'", a);
      if (takes && !more)
        return fail(X_USAGE, "%s needs a value", a);
      wgp_diag d;
      if (wgp_launch_set_option(l, a, takes ? argv[++i] : NULL, &d) != WGP_OK) {
        fprintf(stderr, "%s\n", d.message);
        return X_USAGE;
      }
      launch_opts = true;
    } else if (a[0] != '-' && !uo.file)
      uo.file = a;
#endif
    else
      return fail(X_USAGE, "unknown or incomplete option '%s'", a);
  }
  if (mx_check_only(vo.only))
    return X_USAGE;
  char kdir[4096];
  if (!vo.kernels_dir) {
    const char *env = getenv("WGPERF_VALIDATION_KERNELS");
    snprintf(kdir, sizeof kdir, "%s", env ? env : WGPERF_SOURCE_DIR "/validation/kernels");
    vo.kernels_dir = kdir;
  }
  if (po.plan) {
    if (vo.list || vo.quick || vo.only || gpu_name || skipped
#ifndef WGP_MEASURE_STANDALONE
        || uo.file || uo.kernel || launch_file || launch_opts
#endif
    )
      return fail(X_USAGE, "--plan times the plan's configurations: no kernel file, launch, --list, --quick, --only, "
                           "--gpu-name or --skipped with it");
    if (po.kernel_dir && !*po.kernel_dir)
      return fail(X_USAGE, "--kernel-dir needs a folder");
    /* a bad plan is named before any device is opened */
    if (plan_read("wgperf-measure", po.plan, &pl)) {
      plan_free(&pl);
      return X_INPUT;
    }
    have_plan = true;
    if (strcmp(pl.language, "opencl")) {
      plan_free(&pl);
      return fail(X_INPUT, "%s: a CUDA plan: wgperf-measure times OpenCL kernels; time it with "
                           "microbench/cuda/measure-plan-cuda (docs/cli/wgperf-measure.md, \"Plans\")", po.plan);
    }
    po.out = out;
    po.budget_s = budget_given ? vo.budget_s : 0;
    po.max_launch_s = launch_given ? vo.max_launch_s : po.max_launch_s;
  } else if (po.kernel_dir || po.jobs || po.in_order)
    return fail(X_USAGE, "--kernel-dir, --jobs and --in-order go with --plan");
  mx_ctx x;
  memset(&x, 0, sizeof x);
  if (vo.list) /* configurations only: no device */
    return mx_run_validation(&x, &vo) < 0 ? X_INPUT : X_OK;
#ifndef WGP_MEASURE_STANDALONE
  if (!uo.file && (launch_file || launch_opts || uo.kernel))
    return fail(X_USAGE, "a launch, --kernel and their options need a kernel file (KERNEL.cl)");
  if (uo.file && launch_file && launch_opts)
    return fail(X_USAGE, "give the launch either as --launch FILE.json or as options, not both");
  if (launch_file) {
    wgp_launch_free(l);
    *lp = l = NULL;
    wgp_diag d;
    if (wgp_launch_load_file(launch_file, lp, &d) != WGP_OK) {
      fprintf(stderr, "%s\n", d.message);
      return X_INPUT;
    }
    l = *lp;
  }
#endif
  char err[1024];
  if (wgb_dev_open(&x.dev, platform, device, err, sizeof err)) {
    if (have_plan)
      plan_free(&pl);
    return fail(X_INPUT, "%s", err);
  }
  wgb_table dummy;
  wgb_table_init(&dummy);
  wgb_init(&x.b, &x.dev, &dummy, true, 1);
  x.cpu = !x.dev.is_gpu;
  if (gpu_name)
    snprintf(x.gpu, sizeof x.gpu, "%s", gpu_name);
  else
    mx_gpu_name(x.dev.name, x.gpu, sizeof x.gpu);
  if (x.dev.nv && x.dev.cc_major)
    snprintf(x.cc, sizeof x.cc, "%u.%u", x.dev.cc_major, x.dev.cc_minor);
  if (x.cpu)
    fprintf(stderr, "wgperf-measure: warning: %s is not a GPU: its timings show that the harness works and must "
                    "never stand for a GPU's (rows say not_a_gpu)\n",
            x.dev.name);
  if (have_plan) {
    int prc = mx_run_plan(&x, &pl, &po);
    plan_free(&pl);
    wgb_table_free(&dummy);
    wgb_dev_close(&x.dev);
    return prc ? X_INPUT : X_OK;
  }
  x.csv = out ? fopen(out, "w") : stdout;
  if (!x.csv)
    return fail(X_INPUT, "%s: cannot write: %s", out, strerror(errno));
  int rc;
#ifndef WGP_MEASURE_STANDALONE
  if (uo.file) {
    rc = run_user(&x, &uo, l);
  } else
#endif
  {
    char skp[4200];
    if (!skipped && out) {
      size_t n = strlen(out);
      snprintf(skp, sizeof skp, "%.*s-skipped.csv", (int)(n > 4 && !strcmp(out + n - 4, ".csv") ? n - 4 : n), out);
      skipped = skp;
    }
    if (skipped && (x.skipped = fopen(skipped, "w")) != NULL)
      fprintf(x.skipped, "kernel,input_size,block_x,block_y,reason\n");
    int failures = mx_run_validation(&x, &vo);
    fprintf(stderr, "wgperf-measure: %d rows verified, %d failed, %d skipped%s%s%s\n", x.measured, x.failed,
            x.skipped_n, skipped ? " (listed in " : "", skipped ? skipped : "", skipped ? ")" : "");
    if (x.skipped)
      fclose(x.skipped);
    rc = failures < 0 ? X_INPUT : failures > 0 ? X_VERIFY : X_OK;
    mx_write_header(&x); /* a well-formed CSV even when every configuration was skipped */
  }
  if (x.csv != stdout)
    fclose(x.csv);
  wgb_table_free(&dummy);
  wgb_dev_close(&x.dev);
  return rc;
}

int main(int argc, char **argv) {
#ifndef WGP_MEASURE_STANDALONE
  wgp_launch *l = wgp_launch_new();
  if (!l)
    return fail(X_INPUT, "out of memory");
  int rc = measure_main(argc, argv, &l);
  wgp_launch_free(l);
  return rc;
#else
  return measure_main(argc, argv);
#endif
}
