/* measure_validation.c - the validation kernels through OpenCL (wgperf-measure).
 *
 * The OpenCL twins in validation/kernels/NAME.cl, with the configurations, inputs and
 * CPU references of the CUDA harness (validation/measure/measure_cuda.cu and
 * validation/README.md), so a row of either harness means the same thing.
 * Differences: kernels are timed by OpenCL profiling events around each launch (the
 * kernel alone, as nvprof), so no spin kernel is needed; registers come from the
 * NVIDIA build log (-cl-nv-verbose) where the driver prints one, else the column is
 * empty; static local memory is CL_KERNEL_LOCAL_MEM_SIZE; quicksort has no dynamic
 * local memory in its OpenCL form.
 *
 * Assumptions (as the CUDA harness): one warm-up launch, then
 * reps = clamp(config_cap / warm-up, 3, 10) timed launches (1 when the warm-up exceeds
 * max_launch_s); sizes grow within a sweep and a size whose launch, extrapolated
 * from the previous one (work ~ size^k), would exceed max_launch_s or overrun the
 * budget is skipped and listed; every result is checked on the CPU.
 */
#define _POSIX_C_SOURCE 200809L
#include "measure.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum kid {
  K_SUM_NORMAL,
  K_SUM_COAL,
  K_VECADD,
  K_DOTPROD,
  K_SUBSEQ,
  K_BITONIC,
  K_QSORT,
  K_MATMUL,
  K_MATMUL_SM,
  K_MATMUL_SM_UNC,
  K_MATMUL_UNC,
  K_COUNT
};

/* cheap groups first; matMul last (they inherit unused time) */
static const char *const kname[K_COUNT] = {"matrix_sum_normal", "matrix_sum_coalesced", "vectorAdd", "dotProd",
                                           "subSeqMax", "bitonic", "quicksort", "matMul_gpu", "matMul_gpu_sharedmem",
                                           "matMul_gpu_sharedmem_uncoalesced", "matMul_gpu_uncoalesced"};
static const double kweight[K_COUNT] = {6, 6, 12, 12, 8, 8, 12, 25, 40, 25, 25};
static const double kexp[K_COUNT] = {2, 2, 1, 1, 1, 1.2, 2, 3, 3, 3, 3};

typedef struct config {
  int kid, tw;
  long long n;
  size_t gx, gy, bx, by;
} config;

#define MAX_CONFIGS 1024
#define SUBSEQ_OUT_INTS (5 * 32 * 128)

static bool is_matmul(int k) { return k == K_MATMUL || k == K_MATMUL_UNC || k == K_MATMUL_SM || k == K_MATMUL_SM_UNC; }
static bool is_mat(int k) { return is_matmul(k) || k == K_SUM_NORMAL || k == K_SUM_COAL; }

static int w_step(int tw) {
  switch (tw) {
  case 12:
  case 28: return 252;
  case 20: return 240;
  case 24: return 288;
  default: return 256;
  }
}

static void add_cfg(config *c, int *n, int kid, int tw, long long size) {
  if (*n >= MAX_CONFIGS)
    return;
  config x = {kid, tw, size, 1, 1, 1, 1};
  if (is_mat(kid)) {
    x.bx = x.by = (size_t)tw;
    x.gx = x.gy = (size_t)((size + tw - 1) / tw);
  } else if (kid == K_VECADD || kid == K_DOTPROD) {
    x.bx = (size_t)tw * tw;
    x.gx = (size_t)((size + (long long)x.bx - 1) / (long long)x.bx);
  } else if (kid == K_SUBSEQ) {
    x.bx = 128, x.gx = 32;
  } else if (kid == K_BITONIC) {
    x.bx = 128, x.gx = (size_t)(size / 128);
  }
  c[(*n)++] = x;
}

/* size-major, then launch shape: a cut drops the largest sizes of every shape alike */
static int build_group(int kid, bool quick, config *c) {
  static const int tw3[] = {8, 16, 32}, tw_sm[] = {4, 8, 12, 16, 20, 24, 28, 32}, tw_sm_quick[] = {4, 12, 16, 32};
  static const int mult[] = {1, 2, 3, 4, 5, 6, 8, 10, 12, 14, 16, 20, 24, 28, 32}, mult_quick[] = {1, 2};
  int n = 0;
  if (is_mat(kid)) {
    const int *tws = tw3;
    int ntw = 3;
    if (kid == K_MATMUL_SM) {
      tws = quick ? tw_sm_quick : tw_sm;
      ntw = quick ? 4 : 8;
    }
    if (is_matmul(kid)) {
      const int *m = quick ? mult_quick : mult;
      int nm = quick ? 2 : 15;
      for (int i = 0; i < nm; i++)
        for (int t = 0; t < ntw; t++)
          add_cfg(c, &n, kid, tws[t], (long long)w_step(tws[t]) * m[i]);
    } else {
      int nm = quick ? 1 : 15;
      for (int i = 0; i < nm; i++)
        for (int t = 0; t < ntw; t++)
          add_cfg(c, &n, kid, tws[t], 256LL * (quick ? 4 : mult[i]));
    }
  } else if (kid == K_VECADD || kid == K_DOTPROD) {
    long long sizes[16];
    int ns = 0;
    if (quick)
      sizes[ns++] = 1LL << 20;
    else {
      static const long long extra[] = {12582912LL, 50331648LL, 201326592LL};
      for (int e = 17; e <= 28; e++)
        sizes[ns++] = 1LL << e;
      for (int i = 0; i < 3; i++)
        sizes[ns++] = extra[i];
      for (int i = 1; i < ns; i++)
        for (int j = i; j > 0 && sizes[j - 1] > sizes[j]; j--) {
          long long tmp = sizes[j];
          sizes[j] = sizes[j - 1];
          sizes[j - 1] = tmp;
        }
    }
    for (int i = 0; i < ns; i++)
      for (int t = 0; t < 3; t++)
        add_cfg(c, &n, kid, tw3[t], sizes[i]);
  } else if (kid == K_SUBSEQ) {
    for (int e = 0; e <= (quick ? 1 : 11); e++)
      add_cfg(c, &n, kid, 0, 131072LL << e);
  } else if (kid == K_BITONIC) {
    for (int e = 15; e <= (quick ? 16 : 22); e++)
      add_cfg(c, &n, kid, 0, 1LL << e);
  } else if (kid == K_QSORT) {
    static const long long qs[] = {2048, 4096, 8192, 16384, 32768, 65536};
    for (int i = 0; i < (quick ? 1 : 6); i++)
      add_cfg(c, &n, kid, 0, qs[i]);
  }
  return n;
}

static bool in_list(const char *list, const char *name) {
  if (!list)
    return true;
  size_t l = strlen(name);
  for (const char *p = list; *p;) {
    const char *e = strchr(p, ',');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    if (n == l && strncmp(p, name, n) == 0)
      return true;
    if (!e)
      break;
    p = e + 1;
  }
  return false;
}

int mx_check_only(const char *only) {
  if (!only)
    return 0;
  char buf[1024];
  snprintf(buf, sizeof buf, "%s", only);
  for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
    bool ok = false;
    for (int k = 0; k < K_COUNT; k++)
      ok |= strcmp(tok, kname[k]) == 0;
    if (!ok) {
      fprintf(stderr, "wgperf-measure: error: --only: no validation kernel '%s' (known:", tok);
      for (int k = 0; k < K_COUNT; k++)
        fprintf(stderr, " %s", kname[k]);
      fprintf(stderr, ")\n");
      return -1;
    }
  }
  return 0;
}

/* ---- inputs and references ------------------------------------------------ */

static uint64_t rng_state;
static void rng_seed(uint64_t s) { rng_state = s ? s : 0x9e3779b97f4a7c15ULL; }
static uint32_t rng_u32(void) {
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return (uint32_t)((rng_state * 0x2545F4914F6CDD1DULL) >> 32);
}
static float rng_unit(void) { return (float)((rng_u32() >> 8) + 1) * (1.0f / 16777216.0f); }

typedef struct group {
  cl_mem d[3];
  void *h[4];
  size_t dbytes[3];
} group;

static void group_free(group *g) {
  for (int i = 0; i < 3; i++)
    if (g->d[i])
      clReleaseMemObject(g->d[i]);
  for (int i = 0; i < 4; i++)
    free(g->h[i]);
  memset(g, 0, sizeof *g);
}

static int halloc(mx_ctx *x, group *g, int i, size_t bytes) {
  g->h[i] = malloc(bytes ? bytes : 1);
  return g->h[i] ? 0 : wgb_fail(&x->b, "cannot allocate %zu bytes of host memory", bytes);
}

static int dalloc(mx_ctx *x, group *g, int i, size_t bytes, const void *init) {
  g->dbytes[i] = bytes;
  g->d[i] = wgb_buffer(&x->b, bytes, init);
  return g->d[i] ? 0 : -1;
}

/* Inputs for the largest configuration; smaller ones use a prefix. */
static int setup_group(mx_ctx *x, int kid, const config *c, int nc, group *g) {
  long long maxn = 0;
  for (int i = 0; i < nc; i++)
    maxn = c[i].n > maxn ? c[i].n : maxn;
  memset(g, 0, sizeof *g);
  if (is_mat(kid) || kid == K_VECADD) {
    size_t e = is_mat(kid) ? (size_t)maxn * (size_t)maxn : (size_t)maxn, bytes = e * sizeof(float);
    if (halloc(x, g, 0, bytes) || halloc(x, g, 1, bytes) || halloc(x, g, 2, bytes) ||
        (is_matmul(kid) && halloc(x, g, 3, (size_t)maxn * sizeof(double))))
      return -1;
    float *A = g->h[0], *B = g->h[1];
    rng_seed(0xa11ce000ULL + (uint64_t)kid);
    for (size_t i = 0; i < e; i++)
      A[i] = rng_unit();
    for (size_t i = 0; i < e; i++)
      B[i] = rng_unit();
    return dalloc(x, g, 0, bytes, A) || dalloc(x, g, 1, bytes, B) || dalloc(x, g, 2, bytes, NULL) ? -1 : 0;
  }
  if (kid == K_DOTPROD) {
    size_t bytes = (size_t)maxn * sizeof(float), parts = (size_t)(maxn / 64 + 1) * sizeof(float);
    if (halloc(x, g, 0, bytes) || halloc(x, g, 1, bytes) || halloc(x, g, 2, parts))
      return -1;
    float *a = g->h[0], *b = g->h[1];
    for (long long i = 0; i < maxn; i++) { /* as the original host: a[i] = i, b[i] = 2i */
      a[i] = (float)i;
      b[i] = (float)(2 * i);
    }
    return dalloc(x, g, 0, bytes, a) || dalloc(x, g, 1, bytes, b) || dalloc(x, g, 2, parts, NULL) ? -1 : 0;
  }
  if (kid == K_SUBSEQ) {
    size_t bytes = (size_t)maxn * sizeof(int), ob = SUBSEQ_OUT_INTS * sizeof(int);
    if (halloc(x, g, 0, bytes) || halloc(x, g, 1, ob) || halloc(x, g, 2, ob))
      return -1;
    int *v = g->h[0];
    for (long long i = 0; i < maxn; i++)
      v[i] = -1;
    v[131] = 954;
    v[132] = 10;
    return dalloc(x, g, 0, bytes, v) || dalloc(x, g, 1, ob, NULL) ? -1 : 0;
  }
  /* sorts */
  size_t bytes = (size_t)maxn * sizeof(int);
  if (halloc(x, g, 0, bytes) || halloc(x, g, 1, bytes))
    return -1;
  int *v = g->h[0];
  rng_seed(0xb170c000ULL + (uint64_t)kid);
  for (long long i = 0; i < maxn; i++)
    v[i] = (int)(rng_u32() % 100u);
  return dalloc(x, g, 0, bytes, NULL);
}

static int verify_matmul(mx_ctx *x, group *g, const config *c, char *why, size_t n) {
  int W = (int)c->n;
  const float *M = g->h[0], *N = g->h[1];
  float *P = g->h[2];
  double *col = g->h[3];
  if (wgb_read(&x->b, g->d[2], (size_t)W * W * sizeof(float), P))
    return -1;
  int bad = 0, checked = 0;
  rng_seed(0x5eed0000ULL + (uint64_t)W);
  for (int ci = 0; ci < 16; ci++) { /* 16 columns x 64 rows, first and last included */
    int cc = ci == 0 ? 0 : ci == 1 ? W - 1 : (int)(rng_u32() % (uint32_t)W);
    for (int k = 0; k < W; k++)
      col[k] = N[(size_t)k * W + cc];
    for (int ri = 0; ri < 64; ri++) {
      int r = ri == 0 ? 0 : ri == 1 ? W - 1 : (int)(rng_u32() % (uint32_t)W);
      double ref = 0;
      for (int k = 0; k < W; k++)
        ref += (double)M[(size_t)r * W + k] * col[k];
      double got = P[(size_t)r * W + cc];
      checked++;
      if (!(fabs(got - ref) <= 2e-3 * ref + 1e-6)) { /* float accumulation of W positive terms */
        if (!bad)
          snprintf(why, n, "P[%d][%d] = %.9g, expected %.9g", r, cc, got, ref);
        bad++;
      }
    }
  }
  if (bad)
    snprintf(why + strlen(why), n - strlen(why), " (%d of %d sampled wrong)", bad, checked);
  return bad ? 1 : 0;
}

static int verify_sum(mx_ctx *x, group *g, const config *c, char *why, size_t n) {
  size_t e = c->kid == K_VECADD ? (size_t)c->n : (size_t)c->n * (size_t)c->n, bad = 0, first = 0;
  const float *A = g->h[0], *B = g->h[1];
  float *S = g->h[2];
  if (wgb_read(&x->b, g->d[2], e * sizeof(float), S))
    return -1;
  for (size_t i = 0; i < e; i++)
    if (S[i] != A[i] + B[i]) {
      if (!bad)
        first = i;
      bad++;
    }
  if (bad)
    snprintf(why, n, "%zu of %zu elements wrong, first at %zu: %.9g != %.9g", bad, e, first, (double)S[first],
             (double)(A[first] + B[first]));
  return bad ? 1 : 0;
}

static int verify_dot(mx_ctx *x, group *g, const config *c, char *why, size_t n) {
  const float *a = g->h[0], *b = g->h[1];
  float *part = g->h[2];
  int blocks = (int)c->gx, bs = (int)c->bx, bad = 0;
  if (wgb_read(&x->b, g->d[2], (size_t)blocks * sizeof(float), part))
    return -1;
  for (int blk = 0; blk < blocks; blk++) {
    double ref = 0;
    long long lo = (long long)blk * bs, hi = lo + bs < c->n ? lo + bs : c->n;
    for (long long i = lo; i < hi; i++)
      ref += (double)a[i] * (double)b[i];
    if (!(fabs((double)part[blk] - ref) <= 1e-5 * ref + 1e-30)) {
      if (!bad)
        snprintf(why, n, "work-group %d: %.9g, expected %.9g", blk, (double)part[blk], ref);
      bad++;
    }
  }
  if (bad)
    snprintf(why + strlen(why), n - strlen(why), " (%d of %d work-groups wrong)", bad, blocks);
  return bad ? 1 : 0;
}

/* CPU model of subSeqMax without its load/scan race (validation/README.md). */
static void subseq_reference(const int *v, long long N, int *out) {
  int n = (int)(N / 32), seg = n / 128, iters = n / 4096;
  for (int b = 0; b < 32; b++) {
    const int *vb = v + (size_t)b * n;
    for (int t = 0; t < 128; t++) {
      int chunk = 32 * t, best = 0, suf = 0;
      int blo = chunk - 1, bhi = chunk - 1, slo = chunk - 1, shi = chunk - 1;
      for (int it = 0; it < iters; it++) {
        blo = bhi = slo = shi = chunk - 1;
        for (int m = 0; m < 32; m++) {
          int xv = vb[t * seg + 32 * it + m];
          if (suf >= 0) {
            suf += xv;
            shi = chunk + m;
          } else {
            suf = xv;
            slo = shi = chunk + m;
          }
          if (suf > best) {
            best = suf;
            blo = slo;
            bhi = shi;
          }
        }
      }
      int last = iters - 1;
#define BUF(p) (vb[((p) / 32) * seg + 32 * last + (p) % 32])
      int *o = out + 5 * (b * 128 + t);
      o[0] = o[1] = o[3] = o[4] = -1;
      o[2] = best;
      if (blo > chunk) {
        int sum = 0, top = 0;
        for (int p = 0; p < blo; p++) {
          sum += BUF(p);
          top = sum > top ? sum : top;
        }
        o[0] = top;
        o[1] = sum - top;
      }
      if (bhi < chunk + 31) {
        int sum = 0, top = 0;
        for (int p = chunk + 31; p > bhi; p--) {
          sum += BUF(p);
          top = sum > top ? sum : top;
        }
        o[3] = top;
        o[4] = sum - top;
      }
#undef BUF
    }
  }
}

static int verify_subseq(mx_ctx *x, group *g, const config *c, char *why, size_t n, const char **note) {
  int *got = g->h[1], *ref = g->h[2];
  int seg = (int)(c->n / 32) / 128, race_a = 131 / seg, race_b = 132 / seg, bad = 0, bad_other = 0;
  if (wgb_read(&x->b, g->d[1], SUBSEQ_OUT_INTS * sizeof(int), got))
    return -1;
  subseq_reference(g->h[0], c->n, ref);
  for (int t = 0; t < 32 * 128; t++)
    for (int f = 0; f < 5; f++)
      if (got[5 * t + f] != ref[5 * t + f]) {
        if (!bad)
          snprintf(why, n, "work-item %d field %d: %d, expected %d", t, f, got[5 * t + f], ref[5 * t + f]);
        bad++;
        bad_other += t != race_a && t != race_b;
      }
  if (bad && !bad_other) {
    *note = "race_affected_thread_differs";
    fprintf(stderr, "wgperf-measure: warning: subSeqMax n=%lld: only the work-item the load/scan race can touch "
                    "differs from the race-free reference (%s)\n",
            c->n, why);
    return 0;
  }
  return bad ? 1 : 0;
}

static int verify_sorted(mx_ctx *x, group *g, const config *c, char *why, size_t n) {
  size_t e = (size_t)c->n;
  const int *in = g->h[0];
  int *got = g->h[1];
  long long hist[100] = {0};
  if (wgb_read(&x->b, g->d[0], e * sizeof(int), got))
    return -1;
  for (size_t i = 0; i < e; i++)
    hist[in[i]]++;
  for (size_t i = 0; i < e; i++) {
    if (got[i] < 0 || got[i] >= 100)
      return snprintf(why, n, "element %zu = %d is not an input key", i, got[i]), 1;
    if (i > 0 && got[i - 1] > got[i])
      return snprintf(why, n, "not sorted at %zu: %d > %d", i, got[i - 1], got[i]), 1;
    hist[got[i]]--;
  }
  for (int k = 0; k < 100; k++)
    if (hist[k])
      return snprintf(why, n, "key %d count differs by %lld", k, hist[k]), 1;
  return 0;
}

/* ---- launching ------------------------------------------------------------ */

typedef struct prog {
  int kid, tw;
  cl_program p;
  cl_kernel k;
  int regs;
} prog;

static int get_prog(mx_ctx *x, const mx_val_opts *o, prog *cache, int *ncache, const config *c, prog **out) {
  int tw = (c->kid == K_DOTPROD || is_matmul(c->kid)) ? c->tw : 0;
  for (int i = 0; i < *ncache; i++)
    if (cache[i].kid == c->kid && cache[i].tw == tw)
      return *out = &cache[i], 0;
  if (*ncache >= 64)
    return wgb_fail(&x->b, "too many programs");
  char file[4096], opts[256];
  snprintf(file, sizeof file, "%s/%s.cl", o->kernels_dir, kname[c->kid]);
  const char *nv = x->dev.nv ? " -cl-nv-verbose" : ""; /* ptxas prints registers per kernel */
  if (tw)
    snprintf(opts, sizeof opts, "-cl-std=CL1.2%s -D TW=%d", nv, tw);
  else
    snprintf(opts, sizeof opts, "-cl-std=CL1.2%s", nv);
  char *log = NULL;
  prog *p = &cache[*ncache];
  memset(p, 0, sizeof *p);
  p->kid = c->kid;
  p->tw = tw;
  if (!(p->p = mx_build_file(x, file, opts, &log)))
    return free(log), -1;
  p->regs = x->dev.nv && log ? mx_regs_from_log(log, kname[c->kid]) : -1;
  free(log);
  if (!(p->k = wgb_kernel(&x->b, p->p, kname[c->kid]))) {
    clReleaseProgram(p->p);
    return -1;
  }
  (*ncache)++;
  *out = p;
  return 0;
}

static int set_args(mx_ctx *x, cl_kernel k, group *g, const config *c) {
  wgb *b = &x->b;
  cl_int n = (cl_int)c->n;
  switch (c->kid) {
  case K_MATMUL:
  case K_MATMUL_UNC:
  case K_MATMUL_SM:
  case K_MATMUL_SM_UNC: /* (P, M, N, W) */
  case K_SUM_NORMAL:
  case K_SUM_COAL: /* (S, A, B, W) */
    return WGB_ARG(b, k, 0, g->d[2]) || WGB_ARG(b, k, 1, g->d[0]) || WGB_ARG(b, k, 2, g->d[1]) || WGB_ARG(b, k, 3, n);
  case K_VECADD: /* (A, B, C, N) */
  case K_DOTPROD: /* (a, b, c, N) */
    return WGB_ARG(b, k, 0, g->d[0]) || WGB_ARG(b, k, 1, g->d[1]) || WGB_ARG(b, k, 2, g->d[2]) || WGB_ARG(b, k, 3, n);
  case K_SUBSEQ: { /* (v, out, unused, n = N/32) */
    cl_int n32 = n / 32;
    return WGB_ARG(b, k, 0, g->d[0]) || WGB_ARG(b, k, 1, g->d[1]) || WGB_ARG(b, k, 2, n) || WGB_ARG(b, k, 3, n32);
  }
  case K_QSORT: /* (v, N) */
    return WGB_ARG(b, k, 0, g->d[0]) || WGB_ARG(b, k, 1, n);
  case K_BITONIC: /* (v, j, k, N): j and k are set per launch */
    return WGB_ARG(b, k, 0, g->d[0]) || WGB_ARG(b, k, 3, n);
  }
  return -1;
}

static void ndrange(const config *c, size_t global[2], size_t local[2], cl_uint *dims) {
  local[0] = c->bx;
  local[1] = c->by;
  global[0] = c->gx * c->bx;
  global[1] = c->gy * c->by;
  *dims = is_mat(c->kid) ? 2 : 1;
}

/* Restores a sort's input (outside the timing) and poisons outputs before a launch. */
static int prepare(mx_ctx *x, group *g, const config *c, bool poison) {
  if (c->kid == K_BITONIC || c->kid == K_QSORT)
    return wgb_write(&x->b, g->d[0], (size_t)c->n * sizeof(int), g->h[0]);
  if (!poison)
    return 0;
  size_t bytes = 0;
  int i = 2;
  if (is_mat(c->kid))
    bytes = (size_t)c->n * (size_t)c->n * sizeof(float);
  else if (c->kid == K_VECADD)
    bytes = (size_t)c->n * sizeof(float);
  else if (c->kid == K_DOTPROD)
    bytes = c->gx * sizeof(float);
  else if (c->kid == K_SUBSEQ)
    bytes = SUBSEQ_OUT_INTS * sizeof(int), i = 1;
  cl_uchar pattern = 0xff;
  return wgb_ck(&x->b, clEnqueueFillBuffer(x->dev.q, g->d[i], &pattern, 1, 0, bytes, 0, NULL, NULL),
                "clEnqueueFillBuffer");
}

static int bitonic_launches(long long n) {
  int lg = 0;
  while ((1LL << lg) < n)
    lg++;
  return lg * (lg + 1) / 2;
}

/* One sort: per-launch times into t[], their sum into *sum. */
static int timed_sort(mx_ctx *x, cl_kernel k, group *g, const config *c, double *t, double *sum) {
  size_t global = (size_t)c->n, local = 128;
  int i = 0;
  if (prepare(x, g, c, false))
    return -1;
  *sum = 0;
  for (cl_int kk = 2; kk <= (cl_int)c->n; kk *= 2)
    for (cl_int j = kk / 2; j > 0; j /= 2, i++) {
      if (WGB_ARG(&x->b, k, 1, j) || WGB_ARG(&x->b, k, 2, kk) || mx_time_launch(x, k, 1, &global, &local, &t[i]))
        return -1;
      *sum += t[i];
    }
  return 0;
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_d(const void *a, const void *b) {
  double p = *(const double *)a, q = *(const double *)b;
  return p < q ? -1 : p > q;
}
static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_d);
  return n <= 0 ? 0 : n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static void skip(mx_ctx *x, const config *c, const char *reason) {
  x->skipped_n++;
  fprintf(stderr, "wgperf-measure: skipped: %s n=%lld block=%zux%zu: %s\n", kname[c->kid], c->n, c->bx, c->by, reason);
  if (x->skipped) {
    fprintf(x->skipped, "%s,%lld,%zu,%zu,%s\n", kname[c->kid], c->n, c->bx, c->by, reason);
    fflush(x->skipped);
  }
}

typedef struct sweep {
  int key;
  long long n;
  double t_launch, wall;
} sweep;

/* Measures one configuration and writes its row; -1 on an OpenCL failure. */
static int run_config(mx_ctx *x, const mx_val_opts *o, prog *p, group *g, const config *c, sweep *sw,
                      double deadline) {
  static double times[10 * 256];
  double sums[10], warm, t0 = now_s();
  int reps;
  mx_row r;
  memset(&r, 0, sizeof r);
  r.kernel = kname[c->kid];
  r.input_size = c->n;
  r.grid[0] = c->gx, r.grid[1] = c->gy, r.grid[2] = 1;
  r.block[0] = c->bx, r.block[1] = c->by, r.block[2] = 1;
  r.regs = p->regs;
  r.launches = 1;
  r.sum_med = -1;
  size_t global[2], local[2];
  cl_uint dims;
  ndrange(c, global, local, &dims);
  if (set_args(x, p->k, g, c))
    return -1;
  cl_ulong lm = 0;
  r.static_smem = clGetKernelWorkGroupInfo(p->k, x->dev.device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof lm, &lm, NULL) ==
                          CL_SUCCESS
                      ? (long)lm
                      : -1;
  if (c->kid == K_BITONIC) {
    int L = bitonic_launches(c->n);
    if (prepare(x, g, c, true) || timed_sort(x, p->k, g, c, times, &warm))
      return -1;
    reps = warm > 0 ? (int)(o->config_cap_s / warm) : 10;
    reps = reps > 10 ? 10 : reps < 3 ? 3 : reps;
    if (warm > o->max_launch_s)
      reps = 1;
    while (reps > 1 && now_s() + reps * warm > deadline)
      reps--;
    for (int i = 0; i < reps; i++)
      if (timed_sort(x, p->k, g, c, times + (size_t)i * L, &sums[i]))
        return -1;
    r.launches = L;
    r.n_runs = reps * L;
    r.n_repeat = reps;
    r.mn = r.mx = times[0];
    for (int i = 0; i < reps * L; i++) {
      r.mn = fmin(r.mn, times[i]);
      r.mx = fmax(r.mx, times[i]);
    }
    r.med = median(times, reps * L);
    r.sum_med = median(sums, reps);
    sw->t_launch = r.sum_med;
  } else {
    if (prepare(x, g, c, true) || mx_time_launch(x, p->k, dims, global, local, &warm))
      return -1;
    reps = warm > 0 ? (int)(o->config_cap_s / warm) : 10;
    reps = reps > 10 ? 10 : reps < 3 ? 3 : reps;
    if (warm > o->max_launch_s)
      reps = 1;
    while (reps > 1 && now_s() + reps * warm > deadline)
      reps--;
    for (int i = 0; i < reps; i++)
      if (prepare(x, g, c, false) || mx_time_launch(x, p->k, dims, global, local, &times[i]))
        return -1;
    r.n_runs = r.n_repeat = reps;
    r.mn = r.mx = times[0];
    for (int i = 0; i < reps; i++) {
      r.mn = fmin(r.mn, times[i]);
      r.mx = fmax(r.mx, times[i]);
    }
    r.med = median(times, reps);
    sw->t_launch = r.med;
  }
  char why[512] = "";
  const char *note = NULL;
  int v;
  switch (c->kid) {
  case K_MATMUL:
  case K_MATMUL_UNC:
  case K_MATMUL_SM:
  case K_MATMUL_SM_UNC: v = verify_matmul(x, g, c, why, sizeof why); break;
  case K_SUM_NORMAL:
  case K_SUM_COAL:
  case K_VECADD: v = verify_sum(x, g, c, why, sizeof why); break;
  case K_DOTPROD: v = verify_dot(x, g, c, why, sizeof why); break;
  case K_SUBSEQ: v = verify_subseq(x, g, c, why, sizeof why, &note); break;
  default: v = verify_sorted(x, g, c, why, sizeof why); break;
  }
  if (v < 0)
    return -1;
  if (v > 0) {
    fprintf(stderr, "wgperf-measure: error: %s n=%lld block=%zux%zu: verification failed: %s\n", kname[c->kid], c->n,
            c->bx, c->by, why);
    note = "verification_failed";
    x->failed++;
  } else
    x->measured++;
  snprintf(r.notes, sizeof r.notes, "%s%s%s", note ? note : "", note && x->cpu ? ";" : "", x->cpu ? "not_a_gpu" : "");
  mx_write_row(x, &r);
  sw->n = c->n;
  sw->wall = now_s() - t0;
  return 0;
}

int mx_run_validation(mx_ctx *x, const mx_val_opts *o) {
  static config cfg[K_COUNT][MAX_CONFIGS];
  int ncfg[K_COUNT], total = 0;
  double wsum = 0;
  for (int k = 0; k < K_COUNT; k++) {
    ncfg[k] = in_list(o->only, kname[k]) ? build_group(k, o->quick, cfg[k]) : 0;
    total += ncfg[k];
    wsum += ncfg[k] ? kweight[k] : 0;
  }
  if (o->list) {
    printf("kernel,input_size,grid_x,grid_y,block_x,block_y,tile_width\n");
    for (int k = 0; k < K_COUNT; k++)
      for (int i = 0; i < ncfg[k]; i++) {
        const config *c = &cfg[k][i];
        printf("%s,%lld,%zu,%zu,%zu,%zu,%d\n", kname[k], c->n, c->gx, c->gy, c->bx, c->by, c->tw);
      }
    return 0;
  }
  fprintf(stderr, "wgperf-measure: %d configurations%s on %s (%s), budget %.0f s, kernels from %s\n", total,
          o->quick ? " (quick)" : "", x->dev.name, x->gpu, o->budget_s, o->kernels_dir);
  double start = now_s();
  prog progs[64];
  int nprogs = 0, rc = 0;
  for (int k = 0; k < K_COUNT && rc == 0; k++) {
    if (!ncfg[k])
      continue;
    double left = o->budget_s - (now_s() - start);
    double share = left * kweight[k] / (wsum > 0 ? wsum : 1);
    wsum -= kweight[k];
    if (left <= 0) {
      for (int i = 0; i < ncfg[k]; i++)
        skip(x, &cfg[k][i], "budget_exhausted");
      continue;
    }
    double deadline = now_s() + share, g0 = now_s();
    int m0 = x->measured, f0 = x->failed, s0 = x->skipped_n;
    group g;
    if (setup_group(x, k, cfg[k], ncfg[k], &g)) {
      fprintf(stderr, "wgperf-measure: error: %s: setup failed: %s; group skipped\n", kname[k], x->b.err);
      for (int i = 0; i < ncfg[k]; i++)
        skip(x, &cfg[k][i], "setup_failed");
      group_free(&g);
      continue;
    }
    sweep sweeps[64];
    int nsw = 0;
    for (int i = 0; i < ncfg[k]; i++) {
      const config *c = &cfg[k][i];
      int key = (k == K_VECADD || k == K_DOTPROD) ? (int)c->bx : c->tw;
      sweep *s = NULL;
      for (int j = 0; j < nsw; j++)
        if (sweeps[j].key == key)
          s = &sweeps[j];
      if (!s && nsw < 64) {
        s = &sweeps[nsw++];
        s->key = key;
        s->n = 0;
      }
      double now = now_s();
      char reason[128];
      if (!s) {
        skip(x, c, "internal_too_many_sweeps");
        continue;
      }
      if (now >= deadline) {
        skip(x, c, "budget_exhausted");
        continue;
      }
      if (s->n > 0) {
        double ratio = pow((double)c->n / (double)s->n, kexp[k]), pl = s->t_launch * ratio, pw = s->wall * ratio;
        if (pl > o->max_launch_s) {
          snprintf(reason, sizeof reason, "predicted_launch_%.3gs_over_max_launch_s", pl);
          skip(x, c, reason);
          continue;
        }
        if (now + pw > deadline) {
          snprintf(reason, sizeof reason, "predicted_cost_%.3gs_over_budget", pw);
          skip(x, c, reason);
          continue;
        }
      }
      prog *p = NULL;
      if (get_prog(x, o, progs, &nprogs, c, &p) || run_config(x, o, p, &g, c, s, deadline)) {
        fprintf(stderr, "wgperf-measure: error: %s n=%lld: %s\n", kname[k], c->n, x->b.err);
        x->failed++;
        skip(x, c, "opencl_error");
        clFinish(x->dev.q);
      }
    }
    fprintf(stderr, "wgperf-measure: %s: %d measured, %d failed, %d skipped, %.1f s\n", kname[k], x->measured - m0,
            x->failed - f0, x->skipped_n - s0, now_s() - g0);
    group_free(&g);
  }
  for (int i = 0; i < nprogs; i++) {
    clReleaseKernel(progs[i].k);
    clReleaseProgram(progs[i].p);
  }
  return x->failed;
}
