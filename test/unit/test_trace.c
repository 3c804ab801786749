/* test_trace.c - per-warp traces on kernels extracted by the real plugin
 * (test/unit/data/trace_kernels.cl -> trace_kernels.json). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_data.h"
#include "wgperf/model.h"
#include "wgperf/trace.h"

static wgp_model *model;

typedef struct argv_table {
  const char *names[4];
  int64_t values[4];
} argv_table;

static wgp_eval_status args(void *user, const wgp_sym *sym, int64_t *value, char *reason, size_t size) {
  const argv_table *t = user;
  if (sym->kind == WGP_SYM_ARG)
    for (int i = 0; i < 4 && t->names[i]; i++)
      if (strcmp(t->names[i], sym->name) == 0) {
        *value = t->values[i];
        return WGP_EVAL_OK;
      }
  snprintf(reason, size, "no value");
  return sym->kind == WGP_SYM_ARG ? WGP_EVAL_ERROR : WGP_EVAL_UNKNOWN;
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

/* The first block whose counts include CLASS. */
static size_t block_with(const wgp_kernel *k, const char *cls) {
  for (size_t b = 0; b < wgp_kernel_num_blocks(k); b++)
    if (wgp_block_count_of(wgp_kernel_block(k, b), cls))
      return b;
  fail_msg("no block with %s", cls);
  return 0;
}

static wgp_trace *trace1(const char *kernel, uint64_t global, uint64_t local, argv_table *tab, uint64_t group,
                         size_t warp, wgp_tracer **tracer_out) {
  const wgp_kernel *k = wgp_model_find_kernel(model, kernel);
  assert_non_null(k);
  static wgp_trace_launch L;
  L = (wgp_trace_launch){1, {global, 1, 1}, {local, 1, 1}, {0, 0, 0}, 32, args, tab};
  wgp_tracer *t;
  wgp_diag d;
  assert_int_equal(wgp_tracer_new(k, &L, &t, &d), WGP_OK);
  wgp_trace *tr;
  uint64_t g[3] = {group, 0, 0};
  assert_int_equal(wgp_tracer_trace(t, g, warp, &tr, &d), WGP_OK);
  if (tracer_out)
    *tracer_out = t;
  else
    wgp_tracer_free(t);
  return tr;
}

static void test_vadd_divergence(void **state) {
  (void)state;
  argv_table tab = {{"n"}, {100}};
  const wgp_kernel *k = wgp_model_find_kernel(model, "vadd");
  size_t body = block_with(k, "st.global.32");
  /* group 1, warp 1: global ids 96..127, of which 96..99 are below n */
  wgp_trace *tr = trace1("vadd", 128, 64, &tab, 1, 1, NULL);
  assert_true(wgp_trace_block_executions(tr, body) == 1.0);
  assert_true(wgp_trace_lane_executions(tr, body) == 4.0);
  assert_true(wgp_trace_lane_executions(tr, 0) == 32.0);
  assert_int_equal(wgp_trace_flags(tr), 0);
  /* group 1, warp 0: ids 64..95, all active */
  wgp_trace *tr0 = trace1("vadd", 128, 64, &tab, 1, 0, NULL);
  assert_true(wgp_trace_lane_executions(tr0, body) == 32.0);
  assert_false(wgp_trace_equal(tr, tr0));
  /* the same warp twice: equal traces, equal hashes */
  wgp_trace *again = trace1("vadd", 128, 64, &tab, 1, 1, NULL);
  assert_true(wgp_trace_equal(tr, again));
  assert_true(wgp_trace_hash(tr) == wgp_trace_hash(again));
  wgp_trace_free(tr);
  wgp_trace_free(tr0);
  wgp_trace_free(again);
}

static void test_nonuniform_last_group(void **state) {
  (void)state;
  argv_table tab = {{"n"}, {1000}};
  const wgp_kernel *k = wgp_model_find_kernel(model, "vadd");
  size_t body = block_with(k, "st.global.32");
  /* global 100, local 64: the last group has 36 work-items, so its second
   * warp has 4 lanes, all below n */
  wgp_trace *tr = trace1("vadd", 100, 64, &tab, 1, 1, NULL);
  assert_true(wgp_trace_lane_executions(tr, 0) == 4.0);
  assert_true(wgp_trace_lane_executions(tr, body) == 4.0);
  wgp_trace_free(tr);
}

static void test_reduction_halving(void **state) {
  (void)state;
  argv_table tab = {{NULL}, {0}};
  const wgp_kernel *k = wgp_model_find_kernel(model, "reduce");
  size_t add = block_with(k, "fp32_add");
  /* s = 128, 64, ..., 1: warp 0 has 32 lanes active while s >= 32, then s */
  wgp_trace *w0 = trace1("reduce", 256, 256, &tab, 0, 0, NULL);
  assert_true(wgp_trace_block_executions(w0, add) == 8.0);
  assert_true(wgp_trace_lane_executions(w0, add) == 3 * 32 + 16 + 8 + 4 + 2 + 1);
  /* warp 1 (lanes 32..63) takes part only while s is 128 and 64 */
  wgp_trace *w1 = trace1("reduce", 256, 256, &tab, 0, 1, NULL);
  assert_true(wgp_trace_block_executions(w1, add) == 2.0);
  assert_true(wgp_trace_lane_executions(w1, add) == 64.0);
  assert_int_equal(wgp_trace_flags(w0) & ~0u, 0);
  wgp_trace_free(w0);
  wgp_trace_free(w1);
}

static void test_triangular_exact_and_sampled(void **state) {
  (void)state;
  const wgp_kernel *k = wgp_model_find_kernel(model, "tri");
  size_t inner = block_with(k, "fp32_add");
  argv_table small = {{"n"}, {10}};
  wgp_trace *tr = trace1("tri", 32, 32, &small, 0, 0, NULL);
  assert_true(wgp_trace_block_executions(tr, inner) == 55.0);
  assert_int_equal(wgp_trace_flags(tr) & WGP_TRACE_SAMPLED, 0);
  wgp_trace_free(tr);
  /* n = 10^6: 5*10^11 inner iterations, still exact, and the trace stays small */
  argv_table big = {{"n"}, {1000000}};
  tr = trace1("tri", 32, 32, &big, 0, 0, NULL);
  assert_true(wgp_trace_block_executions(tr, inner) == 500000500000.0);
  assert_true(wgp_trace_flags(tr) & WGP_TRACE_SAMPLED);
  assert_true(wgp_trace_size(tr) < 2000);
  wgp_trace_free(tr);
}

static void test_loop_variable_branch(void **state) {
  (void)state;
  const wgp_kernel *k = wgp_model_find_kernel(model, "evenodd");
  size_t then_b = block_with(k, "barrier"), else_b = block_with(k, "fp32_mul");
  argv_table tab = {{"n"}, {1000}};
  wgp_trace *tr = trace1("evenodd", 32, 32, &tab, 0, 0, NULL);
  /* k < 3 three times, the other side 997 times, across the sampled middle */
  assert_true(wgp_trace_block_executions(tr, then_b) == 3.0);
  assert_true(wgp_trace_block_executions(tr, else_b) == 997.0);
  assert_true(wgp_trace_flags(tr) & WGP_TRACE_SAMPLED);
  wgp_trace_free(tr);
}

static void test_per_lane_trip_counts(void **state) {
  (void)state;
  const wgp_kernel *k = wgp_model_find_kernel(model, "gridstride");
  size_t body = block_with(k, "fp32_mul");
  argv_table tab = {{"n"}, {100}};
  /* global 64: ids 32..63 do i, i+64 < 100 for i < 36, else one iteration */
  wgp_trace *tr = trace1("gridstride", 64, 32, &tab, 1, 0, NULL);
  assert_true(wgp_trace_lane_executions(tr, body) == 32 + 4);
  assert_true(wgp_trace_block_executions(tr, body) == 2.0);
  wgp_trace_free(tr);
  /* n = 2^30 + 40 over 64 work-items: 2^24 + 1 iterations for ids below 40,
   * 2^24 for the others; far past the explicit cap, yet exact: the count is
   * found along the recurrence, not by running it (trip_kind recurrence) */
  tab.values[0] = (INT64_C(1) << 30) + 40;
  tr = trace1("gridstride", 64, 32, &tab, 1, 0, NULL);
  assert_true(wgp_trace_lane_executions(tr, body) == 32.0 * (1 << 24) + 8);
  assert_true(wgp_trace_block_executions(tr, body) == (double)(1 << 24) + 1);
  assert_false(wgp_trace_flags(tr) & WGP_TRACE_TRUNCATED);
  wgp_trace_free(tr);
  /* n = 2^31 - 1 with ids near it: i + 64 overflows int before i < n
   * fails for most lanes, so the loop never ends in 32-bit arithmetic:
   * no count is found and the explicit cap flags the trace truncated */
  tab.values[0] = INT32_MAX;
  tr = trace1("gridstride", 64, 32, &tab, 1, 0, NULL);
  assert_true(wgp_trace_flags(tr) & WGP_TRACE_TRUNCATED);
  assert_true(wgp_trace_block_executions(tr, body) == (double)WGP_TRACE_EXPLICIT_CAP);
  wgp_trace_free(tr);
}

static void test_data_dependent_loop(void **state) {
  (void)state;
  const wgp_kernel *k = wgp_model_find_kernel(model, "spmv");
  size_t body = block_with(k, "fp32_fma");
  argv_table tab = {{"n"}, {1000}};
  wgp_tracer *t;
  wgp_trace *tr = trace1("spmv", 64, 32, &tab, 0, 0, &t);
  assert_true(wgp_trace_flags(tr) & (WGP_TRACE_DATA_LOOP | WGP_TRACE_DATA_BRANCH));
  /* the blocks whose branch could not be evaluated say so; together they
   * hold every flag of the trace, and a block without a branch holds none */
  unsigned per_block = 0;
  for (size_t b = 0; b < wgp_kernel_num_blocks(k); b++) {
    per_block |= wgp_trace_block_flags(tr, b);
    if (!wgp_block_branch(wgp_kernel_block(k, b)))
      assert_int_equal(wgp_trace_block_flags(tr, b), 0);
  }
  assert_int_equal(per_block, wgp_trace_flags(tr) & (WGP_TRACE_DATA_LOOP | WGP_TRACE_DATA_BRANCH));
  assert_true(wgp_trace_block_flags(tr, body) & WGP_TRACE_DATA_LOOP);
  assert_int_equal(wgp_trace_block_flags(tr, wgp_kernel_num_blocks(k)), 0);
  wgp_trace_free(tr);
  /* with a trip-count hint the body runs that often */
  size_t loop = (size_t)wgp_block_loop(wgp_kernel_block(k, body));
  wgp_tracer_set_trip_hint(t, loop, 7);
  wgp_diag d;
  uint64_t g[3] = {0, 0, 0};
  assert_int_equal(wgp_tracer_trace(t, g, 0, &tr, &d), WGP_OK);
  assert_true(wgp_trace_block_executions(tr, body) == 7.0);
  wgp_trace_free(tr);
  wgp_tracer_free(t);
}

/* What a visitor that records global accesses sees: a running hash of the
 * blocks holding them, their lanes, addresses and weights, and the blocks
 * visited. */
typedef struct seen {
  const wgp_kernel *k;
  uint64_t hash;
  size_t visits, accesses;
} seen;

static void see_global(void *user, size_t block, uint64_t mask, double weight, double mult, wgp_tracer *t) {
  seen *s = user;
  s->visits++;
  const wgp_block *b = wgp_kernel_block(s->k, block);
  for (size_t i = 0; i < wgp_block_num_accesses(b); i++) {
    const wgp_access *a = wgp_kernel_access(s->k, wgp_block_access(b, i));
    if (wgp_access_space(a) != WGP_SPACE_GLOBAL)
      continue;
    int64_t v[64] = {0};
    uint64_t known = wgp_access_offset(a) ? wgp_tracer_eval_warp(t, wgp_access_offset(a), mask, v) : 0;
    uint64_t h = s->hash ^ (block * 0x9e3779b97f4a7c15ull) ^ mask ^ (known << 1) ^ (uint64_t)(weight * mult * 1000);
    for (unsigned l = 0; l < 64; l++)
      if (known >> l & 1)
        h = (h ^ (uint64_t)v[l]) * 0x100000001b3ull;
    s->hash = h;
    s->accesses++;
  }
}

static seen trace_seen(const char *kernel, uint64_t global, uint64_t local, argv_table *tab, uint64_t group,
                       size_t warp, bool skip) {
  const wgp_kernel *k = wgp_model_find_kernel(model, kernel);
  assert_non_null(k);
  wgp_trace_launch L = {1, {global, 1, 1}, {local, 1, 1}, {0, 0, 0}, 32, args, tab};
  wgp_tracer *t;
  wgp_diag d;
  assert_int_equal(wgp_tracer_new(k, &L, &t, &d), WGP_OK);
  if (skip)
    assert_true(wgp_tracer_skip_quiet_loops(t, 1u << WGP_SPACE_GLOBAL | 1u << WGP_SPACE_GENERIC));
  seen s = {k, 0, 0, 0};
  wgp_tracer_set_visitor(t, see_global, &s);
  wgp_trace *tr;
  uint64_t g[3] = {group, 0, 0};
  assert_int_equal(wgp_tracer_trace(t, g, warp, &tr, &d), WGP_OK);
  wgp_trace_free(tr);
  wgp_tracer_free(t);
  return s;
}

/* Loops without global accesses that nothing after them depends on are
 * left out when only global accesses matter (the cache analysis); the
 * global accesses seen are exactly those of the whole trace.  Skipped: the
 * shared-memory tree of reduce, and tri's loops (clang keeps a[i] in a
 * register across them).  Traced: a loop whose result an address after it
 * uses (quiet_then_index), loops with global accesses. */
static void test_skip_quiet_loops(void **state) {
  (void)state;
  argv_table n20 = {{"n", NULL}, {20}}, n100 = {{"n", NULL}, {100}}, n5000 = {{"n", NULL}, {5000}},
             none = {{NULL}, {0}};
  struct {
    const char *kernel;
    uint64_t global, local;
    argv_table *tab;
    int skips; /* 1: fewer blocks visited with skipping */
  } cases[] = {
      {"reduce", 4096, 256, &none, 1},           {"quiet_then_index", 4096, 64, &n20, 0},
      {"tri", 256, 64, &n20, 1},                 {"gridstride", 1024, 128, &n5000, 0},
      {"evenodd", 256, 64, &n20, 0},             {"vadd", 1000, 64, &n100, 0},
  };
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++)
    for (uint64_t group = 0; group < 2; group++)
      for (size_t warp = 0; warp < 2; warp++) {
        seen full = trace_seen(cases[c].kernel, cases[c].global, cases[c].local, cases[c].tab, group, warp, false);
        seen part = trace_seen(cases[c].kernel, cases[c].global, cases[c].local, cases[c].tab, group, warp, true);
        if (full.hash != part.hash || full.accesses != part.accesses)
          fail_msg("%s group %llu warp %zu: skipping quiet loops changed the global accesses seen", cases[c].kernel,
                   (unsigned long long)group, warp);
        if (cases[c].skips ? part.visits >= full.visits : part.visits != full.visits)
          fail_msg("%s: %zu blocks visited with skipping, %zu without", cases[c].kernel, part.visits, full.visits);
        if (full.accesses == 0)
          fail_msg("%s group %llu warp %zu: no global access seen", cases[c].kernel, (unsigned long long)group, warp);
      }
}

static void test_bad_requests(void **state) {
  (void)state;
  argv_table tab = {{"n"}, {100}};
  const wgp_kernel *k = wgp_model_find_kernel(model, "vadd");
  wgp_trace_launch L = {1, {128, 1, 1}, {64, 1, 1}, {0, 0, 0}, 32, args, &tab};
  wgp_tracer *t;
  wgp_diag d;
  assert_int_equal(wgp_tracer_new(k, &L, &t, &d), WGP_OK);
  wgp_trace *tr;
  uint64_t g[3] = {0, 0, 0}, far[3] = {2, 0, 0};
  assert_int_equal(wgp_tracer_trace(t, g, 2, &tr, &d), WGP_ERR_INPUT);
  assert_non_null(strstr(d.message, "warp 2 is outside"));
  assert_int_equal(wgp_tracer_trace(t, far, 0, &tr, &d), WGP_ERR_INPUT);
  assert_non_null(strstr(d.message, "outside the 2 groups"));
  wgp_tracer_free(t);
  wgp_trace_launch bad = L;
  bad.warp_size = 0;
  assert_int_equal(wgp_tracer_new(k, &bad, &t, &d), WGP_ERR_INPUT);
  bad = L;
  bad.local[0] = 0;
  assert_int_equal(wgp_tracer_new(k, &bad, &t, &d), WGP_ERR_INPUT);
}

static void test_print(void **state) {
  (void)state;
  argv_table tab = {{NULL}, {0}};
  wgp_trace *tr = trace1("reduce", 256, 256, &tab, 0, 1, NULL);
  char *buf;
  size_t len;
  wgp_trace_print(tr, wgp_model_find_kernel(model, "reduce"), &buf, &len);
  assert_non_null(buf);
  assert_non_null(strstr(buf, "loop L0"));
  assert_non_null(strstr(buf, "mask=0xffffffff"));
  free(buf);
  wgp_trace_free(tr);
}

/* A two-way branch whose condition reads only local ids, lane numbers,
 * launch constants and arguments is taken as remembered for the same warp
 * of an earlier group of the same extent.  The same models with every
 * condition C written (select (eq grp.x grp.x) C C) (the same values, read
 * afresh in every warp) give the same traces and the same visits, over
 * every warp of every group of launches with smaller last groups. */
static char *conditions_read_group(const char *text) {
  static const char key[] = "\"cond\": \"";
  size_t n = strlen(text), conds = 0;
  for (const char *p = text; (p = strstr(p, key)); p++)
    conds++;
  char *out = malloc(n + conds * 2 * n / (conds ? conds : 1) + conds * 64 + 1), *o = out;
  assert_non_null(out);
  const char *p = text;
  for (const char *c; (c = strstr(p, key));) {
    c += strlen(key);
    const char *end = strchr(c, '"');
    assert_non_null(end);
    memcpy(o, p, (size_t)(c - p)), o += c - p;
    int len = (int)(end - c);
    o += sprintf(o, "(select (eq grp.x grp.x) %.*s %.*s)", len, c, len, c);
    p = end;
  }
  strcpy(o, p);
  return out;
}

typedef struct visits {
  uint64_t hash;
  size_t n;
} visits;

static void count_visit(void *user, size_t block, uint64_t mask, double weight, double mult, wgp_tracer *t) {
  (void)t;
  visits *v = user;
  v->hash = (v->hash ^ block ^ mask * 0x9e3779b97f4a7c15ull ^ (uint64_t)(weight * mult * 4096)) * 0x100000001b3ull;
  v->n++;
}

static void test_lid_branches_remembered(void **state) {
  (void)state;
  struct {
    const char *file, *kernel;
    unsigned dims;
    uint64_t global[2], local[2];
  } cases[] = {
      {"memo_kernels.json", "lid_branches", 2, {44, 26}, {8, 8}},
      {"memo_kernels.json", "lid_branches", 2, {100, 9}, {24, 4}},
      {"memo_kernels.json", "lid_branches", 1, {1000, 1}, {96, 1}},
      {"trace_kernels.json", "reduce", 1, {1000, 1}, {128, 1}},
  };
  argv_table tab = {{"n", NULL}, {8}};
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    char *text = test_data_text(cases[c].file), *other = conditions_read_group(text);
    wgp_model *ma, *mb;
    wgp_diag d;
    assert_int_equal(wgp_model_load_string(text, strlen(text), cases[c].file, &ma, &d), WGP_OK);
    if (wgp_model_load_string(other, strlen(other), cases[c].file, &mb, &d) != WGP_OK)
      fail_msg("%s", d.message);
    const wgp_kernel *ka = wgp_model_find_kernel(ma, cases[c].kernel), *kb = wgp_model_find_kernel(mb, cases[c].kernel);
    assert_non_null(ka);
    assert_non_null(kb);
    wgp_trace_launch L = {cases[c].dims, {cases[c].global[0], cases[c].global[1], 1},
                          {cases[c].local[0], cases[c].local[1], 1}, {0, 0, 0}, 32, args, &tab};
    wgp_tracer *ta, *tb;
    assert_int_equal(wgp_tracer_new(ka, &L, &ta, &d), WGP_OK);
    assert_int_equal(wgp_tracer_new(kb, &L, &tb, &d), WGP_OK);
    visits va = {0, 0}, vb = {0, 0};
    wgp_tracer_set_visitor(ta, count_visit, &va);
    wgp_tracer_set_visitor(tb, count_visit, &vb);
    uint64_t ng[2] = {(L.global[0] + L.local[0] - 1) / L.local[0], (L.global[1] + L.local[1] - 1) / L.local[1]};
    size_t traced = 0;
    for (uint64_t gy = 0; gy < ng[1]; gy++)
      for (uint64_t gx = 0; gx < ng[0]; gx++)
        for (size_t w = 0;; w++) {
          uint64_t g[3] = {gx, gy, 0};
          wgp_trace *tra, *trb;
          if (wgp_tracer_trace(ta, g, w, &tra, &d) != WGP_OK)
            break;
          assert_int_equal(wgp_tracer_trace(tb, g, w, &trb, &d), WGP_OK);
          if (!wgp_trace_equal(tra, trb) || va.hash != vb.hash || va.n != vb.n)
            fail_msg("%s %llux%llu: group %llu,%llu warp %zu traced differently with remembered branches",
                     cases[c].kernel, (unsigned long long)L.local[0], (unsigned long long)L.local[1],
                     (unsigned long long)gx, (unsigned long long)gy, w);
          wgp_trace_free(tra);
          wgp_trace_free(trb);
          traced++;
        }
    assert_true(traced > 8);
    wgp_tracer_free(ta);
    wgp_tracer_free(tb);
    wgp_model_free(ma);
    wgp_model_free(mb);
    free(text);
    free(other);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_vadd_divergence),     cmocka_unit_test(test_nonuniform_last_group),
      cmocka_unit_test(test_reduction_halving),
      cmocka_unit_test(test_triangular_exact_and_sampled), cmocka_unit_test(test_loop_variable_branch),
      cmocka_unit_test(test_per_lane_trip_counts), cmocka_unit_test(test_data_dependent_loop),
      cmocka_unit_test(test_bad_requests),        cmocka_unit_test(test_print),
      cmocka_unit_test(test_skip_quiet_loops),    cmocka_unit_test(test_lid_branches_remembered),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
