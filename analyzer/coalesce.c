/* coalesce.c - global-memory coalescing and constant-cache serialisation
 * of one warp-level instruction (rules: coalesce.h, docs/analyzer-rules.md).
 *
 * Assumptions: addresses are byte addresses on a flat space; a lane's bytes
 * are contiguous; requests split by SPLIT_WIDE follow lane order (lanes
 * 0-15, 16-31 for 8 B; 0-7, 8-15, ... for 16 B), as the CUDA programming
 * guide describes for compute capability 2.x/3.x.
 */
#include "wgperf/coalesce.h"

#include "sort_internal.h"

#include <stdlib.h>

#define MAX_WIDTH 256u

static int is_pow2(unsigned x) { return x && !(x & (x - 1)); }

wgp_coalesce_rule wgp_coalesce_rule_default(void) { return (wgp_coalesce_rule){32, 128, false, false}; }

wgp_coalesce_rule wgp_coalesce_rule_for(wgp_coalescing mode, unsigned sector_bytes, unsigned line_bytes) {
  wgp_coalesce_rule r = {sector_bytes, line_bytes, false, mode == WGP_COALESCE_KEPLER_L2_32B};
  return r;
}

/* Distinct units of UNIT bytes touched by the active lanes in [FROM, TO). */
static unsigned units(const uint64_t *addr, uint64_t mask, unsigned from, unsigned to, unsigned width, unsigned unit,
                      uint64_t *buf) {
  size_t n = 0;
  unsigned shift = (unsigned)__builtin_ctz(unit); /* units are powers of two: no division per lane */
  for (unsigned i = from; i < to; i++) {
    if (!(mask >> i & 1))
      continue;
    uint64_t first = addr[i] >> shift, last = (addr[i] + width - 1) >> shift;
    if (addr[i] + width - 1 < addr[i]) /* wraps: the lane ends at the top of the space */
      last = UINT64_MAX >> shift;
    for (uint64_t u = first;; u++) {
      buf[n++] = u;
      if (u == last)
        break;
    }
  }
  return wgp_count_distinct_u64(buf, n);
}

wgp_status wgp_coalesce(const wgp_coalesce_rule *rule, const uint64_t *addr, unsigned lanes, uint64_t mask,
                        unsigned width, wgp_coalesce_result *out, wgp_diag *diag) {
  *out = (wgp_coalesce_result){0, 0, 0, 0, 0, 0};
  if (!is_pow2(rule->sector_bytes) || !is_pow2(rule->line_bytes) || rule->line_bytes < rule->sector_bytes)
    return wgp_diag_set(diag, WGP_ERR_INPUT,
                        "wgperf: error: coalescing rule: sector (%u B) and line (%u B) must be powers of two, "
                        "line >= sector",
                        rule->sector_bytes, rule->line_bytes);
  if (lanes == 0 || lanes > WGP_COALESCE_MAX_LANES)
    return wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: coalescing: %u lanes, expected 1 to %u", lanes,
                        WGP_COALESCE_MAX_LANES);
  if (width == 0 || width > MAX_WIDTH)
    return wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: coalescing: access width %u B, expected 1 to %u", width,
                        MAX_WIDTH);
  if (lanes < 64)
    mask &= (1ull << lanes) - 1;
  /* a lane touches at most width / unit + 2 units; the common widths fit on the stack */
  uint64_t small[WGP_COALESCE_MAX_LANES * 4], *buf = small;
  size_t need = (size_t)lanes * (width / rule->sector_bytes + 2);
  if (need > sizeof small / sizeof *small && !(buf = malloc(need * sizeof *buf)))
    return wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
  unsigned group = lanes;
  if (rule->split_wide && width == 8)
    group = lanes / 2;
  else if (rule->split_wide && width == 16)
    group = lanes / 4;
  if (group == 0)
    group = 1;
  unsigned active = 0;
  for (unsigned from = 0; from < lanes; from += group) {
    unsigned to = from + group < lanes ? from + group : lanes;
    unsigned n = 0;
    for (unsigned i = from; i < to; i++)
      n += mask >> i & 1;
    if (n == 0)
      continue;
    active += n;
    out->requests++;
    out->sectors += units(addr, mask, from, to, width, rule->sector_bytes, buf);
    out->lines += units(addr, mask, from, to, width, rule->line_bytes, buf);
  }
  if (buf != small)
    free(buf);
  out->transactions = rule->line_granule ? out->lines : out->sectors;
  out->bytes_requested = (uint64_t)active * width;
  out->bytes_moved = (uint64_t)out->transactions * (rule->line_granule ? rule->line_bytes : rule->sector_bytes);
  return WGP_OK;
}

unsigned wgp_coalesce_wavefronts(const uint64_t *addr, unsigned lanes, uint64_t mask, unsigned width,
                                 unsigned line_bytes) {
  if (lanes > WGP_COALESCE_MAX_LANES)
    lanes = WGP_COALESCE_MAX_LANES;
  if (lanes < 64)
    mask &= (1ull << lanes) - 1;
  if (width == 0 || width > MAX_WIDTH || !is_pow2(line_bytes))
    return 0;
  unsigned piece = width < 16 ? width : 16;
  unsigned group = line_bytes / piece;
  if (group == 0)
    group = 1;
  uint64_t buf[WGP_COALESCE_MAX_LANES * 2], a[WGP_COALESCE_MAX_LANES];
  unsigned total = 0;
  for (unsigned off = 0; off < width; off += piece) {
    unsigned w = width - off < piece ? width - off : piece;
    for (unsigned i = 0; i < lanes; i++)
      a[i] = addr[i] + off;
    for (unsigned from = 0; from < lanes; from += group) {
      unsigned to = from + group < lanes ? from + group : lanes;
      /* a piece of at most 16 B overlaps at most two lines */
      total += units(a, mask, from, to, w, line_bytes, buf);
    }
  }
  return total;
}

unsigned wgp_constant_serialisation(const uint64_t *addr, unsigned lanes, uint64_t mask) {
  uint64_t v[WGP_COALESCE_MAX_LANES];
  size_t n = 0;
  for (unsigned i = 0; i < lanes && i < WGP_COALESCE_MAX_LANES; i++)
    if (mask >> i & 1)
      v[n++] = addr[i];
  return wgp_count_distinct_u64(v, n);
}
