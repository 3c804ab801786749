/* measure_plan.c - wgperf-measure --plan: time the configurations of a
 * tuning space's measurement plan (wgtune --plan; tune/plan.c has the format)
 * through OpenCL and write them as a Kernel Tuner cache file, the format of
 * ../shared/data/kernel-tuner/measurements, which wgperf-validate
 * --kernel-tuner compares with a ranking of the same space.
 *
 * Each configuration is built from the plan's files (concatenated in order)
 * after Kernel Tuner's prefix of #defines (its parameters, grid_size_x/y/z,
 * block_size_x/y/z, kernel_tuner: common/kt_source.c) with the plan's flags,
 * launched once to warm up
 * and then --repeats times, each launch timed by OpenCL profiling events (the
 * kernel alone).  As in Kernel Tuner's files, "time" is the mean of "times" in
 * milliseconds, and a configuration the compiler refuses is
 * "CompilationFailedConfig", one the driver will not launch
 * "RuntimeFailedConfig" (with the reason beside it in "wgperf_reason").  The
 * output is rewritten after every configuration (plan_write_cache), so a run
 * stopped by its budget or a timeout leaves every finished one.  The plan and
 * the cache file: plan_file.c, shared with the CUDA harness.
 */
#define _POSIX_C_SOURCE 200809L
#include "kt_source_internal.h"
#include "measure.h"
#include "plan_file.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Programs built on threads ahead of the timing (plan_ahead; the NVIDIA
 * driver takes a good part of a second per CLBlast configuration; OpenCL's
 * calls are thread-safe but for setting one kernel's arguments, done on the
 * timing thread only). */
typedef struct built {
  cl_program prog; /* NULL: the build failed, the log in err */
  double ms;
  char err[1024];
} built;

typedef struct builder {
  const plan *p;
  const char *src;
  const wgb_dev *dev;
  built *out;
} builder;

static void build_one(void *ctx, size_t i) {
  builder *b = ctx;
  const plan *p = b->p;
  const plan_cfg *c = &p->cfgs[i];
  size_t cap = 64, ol = 0;
  for (size_t k = 0; k < p->nflags; k++)
    cap += strlen(p->flags[k]) + 2;
  char *opts = malloc(cap);
  char *src = kt_source(b->src, p->pname, (const char *const *)c->values, p->nparams, c->grid, c->block, false);
  double t0 = plan_now();
  if (!opts || !src) {
    snprintf(b->out[i].err, sizeof b->out[i].err, "out of memory");
    free(opts);
    free(src);
    return;
  }
  opts[0] = '\0';
  for (size_t k = 0; k < p->nflags; k++)
    ol += (size_t)snprintf(opts + ol, cap - ol, "%s ", p->flags[k]);
  b->out[i].prog = wgb_build(b->dev, src, opts, b->out[i].err, sizeof b->out[i].err);
  b->out[i].ms = (plan_now() - t0) * 1e3;
  free(opts);
  free(src);
}

int mx_run_plan(mx_ctx *x, plan *pp, const mx_plan_opts *o) {
  plan p = *pp; /* the same arrays: the caller frees them */
  if (!o->in_order)
    plan_shuffle(&p);
  char *src = plan_sources("wgperf-measure", &p, o->kernel_dir);
  plan_result *res = calloc(p.ncfgs ? p.ncfgs : 1, sizeof *res);
  cl_mem mem[PLAN_MAX_ARGS] = {0};
  size_t membytes[PLAN_MAX_ARGS] = {0};
  int rc = src && res ? 0 : 1;
  if (!res)
    fprintf(stderr, "wgperf-measure: error: out of memory\n");
  plan_device dev = {x->dev.name, x->dev.platform_name, x->dev.driver, "wgperf-measure --plan (OpenCL)", "", x->cpu};
  if (x->dev.nv && x->dev.cc_major)
    snprintf(dev.cc, sizeof dev.cc, "%u.%u", x->dev.cc_major, x->dev.cc_minor);
  char started[40];
  plan_stamp(started, sizeof started);
  double t_start = plan_now();
  size_t measured = 0, failed = 0;
  builder bl = {.p = &p, .src = src, .dev = &x->dev, .out = calloc(p.ncfgs ? p.ncfgs : 1, sizeof(built))};
  int jobs = plan_jobs(o->jobs, 16);
  plan_ahead ahead;
  bool ahead_on = false;
  if (!bl.out)
    rc = 1;
  if (rc == 0) {
    ahead_on = true;
    if (!plan_ahead_start(&ahead, p.ncfgs, jobs, (size_t)jobs * 4, build_one, &bl)) {
      fprintf(stderr, "wgperf-measure: error: cannot start a building thread\n");
      rc = 1;
    }
  }
  if (rc == 0 && !o->out)
    fprintf(stderr, "wgperf-measure: note: no -o: the cache file goes to %s.cache.json\n", o->plan);
  char outbuf[4200];
  const char *out = o->out;
  if (!out) {
    snprintf(outbuf, sizeof outbuf, "%s.cache.json", o->plan);
    out = outbuf;
  }
  for (size_t i = 0; i < p.ncfgs && rc == 0; i++) {
    if (o->budget_s > 0 && plan_now() - t_start > o->budget_s) {
      fprintf(stderr, "wgperf-measure: --budget-s %g reached: %zu of %zu configurations timed\n", o->budget_s, i,
              p.ncfgs);
      break;
    }
    plan_cfg *c = &p.cfgs[i];
    plan_result *r = &res[i];
    plan_ahead_wait(&ahead, i); /* its program, the builders running ahead */
    double t0 = plan_now();
    cl_program prog = bl.out[i].prog;
    bl.out[i].prog = NULL;
    r->compile_ms = bl.out[i].ms;
    cl_kernel k = NULL;
    cl_int e = CL_SUCCESS;
    if (!prog) {
      r->failure = "CompilationFailedConfig";
      snprintf(r->reason, sizeof r->reason, "%s", bl.out[i].err);
    } else if (!(k = clCreateKernel(prog, p.kernel, &e))) {
      r->failure = "CompilationFailedConfig";
      snprintf(r->reason, sizeof r->reason, "no kernel '%s' in the program: %s", p.kernel, wgb_cl_error(e));
    }
    /* the arguments */
    for (size_t a = 0; a < p.nargs && k && !r->failure; a++) {
      const plan_arg *g = &p.args[a];
      if (!strcmp(g->kind, "scalar")) {
        unsigned char buf[8];
        size_t sz = 0;
        if (plan_scalar(g, buf, &sz, r->reason, sizeof r->reason)) {
          r->failure = "RuntimeFailedConfig";
        } else if ((e = clSetKernelArg(k, (cl_uint)a, sz, buf)) != CL_SUCCESS) {
          r->failure = "RuntimeFailedConfig";
          snprintf(r->reason, sizeof r->reason, "argument '%s': clSetKernelArg: %s", g->name, wgb_cl_error(e));
        }
        continue;
      }
      if (!strcmp(g->kind, "local")) {
        if ((e = clSetKernelArg(k, (cl_uint)a, (size_t)c->bytes[a], NULL)) != CL_SUCCESS) {
          r->failure = "RuntimeFailedConfig";
          snprintf(r->reason, sizeof r->reason, "__local '%s' of %llu bytes: %s", g->name, c->bytes[a],
                   wgb_cl_error(e));
        }
        continue;
      }
      if (membytes[a] != c->bytes[a]) { /* a buffer of this size, filled once */
        if (mem[a])
          clReleaseMemObject(mem[a]);
        mem[a] = NULL, membytes[a] = 0;
        void *host = malloc((size_t)c->bytes[a]);
        bool got_host = host != NULL;
        if (host) {
          plan_fill(host, (size_t)c->bytes[a], g, 0x9e3779b97f4a7c15ULL + a);
          mem[a] = wgb_buffer(&x->b, (size_t)c->bytes[a], host);
        }
        free(host);
        if (!mem[a]) {
          r->failure = "RuntimeFailedConfig";
          snprintf(r->reason, sizeof r->reason, "buffer '%s' of %llu bytes: %s", g->name, c->bytes[a],
                   got_host ? x->b.err : "out of host memory");
          continue;
        }
        membytes[a] = (size_t)c->bytes[a];
      }
      if ((e = clSetKernelArg(k, (cl_uint)a, sizeof(cl_mem), &mem[a])) != CL_SUCCESS) {
        r->failure = "RuntimeFailedConfig";
        snprintf(r->reason, sizeof r->reason, "buffer '%s': %s", g->name, wgb_cl_error(e));
      }
    }
    /* warm-up, then the timed launches */
    double tb = plan_now();
    if (k && !r->failure) {
      size_t global[3], local[3];
      for (int d = 0; d < 3; d++)
        global[d] = c->grid[d] * c->block[d], local[d] = c->block[d];
      double ns = 0;
      int reps = o->repeats;
      for (int rep = -1; rep < reps; rep++) {
        if (wgb_run(&x->b, k, 3, global, local, &ns)) {
          r->failure = "RuntimeFailedConfig";
          snprintf(r->reason, sizeof r->reason, "%s", x->b.err);
          break;
        }
        if (rep < 0 && ns * 1e-9 > o->max_launch_s)
          reps = 1; /* a slow launch: timed once more */
        if (rep >= 0)
          r->times[r->n++] = ns * 1e-6;
      }
    }
    r->bench_ms = (plan_now() - tb) * 1e3;
    r->frame_ms = fmax(0, (plan_now() - t0) * 1e3 - r->bench_ms);
    if (k)
      clReleaseKernel(k);
    if (prog)
      clReleaseProgram(prog);
    plan_one_line(r->reason);
    r->done = true;
    plan_stamp(r->stamp, sizeof r->stamp);
    measured++;
    if (r->failure)
      failed++;
    fprintf(stderr, "wgperf-measure: %zu/%zu %s", i + 1, p.ncfgs, p.kernel);
    for (size_t q = 0; q < p.nparams; q++)
      fprintf(stderr, " %s=%s", p.pname[q], c->values[q]);
    if (r->failure)
      fprintf(stderr, ": %s (%.200s)\n", r->failure, r->reason);
    else
      fprintf(stderr, ": %.4g ms (mean of %d)\n", plan_mean(r), r->n);
    if (plan_write_cache("wgperf-measure", &dev, &p, res, out, o->repeats, started, measured))
      rc = 1;
  }
  if (rc == 0 && measured == 0 && plan_write_cache("wgperf-measure", &dev, &p, res, out, o->repeats, started, 0))
    rc = 1;
  if (rc == 0)
    fprintf(stderr, "wgperf-measure: %s: %zu configurations (%zu failed on the device) in %.0f s%s\n", out, measured,
            failed, plan_now() - t_start, x->cpu ? "; not a GPU: these times show that the harness works, never a GPU's" : "");
  for (size_t a = 0; a < PLAN_MAX_ARGS; a++)
    if (mem[a])
      clReleaseMemObject(mem[a]);
  if (ahead_on)
    plan_ahead_finish(&ahead);
  for (size_t i = 0; bl.out && i < p.ncfgs; i++)
    if (bl.out[i].prog)
      clReleaseProgram(bl.out[i].prog);
  free(bl.out);
  free(res);
  free(src);
  return rc;
}
