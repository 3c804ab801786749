/* test_prune.c - the work-group size search (sim/prune.c): enumeration,
 * size expressions, the two pruning stages, the ranking and its agreement
 * with the exhaustive search and with wgp_estimate, and errors; on kernels
 * extracted by the real plugin (test/unit/data/trace_kernels.json,
 * pipeline_kernels.json, matmul_tiled.plugin.json, idle_kernels.json). */
/* cmocka.h needs these first */
/* clang-format off */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
/* clang-format on */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wgperf/estimate.h"
#include "wgperf/prune.h"

static wgp_model *traces, *pipes, *mm, *idlek;
static wgp_gpu *h100;

static int setup(void **state) {
  wgp_diag d;
  (void)state;
  if (wgp_model_load_file(WGPERF_SOURCE_DIR "/test/unit/data/trace_kernels.json", &traces, &d) != WGP_OK ||
      wgp_model_load_file(WGPERF_SOURCE_DIR "/test/unit/data/pipeline_kernels.json", &pipes, &d) != WGP_OK ||
      wgp_model_load_file(WGPERF_SOURCE_DIR "/test/unit/data/matmul_tiled.plugin.json", &mm, &d) != WGP_OK ||
      wgp_model_load_file(WGPERF_SOURCE_DIR "/test/unit/data/idle_kernels.json", &idlek, &d) != WGP_OK)
    return -1;
  return wgp_gpu_load_builtin("h100-sxm", &h100, &d) == WGP_OK ? 0 : -1;
}

static int teardown(void **state) {
  (void)state;
  wgp_model_free(traces);
  wgp_model_free(pipes);
  wgp_model_free(mm);
  wgp_model_free(idlek);
  wgp_gpu_free(h100);
  return 0;
}

/* A launch from command-line options, e.g. {"--global", "4096", "--arg", "n=4096", NULL}. */
static wgp_launch *launch_of(const char *const *opts) {
  wgp_launch *l = wgp_launch_new();
  wgp_diag d;
  assert_non_null(l);
  for (size_t i = 0; opts[i]; i++) {
    bool takes;
    assert_true(wgp_launch_is_option(opts[i], &takes));
    if (wgp_launch_set_option(l, opts[i], takes ? opts[i + 1] : NULL, &d) != WGP_OK)
      fail_msg("%s", d.message);
    i += takes;
  }
  return l;
}

/* The search with options.top = TOP on THREADS threads (0: the default). */
static wgp_prune *run_top(const wgp_model *m, const char *kernel, const char *const *opts, const char *local_name,
                          const char *local_expr, unsigned flags, size_t top, unsigned threads) {
  const wgp_kernel *k = wgp_model_find_kernel(m, kernel);
  assert_non_null(k);
  wgp_launch *l = launch_of(opts);
  wgp_prune_options o = {.launch = l,
                         .local_arg_names = &local_name,
                         .local_arg_exprs = &local_expr,
                         .num_local_args = local_name ? 1 : 0,
                         .flags = flags,
                         .top = top,
                         .threads = threads};
  wgp_prune *p;
  wgp_diag d;
  if (wgp_prune_run(k, h100, &o, &p, &d) != WGP_OK)
    fail_msg("%s", d.message);
  wgp_launch_free(l); /* the result keeps nothing of it */
  return p;
}

static wgp_prune *run(const wgp_model *m, const char *kernel, const char *const *opts, const char *local_name,
                      const char *local_expr, unsigned flags) {
  return run_top(m, kernel, opts, local_name, local_expr, flags, 0, 0);
}

static void expressions(void **state) {
  (void)state;
  const uint64_t l[3] = {16, 8, 2};
  uint64_t v;
  assert_true(wgp_size_expr_eval("4*lx*ly", l, &v));
  assert_int_equal(v, 512);
  assert_true(wgp_size_expr_eval(" (lx + 1) * (ly - 2) / 4 + lz ", l, &v));
  assert_int_equal(v, 17 * 6 / 4 + 2);
  assert_true(wgp_size_expr_eval("7/2", l, &v)); /* integer division */
  assert_int_equal(v, 3);
  assert_true(wgp_size_expr_eval("0", l, &v));
  assert_int_equal(v, 0);
  const char *bad[] = {"", "4*q", "lx/0", "(lx", "lx)", "1-2", "2e3", "lx lx", "1000000000000000"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
    if (wgp_size_expr_eval(bad[i], l, &v))
      fail_msg("'%s' accepted", bad[i]);
  char deep[400];
  memset(deep, '(', 200);
  strcpy(deep + 200, "1");
  memset(deep + 201, ')', 198);
  deep[399] = 0;
  assert_false(wgp_size_expr_eval(deep, l, &v)); /* refused, not a stack overflow */
  assert_false(wgp_size_expr_eval(NULL, l, &v));
}

/* Conditions: C's precedence, % and integer division, 1 for true; a
 * malformed condition is refused, a division by zero fails that size only. */
static void conditions(void **state) {
  (void)state;
  const uint64_t l[3] = {16, 8, 2};
  struct {
    const char *text;
    bool holds;
  } good[] = {
      {"lx == 16 && ly == 8", true},      {"lx == 16 && ly == 16", false},   {"lx < 8 || ly < 16", true},
      {"lx * ly % 64 == 0", true},        {"lx * ly % 48 == 0", false},      {"!(lx > ly)", false},
      {"!lz", false},                     {"!0", true},                      {"lx / 3 == 5", true},
      {"1 + 2 * 3 == 7", true},           {"lx >= 16 && lx <= 16", true},    {"lx != 16 || lz == 2", true},
      {"0 || 0 && 1", false},             {"1 || 0 && 0", true},             {"(1 || 0) && 0", false},
      {"lx - ly > 7", true},              {"lx", true},                      {"lz - 2", false},
  };
  for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
    bool h = !good[i].holds;
    if (!wgp_size_cond_eval(good[i].text, l, &h) || h != good[i].holds)
      fail_msg("'%s': expected %s", good[i].text, good[i].holds ? "true" : "false");
    assert_true(wgp_size_expr_valid(good[i].text));
  }
  uint64_t v;
  assert_true(wgp_size_expr_eval("lx % 5", l, &v));
  assert_int_equal(v, 1);
  assert_true(wgp_size_expr_eval("4 * (lx > 8)", l, &v));
  assert_int_equal(v, 4);
  const char *bad[] = {"lx = 16", "lx & 1", "lx | ly", "lx ==", "&& lx", "lx < < 2", "!", "()", "lx !! 2", "lx =< 2"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    bool h;
    if (wgp_size_cond_eval(bad[i], l, &h) || wgp_size_expr_valid(bad[i]))
      fail_msg("'%s' accepted", bad[i]);
  }
  /* well formed, but dividing by zero for this size */
  bool h;
  assert_true(wgp_size_expr_valid("lx / (lz - 2) > 1"));
  assert_false(wgp_size_cond_eval("lx / (lz - 2) > 1", l, &h));
  assert_false(wgp_size_cond_eval("lx % (lz - 2) == 0", l, &h));
  char deep[300];
  memset(deep, '!', 200);
  strcpy(deep + 200, "1");
  assert_false(wgp_size_expr_valid(deep)); /* refused, not a stack overflow */
  assert_false(wgp_size_expr_valid(NULL));
  /* random strings of the grammar's characters: never a crash (the
   * sanitized suite runs this too); a well-formed one evaluates unless it
   * divides by zero, a malformed one never does */
  static const char alphabet[] = "lxyz0123456789+-*/%()<>=!&| ";
  uint64_t seed = 0x9e3779b97f4a7c15ull;
  size_t valid = 0;
  for (int t = 0; t < 20000; t++) {
    char text[40]; /* up to 32 characters */
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    size_t n = (size_t)(seed >> 59) + 1;
    for (size_t i = 0; i < n; i++) {
      seed = seed * 6364136223846793005ull + 1442695040888963407ull;
      text[i] = alphabet[(seed >> 33) % (sizeof alphabet - 1)];
    }
    text[n] = 0;
    bool ok = wgp_size_expr_valid(text), held;
    bool evaluated = wgp_size_cond_eval(text, l, &held);
    if (evaluated && !ok)
      fail_msg("'%s' evaluated but not well formed", text);
    valid += ok;
  }
  assert_true(valid > 100);
}

/* --restrict: only the sizes every condition admits are candidates, the
 * others counted; the best admitted size is the exhaustive search's among
 * them. */
static void restrictions(void **state) {
  (void)state;
  const char *opts[] = {"--global", "1024,1024", "--arg", "N=1024", NULL};
  const char *conds[] = {"lx * ly == 256", "ly >= 2"};
  for (int exhaustive = 0; exhaustive < 2; exhaustive++) {
    wgp_launch *l = launch_of(opts);
    wgp_prune_options o = {.launch = l, .restrictions = conds, .num_restrictions = 2,
                           .flags = exhaustive ? WGP_PRUNE_EXHAUSTIVE : 0};
    wgp_prune *p;
    wgp_diag d;
    if (wgp_prune_run(wgp_model_find_kernel(mm, "matmul_tiled"), h100, &o, &p, &d) != WGP_OK)
      fail_msg("%s", d.message);
    wgp_launch_free(l);
    wgp_prune_counts n;
    wgp_prune_get_counts(p, &n);
    /* 11 x 11 divisor pairs of 1024 within 1024 work-items: 66; of those 16x16, 32x8, ..., 1x256 with ly >= 2: 8 */
    assert_int_equal(n.total, 8);
    assert_int_equal(n.restricted, 66 - 8);
    for (size_t i = 0; i < wgp_prune_num_candidates(p); i++) {
      const wgp_prune_candidate *c = wgp_prune_candidate_at(p, i);
      assert_int_equal(c->local[0] * c->local[1], 256);
      assert_true(c->local[1] >= 2);
    }
    assert_true(wgp_prune_num_ranked(p) >= 1);
    wgp_prune_free(p);
  }
  /* malformed: refused before anything runs; all excluded: said so */
  const char *bad = "lx = 16", *none = "lx > 4096";
  wgp_launch *l = launch_of(opts);
  wgp_prune_options o = {.launch = l, .restrictions = &bad, .num_restrictions = 1};
  wgp_prune *p = NULL;
  wgp_diag d;
  assert_int_equal(wgp_prune_run(wgp_model_find_kernel(mm, "matmul_tiled"), h100, &o, &p, &d), WGP_ERR_INPUT);
  assert_non_null(strstr(d.message, "--restrict 'lx = 16': bad expression"));
  o.restrictions = &none;
  assert_int_equal(wgp_prune_run(wgp_model_find_kernel(mm, "matmul_tiled"), h100, &o, &p, &d), WGP_ERR_INPUT);
  assert_non_null(strstr(d.message, "--restrict excluded all 66 sizes"));
  wgp_launch_free(l);
}

/* The sizes the GPU allows: 1-D divisors of the global size up to 1024;
 * any extent with --nonuniform; 2-D pairs within 1024 work-items. */
static void enumeration(void **state) {
  (void)state;
  const char *uni[] = {"--global", "1048576", "--arg", "n=1048576", NULL};
  wgp_prune *p = run(traces, "vadd", uni, NULL, NULL, 0);
  wgp_prune_counts n;
  wgp_prune_get_counts(p, &n);
  assert_int_equal(n.total, 11);
  assert_int_equal(n.valid, 11);
  assert_int_equal(wgp_prune_dims(p), 1);
  for (size_t i = 0; i < n.total; i++) {
    const wgp_prune_candidate *c = wgp_prune_candidate_at(p, i);
    assert_int_equal(c->local[0], 1u << i);
    assert_int_equal(c->local[1], 1);
    assert_int_equal(c->groups, 1048576u >> i);
  }
  assert_null(wgp_prune_candidate_at(p, n.total));
  wgp_prune_free(p);
  const char *non[] = {"--global", "1000", "--arg", "n=1000", "--nonuniform", NULL};
  p = run(traces, "vadd", non, NULL, NULL, 0);
  wgp_prune_get_counts(p, &n);
  assert_int_equal(n.total, 1000);
  assert_int_equal(wgp_prune_candidate_at(p, 998)->local[0], 999);
  assert_int_equal(wgp_prune_candidate_at(p, 998)->groups, 2); /* 1000 = 999 + 1 */
  wgp_prune_free(p);
  /* 2-D: 8 x 8 powers of two of 128 x 128, products up to 1024 */
  const char *two[] = {"--global", "128,128", "--arg", "N=128", NULL};
  p = run(mm, "matmul_tiled", two, NULL, NULL, 0);
  wgp_prune_get_counts(p, &n);
  size_t want = 0;
  for (int x = 0; x < 8; x++)
    for (int y = 0; y < 8; y++)
      want += (1 << x) * (1 << y) <= 1024;
  assert_int_equal(n.total, want);
  assert_int_equal(wgp_prune_dims(p), 2);
  wgp_prune_free(p);
}

/* The stages of every candidate of P, counted: INVALID, DUPLICATE, BOUND,
 * SURVIVOR, IDLE_LANES. */
static void count_stages(const wgp_prune *p, size_t out[5]) {
  memset(out, 0, 5 * sizeof *out);
  for (size_t i = 0; i < wgp_prune_num_candidates(p); i++)
    out[wgp_prune_candidate_at(p, i)->stage]++;
}

/* Stage 1, idle lanes: with --nonuniform, a size whose last warp is partial
 * is left to the size filling the same warps, which can run with the same
 * residency; the counts add up; rank 1 fills its warps and is within 5% of
 * the best of every size (the exhaustive search), which partial_warps
 * finds; the rule needs paths by the global id alone and gives way where
 * the size filling the warps cannot run. */
static void idle_lanes(void **state) {
  (void)state;
  const char *o[] = {"--global", "100000", "--arg", "n=100000", "--nonuniform", NULL};
  wgp_prune *p = run(idlek, "scale", o, NULL, NULL, 0);
  wgp_prune_counts n;
  wgp_prune_get_counts(p, &n);
  size_t st[5];
  count_stages(p, st);
  assert_int_equal(n.total, 1024);
  assert_true(n.idle_lanes > 600); /* of the 992 with a partial warp; those of tiny groups fall to bounds */
  assert_int_equal(st[WGP_PRUNE_IDLE_LANES], n.idle_lanes);
  assert_int_equal(n.after_duplicates, st[WGP_PRUNE_BOUND] + st[WGP_PRUNE_SURVIVOR]);
  assert_int_equal(n.valid, n.after_duplicates + n.idle_lanes + st[WGP_PRUNE_DUPLICATE]);
  assert_int_equal(n.exact_ranks, 0); /* not proven against the sizes left out */
  assert_true(n.analyses < 40);
  for (size_t i = 0; i < n.total; i++) {
    const wgp_prune_candidate *c = wgp_prune_candidate_at(p, i);
    if (c->stage != WGP_PRUNE_IDLE_LANES)
      continue;
    const wgp_prune_candidate *r = wgp_prune_candidate_at(p, c->rep);
    assert_non_null(r);
    assert_true(c->local[0] % 32 != 0);
    assert_int_equal(r->local[0], (c->local[0] + 31) / 32 * 32);
    assert_true(r->stage != WGP_PRUNE_INVALID && r->stage != WGP_PRUNE_IDLE_LANES);
    assert_int_equal(r->active_warps_per_sm, c->active_warps_per_sm);
    assert_int_equal(r->active_groups_per_sm, c->active_groups_per_sm);
    assert_true(r->groups <= c->groups);
    assert_false(c->simulated);
  }
  const wgp_prune_candidate *best = wgp_prune_candidate_at(p, wgp_prune_ranked(p, 0));
  assert_int_equal(best->local[0] % 32, 0);
  wgp_prune *ex = run(idlek, "scale", o, NULL, NULL, WGP_PRUNE_EXHAUSTIVE);
  const wgp_prune_candidate *eb = wgp_prune_candidate_at(ex, wgp_prune_ranked(ex, 0));
  assert_true(best->sim.time_us <= eb->sim.time_us * 1.05);
  /* every size simulated by the exhaustive search, the stages still counted */
  wgp_prune_counts ne;
  wgp_prune_get_counts(ex, &ne);
  assert_int_equal(ne.simulated, ne.valid);
  assert_int_equal(ne.idle_lanes, n.idle_lanes);
  /* partial_warps: the exact search, whose best is the exhaustive one's */
  const wgp_kernel *k = wgp_model_find_kernel(idlek, "scale");
  wgp_launch *l = launch_of(o);
  wgp_prune_options po = {.launch = l, .partial_warps = true};
  wgp_prune *ep;
  wgp_diag d;
  assert_int_equal(wgp_prune_run(k, h100, &po, &ep, &d), WGP_OK);
  wgp_prune_counts nx;
  wgp_prune_get_counts(ep, &nx);
  assert_int_equal(nx.idle_lanes, 0);
  assert_int_equal(nx.exact_ranks, 1);
  assert_true(wgp_prune_candidate_at(ep, wgp_prune_ranked(ep, 0))->sim.time_us == eb->sim.time_us);
  wgp_prune_free(ep);
  /* top > 0 asks for exact ranks: no size is left out for idle lanes */
  wgp_prune *tp = run_top(idlek, "scale", o, NULL, NULL, 0, 3, 0);
  wgp_prune_get_counts(tp, &nx);
  assert_int_equal(nx.idle_lanes, 0);
  assert_int_equal(nx.exact_ranks, 3);
  wgp_prune_free(tp);
  wgp_launch_free(l);
  wgp_prune_free(ex);
  wgp_prune_free(p);

  /* paths that change with the group: no size is left out */
  const char *where = "x";
  assert_true(wgp_kernel_paths_by_global_id(k, 0, &where));
  assert_null(where);
  assert_true(wgp_kernel_paths_by_global_id(wgp_model_find_kernel(idlek, "tile48"), 0, NULL));
  assert_false(wgp_kernel_paths_by_global_id(wgp_model_find_kernel(idlek, "roles"), 0, &where));
  assert_non_null(strstr(where, "idle_kernels.cu:"));
  assert_false(wgp_kernel_paths_by_global_id(wgp_model_find_kernel(idlek, "groupsum"), 0, &where));
  assert_non_null(strstr(where, "idle_kernels.cu:"));
  const char *ro[] = {"--global", "100000", "--arg", "n=100000", "--arg", "m=8", "--nonuniform", NULL};
  const char *names[] = {"roles", "groupsum"};
  for (size_t i = 0; i < 2; i++) {
    p = run(idlek, names[i], i ? o : ro, NULL, NULL, 0);
    wgp_prune_get_counts(p, &n);
    assert_int_equal(n.idle_lanes, 0);
    assert_int_equal(n.exact_ranks, 1);
    wgp_prune_free(p);
  }

  /* 64 cannot run tile48 (its tile holds 48): 33 to 48 are searched as any
   * other size once the search finds that out; 1 to 31 are left to 32 */
  const char *to[] = {"--global", "4096", "--arg", "n=4096", "--nonuniform", NULL};
  p = run(idlek, "tile48", to, NULL, NULL, 0);
  wgp_prune_get_counts(p, &n);
  ex = run(idlek, "tile48", to, NULL, NULL, WGP_PRUNE_EXHAUSTIVE);
  assert_int_equal(n.valid, 48);
  assert_int_equal(wgp_prune_candidate_at(p, 63)->stage, WGP_PRUNE_INVALID);
  for (size_t i = 32; i < 48; i++)
    assert_true(wgp_prune_candidate_at(p, i)->stage != WGP_PRUNE_IDLE_LANES);
  for (size_t i = 0; i < 31; i++) {
    const wgp_prune_candidate *c = wgp_prune_candidate_at(p, i);
    assert_true(c->stage == WGP_PRUNE_IDLE_LANES || c->stage == WGP_PRUNE_BOUND);
    if (c->stage == WGP_PRUNE_IDLE_LANES)
      assert_int_equal(c->rep, 31);
  }
  /* the best of 32 to 48 is the exhaustive search's best but for those below 32 */
  double best33 = INFINITY;
  for (size_t i = 31; i < 48; i++)
    best33 = fmin(best33, wgp_prune_candidate_at(ex, i)->sim.time_us);
  assert_true(wgp_prune_candidate_at(p, wgp_prune_ranked(p, 0))->sim.time_us == best33);
  wgp_prune_free(ex);
  wgp_prune_free(p);
}

/* Stage 1: a duplicate's representative is in its batch (the same resident
 * warps), has no more rounds and no more groups, and is itself no
 * duplicate; the counts add up. */
static void stage_one(void **state) {
  (void)state;
  const char *o[] = {"--global", "1048576", "--arg", "n=1048576", NULL};
  wgp_prune *p = run(traces, "vadd", o, NULL, NULL, 0);
  wgp_prune_counts n;
  wgp_prune_get_counts(p, &n);
  size_t dups = 0, reps = 0;
  for (size_t i = 0; i < n.total; i++) {
    const wgp_prune_candidate *c = wgp_prune_candidate_at(p, i);
    if (c->stage == WGP_PRUNE_DUPLICATE) {
      const wgp_prune_candidate *r = wgp_prune_candidate_at(p, c->rep);
      assert_non_null(r);
      assert_true(r->stage == WGP_PRUNE_BOUND || r->stage == WGP_PRUNE_SURVIVOR);
      assert_int_equal(r->active_warps_per_sm, c->active_warps_per_sm);
      assert_true(r->rounds <= c->rounds);
      assert_true(r->groups <= c->groups);
      dups++;
    } else {
      reps++;
    }
  }
  assert_int_equal(reps, n.after_duplicates);
  assert_true(n.after_bounds <= n.after_duplicates);
  /* a coalesced vadd of 2^20: from 256 work-items on, 64 warps are resident
   * in the same traces, 4 rounds of them; 512 and 1024 also have the same
   * hit rates, and 1024 has fewer groups: it stands for 512 */
  const wgp_prune_candidate *c512 = wgp_prune_candidate_at(p, 9), *c1024 = wgp_prune_candidate_at(p, 10);
  assert_int_equal(c512->local[0], 512);
  assert_int_equal(c512->stage, WGP_PRUNE_DUPLICATE);
  assert_int_equal(c512->rep, 10);
  assert_int_equal(c1024->stage, WGP_PRUNE_SURVIVOR);
  assert_true(c1024->rounds == 4 && c512->rounds == 4);
  assert_true(dups >= 1);
  /* 64 work-items: fewer rounds (eq. 10) but 16x the groups of 1024, whose
   * dispatch makes it slower: not a duplicate of it, dropped by bounds */
  assert_int_equal(wgp_prune_candidate_at(p, 6)->stage, WGP_PRUNE_BOUND);
  wgp_prune_free(p);
}

/* Stage 2 and the ranking, checked against the exhaustive search: every
 * size's bounds hold for its estimate; no size the bounds dropped is
 * faster than the pruned search's best; the best sizes agree (the same, or
 * predicted exactly as fast); the pruned search simulates fewer. */
static void check_against_exhaustive(const wgp_model *m, const char *kernel, const char *const *opts,
                                     const char *local_name, const char *local_expr) {
  wgp_prune *pr = run(m, kernel, opts, local_name, local_expr, 0);
  wgp_prune *ex = run(m, kernel, opts, local_name, local_expr, WGP_PRUNE_EXHAUSTIVE);
  wgp_prune_counts np, ne;
  wgp_prune_get_counts(pr, &np);
  wgp_prune_get_counts(ex, &ne);
  assert_int_equal(np.total, ne.total);
  assert_int_equal(np.after_duplicates, ne.after_duplicates);
  assert_int_equal(np.after_bounds, ne.after_bounds);
  /* survivors, and duplicates of the best with smaller groups (a tie is theirs) */
  assert_true(np.simulated >= np.after_bounds);
  assert_int_equal(ne.simulated, ne.valid);
  assert_int_equal(wgp_prune_num_ranked(ex), ne.valid);
  size_t bp = wgp_prune_ranked(pr, 0), be = wgp_prune_ranked(ex, 0);
  const wgp_prune_candidate *best_p = wgp_prune_candidate_at(ex, bp), *best_e = wgp_prune_candidate_at(ex, be);
  for (size_t i = 0; i < ne.total; i++) {
    const wgp_prune_candidate *c = wgp_prune_candidate_at(ex, i);
    if (!c->simulated)
      continue;
    double t = c->sim.time_us;
    if (!(c->best_us <= t * (1 + 1e-9) && t <= c->worst_us * (1 + 1e-9)))
      fail_msg("%s %llux%llu: time %.9g outside its bounds [%.9g, %.9g]%s", kernel, (unsigned long long)c->local[0],
               (unsigned long long)c->local[1], t, c->best_us, c->worst_us, c->exact_bounds ? " (exact)" : "");
    if (c->stage == WGP_PRUNE_BOUND && t < best_p->sim.time_us)
      fail_msg("%s: %llux%llu dropped by bounds but faster than the chosen size", kernel,
               (unsigned long long)c->local[0], (unsigned long long)c->local[1]);
    /* the pruned search's survivors are simulated alike in both */
    if (c->stage == WGP_PRUNE_SURVIVOR)
      assert_true(wgp_prune_candidate_at(pr, i)->sim.time_us == t);
  }
  print_message("%s: %zu sizes, %zu after stage 1, %zu after stage 2, best %llux%llu (%.4g us) vs %llux%llu (%.4g "
                "us)\n",
                kernel, ne.valid, ne.after_duplicates, ne.after_bounds, (unsigned long long)best_p->local[0],
                (unsigned long long)best_p->local[1], best_p->sim.time_us, (unsigned long long)best_e->local[0],
                (unsigned long long)best_e->local[1], best_e->sim.time_us);
  assert_true(best_p->sim.time_us == best_e->sim.time_us);
  /* ties go to the smaller group, then the first enumerated: the same size */
  assert_int_equal(bp, be);
  assert_true(np.after_bounds < np.valid);
  wgp_prune_free(pr);
  wgp_prune_free(ex);
}

static void pruned_equals_exhaustive(void **state) {
  (void)state;
  const char *vadd[] = {"--global", "1048576", "--arg", "n=1048576", NULL};
  check_against_exhaustive(traces, "vadd", vadd, NULL, NULL);
  const char *tri[] = {"--global", "16384", "--arg", "n=40", NULL};
  check_against_exhaustive(traces, "tri", tri, NULL, NULL);
  const char *red[] = {"--global", "65536", NULL};
  check_against_exhaustive(traces, "reduce", red, "scratch", "4*lx");
  const char *tiled[] = {"--global", "65536", "--arg", "n=16", NULL};
  check_against_exhaustive(pipes, "tiled", tiled, "tile", "4*lx");
  const char *mm2[] = {"--global", "256,256", "--arg", "N=256", NULL};
  check_against_exhaustive(mm, "matmul_tiled", mm2, NULL, NULL);
}

/* options.top = N: the first N ranks are the exhaustive search's first N,
 * the same candidates in the same order (ties by group size, then
 * enumeration order, there too), with the same times; every size the bounds dropped is slower than
 * the N-th; the counts say so (exact_ranks) and add up (only survivors are
 * simulated); the default search's first rank is its only exact one; the
 * same result on 1 and 3 threads. */
static void check_top(const wgp_model *m, const char *kernel, const char *const *opts, const char *local_name,
                      const char *local_expr, size_t top) {
  wgp_prune *ex = run(m, kernel, opts, local_name, local_expr, WGP_PRUNE_EXHAUSTIVE);
  wgp_prune *t1 = run_top(m, kernel, opts, local_name, local_expr, 0, top, 1);
  wgp_prune *t3 = run_top(m, kernel, opts, local_name, local_expr, 0, top, 3);
  wgp_prune *def = run(m, kernel, opts, local_name, local_expr, 0);
  wgp_prune_counts ne, nt, nd;
  wgp_prune_get_counts(ex, &ne);
  wgp_prune_get_counts(t1, &nt);
  wgp_prune_get_counts(def, &nd);
  size_t n = top < wgp_prune_num_ranked(ex) ? top : wgp_prune_num_ranked(ex);
  assert_int_equal(ne.exact_ranks, wgp_prune_num_ranked(ex));
  assert_int_equal(nd.exact_ranks, 1);
  assert_int_equal(nt.exact_ranks, n);
  assert_true(wgp_prune_num_ranked(t1) >= n);
  assert_int_equal(nt.simulated, nt.after_bounds);
  assert_int_equal(nt.simulated, wgp_prune_num_ranked(t1));
  for (size_t r = 0; r < n; r++) {
    size_t ie = wgp_prune_ranked(ex, r), it = wgp_prune_ranked(t1, r);
    if (ie != it)
      fail_msg("%s top %zu: rank %zu is candidate %zu, the exhaustive search's %zu", kernel, top, r + 1, it, ie);
    assert_true(wgp_prune_candidate_at(t1, it)->sim.time_us == wgp_prune_candidate_at(ex, ie)->sim.time_us);
  }
  double nth = wgp_prune_candidate_at(ex, wgp_prune_ranked(ex, n - 1))->sim.time_us;
  for (size_t i = 0; i < nt.total; i++) {
    const wgp_prune_candidate *c = wgp_prune_candidate_at(t1, i), *ce = wgp_prune_candidate_at(ex, i);
    if (!c->simulated && ce->simulated && ce->sim.time_us <= nth && c->stage != WGP_PRUNE_INVALID)
      fail_msg("%s top %zu: %llux%llu pruned, but %.9g us is not slower than the %zu-th, %.9g us", kernel, top,
               (unsigned long long)c->local[0], (unsigned long long)c->local[1], ce->sim.time_us, n, nth);
  }
  /* any number of threads: the same ranking and counts */
  wgp_prune_counts n3;
  wgp_prune_get_counts(t3, &n3);
  assert_int_equal(wgp_prune_num_ranked(t3), wgp_prune_num_ranked(t1));
  for (size_t r = 0; r < wgp_prune_num_ranked(t1); r++)
    assert_int_equal(wgp_prune_ranked(t3, r), wgp_prune_ranked(t1, r));
  assert_int_equal(n3.analyses, nt.analyses);
  assert_int_equal(n3.cache_analyses, nt.cache_analyses);
  assert_int_equal(n3.after_duplicates, nt.after_duplicates);
  assert_int_equal(n3.after_bounds, nt.after_bounds);
  print_message("%s top %zu: %zu sizes, %zu simulated (default search %zu, exhaustive %zu)\n", kernel, n, ne.valid,
                nt.simulated, nd.simulated, ne.simulated);
  wgp_prune_free(ex);
  wgp_prune_free(t1);
  wgp_prune_free(t3);
  wgp_prune_free(def);
}

static void top_n_equals_exhaustive(void **state) {
  (void)state;
  const char *vadd[] = {"--global", "1048576", "--arg", "n=1048576", NULL};
  check_top(traces, "vadd", vadd, NULL, NULL, 1);
  check_top(traces, "vadd", vadd, NULL, NULL, 5);
  const char *tri[] = {"--global", "16384", "--arg", "n=40", NULL};
  check_top(traces, "tri", tri, NULL, NULL, 5);
  const char *red[] = {"--global", "65536", NULL};
  check_top(traces, "reduce", red, "scratch", "4*lx", 3);
  const char *tiled[] = {"--global", "65536", "--arg", "n=16", NULL};
  check_top(pipes, "tiled", tiled, "tile", "4*lx", 5);
  const char *mm2[] = {"--global", "256,256", "--arg", "N=256", NULL};
  check_top(mm, "matmul_tiled", mm2, NULL, NULL, 5);
  check_top(mm, "matmul_tiled", mm2, NULL, NULL, 10);
  /* more than can run: every size, the whole exhaustive ranking */
  check_top(traces, "vadd", vadd, NULL, NULL, SIZE_MAX);
  /* the bounds still prune with N > 1 (stage 2 against the N-th) */
  wgp_prune *p = run_top(mm, "matmul_tiled", mm2, NULL, NULL, 0, 5, 0);
  wgp_prune_counts n;
  wgp_prune_get_counts(p, &n);
  assert_true(n.after_bounds < n.valid);
  wgp_prune_free(p);
}

/* A survivor's estimate is wgperf predict's (wgp_estimate) for its size. */
static void same_as_estimate(void **state) {
  (void)state;
  const char *o[] = {"--global", "256,256", "--arg", "N=256", NULL};
  wgp_prune *p = run(mm, "matmul_tiled", o, NULL, NULL, 0);
  const wgp_prune_candidate *c = wgp_prune_candidate_at(p, wgp_prune_ranked(p, 0));
  char local[64];
  snprintf(local, sizeof local, "%llu,%llu", (unsigned long long)c->local[0], (unsigned long long)c->local[1]);
  const char *lo[] = {"--global", "256,256", "--arg", "N=256", "--local", local, NULL};
  wgp_launch *l = launch_of(lo);
  const wgp_kernel *k = wgp_model_find_kernel(mm, "matmul_tiled");
  uint64_t align[8], lb[32];
  wgp_diag d;
  wgp_analysis_input in = {.kernel = k, .gpu = h100, .buffer_align = align, .local_bytes = lb};
  assert_int_equal(wgp_launch_bind(l, k, &in.launch, align, lb, &d), WGP_OK);
  wgp_estimate *e;
  assert_int_equal(wgp_estimate_new(&in, 0, &e, &d), WGP_OK);
  wgp_sim_result r;
  assert_int_equal(wgp_estimate_simulate(e, 0, &r, &d), WGP_OK);
  assert_true(r.time_us == c->sim.time_us);
  assert_int_equal(r.active_warps_per_sm, c->active_warps_per_sm);
  wgp_estimate_free(e);
  wgp_launch_free(l);
  wgp_prune_free(p);
}

/* __local sizes from expressions: a size whose shared memory does not fit
 * cannot run and says why; the others are sized per candidate (fewer groups
 * fit as the tile grows with the work-group). */
static void local_expressions(void **state) {
  (void)state;
  const char *o[] = {"--global", "65536", "--arg", "n=4", NULL};
  wgp_prune *p = run(pipes, "tiled", o, "tile", "128*lx", 0);
  wgp_prune_counts n;
  wgp_prune_get_counts(p, &n);
  assert_int_equal(n.total, 11);
  assert_int_equal(n.valid, 9);
  for (size_t i = 0; i < n.total; i++) {
    const wgp_prune_candidate *c = wgp_prune_candidate_at(p, i);
    if (c->local[0] >= 512) { /* 64 KiB and more: above the 48 KiB a block may have */
      assert_int_equal(c->stage, WGP_PRUNE_INVALID);
      assert_non_null(strstr(c->why, "shared memory"));
    } else if (c->stage == WGP_PRUNE_INVALID) {
      fail_msg("%llu: %s", (unsigned long long)c->local[0], c->why);
    }
  }
  /* 256 x 128 B = 32 KiB per group: shared memory, not the 64 warps, limits
   * the resident groups (8 groups of 8 warps would fit) */
  const wgp_prune_candidate *c256 = wgp_prune_candidate_at(p, 8);
  assert_int_equal(c256->local[0], 256);
  assert_true(c256->active_groups_per_sm < 8);
  wgp_prune_free(p);
}

static void errors(void **state) {
  (void)state;
  wgp_prune *p;
  wgp_diag d;
  const wgp_kernel *vadd = wgp_model_find_kernel(traces, "vadd"), *tiled = wgp_model_find_kernel(pipes, "tiled");
  /* a scalar argument without a value */
  const char *o1[] = {"--global", "1024", NULL};
  wgp_launch *l = launch_of(o1);
  wgp_prune_options o = {.launch = l};
  assert_int_equal(wgp_prune_run(vadd, h100, &o, &p, &d), WGP_ERR_INPUT);
  assert_null(p);
  assert_non_null(strstr(d.message, "needs a value for its argument 'n'"));
  /* a __local argument without a size */
  wgp_launch_free(l);
  const char *o2[] = {"--global", "1024", "--arg", "n=4", NULL};
  l = launch_of(o2);
  o.launch = l;
  assert_int_equal(wgp_prune_run(tiled, h100, &o, &p, &d), WGP_ERR_INPUT);
  assert_non_null(strstr(d.message, "--local-mem tile=BYTES"));
  /* a malformed expression, and a name that is no __local argument */
  const char *name = "tile", *expr = "4*q";
  o.local_arg_names = &name;
  o.local_arg_exprs = &expr;
  o.num_local_args = 1;
  assert_int_equal(wgp_prune_run(tiled, h100, &o, &p, &d), WGP_ERR_INPUT);
  assert_non_null(strstr(d.message, "bad expression"));
  name = "n", expr = "4";
  assert_int_equal(wgp_prune_run(tiled, h100, &o, &p, &d), WGP_ERR_INPUT);
  assert_non_null(strstr(d.message, "not a __local pointer"));
  /* no size can run: the message says which limit the first one hit */
  name = "tile", expr = "1000000";
  assert_int_equal(wgp_prune_run(tiled, h100, &o, &p, &d), WGP_ERR_INPUT);
  assert_non_null(strstr(d.message, "none of the 11 work-group sizes can run (1x1x1: "));
  assert_non_null(strstr(d.message, "shared memory"));
  /* no launch */
  o.launch = NULL;
  assert_int_equal(wgp_prune_run(tiled, h100, &o, &p, &d), WGP_ERR_INPUT);
  wgp_launch_free(l);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(expressions),      cmocka_unit_test(conditions),       cmocka_unit_test(restrictions),
      cmocka_unit_test(enumeration),
      cmocka_unit_test(stage_one),        cmocka_unit_test(idle_lanes),
      cmocka_unit_test(pruned_equals_exhaustive),
      cmocka_unit_test(top_n_equals_exhaustive),
      cmocka_unit_test(same_as_estimate), cmocka_unit_test(local_expressions),
      cmocka_unit_test(errors),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
