/* analyze.c - one launch: distinct warps with their memory costs. */
#define _GNU_SOURCE /* sched_getaffinity */
#include "wgperf/analyze.h"

#include <malloc.h>
#include <sched.h>
#include <unistd.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct wgp_analysis {
  const wgp_kernel *k;
  wgp_trace_launch launch;
  wgp_layout *layout;
  wgp_metrics *metrics;
  wgp_warp_payload payload; /* the warp set keeps a pointer to it */
  struct stats_blob *spare; /* a payload given back, for the next take_stats */
  wgp_warp_set *warps;
  wgp_mem_stats *total;
  size_t nacc;
  unsigned flags;
  wgp_fallback *fallbacks;
  size_t nfallbacks;
};

/* A warp's statistics as a warp-set payload: one allocation. */
typedef struct stats_blob {
  size_t n;
  wgp_mem_stats s[];
} stats_blob;

static void *take_stats(void *user) {
  wgp_analysis *a = user;
  size_t n = wgp_metrics_num_accesses(a->metrics);
  stats_blob *b = a->spare ? a->spare : malloc(sizeof *b + n * sizeof *b->s);
  if (!b)
    return NULL;
  a->spare = NULL;
  b->n = n;
  wgp_metrics_take_into(a->metrics, b->s);
  return b;
}

/* A payload the warp set does not keep: the next take_stats reuses it. */
static void recycle_stats(void *user, void *p) {
  wgp_analysis *a = user;
  if (a->spare)
    free(p);
  else
    a->spare = p;
}

static bool equal_stats(const void *x, const void *y) {
  const stats_blob *a = x, *b = y;
  return a->n == b->n && memcmp(a->s, b->s, a->n * sizeof *a->s) == 0;
}

static void free_stats(void *p) { free(p); }

/* A warp with a lane outside a __local array of known size. */
static bool stats_outside(const void *p) {
  const stats_blob *b = p;
  for (size_t i = 0; i < b->n; i++)
    if (b->s[i].outside > 0)
      return true;
  return false;
}

static bool has_trip_hint(const wgp_analysis_input *in, size_t loop) {
  for (size_t i = 0; i < in->num_trip_hints; i++)
    if (in->trip_loops[i] == loop)
      return true;
  return false;
}

static bool has_taken_hint(const wgp_analysis_input *in, size_t block) {
  for (size_t i = 0; i < in->num_taken_hints; i++)
    if (in->taken_blocks[i] == block)
      return true;
  return false;
}

/* Whether LP has a trip count or bound the tracer can compute (the count it
 * forces when an exit cannot be evaluated; else 1). */
static bool computable(const wgp_loop *lp) {
  const unsigned opaque = WGP_USES_DATA | WGP_USES_UNKNOWN;
  const wgp_expr *tc = wgp_loop_trip_count(lp), *mx = wgp_loop_has_real_bound(lp) ? wgp_loop_max_trip_count(lp) : NULL;
  return (tc && !(wgp_expr_uses(tc) & opaque)) || (mx && !(wgp_expr_uses(mx) & opaque));
}

/* The fallbacks of the traced warps: branches whose condition a trace could
 * not evaluate (a loop exit stands for its loop, once), and unresolved calls
 * in executed blocks. */
static wgp_status collect_fallbacks(wgp_analysis *a, const wgp_analysis_input *in, wgp_diag *diag) {
  const wgp_kernel *k = a->k;
  size_t nb = wgp_kernel_num_blocks(k), nl = wgp_kernel_num_loops(k), nc = wgp_kernel_num_calls(k);
  unsigned char *flags = calloc(nb, 1), *loop_seen = calloc(nl ? nl : 1, 1);
  bool *ran = calloc(nb, sizeof *ran);
  a->fallbacks = calloc(nb + nc + nl ? nb + nc + nl : 1, sizeof *a->fallbacks);
  if (!flags || !loop_seen || !ran || !a->fallbacks) {
    free(flags), free(loop_seen), free(ran);
    return wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
  }
  for (size_t c = 0; c < wgp_warp_set_size(a->warps); c++) {
    const wgp_trace *tr = wgp_warp_set_class(a->warps, c)->trace;
    for (size_t b = 0; b < nb; b++) {
      flags[b] |= (unsigned char)wgp_trace_block_flags(tr, b);
      ran[b] = ran[b] || wgp_trace_block_executions(tr, b) > 0;
    }
  }
  for (size_t b = 0; b < nb; b++) {
    long loop = wgp_block_loop(wgp_kernel_block(k, b));
    if (flags[b] & (WGP_TRACE_DATA_BRANCH | WGP_TRACE_UNKNOWN) && !(flags[b] & WGP_TRACE_DATA_LOOP)) {
      /* an exit of its loop that cannot be computed runs the forced count */
      long exit_of = -1;
      const wgp_loop *lp = loop >= 0 ? wgp_kernel_loop(k, (size_t)loop) : NULL;
      for (size_t i = 0; lp && !(flags[b] & WGP_TRACE_DATA_BRANCH) && i < wgp_loop_num_exiting(lp); i++)
        if (wgp_loop_exiting(lp, i) == b)
          exit_of = loop;
      a->fallbacks[a->nfallbacks++] = (wgp_fallback){
          flags[b] & WGP_TRACE_DATA_BRANCH ? WGP_FALLBACK_DATA_BRANCH : WGP_FALLBACK_UNKNOWN, b, exit_of, -1,
          exit_of >= 0 ? has_trip_hint(in, (size_t)exit_of) : has_taken_hint(in, b), false};
    } else if (flags[b] & WGP_TRACE_DATA_LOOP && loop >= 0 && !loop_seen[loop]) {
      const wgp_loop *lp = wgp_kernel_loop(k, (size_t)loop);
      loop_seen[loop] = 1;
      a->fallbacks[a->nfallbacks++] = (wgp_fallback){WGP_FALLBACK_DATA_LOOP, b, loop, -1,
                                                      has_trip_hint(in, (size_t)loop), computable(lp)};
    }
    for (size_t i = 0; i < nc; i++) {
      size_t cb;
      wgp_kernel_call(k, i, &cb, NULL, NULL);
      if (cb == b && ran[b])
        a->fallbacks[a->nfallbacks++] = (wgp_fallback){WGP_FALLBACK_CALL, b, -1, (long)i, false, false};
    }
  }
  /* loops whose exit no lane reached within the explicit cap (their header
   * carries the flag): after the others, one each */
  for (size_t b = 0; b < nb; b++) {
    long loop = wgp_block_loop(wgp_kernel_block(k, b));
    if (!(flags[b] & WGP_TRACE_TRUNCATED) || loop < 0 || wgp_loop_header(wgp_kernel_loop(k, (size_t)loop)) != b)
      continue;
    a->fallbacks[a->nfallbacks++] =
        (wgp_fallback){WGP_FALLBACK_UNENDED, b, loop, -1, has_trip_hint(in, (size_t)loop), false};
  }
  free(flags), free(loop_seen), free(ran);
  return WGP_OK;
}

/* The work-group must fit the GPU's limits before anything is traced: the
 * tracer walks every warp of a group (a group of 2^31 work-items would be
 * 2^26 warps). */
static wgp_status check_group(const wgp_analysis_input *in, wgp_diag *diag) {
  const wgp_gpu *g = in->gpu;
  const unsigned lim[3] = {wgp_gpu_max_block_dim_x(g), wgp_gpu_max_block_dim_y(g), wgp_gpu_max_block_dim_z(g)};
  double threads = 1;
  for (unsigned d = 0; d < 3; d++) {
    uint64_t l = in->launch.local[d];
    if (l == 0)
      return wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: work-group size 0 in dimension %c", "xyz"[d]);
    if (l > lim[d])
      return wgp_diag_set(diag, WGP_ERR_INPUT,
                          "wgperf: error: work-group size %llu in dimension %c exceeds the maximum of %u on %s",
                          (unsigned long long)l, "xyz"[d], lim[d], wgp_gpu_name(g));
    threads *= (double)l;
  }
  if (threads > wgp_gpu_max_threads_per_block(g))
    return wgp_diag_set(diag, WGP_ERR_INPUT,
                        "wgperf: error: a work-group of %.0f work-items exceeds the maximum of %u on %s", threads,
                        wgp_gpu_max_threads_per_block(g), wgp_gpu_name(g));
  /* what the kernel's source allows (reqd_work_group_size, __launch_bounds__):
   * the driver refuses any other launch */
  char why[400];
  if (!wgp_kernel_allows_local_size(in->kernel, in->launch.local, why, sizeof why))
    return wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: %s", why);
  /* the grid: at most 2^31-1 groups in x and 65535 in y and z (CUDA's
   * gridDim; NVIDIA's OpenCL launches through the same limits) */
  if (!wgp_gpu_grid_fits(g, in->launch.global, in->launch.local, why, sizeof why))
    return wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: %s", why);
  return WGP_OK;
}

wgp_status wgp_analysis_layout(const wgp_analysis_input *in, wgp_layout **out, wgp_diag *diag) {
  wgp_status st = wgp_layout_new(in->kernel, in->buffer_align, in->local_bytes, out, diag);
  if (st == WGP_OK &&
      !wgp_layout_set_regions(*out, in->buffer_bytes, wgp_launch_items(&in->launch), wgp_gpu_l2_sector_bytes(in->gpu))) {
    wgp_layout_free(*out);
    *out = NULL;
    st = wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
  }
  return st;
}

wgp_status wgp_analyze(const wgp_analysis_input *in, wgp_analysis **out, wgp_diag *diag) {
  *out = NULL;
  wgp_status gs = check_group(in, diag);
  if (gs != WGP_OK)
    return gs;
  wgp_analysis *a = calloc(1, sizeof *a);
  if (!a)
    return wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
  a->k = in->kernel;
  a->launch = in->launch;
  if (!a->launch.warp_size)
    a->launch.warp_size = wgp_gpu_warp_size(in->gpu);
  a->nacc = wgp_kernel_num_accesses(in->kernel);
  wgp_status st = wgp_analysis_layout(in, &a->layout, diag);
  if (st == WGP_OK)
    st = wgp_metrics_new(in->kernel, in->gpu, a->layout, &a->metrics, diag);
  wgp_tracer *t = NULL;
  if (st == WGP_OK)
    st = wgp_tracer_new(in->kernel, &a->launch, &t, diag);
  if (st == WGP_OK && !wgp_tracer_track_loads(t))
    st = wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
  if (st == WGP_OK) {
    for (size_t i = 0; i < in->num_trip_hints; i++)
      wgp_tracer_set_trip_hint(t, in->trip_loops[i], in->trip_counts[i]);
    for (size_t i = 0; i < in->num_taken_hints; i++)
      wgp_tracer_set_taken_hint(t, in->taken_blocks[i], in->taken_fractions[i]);
    wgp_metrics_attach(a->metrics, t);
    a->payload = (wgp_warp_payload){take_stats, equal_stats, free_stats, a,
                                    in->stop_outside_local ? stats_outside : NULL, recycle_stats};
    st = wgp_warp_set_build(t, in->kernel, &a->launch, &a->payload, &a->warps, diag);
  }
  wgp_tracer_free(t);
  if (st == WGP_OK) {
    a->total = calloc(a->nacc ? a->nacc : 1, sizeof *a->total);
    if (!a->total)
      st = wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
  }
  if (st == WGP_OK)
    st = collect_fallbacks(a, in, diag);
  if (st != WGP_OK) {
    wgp_analysis_free(a);
    return st;
  }
  for (size_t c = 0; c < wgp_warp_set_size(a->warps); c++) {
    const wgp_warp_class *wc = wgp_warp_set_class(a->warps, c);
    const wgp_mem_stats *s = ((const stats_blob *)wc->payload)->s;
    a->flags |= wgp_trace_flags(wc->trace);
    for (size_t i = 0; i < a->nacc; i++) {
      wgp_mem_stats *t2 = &a->total[i];
      t2->executions += wc->count * s[i].executions;
      t2->requests += wc->count * s[i].requests;
      t2->sectors += wc->count * s[i].sectors;
      t2->lines += wc->count * s[i].lines;
      t2->wavefronts += wc->count * s[i].wavefronts;
      t2->phases += wc->count * s[i].phases;
      t2->lane_bytes += wc->count * s[i].lane_bytes;
      t2->unknown += wc->count * s[i].unknown;
      t2->outside += wc->count * s[i].outside;
      if (s[i].outside_reach > t2->outside_reach)
        t2->outside_reach = s[i].outside_reach;
      if (s[i].worst_degree > t2->worst_degree)
        t2->worst_degree = s[i].worst_degree;
    }
  }
  *out = a;
  return WGP_OK;
}

void wgp_analysis_free(wgp_analysis *a) {
  if (!a)
    return;
  wgp_warp_set_free(a->warps);
  wgp_metrics_free(a->metrics);
  free(a->spare);
  wgp_layout_free(a->layout);
  free(a->total);
  free(a->fallbacks);
  free(a);
}

const wgp_warp_set *wgp_analysis_warps(const wgp_analysis *a) { return a->warps; }
bool wgp_analysis_partial(const wgp_analysis *a) { return wgp_warp_set_stopped(a->warps); }

const wgp_mem_stats *wgp_analysis_class_stats(const wgp_analysis *a, size_t i) {
  const wgp_warp_class *c = wgp_warp_set_class(a->warps, i);
  return c ? ((const stats_blob *)c->payload)->s : NULL;
}

const wgp_mem_stats *wgp_analysis_total_stats(const wgp_analysis *a) { return a->total; }

double wgp_analysis_dynamic_count(const wgp_analysis *a, const char *cls) {
  double n = 0;
  for (size_t c = 0; c < wgp_warp_set_size(a->warps); c++) {
    const wgp_warp_class *wc = wgp_warp_set_class(a->warps, c);
    for (size_t b = 0; b < wgp_kernel_num_blocks(a->k); b++) {
      uint64_t per = wgp_block_count_of(wgp_kernel_block(a->k, b), cls);
      if (per)
        n += wc->count * wgp_trace_block_executions(wc->trace, b) * (double)per;
    }
  }
  return n;
}

double wgp_analysis_loop_share(const wgp_analysis *a, size_t loop) {
  double in = 0, all = 0;
  for (size_t c = 0; c < wgp_warp_set_size(a->warps); c++) {
    const wgp_warp_class *wc = wgp_warp_set_class(a->warps, c);
    for (size_t b = 0; b < wgp_kernel_num_blocks(a->k); b++) {
      const wgp_block *blk = wgp_kernel_block(a->k, b);
      double per = 0;
      for (size_t i = 0; i < wgp_block_num_counts(blk); i++)
        per += (double)wgp_block_count(blk, i, NULL);
      double n = wc->count * wgp_trace_block_executions(wc->trace, b) * per;
      all += n;
      /* inside LOOP: its innermost loop is LOOP or nested in it */
      for (long l = wgp_block_loop(blk); l >= 0; l = wgp_loop_parent(wgp_kernel_loop(a->k, (size_t)l)))
        if ((size_t)l == loop) {
          in += n;
          break;
        }
    }
  }
  return all > 0 ? in / all : 0;
}

unsigned wgp_analysis_flags(const wgp_analysis *a) { return a->flags; }

size_t wgp_analysis_num_fallbacks(const wgp_analysis *a) { return a->nfallbacks; }

const wgp_fallback *wgp_analysis_fallback(const wgp_analysis *a, size_t i) {
  return i < a->nfallbacks ? &a->fallbacks[i] : NULL;
}

const char *wgp_fallback_kind_name(wgp_fallback_kind k) {
  switch (k) {
  case WGP_FALLBACK_DATA_BRANCH: return "data-dependent-branch";
  case WGP_FALLBACK_DATA_LOOP: return "data-dependent-loop";
  case WGP_FALLBACK_UNKNOWN: return "unknown-condition";
  case WGP_FALLBACK_CALL: return "unresolved-call";
  case WGP_FALLBACK_UNENDED: return "unended-loop";
  }
  return "?";
}
uint64_t wgp_analysis_local_bytes(const wgp_analysis *a) { return wgp_layout_local_bytes(a->layout); }

/* The process's choice of threads: set once by a tool's --jobs before any
 * analysis runs, read after. */
static unsigned default_threads;

void wgp_set_default_threads(unsigned n) { default_threads = n > WGP_MAX_THREADS ? WGP_MAX_THREADS : n; }

unsigned wgp_default_threads(void) {
  if (default_threads)
    return default_threads;
  long n = 0;
#ifdef CPU_COUNT
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0)
    n = CPU_COUNT(&set);
#endif
  if (n <= 0)
    n = sysconf(_SC_NPROCESSORS_ONLN);
  return n < 1 ? 1 : n > (long)WGP_MAX_THREADS ? WGP_MAX_THREADS : (unsigned)n;
}

void wgp_tune_allocator(void) {
#if defined(M_MMAP_THRESHOLD) && defined(M_TRIM_THRESHOLD)
  mallopt(M_MMAP_THRESHOLD, 64 << 20);
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
#endif
}
