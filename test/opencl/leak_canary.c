/* leak_canary.c - the sanitized build's leak check, scoped as it should be.
 *
 * Builds and runs one small OpenCL kernel on this machine's device (PoCL on a
 * CPU in CI), which makes PoCL compile it with its own LLVM, then releases
 * everything it made.  Run by test/opencl/leak-canary.sh in a WGPERF_SANITIZE
 * build with the suppressions of test/harden/lsan.supp:
 *   leak_canary            exits 0: PoCL's and its LLVM's leaks are suppressed
 *   leak_canary --plant    also leaks one block from planted_leak(), our own
 *                          code: LeakSanitizer must report it and fail
 * Exit 77 when no OpenCL platform exists.
 */
#include "wgb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char source[] = "__kernel void twice(__global float *x) {\n"
                             "  size_t i = get_global_id(0);\n"
                             "  x[i] = 2.0f * x[i];\n"
                             "}\n";

/* volatile: the store is observable, so the allocation cannot be elided */
static void *volatile leak_sink;

__attribute__((noinline)) static void planted_leak(void) {
  char *p = malloc(4096);
  if (p)
    memset(p, 0x5a, 4096);
  leak_sink = p;
  leak_sink = NULL;
}

static int run_kernel(void) {
  wgb_dev dev;
  char err[512];
  if (wgb_dev_open(&dev, -1, -1, err, sizeof err) != 0) {
    fprintf(stderr, "leak_canary: %s\n", err);
    return wgb_platform_count() == 0 ? 77 : 1;
  }
  int rc = 1;
  cl_program prog = wgb_build(&dev, source, "", err, sizeof err);
  if (!prog) {
    fprintf(stderr, "leak_canary: build: %s\n", err);
    wgb_dev_close(&dev);
    return 1;
  }
  cl_int e;
  cl_kernel k = clCreateKernel(prog, "twice", &e);
  float host[64];
  for (int i = 0; i < 64; i++)
    host[i] = (float)i;
  cl_mem buf = k ? clCreateBuffer(dev.ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof host, host, &e) : NULL;
  size_t global = 64, local = 16;
  if (buf && clSetKernelArg(k, 0, sizeof buf, &buf) == CL_SUCCESS &&
      clEnqueueNDRangeKernel(dev.q, k, 1, NULL, &global, &local, 0, NULL, NULL) == CL_SUCCESS &&
      clEnqueueReadBuffer(dev.q, buf, CL_TRUE, 0, sizeof host, host, 0, NULL, NULL) == CL_SUCCESS)
    rc = host[63] == 126.0f ? 0 : 1;
  if (rc)
    fprintf(stderr, "leak_canary: the kernel did not run or computed %g for 126\n", (double)host[63]);
  if (buf)
    clReleaseMemObject(buf);
  if (k)
    clReleaseKernel(k);
  clReleaseProgram(prog);
  wgb_dev_close(&dev);
  return rc;
}

int main(int argc, char **argv) {
  int rc = run_kernel();
  if (rc == 0 && argc > 1 && strcmp(argv[1], "--plant") == 0)
    planted_leak();
  return rc;
}
