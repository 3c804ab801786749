/* test_warps.c - distinct warps of a launch and the choice of groups. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wgperf/model.h"
#include "wgperf/warps.h"

static wgp_model *model;
static int64_t arg_n;

static wgp_eval_status args(void *user, const wgp_sym *sym, int64_t *value, char *reason, size_t size) {
  (void)user;
  if (sym->kind == WGP_SYM_ARG && strcmp(sym->name, "n") == 0) {
    *value = arg_n;
    return WGP_EVAL_OK;
  }
  if (sym->kind == WGP_SYM_ARG && (strcmp(sym->name, "w") == 0 || strcmp(sym->name, "h") == 0)) {
    *value = 4096;
    return WGP_EVAL_OK;
  }
  snprintf(reason, size, "no value");
  return WGP_EVAL_UNKNOWN;
}

static int setup(void **state) {
  wgp_diag d;
  (void)state;
  return wgp_model_load_file(WGPERF_SOURCE_DIR "/test/unit/data/trace_kernels.json", &model, &d) == WGP_OK ? 0 : -1;
}

static int teardown(void **state) {
  (void)state;
  wgp_model_free(model);
  return 0;
}

static wgp_warp_set *build(const char *kernel, uint64_t global, uint64_t local) {
  const wgp_kernel *k = wgp_model_find_kernel(model, kernel);
  assert_non_null(k);
  static wgp_trace_launch L;
  L = (wgp_trace_launch){1, {global, 1, 1}, {local, 1, 1}, {0, 0, 0}, 32, args, NULL};
  wgp_tracer *t;
  wgp_diag d;
  assert_int_equal(wgp_tracer_new(k, &L, &t, &d), WGP_OK);
  wgp_warp_set *s;
  assert_int_equal(wgp_warp_set_build(t, k, &L, NULL, &s, &d), WGP_OK);
  wgp_tracer_free(t);
  return s;
}

static void test_bounds_check_uses_edge_groups(void **state) {
  (void)state;
  arg_n = 1000;
  /* 16 groups of 64: groups 0, 8 (for 14) and 15 are traced; the last
   * group's second warp has 8 of 32 lanes below n */
  wgp_warp_set *s = build("vadd", 1024, 64);
  assert_int_equal(wgp_warp_set_how(s), WGP_GROUPS_EDGES);
  assert_int_equal(wgp_warp_set_traced(s), 6);
  assert_true(wgp_warp_set_total(s) == 32.0);
  assert_int_equal(wgp_warp_set_size(s), 2);
  double full = 0, partial = 0;
  for (size_t i = 0; i < wgp_warp_set_size(s); i++) {
    const wgp_warp_class *c = wgp_warp_set_class(s, i);
    const wgp_tnode *last = wgp_trace_node(c->trace, 1);
    if (wgp_tnode_mask(last) == 0xff)
      partial += c->count;
    else
      full += c->count;
  }
  assert_true(full == 31.0 && partial == 1.0);
  wgp_warp_set_free(s);
}

/* The bounds check with n well inside the grid: the interior is not alike
 * (groups below n, the one across it, groups past it), so it is split where
 * the branch changes, and every warp is counted as the class it belongs to.
 * The middle group alone (the edge rule) stood for 62 groups doing nothing
 * and gave 2 warps of work for 31 (test of the fix). */
static void test_bounds_check_inside_the_grid_splits(void **state) {
  (void)state;
  for (int64_t n = 1; n <= 4096; n = n * 3 + 7) {
    arg_n = n;
    /* 64 groups of 64, 2 warps each */
    wgp_warp_set *s = build("vadd", 4096, 64);
    const wgp_kernel *k = wgp_model_find_kernel(model, "vadd");
    size_t store = wgp_access_block(wgp_kernel_access(k, wgp_kernel_num_accesses(k) - 1)); /* c[i] = */
    double working = 0, lanes = 0, total = 0;
    for (size_t i = 0; i < wgp_warp_set_size(s); i++) {
      const wgp_warp_class *c = wgp_warp_set_class(s, i);
      total += c->count;
      working += c->count * wgp_trace_block_executions(c->trace, store);
      lanes += c->count * wgp_trace_lane_executions(c->trace, store);
    }
    int64_t in = n < 4096 ? n : 4096;
    assert_true(total == 128.0);
    assert_true(working == (double)((in + 31) / 32));
    assert_true(lanes == (double)in);
    /* split only where groups 1 and 62 differ */
    bool inside = n > 64 && n < 63 * 64;
    assert_int_equal(wgp_warp_set_how(s), inside ? WGP_GROUPS_SPLIT : WGP_GROUPS_EDGES);
    wgp_warp_set_free(s);
  }
}

/* Conditions taken as monotone in the group id that are not (a product
 * that wraps): the first group, groups 1 + 2^j for even j and for odd j
 * each take another path, so every probe of the bisection differs from
 * both neighbours and from group 1, the probes are spent before any stretch
 * is resolved, and every run and every gap between runs becomes a pick (one
 * more than the lists had room for: found by fuzz.smoke.estimate). The
 * picks still count every group once. */
static char *replace(const char *text, const char *from, const char *to) {
  const char *at = strstr(text, from);
  assert_non_null(at);
  size_t size = strlen(text) - strlen(from) + strlen(to) + 1;
  char *out = malloc(size);
  assert_non_null(out);
  snprintf(out, size, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
  return out;
}

static void test_scrambled_conditions_spend_all_probes(void **state) {
  (void)state;
  FILE *f = fopen(WGPERF_SOURCE_DIR "/test/unit/data/footprint_kernels.json", "rb");
  assert_non_null(f);
  static char text[1 << 20];
  size_t len = fread(text, 1, sizeof text - 1, f);
  fclose(f);
  text[len] = 0;
  char *one = replace(text, "\"(sgt:32 (trunc:64:32 gid.x) 0)\"", "\"(sgt grp.x 1)\"");
  char *two = replace(one,
                      "\"(umin:1 (sgt:32 (add:32 -1 arg.w) (trunc:64:32 gid.x)) (sgt:32 (trunc:64:32 gid.y) 0) "
                      "(sgt:32 (add:32 -1 arg.h) (trunc:64:32 gid.y)))\"",
                      "\"(slt:32 (mul:32 (trunc:64:32 (sub grp.x 1)) 1431655765) 0)\"");
  wgp_model *m;
  wgp_diag d;
  assert_int_equal(wgp_model_load_string(two, strlen(two), "scrambled.json", &m, &d), WGP_OK);
  free(one);
  free(two);
  const wgp_kernel *k = wgp_model_find_kernel(m, "stencil5");
  assert_non_null(k);
  /* 2^31 + 3 groups of one warp in x */
  uint64_t groups = (UINT64_C(1) << 31) + 3;
  wgp_trace_launch L = {1, {groups * 32, 1, 1}, {32, 1, 1}, {0, 0, 0}, 32, args, NULL};
  wgp_tracer *t;
  assert_int_equal(wgp_tracer_new(k, &L, &t, &d), WGP_OK);
  wgp_warp_set *s;
  assert_int_equal(wgp_warp_set_build(t, k, &L, NULL, &s, &d), WGP_OK);
  assert_int_equal(wgp_warp_set_how(s), WGP_GROUPS_SPLIT);
  assert_true(wgp_warp_set_total(s) == (double)groups);
  /* the first and last group, 26 probed runs and 25 gaps between them */
  assert_int_equal(wgp_warp_set_traced(s), 2 + (WGP_WARPS_SPLIT_PROBES + 2) + (WGP_WARPS_SPLIT_PROBES + 1));
  assert_int_equal(wgp_warp_set_size(s), 3);
  wgp_warp_set_free(s);
  wgp_tracer_free(t);
  wgp_model_free(m);
}

static void test_group_independent_kernel_traces_one_group(void **state) {
  (void)state;
  /* reduce: control flow does not use the group id; 10 groups of 256 */
  wgp_warp_set *s = build("reduce", 2560, 256);
  assert_int_equal(wgp_warp_set_how(s), WGP_GROUPS_ONE);
  assert_int_equal(wgp_warp_set_traced(s), 8);
  assert_true(wgp_warp_set_total(s) == 80.0);
  /* warp 0, warp 1, warps 2-3 (active only while s = 128), warps 4-7 */
  assert_int_equal(wgp_warp_set_size(s), 4);
  wgp_warp_set_free(s);
}

static void test_group_dependence_classes(void **state) {
  (void)state;
  struct { const char *text; int dep; } cases[] = {
      {"(slt:32 (trunc:64:32 gid.x) arg.n)", 1},
      {"(slt:32 lid.x 4)", 0},
      {"(eq (urem grp.x 2) 0)", 2},
      {"(eq (and grp.y 1) 0)", 2},
      {"(sgt (add (mul grp.x lsz.x) lid.x) 0)", 1},
      {"(ult it.L0 arg.n)", 0},
      {"(slt (udiv (add gid.x lsz.x) (mul ngrp.x lsz.x)) arg.n)", 1},
      {"(slt (lshr grp.x 2) arg.n)", 1},
      {"(slt (udiv arg.n grp.x) 3)", 2},
      /* ty == 0 && by == 0 as clang folds it: (ty | by) == 0, each operand compared with 0 */
      {"(eq:32 (or:32 (trunc:64:32 lid.y) (trunc:64:32 grp.y)) 0)", 1},
      {"(ne 0 (or grp.x (or lid.x (add grp.y 1))))", 1},
      {"(eq (or (urem grp.x 2) lid.x) 0)", 2},
      {"(eq (or grp.x lid.x) 3)", 2},
      {"(and grp.x lid.x)", 2},
      /* conditions combined (1 bit) */
      {"(and:1 (slt grp.x arg.n) (eq lid.x 0))", 1},
      {"(or:1 (slt grp.x arg.n) (eq (urem grp.y 3) 0))", 2},
      /* a condition that needs a loaded value is a fallback in every group
       * alike, whatever the group id does to its other operands (the radix
       * sort's digit compare: a masked key chosen by a bounds check) */
      {"(not (eq:32 (load M15) (and:32 (select (slt:32 grp.x arg.n) (load M2) 1073741823) 15)))", 0},
      {"(slt:32 (and:32 (load M2) (urem grp.x 7)) 3)", 0},
      /* the evaluator takes an arm whose condition it knows: still the group's */
      {"(slt:32 (select (slt:32 grp.x arg.n) (load M2) 0) 5)", 1},
      {"(slt:32 (select (eq (urem grp.x 2) 0) (load M2) 0) 5)", 2},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    wgp_expr *e;
    wgp_diag d;
    assert_int_equal(wgp_expr_parse(cases[i].text, &e, &d), WGP_OK);
    assert_int_equal(wgp_expr_group_dependence(e), cases[i].dep);
    wgp_expr_free(e);
  }
}

/* Warp-level executions of kernel K's global loads over LAUNCH's warp set:
 * each class's trace counts its blocks, times the warps it stands for. */
static double load_executions(const wgp_kernel *k, const wgp_trace_launch *L, size_t *traced) {
  wgp_tracer *t;
  wgp_diag d;
  assert_int_equal(wgp_tracer_new(k, L, &t, &d), WGP_OK);
  wgp_warp_set *s;
  assert_int_equal(wgp_warp_set_build(t, k, L, NULL, &s, &d), WGP_OK);
  double n = 0;
  for (size_t i = 0; i < wgp_kernel_num_accesses(k); i++) {
    const wgp_access *a = wgp_kernel_access(k, i);
    if (wgp_access_get_kind(a) != WGP_ACCESS_LOAD)
      continue;
    for (size_t c = 0; c < wgp_warp_set_size(s); c++) {
      const wgp_warp_class *wc = wgp_warp_set_class(s, c);
      n += wc->count * wgp_trace_block_executions(wc->trace, wgp_access_block(a));
    }
  }
  if (traced)
    *traced = wgp_warp_set_traced(s);
  wgp_warp_set_free(s);
  wgp_tracer_free(t);
  return n;
}

/* for (j = 0; j < gid; ++j) s += a[j]: warp w runs to its last lane's count,
 * 32 w + 31, so the launch's warp-level executions of the load are the sum
 * of those, exactly, at -O1 (one loop) and at -O3 (an 8-way unrolled loop,
 * floor(gid / 8) iterations, and a remainder loop of gid mod 8, which each
 * warp runs to 7 after the unrolled loop's exit).  Interior groups alike in
 * control flow are stood for by the run's two central groups when the run
 * is even: the upper one alone counted half a group too many per group
 * (268032 at -O1 for 4096 work-items in groups of 64; 260224 at -O3, whose
 * interior was split). */
static void test_lane_affine_counts_are_exact(void **state) {
  (void)state;
  static const char *files[] = {WGPERF_SOURCE_DIR "/test/unit/data/tri_kernels.O1.json",
                                WGPERF_SOURCE_DIR "/test/unit/data/tri_kernels.O3.json"};
  static const uint64_t sizes[][2] = {{4096, 64}, {4096, 32}, {4096, 128}, {8192, 256}, {3008, 64}, {1024, 1024},
                                      {96, 32}};
  for (size_t f = 0; f < 2; f++) {
    wgp_model *m;
    wgp_diag d;
    assert_int_equal(wgp_model_load_file(files[f], &m, &d), WGP_OK);
    const wgp_kernel *k = wgp_model_find_kernel(m, "tri_prefix");
    assert_non_null(k);
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
      wgp_trace_launch L = {1, {sizes[i][0], 1, 1}, {sizes[i][1], 1, 1}, {0, 0, 0}, 32, args, NULL};
      double exact = 0;
      for (uint64_t w = 0; w < sizes[i][0] / 32; w++)
        exact += (double)(32 * w + 31);
      double got = load_executions(k, &L, NULL);
      if (got != exact)
        fail_msg("%s, %llu work-items in groups of %llu: %.0f executions, exactly %.0f", files[f],
                 (unsigned long long)sizes[i][0], (unsigned long long)sizes[i][1], got, exact);
    }
    /* the launch: 264064 */
    wgp_trace_launch L = {1, {4096, 1, 1}, {64, 1, 1}, {0, 0, 0}, 32, args, NULL};
    assert_true(load_executions(k, &L, NULL) == 264064.0);
    /* rows: the count is gid.y; groups of 32x4 (a warp is one row of a group) */
    const wgp_kernel *k2 = wgp_model_find_kernel(m, "tri_rows");
    assert_non_null(k2);
    wgp_trace_launch L2 = {2, {256, 512, 1}, {32, 4, 1}, {0, 0, 0}, 32, args, NULL};
    double exact = 0;
    for (uint64_t y = 0; y < 512; y++)
      exact += 8.0 * (double)y; /* 8 warps per row */
    double got = load_executions(k2, &L2, NULL);
    if (got != exact)
      fail_msg("%s tri_rows: %.0f executions, exactly %.0f", files[f], got, exact);
    wgp_model_free(m);
  }
}

/* A loop whose count does not depend on the group id keeps one central
 * group per run: no more groups are traced than before. */
static void test_group_independent_counts_keep_one_central_group(void **state) {
  (void)state;
  arg_n = 5000;
  /* vadd: a bounds check past the grid, no loop; 64 groups: the first, 1
   * central, the last (2 warps each) */
  wgp_warp_set *s = build("vadd", 4096, 64);
  assert_int_equal(wgp_warp_set_traced(s), 6);
  wgp_warp_set_free(s);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_bounds_check_uses_edge_groups),
      cmocka_unit_test(test_bounds_check_inside_the_grid_splits),
      cmocka_unit_test(test_scrambled_conditions_spend_all_probes),
      cmocka_unit_test(test_group_independent_kernel_traces_one_group),
      cmocka_unit_test(test_group_dependence_classes),
      cmocka_unit_test(test_lane_affine_counts_are_exact),
      cmocka_unit_test(test_group_independent_counts_keep_one_central_group),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
