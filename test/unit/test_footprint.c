/* test_footprint.c - exact footprints (footprint.h) against a brute-force
 * reference that enumerates every lane of a wave, on kernels extracted by the
 * real plugin (data/footprint_kernels.cl) over random launch shapes; the
 * range-4 stencil volumes of seeds/002 (T4: 72/40/24/16/10 B per update at
 * wave depths 1/2/4/8/32 without reuse between waves); the layer condition;
 * fallbacks; and a grid too large to enumerate. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wgperf/footprint.h"

#include "footprint_internal.h"

#include <isl/ctx.h>
#include <isl/options.h>
#include <isl/set.h>

static wgp_model *model;
static wgp_gpu *h100;

typedef struct argv_t {
  const char *name[6];
  int64_t value[6];
  size_t n;
} argv_t;

static wgp_eval_status args(void *user, const wgp_sym *sym, int64_t *value, char *reason, size_t size) {
  const argv_t *a = user;
  for (size_t i = 0; sym->kind == WGP_SYM_ARG && i < a->n; i++)
    if (strcmp(sym->name, a->name[i]) == 0) {
      *value = a->value[i];
      return WGP_EVAL_OK;
    }
  snprintf(reason, size, "no value");
  return WGP_EVAL_ERROR;
}

static int setup(void **state) {
  wgp_diag d;
  (void)state;
  if (wgp_model_load_file(WGPERF_SOURCE_DIR "/test/unit/data/footprint_kernels.json", &model, &d) != WGP_OK)
    return -1;
  return wgp_gpu_load_builtin("h100-sxm", &h100, &d) == WGP_OK ? 0 : -1;
}

static int teardown(void **state) {
  (void)state;
  wgp_model_free(model);
  wgp_gpu_free(h100);
  return 0;
}

/* ---- the brute-force reference -------------------------------------------------------- */

typedef struct vec {
  uint64_t *v;
  size_t n, cap;
} vec;

static void push(vec *x, uint64_t u) {
  if (x->n == x->cap) {
    x->cap = x->cap ? 2 * x->cap : 256;
    x->v = realloc(x->v, x->cap * sizeof *x->v);
    assert_non_null(x->v);
  }
  x->v[x->n++] = u;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

static size_t uniq(vec *x) {
  if (!x->n)
    return 0;
  qsort(x->v, x->n, sizeof *x->v, cmp_u64);
  size_t u = 0;
  for (size_t i = 0; i < x->n; i++)
    if (!i || x->v[i] != x->v[i - 1])
      x->v[u++] = x->v[i];
  return x->n = u;
}

static size_t intersect(vec *a, vec *b) { /* both sorted and unique */
  size_t i = 0, j = 0, n = 0;
  while (i < a->n && j < b->n) {
    if (a->v[i] == b->v[j])
      n++, i++, j++;
    else if (a->v[i] < b->v[j])
      i++;
    else
      j++;
  }
  return n;
}

#define MAXACC 16

/* What every lane of a range of groups touches: per access its sectors,
 * lines and lane executions. */
typedef struct brute {
  const wgp_kernel *k;
  const wgp_layout *layout;
  unsigned lanes;
  vec sec[MAXACC], lin[MAXACC];
  double execs[MAXACC];
} brute;

static void visit(void *user, size_t block, uint64_t mask, double weight, double mult, wgp_tracer *t) {
  brute *b = user;
  /* every iteration is executed (loops of at most 16 iterations) */
  assert_true(mult == 1.0);
  const wgp_block *blk = wgp_kernel_block(b->k, block);
  for (size_t i = 0; i < wgp_block_num_accesses(blk); i++) {
    size_t id = wgp_block_access(blk, i);
    const wgp_access *a = wgp_kernel_access(b->k, id);
    if (wgp_access_space(a) != WGP_SPACE_GLOBAL)
      continue;
    uint64_t addr[WGP_TRACE_MAX_WARP];
    uint64_t known = wgp_access_addresses(b->layout, b->k, b->lanes, t, a, mask, addr);
    assert_true(known == mask);
    unsigned bytes = (unsigned)wgp_access_bytes(a);
    for (unsigned l = 0; l < b->lanes; l++) {
      if (!(mask >> l & 1))
        continue;
      b->execs[id] += 1;
      for (uint64_t s = addr[l] / 32; s <= (addr[l] + bytes - 1) / 32; s++)
        push(&b->sec[id], s);
      for (uint64_t s = addr[l] / 128; s <= (addr[l] + bytes - 1) / 128; s++)
        push(&b->lin[id], s);
    }
  }
}

/* Traces every warp of the groups [LO, HI) of the dispatch order. */
static void brute_run(brute *b, const wgp_kernel *k, const wgp_trace_launch *L, uint64_t lo, uint64_t hi) {
  memset(b, 0, sizeof *b);
  b->k = k;
  b->lanes = L->warp_size;
  wgp_diag d;
  wgp_layout *layout;
  assert_int_equal(wgp_layout_new(k, NULL, NULL, &layout, &d), WGP_OK);
  b->layout = layout;
  wgp_tracer *t;
  assert_int_equal(wgp_tracer_new(k, L, &t, &d), WGP_OK);
  wgp_tracer_set_visitor(t, visit, b);
  uint64_t ng[3];
  for (unsigned i = 0; i < 3; i++)
    ng[i] = (L->global[i] + L->local[i] - 1) / L->local[i];
  for (uint64_t g = lo; g < hi; g++) {
    uint64_t gid[3] = {g % ng[0], g / ng[0] % ng[1], g / (ng[0] * ng[1])};
    for (size_t w = 0; w < wgp_tracer_num_warps(t); w++) {
      wgp_trace *tr;
      wgp_status st = wgp_tracer_trace(t, gid, w, &tr, &d);
      if (st == WGP_ERR_INPUT)
        break; /* a short last group has fewer warps */
      assert_int_equal(st, WGP_OK);
      wgp_trace_free(tr);
    }
  }
  for (size_t i = 0; i < MAXACC; i++) {
    uniq(&b->sec[i]);
    uniq(&b->lin[i]);
  }
  wgp_tracer_free(t);
  wgp_layout_free(layout);
}

static void brute_free(brute *b) {
  for (size_t i = 0; i < MAXACC; i++)
    free(b->sec[i].v), free(b->lin[i].v);
}

/* The union of B's sets (sectors or lines) of the accesses of buffer BUF
 * (per F) that read (SEL 1), write (2) or either (3). */
static vec gather(const brute *b, const wgp_kernel *k, const wgp_footprint *f, long buf, int sel, bool lines) {
  vec u = {0};
  for (size_t i = 0; i < wgp_kernel_num_accesses(k); i++) {
    const wgp_footprint_access *fa = wgp_footprint_access_at(f, i);
    wgp_access_kind kind = wgp_access_get_kind(wgp_kernel_access(k, i));
    bool rd = kind != WGP_ACCESS_STORE, wr = kind != WGP_ACCESS_LOAD;
    if (fa->buffer != buf || !((sel & 1 && rd) || (sel & 2 && wr)))
      continue;
    const vec *x = lines ? &b->lin[i] : &b->sec[i];
    for (size_t j = 0; j < x->n; j++)
      push(&u, x->v[j]);
  }
  uniq(&u);
  return u;
}

/* ---- launches ------------------------------------------------------------------------------- */

typedef struct shape {
  const char *kernel;
  unsigned dims;
  uint64_t global[3], local[3];
  argv_t a;
  uint64_t wave; /* groups per wave */
} shape;

static uint64_t pick(uint64_t lo, uint64_t hi) { return lo + (uint64_t)rand() % (hi - lo + 1); }

/* A random launch of one of the kernels, small enough to enumerate, with
 * loops of at most 16 iterations. */
static shape random_shape(int trial) {
  static const char *names[] = {"copy2d", "transpose", "stencil5", "offset_stride", "vec4_shift", "loop_rows",
                                "tri",    "evenodd",   "divmod",   "matmul",        "matmul_tiled", "volume",
                                "positive"};
  shape s = {0};
  s.kernel = names[trial % (int)(sizeof names / sizeof *names)];
  s.dims = 1;
  for (int i = 0; i < 3; i++)
    s.global[i] = s.local[i] = 1;
  argv_t *a = &s.a;
  const char *k = s.kernel;
  if (!strcmp(k, "copy2d") || !strcmp(k, "transpose") || !strcmp(k, "stencil5") || !strcmp(k, "tri")) {
    s.dims = 2;
    s.local[0] = (uint64_t)1 << pick(0, 5);
    s.local[1] = pick(1, 8);
    s.global[0] = s.local[0] * pick(1, 6);
    /* tri loops y + 1 times: y < 16 */
    s.global[1] = s.local[1] * pick(1, !strcmp(k, "tri") ? 2 : 5);
    a->name[0] = "w", a->name[1] = "h";
    /* the bounds cut some groups, or none */
    a->value[0] = (int64_t)pick(s.global[0] / 2 + 1, s.global[0] + 3);
    a->value[1] = (int64_t)pick(s.global[1] / 2 + 1, s.global[1] + 3);
    a->n = 2;
  } else if (!strcmp(k, "offset_stride")) {
    s.local[0] = pick(1, 8) * 16;
    s.global[0] = s.local[0] * pick(1, 8);
    a->name[0] = "off", a->value[0] = (int64_t)pick(0, 40);
    a->name[1] = "s", a->value[1] = (int64_t)pick(1, 9);
    a->name[2] = "n", a->value[2] = (int64_t)pick(1, s.global[0]);
    a->n = 3;
  } else if (!strcmp(k, "vec4_shift") || !strcmp(k, "positive")) {
    s.local[0] = pick(1, 16) * 8;
    s.global[0] = s.local[0] * pick(1, 8);
    a->name[0] = "n", a->value[0] = (int64_t)pick(1, s.global[0]);
    a->n = 1;
  } else if (!strcmp(k, "loop_rows") || !strcmp(k, "evenodd")) {
    s.local[0] = pick(1, 8) * 16;
    s.global[0] = s.local[0] * pick(1, 6);
    a->name[0] = "n", a->value[0] = (int64_t)pick(1, 16);
    a->name[1] = "w", a->value[1] = (int64_t)pick(1, 3 * s.global[0]);
    a->n = 2;
  } else if (!strcmp(k, "divmod")) {
    s.local[0] = pick(1, 8) * 32;
    s.global[0] = s.local[0] * pick(1, 6);
    a->name[0] = "w", a->value[0] = (int64_t)pick(1, 70);
    a->n = 1;
  } else if (!strcmp(k, "matmul") || !strcmp(k, "matmul_tiled")) {
    s.dims = 2;
    uint64_t w = 4 * pick(1, 4); /* 16 at most: the loop's count */
    s.local[0] = s.local[1] = 4;
    s.global[0] = s.global[1] = w;
    a->name[0] = "w", a->value[0] = (int64_t)w;
    a->n = 1;
  } else if (!strcmp(k, "volume")) {
    s.dims = 3;
    s.local[0] = (uint64_t)1 << pick(1, 4), s.local[1] = pick(1, 4), s.local[2] = pick(1, 3);
    for (int i = 0; i < 3; i++)
      s.global[i] = s.local[i] * pick(1, 3);
    a->name[0] = "nx", a->value[0] = (int64_t)s.global[0];
    a->name[1] = "ny", a->value[1] = (int64_t)s.global[1];
    a->n = 2;
  }
  uint64_t groups = 1;
  for (int i = 0; i < 3; i++)
    groups *= s.global[i] / s.local[i];
  s.wave = pick(1, groups);
  return s;
}

static wgp_analysis_input input_of(const shape *s) {
  wgp_analysis_input in = {0};
  in.kernel = wgp_model_find_kernel(model, s->kernel);
  assert_non_null(in.kernel);
  in.gpu = h100;
  in.launch = (wgp_trace_launch){s->dims,
                                 {s->global[0], s->global[1], s->global[2]},
                                 {s->local[0], s->local[1], s->local[2]},
                                 {0, 0, 0},
                                 32,
                                 args,
                                 (void *)&s->a};
  return in;
}

static void check_against_brute_force(const shape *s) {
  wgp_analysis_input in = input_of(s);
  const wgp_kernel *k = in.kernel;
  assert_true(wgp_kernel_num_accesses(k) <= MAXACC);
  wgp_footprint_options o = {0};
  o.groups_per_wave = s->wave;
  wgp_footprint *f;
  wgp_diag d;
  assert_int_equal(wgp_footprint_analyze(&in, &o, &f, &d), WGP_OK);
  const wgp_footprint_launch *L = wgp_footprint_launch_totals(f);
  uint64_t G = L->groups, W = L->groups_per_wave, rep = L->representative_wave;
  assert_int_equal(W, s->wave);
  uint64_t lo = rep * W, hi = lo + W < G ? lo + W : G;
  brute cur, prev, two, all;
  brute_run(&cur, k, &in.launch, lo, hi);
  brute_run(&prev, k, &in.launch, rep ? lo - W : lo, rep ? lo : lo);
  brute_run(&two, k, &in.launch, rep ? lo - W : lo, hi);
  brute_run(&all, k, &in.launch, 0, G);
  char what[256];
  snprintf(what, sizeof what, "%s global %llux%llux%llu local %llux%llux%llu, %llu groups per wave, args", s->kernel,
           (unsigned long long)s->global[0], (unsigned long long)s->global[1], (unsigned long long)s->global[2],
           (unsigned long long)s->local[0], (unsigned long long)s->local[1], (unsigned long long)s->local[2],
           (unsigned long long)W);
  for (size_t i = 0; i < s->a.n; i++)
    snprintf(what + strlen(what), sizeof what - strlen(what), " %s=%lld", s->a.name[i], (long long)s->a.value[i]);
  for (size_t i = 0; i < wgp_kernel_num_accesses(k); i++) {
    const wgp_footprint_access *fa = wgp_footprint_access_at(f, i);
    if (wgp_access_space(wgp_kernel_access(k, i)) != WGP_SPACE_GLOBAL)
      continue;
    if (fa->kind != WGP_FOOTPRINT_EXACT && fa->kind != WGP_FOOTPRINT_BOUND)
      fail_msg("%s: M%zu has no footprint: %s", what, i, fa->reason ? fa->reason : "?");
    if (fa->sectors_per_wave != (double)cur.sec[i].n)
      fail_msg("%s: M%zu touches %.0f sectors in wave %llu, brute force %zu", what, i, fa->sectors_per_wave,
               (unsigned long long)rep, cur.sec[i].n);
    unsigned bytes = (unsigned)wgp_access_bytes(wgp_kernel_access(k, i));
    if (fa->bytes_requested_per_wave != cur.execs[i] * bytes)
      fail_msg("%s: M%zu requests %.0f B, brute force %.0f", what, i, fa->bytes_requested_per_wave,
               cur.execs[i] * bytes);
  }
  for (size_t bi = 0; bi < wgp_footprint_num_buffers(f); bi++) {
    const wgp_footprint_buffer *fb = wgp_footprint_buffer_at(f, bi);
    if (!fb->accesses)
      continue;
    vec rd = gather(&cur, k, f, (long)bi, 1, false), wr = gather(&cur, k, f, (long)bi, 2, false);
    vec pall = gather(&prev, k, f, (long)bi, 3, false), lines = gather(&two, k, f, (long)bi, 3, true);
    vec crd = gather(&all, k, f, (long)bi, 1, false), cwr = gather(&all, k, f, (long)bi, 2, false);
    double ov = rep ? (double)intersect(&rd, &pall) : 0;
    if (fb->read_sectors_per_wave != (double)rd.n || fb->write_sectors_per_wave != (double)wr.n ||
        fb->reused_read_sectors != ov || fb->lines_two_waves != (double)lines.n ||
        fb->compulsory_read_bytes != 32.0 * (double)crd.n || fb->compulsory_write_bytes != 32.0 * (double)cwr.n)
      fail_msg("%s: buffer %s: read %.0f/%zu written %.0f/%zu reused %.0f/%.0f lines %.0f/%zu compulsory %.0f/%zu "
               "%.0f/%zu (footprint/brute force)",
               what, fb->name, fb->read_sectors_per_wave, rd.n, fb->write_sectors_per_wave, wr.n,
               fb->reused_read_sectors, ov, fb->lines_two_waves, lines.n, fb->compulsory_read_bytes / 32, crd.n,
               fb->compulsory_write_bytes / 32, cwr.n);
    free(rd.v), free(wr.v), free(pall.v), free(lines.v), free(crd.v), free(cwr.v);
  }
  brute_free(&cur), brute_free(&prev), brute_free(&two), brute_free(&all);
  wgp_footprint_free(f);
}

static void test_against_brute_force(void **state) {
  (void)state;
  srand(20261123);
  for (int trial = 0; trial < 260; trial++) {
    shape s = random_shape(trial);
    check_against_brute_force(&s);
  }
}

/* ---- seeds/002 ---------------------------------------------------------------------------- */

/* The range-4 star stencil on a 512 x 512 plane with blocks 8 x 4 x D: a
 * wave of 64 x 128 blocks is D whole planes.  Without reuse between waves a
 * wave loads D + 8 planes for D planes of updates: (D + 8) / D x 8 B per
 * update (seeds/002 sec. 5.7), plus the x and y halos of its D planes. */
static wgp_footprint *star(unsigned depth, double l2_bytes, wgp_analysis_input *in, argv_t *a) {
  *a = (argv_t){{"nx", "ny"}, {512, 512}, 2};
  shape s = {"star25", 3, {512, 512, 3 * depth}, {8, 4, depth}, {{0}, {0}, 0}, 0};
  s.a = *a;
  *in = input_of(&s);
  in->launch.user = a;
  wgp_footprint_options o = {0};
  o.groups_per_wave = 64 * 128;
  o.l2_bytes = l2_bytes;
  wgp_footprint *f;
  wgp_diag d;
  assert_int_equal(wgp_footprint_analyze(in, &o, &f, &d), WGP_OK);
  return f;
}

static const wgp_footprint_buffer *buffer_named(const wgp_footprint *f, const char *name) {
  for (size_t i = 0; i < wgp_footprint_num_buffers(f); i++)
    if (strcmp(wgp_footprint_buffer_at(f, i)->name, name) == 0)
      return wgp_footprint_buffer_at(f, i);
  fail_msg("no buffer %s", name);
  return NULL;
}

static void test_seed002_stencil_wave_depths(void **state) {
  (void)state;
  struct { unsigned depth; double paper; } t4[] = {{1, 72}, {2, 40}, {4, 24}, {8, 16}, {16, 12}, {32, 10}};
  for (size_t i = 0; i < sizeof t4 / sizeof *t4; i++) {
    wgp_analysis_input in;
    argv_t a;
    wgp_footprint *f = star(t4[i].depth, 0, &in, &a);
    const wgp_footprint_launch *L = wgp_footprint_launch_totals(f);
    assert_int_equal(L->waves, 3);
    assert_int_equal(L->representative_wave, 1);
    const wgp_footprint_buffer *src = buffer_named(f, "src");
    assert_true(src->exact);
    double X = 512, Y = 512, d = t4[i].depth;
    double updates = X * Y * d;
    double per_update = src->dram_read_bytes_per_wave / updates;
    /* exactly: D planes of rows with 4-element halos, 8 plane halos */
    double want = 32 * (d * (X * Y / 4 + 2 * X + 2 * Y) + 2 * X * Y) / updates;
    if (per_update != want || fabs(per_update - t4[i].paper) > 0.26)
      fail_msg("depth %u: %.4f B per update, expected %.4f (seeds/002: %.0f)", t4[i].depth, per_update, want,
               t4[i].paper);
    /* the update itself: one sector per 4 doubles written */
    assert_true(buffer_named(f, "dst")->dram_write_bytes_per_wave == 8 * updates);
    wgp_footprint_free(f);
  }
}

static void test_layer_condition(void **state) {
  (void)state;
  /* A cache that holds everything: the 8 planes the previous wave loaded
   * hit, only the new planes come from DRAM: 8 B per update plus halos. */
  for (unsigned depth = 1; depth <= 2; depth++) {
    wgp_analysis_input in;
    argv_t a;
    wgp_footprint *f = star(depth, 1e12, &in, &a);
    const wgp_footprint_launch *L = wgp_footprint_launch_totals(f);
    assert_true(L->occupancy < 1 && L->reuse_fraction == 1);
    const wgp_footprint_buffer *src = buffer_named(f, "src");
    double updates = 512.0 * 512 * depth;
    assert_true(src->reused_read_sectors == 8 * 512.0 * 512 / 4);
    assert_true(src->dram_read_bytes_per_wave_reuse / updates == 8 + 64 * (512.0 + 512) / (512.0 * 512));
    wgp_footprint_free(f);
  }
  /* The two waves' lines at 1.5x the cache: half the overlap hits. */
  wgp_analysis_input in;
  argv_t a;
  wgp_footprint *f = star(1, 0, &in, &a);
  double lines = 0;
  for (size_t i = 0; i < wgp_footprint_num_buffers(f); i++)
    lines += wgp_footprint_buffer_at(f, i)->lines_two_waves;
  wgp_footprint_free(f);
  f = star(1, lines * 128 / 1.5, &in, &a);
  const wgp_footprint_launch *L = wgp_footprint_launch_totals(f);
  assert_true(fabs(L->occupancy - 1.5) < 1e-12 && fabs(L->reuse_fraction - 0.5) < 1e-12);
  const wgp_footprint_buffer *src = buffer_named(f, "src");
  assert_true(fabs(src->dram_read_bytes_per_wave_reuse -
                   32 * (src->read_sectors_per_wave - 0.5 * src->reused_read_sectors)) < 1e-6);
  wgp_footprint_free(f);
  /* and at 2x, nothing does */
  f = star(1, lines * 128 / 2, &in, &a);
  src = buffer_named(f, "src");
  assert_true(wgp_footprint_launch_totals(f)->reuse_fraction == 0);
  assert_true(src->dram_read_bytes_per_wave_reuse == src->dram_read_bytes_per_wave);
  wgp_footprint_free(f);
}

/* ---- what has no footprint, and what cannot be enumerated --------------------------------- */

static void test_fallbacks(void **state) {
  (void)state;
  shape s = {"gather", 1, {4096, 1, 1}, {256, 1, 1}, {{0}, {0}, 0}, 0};
  wgp_analysis_input in = input_of(&s);
  wgp_footprint *f;
  wgp_diag d;
  assert_int_equal(wgp_footprint_analyze(&in, NULL, &f, &d), WGP_OK);
  const wgp_kernel *k = in.kernel;
  for (size_t i = 0; i < wgp_kernel_num_accesses(k); i++) {
    const wgp_footprint_access *fa = wgp_footprint_access_at(f, i);
    const char *base = wgp_access_base_name(wgp_kernel_access(k, i));
    if (strcmp(base, "in") == 0) {
      assert_int_equal(fa->kind, WGP_FOOTPRINT_FALLBACK);
      assert_non_null(strstr(fa->reason, "loaded"));
      assert_int_equal(fa->buffer, -1);
    } else {
      assert_int_equal(fa->kind, WGP_FOOTPRINT_EXACT);
      assert_null(fa->reason);
    }
  }
  assert_int_equal(wgp_footprint_launch_totals(f)->fallback_accesses, 1);
  wgp_footprint_free(f);
  /* a data-dependent branch: the store's footprint takes both ways */
  s.kernel = "positive";
  in = input_of(&s);
  assert_int_equal(wgp_footprint_analyze(&in, NULL, &f, &d), WGP_OK);
  k = in.kernel;
  for (size_t i = 0; i < wgp_kernel_num_accesses(k); i++) {
    const wgp_footprint_access *fa = wgp_footprint_access_at(f, i);
    bool store = wgp_access_get_kind(wgp_kernel_access(k, i)) == WGP_ACCESS_STORE;
    assert_int_equal(fa->kind, store ? WGP_FOOTPRINT_BOUND : WGP_FOOTPRINT_EXACT);
    if (store)
      assert_non_null(strstr(fa->reason, "data-dependent"));
  }
  wgp_footprint_free(f);
}

static void test_grid_too_large_to_enumerate(void **state) {
  (void)state;
  /* 2^30 work-items, 4 Mi groups of 32 x 8: counted, never enumerated */
  shape s = {"copy2d", 2, {32768, 32768, 1}, {32, 8, 1}, {{"w", "h"}, {32768, 32768}, 2}, 0};
  wgp_analysis_input in = input_of(&s);
  wgp_footprint_options o = {0};
  o.resident_groups_per_sm = 8; /* 1056 groups per wave on 132 SMs */
  wgp_footprint *f;
  wgp_diag d;
  assert_int_equal(wgp_footprint_analyze(&in, &o, &f, &d), WGP_OK);
  const wgp_footprint_launch *L = wgp_footprint_launch_totals(f);
  assert_int_equal(L->groups, 4194304);
  assert_int_equal(L->groups_per_wave, 1056);
  assert_true(L->sampled);
  const wgp_footprint_buffer *in_buf = buffer_named(f, "in");
  /* a group reads 8 rows of 128 B: 32 sectors, shared with no other */
  assert_true(in_buf->read_sectors_per_wave == 1056 * 32);
  assert_true(in_buf->compulsory_read_bytes == 32768.0 * 32768 * 4);
  /* one touch per sector: the launch reads the matrix once, with or without reuse */
  assert_true(L->dram_read_bytes == 32768.0 * 32768 * 4);
  assert_true(L->dram_read_bytes_no_reuse == 32768.0 * 32768 * 4);
  wgp_footprint_free(f);
}

/* ---- the simulator's interface -------------------------------------------------------------- */

static void test_simulator_interface(void **state) {
  (void)state;
  argv_t a = {{"w"}, {16}, 1};
  shape s = {"matmul", 2, {16, 16, 1}, {4, 4, 1}, {{0}, {0}, 0}, 0};
  s.a = a;
  wgp_analysis_input in = input_of(&s);
  in.launch.user = &a;
  wgp_analysis *an;
  wgp_diag d;
  assert_int_equal(wgp_analyze(&in, &an, &d), WGP_OK);
  const wgp_mem_stats *tot = wgp_analysis_total_stats(an);
  wgp_footprint_options o = {0};
  o.groups_per_wave = 4;
  o.totals = tot;
  wgp_footprint *f;
  assert_int_equal(wgp_footprint_analyze(&in, &o, &f, &d), WGP_OK);
  /* everything fits the H100's L2: each matrix moves once */
  const wgp_footprint_launch *L = wgp_footprint_launch_totals(f);
  assert_true(L->dram_read_bytes == 2 * 16 * 16 * 4);
  assert_true(L->dram_write_bytes == 16 * 16 * 4);
  assert_true(L->dram_read_bytes_no_reuse > L->dram_read_bytes);
  /* a cache result that says everything misses: the footprint still rules
   * the accesses it covers */
  size_t n = wgp_kernel_num_accesses(in.kernel);
  double l1[8], l2[8], hit[8];
  for (size_t i = 0; i < n; i++)
    l1[i] = 0, l2[i] = 0;
  wgp_cache_result lru = {.num_accesses = n, .l1_hit = l1, .l2_hit = l2};
  double rd, wr;
  wgp_footprint_dram_bytes(f, in.kernel, tot, &lru, &rd, &wr);
  assert_true(rd == L->dram_read_bytes && wr == L->dram_write_bytes);
  wgp_footprint_l2_hit_rates(f, in.kernel, tot, &lru, hit);
  double moved = 0, lru_moved = 0;
  for (size_t i = 0; i < n; i++) {
    assert_true(hit[i] >= 0 && hit[i] <= 1);
    moved += tot[i].sectors * 32 * (1 - hit[i]);
    lru_moved += wgp_lru_dram_bytes(in.kernel, i, tot, &lru, 32);
  }
  assert_true(fabs(moved - (L->dram_read_bytes + L->dram_write_bytes)) < 1e-6);
  assert_true(lru_moved == (tot[0].sectors + tot[1].sectors + tot[2].sectors) * 32);
  wgp_footprint_free(f);
  wgp_analysis_free(an);
}

/* ---- extents (the warm-L2 decision's bound) ------------------------------------------------ */

static long arg_named(const wgp_kernel *k, const char *name) {
  for (size_t i = 0; i < wgp_kernel_num_args(k); i++)
    if (strcmp(wgp_arg_name(wgp_kernel_arg(k, i)), name) == 0)
      return (long)i;
  fail_msg("no argument %s", name);
  return -1;
}

static void test_extents(void **state) {
  (void)state;
  wgp_diag d;
  double ext[16];
  /* the multiply of 64 x 64: each matrix from its first to its last sector */
  argv_t a = {{"w"}, {64}, 1};
  shape s = {"matmul", 2, {64, 64, 1}, {16, 16, 1}, {{0}, {0}, 0}, 0};
  s.a = a;
  wgp_analysis_input in = input_of(&s);
  in.launch.user = &a;
  assert_true(wgp_kernel_num_args(in.kernel) <= 16);
  assert_int_equal(wgp_footprint_extents(&in, ext, &d), WGP_OK);
  assert_true(ext[arg_named(in.kernel, "m")] == 64 * 64 * 4);
  assert_true(ext[arg_named(in.kernel, "n")] == 64 * 64 * 4);
  assert_true(ext[arg_named(in.kernel, "p")] == 64 * 64 * 4);
  assert_true(ext[arg_named(in.kernel, "w")] == 0);
  /* a loaded index: no extent for the buffer it indexes */
  shape g = {"gather", 1, {4096, 1, 1}, {256, 1, 1}, {{0}, {0}, 0}, 0};
  in = input_of(&g);
  assert_int_equal(wgp_footprint_extents(&in, ext, &d), WGP_OK);
  assert_true(ext[arg_named(in.kernel, "in")] == 0);
  assert_true(ext[arg_named(in.kernel, "idx")] > 0);
  /* never below what the launch touches: every buffer of random launches
   * against its exact footprint (every sector once) */
  srand(7);
  for (int trial = 0; trial < 60; trial++) {
    shape r = random_shape(trial);
    in = input_of(&r);
    const wgp_kernel *k = in.kernel;
    assert_true(wgp_kernel_num_args(k) <= 16);
    assert_int_equal(wgp_footprint_extents(&in, ext, &d), WGP_OK);
    /* the bytes certainly touched (wgp_footprint_reach) lie within the
     * extent, wherever both are known */
    double lo[16], hi[16];
    assert_int_equal(wgp_footprint_reach(&in, lo, hi, &d), WGP_OK);
    for (size_t x = 0; x < wgp_kernel_num_args(k); x++)
      if (ext[x] > 0 && lo[x] <= hi[x] && hi[x] - lo[x] + 1 > ext[x])
        fail_msg("%s: bytes %g to %g of argument %zu, beyond its extent of %g B", r.kernel, lo[x], hi[x], x, ext[x]);
    wgp_footprint_options o = {0};
    o.groups_per_wave = r.wave;
    wgp_footprint *f;
    assert_int_equal(wgp_footprint_analyze(&in, &o, &f, &d), WGP_OK);
    for (size_t b = 0; b < wgp_footprint_num_buffers(f); b++) {
      const wgp_footprint_buffer *fb = wgp_footprint_buffer_at(f, b);
      size_t arg = 0;
      while (arg < wgp_kernel_num_args(k) && strcmp(wgp_arg_name(wgp_kernel_arg(k, arg)), fb->name) != 0)
        arg++;
      if (arg == wgp_kernel_num_args(k) || ext[arg] == 0)
        continue;
      double touched = fb->compulsory_read_bytes > fb->compulsory_write_bytes ? fb->compulsory_read_bytes
                                                                             : fb->compulsory_write_bytes;
      if (ext[arg] < touched)
        fail_msg("%s: extent of %s %g B below its footprint %g B", r.kernel, fb->name, ext[arg], touched);
    }
    wgp_footprint_free(f);
  }
}

/* ---- reach (accesses outside a buffer) ------------------------------------------------------ */

static void test_reach(void **state) {
  (void)state;
  wgp_diag d;
  double lo[16], hi[16];
  /* the multiply of 64 x 64: each matrix from its first byte to its last */
  argv_t a = {{"w"}, {64}, 1};
  shape s = {"matmul", 2, {64, 64, 1}, {16, 16, 1}, {{0}, {0}, 0}, 0};
  s.a = a;
  wgp_analysis_input in = input_of(&s);
  in.launch.user = &a;
  assert_int_equal(wgp_footprint_reach(&in, lo, hi, &d), WGP_OK);
  for (const char *const *m = (const char *const[]){"m", "n", "p", NULL}; *m; m++) {
    long x = arg_named(in.kernel, *m);
    assert_true(lo[x] == 0 && hi[x] == 64 * 64 * 4 - 1);
  }
  assert_true(lo[arg_named(in.kernel, "w")] > hi[arg_named(in.kernel, "w")]); /* a scalar: nothing */
  /* a loaded index: nothing certain of the buffer it indexes; the index
   * buffer itself from its first element to its last */
  shape g = {"gather", 1, {4096, 1, 1}, {256, 1, 1}, {{0}, {0}, 0}, 0};
  in = input_of(&g);
  assert_int_equal(wgp_footprint_reach(&in, lo, hi, &d), WGP_OK);
  assert_true(lo[arg_named(in.kernel, "in")] > hi[arg_named(in.kernel, "in")]);
  assert_true(lo[arg_named(in.kernel, "idx")] == 0 && hi[arg_named(in.kernel, "idx")] == 4096 * 4 - 1);
}

/* fp_count on unions of images of boxes under affine maps into sectors
 * (existentially quantified variables, as the footprints' sets have them)
 * and of sets with divisions (a mod), against their points marked one by
 * one: exact, whichever way it counts (by the pieces' runs or through
 * isl_set_make_disjoint); and fp_count_firsts on the pieces as sets of
 * their own: the points each has before the others and its own. */
static int64_t fdiv64(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

static void test_count_unions_against_marking(void **state) {
  (void)state;
  isl_ctx *ctx = isl_ctx_alloc();
  isl_options_set_on_error(ctx, ISL_ON_ERROR_CONTINUE);
  enum { QMAX = 16384 + 128, RMAX = 40, OFF = 64, PIECES = 5 }; /* points may be negative: q, s >= -OFF */
  static unsigned char first[QMAX * RMAX]; /* the first piece that has the point, + 1 */
  static int stamp[QMAX * RMAX];           /* the last (trial, piece) that had it */
  int walked = 0;                          /* trials fp_count_firsts counted */
  srand(20261129);
  for (int trial = 0; trial < 400; trial++) {
    int pieces = 1 + rand() % PIECES, dims = 1 + rand() % 2;
    char text[8192], one[PIECES][1600];
    size_t len = (size_t)snprintf(text, sizeof text, "{ ");
    memset(first, 0, sizeof first);
    double want = 0, want_first[PIECES] = {0}, want_own[PIECES] = {0};
#define MARK(pos)                                                                                            \
  do {                                                                                                       \
    size_t at_ = (size_t)(pos);                                                                              \
    if (!first[at_])                                                                                         \
      first[at_] = (unsigned char)(p + 1), want++, want_first[p]++;                                          \
    if (stamp[at_] != trial * 8 + p + 1)                                                                     \
      stamp[at_] = trial * 8 + p + 1, want_own[p]++;                                                         \
  } while (0)
    for (int p = 0; p < pieces; p++) {
      int64_t u = 1 << (rand() % 6), a0 = 1 + rand() % 700, a1 = rand() % 3 ? 1 + rand() % 40 : 0, c = rand() % 90;
      int64_t n0 = 1 + rand() % 24, n1 = 1 + rand() % 12, b = rand() % 8, m = 2 + rand() % 5, rn = 4 + rand() % 30;
      if (dims == 1) {
        /* [s] : exists v0, v1 in a box: u s <= A + b and A <= u s + u - 1, A = a0 v0 + a1 v1 + c */
        snprintf(one[p], sizeof one[p],
                 "[s] : exists (v0, v1 : 0 <= v0 < %lld and 0 <= v1 < %lld and %lld s <= %lld v0 + %lld v1 + %lld and "
                 "%lld v0 + %lld v1 + %lld <= %lld s + %lld)",
                 (long long)n0, (long long)n1, (long long)u, (long long)a0, (long long)a1, (long long)(c + b),
                 (long long)a0, (long long)a1, (long long)c, (long long)u, (long long)(u - 1));
        for (int64_t v0 = 0; v0 < n0; v0++)
          for (int64_t v1 = 0; v1 < n1; v1++) {
            int64_t A = a0 * v0 + a1 * v1 + c;
            for (int64_t x = fdiv64(A, u) - 1; x <= fdiv64(A + b, u); x++)
              if (u * x <= A + b && A <= u * x + u - 1)
                MARK(x + OFF);
          }
      } else {
        /* [q, r] : 0 <= r < rn and (r + q) mod m != 1 and exists v0 in a box:
         * u q <= A and A <= u q + b + u - 1 + r, A = a0 v0 + c */
        snprintf(one[p], sizeof one[p],
                 "[q, r] : 0 <= r < %lld and (r + q) mod %lld != 1 and exists (v0 : 0 <= v0 < %lld and %lld q <= "
                 "%lld v0 + %lld and %lld v0 + %lld <= %lld q + %lld + r)",
                 (long long)rn, (long long)m, (long long)n0, (long long)u, (long long)a0, (long long)c,
                 (long long)a0, (long long)c, (long long)u, (long long)(b + u - 1));
        for (int64_t v0 = 0; v0 < n0; v0++) {
          int64_t A = a0 * v0 + c;
          for (int64_t r = 0; r < rn; r++)
            for (int64_t q = fdiv64(A - b - r, u) - 1; q <= fdiv64(A, u); q++)
              if (u * q <= A && A <= u * q + b + u - 1 + r && ((r + q) % m + m) % m != 1)
                MARK((q + OFF) * RMAX + r);
        }
      }
      len += (size_t)snprintf(text + len, sizeof text - len, "%s%s", p ? "; " : "", one[p]);
    }
#undef MARK
    snprintf(text + len, sizeof text - len, " }");
    isl_set *set = isl_set_read_from_str(ctx, text);
    assert_non_null(set);
    double got = fp_count(set);
    if (got != want)
      fail_msg("trial %d: %s: fp_count %.0f, marked %.0f", trial, text, got, want);
    /* each piece a set of its own: the points each has first, and its own */
    isl_set *sets[PIECES];
    for (int p = 0; p < pieces; p++) {
      char t[sizeof one[p] + 8];
      snprintf(t, sizeof t, "{ %.1600s }", one[p]);
      sets[p] = isl_set_read_from_str(ctx, t);
      assert_non_null(sets[p]);
    }
    double firsts[PIECES], own[PIECES];
    bool ran = fp_count_firsts(sets, (size_t)pieces, firsts, own);
    walked += ran;
    if (ran)
      for (int p = 0; p < pieces; p++)
        if (firsts[p] != want_first[p] || own[p] != want_own[p])
          fail_msg("trial %d piece %d: %s: first %.0f own %.0f, marked %.0f and %.0f", trial, p, text, firsts[p],
                   own[p], want_first[p], want_own[p]);
    for (int p = 0; p < pieces; p++)
      isl_set_free(sets[p]);
  }
  assert_true(walked >= 390); /* the runs suit these sets */
  isl_ctx_free(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_against_brute_force),    cmocka_unit_test(test_seed002_stencil_wave_depths),
      cmocka_unit_test(test_layer_condition),        cmocka_unit_test(test_fallbacks),
      cmocka_unit_test(test_grid_too_large_to_enumerate), cmocka_unit_test(test_simulator_interface),
      cmocka_unit_test(test_extents),
      cmocka_unit_test(test_reach),
      cmocka_unit_test(test_count_unions_against_marking),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
