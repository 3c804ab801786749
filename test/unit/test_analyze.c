/* test_analyze.c - memory costs per access against hand-worked values
 * (issue 3's expectations; seeds/002 T1 for the bank cycles of A[t], B[2t],
 * D[16t]) on kernels extracted by the real plugin (data/mem_kernels.cl). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wgperf/analyze.h"
#include "wgperf/counters.h"

static wgp_model *model;
static wgp_gpu *h100;

static wgp_eval_status args(void *user, const wgp_sym *sym, int64_t *value, char *reason, size_t size) {
  const int64_t *v = user;
  if (sym->kind == WGP_SYM_ARG) {
    if (strcmp(sym->name, "w") == 0) {
      *value = v[0];
      return WGP_EVAL_OK;
    }
    if (strcmp(sym->name, "n") == 0 || strcmp(sym->name, "h") == 0) {
      *value = v[1];
      return WGP_EVAL_OK;
    }
  }
  snprintf(reason, size, "no value");
  return WGP_EVAL_UNKNOWN;
}

static int setup(void **state) {
  wgp_diag d;
  (void)state;
  if (wgp_model_load_file(WGPERF_SOURCE_DIR "/test/unit/data/mem_kernels.json", &model, &d) != WGP_OK)
    return -1;
  return wgp_gpu_load_builtin("h100-sxm", &h100, &d) == WGP_OK ? 0 : -1;
}

static int teardown(void **state) {
  (void)state;
  wgp_model_free(model);
  wgp_gpu_free(h100);
  return 0;
}

static wgp_analysis *run(const char *kernel, uint64_t global, uint64_t local, int64_t *argv) {
  const wgp_kernel *k = wgp_model_find_kernel(model, kernel);
  assert_non_null(k);
  wgp_analysis_input in = {0};
  in.kernel = k;
  in.gpu = h100;
  in.launch = (wgp_trace_launch){1, {global, 1, 1}, {local, 1, 1}, {0, 0, 0}, 0, args, argv};
  wgp_analysis *a;
  wgp_diag d;
  assert_int_equal(wgp_analyze(&in, &a, &d), WGP_OK);
  return a;
}

/* Per-request average of access ID's sectors (global) or wavefronts. */
static double per_request(const wgp_analysis *a, size_t id, bool sectors) {
  const wgp_mem_stats *s = &wgp_analysis_total_stats(a)[id];
  assert_true(s->requests > 0);
  return (sectors ? s->sectors : s->wavefronts) / s->requests;
}

static size_t access_of(const char *kernel, wgp_space space, wgp_access_kind kind) {
  const wgp_kernel *k = wgp_model_find_kernel(model, kernel);
  for (size_t i = 0; i < wgp_kernel_num_accesses(k); i++) {
    const wgp_access *a = wgp_kernel_access(k, i);
    if (wgp_access_space(a) == space && wgp_access_get_kind(a) == kind)
      return i;
  }
  fail_msg("no such access in %s", kernel);
  return 0;
}

static void test_global_coalescing(void **state) {
  (void)state;
  int64_t argv[2] = {1024, 0};
  struct { const char *k; double sectors; } cases[] = {
      {"coalesced", 4}, {"stride2", 8}, {"column", 32}, {"vec4", 16},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    wgp_analysis *a = run(cases[i].k, 4096, 256, argv);
    size_t id = access_of(cases[i].k, WGP_SPACE_GLOBAL, WGP_ACCESS_LOAD);
    assert_true(per_request(a, id, true) == cases[i].sectors);
    /* every warp of the launch executes it once */
    assert_true(wgp_analysis_total_stats(a)[id].executions == 4096 / 32);
    wgp_analysis_free(a);
  }
}

/* A global access's load/store passes (wavefronts): its distinct lines, but
 * on Maxwell a store passes once per L2 write it sends (nvprof's gst count):
 * transpose2d's store with 16x16 groups has lanes l and l+16 write one
 * sector of each of 16 lines, 16 passes on the H100 and 32 on a GTX 750. */
static void test_maxwell_store_passes(void **state) {
  (void)state;
  wgp_diag d;
  wgp_gpu *maxwell;
  assert_int_equal(wgp_gpu_load_builtin("gtx-750", &maxwell, &d), WGP_OK);
  const wgp_kernel *k = wgp_model_find_kernel(model, "transpose2d");
  assert_non_null(k);
  int64_t argv[2] = {256, 256};
  const wgp_gpu *gpus[2] = {h100, maxwell};
  const double passes[2] = {16, 32};
  size_t store = access_of("transpose2d", WGP_SPACE_GLOBAL, WGP_ACCESS_STORE);
  size_t load = access_of("transpose2d", WGP_SPACE_GLOBAL, WGP_ACCESS_LOAD);
  for (int g = 0; g < 2; g++) {
    wgp_analysis_input in = {0};
    in.kernel = k;
    in.gpu = gpus[g];
    in.launch = (wgp_trace_launch){2, {256, 256, 1}, {16, 16, 1}, {0, 0, 0}, 0, args, argv};
    wgp_analysis *a;
    assert_int_equal(wgp_analyze(&in, &a, &d), WGP_OK);
    const wgp_mem_stats *st = &wgp_analysis_total_stats(a)[store], *ld = &wgp_analysis_total_stats(a)[load];
    assert_true(st->lines / st->requests == 16);
    assert_true(st->wavefronts / st->requests == passes[g]);
    /* loads pass once per line on both (two rows of 64 B a warp) */
    assert_true(ld->wavefronts == ld->lines);
    wgp_analysis_free(a);
  }
  wgp_gpu_free(maxwell);
}

static void test_shared_bank_conflicts(void **state) {
  (void)state;
  int64_t argv[2] = {0, 0};
  /* stride in 4 B words -> conflict degree: seeds/002 T1 gives 1/2/16 for
   * A[t], B[2t], D[16t]; 32 is fully serialized, 33 (padded) conflict-free */
  struct { const char *k; double degree; } cases[] = {
      {"shared1", 1}, {"shared2", 2}, {"shared16", 16}, {"shared32", 32}, {"shared33", 1},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    wgp_analysis *a = run(cases[i].k, 1024, 32, argv);
    size_t st = access_of(cases[i].k, WGP_SPACE_LOCAL, WGP_ACCESS_STORE);
    size_t ld = access_of(cases[i].k, WGP_SPACE_LOCAL, WGP_ACCESS_LOAD);
    assert_true(per_request(a, st, false) == cases[i].degree);
    assert_true(per_request(a, ld, false) == cases[i].degree);
    assert_true(wgp_analysis_total_stats(a)[ld].worst_degree == cases[i].degree);
    wgp_analysis_free(a);
  }
  /* 8 B words: two conflict-free halves of 16 lanes, degree 1 */
  wgp_analysis *a = run("shared_double", 1024, 32, argv);
  size_t ld = access_of("shared_double", WGP_SPACE_LOCAL, WGP_ACCESS_LOAD);
  const wgp_mem_stats *s = &wgp_analysis_total_stats(a)[ld];
  assert_true(s->wavefronts / s->requests == 2.0);
  assert_true(s->wavefronts / s->phases == 1.0);
  wgp_analysis_free(a);
}

static void test_constant_serialization(void **state) {
  (void)state;
  int64_t argv[2] = {0, 0};
  wgp_analysis *a = run("constant_same", 1024, 32, argv);
  assert_true(per_request(a, access_of("constant_same", WGP_SPACE_CONSTANT, WGP_ACCESS_LOAD), false) == 1.0);
  wgp_analysis_free(a);
  a = run("constant_lane", 1024, 32, argv);
  assert_true(per_request(a, access_of("constant_lane", WGP_SPACE_CONSTANT, WGP_ACCESS_LOAD), false) == 32.0);
  wgp_analysis_free(a);
}

static void test_loop_accesses_counted_per_iteration(void **state) {
  (void)state;
  /* a[k*w + i]: coalesced in i, 4 sectors per request in every iteration;
   * executed n times by each of the 32 warps */
  int64_t argv[2] = {1024, 1000};
  wgp_analysis *a = run("loop_column", 1024, 256, argv);
  size_t ld = access_of("loop_column", WGP_SPACE_GLOBAL, WGP_ACCESS_LOAD);
  const wgp_mem_stats *s = &wgp_analysis_total_stats(a)[ld];
  assert_true(s->executions == 32.0 * 1000);
  assert_true(s->sectors / s->requests == 4.0);
  assert_true(s->unknown == 0);
  /* dynamic instruction counts: one fp32 add per iteration per warp */
  assert_true(wgp_analysis_dynamic_count(a, "fp32_add") == 32.0 * 1000);
  wgp_analysis_free(a);
}

static void test_counting_rules_directly(void **state) {
  (void)state;
  uint64_t addr[32];
  double sec, lin, wf, ph, worst;
  /* misaligned coalesced fp32: 32 lanes from byte 16 touch 5 sectors, 2 lines */
  for (unsigned i = 0; i < 32; i++)
    addr[i] = 16 + 4 * i;
  wgp_count_global(addr, 0xffffffffull, 32, 4, 32, 128, &sec, &lin);
  assert_true(sec == 5 && lin == 2);
  /* half the lanes active */
  wgp_count_global(addr, 0x0000ffffull, 32, 4, 32, 128, &sec, &lin);
  assert_true(sec == 3 && lin == 1);
  /* every lane reads the same word: a broadcast */
  for (unsigned i = 0; i < 32; i++)
    addr[i] = 64;
  wgp_count_banks(addr, 0xffffffffull, 32, 4, 32, 4, &wf, &ph, &worst);
  assert_true(wf == 1 && worst == 1);
  assert_true(wgp_count_distinct(addr, 0xffffffffull, 32) == 1);
  /* two words in the same bank, 16 lanes each */
  for (unsigned i = 0; i < 32; i++)
    addr[i] = i < 16 ? 0 : 128;
  wgp_count_banks(addr, 0xffffffffull, 32, 4, 32, 4, &wf, &ph, &worst);
  assert_true(wf == 2 && worst == 2);
}

/* ---- brute force ------------------------------------------------------------ */

typedef struct bf_env {
  int64_t lid[3], grp[3], lsz[3], ngrp[3];
  const int64_t *argv; /* w, n as in args() */
} bf_env;

static wgp_eval_status bf_lookup(void *user, const wgp_sym *s, int64_t *v, char *reason, size_t size) {
  const bf_env *e = user;
  unsigned d = s->dim < 3 ? s->dim : 0;
  switch (s->kind) {
  case WGP_SYM_LID: *v = e->lid[d]; return WGP_EVAL_OK;
  case WGP_SYM_GRP: *v = e->grp[d]; return WGP_EVAL_OK;
  case WGP_SYM_LSZ: *v = e->lsz[d]; return WGP_EVAL_OK;
  case WGP_SYM_NGRP: *v = e->ngrp[d]; return WGP_EVAL_OK;
  case WGP_SYM_GID: *v = e->grp[d] * e->lsz[d] + e->lid[d]; return WGP_EVAL_OK;
  case WGP_SYM_GSZ: *v = e->ngrp[d] * e->lsz[d]; return WGP_EVAL_OK;
  case WGP_SYM_GOFF: *v = 0; return WGP_EVAL_OK;
  case WGP_SYM_ARG:
    if (strcmp(s->name, "w") == 0) { *v = e->argv[0]; return WGP_EVAL_OK; }
    if (strcmp(s->name, "h") == 0 || strcmp(s->name, "n") == 0) { *v = e->argv[1]; return WGP_EVAL_OK; }
    break;
  default:
    break;
  }
  snprintf(reason, size, "no value");
  return WGP_EVAL_UNKNOWN;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* Sectors of access ID summed over every warp of the launch, each lane's
 * offset evaluated straight from the model: no tracer, no warp classes. */
static double brute_sectors(const wgp_kernel *k, size_t id, const uint64_t g[2], const uint64_t l[2], int64_t *argv) {
  const wgp_access *a = wgp_kernel_access(k, id);
  unsigned bytes = (unsigned)wgp_access_bytes(a);
  bf_env e = {{0}, {0}, {(int64_t)l[0], (int64_t)l[1], 1}, {(int64_t)(g[0] / l[0]), (int64_t)(g[1] / l[1]), 1}, argv};
  wgp_eval_env env = {bf_lookup, &e, 0};
  double total = 0;
  uint64_t group_items = l[0] * l[1];
  for (uint64_t gy = 0; gy < g[1] / l[1]; gy++)
    for (uint64_t gx = 0; gx < g[0] / l[0]; gx++)
      for (uint64_t w0 = 0; w0 < group_items; w0 += 32) {
        uint64_t sec[32 * 2];
        size_t n = 0;
        for (uint64_t i = w0; i < w0 + 32 && i < group_items; i++) {
          e.grp[0] = (int64_t)gx, e.grp[1] = (int64_t)gy;
          e.lid[0] = (int64_t)(i % l[0]), e.lid[1] = (int64_t)(i / l[0]);
          wgp_eval_result r;
          assert_int_equal(wgp_expr_eval(wgp_access_offset(a), &env, &r), WGP_EVAL_OK);
          for (uint64_t x = (uint64_t)r.value / 32; x <= ((uint64_t)r.value + bytes - 1) / 32; x++)
            sec[n++] = x;
        }
        qsort(sec, n, sizeof *sec, cmp_u64);
        for (size_t j = 0; j < n; j++)
          total += j == 0 || sec[j] != sec[j - 1];
      }
  return total;
}

static void test_against_brute_force(void **state) {
  (void)state;
  /* Random launch shapes; row pitches multiples of 8 floats (32 B) so every
   * group has the alignment of group 0, which is what the warp classes
   * assume when control flow ignores the group id. */
  srand(12345);
  const char *kernels[] = {"coalesced", "stride2", "column", "vec4", "transpose2d"};
  for (int trial = 0; trial < 40; trial++) {
    const char *kn = kernels[trial % 5];
    const wgp_kernel *k = wgp_model_find_kernel(model, kn);
    assert_non_null(k);
    bool two = strcmp(kn, "transpose2d") == 0;
    uint64_t l[2] = {two ? (uint64_t)(1 << (rand() % 6)) : (uint64_t)(32 * (1 + rand() % 8)), 1};
    if (two)
      l[1] = (uint64_t)(1 << (rand() % 4)) * (l[0] < 4 ? 8 : 1);
    uint64_t g[2] = {l[0] * (uint64_t)(1 + rand() % 6), two ? l[1] * (uint64_t)(1 + rand() % 5) : 1};
    int64_t argv[2] = {8 * (1 + rand() % 64), 8 * (1 + rand() % 64)};
    if (two)
      argv[0] = (int64_t)g[0], argv[1] = (int64_t)g[1];
    wgp_analysis_input in = {0};
    in.kernel = k;
    in.gpu = h100;
    in.launch = (wgp_trace_launch){two ? 2u : 1u, {g[0], g[1], 1}, {l[0], l[1], 1}, {0, 0, 0}, 0, args, argv};
    wgp_analysis *an;
    wgp_diag d;
    assert_int_equal(wgp_analyze(&in, &an, &d), WGP_OK);
    for (size_t id = 0; id < wgp_kernel_num_accesses(k); id++) {
      double want = brute_sectors(k, id, g, l, argv), got = wgp_analysis_total_stats(an)[id].sectors;
      if (want != got)
        fail_msg("%s global %llux%llu local %llux%llu w=%lld: access %zu has %.0f sectors, brute force %.0f", kn,
                 (unsigned long long)g[0], (unsigned long long)g[1], (unsigned long long)l[0],
                 (unsigned long long)l[1], (long long)argv[0], id, got, want);
    }
    wgp_analysis_free(an);
  }
}

/* Conditions that cannot be computed for a reason other than loaded data
 * (here: no value for N) are itemized: the branch of block 0 as a branch,
 * the exit of loop 0 (block 1) as that loop; a --trip hint marks the loop. */
static wgp_eval_status no_values(void *user, const wgp_sym *sym, int64_t *value, char *reason, size_t size) {
  (void)user, (void)sym, (void)value;
  snprintf(reason, size, "no value");
  return WGP_EVAL_UNKNOWN;
}

static void test_fallbacks_listed(void **state) {
  (void)state;
  wgp_model *m;
  wgp_diag d;
  assert_int_equal(wgp_model_load_file(WGPERF_SOURCE_DIR "/test/unit/data/minimal.json", &m, &d), WGP_OK);
  wgp_analysis_input in = {0};
  in.kernel = wgp_model_find_kernel(m, "k");
  in.gpu = h100;
  uint64_t local[3] = {0, 0, 64};
  in.local_bytes = local;
  in.launch = (wgp_trace_launch){1, {256, 1, 1}, {128, 1, 1}, {0, 0, 0}, 0, no_values, NULL};
  size_t loops[1] = {0};
  uint64_t trips[1] = {4};
  for (int hinted = 0; hinted < 2; hinted++) {
    in.trip_loops = loops;
    in.trip_counts = trips;
    in.num_trip_hints = (size_t)hinted;
    wgp_analysis *a;
    assert_int_equal(wgp_analyze(&in, &a, &d), WGP_OK);
    assert_int_equal(wgp_analysis_num_fallbacks(a), 2);
    const wgp_fallback *f0 = wgp_analysis_fallback(a, 0), *f1 = wgp_analysis_fallback(a, 1);
    assert_int_equal(f0->kind, WGP_FALLBACK_UNKNOWN);
    assert_int_equal(f0->block, 0);
    assert_int_equal(f0->loop, -1);
    assert_false(f0->hinted);
    assert_int_equal(f1->kind, WGP_FALLBACK_UNKNOWN);
    assert_int_equal(f1->block, 1);
    assert_int_equal(f1->loop, 0);
    assert_int_equal(f1->hinted, hinted);
    assert_null(wgp_analysis_fallback(a, 2));
    assert_string_equal(wgp_fallback_kind_name(f0->kind), "unknown-condition");
    wgp_analysis_free(a);
  }
  wgp_model_free(m);
}

/* seeds/000 (sec. 2.1, the prefetching matrix multiply): with 16x16 local
 * tiles an n x n product does 2 n^3 local loads, 2 n^3 / 16 local stores
 * and 2 n^3 / 16 global loads (16x fewer than the naive kernel's 2 n^3),
 * and n^3 multiply-adds, counted per work-item. */
static wgp_eval_status arg_N(void *user, const wgp_sym *sym, int64_t *value, char *reason, size_t size) {
  if (sym->kind == WGP_SYM_ARG && strcmp(sym->name, "N") == 0) {
    *value = *(const int64_t *)user;
    return WGP_EVAL_OK;
  }
  snprintf(reason, size, "no value");
  return WGP_EVAL_UNKNOWN;
}

static void test_seed000_tiled_matmul_counts(void **state) {
  (void)state;
  wgp_model *mm;
  wgp_diag d;
  assert_int_equal(wgp_model_load_file(WGPERF_SOURCE_DIR "/test/unit/data/matmul_tiled.plugin.json", &mm, &d), WGP_OK);
  for (int64_t n = 64; n <= 512; n *= 2) {
    wgp_analysis_input in = {0};
    in.kernel = wgp_model_find_kernel(mm, "matmul_tiled");
    assert_non_null(in.kernel);
    in.gpu = h100;
    in.launch = (wgp_trace_launch){2, {(uint64_t)n, (uint64_t)n, 1}, {16, 16, 1}, {0, 0, 0}, 0, arg_N, &n};
    wgp_analysis *a;
    assert_int_equal(wgp_analyze(&in, &a, &d), WGP_OK);
    double n3 = (double)n * (double)n * (double)n, lanes = 32; /* every lane of every warp is active */
    assert_true(wgp_analysis_dynamic_count(a, "ld.local.32") * lanes == 2 * n3);
    assert_true(wgp_analysis_dynamic_count(a, "st.local.32") * lanes == 2 * n3 / 16);
    assert_true(wgp_analysis_dynamic_count(a, "ld.global.32") * lanes == 2 * n3 / 16);
    assert_true(wgp_analysis_dynamic_count(a, "fp32_fma") * lanes == n3);
    wgp_analysis_free(a);
  }
  wgp_model_free(mm);
}

/* ---- request costs kept from one request to the next ---------------------
 * The metrics visitor keeps each access's last request and its cost (by its
 * lanes' address offsets, or within a warp by its affine form) and reuses
 * the cost when a request repeats up to a translation.  A reference visitor
 * that computes every request from scratch must see the same totals, over
 * every warp of several groups traced with one tracer and one metrics (what
 * is kept crosses warps and groups). */
typedef struct named_args {
  const char *names[4];
  int64_t values[4];
} named_args;

static wgp_eval_status lookup_named(void *user, const wgp_sym *sym, int64_t *value, char *reason, size_t size) {
  const named_args *t = user;
  if (sym->kind == WGP_SYM_ARG)
    for (int i = 0; i < 4 && t->names[i]; i++)
      if (strcmp(t->names[i], sym->name) == 0) {
        *value = t->values[i];
        return WGP_EVAL_OK;
      }
  snprintf(reason, size, "no value");
  return WGP_EVAL_UNKNOWN;
}

typedef struct reference {
  const wgp_kernel *k;
  const wgp_gpu *gpu;
  const wgp_layout *layout;
  wgp_mem_stats *s;
  size_t forms;   /* requests whose offset came as a form */
  size_t outside; /* requests with a lane outside its __local array */
} reference;

static void reference_visit(void *user, size_t block, uint64_t mask, double weight, double mult, wgp_tracer *t) {
  reference *r = user;
  const wgp_block *b = wgp_kernel_block(r->k, block);
  unsigned lanes = wgp_gpu_warp_size(r->gpu);
  double f = weight * mult;
  for (size_t i = 0; i < wgp_block_num_accesses(b); i++) {
    size_t id = wgp_block_access(b, i);
    const wgp_access *a = wgp_kernel_access(r->k, id);
    wgp_mem_stats *s = &r->s[id];
    uint64_t addr[WGP_TRACE_MAX_WARP];
    uint64_t known = wgp_access_addresses(r->layout, r->k, lanes, t, a, mask, addr);
    /* the form, where there is one, gives every lane's offset */
    const wgp_expr *off = wgp_access_offset(a);
    if (off) {
      int64_t v[WGP_TRACE_MAX_WARP], w[WGP_TRACE_MAX_WARP], form[WGP_TRACE_FORM_TERMS], lo, hi;
      uint64_t ok_v = wgp_tracer_eval_warp(t, off, mask, v), ok_w = 0;
      if (wgp_tracer_eval_warp_form(t, off, mask, w, &ok_w, form)) {
        r->forms++;
        assert_true(ok_v == mask);
        wgp_tracer_form_values(t, form, mask, w);
        assert_true(wgp_tracer_form_span(t, form, &lo, &hi));
        for (unsigned l = 0; l < lanes; l++)
          if (mask >> l & 1) {
            assert_true(w[l] == v[l]);
            assert_true(lo <= v[l] && v[l] <= hi);
          }
      } else {
        assert_true(ok_w == ok_v);
        for (unsigned l = 0; l < lanes; l++)
          if (ok_v >> l & 1)
            assert_true(w[l] == v[l]);
      }
    }
    unsigned bytes = (unsigned)wgp_access_bytes(a), active = (unsigned)__builtin_popcountll(mask);
    s->executions += f;
    s->lane_bytes += f * active * bytes;
    if (known != mask)
      s->unknown += f;
    s->requests += f;
    double c[3] = {0, 0, 0};
    switch (wgp_access_space(a)) {
    case WGP_SPACE_LOCAL: {
      /* a known lane's bytes outside its array (of known size) */
      uint64_t limit = wgp_layout_access_limit(r->layout, id), start = wgp_layout_access_base(r->layout, r->k, id);
      double reach = 0;
      for (unsigned l = 0; limit && l < lanes; l++)
        if (known >> l & 1) {
          if (addr[l] < start)
            reach = fmax(reach, (double)(start - addr[l]));
          if ((double)addr[l] + bytes > (double)start + (double)limit)
            reach = fmax(reach, (double)addr[l] + bytes - ((double)start + (double)limit));
        }
      if (reach > 0) {
        s->outside += f;
        s->outside_reach = fmax(s->outside_reach, reach);
        r->outside++;
      }
      wgp_count_shared_for(r->gpu, addr, mask, lanes, bytes, &c[0], &c[1], &c[2]);
      s->wavefronts += f * c[0];
      s->phases += f * c[1];
      if (c[2] > s->worst_degree)
        s->worst_degree = c[2];
      break;
    }
    case WGP_SPACE_CONSTANT:
      s->wavefronts += f * wgp_count_distinct(addr, mask, lanes);
      break;
    default:
      wgp_count_global(addr, mask, lanes, bytes, wgp_gpu_l2_sector_bytes(r->gpu), wgp_gpu_l1_line_bytes(r->gpu), &c[0],
                       &c[1]);
      s->sectors += f * c[0];
      s->lines += f * c[1];
      s->wavefronts += f * (wgp_counter_rules_for(r->gpu) == WGP_RULES_MAXWELL && wgp_access_get_kind(a) == WGP_ACCESS_STORE
                                ? wgp_count_gst_transactions(WGP_RULES_MAXWELL, addr, mask, lanes, bytes)
                                : c[1]);
      break;
    }
  }
}

/* Traces every warp of groups 0-2 (and the last group) with VISIT installed. */
static void trace_groups(const wgp_kernel *k, const wgp_trace_launch *L, wgp_trace_visit visit, void *user,
                         wgp_metrics *m) {
  wgp_tracer *t;
  wgp_diag d;
  assert_int_equal(wgp_tracer_new(k, L, &t, &d), WGP_OK);
  if (m)
    wgp_metrics_attach(m, t);
  else
    wgp_tracer_set_visitor(t, visit, user);
  uint64_t groups[3], items = 1;
  for (unsigned i = 0; i < 3; i++) {
    groups[i] = L->global[i] / L->local[i];
    items *= L->local[i];
  }
  size_t warps = (size_t)((items + L->warp_size - 1) / L->warp_size);
  uint64_t last[3] = {groups[0] - 1, groups[1] - 1, groups[2] - 1};
  const uint64_t *which[4] = {(uint64_t[3]){0, 0, 0}, (uint64_t[3]){1 % groups[0], 0, 0},
                              (uint64_t[3]){0, 1 % groups[1], 0}, last};
  for (int g = 0; g < 4; g++)
    for (size_t w = 0; w < warps; w++) {
      wgp_trace *tr;
      assert_int_equal(wgp_tracer_trace(t, which[g], w, &tr, &d), WGP_OK);
      wgp_trace_free(tr);
    }
  wgp_tracer_free(t);
}

static void test_request_costs_kept(void **state) {
  (void)state;
  wgp_diag d;
  wgp_model *mm;
  assert_int_equal(wgp_model_load_file(WGPERF_SOURCE_DIR "/test/unit/data/matmul_tiled.plugin.json", &mm, &d), WGP_OK);
  wgp_model *fm;
  assert_int_equal(wgp_model_load_file(WGPERF_SOURCE_DIR "/test/unit/data/footprint_kernels.json", &fm, &d), WGP_OK);
  const wgp_model *fk = fm;
  wgp_model *memo_model;
  assert_int_equal(wgp_model_load_file(WGPERF_SOURCE_DIR "/test/unit/data/memo_kernels.json", &memo_model, &d), WGP_OK);
  const wgp_model *km = memo_model;
  wgp_gpu *kepler;
  assert_int_equal(wgp_gpu_load_builtin("gtx-680", &kepler, &d), WGP_OK);
  named_args args256 = {{"w", "n", "h", "N"}, {256, 100, 256, 256}}, odd = {{"w", "n", "h", "N"}, {33, 7, 48, 48}},
             w32 = {{"w", NULL}, {32}};
  struct {
    const wgp_model *model;
    const char *kernel;
    unsigned dims;
    uint64_t global[2], local[2];
    named_args *args;
  } cases[] = {
      {NULL, "coalesced", 1, {4096, 1}, {256, 1}, &args256},
      {NULL, "stride2", 1, {4096, 1}, {96, 1}, &args256},
      {NULL, "column", 1, {4096, 1}, {256, 1}, &odd},
      {NULL, "vec4", 1, {4096, 1}, {64, 1}, &args256},
      {NULL, "shared2", 1, {1024, 1}, {32, 1}, &args256},
      {NULL, "shared33", 1, {1024, 1}, {32, 1}, &args256},
      {NULL, "shared_double", 1, {1024, 1}, {32, 1}, &args256},
      {NULL, "constant_lane", 1, {1024, 1}, {64, 1}, &args256},
      {NULL, "loop_column", 1, {4096, 1}, {256, 1}, &args256},
      {NULL, "loop_column", 1, {4096, 1}, {48, 1}, &odd},
      {NULL, "transpose2d", 2, {256, 256}, {16, 16}, &args256},
      {NULL, "transpose2d", 2, {48, 48}, {12, 8}, &odd},
      {mm, "matmul_tiled", 2, {256, 256}, {16, 16}, &args256},
      {mm, "matmul_tiled", 2, {48, 48}, {8, 8}, &odd},
      {mm, "matmul_tiled", 2, {256, 256}, {32, 4}, &args256},
      {mm, "matmul_tiled", 2, {96, 96}, {24, 4}, &odd}, /* warps of different lane patterns */
      {fk, "tri", 2, {64, 64}, {16, 4}, &args256},      /* lanes leave a loop one by one */
      {fk, "divmod", 1, {4096, 1}, {128, 1}, &odd},     /* offsets that are no form */
      {fk, "gather", 1, {4096, 1}, {128, 1}, &odd},     /* unknown offsets */
      {fk, "evenodd", 1, {4096, 1}, {96, 1}, &args256},
      {km, "interleaved", 1, {4096, 1}, {256, 1}, &args256}, /* the form's multiples change */
      {km, "lane_trips", 1, {4096, 1}, {64, 1}, &w32},        /* the active lanes change */
      {km, "shared_shift", 1, {1024, 1}, {32, 1}, &args256},  /* Kepler: conflicts change with a 128 B move */
  };
  size_t forms = 0, outside = 0;
  const wgp_gpu *gpus[2] = {h100, kepler};
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++)
    for (int g = 0; g < 2; g++) {
      const wgp_kernel *k = wgp_model_find_kernel(cases[c].model ? cases[c].model : model, cases[c].kernel);
      assert_non_null(k);
      wgp_trace_launch L = {cases[c].dims,
                            {cases[c].global[0], cases[c].global[1], 1},
                            {cases[c].local[0], cases[c].local[1], 1},
                            {0, 0, 0},
                            wgp_gpu_warp_size(gpus[g]),
                            lookup_named,
                            cases[c].args};
      uint64_t local_bytes[8] = {0};
      for (size_t i = 0; i < wgp_kernel_num_args(k) && i < 8; i++)
        local_bytes[i] = 4096;
      wgp_layout *layout;
      assert_int_equal(wgp_layout_new(k, NULL, local_bytes, &layout, &d), WGP_OK);
      wgp_metrics *m;
      assert_int_equal(wgp_metrics_new(k, gpus[g], layout, &m, &d), WGP_OK);
      trace_groups(k, &L, NULL, NULL, m);
      wgp_mem_stats *kept = malloc((wgp_metrics_num_accesses(m) + 1) * sizeof *kept);
      assert_non_null(kept);
      wgp_metrics_take_into(m, kept);
      reference r = {k, gpus[g], layout, calloc(wgp_kernel_num_accesses(k) + 1, sizeof(wgp_mem_stats)), 0, 0};
      trace_groups(k, &L, reference_visit, &r, NULL);
      forms += r.forms;
      outside += r.outside;
      for (size_t i = 0; i < wgp_kernel_num_accesses(k); i++) {
        const wgp_mem_stats *x = &kept[i], *y = &r.s[i];
        if (x->executions != y->executions || x->requests != y->requests || x->sectors != y->sectors ||
            x->lines != y->lines || x->wavefronts != y->wavefronts || x->phases != y->phases ||
            x->worst_degree != y->worst_degree || x->lane_bytes != y->lane_bytes || x->unknown != y->unknown ||
            x->outside != y->outside || x->outside_reach != y->outside_reach)
          fail_msg("%s %llux%llu on %s, access M%zu: kept costs %g sectors %g lines %g wavefronts %g phases, "
                   "computed %g %g %g %g",
                   cases[c].kernel, (unsigned long long)cases[c].local[0], (unsigned long long)cases[c].local[1],
                   wgp_gpu_name(gpus[g]), i, x->sectors, x->lines, x->wavefronts, x->phases, y->sectors, y->lines,
                   y->wavefronts, y->phases);
        assert_true(x->requests > 0);
      }
      free(kept);
      free(r.s);
      wgp_metrics_free(m);
      wgp_layout_free(layout);
    }
  assert_true(forms > 1000); /* the affine path was taken */
  assert_true(outside > 0);  /* matmul_tiled's 16x16 tiles at 32x4 and 24x4: lanes outside */
  wgp_gpu_free(kepler);
  wgp_model_free(mm);
  wgp_model_free(fm);
  wgp_model_free(memo_model);
}

/* stop_outside_local: a launch whose lanes leave a __local array ends at
 * the first warp that shows it (partial, that warp counted); one whose lanes
 * stay inside is analysed exactly as without the option. */
static void test_stop_at_outside_local(void **state) {
  (void)state;
  wgp_diag d;
  wgp_model *mm;
  assert_int_equal(wgp_model_load_file(WGPERF_SOURCE_DIR "/test/unit/data/matmul_tiled.plugin.json", &mm, &d), WGP_OK);
  const wgp_kernel *k = wgp_model_find_kernel(mm, "matmul_tiled");
  named_args n256 = {{"N", NULL}, {256}};
  uint64_t locals[3][2] = {{32, 4}, {16, 16}, {8, 8}};
  for (int i = 0; i < 3; i++) {
    wgp_analysis *a[2];
    for (int stop = 0; stop < 2; stop++) {
      wgp_analysis_input in = {0};
      in.kernel = k;
      in.gpu = h100;
      in.launch = (wgp_trace_launch){2, {256, 256, 1}, {locals[i][0], locals[i][1], 1}, {0, 0, 0}, 0, lookup_named,
                                     &n256};
      in.stop_outside_local = stop;
      assert_int_equal(wgp_analyze(&in, &a[stop], &d), WGP_OK);
    }
    double out[2] = {0, 0};
    for (int stop = 0; stop < 2; stop++)
      for (size_t j = 0; j < wgp_kernel_num_accesses(k); j++)
        out[stop] += wgp_analysis_total_stats(a[stop])[j].outside;
    const wgp_warp_set *w0 = wgp_analysis_warps(a[0]), *w1 = wgp_analysis_warps(a[1]);
    assert_false(wgp_analysis_partial(a[0]));
    if (i == 0) { /* 32 wide: past the 16x16 tiles */
      assert_true(out[0] > 0 && out[1] > 0);
      assert_true(wgp_analysis_partial(a[1]));
      assert_true(wgp_warp_set_traced(w1) < wgp_warp_set_traced(w0));
    } else {
      assert_true(out[0] == 0 && out[1] == 0);
      assert_false(wgp_analysis_partial(a[1]));
      assert_int_equal(wgp_warp_set_traced(w1), wgp_warp_set_traced(w0));
      assert_int_equal(wgp_warp_set_size(w1), wgp_warp_set_size(w0));
      for (size_t j = 0; j < wgp_kernel_num_accesses(k); j++)
        assert_memory_equal(&wgp_analysis_total_stats(a[0])[j], &wgp_analysis_total_stats(a[1])[j],
                            sizeof(wgp_mem_stats));
    }
    wgp_analysis_free(a[0]);
    wgp_analysis_free(a[1]);
  }
  wgp_model_free(mm);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_fallbacks_listed),        cmocka_unit_test(test_seed000_tiled_matmul_counts),
      cmocka_unit_test(test_global_coalescing),
      cmocka_unit_test(test_maxwell_store_passes),       cmocka_unit_test(test_shared_bank_conflicts),
      cmocka_unit_test(test_constant_serialization),  cmocka_unit_test(test_loop_accesses_counted_per_iteration),
      cmocka_unit_test(test_counting_rules_directly),   cmocka_unit_test(test_against_brute_force),
      cmocka_unit_test(test_request_costs_kept),
      cmocka_unit_test(test_stop_at_outside_local),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
