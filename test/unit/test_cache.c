/* test_cache.c - the cache analysis' work budget: a launch whose sample is
 * small enough is simulated exactly as without a budget; above the budget,
 * first fewer loop iterations and then fewer groups are simulated, and the
 * hit rates stay within WGP_CACHE_SAMPLED_TOLERANCE (absolute) of the full
 * sample's on kernels where the full sample is cheap enough for a test. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_data.h"
#include "wgperf/estimate.h"
#include "wgperf/launch.h"

static wgp_gpu *h100;

static int setup(void **state) {
  wgp_diag d;
  (void)state;
  return wgp_gpu_load_builtin("h100-sxm", &h100, &d) == WGP_OK ? 0 : -1;
}

static int teardown(void **state) {
  (void)state;
  wgp_gpu_free(h100);
  return 0;
}

typedef struct launch_case {
  const char *model, *kernel, *global, *local, *args[3];
  size_t budget; /* small enough to sample */
} launch_case;

typedef struct bound {
  wgp_model *m;
  wgp_launch *l;
  uint64_t align[8], local[32];
  wgp_analysis_input in;
  unsigned resident;
  uint64_t smem;
} bound;

/* The model text of C with TEXT (NULL: its file), on GPU. */
static void bind_on(bound *b, const launch_case *c, const char *text, const wgp_gpu *gpu) {
  wgp_diag d;
  memset(b, 0, sizeof *b);
  char path[512];
  snprintf(path, sizeof path, "%s/test/unit/data/%s", WGPERF_SOURCE_DIR, c->model);
  if ((text ? wgp_model_load_string(text, strlen(text), path, &b->m, &d) : wgp_model_load_file(path, &b->m, &d)) !=
      WGP_OK)
    fail_msg("%s", d.message);
  b->l = wgp_launch_new();
  assert_int_equal(wgp_launch_set_option(b->l, "--global", c->global, &d), WGP_OK);
  assert_int_equal(wgp_launch_set_option(b->l, "--local", c->local, &d), WGP_OK);
  for (int i = 0; i < 3 && c->args[i]; i++) {
    const char *opt = strncmp(c->args[i], "tile=", 5) == 0 ? "--local-mem" : "--arg";
    assert_int_equal(wgp_launch_set_option(b->l, opt, c->args[i], &d), WGP_OK);
  }
  const wgp_kernel *k = wgp_model_find_kernel(b->m, c->kernel);
  assert_non_null(k);
  if (wgp_launch_bind(b->l, k, &b->in.launch, b->align, b->local, &d) != WGP_OK)
    fail_msg("%s", d.message);
  b->in.kernel = k;
  b->in.gpu = gpu;
  b->in.buffer_align = b->align;
  b->in.local_bytes = b->local;
  wgp_analysis *an;
  assert_int_equal(wgp_analyze(&b->in, &an, &d), WGP_OK);
  b->smem = wgp_analysis_local_bytes(an);
  wgp_analysis_free(an);
  uint64_t threads = b->in.launch.local[0] * b->in.launch.local[1] * b->in.launch.local[2];
  wgp_occupancy_request req = {(unsigned)threads, wgp_kernel_choose_registers(k, 0, NULL), (unsigned long)b->smem, 0};
  wgp_occupancy occ;
  assert_int_equal(wgp_occupancy_compute(gpu, &req, &occ, &d), WGP_OK);
  b->resident = occ.active_blocks_per_sm;
}

static void bind_text(bound *b, const launch_case *c, const char *text) { bind_on(b, c, text, h100); }

static void bind(bound *b, const launch_case *c) { bind_text(b, c, NULL); }

static void unbind(bound *b) {
  wgp_launch_free(b->l);
  wgp_model_free(b->m);
}

static const launch_case cases[] = {
    {"matmul_tiled.plugin.json", "matmul_tiled", "256,256", "16,16", {"N=256", NULL, NULL}, 16384},
    {"mem_kernels.json", "loop_column", "1048576", "256", {"w=4096", "n=100", NULL}, 16384},
    {"mem_kernels.json", "loop_column", "65536", "128", {"w=65536", "n=40", NULL}, 8192},
    {"mem_kernels.json", "transpose2d", "1024,1024", "32,8", {"w=1024", "h=1024", NULL}, 512},
    {"trace_kernels.json", "gridstride", "65536", "256", {"n=8388608", NULL, NULL}, 8192},
    {"trace_kernels.json", "gridstride", "32768", "256", {"n=4194304", NULL, NULL}, 4096},
    {"pipeline_kernels.json", "tiled", "32768", "128", {"n=64", "tile=512", NULL}, 4096},
    /* a[i] read and written every iteration, the middle sample standing for
     * 96 iterations: without the iteration before it visited, its load
     * missed for all of them (L2 hit 0.51 sampled against 0.99) */
    {"trace_kernels.json", "evenodd", "16384", "256", {"n=100", NULL, NULL}, 4096},
    /* columns w apart, 64 rows: 0.48 sampled against 0.67 without it */
    {"mem_kernels.json", "loop_column", "262144", "256", {"w=1024", "n=64", NULL}, 8192},
};

static void sampled_within_tolerance(void **state) {
  (void)state;
  wgp_diag d;
  double worst = 0;
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    bound b;
    bind(&b, &cases[i]);
    wgp_cache_result full, part;
    assert_int_equal(wgp_cache_analyze_budget(&b.in, b.resident, b.smem, 0, &full, &d), WGP_OK);
    assert_int_equal(wgp_cache_analyze_budget(&b.in, b.resident, b.smem, cases[i].budget, &part, &d), WGP_OK);
    assert_false(full.sampled);
    if (!part.sampled)
      fail_msg("%s %s: the budget of %zu did not sample", cases[i].kernel, cases[i].global, cases[i].budget);
    double here = 0;
    for (size_t a = 0; a < full.num_accesses; a++) {
      double f[2] = {full.l1_hit[a], full.l2_hit[a]}, p[2] = {part.l1_hit[a], part.l2_hit[a]};
      for (int k = 0; k < 2; k++) {
        assert_true((f[k] < 0) == (p[k] < 0));
        double diff = fabs(f[k] - p[k]);
        worst = diff > worst ? diff : worst;
        here = diff > here ? diff : here;
        if (diff > WGP_CACHE_SAMPLED_TOLERANCE)
          fail_msg("%s %s: access M%zu %s hit rate %.4f sampled, %.4f full", cases[i].kernel, cases[i].global, a,
                   k ? "L2" : "L1", p[k], f[k]);
      }
    }
    printf("%s %s: largest hit-rate difference %.4f\n", cases[i].kernel, cases[i].global, here);
    wgp_cache_result_free(&full);
    wgp_cache_result_free(&part);
    unbind(&b);
  }
  printf("largest hit-rate difference sampled vs full: %.4f\n", worst);
}

/* DRAM rows (cache.h), on a GPU with the row geometry: a naive transpose's
 * coalesced read opens a row per many sectors, its write, whose lanes are
 * rows apart and whose next sector of each row only the next grid row of
 * groups writes, one per sector; the H100's description has no row
 * geometry, so no access has a row count there. */
static void dram_rows_of_a_transpose(void **state) {
  (void)state;
  wgp_diag d;
  wgp_gpu *gtx980;
  assert_int_equal(wgp_gpu_load_builtin("gtx-980", &gtx980, &d), WGP_OK);
  const launch_case c = {"mem_kernels.json", "transpose2d", "4096,4096", "32,8", {"w=4096", "h=4096", NULL}, 0};
  const wgp_gpu *gpus[] = {gtx980, h100};
  for (int gi = 0; gi < 2; gi++) {
    bound b;
    bind_on(&b, &c, NULL, gpus[gi]);
    wgp_cache_result r;
    assert_int_equal(wgp_cache_analyze(&b.in, b.resident, b.smem, &r, &d), WGP_OK);
    size_t loads = 0, stores = 0;
    for (size_t a = 0; a < r.num_accesses; a++) {
      const wgp_access *acc = wgp_kernel_access(b.in.kernel, a);
      if (wgp_access_space(acc) != WGP_SPACE_GLOBAL)
        continue;
      bool store = wgp_access_get_kind(acc) == WGP_ACCESS_STORE;
      printf("%s: %s M%zu: %.4f DRAM row activations per sector\n", wgp_gpu_name(gpus[gi]),
             store ? "store" : "load", a, r.dram_rows[a]);
      if (gi == 1)
        assert_true(r.dram_rows[a] == -1);
      else if (store)
        assert_true(r.dram_rows[a] > 0.9 && r.dram_rows[a] <= 1);
      else
        assert_true(r.dram_rows[a] > 0 && r.dram_rows[a] < 0.1);
      stores += store, loads += !store;
    }
    assert_int_equal(loads, 1);
    assert_int_equal(stores, 1);
    wgp_cache_result_free(&r);
    unbind(&b);
  }
  wgp_gpu_free(gtx980);
}

/* A line's dirty sectors leave L2 together, one row activation for them: the
 * transpose's write with 8x8 groups puts one 32 B sector in each of 8 lines
 * per warp, and the groups 1, 2 and 3 grid rows on write the line's other
 * three sectors while it is still in L2 (1024x1024: a wave of a GTX 980 is
 * 4 grid rows), so one activation per 4 sectors; written back one sector at
 * a time as it was written (between other rows' accesses) it was 0.89 per
 * sector.  (At 4096x4096 a wave is one grid row and the analysis, which sees
 * no reuse between waves, keeps 1.) */
static void dram_rows_write_back_whole_lines(void **state) {
  (void)state;
  wgp_diag d;
  wgp_gpu *gtx980;
  assert_int_equal(wgp_gpu_load_builtin("gtx-980", &gtx980, &d), WGP_OK);
  const launch_case c = {"mem_kernels.json", "transpose2d", "1024,1024", "8,8", {"w=1024", "h=1024", NULL}, 0};
  bound b;
  bind_on(&b, &c, NULL, gtx980);
  wgp_cache_result r;
  assert_int_equal(wgp_cache_analyze(&b.in, b.resident, b.smem, &r, &d), WGP_OK);
  size_t stores = 0;
  for (size_t a = 0; a < r.num_accesses; a++)
    if (wgp_access_get_kind(wgp_kernel_access(b.in.kernel, a)) == WGP_ACCESS_STORE) {
      printf("transpose 8x8 groups, GTX 980: store M%zu: %.4f DRAM row activations per sector\n", a, r.dram_rows[a]);
      assert_true(r.dram_rows[a] > 0.2 && r.dram_rows[a] < 0.3);
      stores++;
    }
  assert_int_equal(stores, 1);
  wgp_cache_result_free(&r);
  unbind(&b);
  wgp_gpu_free(gtx980);
}

/* L2 is write-back: a read-modify-write (a[i] += 1) writes back every sector
 * it read, once; a loop writing the same element again writes it back once
 * (before, a store that found its sector in L2 counted no DRAM write at all:
 * bitonic's swaps in place moved nothing to DRAM; nvprof counts them). */
static void read_modify_write_writes_back(void **state) {
  (void)state;
  wgp_diag d;
  const launch_case rmw = {"mem_kernels.json", "coalesced", "33554432", "256", {NULL, NULL, NULL}, 0};
  const launch_case loop = {"trace_kernels.json", "evenodd", "33554432", "256", {"n=20", NULL, NULL}, 0};
  const launch_case *cs[] = {&rmw, &loop};
  for (int i = 0; i < 2; i++) {
    bound b;
    bind(&b, cs[i]);
    wgp_cache_result r;
    assert_int_equal(wgp_cache_analyze(&b.in, b.resident, b.smem, &r, &d), WGP_OK);
    printf("%s: DRAM read %.1f, write %.1f B per group\n", cs[i]->kernel, r.dram_read_bytes_per_group,
           r.dram_write_bytes_per_group);
    assert_true(fabs(r.dram_read_bytes_per_group - 1024) < 1e-6);
    assert_true(fabs(r.dram_write_bytes_per_group - 1024) < 1e-6);
    wgp_cache_result_free(&r);
    unbind(&b);
  }
}

/* A request completes with its slowest sector: a read 16 B off the lines
 * touches five sectors, the first brought in by the warp before it, so a
 * fifth of its sectors hit (L1 on the H100, where the warps of a group share
 * it, else L2) but every request waits on DRAM for the other four; a
 * coalesced read of data already read waits on none. */
static void requests_wait_for_their_slowest_sector(void **state) {
  (void)state;
  wgp_diag d;
  const launch_case c = {"mem_kernels.json", "offset16", "1048576", "256", {NULL, NULL, NULL}, 0};
  bound b;
  bind(&b, &c);
  wgp_cache_result r;
  assert_int_equal(wgp_cache_analyze(&b.in, b.resident, b.smem, &r, &d), WGP_OK);
  size_t loads = 0;
  for (size_t a = 0; a < r.num_accesses; a++) {
    const wgp_access *acc = wgp_kernel_access(b.in.kernel, a);
    if (wgp_access_get_kind(acc) != WGP_ACCESS_LOAD) {
      assert_true(r.last_l1[a] == -1 && r.last_dram[a] == -1);
      continue;
    }
    loads++;
    double hit = r.l1_hit[a] + (1 - r.l1_hit[a]) * r.l2_hit[a];
    printf("offset16 M%zu: sectors hit %.3f (L1 %.3f), requests served by L1 alone %.3f, waiting on DRAM %.3f\n", a,
           hit, r.l1_hit[a], r.last_l1[a], r.last_dram[a]);
    assert_true(hit > 0.15 && hit < 0.25);
    assert_true(r.last_l1[a] == 0);
    assert_true(r.last_dram[a] == 1);
  }
  assert_int_equal(loads, 1);
  /* data in L2 before the launch: no request waits on DRAM */
  wgp_mem_stats *tot = calloc(r.num_accesses, sizeof *tot);
  assert_non_null(tot);
  for (size_t a = 0; a < r.num_accesses; a++)
    tot[a].sectors = 1024;
  assert_true(wgp_cache_warm_l2(&r, b.in.kernel, h100, tot, NULL, NULL));
  for (size_t a = 0; a < r.num_accesses; a++)
    if (r.last_dram[a] >= 0)
      assert_true(r.last_dram[a] == 0);
  free(tot);
  wgp_cache_result_free(&r);
  unbind(&b);
}

static void under_budget_is_exact(void **state) {
  (void)state;
  wgp_diag d;
  for (size_t i = 2; i < 5; i++) {
    bound b;
    bind(&b, &cases[i]);
    wgp_cache_result full, big;
    assert_int_equal(wgp_cache_analyze_budget(&b.in, b.resident, b.smem, 0, &full, &d), WGP_OK);
    assert_int_equal(wgp_cache_analyze_budget(&b.in, b.resident, b.smem, SIZE_MAX / 4, &big, &d), WGP_OK);
    assert_false(big.sampled);
    assert_int_equal(full.groups_simulated, big.groups_simulated);
    for (size_t a = 0; a < full.num_accesses; a++) {
      assert_true(full.l1_hit[a] == big.l1_hit[a]);
      assert_true(full.l2_hit[a] == big.l2_hit[a]);
    }
    assert_true(full.dram_read_bytes_per_group == big.dram_read_bytes_per_group);
    wgp_cache_result_free(&full);
    wgp_cache_result_free(&big);
    unbind(&b);
  }
}

/* The sample is whole groups of the first wave, at most
 * WGP_CACHE_MAX_GROUPS of them and at most WGP_CACHE_MAX_WARPS warps: 512
 * groups of one warp, 128 of four, 102 of five, 16 of 1024 work-items and
 * of 1000 (a partial warp counts as one). */
static void sample_is_bounded_in_warps(void **state) {
  (void)state;
  wgp_diag d;
  static const struct {
    const char *global, *local;
    size_t groups;
  } want[] = {{"1048576", "32", 512},  {"1048576", "128", 128}, {"1000000", "160", 102},
              {"1048576", "256", 64},  {"1048576", "1024", 16}, {"1000000", "1000", 16}};
  for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
    launch_case c = {"trace_kernels.json", "vadd", want[i].global, want[i].local, {"n=1048576", NULL, NULL}, 0};
    bound b;
    bind(&b, &c);
    wgp_cache_result r;
    assert_int_equal(wgp_cache_analyze_budget(&b.in, b.resident, b.smem, 0, &r, &d), WGP_OK);
    if (r.groups_simulated != want[i].groups)
      fail_msg("groups of %s: %zu simulated, expected %zu", want[i].local, r.groups_simulated, want[i].groups);
    wgp_cache_result_free(&r);
    unbind(&b);
  }
}

static void assert_same_result(const wgp_cache_result *a, const wgp_cache_result *b, const char *what, unsigned n) {
  if (a->groups_simulated != b->groups_simulated || a->sampled != b->sampled || a->num_accesses != b->num_accesses ||
      a->dram_read_bytes_per_group != b->dram_read_bytes_per_group ||
      a->dram_write_bytes_per_group != b->dram_write_bytes_per_group || a->num_bases != b->num_bases)
    fail_msg("%s: %u threads: groups, sampling or DRAM bytes differ from one thread", what, n);
  for (size_t i = 0; i < a->num_accesses; i++)
    if (a->l1_hit[i] != b->l1_hit[i] || a->l2_hit[i] != b->l2_hit[i])
      fail_msg("%s: %u threads: access M%zu hit rates %.6f/%.6f, one thread %.6f/%.6f", what, n, i, b->l1_hit[i],
               b->l2_hit[i], a->l1_hit[i], a->l2_hit[i]);
  for (size_t i = 0; i < a->num_bases; i++)
    if (a->distinct[i] != b->distinct[i])
      fail_msg("%s: %u threads: distinct share of buffer %zu differs", what, n, i);
}

/* The sample traced by several threads is joined in order: the result is
 * the one thread's, bit for bit, whatever the number of threads (more
 * threads than groups included), with and without the budget's sampling. */
static void threads_do_not_change_the_result(void **state) {
  (void)state;
  wgp_diag d;
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    bound b;
    bind(&b, &cases[i]);
    for (int sampled = 0; sampled < 2; sampled++) {
      size_t budget = sampled ? cases[i].budget : SIZE_MAX / 4;
      wgp_cache_result one, many;
      b.in.threads = 1;
      assert_int_equal(wgp_cache_analyze_budget(&b.in, b.resident, b.smem, budget, &one, &d), WGP_OK);
      assert_true(one.sampled == (sampled == 1));
      static const unsigned counts[] = {2, 3, 7, 200};
      for (size_t c = 0; c < sizeof counts / sizeof *counts; c++) {
        b.in.threads = counts[c];
        assert_int_equal(wgp_cache_analyze_budget(&b.in, b.resident, b.smem, budget, &many, &d), WGP_OK);
        assert_same_result(&one, &many, cases[i].kernel, counts[c]);
        wgp_cache_result_free(&many);
      }
      wgp_cache_result_free(&one);
    }
    unbind(&b);
  }
}

/* Accesses with the same offset in one block (a[i] read, then written) take
 * the first one's sectors, moved by the difference of their bases.  The
 * same model with every offset written differently (x + (j - j): the same
 * values, no twin) gives the same result bit for bit, sampled or not, on
 * one thread or several.  Here: TEXT with the offset X of its J-th access
 * written (add X (sub J J)). */
static char *untwinned(const char *text) {
  size_t n = strlen(text), offsets = 0;
  for (const char *p = text; (p = strstr(p, "\"offset\": \"")); p++)
    offsets++;
  char *out = malloc(n + offsets * 64 + 1), *o = out;
  assert_non_null(out);
  const char *p = text;
  for (size_t j = 0;; j++) {
    const char *off = strstr(p, "\"offset\": \"");
    if (!off)
      break;
    off += strlen("\"offset\": \"");
    const char *end = strchr(off, '"');
    assert_non_null(end);
    memcpy(o, p, (size_t)(off - p)), o += off - p;
    o += sprintf(o, "(add ");
    memcpy(o, off, (size_t)(end - off)), o += end - off;
    o += sprintf(o, " (sub %zu %zu))", j, j);
    p = end;
  }
  strcpy(o, p);
  return out;
}

static size_t count_twins(const wgp_kernel *k) {
  uint32_t *tw = wgp_offset_twins(k);
  assert_non_null(tw);
  size_t n = 0;
  for (size_t i = 0; i < wgp_kernel_num_accesses(k); i++)
    n += tw[i] != WGP_NO_TWIN;
  free(tw);
  return n;
}

static void twins_change_nothing(void **state) {
  (void)state;
  wgp_diag d;
  size_t compared = 0, ncases = sizeof cases / sizeof *cases;
  /* vadd: a[i], b[i] and c[i], three buffers: the twins' sectors move */
  static const launch_case vadd = {"trace_kernels.json", "vadd", "1048576", "256", {"n=1000000", NULL, NULL}, 0};
  for (size_t i = 0; i <= ncases; i++) {
    const launch_case *c = i < ncases ? &cases[i] : &vadd;
    char *text = test_data_text(c->model), *other = untwinned(text);
    bound b, u;
    bind_text(&b, c, text);
    bind_text(&u, c, other);
    assert_int_equal(count_twins(u.in.kernel), 0);
    if (count_twins(b.in.kernel) == 0) {
      unbind(&b), unbind(&u), free(text), free(other);
      continue;
    }
    compared++;
    for (int sampled = 0; sampled < 2; sampled++)
      for (unsigned threads = 1; threads <= 3; threads += 2) {
        size_t budget = sampled && c->budget ? c->budget : SIZE_MAX / 4;
        wgp_cache_result with, without;
        b.in.threads = u.in.threads = threads;
        assert_int_equal(wgp_cache_analyze_budget(&b.in, b.resident, b.smem, budget, &with, &d), WGP_OK);
        assert_int_equal(wgp_cache_analyze_budget(&u.in, u.resident, u.smem, budget, &without, &d), WGP_OK);
        assert_same_result(&without, &with, c->kernel, threads);
        wgp_cache_result_free(&with);
        wgp_cache_result_free(&without);
      }
    unbind(&b), unbind(&u), free(text), free(other);
  }
  assert_true(compared >= 4); /* gridstride (twice) and evenodd: a[i] read and written; vadd */
}

/* The mean L1 hit rate of R's loads at source line LINE of their file. */
static double l1_hit_at_line(const wgp_cache_result *r, const wgp_kernel *k, int line) {
  double sum = 0;
  size_t n = 0;
  for (size_t a = 0; a < r->num_accesses; a++) {
    const char *src = wgp_access_source(wgp_kernel_access(k, a)), *colon = src ? strrchr(src, ':') : NULL;
    if (colon && atoi(colon + 1) == line && r->l1_hit[a] >= 0)
      sum += r->l1_hit[a], n++;
  }
  assert_true(n > 0);
  return sum / (double)n;
}

/* TEXT with every global load of base BASE (NULL: every load) given the
 * cache operator OP (a new string). */
static char *loads_of_with_cache(const char *text, const char *base, const char *op) {
  const char *key = "\"kind\": \"load\"";
  char name[64] = "";
  if (base)
    snprintf(name, sizeof name, "\"name\": \"%s\"", base);
  size_t n = 0;
  for (const char *p = strstr(text, key); p; p = strstr(p + 1, key))
    n++;
  char *out = malloc(strlen(text) + n * (strlen(op) + 16) + 1), *o = out;
  assert_non_null(out);
  for (const char *p = text, *q; (q = strstr(p, key)); p = q + strlen(key)) {
    memcpy(o, p, (size_t)(q - p) + strlen(key));
    o += (q - p) + strlen(key);
    /* the access's base name comes before the next access's "id" */
    const char *next = strstr(q, "\"id\": "), *nm = base ? strstr(q, name) : NULL;
    if (!base || (nm && (!next || nm < next)))
      o += sprintf(o, ", \"cache\": \"%s\"", op);
    text = q + strlen(key);
  }
  strcpy(o, text);
  return out;
}

static char *loads_with_cache(const char *text, const char *op) { return loads_of_with_cache(text, NULL, op); }

/* PTX's cache operators (docs/kernel-model.md, "Cache operators"), on two
 * passes over a row per group (sampled_passes_age_the_caches below): where
 * the rows of the groups sharing L1 fit (4 groups), the second pass finds
 * the first's lines there, but not as .cg loads, which neither look in nor
 * allocate in L1, nor with -dlcm=cg (launch_attributes.global_load_cache);
 * .cs loads (evict-first) alone keep the same hits: their lines leave first,
 * in the order they came, which among themselves is the plain LRU order, so
 * nothing changes where they fit (4 groups) and where they do not (64). */
static void cache_operators(void **state) {
  (void)state;
  wgp_diag d;
  static const launch_case c = {"row_kernels.json", "two_pass", "4096", "32", {"cols=2048", NULL, NULL}, 0};
  char *text = test_data_text(c.model), *cg = loads_with_cache(text, "cg"), *cs = loads_with_cache(text, "cs");
  /* the same kernel compiled with -dlcm=cg */
  const char *key = "\"name\": \"two_pass\",";
  char *at = strstr(text, key), *dl = malloc(strlen(text) + 96);
  assert_non_null(at);
  assert_non_null(dl);
  sprintf(dl, "%.*s%s \"launch_attributes\": {\"global_load_cache\": \"cg\"},%s", (int)(at - text), text, key,
          at + strlen(key));
  const char *texts[] = {text, cg, cs, dl};
  static const unsigned residents[] = {4, 64};
  for (size_t r = 0; r < 2; r++) {
    double hit[4];
    for (int v = 0; v < 4; v++) {
      bound b;
      bind_text(&b, &c, texts[v]);
      wgp_cache_result res;
      assert_int_equal(wgp_cache_analyze(&b.in, residents[r], b.smem, &res, &d), WGP_OK);
      hit[v] = l1_hit_at_line(&res, b.in.kernel, 17); /* the second pass */
      if (v == 1)
        for (size_t a = 0; a < res.num_accesses; a++)
          if (wgp_access_get_kind(wgp_kernel_access(b.in.kernel, a)) == WGP_ACCESS_LOAD)
            assert_int_equal(wgp_access_cache(wgp_kernel_access(b.in.kernel, a)), WGP_CACHE_CG);
      if (v == 3)
        assert_int_equal(wgp_kernel_global_load_cache(b.in.kernel), WGP_CACHE_CG);
      wgp_cache_result_free(&res);
      unbind(&b);
    }
    printf("two passes, %u groups share L1: second pass L1 hit plain %.4f, .cg %.4f, .cs %.4f, -dlcm=cg %.4f\n",
           residents[r], hit[0], hit[1], hit[2], hit[3]);
    assert_true(residents[r] == 4 ? hit[0] > 0.9 : hit[0] < 0.1);
    assert_true(hit[1] == 0 && hit[3] == 0);
    assert_true(fabs(hit[2] - hit[0]) < 1e-9);
  }
  free(text), free(cg), free(cs), free(dl);
}

/* Evict-first lines leave before the others: a warp reads a table (4 KB)
 * twice, 32 iterations apart, and a new line of a stream every iteration;
 * where the table and the stream between its two reads do not fit in the
 * group's share of L1, the table's second read misses with plain loads and
 * hits when the stream's loads are .cs (stream_kernels.cl); where both fit,
 * it hits either way. */
static void evict_first_keeps_the_others(void **state) {
  (void)state;
  wgp_diag d;
  static const launch_case c = {"stream_kernels.json", "table_and_stream", "32768", "32", {"n=32768", NULL, NULL}, 0};
  char *text = test_data_text(c.model), *cs = loads_of_with_cache(text, "big", "cs");
  static const unsigned residents[] = {4, 32, 48, 64};
  for (size_t r = 0; r < sizeof residents / sizeof *residents; r++) {
    double hit[2];
    for (int v = 0; v < 2; v++) {
      bound b;
      bind_text(&b, &c, v ? cs : text);
      wgp_cache_result res;
      assert_int_equal(wgp_cache_analyze(&b.in, residents[r], b.smem, &res, &d), WGP_OK);
      double sum = 0;
      size_t n = 0;
      for (size_t a = 0; a < res.num_accesses; a++) {
        const wgp_access *acc = wgp_kernel_access(b.in.kernel, a);
        if (wgp_access_get_kind(acc) != WGP_ACCESS_LOAD)
          continue;
        bool big = strcmp(wgp_access_base_name(acc), "big") == 0;
        assert_int_equal(wgp_access_cache(acc), v && big ? WGP_CACHE_CS : WGP_CACHE_DEFAULT);
        if (!big)
          sum += res.l1_hit[a], n++;
      }
      hit[v] = sum / (double)n;
      wgp_cache_result_free(&res);
      unbind(&b);
    }
    printf("table and stream, %u groups share L1: table's L1 hit plain %.4f, stream .cs %.4f\n", residents[r], hit[0],
           hit[1]);
    /* the first read of each table line misses: 0.5 is every second read */
    assert_true(hit[1] >= hit[0] - 1e-9);
    if (residents[r] == 4)
      assert_true(fabs(hit[0] - 0.5) < 0.01 && fabs(hit[1] - 0.5) < 0.01);
    if (residents[r] == 48)
      assert_true(hit[0] < 0.1 && hit[1] > 0.45);
  }
  free(text), free(cs);
}

/* A sampled stretch stands for its iterations in the caches too: the
 * iterations it skips put phantom lines in (cache.h), so a second pass over
 * a row finds in L1 what the whole first pass left there.  Two passes over
 * rows of 2048 floats (8 KB), a warp a row and a group: sampled (two_pass)
 * against every iteration traced (two_pass_unrolled), with the SM's L1
 * shared by 4 groups (the rows fit) and by 64 (4 KB each: they do not).
 * Before the phantom lines the sampled second pass hit 1.0 with 64 groups:
 * the first pass had put only its traced iterations in. */
static void sampled_passes_age_the_caches(void **state) {
  (void)state;
  wgp_diag d;
  static const launch_case sampled = {"row_kernels.json", "two_pass", "4096", "32", {"cols=2048", NULL, NULL}, 0};
  static const launch_case full = {"row_kernels.json", "two_pass_unrolled", "4096", "32", {NULL, NULL, NULL}, 0};
  static const unsigned residents[] = {4, 64};
  for (size_t i = 0; i < sizeof residents / sizeof *residents; i++) {
    bound bs, bf;
    bind(&bs, &sampled);
    bind(&bf, &full);
    wgp_cache_result rs, rf;
    assert_int_equal(wgp_cache_analyze(&bs.in, residents[i], bs.smem, &rs, &d), WGP_OK);
    assert_int_equal(wgp_cache_analyze(&bf.in, residents[i], bf.smem, &rf, &d), WGP_OK);
    assert_false(rs.sampled || rf.sampled);
    /* the second pass: row_kernels.cl:17 and :34 */
    double hs = l1_hit_at_line(&rs, bs.in.kernel, 17), hf = l1_hit_at_line(&rf, bf.in.kernel, 34);
    printf("two passes, %u groups share L1: second pass L1 hit %.4f sampled, %.4f every iteration\n", residents[i],
           hs, hf);
    assert_true(residents[i] == 4 ? hf > 0.9 : hf < 0.1);
    assert_true(fabs(hs - hf) <= WGP_CACHE_SAMPLED_TOLERANCE);
    wgp_cache_result_free(&rs);
    wgp_cache_result_free(&rf);
    unbind(&bs);
    unbind(&bf);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(sample_is_bounded_in_warps),
      cmocka_unit_test(threads_do_not_change_the_result),
      cmocka_unit_test(twins_change_nothing),
      cmocka_unit_test(under_budget_is_exact),
      cmocka_unit_test(dram_rows_of_a_transpose),
      cmocka_unit_test(dram_rows_write_back_whole_lines),
      cmocka_unit_test(cache_operators),
      cmocka_unit_test(evict_first_keeps_the_others),
      cmocka_unit_test(requests_wait_for_their_slowest_sector),
      cmocka_unit_test(read_modify_write_writes_back),
      cmocka_unit_test(sampled_within_tolerance),
      cmocka_unit_test(sampled_passes_age_the_caches),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
