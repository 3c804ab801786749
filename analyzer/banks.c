/* banks.c - shared-memory bank conflicts of one warp-level request (rules:
 * banks.h, docs/analyzer-rules.md).
 *
 * Assumptions: shared addresses are byte offsets in the work-group's shared
 * space; a lane's bytes are contiguous; phases follow lane order (lanes 0-15
 * then 16-31 for 8 B accesses).  The phase width is BANKS x BANK_BYTES, so a
 * conflict-free wide request costs one wavefront per phase.  Two phases of a
 * pair (0-1, 2-3) share a wavefront when their distinct words, together,
 * fall in distinct banks (so each phase alone is conflict-free): Nsight
 * Compute counts 2 wavefronts for a 16 B load that every lane of a warp
 * reads from one address, or each quarter-warp from its own row, on an
 * H100, and nvprof 2 transactions on a GTX 980 for the tiled matrix
 * multiply's LDS.128 reads of A's rows at every tile width, also 12, 20 and
 * 28, where a quarter-warp straddles two rows (phase by phase 4, or 3 when
 * only phases of one address paired); phases with conflicts keep a
 * wavefront each (the transposed tile: 8, 16, 32 as measured).
 */
#include "wgperf/banks.h"

#include "sort_internal.h"

#include <stdbool.h>
#include <stdlib.h>

#define MAX_WIDTH 256u

static int is_pow2(unsigned x) { return x && !(x & (x - 1)); }

wgp_bank_rule wgp_bank_rule_default(void) { return (wgp_bank_rule){32, 4}; }

unsigned wgp_banks_phase_lanes(const wgp_bank_rule *rule, unsigned lanes, unsigned width) {
  if (lanes == 0)
    return lanes;
  unsigned w = 1;
  while (w < width) /* a 12 B access is served like a 16 B one */
    w <<= 1;
  unsigned per = rule->banks * rule->bank_bytes / w;
  if (per == 0)
    per = 1;
  return per < lanes ? per : lanes;
}

/* The conflict of lanes [FROM, TO): the most distinct words in one bank. */
static unsigned phase_conflict(const wgp_bank_rule *r, const uint64_t *addr, uint64_t mask, unsigned from, unsigned to,
                               unsigned width, uint64_t *words) {
  size_t n = 0;
  unsigned shift = (unsigned)__builtin_ctz(r->bank_bytes); /* a power of two: no division per lane */
  for (unsigned i = from; i < to; i++) {
    if (!(mask >> i & 1))
      continue;
    uint64_t first = addr[i] >> shift, last = (addr[i] + width - 1) >> shift;
    if (addr[i] + width - 1 < addr[i])
      last = UINT64_MAX >> shift;
    for (uint64_t w = first;; w++) {
      words[n++] = w;
      if (w == last)
        break;
    }
  }
  if (n == 0)
    return 0;
  bool pow2 = is_pow2(r->banks);
  /* the common case first, unsorted: every bank holds one distinct word at
   * most (lanes reading one word share it): one wavefront */
  if (pow2 && r->banks <= 64) {
    uint64_t seen = 0, at[64];
    bool clash = false;
    for (size_t i = 0; i < n && !clash; i++) {
      unsigned b = (unsigned)(words[i] & (r->banks - 1));
      if (seen >> b & 1)
        clash = at[b] != words[i];
      else
        seen |= UINT64_C(1) << b, at[b] = words[i];
    }
    if (!clash)
      return 1;
  }
  wgp_sort_u64(words, n);
  if (r->banks <= 64) {
    uint64_t seen = 0;
    bool clash = false;
    for (size_t i = 0; i < n && !clash; i++) {
      if (i > 0 && words[i] == words[i - 1])
        continue; /* lanes touching the same word share it */
      uint64_t bit = UINT64_C(1) << (pow2 ? words[i] & (r->banks - 1) : words[i] % r->banks);
      clash = seen & bit;
      seen |= bit;
    }
    if (!clash)
      return 1;
  }
  unsigned per_bank[WGP_BANKS_MAX_BANKS], worst = 0;
  for (unsigned b = 0; b < r->banks; b++)
    per_bank[b] = 0;
  for (size_t i = 0; i < n; i++) {
    if (i > 0 && words[i] == words[i - 1])
      continue;
    unsigned b = (unsigned)(words[i] % r->banks);
    if (++per_bank[b] > worst)
      worst = per_bank[b];
  }
  return worst;
}

static wgp_status one_request(const wgp_bank_rule *rule, const uint64_t *addr, unsigned lanes, uint64_t mask,
                              unsigned width, wgp_bank_result *out, wgp_diag *diag);

/* A lane's bytes go in pieces of at most WGP_BANKS_PIECE_BYTES, one request
 * each (the widest shared access an instruction makes): a 32 B float8 is two
 * LDS.128 of 16 B, whose quarter-warps each read half of their lanes' bytes,
 * as the coalescing rule's pieces for global loads (wgp_coalesce_wavefronts). */
wgp_status wgp_banks(const wgp_bank_rule *rule, const uint64_t *addr, unsigned lanes, uint64_t mask, unsigned width,
                     wgp_bank_result *out, wgp_diag *diag) {
  if (width <= WGP_BANKS_PIECE_BYTES || lanes == 0 || lanes > WGP_BANKS_MAX_LANES || width > MAX_WIDTH)
    return one_request(rule, addr, lanes, mask, width, out, diag);
  *out = (wgp_bank_result){0, 0, 0};
  uint64_t a[WGP_BANKS_MAX_LANES];
  for (unsigned off = 0; off < width; off += WGP_BANKS_PIECE_BYTES) {
    for (unsigned i = 0; i < lanes; i++)
      a[i] = addr[i] + off;
    wgp_bank_result p;
    unsigned w = width - off < WGP_BANKS_PIECE_BYTES ? width - off : WGP_BANKS_PIECE_BYTES;
    wgp_status st = one_request(rule, a, lanes, mask, w, &p, diag);
    if (st != WGP_OK)
      return st;
    out->wavefronts += p.wavefronts;
    out->phases += p.phases;
    if (p.degree > out->degree)
      out->degree = p.degree;
  }
  return WGP_OK;
}

static wgp_status one_request(const wgp_bank_rule *rule, const uint64_t *addr, unsigned lanes, uint64_t mask,
                              unsigned width, wgp_bank_result *out, wgp_diag *diag) {
  *out = (wgp_bank_result){0, 0, 0};
  if (rule->banks == 0 || rule->banks > WGP_BANKS_MAX_BANKS || !is_pow2(rule->bank_bytes))
    return wgp_diag_set(diag, WGP_ERR_INPUT,
                        "wgperf: error: bank rule: %u banks of %u B, expected 1 to %u banks of a power of two "
                        "bytes",
                        rule->banks, rule->bank_bytes, WGP_BANKS_MAX_BANKS);
  if (lanes == 0 || lanes > WGP_BANKS_MAX_LANES)
    return wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: bank conflicts: %u lanes, expected 1 to %u", lanes,
                        WGP_BANKS_MAX_LANES);
  if (width == 0 || width > MAX_WIDTH)
    return wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: bank conflicts: access width %u B, expected 1 to %u",
                        width, MAX_WIDTH);
  if (lanes < 64)
    mask &= (1ull << lanes) - 1;
  /* a lane touches at most width / bank_bytes + 2 words; the common widths fit on the stack */
  uint64_t small[WGP_BANKS_MAX_LANES * 6], *words = small;
  size_t need = (size_t)lanes * (width / rule->bank_bytes + 2);
  if (need > sizeof small / sizeof *small && !(words = malloc(need * sizeof *words)))
    return wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
  unsigned phase = wgp_banks_phase_lanes(rule, lanes, width);
  unsigned prev_c = 0;
  for (unsigned from = 0, p = 0; from < lanes; from += phase, p++) {
    unsigned to = from + phase < lanes ? from + phase : lanes;
    unsigned c = phase_conflict(rule, addr, mask, from, to, width, words);
    /* a pair of phases (0-1, 2-3) whose distinct words, together, fall in
     * distinct banks shares its first phase's wavefront */
    bool merged = p % 2 == 1 && prev_c == 1 && c == 1 && phase_conflict(rule, addr, mask, from - phase, to, width, words) == 1;
    prev_c = c;
    if (merged || c == 0)
      continue; /* merged, or no active lane in this phase */
    out->phases++;
    out->wavefronts += c;
    if (c > out->degree)
      out->degree = c;
  }
  /* A wide request goes in passes of 2 x BANKS x BANK_BYTES (a half-warp of
   * 16 B lanes), each at least one wavefront, whatever merged and even with
   * half of the warp inactive: nvprof counts 2 for the tiled multiply's
   * LDS.128 row reads in 16-lane warps (4x4 tiles) and in the last,
   * half-filled warp of 12x12, 20x20 and 28x28 groups, on Kepler and
   * Maxwell alike. */
  unsigned pass = 2 * rule->banks * rule->bank_bytes;
  unsigned passes = (unsigned)(((uint64_t)lanes * width + pass - 1) / pass);
  if (out->wavefronts && out->wavefronts < passes) {
    out->phases += passes - out->wavefronts;
    out->wavefronts = passes;
  }
  if (words != small)
    free(words);
  return WGP_OK;
}
