/* test_banks.c - shared-memory bank conflicts of one warp request:
 * hand-checked cases of issue 3, seeds/002 T1, and a brute-force property
 * test. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdbool.h>
#include <string.h>

#include "wgperf/banks.h"

#define FULL 0xffffffffull

static wgp_bank_result run(const uint64_t *addr, uint64_t mask, unsigned width) {
  wgp_bank_rule r = wgp_bank_rule_default();
  wgp_bank_result res;
  wgp_diag d;
  assert_int_equal(wgp_banks(&r, addr, 32, mask, width, &res, &d), WGP_OK);
  return res;
}

static void affine(uint64_t *addr, uint64_t base, int64_t stride) {
  for (unsigned i = 0; i < 32; i++)
    addr[i] = base + (uint64_t)((int64_t)i * stride);
}

static void expect(const uint64_t *addr, uint64_t mask, unsigned width, unsigned degree, unsigned wavefronts,
                   unsigned phases) {
  wgp_bank_result x = run(addr, mask, width);
  assert_int_equal(x.degree, degree);
  assert_int_equal(x.wavefronts, wavefronts);
  assert_int_equal(x.phases, phases);
}

static void test_fp32(void **state) {
  (void)state;
  uint64_t a[32];
  affine(a, 0, 4); /* stride 1 word */
  expect(a, FULL, 4, 1, 1, 1);
  affine(a, 0, 8); /* stride 2 words */
  expect(a, FULL, 4, 2, 2, 1);
  affine(a, 0, 128); /* stride 32 words: one bank */
  expect(a, FULL, 4, 32, 32, 1);
  affine(a, 0, 4 * 33); /* column of a tile padded to 33 */
  expect(a, FULL, 4, 1, 1, 1);
  affine(a, 256, 0); /* every lane reads one word: broadcast */
  expect(a, FULL, 4, 1, 1, 1);
  for (unsigned i = 0; i < 32; i++) /* two words of one bank, 16 lanes each */
    a[i] = i < 16 ? 0 : 128;
  expect(a, FULL, 4, 2, 2, 1);
  affine(a, 0, 128); /* partial masks */
  expect(a, 0xfull, 4, 4, 4, 1);
  expect(a, 1ull << 20, 4, 1, 1, 1);
  expect(a, 0, 4, 0, 0, 0);
  affine(a, 0, 1); /* bytes: 4 lanes per word */
  expect(a, FULL, 1, 1, 1, 1);
  affine(a, 0, 2);
  expect(a, FULL, 2, 1, 1, 1);
}

/* seeds/002 T1: half-warp DP bank cycles A[t] = 1, B[2t] = 2, D[16t] = 16;
 * a warp takes at least 2 (one per half-warp). */
static void test_seed002_t1(void **state) {
  (void)state;
  uint64_t a[32];
  affine(a, 0, 8);
  expect(a, FULL, 8, 1, 2, 2);
  affine(a, 0, 16);
  expect(a, FULL, 8, 2, 4, 2);
  affine(a, 0, 128);
  expect(a, FULL, 8, 16, 32, 2);
}

static void test_wide(void **state) {
  (void)state;
  uint64_t a[32];
  affine(a, 0, 8); /* fp64, lanes 0-15 only: one phase */
  expect(a, 0xffffull, 8, 1, 1, 1);
  expect(a, 0xffff0000ull, 8, 1, 1, 1);
  affine(a, 8, 0); /* fp64 broadcast: the two half-warp phases share one wavefront */
  expect(a, FULL, 8, 1, 1, 1);
  affine(a, 16, 0); /* float4 broadcast: the phase pairs 0-1 and 2-3 each share one */
  expect(a, FULL, 16, 1, 2, 2);
  for (unsigned i = 0; i < 32; i++) /* two rows of a tile, 16 lanes each (a 16x16 tile's A[ty][k..k+3]) */
    a[i] = i < 16 ? 0 : 64;
  expect(a, FULL, 16, 1, 2, 2);
  for (unsigned i = 0; i < 32; i++) /* phases 1 and 2 share an address but are not a pair; */
    a[i] = i < 8 ? 0 : i < 24 ? 16 : 32; /* each pair still merges (0|16, 16|32: no common bank) */
  expect(a, FULL, 16, 1, 2, 2);
  for (unsigned i = 0; i < 32; i++) /* the same with phase 3 at 128 + 16, in phase 2's banks */
    a[i] = i < 8 ? 0 : i < 24 ? 16 : 144;
  expect(a, FULL, 16, 1, 3, 3);
  for (unsigned i = 0; i < 32; i++) /* a row per quarter-warp, rows 32 B apart (an 8x8 tile): pairs merge */
    a[i] = 32 * (i / 8);
  expect(a, FULL, 16, 1, 2, 2);
  for (unsigned i = 0; i < 32; i++) /* rows 128 B apart meet in a bank: no merging */
    a[i] = 128 * (i / 8);
  expect(a, FULL, 16, 1, 4, 4);
  affine(a, 0, 16); /* float4 coalesced: four quarter-warp phases */
  expect(a, FULL, 16, 1, 4, 4);
  /* nvprof's evidence for pairs that merge with several addresses, and for
   * the two passes of a 16 B request (GTX 980 and Tesla K40: 1.2 shared
   * load transactions per request for the tiled multiply at every tile
   * width, 4 single loads of B and one LDS.128 of A's row costing 2) */
  for (unsigned i = 0; i < 32; i++) /* 12x12 tile, warp 0: rows 0 (lanes 0-11), 1 (12-23), 2 (24-31), 48 B apart */
    a[i] = 48 * (i / 12);
  expect(a, FULL, 16, 1, 2, 2);
  for (unsigned i = 0; i < 32; i++) /* 4x4 tile: 16-lane warps, four rows 16 B apart, one pair active */
    a[i] = 16 * (i / 4);
  expect(a, 0xffffull, 16, 1, 2, 2);
  affine(a, 80 * 19, 0); /* 20x20 tile, the last warp: 16 lanes of one row */
  expect(a, 0xffffull, 16, 1, 2, 2);
  affine(a, 0, 32); /* float4 stride 2: 2-way in every phase */
  expect(a, FULL, 16, 2, 8, 4);
  /* a 32 B float8 is two LDS.128, each a quarter-warp at a time: a coalesced
   * one reads 16 B at a 32 B stride in each, 2-way (not 8 conflict-free
   * phases of 4 lanes) */
  affine(a, 0, 32);
  expect(a, FULL, 32, 2, 16, 8);
  for (unsigned i = 0; i < 32; i++) /* CLBlast's Xgemm A tile, MDIMC=8 and two float8 a thread: 64 B apart */
    a[i] = 64 * (i % 8);
  expect(a, FULL, 32, 4, 32, 8);
  affine(a, 64, 0); /* float8 broadcast: each half pairs as a float4 broadcast */
  expect(a, FULL, 32, 1, 4, 4);
  wgp_bank_rule r = wgp_bank_rule_default();
  assert_int_equal(wgp_banks_phase_lanes(&r, 32, 4), 32);
  assert_int_equal(wgp_banks_phase_lanes(&r, 32, 8), 16);
  assert_int_equal(wgp_banks_phase_lanes(&r, 32, 12), 8);
  assert_int_equal(wgp_banks_phase_lanes(&r, 32, 16), 8);
  /* 16 banks of 8 B (seeds/002's view): fp64 D[16t] is still 16-way */
  wgp_bank_rule r8 = {16, 8};
  wgp_bank_result x;
  affine(a, 0, 128);
  assert_int_equal(wgp_banks(&r8, a, 32, FULL, 8, &x, NULL), WGP_OK);
  assert_int_equal(x.degree, 16);
}

static void test_errors(void **state) {
  (void)state;
  uint64_t a[32] = {0};
  wgp_bank_result x;
  wgp_diag d;
  wgp_bank_rule bad = {32, 3};
  assert_int_equal(wgp_banks(&bad, a, 32, FULL, 4, &x, &d), WGP_ERR_INPUT);
  assert_non_null(strstr(d.message, "32 banks of 3 B"));
  wgp_bank_rule none = {0, 4};
  assert_int_equal(wgp_banks(&none, a, 32, FULL, 4, &x, &d), WGP_ERR_INPUT);
  wgp_bank_rule r = wgp_bank_rule_default();
  assert_int_equal(wgp_banks(&r, a, 0, FULL, 4, &x, &d), WGP_ERR_INPUT);
  assert_non_null(strstr(d.message, "0 lanes"));
  assert_int_equal(wgp_banks(&r, a, 32, FULL, 0, &x, &d), WGP_ERR_INPUT);
  assert_non_null(strstr(d.message, "access width 0 B"));
}

/* ---- brute force: per phase, per bank, the distinct words of every byte ---- */

static unsigned bf_phase(const uint64_t *addr, uint64_t mask, unsigned from, unsigned to, unsigned width) {
  unsigned worst = 0;
  for (unsigned bank = 0; bank < 32; bank++) {
    uint64_t seen[32 * 16];
    unsigned n = 0;
    for (unsigned i = from; i < to; i++) {
      if (!(mask >> i & 1))
        continue;
      for (unsigned b = 0; b < width; b++) {
        uint64_t w = (addr[i] + b) / 4;
        if (w % 32 != bank)
          continue;
        bool found = false;
        for (unsigned j = 0; j < n && !found; j++)
          found = seen[j] == w;
        if (!found)
          seen[n++] = w;
      }
    }
    if (n > worst)
      worst = n;
  }
  return worst;
}

static uint64_t rng_state = 0x2545f4914f6cdd1dull;
static uint64_t rnd(void) {
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
    uint64_t base = rnd() % 49152;
    if (rnd() % 4 != 0)
      base -= base % width;
    int64_t stride = (int64_t)(rnd() % 67) - 33;
    if (rnd() % 2)
      stride *= (int64_t)width;
    uint64_t mask = rnd() % 3 == 0 ? FULL : rnd() & FULL;
    uint64_t a[32];
    affine(a, base + 4096, stride);
    wgp_bank_result x = run(a, mask, width);
    unsigned phase = width == 8 ? 16 : width == 16 ? 8 : 32;
    unsigned deg = 0, wf = 0, ph = 0, prev = 0;
    for (unsigned from = 0; from < 32; from += phase) {
      unsigned c = bf_phase(a, mask, from, from + phase, width);
      /* an odd phase and its partner, each conflict-free, whose distinct
       * words together fall in distinct banks: one wavefront */
      bool merged = from / phase % 2 == 1 && prev == 1 && c == 1 && bf_phase(a, mask, from - phase, from + phase, width) == 1;
      prev = c;
      if (merged || !c)
        continue;
      ph++;
      wf += c;
      deg = c > deg ? c : deg;
    }
    /* 16 B lanes go in two half-warp passes of a wavefront at least */
    unsigned passes = width == 16 ? 2 : 1;
    if (wf && wf < passes)
      ph += passes - wf, wf = passes;
    assert_int_equal(x.degree, deg);
    assert_int_equal(x.wavefronts, wf);
    assert_int_equal(x.phases, ph);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_fp32),
      cmocka_unit_test(test_seed002_t1),
      cmocka_unit_test(test_wide),
      cmocka_unit_test(test_errors),
      cmocka_unit_test(test_random_affine_matches_brute_force),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
