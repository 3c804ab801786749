/* counters.c - nvprof-equivalent counters (include/wgperf/counters.h has the
 * rules; docs/counters.md the evidence from the amaris-nvprof data).
 *
 * The analysis keeps per-access sums (sectors, lines, wavefronts) that are
 * not enough for nvprof's per-architecture units (16 B pieces per half-warp,
 * Kepler's 64-bit bank rows), so each warp class's representative warp is
 * traced once more with a visitor that sees the lane addresses. */
#include "wgperf/counters.h"

#include "wgperf/banks.h"

#include "sort_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const names[WGP_NUM_COUNTERS] = {
    "gld_transactions_per_request", "gst_transactions_per_request", "shared_ld_transactions_per_request",
    "shared_st_transactions_per_request", "shared_ld_bank_conflict", "shared_st_bank_conflict",
    "l2_read_transactions", "l2_write_transactions", "dram_read_transactions", "dram_write_transactions",
    "inst_executed"};

const char *wgp_counter_name(wgp_counter c) { return (size_t)c < WGP_NUM_COUNTERS ? names[c] : "?"; }

wgp_counter_rules wgp_counter_rules_for(const wgp_gpu *gpu) {
  switch (wgp_gpu_architecture(gpu)) {
  case WGP_ARCH_KEPLER: return WGP_RULES_KEPLER;
  case WGP_ARCH_MAXWELL: return WGP_RULES_MAXWELL;
  default: return WGP_RULES_SECTORS;
  }
}

const char *wgp_counter_rules_name(wgp_counter_rules r) {
  return r == WGP_RULES_KEPLER ? "kepler" : r == WGP_RULES_MAXWELL ? "maxwell" : "sectors";
}

#define MAX_PIECES (64u * 16u)

/* Distinct units of UNIT bytes touched by the lanes of MASK within [FIRST, LAST). */
static unsigned units(const uint64_t *addr, uint64_t mask, unsigned first, unsigned last, unsigned width,
                      unsigned unit) {
  uint64_t key[MAX_PIECES];
  unsigned n = 0;
  if (width == 0)
    width = 1;
  for (unsigned l = first; l < last; l++) {
    if (!(mask >> l & 1))
      continue;
    for (uint64_t u = addr[l] / unit; u <= (addr[l] + width - 1) / unit && n < MAX_PIECES; u++)
      key[n++] = u;
  }
  return wgp_count_distinct_u64(key, n);
}

unsigned wgp_count_gld_transactions(wgp_counter_rules r, const uint64_t *addr, uint64_t mask, unsigned lanes,
                                    unsigned width) {
  if (lanes > 64)
    lanes = 64;
  switch (r) {
  case WGP_RULES_KEPLER: return units(addr, mask, 0, lanes, width, 128);
  case WGP_RULES_MAXWELL: {
    unsigned half = lanes / 2 ? lanes / 2 : 1, t = 0;
    for (unsigned h = 0; h < lanes; h += half)
      t += units(addr, mask, h, h + half < lanes ? h + half : lanes, width, 16);
    return t;
  }
  default: return units(addr, mask, 0, lanes, width, 32);
  }
}

unsigned wgp_count_gst_transactions(wgp_counter_rules r, const uint64_t *addr, uint64_t mask, unsigned lanes,
                                    unsigned width) {
  if (lanes > 64)
    lanes = 64;
  switch (r) {
  case WGP_RULES_KEPLER: return units(addr, mask, 0, lanes, width, 128);
  case WGP_RULES_MAXWELL: {
    /* per line: the sectors the warp writes there, at least 2 when two or
     * more lanes write it */
    uint64_t line[64];
    unsigned nl = 0;
    for (unsigned l = 0; l < lanes; l++)
      if (mask >> l & 1) {
        uint64_t x = addr[l] / 128;
        bool seen = false;
        for (unsigned j = 0; j < nl && !seen; j++)
          seen = line[j] == x;
        if (!seen)
          line[nl++] = x;
      }
    unsigned t = 0;
    for (unsigned j = 0; j < nl; j++) {
      uint64_t sub = 0;
      unsigned who = 0;
      for (unsigned l = 0; l < lanes; l++)
        if (mask >> l & 1 && addr[l] / 128 == line[j]) {
          sub |= 1ull << l;
          who++;
        }
      unsigned s = units(addr, sub, 0, lanes, width, 32);
      unsigned floor2 = who >= 2 ? 2 : 1;
      t += s > floor2 ? s : floor2;
    }
    return t;
  }
  default: return units(addr, mask, 0, lanes, width, 32);
  }
}

unsigned wgp_count_shared_transactions(wgp_counter_rules r, const uint64_t *addr, uint64_t mask, unsigned lanes,
                                       unsigned width, unsigned *free) {
  if (lanes > 64)
    lanes = 64;
  if (r != WGP_RULES_KEPLER) {
    wgp_bank_rule rule = wgp_bank_rule_default();
    wgp_bank_result b;
    if (wgp_banks(&rule, addr, lanes, mask, width ? width : 1, &b, NULL) != WGP_OK)
      b.wavefronts = b.phases = 0;
    *free = b.phases;
    return b.wavefronts;
  }
  /* Kepler, 32-bit mode: per bank, the distinct 64-word segments of the
   * words touched; one transaction serves every bank's row at once.  A
   * 16 B access is served a half-warp at a time (256 B a transaction), each
   * half a transaction at least, active or not (as banks.c). */
  if (!mask) {
    *free = 0;
    return 0;
  }
  if (width > 8 && lanes > 16) {
    unsigned t = 0, f = 0;
    for (unsigned h = 0; h < lanes; h += 16) {
      unsigned nh = lanes - h < 16 ? lanes - h : 16, fh;
      unsigned th = wgp_count_shared_transactions(r, addr + h, mask >> h & ((1ull << nh) - 1), nh, width, &fh);
      /* a half with no active lane still takes its pass (banks.c) */
      t += th ? th : 1;
      f += fh ? fh : 1;
    }
    *free = f;
    return t;
  }
  uint64_t key[32][64];
  unsigned n[32] = {0}, worst = 0;
  for (unsigned l = 0; l < lanes; l++) {
    if (!(mask >> l & 1))
      continue;
    for (uint64_t w = addr[l] / 4; w <= (addr[l] + (width ? width : 1) - 1) / 4; w++) {
      unsigned b = (unsigned)(w % 32);
      uint64_t seg = w / (WGP_KEPLER_SHARED_SEGMENT_BYTES / 4);
      bool seen = false;
      for (unsigned j = 0; j < n[b] && !seen; j++)
        seen = key[b][j] == seg;
      if (!seen && n[b] < 64)
        key[b][n[b]++] = seg;
    }
  }
  for (unsigned b = 0; b < 32; b++)
    if (n[b] > worst)
      worst = n[b];
  *free = 1;
  return worst;
}

/* ---- the whole launch ------------------------------------------------------ */

typedef struct acc {
  double requests, transactions, free;
} acc;

typedef struct collector {
  const wgp_kernel *k;
  const wgp_layout *layout;
  wgp_counter_rules rules;
  unsigned lanes;
  acc *per; /* per access id, this warp */
} collector;

static void visit(void *user, size_t block, uint64_t mask, double weight, double mult, wgp_tracer *t) {
  collector *c = user;
  const wgp_block *b = wgp_kernel_block(c->k, block);
  double f = weight * mult;
  for (size_t i = 0; i < wgp_block_num_accesses(b); i++) {
    size_t id = wgp_block_access(b, i);
    if (id >= wgp_kernel_num_accesses(c->k))
      continue;
    const wgp_access *a = wgp_kernel_access(c->k, id);
    wgp_space sp = wgp_access_space(a);
    if (!wgp_space_is_global(sp) && sp != WGP_SPACE_LOCAL)
      continue;
    uint64_t addr[WGP_TRACE_MAX_WARP];
    wgp_access_addresses(c->layout, c->k, c->lanes, t, a, mask, addr);
    unsigned width = (unsigned)wgp_access_bytes(a);
    acc *x = &c->per[id];
    x->requests += f;
    if (sp == WGP_SPACE_LOCAL) {
      unsigned fr;
      x->transactions += f * wgp_count_shared_transactions(c->rules, addr, mask, c->lanes, width, &fr);
      x->free += f * fr;
    } else if (wgp_access_get_kind(a) == WGP_ACCESS_LOAD) {
      x->transactions += f * wgp_count_gld_transactions(c->rules, addr, mask, c->lanes, width);
    } else {
      x->transactions += f * wgp_count_gst_transactions(c->rules, addr, mask, c->lanes, width);
    }
  }
}

static double ratio(double a, double b) { return b > 0 ? a / b : 0; }

/* Warp instructions the launch issues, counted as sim/stream.c issues them:
 * an arithmetic cost class takes the GPU's machine instructions per operation
 * (three XMADs for a Maxwell 32-bit multiply), everything else one, loop
 * blocks with the compiler's strength-reduced counts where the GPU's compiler
 * reduces them.  nvprof's inst_executed counts the same warp-level issues. */
static double instructions_executed(const wgp_kernel *k, const wgp_gpu *gpu, const wgp_analysis *an) {
  bool reduced = wgp_gpu_strength_reduces_loop_addresses(gpu);
  const wgp_warp_set *ws = wgp_analysis_warps(an);
  double n = 0;
  for (size_t b = 0; b < wgp_kernel_num_blocks(k); b++) {
    const wgp_block *blk = wgp_kernel_block(k, b);
    double per = 0;
    for (size_t i = 0; i < wgp_block_num_counts_in(blk, reduced); i++) {
      const char *name;
      uint64_t cnt = wgp_block_count_in(blk, reduced, i, &name);
      wgp_op_class op;
      per += (double)cnt * (wgp_op_class_from_name(name, &op) ? wgp_gpu_op_instructions(gpu, op) : 1);
    }
    if (per == 0)
      continue;
    for (size_t w = 0; w < wgp_warp_set_size(ws); w++) {
      const wgp_warp_class *wc = wgp_warp_set_class(ws, w);
      n += wc->count * wgp_trace_block_executions(wc->trace, b) * per;
    }
  }
  return n;
}

wgp_status wgp_counters_compute(const wgp_analysis_input *in, const wgp_analysis *an, const wgp_cache_result *cache,
                                uint64_t groups, wgp_counter_values *out, wgp_diag *diag) {
  memset(out, 0, sizeof *out);
  const wgp_kernel *k = in->kernel;
  size_t nacc = wgp_kernel_num_accesses(k);
  if (cache->num_accesses != nacc)
    return wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: kernel '%s': counters: cache result for %zu accesses, "
                        "kernel has %zu", wgp_kernel_name(k), cache->num_accesses, nacc);
  wgp_trace_launch launch = in->launch;
  if (!launch.warp_size)
    launch.warp_size = wgp_gpu_warp_size(in->gpu);
  collector c = {k, NULL, wgp_counter_rules_for(in->gpu), launch.warp_size, NULL};
  if (c.lanes > WGP_TRACE_MAX_WARP)
    c.lanes = WGP_TRACE_MAX_WARP;
  out->rules = c.rules;
  acc *total = calloc(nacc ? nacc : 1, sizeof *total);
  c.per = calloc(nacc ? nacc : 1, sizeof *c.per);
  wgp_layout *layout = NULL;
  wgp_tracer *t = NULL;
  wgp_status st = total && c.per ? WGP_OK : wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
  if (st == WGP_OK)
    st = wgp_analysis_layout(in, &layout, diag);
  if (st == WGP_OK)
    st = wgp_tracer_new(k, &launch, &t, diag);
  if (st == WGP_OK && !wgp_tracer_track_loads(t))
    st = wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
  if (st == WGP_OK) {
    c.layout = layout;
    for (size_t i = 0; i < in->num_trip_hints; i++)
      wgp_tracer_set_trip_hint(t, in->trip_loops[i], in->trip_counts[i]);
    for (size_t i = 0; i < in->num_taken_hints; i++)
      wgp_tracer_set_taken_hint(t, in->taken_blocks[i], in->taken_fractions[i]);
    wgp_tracer_set_visitor(t, visit, &c);
    const wgp_warp_set *ws = wgp_analysis_warps(an);
    for (size_t w = 0; w < wgp_warp_set_size(ws) && st == WGP_OK; w++) {
      const wgp_warp_class *wc = wgp_warp_set_class(ws, w);
      memset(c.per, 0, nacc * sizeof *c.per);
      wgp_trace *tr = NULL;
      st = wgp_tracer_trace(t, wc->group, wc->warp, &tr, diag);
      wgp_tracer_recycle(t, tr);
      for (size_t i = 0; i < nacc && st == WGP_OK; i++) {
        total[i].requests += wc->count * c.per[i].requests;
        total[i].transactions += wc->count * c.per[i].transactions;
        total[i].free += wc->count * c.per[i].free;
      }
    }
  }
  if (st == WGP_OK) {
    const wgp_mem_stats *s = wgp_analysis_total_stats(an);
    double sector = wgp_gpu_l2_sector_bytes(in->gpu), ld_conflict = 0, st_conflict = 0, l2r = 0, l2w = 0;
    for (size_t i = 0; i < nacc; i++) {
      const wgp_access *a = wgp_kernel_access(k, i);
      wgp_space sp = wgp_access_space(a);
      bool load = wgp_access_get_kind(a) == WGP_ACCESS_LOAD;
      if (sp == WGP_SPACE_LOCAL) {
        double conflict = total[i].transactions - total[i].free;
        if (load) {
          out->shared_ld_requests += total[i].requests;
          out->shared_ld_transactions += total[i].transactions;
          ld_conflict += conflict;
        } else {
          out->shared_st_requests += total[i].requests;
          out->shared_st_transactions += total[i].transactions;
          st_conflict += conflict;
        }
      } else if (wgp_space_is_global(sp)) {
        if (load) {
          out->gld_requests += total[i].requests;
          out->gld_transactions += total[i].transactions;
          double hit = cache->l1_hit[i] >= 0 ? cache->l1_hit[i] : 0;
          l2r += s[i].sectors * (1 - hit);
        } else {
          out->gst_requests += total[i].requests;
          out->gst_transactions += total[i].transactions;
          l2w += c.rules == WGP_RULES_MAXWELL ? total[i].transactions : s[i].sectors;
          if (wgp_access_get_kind(a) == WGP_ACCESS_ATOMIC)
            l2r += s[i].sectors;
        }
      }
    }
    double *v = out->value;
    v[WGP_CTR_GLD_PER_REQUEST] = ratio(out->gld_transactions, out->gld_requests);
    v[WGP_CTR_GST_PER_REQUEST] = ratio(out->gst_transactions, out->gst_requests);
    v[WGP_CTR_SHARED_LD_PER_REQUEST] = ratio(out->shared_ld_transactions, out->shared_ld_requests);
    v[WGP_CTR_SHARED_ST_PER_REQUEST] = ratio(out->shared_st_transactions, out->shared_st_requests);
    v[WGP_CTR_SHARED_LD_BANK_CONFLICT] = ld_conflict;
    v[WGP_CTR_SHARED_ST_BANK_CONFLICT] = st_conflict;
    v[WGP_CTR_L2_READ_TRANSACTIONS] = l2r;
    v[WGP_CTR_L2_WRITE_TRANSACTIONS] = l2w;
    v[WGP_CTR_DRAM_READ_TRANSACTIONS] = cache->dram_read_bytes_per_group * (double)groups / sector;
    v[WGP_CTR_DRAM_WRITE_TRANSACTIONS] = cache->dram_write_bytes_per_group * (double)groups / sector;
    v[WGP_CTR_INST_EXECUTED] = instructions_executed(k, in->gpu, an);
  }
  wgp_tracer_free(t);
  wgp_layout_free(layout);
  free(c.per);
  free(total);
  return st;
}
