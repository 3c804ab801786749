/* test_coalesce.c - global coalescing and constant serialisation of one warp
 * request: hand-checked cases of issue 3 and a brute-force property test. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdbool.h>
#include <string.h>

#include "wgperf/coalesce.h"

#define FULL 0xffffffffull

static wgp_coalesce_result run(const wgp_coalesce_rule *r, const uint64_t *addr, uint64_t mask, unsigned width) {
  wgp_coalesce_result res;
  wgp_diag d;
  assert_int_equal(wgp_coalesce(r, addr, 32, mask, width, &res, &d), WGP_OK);
  return res;
}

static void affine(uint64_t *addr, uint64_t base, int64_t stride) {
  for (unsigned i = 0; i < 32; i++)
    addr[i] = base + (uint64_t)((int64_t)i * stride);
}

static void test_hand_checked(void **state) {
  (void)state;
  wgp_coalesce_rule r = wgp_coalesce_rule_default();
  uint64_t a[32];
  /* coalesced fp32: 128 B, 4 sectors, 1 line */
  affine(a, 4096, 4);
  wgp_coalesce_result x = run(&r, a, FULL, 4);
  assert_int_equal(x.requests, 1);
  assert_int_equal(x.sectors, 4);
  assert_int_equal(x.lines, 1);
  assert_int_equal(x.bytes_requested, 128);
  assert_int_equal(x.bytes_moved, 128);
  /* stride-2 fp32: 8 sectors, half the bytes moved are wasted */
  affine(a, 4096, 8);
  x = run(&r, a, FULL, 4);
  assert_int_equal(x.sectors, 8);
  assert_int_equal(x.lines, 2);
  assert_int_equal(x.bytes_moved, 256);
  /* a column of a row-major matrix (pitch 4 KiB) read by a warp along x */
  affine(a, 4096, 4096);
  x = run(&r, a, FULL, 4);
  assert_int_equal(x.sectors, 32);
  assert_int_equal(x.lines, 32);
  /* pitch exactly 128 B: still one sector per lane */
  affine(a, 0, 128);
  assert_int_equal(run(&r, a, FULL, 4).sectors, 32);
  /* float4 coalesced: 512 B = 16 sectors, 4 lines, one request */
  affine(a, 4096, 16);
  x = run(&r, a, FULL, 16);
  assert_int_equal(x.requests, 1);
  assert_int_equal(x.sectors, 16);
  assert_int_equal(x.lines, 4);
  /* misaligned coalesced fp32: 5 sectors, 2 lines */
  affine(a, 16, 4);
  x = run(&r, a, FULL, 4);
  assert_int_equal(x.sectors, 5);
  assert_int_equal(x.lines, 2);
  /* partial mask: lanes 0-15 of the above */
  x = run(&r, a, 0xffffull, 4);
  assert_int_equal(x.sectors, 3);
  assert_int_equal(x.lines, 1);
  assert_int_equal(x.bytes_requested, 64);
  /* one lane */
  x = run(&r, a, 1ull << 31, 4);
  assert_int_equal(x.sectors, 1);
  assert_int_equal(x.requests, 1);
  /* no lane: nothing issued */
  x = run(&r, a, 0, 4);
  assert_int_equal(x.requests, 0);
  assert_int_equal(x.sectors, 0);
  assert_int_equal(x.bytes_moved, 0);
  /* one lane straddling a sector boundary (unaligned 8 B) */
  a[0] = 28;
  x = run(&r, a, 1, 8);
  assert_int_equal(x.sectors, 2);
  assert_int_equal(x.lines, 1);
}

static void test_kepler_rules(void **state) {
  (void)state;
  uint64_t a[32];
  /* Kepler L2 segments: float4 coalesced is four quarter-warp requests of 4 sectors */
  wgp_coalesce_rule k = wgp_coalesce_rule_for(WGP_COALESCE_KEPLER_L2_32B, 32, 128);
  affine(a, 0, 16);
  wgp_coalesce_result x = run(&k, a, FULL, 16);
  assert_int_equal(x.requests, 4);
  assert_int_equal(x.sectors, 16);
  assert_int_equal(x.transactions, 16);
  /* fp64 coalesced: two half-warp requests */
  affine(a, 0, 8);
  x = run(&k, a, FULL, 8);
  assert_int_equal(x.requests, 2);
  assert_int_equal(x.sectors, 8);
  /* only lanes 0-7 active: the second half-warp issues nothing */
  x = run(&k, a, 0xffull, 8);
  assert_int_equal(x.requests, 1);
  assert_int_equal(x.sectors, 2);
  /* fp32 is not split */
  affine(a, 0, 4);
  assert_int_equal(run(&k, a, FULL, 4).requests, 1);
  /* L1-cached lines: stride-2 fp32 moves two 128 B lines */
  wgp_coalesce_rule c = {32, 128, true, true};
  affine(a, 0, 8);
  x = run(&c, a, FULL, 4);
  assert_int_equal(x.transactions, 2);
  assert_int_equal(x.bytes_moved, 256);
  /* the SECTORS32 mode is the default */
  wgp_coalesce_rule s = wgp_coalesce_rule_for(WGP_COALESCE_SECTORS32, 32, 128);
  wgp_coalesce_rule def = wgp_coalesce_rule_default();
  assert_true(s.sector_bytes == def.sector_bytes && s.line_bytes == def.line_bytes && s.split_wide == def.split_wide &&
              s.line_granule == def.line_granule);
}

static void test_constant(void **state) {
  (void)state;
  uint64_t a[32];
  affine(a, 64, 0);
  assert_int_equal(wgp_constant_serialisation(a, 32, FULL), 1);
  affine(a, 64, 4);
  assert_int_equal(wgp_constant_serialisation(a, 32, FULL), 32);
  assert_int_equal(wgp_constant_serialisation(a, 32, 0x0f0full), 8);
  assert_int_equal(wgp_constant_serialisation(a, 32, 0), 0);
  for (unsigned i = 0; i < 32; i++)
    a[i] = 64 + 4 * (i % 3);
  assert_int_equal(wgp_constant_serialisation(a, 32, FULL), 3);
}

static void test_errors(void **state) {
  (void)state;
  uint64_t a[32] = {0};
  wgp_coalesce_result x;
  wgp_diag d;
  wgp_coalesce_rule bad = {24, 128, false, false};
  assert_int_equal(wgp_coalesce(&bad, a, 32, FULL, 4, &x, &d), WGP_ERR_INPUT);
  assert_non_null(strstr(d.message, "sector (24 B)"));
  wgp_coalesce_rule small = {128, 32, false, false};
  assert_int_equal(wgp_coalesce(&small, a, 32, FULL, 4, &x, &d), WGP_ERR_INPUT);
  wgp_coalesce_rule r = wgp_coalesce_rule_default();
  assert_int_equal(wgp_coalesce(&r, a, 0, FULL, 4, &x, &d), WGP_ERR_INPUT);
  assert_non_null(strstr(d.message, "0 lanes"));
  assert_int_equal(wgp_coalesce(&r, a, 65, FULL, 4, &x, &d), WGP_ERR_INPUT);
  assert_int_equal(wgp_coalesce(&r, a, 32, FULL, 0, &x, &d), WGP_ERR_INPUT);
  assert_non_null(strstr(d.message, "access width 0 B"));
  assert_int_equal(wgp_coalesce(&r, a, 32, FULL, 257, &x, &d), WGP_ERR_INPUT);
  assert_int_equal(wgp_coalesce(&r, a, 32, FULL, 4, &x, NULL), WGP_OK);
}

/* ---- brute force: every byte of every active lane, linear-search sets ---- */

static unsigned bf_count(const uint64_t *addr, uint64_t mask, unsigned from, unsigned to, unsigned width,
                         unsigned unit) {
  uint64_t seen[32 * 17 + 32];
  unsigned n = 0;
  for (unsigned i = from; i < to; i++) {
    if (!(mask >> i & 1))
      continue;
    for (unsigned b = 0; b < width; b++) {
      uint64_t u = (addr[i] + b) / unit;
      bool found = false;
      for (unsigned j = 0; j < n && !found; j++)
        found = seen[j] == u;
      if (!found)
        seen[n++] = u;
    }
  }
  return n;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void) { /* xorshift64: deterministic */
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

static void test_random_affine_matches_brute_force(void **state) {
  (void)state;
  static const unsigned widths[] = {1, 2, 4, 8, 16};
  for (unsigned iter = 0; iter < 20000; iter++) {
    unsigned width = widths[rnd() % 5];
    bool aligned = rnd() % 4 != 0;
    uint64_t base = (1ull << 32) + rnd() % 100000;
    if (aligned)
      base -= base % width;
    int64_t stride = (int64_t)(rnd() % 129) - 64;
    if (rnd() % 2)
      stride *= (int64_t)width;
    if (rnd() % 8 == 0)
      stride = (int64_t)(rnd() % 8192);
    uint64_t mask = rnd() % 3 == 0 ? FULL : rnd() & FULL;
    bool split = rnd() % 2, lines = rnd() % 2;
    wgp_coalesce_rule r = {32, 128, lines, split};
    uint64_t a[32];
    affine(a, base, stride);
    wgp_coalesce_result x = run(&r, a, mask, width);
    unsigned group = split && width == 8 ? 16 : split && width == 16 ? 8 : 32;
    unsigned req = 0, sec = 0, lin = 0, active = 0;
    for (unsigned from = 0; from < 32; from += group) {
      uint64_t m = mask & (((1ull << group) - 1) << from);
      if (!m)
        continue;
      req++;
      sec += bf_count(a, m, from, from + group, width, 32);
      lin += bf_count(a, m, from, from + group, width, 128);
    }
    for (unsigned i = 0; i < 32; i++)
      active += mask >> i & 1;
    assert_int_equal(x.requests, req);
    assert_int_equal(x.sectors, sec);
    assert_int_equal(x.lines, lin);
    assert_int_equal(x.transactions, lines ? lin : sec);
    assert_int_equal(x.bytes_requested, (uint64_t)active * width);
    assert_int_equal(x.bytes_moved, lines ? lin * 128ull : sec * 32ull);
  }
}

/* L1TEX wavefronts of Volta and later: a wide request's lanes in phases
 * of a line's worth of data, a wavefront per distinct line of a phase. */
static void test_wavefronts(void **state) {
  (void)state;
  /* affine requests: lane i at base + i x stride */
  const struct {
    uint64_t base;
    int64_t stride;
    uint64_t mask;
    unsigned width, want;
  } cases[] = {
      {4096, 4, FULL, 4, 1},     /* 4 B: the warp is one phase, its distinct lines */
      {4096, 4096, FULL, 4, 32}, /* a column */
      {4096, 16, FULL, 16, 4},   /* coalesced float4: a quarter-warp per line */
      {4096, 0, FULL, 16, 4},    /* every lane the same float4: one per quarter-warp */
      {0, 8, FULL, 8, 2},        /* 8 B in half-warps of one line each */
      /* 32 B a lane (float8) is two 16 B pieces: lanes at 32 B steps, each piece's
       * quarter-warp spans 256 B, 2 lines: 2 pieces x 4 phases x 2 */
      {0, 32, FULL, 32, 16},
      {120, 0, 1, 16, 2},          /* a piece across a line boundary counts both lines */
      {4096, 16, 0, 16, 0},        /* no lane active */
      {4096, 16, 1ull << 9, 16, 1} /* only lane 9 */
  };
  uint64_t a[32];
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    affine(a, cases[c].base, cases[c].stride);
    assert_int_equal(wgp_coalesce_wavefronts(a, 32, cases[c].mask, cases[c].width, 128), cases[c].want);
  }
  /* float4 at 64 B steps over 8 lanes, the same 512 B for each quarter-warp
   * (CLBlast's A tile read without shared memory): 4 lines, 16 wavefronts */
  for (unsigned i = 0; i < 32; i++)
    a[i] = 4096 + (i % 8) * 64;
  wgp_coalesce_rule r = wgp_coalesce_rule_default();
  assert_int_equal(run(&r, a, FULL, 16).lines, 4);
  assert_int_equal(wgp_coalesce_wavefronts(a, 32, FULL, 16, 128), 16);
  /* a width or line size out of range counts nothing */
  assert_int_equal(wgp_coalesce_wavefronts(a, 32, FULL, 0, 128), 0);
  assert_int_equal(wgp_coalesce_wavefronts(a, 32, FULL, 16, 96), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_hand_checked),
      cmocka_unit_test(test_kepler_rules),
      cmocka_unit_test(test_constant),
      cmocka_unit_test(test_errors),
      cmocka_unit_test(test_random_affine_matches_brute_force),
      cmocka_unit_test(test_wavefronts),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
