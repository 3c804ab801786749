/* wgb_ocl.c - OpenCL device access, timing, rows and the benchmark runner (wgb.h). */
#define _POSIX_C_SOURCE 200809L
#include "wgb.h"

#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* cl_nv_device_attribute_query (not in every cl_ext.h) */
#ifndef CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV
#define CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV 0x4000
#define CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV 0x4001
#define CL_DEVICE_REGISTERS_PER_BLOCK_NV 0x4002
#define CL_DEVICE_WARP_SIZE_NV 0x4003
#endif

const char *wgb_cl_error(cl_int e) {
  switch (e) {
#define E(x)                                                                                                           \
  case x: return #x;
    E(CL_SUCCESS)
    E(CL_DEVICE_NOT_FOUND)
    E(CL_DEVICE_NOT_AVAILABLE)
    E(CL_COMPILER_NOT_AVAILABLE)
    E(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    E(CL_OUT_OF_RESOURCES)
    E(CL_OUT_OF_HOST_MEMORY)
    E(CL_PROFILING_INFO_NOT_AVAILABLE)
    E(CL_BUILD_PROGRAM_FAILURE)
    E(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    E(CL_INVALID_VALUE)
    E(CL_INVALID_DEVICE_TYPE)
    E(CL_INVALID_PLATFORM)
    E(CL_INVALID_DEVICE)
    E(CL_INVALID_CONTEXT)
    E(CL_INVALID_QUEUE_PROPERTIES)
    E(CL_INVALID_COMMAND_QUEUE)
    E(CL_INVALID_MEM_OBJECT)
    E(CL_INVALID_BINARY)
    E(CL_INVALID_BUILD_OPTIONS)
    E(CL_INVALID_PROGRAM)
    E(CL_INVALID_PROGRAM_EXECUTABLE)
    E(CL_INVALID_KERNEL_NAME)
    E(CL_INVALID_KERNEL)
    E(CL_INVALID_ARG_INDEX)
    E(CL_INVALID_ARG_VALUE)
    E(CL_INVALID_ARG_SIZE)
    E(CL_INVALID_KERNEL_ARGS)
    E(CL_INVALID_WORK_DIMENSION)
    E(CL_INVALID_WORK_GROUP_SIZE)
    E(CL_INVALID_WORK_ITEM_SIZE)
    E(CL_INVALID_GLOBAL_OFFSET)
    E(CL_INVALID_EVENT)
    E(CL_INVALID_OPERATION)
    E(CL_INVALID_BUFFER_SIZE)
    E(CL_INVALID_GLOBAL_WORK_SIZE)
#undef E
  case -1001: return "CL_PLATFORM_NOT_FOUND_KHR (no OpenCL platform: is an ICD installed?)";
  default: return "unknown OpenCL error";
  }
}

unsigned wgb_platform_count(void) {
  cl_uint n = 0;
  if (clGetPlatformIDs(0, NULL, &n) != CL_SUCCESS)
    return 0;
  return n;
}

static void str_info(cl_device_id d, cl_device_info what, char *out, size_t n) {
  out[0] = 0;
  if (clGetDeviceInfo(d, what, n, out, NULL) != CL_SUCCESS)
    snprintf(out, n, "?");
  out[n - 1] = 0;
  /* trim trailing blanks some drivers leave */
  size_t l = strlen(out);
  while (l && (out[l - 1] == ' ' || out[l - 1] == '\n'))
    out[--l] = 0;
}

static const char *type_name(cl_device_type t) {
  if (t & CL_DEVICE_TYPE_GPU)
    return "GPU";
  if (t & CL_DEVICE_TYPE_CPU)
    return "CPU";
  if (t & CL_DEVICE_TYPE_ACCELERATOR)
    return "accelerator";
  return "other";
}

int wgb_dev_list(FILE *out) {
  cl_platform_id ps[16];
  cl_uint np = 0;
  if (clGetPlatformIDs(16, ps, &np) != CL_SUCCESS || np == 0)
    return 0;
  int total = 0;
  for (cl_uint p = 0; p < np && p < 16; p++) {
    char pname[256] = "?";
    clGetPlatformInfo(ps[p], CL_PLATFORM_NAME, sizeof pname, pname, NULL);
    cl_device_id ds[16];
    cl_uint nd = 0;
    if (clGetDeviceIDs(ps[p], CL_DEVICE_TYPE_ALL, 16, ds, &nd) != CL_SUCCESS)
      nd = 0;
    for (cl_uint i = 0; i < nd && i < 16; i++) {
      char name[256], drv[128];
      cl_device_type t = 0;
      str_info(ds[i], CL_DEVICE_NAME, name, sizeof name);
      str_info(ds[i], CL_DRIVER_VERSION, drv, sizeof drv);
      clGetDeviceInfo(ds[i], CL_DEVICE_TYPE, sizeof t, &t, NULL);
      fprintf(out, "--platform %u --device %u: %s (%s; platform %s; driver %s)\n", p, i, name, type_name(t), pname,
              drv);
      total++;
    }
  }
  return total;
}

int wgb_dev_open(wgb_dev *d, int platform, int device, char *err, size_t errlen) {
  memset(d, 0, sizeof *d);
  cl_platform_id ps[16];
  cl_uint np = 0;
  cl_int e = clGetPlatformIDs(16, ps, &np);
  if (e != CL_SUCCESS || np == 0) {
    snprintf(err, errlen, "no OpenCL platform (%s): install an OpenCL driver (NVIDIA) or PoCL",
             e == CL_SUCCESS ? "none listed" : wgb_cl_error(e));
    return -1;
  }
  if (np > 16)
    np = 16;
  if (platform < 0 || device < 0) {
    /* not chosen: the first GPU (of the given platform, or of any), else device 0 of
       platform 0 -- a machine with PoCL beside the NVIDIA driver lists the CPU first */
    int fp = platform < 0 ? 0 : platform, fd = device < 0 ? 0 : device;
    for (cl_uint p = 0; p < np && device < 0; p++) {
      if (platform >= 0 && (cl_uint)platform != p)
        continue;
      cl_device_id gs[16];
      cl_uint ng = 0;
      if (clGetDeviceIDs(ps[p], CL_DEVICE_TYPE_GPU, 16, gs, &ng) != CL_SUCCESS || ng == 0)
        continue;
      cl_device_id all[16];
      cl_uint na = 0;
      if (clGetDeviceIDs(ps[p], CL_DEVICE_TYPE_ALL, 16, all, &na) != CL_SUCCESS)
        continue;
      for (cl_uint i = 0; i < na && i < 16; i++)
        if (all[i] == gs[0]) {
          fp = (int)p;
          fd = (int)i;
          device = fd;
          break;
        }
    }
    platform = fp;
    device = fd;
  }
  if ((cl_uint)platform >= np) {
    snprintf(err, errlen, "no OpenCL platform %d (there are %u; --list shows them)", platform, np);
    return -1;
  }
  d->platform = ps[platform];
  cl_device_id ds[16];
  cl_uint nd = 0;
  e = clGetDeviceIDs(d->platform, CL_DEVICE_TYPE_ALL, 16, ds, &nd);
  if (e != CL_SUCCESS || nd == 0 || device < 0 || (cl_uint)device >= nd || device >= 16) {
    snprintf(err, errlen, "no OpenCL device %d on platform %d (it has %u; --list shows them)", device, platform,
             e == CL_SUCCESS ? nd : 0);
    return -1;
  }
  d->device = ds[device];
  clGetPlatformInfo(d->platform, CL_PLATFORM_NAME, sizeof d->platform_name, d->platform_name, NULL);
  clGetPlatformInfo(d->platform, CL_PLATFORM_VERSION, sizeof d->platform_version, d->platform_version, NULL);
  str_info(d->device, CL_DEVICE_NAME, d->name, sizeof d->name);
  str_info(d->device, CL_DEVICE_VENDOR, d->vendor, sizeof d->vendor);
  str_info(d->device, CL_DRIVER_VERSION, d->driver, sizeof d->driver);
  str_info(d->device, CL_DEVICE_VERSION, d->version, sizeof d->version);
  cl_uint u = 0;
  clGetDeviceInfo(d->device, CL_DEVICE_TYPE, sizeof d->type, &d->type, NULL);
  d->is_gpu = (d->type & CL_DEVICE_TYPE_GPU) != 0;
  clGetDeviceInfo(d->device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof u, &u, NULL);
  d->compute_units = u ? u : 1;
  u = 0;
  clGetDeviceInfo(d->device, CL_DEVICE_MAX_CLOCK_FREQUENCY, sizeof u, &u, NULL);
  d->clock_mhz = u;
  clGetDeviceInfo(d->device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof d->global_mem, &d->global_mem, NULL);
  clGetDeviceInfo(d->device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof d->max_alloc, &d->max_alloc, NULL);
  clGetDeviceInfo(d->device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof d->local_mem, &d->local_mem, NULL);
  clGetDeviceInfo(d->device, CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, sizeof d->const_mem, &d->const_mem, NULL);
  clGetDeviceInfo(d->device, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, sizeof d->gcache_bytes, &d->gcache_bytes, NULL);
  u = 0;
  clGetDeviceInfo(d->device, CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, sizeof u, &u, NULL);
  d->gcache_line = u;
  clGetDeviceInfo(d->device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof d->max_wg, &d->max_wg, NULL);
  clGetDeviceInfo(d->device, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof d->max_item, d->max_item, NULL);
  char ext[8192];
  str_info(d->device, CL_DEVICE_EXTENSIONS, ext, sizeof ext);
  d->fp64 = strstr(ext, "cl_khr_fp64") != NULL;
  if (strstr(ext, "cl_nv_device_attribute_query")) {
    cl_uint v = 0;
    d->nv = true;
    if (clGetDeviceInfo(d->device, CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV, sizeof v, &v, NULL) == CL_SUCCESS)
      d->cc_major = v;
    if (clGetDeviceInfo(d->device, CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV, sizeof v, &v, NULL) == CL_SUCCESS)
      d->cc_minor = v;
    if (clGetDeviceInfo(d->device, CL_DEVICE_WARP_SIZE_NV, sizeof v, &v, NULL) == CL_SUCCESS)
      d->nv_warp = v;
    if (clGetDeviceInfo(d->device, CL_DEVICE_REGISTERS_PER_BLOCK_NV, sizeof v, &v, NULL) == CL_SUCCESS)
      d->nv_regs_per_block = v;
  }
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)d->platform, 0};
  d->ctx = clCreateContext(props, 1, &d->device, NULL, NULL, &e);
  if (e != CL_SUCCESS) {
    snprintf(err, errlen, "%s: clCreateContext: %s", d->name, wgb_cl_error(e));
    return -1;
  }
  d->q = clCreateCommandQueue(d->ctx, d->device, CL_QUEUE_PROFILING_ENABLE, &e);
  if (e != CL_SUCCESS) {
    snprintf(err, errlen, "%s: clCreateCommandQueue with profiling: %s", d->name, wgb_cl_error(e));
    clReleaseContext(d->ctx);
    d->ctx = NULL;
    return -1;
  }
  return 0;
}

void wgb_dev_close(wgb_dev *d) {
  if (d->q)
    clReleaseCommandQueue(d->q);
  if (d->ctx)
    clReleaseContext(d->ctx);
  d->q = NULL;
  d->ctx = NULL;
}

cl_program wgb_build(const wgb_dev *d, const char *src, const char *opts, char *err, size_t errlen) {
  cl_int e;
  cl_program p = clCreateProgramWithSource(d->ctx, 1, &src, NULL, &e);
  if (e != CL_SUCCESS) {
    snprintf(err, errlen, "clCreateProgramWithSource: %s", wgb_cl_error(e));
    return NULL;
  }
  e = clBuildProgram(p, 1, &d->device, opts ? opts : "", NULL, NULL);
  if (e != CL_SUCCESS) {
    size_t n = 0;
    char *log = NULL;
    if (clGetProgramBuildInfo(p, d->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &n) == CL_SUCCESS && n > 0 &&
        (log = calloc(n + 1, 1)) != NULL)
      clGetProgramBuildInfo(p, d->device, CL_PROGRAM_BUILD_LOG, n, log, NULL);
    /* the first error line says most */
    const char *first = log ? strstr(log, "error") : NULL;
    if (!first)
      first = log ? log : "";
    char line[600];
    snprintf(line, sizeof line, "%s", first);
    for (char *c = line; *c; c++)
      if (*c == '\n')
        *c = ' ';
    if (snprintf(err, errlen, "clBuildProgram (%s): %s: %s", opts ? opts : "", wgb_cl_error(e), line) >= (int)errlen)
      err[errlen - 1] = '\0'; /* cut short: the head of the log is what says most */
    free(log);
    clReleaseProgram(p);
    return NULL;
  }
  return p;
}

/* ------------------------------------------------------------------------ */
/* Benchmark context                                                        */
/* ------------------------------------------------------------------------ */

int wgb_fail(wgb *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(b->err, sizeof b->err, fmt, ap);
  va_end(ap);
  return -1;
}

int wgb_ck(wgb *b, cl_int e, const char *what) {
  if (e == CL_SUCCESS)
    return 0;
  return wgb_fail(b, "%s: %s", what, wgb_cl_error(e));
}

int wgb_run(wgb *b, cl_kernel k, cl_uint dims, const size_t *global, const size_t *local, double *ns) {
  cl_event ev;
  cl_int e = clEnqueueNDRangeKernel(b->d->q, k, dims, NULL, global, local, 0, NULL, &ev);
  if (e != CL_SUCCESS)
    return wgb_fail(b, "clEnqueueNDRangeKernel (global %zu, local %zu): %s", global[0], local ? local[0] : 0,
                    wgb_cl_error(e));
  e = clWaitForEvents(1, &ev);
  if (e == CL_SUCCESS && ns) {
    cl_ulong t0 = 0, t1 = 0;
    e = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL);
    if (e == CL_SUCCESS)
      e = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL);
    *ns = (double)(t1 - t0);
  }
  clReleaseEvent(ev);
  return wgb_ck(b, e, "kernel execution");
}

int wgb_arg(wgb *b, cl_kernel k, cl_uint i, size_t size, const void *p) {
  cl_int e = clSetKernelArg(k, i, size, p);
  if (e != CL_SUCCESS)
    return wgb_fail(b, "clSetKernelArg %u: %s", i, wgb_cl_error(e));
  return 0;
}

cl_kernel wgb_kernel(wgb *b, cl_program p, const char *name) {
  cl_int e;
  cl_kernel k = clCreateKernel(p, name, &e);
  if (e != CL_SUCCESS) {
    wgb_fail(b, "clCreateKernel %s: %s", name, wgb_cl_error(e));
    return NULL;
  }
  return k;
}

size_t wgb_cap_alloc(const wgb *b, size_t want, size_t limit) {
  size_t cap = (size_t)b->d->max_alloc;
  if (cap > limit)
    cap = limit;
  if ((size_t)(b->d->global_mem / 4) < cap)
    cap = (size_t)(b->d->global_mem / 4);
  return want < cap ? want : cap;
}

cl_mem wgb_buffer(wgb *b, size_t bytes, const void *host) {
  cl_int e;
  cl_mem m = clCreateBuffer(b->d->ctx, CL_MEM_READ_WRITE, bytes ? bytes : 4, NULL, &e);
  if (e != CL_SUCCESS) {
    wgb_fail(b, "clCreateBuffer %zu bytes: %s", bytes, wgb_cl_error(e));
    return NULL;
  }
  if (host && wgb_write(b, m, bytes, host)) {
    clReleaseMemObject(m);
    return NULL;
  }
  return m;
}

int wgb_write(wgb *b, cl_mem m, size_t bytes, const void *host) {
  return wgb_ck(b, clEnqueueWriteBuffer(b->d->q, m, CL_TRUE, 0, bytes, host, 0, NULL, NULL), "clEnqueueWriteBuffer");
}

int wgb_read(wgb *b, cl_mem m, size_t bytes, void *host) {
  return wgb_ck(b, clEnqueueReadBuffer(b->d->q, m, CL_TRUE, 0, bytes, host, 0, NULL, NULL), "clEnqueueReadBuffer");
}

cl_program wgb_program(wgb *b, const char *src, const char *extra_opts) {
  char opts[512];
  snprintf(opts, sizeof opts, "-cl-std=CL1.2 %s%s", b->d->fp64 ? "-D WGB_FP64=1 " : "", extra_opts ? extra_opts : "");
  cl_program p = wgb_build(b->d, src, opts, b->err, sizeof b->err);
  return p;
}

double wgb_cycles(const wgb *b, double ns) { return ns * b->clock_mhz * 1e-3; }

unsigned wgb_groups_per_cu(const wgb *b, size_t local) {
  unsigned g = (unsigned)(b->threads_per_cu / (local ? local : 1));
  return g ? g : 1;
}

int wgb_add(wgb *b, const char *bench, const char *param, const char *unit, const double *v, int n,
            const char *note) {
  if (wgb_table_add_stats(b->t, bench, param, unit, v, n, note))
    return wgb_fail(b, "out of memory");
  return 0;
}

int wgb_add1(wgb *b, const char *bench, const char *param, const char *unit, double v, const char *note) {
  return wgb_add(b, bench, param, unit, &v, 1, note);
}

int wgb_error(wgb *b, const char *bench, const char *param, const char *fmt, ...) {
  char why[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, sizeof why, fmt, ap);
  va_end(ap);
  if (wgb_table_add_error(b->t, bench, param, why))
    return wgb_fail(b, "out of memory");
  return 0;
}

/* Resident threads per SM by compute capability (CUDA C++ Programming Guide, technical
 * specifications); devices without the NVIDIA extension get 2048 (GPU) or 1024. */
static unsigned threads_per_cu(const wgb_dev *d) {
  if (d->nv && d->cc_major) {
    unsigned cc = d->cc_major * 10 + d->cc_minor;
    if (cc == 75)
      return 1024;
    if (cc == 86 || cc == 89)
      return 1536;
    return 2048;
  }
  return d->is_gpu ? 2048 : 1024;
}

int wgb_init(wgb *b, wgb_dev *d, wgb_table *t, bool quick, int repeats) {
  memset(b, 0, sizeof *b);
  b->d = d;
  b->t = t;
  b->quick = quick;
  b->repeats = repeats > 0 ? repeats : (quick ? 3 : 9);
  b->clock_mhz = d->clock_mhz ? d->clock_mhz : 1000;
  b->threads_per_cu = threads_per_cu(d);
  if (!d->is_gpu && quick) /* a CPU runs work-groups one after another: keep CI short */
    b->threads_per_cu = 256;
  if (b->threads_per_cu > d->max_wg * 32)
    b->threads_per_cu = (unsigned)(d->max_wg * 32);
  b->warp = d->nv_warp;
  if (!b->warp) {
    /* the preferred work-group multiple of a trivial kernel stands for the warp */
    cl_program p = wgb_program(b, wgb_src_clock, NULL);
    if (p) {
      cl_kernel k = clCreateKernel(p, "clock_plain", NULL);
      size_t m = 0;
      if (k && clGetKernelWorkGroupInfo(k, d->device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, sizeof m, &m,
                                        NULL) == CL_SUCCESS)
        b->warp = (unsigned)m;
      if (k)
        clReleaseKernel(k);
      clReleaseProgram(p);
    }
  }
  if (!b->warp || b->warp > 128 || b->warp > d->max_wg)
    b->warp = d->max_wg >= 32 ? 32 : (unsigned)d->max_wg;
  return wgb_measure_clock(b);
}

int wgb_header(wgb *b) {
  const wgb_dev *d = b->d;
  char v[1024], date[64];
  time_t now = time(NULL);
  strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
  wgb_table *t = b->t;
  int rc = 0;
#define H(k, ...) (snprintf(v, sizeof v, __VA_ARGS__), rc |= wgb_table_set_header(t, k, v))
  H("gpu", "%s", d->name);
  H("driver", "%s", d->driver);
  H("api", "OpenCL");
  H("platform", "%s (%s)", d->platform_name, d->platform_version);
  H("device_version", "%s", d->version);
  H("device_type", "%s", type_name(d->type));
  H("date", "%s", date);
  H("sm_count", "%u", d->compute_units);
  H("clock_mhz_attr", "%u", d->clock_mhz);
  if (b->clock_measured)
    H("measured_clock_mhz", "%.0f", b->clock_mhz);
  H("warp_size", "%u", b->warp);
  if (d->nv && d->cc_major)
    H("compute_capability", "%u.%u", d->cc_major, d->cc_minor);
  if (d->nv_regs_per_block)
    H("registers_per_block", "%u", d->nv_regs_per_block);
  H("global_mem_bytes", "%llu", (unsigned long long)d->global_mem);
  H("max_alloc_bytes", "%llu", (unsigned long long)d->max_alloc);
  H("local_mem_bytes", "%llu", (unsigned long long)d->local_mem);
  H("constant_bytes", "%llu", (unsigned long long)d->const_mem);
  H("global_cache_bytes", "%llu", (unsigned long long)d->gcache_bytes);
  H("global_cacheline_bytes", "%u", d->gcache_line);
  H("max_work_group_size", "%zu", d->max_wg);
  H("threads_per_cu_assumed", "%u", b->threads_per_cu);
  H("fp64", "%d", d->fp64 ? 1 : 0);
  H("repeats", "%d", b->repeats);
  H("quick", "%d", b->quick ? 1 : 0);
  H("suite", "microbench/opencl");
  if (!d->is_gpu)
    H("warning", "not a GPU: these figures are a %s's and must not describe a GPU", type_name(d->type));
#undef H
  return rc ? wgb_fail(b, "out of memory") : 0;
}

/* ------------------------------------------------------------------------ */
/* Runner                                                                   */
/* ------------------------------------------------------------------------ */

static const wgb_bench benches[] = {
    {"clock", "clock", wgb_bench_clock, "device clock: driver attribute, and a clock counter where exposed"},
    {"geometry", "latency", wgb_bench_geometry, "latency vs footprint 4 KiB..: cache levels and sizes"},
    {"latency", "latency", wgb_bench_latency, "pointer chasing: local memory, L1, L2, DRAM"},
    {"constant", "latency", wgb_bench_const, "constant memory chase, warm and cold"},
    {"stride", "latency", wgb_bench_stride, "stride sweeps: L1 fetch granule, L2 fetch granule; L1 set conflicts"},
    {"bandwidth", "bandwidth", wgb_bench_bandwidth, "DRAM read/write/copy, L2 read, local memory read"},
    {"occupancy", "bandwidth", wgb_bench_occupancy, "DRAM, L2 and local bandwidth vs resident warps per CU"},
    {"arith", "arith", wgb_bench_arith, "latency and throughput per arithmetic operation"},
    {"barrier", "sync", wgb_bench_barrier, "barrier cost vs work-group size"},
    {"atomics", "sync", wgb_bench_atomics, "global and local atomic_add, contended and not"},
    {"launch", "launch", wgb_bench_launch, "empty kernel: single, back-to-back, vs work-groups"},
};

const wgb_bench *wgb_benches(size_t *n) {
  *n = sizeof benches / sizeof benches[0];
  return benches;
}

static const char *volatile g_current = "start";
static volatile int g_live_fd = -1;
static volatile unsigned g_timeout = 0;

static void on_alarm(int sig) {
  (void)sig;
  char line[320];
  int n = snprintf(line, sizeof line, "%s,,,,,,,0,error,watchdog: no result after %u s\n", g_current, g_timeout);
  if (g_live_fd >= 0 && n > 0)
    (void)!write(g_live_fd, line, (size_t)n);
  n = snprintf(line, sizeof line, "wgbench-ocl: error: benchmark '%s' gave no result after %u s (watchdog); exiting\n",
               g_current, g_timeout);
  if (n > 0)
    (void)!write(2, line, (size_t)n);
  _exit(3);
}

static bool selected(const char *only, const wgb_bench *bn) {
  if (!only || !*only)
    return true;
  const char *p = only;
  while (*p) {
    const char *e = strchr(p, ',');
    size_t l = e ? (size_t)(e - p) : strlen(p);
    if ((strlen(bn->name) == l && strncmp(bn->name, p, l) == 0) ||
        (strlen(bn->group) == l && strncmp(bn->group, p, l) == 0))
      return true;
    if (!e)
      break;
    p = e + 1;
  }
  return false;
}

int wgb_run_all(wgb *b, const char *only, unsigned timeout_s, FILE *log) {
  return wgb_run_all_live(b, only, timeout_s, log, NULL);
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int wgb_run_all_live(wgb *b, const char *only, unsigned timeout_s, FILE *log, FILE *live) {
  size_t n;
  const wgb_bench *bn = wgb_benches(&n);
  int errors = 0;
  size_t written = b->t->n;
  if (live) {
    fflush(live);
    g_live_fd = fileno(live);
  }
  if (timeout_s) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sigaction(SIGALRM, &sa, NULL);
  }
  for (size_t i = 0; i < n; i++) {
    if (!selected(only, &bn[i]))
      continue;
    g_current = bn[i].name;
    b->current = bn[i].name;
    g_timeout = timeout_s;
    double t0 = now_s();
    size_t before = b->t->n;
    if (timeout_s)
      alarm(timeout_s);
    int rc = bn[i].fn(b);
    if (timeout_s)
      alarm(0);
    if (rc) {
      clFinish(b->d->q);
      if (wgb_table_add_error(b->t, bn[i].name, "", b->err[0] ? b->err : "failed"))
        return -1;
    }
    int e = 0;
    for (size_t r = before; r < b->t->n; r++)
      e += !b->t->rows[r].ok;
    errors += e;
    if (log)
      fprintf(log, "wgbench-ocl: %-10s %3zu rows, %d errors, %.1f s\n", bn[i].name, b->t->n - before, e,
              now_s() - t0);
    if (live) {
      for (; written < b->t->n; written++)
        wgb_row_write_csv(&b->t->rows[written], live);
      fflush(live);
    }
  }
  g_live_fd = -1;
  return errors;
}
