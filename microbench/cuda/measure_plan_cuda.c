/* measure_plan_cuda.c - measure-plan-cuda: time the configurations of a CUDA
 * tuning space's measurement plan (wgtune --plan; tune/plan.c has the format)
 * on an NVIDIA GPU and write a Kernel Tuner cache file (the format of
 * ../shared/data/kernel-tuner/measurements) for wgperf-validate --kernel-tuner.
 * The OpenCL side is wgperf-measure --plan (tools/measure_plan.c); both read
 * and write through tools/plan_file.c.
 *
 *   measure-plan-cuda PLAN.tsv [-o CACHE.json] [--repeats N] [--budget-s S]
 *                     [--max-launch-s S] [--kernel-dir DIR] [--device N] [--jobs N] [--in-order]
 *
 * Each configuration is compiled by NVRTC for the GPU's own architecture
 * (a cubin, -arch=sm_XY) from the plan's files after Kernel Tuner's prefix of
 * #defines (its parameters, grid_size_x/y/z, block_size_x/y/z, kernel_tuner,
 * loop_unroll_factor parameters as constexpr ints: common/kt_source.c) with
 * the plan's flags, on --jobs threads ahead of the timing (a convolution
 * configuration takes seconds to compile, a tenth of that to time); the kernel
 * is found by its name (extern "C", or a C++ name through NVRTC's lowered
 * names).  Buffers are filled once per size (plan_fill); a "constant"
 * argument is also copied to the module's __constant__ array of its name
 * (Kernel Tuner's cmem_args).  One launch warms up, then --repeats launches
 * are timed each between two CUDA events on the default stream.  A
 * configuration NVRTC refuses is CompilationFailedConfig, one the driver will
 * not launch RuntimeFailedConfig, as in Kernel Tuner's files; an error that
 * leaves the context unusable (an illegal address) ends the run, with the
 * configurations before it written.
 *
 * Built on the GPU machine by microbench/cuda/build-measure-plan.sh (a C
 * compiler, the toolkit's cuda.h, nvrtc.h, libnvrtc and the driver's libcuda).
 */
#define _POSIX_C_SOURCE 200809L
#include "kt_source_internal.h"
#include "plan_file.h"

#include <cuda.h>
#include <errno.h>
#include <math.h>
#include <nvrtc.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG "measure-plan-cuda"

static int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int fail(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs(PROG ": error: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  return 1;
}

static const char *cu_error(CUresult e) {
  static char buf[64];
  const char *s = NULL;
  if (e == CUDA_ERROR_STUB_LIBRARY)
    return "CUDA_ERROR_STUB_LIBRARY (the toolkit's stub libcuda, not a driver)";
  if (cuGetErrorName(e, &s) == CUDA_SUCCESS && s)
    return s;
  snprintf(buf, sizeof buf, "CUDA error %d", (int)e);
  return buf;
}

/* ---- compiling ahead -------------------------------------------------------------- */

typedef struct compiled {
  char *cubin; /* NULL: failed, the log in reason */
  size_t cubin_size;
  char *lowered; /* the kernel's name in the cubin */
  double ms;
  char reason[1280];
} compiled;

typedef struct compiler {
  const plan *p;
  const char *src;
  char arch[32];
  compiled *out;
} compiler;

/* Configuration I through NVRTC (plan_ahead's work). */
static void compile_one(void *ctx, size_t i) {
  compiler *c = ctx;
  const plan *p = c->p;
  compiled *o = &c->out[i];
  double t0 = plan_now();
  size_t nopt = p->nflags + 1;
  char **opts = calloc(nopt, sizeof *opts);
  size_t n = 0;
  const plan_cfg *cfg = &p->cfgs[i];
  char *src = kt_source(c->src, p->pname, (const char *const *)cfg->values, p->nparams, cfg->grid, cfg->block, true);
  bool ok = opts != NULL && src != NULL;
  if (ok && (opts[n] = malloc(48)) != NULL)
    snprintf(opts[n++], 48, "-arch=%s", c->arch);
  for (size_t k = 0; ok && k < p->nflags; k++)
    ok = (opts[n++] = strdup(p->flags[k])) != NULL;
  nvrtcProgram prog = NULL;
  nvrtcResult r = ok ? nvrtcCreateProgram(&prog, src, "plan_kernel.cu", 0, NULL, NULL) : NVRTC_ERROR_OUT_OF_MEMORY;
  if (r == NVRTC_SUCCESS)
    r = nvrtcAddNameExpression(prog, p->kernel);
  if (r == NVRTC_SUCCESS) {
    r = nvrtcCompileProgram(prog, (int)n, (const char *const *)opts);
    if (r != NVRTC_SUCCESS) {
      size_t ll = 0;
      char *log = NULL;
      if (nvrtcGetProgramLogSize(prog, &ll) == NVRTC_SUCCESS && ll > 1 && (log = malloc(ll)) != NULL &&
          nvrtcGetProgramLog(prog, log) == NVRTC_SUCCESS)
        snprintf(o->reason, sizeof o->reason, "NVRTC: %s", log);
      else
        snprintf(o->reason, sizeof o->reason, "NVRTC: %s", nvrtcGetErrorString(r));
      free(log);
    }
  } else {
    snprintf(o->reason, sizeof o->reason, "NVRTC: %s", nvrtcGetErrorString(r));
  }
  const char *low = NULL;
  if (r == NVRTC_SUCCESS && (r = nvrtcGetLoweredName(prog, p->kernel, &low)) != NVRTC_SUCCESS)
    snprintf(o->reason, sizeof o->reason, "no kernel '%s': %s", p->kernel, nvrtcGetErrorString(r));
  if (r == NVRTC_SUCCESS && (r = nvrtcGetCUBINSize(prog, &o->cubin_size)) == NVRTC_SUCCESS &&
      (o->cubin = malloc(o->cubin_size)) != NULL && (r = nvrtcGetCUBIN(prog, o->cubin)) == NVRTC_SUCCESS) {
    o->lowered = strdup(low);
  } else if (r == NVRTC_SUCCESS || !o->reason[0]) {
    snprintf(o->reason, sizeof o->reason, "NVRTC: no cubin: %s", nvrtcGetErrorString(r));
    free(o->cubin);
    o->cubin = NULL;
  }
  if (r != NVRTC_SUCCESS) {
    free(o->cubin);
    o->cubin = NULL;
  }
  if (prog)
    nvrtcDestroyProgram(&prog);
  plan_one_line(o->reason);
  for (size_t k = 0; opts && k < n; k++)
    free(opts[k]);
  free(opts);
  free(src);
  o->ms = (plan_now() - t0) * 1e3;
}

/* ---- timing ------------------------------------------------------------------------- */

typedef struct opts {
  const char *plan, *out, *kernel_dir, *compile_only;
  int repeats, device, jobs;
  bool in_order;
  double budget_s, max_launch_s;
} opts;

static void usage(FILE *f) {
  fprintf(f, "usage: " PROG " PLAN.tsv [-o CACHE.json] [--repeats N] [--budget-s S] [--max-launch-s S]\n"
             "                         [--kernel-dir DIR] [--device N] [--jobs N] [--in-order]\n"
             "       " PROG " PLAN.tsv --compile-only sm_XY [--jobs N] [--kernel-dir DIR]\n"
             "Times the configurations of a CUDA plan (wgtune --plan) into a Kernel Tuner cache file\n"
             "(docs/cli/wgperf-measure.md, \"Plans\").\n");
}

static int parse_args(int argc, char **argv, opts *o) {
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    bool more = i + 1 < argc;
    char *end;
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      usage(stdout);
      exit(0);
    } else if (!strcmp(a, "-o") && more) {
      o->out = argv[++i];
    } else if (!strcmp(a, "--kernel-dir") && more) {
      o->kernel_dir = argv[++i];
    } else if (!strcmp(a, "--in-order")) {
      o->in_order = true;
    } else if (!strcmp(a, "--compile-only") && more) {
      o->compile_only = argv[++i];
      if (strncmp(o->compile_only, "sm_", 3) || strlen(o->compile_only) < 5 ||
          strspn(o->compile_only + 3, "0123456789") < 2) {
        usage(stderr);
        return fail("--compile-only takes an architecture such as sm_90, got '%s'", o->compile_only);
      }
    } else if ((!strcmp(a, "--repeats") || !strcmp(a, "--device") || !strcmp(a, "--jobs")) && more) {
      long v = strtol(argv[++i], &end, 10);
      long lo = !strcmp(a, "--device") ? 0 : 1, hi = !strcmp(a, "--repeats") ? 64 : 256;
      if (*end || !*argv[i] || v < lo || v > hi) {
        usage(stderr);
        return fail("%s takes a number from %ld to %ld, got '%s'", a, lo, hi, argv[i]);
      }
      *(!strcmp(a, "--repeats") ? &o->repeats : !strcmp(a, "--device") ? &o->device : &o->jobs) = (int)v;
    } else if ((!strcmp(a, "--budget-s") || !strcmp(a, "--max-launch-s")) && more) {
      double v = strtod(argv[++i], &end);
      if (*end || !*argv[i] || !(v > 0 && v < 1e7)) {
        usage(stderr);
        return fail("%s takes positive seconds, got '%s'", a, argv[i]);
      }
      *(!strcmp(a, "--budget-s") ? &o->budget_s : &o->max_launch_s) = v;
    } else if (a[0] != '-' && !o->plan) {
      o->plan = a;
    } else {
      usage(stderr);
      return fail("unknown or incomplete option '%s'", a);
    }
  }
  if (!o->plan) {
    usage(stderr);
    return fail("give the plan (wgtune --plan writes one)");
  }
  return 0;
}

/* --compile-only: every configuration through NVRTC for ARCH, no device: which ones
 * compile, and how long each takes (a check of a plan before a GPU's time is spent). */
static int compile_only(const plan *p, const char *src, const char *arch, int jobs) {
  compiler comp = {.p = p, .src = src, .out = calloc(p->ncfgs ? p->ncfgs : 1, sizeof(compiled))};
  if (!comp.out)
    return fail("out of memory");
  snprintf(comp.arch, sizeof comp.arch, "%s", arch);
  double t0 = plan_now();
  plan_ahead ahead; /* every configuration at once: no window */
  int n = plan_ahead_start(&ahead, p->ncfgs, jobs, p->ncfgs, compile_one, &comp);
  if (n == 0) {
    plan_ahead_finish(&ahead);
    free(comp.out);
    return fail("cannot start a compiling thread");
  }
  for (size_t i = 0; i < p->ncfgs; i++)
    plan_ahead_wait(&ahead, i);
  plan_ahead_finish(&ahead);
  size_t bad = 0;
  double total = 0;
  for (size_t i = 0; i < p->ncfgs; i++) {
    compiled *c = &comp.out[i];
    total += c->ms;
    printf("%zu", p->cfgs[i].index);
    for (size_t q = 0; q < p->nparams; q++)
      printf(" %s=%s", p->pname[q], p->cfgs[i].values[q]);
    if (c->cubin)
      printf(": compiled, %zu bytes of cubin, %.2f s\n", c->cubin_size, c->ms / 1e3);
    else
      printf(": CompilationFailedConfig (%.300s)\n", c->reason), bad++;
    free(c->cubin);
    free(c->lowered);
  }
  fprintf(stderr, PROG ": %zu of %zu configurations compile for %s (NVRTC %.0f s of compiling, %.0f s on %d threads)\n",
          p->ncfgs - bad, p->ncfgs, arch, total / 1e3, plan_now() - t0, n);
  free(comp.out);
  return 0;
}

int main(int argc, char **argv) {
  opts o = {NULL, NULL, NULL, NULL, 7, 0, 0, false, 0, 2.5};
  if (parse_args(argc, argv, &o))
    return 2;
  plan p;
  if (plan_read(PROG, o.plan, &p)) {
    plan_free(&p);
    return 1;
  }
  if (strcmp(p.language, "cuda")) {
    plan_free(&p);
    return fail("%s: an OpenCL plan: time it with wgperf-measure --plan", o.plan);
  }
  for (size_t a = 0; a < p.nargs; a++)
    if (!strcmp(p.args[a].kind, "local")) {
      plan_free(&p);
      return fail("%s: argument '%s' is Local memory, which a CUDA kernel does not take (SharedMemory gives its "
                  "dynamic shared memory)",
                  o.plan, p.args[a].name);
    }
  if (!o.in_order && !o.compile_only)
    plan_shuffle(&p);
  char *src = plan_sources(PROG, &p, o.kernel_dir);
  if (!src) {
    plan_free(&p);
    return 1;
  }
  int jobs = plan_jobs(o.jobs, 32);
  if (o.compile_only) {
    int crc = compile_only(&p, src, o.compile_only, jobs);
    free(src);
    plan_free(&p);
    return crc;
  }
  /* the device */
  CUresult e = cuInit(0);
  CUdevice dev = 0;
  CUcontext ctx = NULL;
  int cc[2] = {0, 0}, drv = 0;
  char name[256] = "";
  if (e == CUDA_SUCCESS)
    e = cuDeviceGet(&dev, o.device);
  if (e == CUDA_SUCCESS)
    e = cuDeviceGetName(name, sizeof name, dev);
  if (e == CUDA_SUCCESS)
    e = cuDeviceGetAttribute(&cc[0], CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
  if (e == CUDA_SUCCESS)
    e = cuDeviceGetAttribute(&cc[1], CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
  if (e == CUDA_SUCCESS)
    e = cuDriverGetVersion(&drv);
  if (e == CUDA_SUCCESS)
    e = cuDevicePrimaryCtxRetain(&ctx, dev);
  if (e == CUDA_SUCCESS)
    e = cuCtxSetCurrent(ctx);
  if (e != CUDA_SUCCESS) {
    free(src);
    plan_free(&p);
    return fail("no CUDA device %d: %s (this harness needs an NVIDIA GPU and its driver)", o.device, cu_error(e));
  }
  char driver[32];
  snprintf(driver, sizeof driver, "CUDA driver %d.%d", drv / 1000, (drv % 1000) / 10);
  plan_device pd = {name, "CUDA", driver, PROG " (NVRTC, CUDA events)", "", false};
  snprintf(pd.cc, sizeof pd.cc, "%d.%d", cc[0], cc[1]);
  compiler comp = {.p = &p, .src = src, .out = calloc(p.ncfgs ? p.ncfgs : 1, sizeof(compiled))};
  snprintf(comp.arch, sizeof comp.arch, "sm_%d%d", cc[0], cc[1]);
  plan_result *res = calloc(p.ncfgs ? p.ncfgs : 1, sizeof *res);
  if (!comp.out || !res) {
    free(comp.out);
    free(res);
    free(src);
    plan_free(&p);
    return fail("out of memory");
  }
  plan_ahead ahead;
  int started_threads = plan_ahead_start(&ahead, p.ncfgs, jobs, (size_t)jobs * 4, compile_one, &comp);
  if (!started_threads) {
    plan_ahead_finish(&ahead);
    free(comp.out);
    free(res);
    free(src);
    plan_free(&p);
    return fail("cannot start a compiling thread");
  }
  char outbuf[4200];
  const char *out = o.out;
  if (!out) {
    snprintf(outbuf, sizeof outbuf, "%s.cache.json", o.plan);
    out = outbuf;
    fprintf(stderr, PROG ": note: no -o: the cache file goes to %s\n", out);
  }
  fprintf(stderr, PROG ": %s (sm_%d%d, %s): %zu configurations, compiled on %d threads\n", name, cc[0], cc[1], driver,
          p.ncfgs, started_threads);
  char started[40];
  plan_stamp(started, sizeof started);
  double t_start = plan_now();
  CUdeviceptr mem[PLAN_MAX_ARGS] = {0};
  size_t membytes[PLAN_MAX_ARGS] = {0};
  void *host[PLAN_MAX_ARGS] = {0};
  CUevent ev0 = NULL, ev1 = NULL;
  if (cuEventCreate(&ev0, CU_EVENT_DEFAULT) != CUDA_SUCCESS || cuEventCreate(&ev1, CU_EVENT_DEFAULT) != CUDA_SUCCESS)
    fail("cannot create CUDA events");
  int rc = ev0 && ev1 ? 0 : 1;
  size_t measured = 0, failed = 0;
  bool broken = false;
  for (size_t i = 0; i < p.ncfgs && rc == 0 && !broken; i++) {
    if (o.budget_s > 0 && plan_now() - t_start > o.budget_s) {
      fprintf(stderr, PROG ": --budget-s %g reached: %zu of %zu configurations timed\n", o.budget_s, i, p.ncfgs);
      break;
    }
    plan_ahead_wait(&ahead, i); /* its cubin, the compilers running ahead */
    compiled *cp = &comp.out[i];
    plan_result *r = &res[i];
    const plan_cfg *c = &p.cfgs[i];
    double t0 = plan_now();
    r->compile_ms = cp->ms;
    CUmodule mod = NULL;
    CUfunction fn = NULL;
    if (!cp->cubin) {
      r->failure = "CompilationFailedConfig";
      snprintf(r->reason, sizeof r->reason, "%s", cp->reason);
    } else if ((e = cuModuleLoadData(&mod, cp->cubin)) != CUDA_SUCCESS) {
      r->failure = "CompilationFailedConfig";
      snprintf(r->reason, sizeof r->reason, "cuModuleLoadData: %s", cu_error(e));
    } else if ((e = cuModuleGetFunction(&fn, mod, cp->lowered)) != CUDA_SUCCESS) {
      r->failure = "CompilationFailedConfig";
      snprintf(r->reason, sizeof r->reason, "no kernel '%s' in the module: %s", p.kernel, cu_error(e));
    }
    /* the arguments */
    void *params[PLAN_MAX_ARGS];
    unsigned char scal[PLAN_MAX_ARGS][8];
    for (size_t a = 0; a < p.nargs && fn && !r->failure; a++) {
      const plan_arg *g = &p.args[a];
      if (!strcmp(g->kind, "scalar")) {
        size_t sz;
        if (plan_scalar(g, scal[a], &sz, r->reason, sizeof r->reason))
          r->failure = "RuntimeFailedConfig";
        params[a] = scal[a];
        continue;
      }
      if (membytes[a] != c->bytes[a]) { /* a buffer of this size, filled once */
        if (mem[a])
          cuMemFree(mem[a]);
        free(host[a]);
        mem[a] = 0, membytes[a] = 0;
        host[a] = malloc((size_t)c->bytes[a]);
        if (host[a])
          plan_fill(host[a], (size_t)c->bytes[a], g, 0x9e3779b97f4a7c15ULL + a);
        if (!host[a] || (e = cuMemAlloc(&mem[a], (size_t)c->bytes[a])) != CUDA_SUCCESS ||
            (e = cuMemcpyHtoD(mem[a], host[a], (size_t)c->bytes[a])) != CUDA_SUCCESS) {
          r->failure = "RuntimeFailedConfig";
          snprintf(r->reason, sizeof r->reason, "buffer '%s' of %llu bytes: %s", g->name, c->bytes[a],
                   host[a] ? cu_error(e) : "out of host memory");
          continue;
        }
        membytes[a] = (size_t)c->bytes[a];
      }
      params[a] = &mem[a];
      if (!strcmp(g->kind, "constant")) { /* the __constant__ array of its name, where the module has one */
        CUdeviceptr sym = 0;
        size_t symbytes = 0;
        if (cuModuleGetGlobal(&sym, &symbytes, mod, g->name) == CUDA_SUCCESS &&
            (e = cuMemcpyHtoD(sym, host[a], symbytes < membytes[a] ? symbytes : membytes[a])) != CUDA_SUCCESS) {
          r->failure = "RuntimeFailedConfig";
          snprintf(r->reason, sizeof r->reason, "__constant__ '%s': %s", g->name, cu_error(e));
        }
      }
    }
    if (fn && !r->failure && c->shared > 48 * 1024 &&
        (e = cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)c->shared)) != CUDA_SUCCESS) {
      r->failure = "RuntimeFailedConfig";
      snprintf(r->reason, sizeof r->reason, "%llu bytes of dynamic shared memory: %s", c->shared, cu_error(e));
    }
    /* warm-up, then the timed launches */
    double tb = plan_now();
    int reps = o.repeats;
    for (int rep = -1; fn && !r->failure && rep < reps; rep++) {
      float ms = 0;
      e = cuEventRecord(ev0, 0);
      if (e == CUDA_SUCCESS)
        e = cuLaunchKernel(fn, (unsigned)c->grid[0], (unsigned)c->grid[1], (unsigned)c->grid[2], (unsigned)c->block[0],
                           (unsigned)c->block[1], (unsigned)c->block[2], (unsigned)c->shared, 0, params, NULL);
      if (e == CUDA_SUCCESS)
        e = cuEventRecord(ev1, 0);
      if (e == CUDA_SUCCESS)
        e = cuEventSynchronize(ev1);
      if (e == CUDA_SUCCESS)
        e = cuEventElapsedTime(&ms, ev0, ev1);
      if (e != CUDA_SUCCESS) {
        r->failure = "RuntimeFailedConfig";
        snprintf(r->reason, sizeof r->reason, "launch: %s", cu_error(e));
        /* an error of the kernel itself leaves the context unusable */
        broken = e == CUDA_ERROR_ILLEGAL_ADDRESS || e == CUDA_ERROR_LAUNCH_FAILED ||
                 e == CUDA_ERROR_ILLEGAL_INSTRUCTION || e == CUDA_ERROR_MISALIGNED_ADDRESS ||
                 e == CUDA_ERROR_HARDWARE_STACK_ERROR || e == CUDA_ERROR_INVALID_PC || e == CUDA_ERROR_LAUNCH_TIMEOUT;
        break;
      }
      if (rep < 0 && ms * 1e-3 > o.max_launch_s)
        reps = 1; /* a slow launch: timed once more */
      if (rep >= 0)
        r->times[r->n++] = ms;
    }
    r->bench_ms = (plan_now() - tb) * 1e3;
    r->frame_ms = fmax(0, (plan_now() - t0) * 1e3 - r->bench_ms);
    if (mod && !broken)
      cuModuleUnload(mod);
    free(cp->cubin);
    free(cp->lowered);
    cp->cubin = NULL, cp->lowered = NULL;
    r->done = true;
    plan_stamp(r->stamp, sizeof r->stamp);
    measured++;
    if (r->failure)
      failed++;
    fprintf(stderr, PROG ": %zu/%zu", i + 1, p.ncfgs);
    for (size_t q = 0; q < p.nparams; q++)
      fprintf(stderr, " %s=%s", p.pname[q], c->values[q]);
    if (r->failure)
      fprintf(stderr, ": %s (%.200s)\n", r->failure, r->reason);
    else
      fprintf(stderr, ": %.4g ms (mean of %d; compiled in %.1f s)\n", plan_mean(r), r->n, r->compile_ms / 1e3);
    if (plan_write_cache(PROG, &pd, &p, res, out, o.repeats, started, measured))
      rc = 1;
  }
  if (broken)
    fprintf(stderr, PROG ": the last kernel left the CUDA context unusable: stopped after %zu configurations\n",
            measured);
  if (rc == 0 && measured == 0 && plan_write_cache(PROG, &pd, &p, res, out, o.repeats, started, 0))
    rc = 1;
  plan_ahead_finish(&ahead);
  if (rc == 0)
    fprintf(stderr, PROG ": %s: %zu configurations (%zu failed on the device) in %.0f s\n", out, measured, failed,
            plan_now() - t_start);
  for (size_t a = 0; a < PLAN_MAX_ARGS; a++) {
    if (mem[a] && !broken)
      cuMemFree(mem[a]);
    free(host[a]);
  }
  for (size_t i = 0; i < p.ncfgs; i++) {
    free(comp.out[i].cubin);
    free(comp.out[i].lowered);
  }
  if (!broken)
    cuDevicePrimaryCtxRelease(dev);
  free(comp.out);
  free(res);
  free(src);
  plan_free(&p);
  return rc;
}
