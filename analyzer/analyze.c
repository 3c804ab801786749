/* analyze.c - one launch: distinct warps with their memory costs. */
#include "wgperf/analyze.h"

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
  wgp_warp_set *warps;
  wgp_mem_stats *total;
  size_t nacc;
  unsigned flags;
};

/* A warp's statistics as a warp-set payload. */
typedef struct stats_blob {
  size_t n;
  wgp_mem_stats *s;
} stats_blob;

static void *take_stats(void *user) {
  stats_blob *b = malloc(sizeof *b);
  if (!b)
    return NULL;
  b->n = wgp_metrics_num_accesses(user);
  b->s = wgp_metrics_take(user);
  if (!b->s) {
    free(b);
    return NULL;
  }
  return b;
}

static bool equal_stats(const void *x, const void *y) {
  const stats_blob *a = x, *b = y;
  return a->n == b->n && memcmp(a->s, b->s, a->n * sizeof *a->s) == 0;
}

static void free_stats(void *p) {
  stats_blob *b = p;
  if (b)
    free(b->s);
  free(b);
}

wgp_status wgp_analyze(const wgp_analysis_input *in, wgp_analysis **out, wgp_diag *diag) {
  *out = NULL;
  wgp_analysis *a = calloc(1, sizeof *a);
  if (!a)
    return wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
  a->k = in->kernel;
  a->launch = in->launch;
  if (!a->launch.warp_size)
    a->launch.warp_size = wgp_gpu_warp_size(in->gpu);
  a->nacc = wgp_kernel_num_accesses(in->kernel);
  wgp_status st = wgp_layout_new(in->kernel, in->buffer_align, in->local_bytes, &a->layout, diag);
  if (st == WGP_OK)
    st = wgp_metrics_new(in->kernel, in->gpu, a->layout, &a->metrics, diag);
  wgp_tracer *t = NULL;
  if (st == WGP_OK)
    st = wgp_tracer_new(in->kernel, &a->launch, &t, diag);
  if (st == WGP_OK) {
    for (size_t i = 0; i < in->num_trip_hints; i++)
      wgp_tracer_set_trip_hint(t, in->trip_loops[i], in->trip_counts[i]);
    for (size_t i = 0; i < in->num_taken_hints; i++)
      wgp_tracer_set_taken_hint(t, in->taken_blocks[i], in->taken_fractions[i]);
    wgp_metrics_attach(a->metrics, t);
    a->payload = (wgp_warp_payload){take_stats, equal_stats, free_stats, a->metrics};
    st = wgp_warp_set_build(t, in->kernel, &a->launch, &a->payload, &a->warps, diag);
  }
  wgp_tracer_free(t);
  if (st == WGP_OK) {
    a->total = calloc(a->nacc ? a->nacc : 1, sizeof *a->total);
    if (!a->total)
      st = wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
  }
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
  wgp_layout_free(a->layout);
  free(a->total);
  free(a);
}

const wgp_warp_set *wgp_analysis_warps(const wgp_analysis *a) { return a->warps; }

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

unsigned wgp_analysis_flags(const wgp_analysis *a) { return a->flags; }
uint64_t wgp_analysis_local_bytes(const wgp_analysis *a) { return wgp_layout_local_bytes(a->layout); }
