/* bench_cacheop.cu - the time of one kernel with each of PTX's load cache operators
 * (.ca, .cg, .cs: cacheop_kernels.cu), to check what wgperf predicts for them
 * (docs/kernel-model.md, "Cache operators"; the same launch through `wgperf predict
 * microbench/cuda/cacheop_kernels.cu --kernel reuse_OP`).  One row per operator: the
 * kernel's time in microseconds (CUDA events around one launch, the median of the
 * repeats after one warm-up launch). */
#include "common.h"

extern "C" __global__ void reuse_ca(float *out, const float *in, int n);
extern "C" __global__ void reuse_cg(float *out, const float *in, int n);
extern "C" __global__ void reuse_cs(float *out, const float *in, int n);

int bench_cacheop(void)
{
  const int block = 256, grid = g_quick ? 1024 : 4096, n = grid * block;
  float *in, *out;
  /* the last thread reads 15 x 64 floats past its own */
  if (dev_alloc((void **)&in, ((size_t)n + 16 * 64) * sizeof *in) || dev_alloc((void **)&out, (size_t)n * sizeof *out))
    return -1;
  CK(cudaMemset(in, 0, ((size_t)n + 16 * 64) * sizeof *in));
  static const struct {
    const char *op;
    void (*k)(float *, const float *, int);
  } ops[] = {{"ca", reuse_ca}, {"cg", reuse_cg}, {"cs", reuse_cs}};
  for (size_t o = 0; o < sizeof ops / sizeof *ops; ++o) {
    double us[WGB_MAX_REPEATS];
    for (int r = -1; r < g_repeats; ++r) {
      double ms;
      TIMED_MS(ms, ops[o].k<<<grid, block>>>(out, in, n));
      if (r >= 0)
        us[r] = 1000.0 * ms;
    }
    float first = 1;
    CK(cudaMemcpy(&first, out, sizeof first, cudaMemcpyDeviceToHost));
    char param[96];
    snprintf(param, sizeof param, "op=%s;grid=%d;block=%d;n=%d", ops[o].op, grid, block, n);
    if (first != 0) {
      wgb_error_row("cacheop_reuse", param, "the sum of zeros is %g", first);
      continue;
    }
    struct wgb_stats s;
    wgb_stats_of(us, g_repeats, &s);
    wgb_row("cacheop_reuse", param, "us", &s,
            "16 loads 256 B apart per thread, warps sharing lines; ld.global.OP (cacheop_kernels.cu)");
  }
  return 0;
}
