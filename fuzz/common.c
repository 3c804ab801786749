/* common.c - helpers of the fuzz targets (fuzz.h). */
#define _POSIX_C_SOURCE 200809L
#include "fuzz.h"
#include "wgperf/footprint.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef WGPERF_FUZZ_DATA
#error "WGPERF_FUZZ_DATA must name fuzz/data"
#endif

void fuzz_fail(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "fuzz: contract violated: ");
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "\n");
  va_end(ap);
  abort();
}

char *fuzz_text(const uint8_t *data, size_t size) {
  char *t = malloc(size + 1);
  if (!t)
    abort();
  if (size)
    memcpy(t, data, size);
  t[size] = 0;
  return t;
}

void fuzz_check_diag(wgp_status st, const wgp_diag *d, const char *name, const char *what) {
  if (st == WGP_OK || st == WGP_ERR_NOMEM)
    return;
  char want[256];
  snprintf(want, sizeof want, "wgperf: error: %s", name ? name : "");
  if (strncmp(d->message, want, strlen(want)) != 0)
    fuzz_fail("%s: the diagnostic does not start with '%s': '%s'", what, want, d->message);
  if (strlen(d->message) <= strlen(want) + 2)
    fuzz_fail("%s: the diagnostic says nothing: '%s'", what, d->message);
}

/* An expression prints to text that parses back to the same text. */
static void check_expr(const wgp_expr *e) {
  if (!e)
    return;
  char *text = wgp_expr_to_string(e);
  if (!text)
    return;
  wgp_expr *back;
  wgp_diag d;
  if (wgp_expr_parse(text, &back, &d) != WGP_OK)
    fuzz_fail("the printed expression '%s' does not parse: %s", text, d.message);
  char *again = wgp_expr_to_string(back);
  if (again && strcmp(again, text) != 0)
    fuzz_fail("expression '%s' prints back as '%s'", text, again);
  (void)wgp_expr_uses(e);
  free(again);
  wgp_expr_free(back);
  free(text);
}

static void walk_kernel(const wgp_kernel *k) {
  volatile size_t sink = 0;
  sink += strlen(wgp_kernel_name(k)) + (wgp_kernel_symbol(k) != NULL) + (wgp_kernel_signature(k) != NULL);
  sink += wgp_kernel_language(k) + (wgp_kernel_source(k) != NULL) + wgp_kernel_irreducible(k);
  sink += wgp_kernel_register_pressure(k) + wgp_kernel_registers(k, NULL);
  for (size_t i = 0; i < wgp_kernel_num_args(k); i++) {
    const wgp_arg *a = wgp_kernel_arg(k, i);
    if (wgp_arg_index(a) != i)
      fuzz_fail("argument %zu says it is argument %zu", i, wgp_arg_index(a));
    if (wgp_kernel_find_arg(k, wgp_arg_name(a)) == NULL)
      fuzz_fail("argument '%s' is not found by its name", wgp_arg_name(a));
    sink += wgp_arg_get_kind(a) + wgp_arg_space(a) + wgp_arg_elem_bytes(a) + wgp_arg_bytes(a) + wgp_arg_is_const(a);
    sink += (wgp_arg_type(a) != NULL) + (wgp_arg_elem_bytes_from(a) != NULL);
  }
  for (size_t i = 0; i < wgp_kernel_num_arrays(k); i++) {
    const wgp_array *a = wgp_kernel_array(k, i);
    sink += wgp_array_space(a) + wgp_array_bytes(a) + wgp_array_elem_bytes(a) + wgp_array_initialized(a);
    for (size_t j = 0; j < wgp_array_num_dims(a); j++)
      sink += wgp_array_dim(a, j);
    sink += wgp_kernel_find_array(k, wgp_array_name(a)) != NULL;
  }
  size_t nb = wgp_kernel_num_blocks(k);
  if (nb == 0)
    fuzz_fail("kernel '%s' has no blocks", wgp_kernel_name(k));
  for (size_t i = 0; i < nb; i++) {
    const wgp_block *b = wgp_kernel_block(k, i);
    sink += wgp_block_id(b) + (wgp_block_name(b) != NULL) + (wgp_block_source(b) != NULL);
    long lp = wgp_block_loop(b);
    if (lp < -1 || lp >= (long)wgp_kernel_num_loops(k))
      fuzz_fail("block %zu is in loop %ld of %zu", i, lp, wgp_kernel_num_loops(k));
    for (size_t j = 0; j < wgp_block_num_counts(b); j++) {
      const char *cls;
      sink += wgp_block_count(b, j, &cls);
      sink += wgp_block_count_of(b, cls);
    }
    for (size_t j = 0; j < wgp_block_num_succs(b); j++)
      if (wgp_block_succ(b, j) >= nb)
        fuzz_fail("block %zu: successor %zu out of range", i, wgp_block_succ(b, j));
    for (size_t j = 0; j < wgp_block_num_back_edges(b); j++)
      sink += wgp_block_is_back_edge(b, wgp_block_back_edge(b, j));
    for (size_t j = 0; j < wgp_block_num_accesses(b); j++)
      if (wgp_block_access(b, j) >= wgp_kernel_num_accesses(k))
        fuzz_fail("block %zu: access %zu out of range", i, wgp_block_access(b, j));
    sink += wgp_block_is_exit(b);
    const wgp_branch *br = wgp_block_branch(b);
    if (br) {
      check_expr(wgp_branch_cond(br));
      sink += wgp_branch_get_kind(br) + wgp_branch_get_class(br) + wgp_branch_depends(br);
      sink += (wgp_branch_cond_text(br) != NULL) + (wgp_branch_source(br) != NULL);
      for (size_t j = 0; j < wgp_branch_num_targets(br); j++) {
        if (wgp_branch_target(br, j) >= nb)
          fuzz_fail("block %zu: branch target %zu out of range", i, wgp_branch_target(br, j));
        if (j > 0 && wgp_branch_get_kind(br) == WGP_BRANCH_SWITCH)
          sink += (size_t)wgp_branch_case_value(br, j - 1);
      }
    }
  }
  for (size_t i = 0; i < wgp_kernel_num_loops(k); i++) {
    const wgp_loop *l = wgp_kernel_loop(k, i);
    if (wgp_loop_header(l) >= nb)
      fuzz_fail("loop %zu: header out of range", i);
    /* the loop nest has no cycles: following parents ends within num_loops steps */
    long p = wgp_loop_parent(l);
    for (size_t steps = 0; p >= 0; steps++) {
      if (steps > wgp_kernel_num_loops(k) || (size_t)p >= wgp_kernel_num_loops(k))
        fuzz_fail("loop %zu: the parent chain cycles or leaves the kernel", i);
      p = wgp_loop_parent(wgp_kernel_loop(k, (size_t)p));
    }
    sink += wgp_loop_depth(l) + wgp_loop_trip_kind(l);
    for (size_t j = 0; j < wgp_loop_num_blocks(l); j++)
      sink += wgp_loop_contains(l, wgp_loop_block(l, j));
    for (size_t j = 0; j < wgp_loop_num_latches(l); j++)
      sink += wgp_loop_latch(l, j);
    for (size_t j = 0; j < wgp_loop_num_exiting(l); j++)
      sink += wgp_loop_exiting(l, j);
    check_expr(wgp_loop_backedge_count(l));
    check_expr(wgp_loop_trip_count(l));
    check_expr(wgp_loop_max_trip_count(l));
    sink += (wgp_loop_reason(l) != NULL) + (wgp_loop_source(l) != NULL);
    for (size_t j = 0; j < wgp_loop_num_recurrences(l); j++) {
      const wgp_expr *init, *next;
      (void)wgp_loop_recurrence(l, j, &init, &next);
      check_expr(init);
      check_expr(next);
    }
    for (size_t j = 0; j < wgp_loop_num_exits(l); j++) {
      size_t blk;
      check_expr(wgp_loop_exit(l, j, &blk));
      if (blk >= nb)
        fuzz_fail("loop %zu: exit block out of range", i);
    }
  }
  for (size_t i = 0; i < wgp_kernel_num_accesses(k); i++) {
    const wgp_access *a = wgp_kernel_access(k, i);
    if (wgp_access_block(a) >= nb)
      fuzz_fail("access %zu: block out of range", i);
    sink += wgp_access_id(a) + wgp_access_get_kind(a) + wgp_access_space(a) + wgp_access_bytes(a);
    sink += wgp_access_base_kind(a) + (wgp_access_base_name(a) != NULL) + (size_t)wgp_access_base_arg(a);
    sink += (wgp_access_atomic_op(a) != NULL) + wgp_access_affine(a) + (wgp_access_non_affine(a) != NULL);
    sink += strlen(wgp_space_name(wgp_access_space(a))) + strlen(wgp_access_kind_name(wgp_access_get_kind(a)));
    sink += strlen(wgp_base_kind_name(wgp_access_base_kind(a))) + (wgp_access_source(a) != NULL);
    check_expr(wgp_access_offset(a));
  }
  for (size_t i = 0; i < wgp_kernel_num_calls(k); i++) {
    size_t blk;
    const char *callee, *reason;
    wgp_kernel_call(k, i, &blk, &callee, &reason);
    sink += blk;
  }
  for (size_t i = 0; i < wgp_kernel_num_static_counts(k); i++) {
    const char *cls;
    sink += wgp_kernel_static_count(k, i, &cls);
  }
  for (size_t i = 0; i < wgp_kernel_num_diagnostics(k); i++)
    sink += strlen(wgp_kernel_diagnostic(k, i));
  (void)sink;
}

void fuzz_walk_model(const wgp_model *m) {
  volatile size_t sink = 0;
  sink += strlen(wgp_model_producer(m)) + strlen(wgp_model_module(m)) + strlen(wgp_model_target(m));
  sink += wgp_model_source_file(m) != NULL;
  for (size_t i = 0; i < wgp_model_num_diagnostics(m); i++)
    sink += strlen(wgp_model_diagnostic(m, i));
  for (size_t i = 0; i < wgp_model_num_kernels(m); i++) {
    const wgp_kernel *k = wgp_model_kernel(m, i);
    if (wgp_model_find_kernel(m, wgp_kernel_name(k)) == NULL)
      fuzz_fail("kernel '%s' is not found by its name", wgp_kernel_name(k));
    walk_kernel(k);
  }
  (void)sink;
}

const wgp_model *fuzz_probe_model(void) {
  static wgp_model *m;
  if (!m) {
    wgp_diag d;
    if (wgp_model_load_file(WGPERF_FUZZ_DATA "/probe.json", &m, &d) != WGP_OK) {
      fprintf(stderr, "%s\n", d.message);
      abort();
    }
  }
  return m;
}

const wgp_gpu *fuzz_gpu(const char *name) {
  static const char *names[] = {"h100-sxm", "a100", "v100", "titan-x", "tesla-k20", "gtx-750"};
  static wgp_gpu *gpus[sizeof names / sizeof *names];
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    if (strcmp(name, names[i]) == 0) {
      if (!gpus[i]) {
        wgp_diag d;
        if (wgp_gpu_load_builtin(names[i], &gpus[i], &d) != WGP_OK) {
          fprintf(stderr, "%s\n", d.message);
          abort();
        }
      }
      return gpus[i];
    }
  return NULL;
}

bool fuzz_launch_is_small(const wgp_launch *l) {
  double items = 1;
  for (unsigned d = 0; d < wgp_launch_dims(l); d++)
    items *= (double)wgp_launch_global(l, d);
  return items <= 65536;
}

static void check_finite(const char *what, double v) {
  if (!isfinite(v) || v < 0)
    fuzz_fail("the prediction's %s is %g", what, v);
}

wgp_status fuzz_estimate(const wgp_launch *l, const wgp_kernel *k, const wgp_gpu *gpu, const fuzz_hints *h,
                         const char *name, bool analyze) {
  static const fuzz_hints none;
  if (!h)
    h = &none;
  size_t na = wgp_kernel_num_args(k) ? wgp_kernel_num_args(k) : 1;
  uint64_t *align = calloc(na, sizeof *align), *local = calloc(na + wgp_kernel_num_arrays(k), sizeof *local);
  if (!align || !local)
    abort();
  wgp_analysis_input in = {0};
  wgp_diag d;
  wgp_status st = wgp_launch_bind(l, k, &in.launch, align, local, &d);
  fuzz_check_diag(st, &d, name, "wgp_launch_bind");
  /* the tool's own checks of the hints (tools/wgperf_analyze.c) */
  for (size_t i = 0; st == WGP_OK && i < h->ntrip; i++)
    if (h->trip_loop[i] >= wgp_kernel_num_loops(k))
      st = WGP_ERR_INPUT;
  for (size_t i = 0; st == WGP_OK && i < h->ntaken; i++)
    if (h->taken_block[i] >= wgp_kernel_num_blocks(k) || !wgp_block_branch(wgp_kernel_block(k, h->taken_block[i])) ||
        !(h->taken[i] >= 0 && h->taken[i] <= 1))
      st = WGP_ERR_INPUT;
  wgp_estimate *e = NULL;
  if (st == WGP_OK && analyze) {
    in.kernel = k;
    in.gpu = gpu;
    in.buffer_align = align;
    in.local_bytes = local;
    in.trip_loops = h->trip_loop;
    in.trip_counts = h->trip;
    in.num_trip_hints = h->ntrip;
    in.taken_blocks = h->taken_block;
    in.taken_fractions = h->taken;
    in.num_taken_hints = h->ntaken;
    st = wgp_estimate_new(&in, h->regs, &e, &d);
    fuzz_check_diag(st, &d, "", "wgp_estimate_new");
  }
  if (st == WGP_OK && e) {
    const wgp_analysis *an = wgp_estimate_analysis(e);
    const wgp_mem_stats *tot = wgp_analysis_total_stats(an);
    for (size_t i = 0; i < wgp_kernel_num_accesses(k); i++) {
      check_finite("executions", tot[i].executions);
      check_finite("sectors", tot[i].sectors);
      check_finite("wavefronts", tot[i].wavefronts);
    }
    for (size_t i = 0; i < wgp_kernel_num_static_counts(k); i++) {
      const char *cls;
      wgp_kernel_static_count(k, i, &cls);
      check_finite("dynamic instruction count", wgp_analysis_dynamic_count(an, cls));
    }
    const wgp_cache_result *c = wgp_estimate_cache(e);
    for (size_t i = 0; i < c->num_accesses; i++)
      if (c->l1_hit[i] > 1 || c->l2_hit[i] > 1 || isnan(c->l1_hit[i]) || isnan(c->l2_hit[i]))
        fuzz_fail("access %zu: hit rates %g / %g", i, c->l1_hit[i], c->l2_hit[i]);
      else if ((c->last_l1[i] >= 0) != (c->last_dram[i] >= 0) || c->last_l1[i] + c->last_dram[i] > 1 + 1e-9 ||
               isnan(c->last_l1[i]) || isnan(c->last_dram[i]))
        fuzz_fail("access %zu: shares of requests from L1 / DRAM %g / %g", i, c->last_l1[i], c->last_dram[i]);
    wgp_sim_result r;
    st = wgp_estimate_simulate(e, 0, &r, &d);
    fuzz_check_diag(st, &d, "", "wgp_estimate_simulate");
    if (st == WGP_OK) {
      check_finite("time_us", r.time_us);
      check_finite("cycles", r.cycles);
      check_finite("best_us", r.best_us);
      check_finite("worst_us", r.worst_us);
      check_finite("round_cycles", r.round_cycles);
      if (r.time_us <= 0)
        fuzz_fail("predicted time %g us", r.time_us);
      /* the bounds hold the prediction (pipeline.h), up to rounding */
      if (r.best_us > r.time_us * (1 + 1e-9) || r.time_us > r.worst_us * (1 + 1e-9))
        fuzz_fail("prediction %.17g us outside its bounds [%.17g, %.17g]", r.time_us, r.best_us, r.worst_us);
      /* and so do the bounds for any hit rates, which wgtune --prune ranks by
       * without estimating (wgp_estimate_bounds: the same analysis and
       * registers, then wgp_analysis_bounds; taken here from the estimate's
       * analysis, which would otherwise be made twice): its first K ranks
       * are exact only if no estimate falls below its lower bound or above
       * its upper one */
      double lo, hi;
      wgp_status sb = wgp_analysis_bounds(&in, an, wgp_estimate_registers(e, NULL), &lo, &hi, &d);
      fuzz_check_diag(sb, &d, "", "wgp_analysis_bounds");
      if (sb != WGP_OK)
        fuzz_fail("wgp_analysis_bounds failed (status %d: %s) where the estimate gave %.17g us", (int)sb, d.message,
                  r.time_us);
      check_finite("bounds' best_us", lo);
      check_finite("bounds' worst_us", hi);
      if (lo > r.time_us * (1 + 1e-9) || r.time_us > hi * (1 + 1e-9))
        fuzz_fail("prediction %.17g us outside the bounds for any hit rates [%.17g, %.17g]", r.time_us, lo, hi);
    }
    /* the bytes each buffer certainly sees (wgperf predict's check of its
     * --buffer sizes, wgtune's of its fastest): whole bytes where any */
    double *blo = calloc(na, sizeof *blo), *bhi = calloc(na, sizeof *bhi);
    if (!blo || !bhi)
      abort();
    wgp_status sr = wgp_footprint_reach(&in, blo, bhi, &d);
    fuzz_check_diag(sr, &d, "", "wgp_footprint_reach");
    for (size_t x = 0; sr == WGP_OK && x < wgp_kernel_num_args(k); x++)
      if (blo[x] <= bhi[x] && (!isfinite(blo[x]) || !isfinite(bhi[x]) || blo[x] != floor(blo[x]) ||
                               bhi[x] != floor(bhi[x])))
        fuzz_fail("argument %zu: bytes %.17g to %.17g certainly touched", x, blo[x], bhi[x]);
    free(blo), free(bhi);
  }
  wgp_estimate_free(e);
  free(align);
  free(local);
  return st;
}

void fuzz_estimate_probe(const wgp_launch *l) {
  const wgp_model *m = fuzz_probe_model();
  for (size_t i = 0; i < wgp_model_num_kernels(m); i++)
    (void)fuzz_estimate(l, wgp_model_kernel(m, i), fuzz_gpu("h100-sxm"), NULL, "", fuzz_launch_is_small(l));
}
