/* metrics.c - per-warp memory costs of each access (rules: metrics.h). */
#include "wgperf/metrics.h"

#include "wgperf/banks.h"
#include "wgperf/coalesce.h"
#include "wgperf/counters.h"
#include "mix_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_ALIGN 256u
#define LOCAL_ALIGN 16u
#define GLOBAL_BASE (1ull << 32)
#define CONSTANT_BASE (1ull << 44)
#define PRIVATE_BASE (1ull << 48)

struct wgp_layout {
  const wgp_kernel *k;
  size_t nargs, narrays, naccesses;
  uint64_t *access_base; /* per access of K: its base_address */
  uint64_t *access_limit; /* per access of K: the bytes of its __local array, 0 unknown or not local */
  double *region; /* per access of K: bytes its offsets from loaded data fall in (wgp_layout_set_regions) */
  uint64_t *arg_base;   /* per argument: global/constant address or local offset */
  uint64_t *array_base; /* per static array */
  uint64_t local_bytes;
};

/* A request's cost depends on its addresses only up to a translation by a
 * multiple of PERIOD (banks: the bank width, words keep their banks'
 * distinctness under a rotation; sectors and lines: the line size), so the
 * cost of the last request of an access is kept with its lanes' offsets from
 * its first active lane: a loop's next iteration usually repeats it. */
typedef struct memo {
  bool valid;
  uint64_t mask, resid;
  unsigned bytes;
  double cost[3];
  uint64_t delta[WGP_TRACE_MAX_WARP];
  /* the same request as an affine form of a warp's lane coordinates: the
   * multiples of the coordinates, the offset's residue, the warp */
  bool fvalid, fpending;
  const wgp_tracer *ft;
  uint64_t fepoch, fresid;
  int64_t fc[WGP_TRACE_FORM_TERMS - 1];
  int64_t rlo, rhi; /* the known lanes' lowest and highest address, from the form's offset */
} memo;

struct wgp_metrics {
  const wgp_kernel *k;
  const wgp_gpu *gpu;
  const wgp_layout *layout;
  size_t nacc;
  wgp_mem_stats *cur;
  memo *last; /* per access: the last request's address pattern and what it cost */
};

static uint64_t align_up(uint64_t x, uint64_t a) { return a ? (x + a - 1) / a * a : x; }

/* The index of K's static array NAME, or -1. */
static long array_index(const wgp_kernel *k, size_t narrays, const char *name) {
  for (size_t i = 0; name && i < narrays; i++)
    if (strcmp(wgp_array_name(wgp_kernel_array(k, i)), name) == 0)
      return (long)i;
  return -1;
}

static uint64_t base_address(const wgp_layout *layout, const wgp_kernel *k, const wgp_access *a) {
  switch (wgp_access_base_kind(a)) {
  case WGP_BASE_ARG: {
    long i = wgp_access_base_arg(a);
    return i >= 0 && (size_t)i < layout->nargs ? layout->arg_base[i] : GLOBAL_BASE;
  }
  case WGP_BASE_ARRAY: {
    long i = array_index(k, layout->narrays, wgp_access_base_name(a));
    return i >= 0 ? layout->array_base[i] : 0;
  }
  case WGP_BASE_PRIVATE:
    return PRIVATE_BASE;
  default:
    return GLOBAL_BASE;
  }
}

wgp_status wgp_layout_new(const wgp_kernel *k, const uint64_t *buffer_align, const uint64_t *local_bytes,
                          wgp_layout **out, wgp_diag *diag) {
  *out = NULL;
  wgp_layout *l = calloc(1, sizeof *l);
  if (!l)
    return wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
  l->nargs = wgp_kernel_num_args(k);
  l->narrays = wgp_kernel_num_arrays(k);
  l->arg_base = calloc(l->nargs ? l->nargs : 1, sizeof *l->arg_base);
  l->array_base = calloc(l->narrays ? l->narrays : 1, sizeof *l->array_base);
  if (!l->arg_base || !l->array_base) {
    wgp_layout_free(l);
    return wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
  }
  /* Global and constant buffers: far apart (1 GiB) so that no two share a
   * line; only the alignment matters for coalescing. */
  uint64_t g = GLOBAL_BASE, c = CONSTANT_BASE, local = 0;
  for (size_t i = 0; i < l->narrays; i++) {
    const wgp_array *a = wgp_kernel_array(k, i);
    if (wgp_array_space(a) == WGP_SPACE_LOCAL) {
      local = align_up(local, LOCAL_ALIGN);
      l->array_base[i] = local;
      /* a dynamic (extern __shared__) array has its size from the launch */
      local += wgp_array_bytes(a) ? wgp_array_bytes(a) : local_bytes ? local_bytes[l->nargs + i] : 0;
    } else {
      l->array_base[i] = c;
      c += align_up(wgp_array_bytes(a), DEFAULT_ALIGN) + (1ull << 30);
    }
  }
  for (size_t i = 0; i < l->nargs; i++) {
    const wgp_arg *a = wgp_kernel_arg(k, i);
    if (wgp_arg_get_kind(a) != WGP_ARG_POINTER)
      continue;
    uint64_t al = buffer_align && buffer_align[i] ? buffer_align[i] : DEFAULT_ALIGN;
    switch (wgp_arg_space(a)) {
    case WGP_SPACE_LOCAL:
      local = align_up(local, LOCAL_ALIGN);
      l->arg_base[i] = local;
      local += local_bytes ? local_bytes[i] : 0;
      break;
    case WGP_SPACE_CONSTANT:
      c = align_up(c, al);
      l->arg_base[i] = c;
      c += 1ull << 30;
      break;
    default:
      g = align_up(g, al);
      l->arg_base[i] = g;
      g += 1ull << 30;
      break;
    }
  }
  l->local_bytes = local;
  /* each access's base, so that requests need not look arrays up by name */
  l->k = k;
  l->naccesses = wgp_kernel_num_accesses(k);
  l->access_base = malloc((l->naccesses ? l->naccesses : 1) * sizeof *l->access_base);
  l->access_limit = calloc(l->naccesses ? l->naccesses : 1, sizeof *l->access_limit);
  if (!l->access_base || !l->access_limit) {
    wgp_layout_free(l);
    return wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
  }
  for (size_t i = 0; i < l->naccesses; i++) {
    const wgp_access *a = wgp_kernel_access(k, i);
    l->access_base[i] = base_address(l, k, a);
    if (wgp_access_space(a) != WGP_SPACE_LOCAL)
      continue;
    if (wgp_access_base_kind(a) == WGP_BASE_ARG) {
      long x = wgp_access_base_arg(a);
      if (x >= 0 && (size_t)x < l->nargs && local_bytes && wgp_arg_space(wgp_kernel_arg(k, (size_t)x)) == WGP_SPACE_LOCAL)
        l->access_limit[i] = local_bytes[x];
    } else if (wgp_access_base_kind(a) == WGP_BASE_ARRAY) {
      long j = array_index(k, l->narrays, wgp_access_base_name(a));
      const wgp_array *arr = j >= 0 ? wgp_kernel_array(k, (size_t)j) : NULL;
      if (arr && wgp_array_space(arr) == WGP_SPACE_LOCAL)
        l->access_limit[i] = wgp_array_bytes(arr) ? wgp_array_bytes(arr) : local_bytes ? local_bytes[l->nargs + j] : 0;
    }
  }
  *out = l;
  return WGP_OK;
}

void wgp_layout_free(wgp_layout *l) {
  if (!l)
    return;
  free(l->arg_base);
  free(l->array_base);
  free(l->access_base);
  free(l->access_limit);
  free(l->region);
  free(l);
}

uint64_t wgp_layout_local_bytes(const wgp_layout *l) { return l->local_bytes; }

/* ---- accesses with the same offset ----------------------------------------- */

static uint64_t text_hash(const char *s) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
  return h;
}

uint32_t *wgp_offset_twins(const wgp_kernel *k) {
  size_t n = wgp_kernel_num_accesses(k);
  uint32_t *twin = malloc((n ? n : 1) * sizeof *twin);
  char **text = calloc(n ? n : 1, sizeof *text);
  uint64_t *hash = calloc(n ? n : 1, sizeof *hash);
  bool ok = twin && text && hash && n < WGP_NO_TWIN;
  for (size_t i = 0; ok && i < n; i++) {
    twin[i] = WGP_NO_TWIN;
    const wgp_expr *off = wgp_access_offset(wgp_kernel_access(k, i));
    if (off && !(text[i] = wgp_expr_to_string(off)))
      ok = false;
    else if (off)
      hash[i] = text_hash(text[i]);
  }
  for (size_t b = 0; ok && b < wgp_kernel_num_blocks(k); b++) {
    const wgp_block *blk = wgp_kernel_block(k, b);
    size_t na = wgp_block_num_accesses(blk);
    for (size_t i = 1; i < na; i++) {
      size_t x = wgp_block_access(blk, i);
      if (x >= n || !text[x])
        continue;
      const wgp_access *ax = wgp_kernel_access(k, x);
      for (size_t j = 0; j < i; j++) {
        size_t y = wgp_block_access(blk, j);
        if (y >= n || !text[y] || hash[y] != hash[x])
          continue;
        const wgp_access *ay = wgp_kernel_access(k, y);
        if (wgp_access_space(ay) == wgp_access_space(ax) && wgp_access_bytes(ay) == wgp_access_bytes(ax) &&
            strcmp(text[y], text[x]) == 0) {
          twin[x] = twin[y] != WGP_NO_TWIN ? twin[y] : (uint32_t)y;
          break;
        }
      }
    }
  }
  for (size_t i = 0; text && i < n; i++)
    free(text[i]);
  free(text);
  free(hash);
  if (!ok) {
    free(twin);
    return NULL;
  }
  return twin;
}

/* ---- counting rules ---------------------------------------------------- */

/* The rules live in coalesce.c and banks.c; these keep the metrics' double
 * interface.  A width outside 1..256 B (none in practice: the widest vector
 * is 16 B) is clamped. */
static unsigned clamp_width(unsigned bytes) { return bytes == 0 ? 1 : bytes > 256 ? 256 : bytes; }

void wgp_count_global(const uint64_t *addr, uint64_t mask, unsigned lanes, unsigned bytes, unsigned sector,
                      unsigned line, double *sectors, double *lines) {
  wgp_coalesce_rule r = wgp_coalesce_rule_default();
  r.sector_bytes = sector;
  r.line_bytes = line;
  wgp_coalesce_result x;
  if (wgp_coalesce(&r, addr, lanes, mask, clamp_width(bytes), &x, NULL) != WGP_OK)
    x.sectors = x.lines = 0; /* the GPU description was validated: sizes are powers of two */
  *sectors = x.sectors;
  *lines = x.lines;
}

void wgp_count_banks(const uint64_t *addr, uint64_t mask, unsigned lanes, unsigned bytes, unsigned banks,
                     unsigned width, double *wavefronts, double *phases, double *worst_degree) {
  wgp_bank_rule r = {banks > WGP_BANKS_MAX_BANKS ? WGP_BANKS_MAX_BANKS : banks, width};
  wgp_bank_result x;
  if (wgp_banks(&r, addr, lanes, mask, clamp_width(bytes), &x, NULL) != WGP_OK)
    x.wavefronts = x.phases = x.degree = 0;
  *wavefronts = x.wavefronts;
  *phases = x.phases;
  *worst_degree = x.degree;
}

void wgp_count_shared_for(const wgp_gpu *gpu, const uint64_t *addr, uint64_t mask, unsigned lanes, unsigned bytes,
                          double *wavefronts, double *phases, double *worst_degree) {
  if (wgp_counter_rules_for(gpu) != WGP_RULES_KEPLER) {
    wgp_count_banks(addr, mask, lanes, bytes, wgp_gpu_shared_banks(gpu), wgp_gpu_shared_bank_width_bytes(gpu),
                    wavefronts, phases, worst_degree);
    return;
  }
  /* Kepler's 64-bit bank rows serve words w and w + 32 together
   * (docs/counters.md): the transactions nvprof counts, and the timing's */
  unsigned fr, tr = wgp_count_shared_transactions(WGP_RULES_KEPLER, addr, mask, lanes, clamp_width(bytes), &fr);
  *wavefronts = tr;
  *phases = fr;
  *worst_degree = fr ? (double)tr / fr : 0;
}

double wgp_count_distinct(const uint64_t *addr, uint64_t mask, unsigned lanes) {
  return wgp_constant_serialisation(addr, lanes, mask);
}

/* ---- the visitor ---------------------------------------------------------- */

wgp_status wgp_metrics_new(const wgp_kernel *k, const wgp_gpu *gpu, const wgp_layout *layout, wgp_metrics **out,
                           wgp_diag *diag) {
  *out = NULL;
  wgp_metrics *m = calloc(1, sizeof *m);
  if (!m)
    return wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
  m->k = k;
  m->gpu = gpu;
  m->layout = layout;
  m->nacc = wgp_kernel_num_accesses(k);
  m->cur = calloc(m->nacc ? m->nacc : 1, sizeof *m->cur);
  m->last = calloc(m->nacc ? m->nacc : 1, sizeof *m->last);
  if (!m->cur || !m->last) {
    free(m->cur);
    free(m->last);
    free(m);
    return wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
  }
  *out = m;
  return WGP_OK;
}

void wgp_metrics_free(wgp_metrics *m) {
  if (!m)
    return;
  free(m->cur);
  free(m->last);
  free(m);
}

size_t wgp_metrics_num_accesses(const wgp_metrics *m) { return m->nacc; }

void wgp_metrics_take_into(wgp_metrics *m, wgp_mem_stats *out) {
  if (!m->nacc)
    return;
  memcpy(out, m->cur, m->nacc * sizeof *out);
  memset(m->cur, 0, m->nacc * sizeof *m->cur);
}

static uint64_t access_base(const wgp_layout *layout, const wgp_kernel *k, const wgp_access *a) {
  size_t id = wgp_access_id(a);
  if (k == layout->k && id < layout->naccesses && wgp_kernel_access(k, id) == a)
    return layout->access_base[id];
  return base_address(layout, k, a);
}

uint64_t wgp_layout_access_base(const wgp_layout *l, const wgp_kernel *k, size_t id) {
  return access_base(l, k, wgp_kernel_access(k, id));
}

uint64_t wgp_layout_access_limit(const wgp_layout *l, size_t id) {
  return id < l->naccesses ? l->access_limit[id] : 0;
}

bool wgp_layout_set_regions(wgp_layout *l, const uint64_t *buffer_bytes, double items, unsigned sector) {
  const wgp_kernel *k = l->k;
  if (!l->region && !(l->region = calloc(l->naccesses ? l->naccesses : 1, sizeof *l->region)))
    return false;
  for (size_t i = 0; i < l->naccesses; i++) {
    const wgp_access *a = wgp_kernel_access(k, i);
    long arg = wgp_access_base_arg(a);
    double r = arg >= 0 && (size_t)arg < l->nargs && buffer_bytes && buffer_bytes[arg]
                   ? (double)buffer_bytes[arg]
                   : items * (double)(wgp_access_bytes(a) ? wgp_access_bytes(a) : 1);
    l->region[i] = r < sector ? sector : r > 0x1p40 ? 0x1p40 : r;
  }
  return true;
}

double wgp_layout_region(const wgp_layout *l, size_t id) {
  return l->region && id < l->naccesses ? l->region[id] : 0;
}

/* Offsets V of the lanes DATA of MASK from loaded values (wgp_tracer_track_loads)
 * of global access ID: wrapped into its region, on its element size. */
static void wrap_data(const wgp_layout *l, size_t id, unsigned bytes, uint64_t data, int64_t *v) {
  uint64_t r = (uint64_t)wgp_layout_region(l, id), w = bytes ? bytes : 1;
  if (!r)
    r = 1ull << 32;
  for (uint64_t m = data; m; m &= m - 1) {
    unsigned lane = (unsigned)__builtin_ctzll(m);
    uint64_t x = (uint64_t)v[lane] % r;
    v[lane] = (int64_t)(x - x % w);
  }
}

/* Lanes of LMASK not in OK whose offset of A comes from loaded data: their
 * values in V, the mask returned. */
static uint64_t data_offsets(const wgp_layout *l, wgp_tracer *t, const wgp_access *a, uint64_t lmask, uint64_t ok,
                             int64_t *v) {
  wgp_space sp = wgp_access_space(a);
  const wgp_expr *off = wgp_access_offset(a);
  if (ok == lmask || !off || !wgp_space_is_global(sp) || !wgp_tracer_tracks_loads(t))
    return 0;
  int64_t dv[WGP_TRACE_MAX_WARP];
  uint64_t data = wgp_tracer_eval_warp_data(t, off, lmask & ~ok, dv);
  for (uint64_t m = data; m; m &= m - 1) {
    unsigned lane = (unsigned)__builtin_ctzll(m);
    v[lane] = dv[lane];
  }
  wrap_data(l, wgp_access_id(a), (unsigned)wgp_access_bytes(a), data, v);
  return data;
}

/* ADDR from the offsets V of the lanes OK of MASK (the others unknown). */
static uint64_t fill_addresses(uint64_t base, wgp_space space, unsigned lanes, uint64_t mask, const int64_t *v,
                               uint64_t ok, uint64_t *addr) {
  uint64_t known = 0;
  for (unsigned lane = 0; lane < lanes; lane++) {
    addr[lane] = 0;
    if (!(mask >> lane & 1))
      continue;
    if (ok >> lane & 1) {
      known |= 1ull << lane;
      if (space == WGP_SPACE_PRIVATE) /* lane-interleaved 4 B words */
        addr[lane] = base + ((uint64_t)v[lane] / 4) * 4 * lanes + lane * 4 + (uint64_t)v[lane] % 4;
      else
        addr[lane] = base + (uint64_t)v[lane];
    } else {
      /* Unknown: give the lane an address of its own. */
      addr[lane] = base + (1ull << 40) + (uint64_t)lane * 4096;
    }
  }
  return known;
}

uint64_t wgp_access_addresses_data(const wgp_layout *layout, const wgp_kernel *k, unsigned lanes, wgp_tracer *t,
                                   const wgp_access *a, uint64_t mask, uint64_t *addr, uint64_t *data) {
  const wgp_expr *off = wgp_access_offset(a);
  int64_t v[WGP_TRACE_MAX_WARP];
  uint64_t lmask = lanes < 64 ? mask & ((1ull << lanes) - 1) : mask;
  uint64_t ok = off ? wgp_tracer_eval_warp(t, off, lmask, v) : 0;
  uint64_t d = k == layout->k ? data_offsets(layout, t, a, lmask, ok, v) : 0;
  if (data)
    *data = d;
  return fill_addresses(access_base(layout, k, a), wgp_access_space(a), lanes, mask, v, ok | d, addr);
}

uint64_t wgp_access_addresses(const wgp_layout *layout, const wgp_kernel *k, unsigned lanes, wgp_tracer *t,
                              const wgp_access *a, uint64_t mask, uint64_t *addr) {
  return wgp_access_addresses_data(layout, k, lanes, t, a, mask, addr, NULL);
}

/* Whether the request (ADDR, MASK, BYTES) repeats MM's up to a translation
 * by a multiple of PERIOD (a power of two); if so COST is MM's.  Otherwise MM
 * takes the request's key and the caller stores its cost. */
static bool memo_hit(memo *mm, const uint64_t *addr, uint64_t mask, unsigned lanes, unsigned bytes, uint64_t period,
                     double *cost) {
  if (!mask || (period & (period - 1))) {
    mm->valid = false;
    return false;
  }
  unsigned first = (unsigned)__builtin_ctzll(mask);
  uint64_t a0 = addr[first], resid = a0 & (period - 1), top = 0;
  bool same = mm->valid && mm->mask == mask && mm->bytes == bytes && mm->resid == resid;
  for (unsigned l = first; l < lanes; l++) {
    if (!(mask >> l & 1))
      continue;
    uint64_t d = addr[l] - a0;
    top |= addr[l];
    same = same && mm->delta[l] == d;
    mm->delta[l] = d;
  }
  /* far from the top of the space, no translation wraps a lane's bytes */
  if (top >> 62) {
    mm->valid = false;
    return false;
  }
  if (same) {
    for (int i = 0; i < 3; i++)
      cost[i] = mm->cost[i];
    return true;
  }
  mm->valid = false; /* until the caller stores the cost */
  mm->mask = mask;
  mm->bytes = bytes;
  mm->resid = resid;
  return false;
}

/* The cost of access A's request (MASK, BYTES) into COST, its lanes' known
 * addresses into *KNOWN, and (RANGE not NULL, the same for every request of
 * the access) the lowest and highest known address into RANGE; true when
 * the last request of the access (MM) gave it.  A local or global offset that is an affine form of the lane
 * coordinates is compared as a form within the warp (no address computed
 * when it repeats up to a translation by a multiple of PERIOD), otherwise by
 * its lanes' addresses; on false ADDR holds the addresses and the caller
 * computes COST and stores it with memo_store. */
static bool lookup(const wgp_metrics *m, wgp_tracer *t, const wgp_access *a, memo *mm, uint64_t mask, unsigned lanes,
                   unsigned bytes, uint64_t period, uint64_t *addr, uint64_t *known, uint64_t *data, double *cost,
                   uint64_t range[2]) {
  const wgp_expr *off = wgp_access_offset(a);
  wgp_space space = wgp_access_space(a);
  uint64_t base = access_base(m->layout, m->k, a), lmask = lanes < 64 ? mask & ((1ull << lanes) - 1) : mask;
  int64_t v[WGP_TRACE_MAX_WARP], form[WGP_TRACE_FORM_TERMS];
  uint64_t ok = 0;
  bool affine = false, safe = false;
  if (off && (space == WGP_SPACE_LOCAL || space == WGP_SPACE_GLOBAL) && lmask && !(period & (period - 1))) {
    affine = wgp_tracer_eval_warp_form(t, off, lmask, v, &ok, form);
    int64_t lo, hi;
    /* every lane's bytes far from both ends of the space: translations wrap none */
    safe = affine && wgp_tracer_form_span(t, form, &lo, &hi) && (__int128)base + lo >= 0 &&
           (__int128)base + hi < ((__int128)1 << 62);
  } else if (off) {
    ok = wgp_tracer_eval_warp(t, off, lmask, v);
  }
  uint64_t epoch = wgp_tracer_warp_epoch(t), resid = safe ? ((uint64_t)form[0] + base) & (period - 1) : 0;
  uint64_t at = safe ? base + (uint64_t)form[0] : 0; /* the form's offset as an address */
  if (safe && mm->fvalid && mm->ft == t && mm->fepoch == epoch && mm->mask == mask && mm->bytes == bytes &&
      mm->fresid == resid && memcmp(mm->fc, form + 1, sizeof mm->fc) == 0) {
    *known = lmask;
    *data = 0;
    for (int i = 0; i < 3; i++)
      cost[i] = mm->cost[i];
    if (range) {
      range[0] = at + (uint64_t)mm->rlo;
      range[1] = at + (uint64_t)mm->rhi;
    }
    return true;
  }
  if (affine) {
    wgp_tracer_form_values(t, form, lmask, v);
    ok = lmask;
  }
  *data = m->k == m->layout->k ? data_offsets(m->layout, t, a, lmask, ok, v) : 0;
  *known = fill_addresses(base, space, lanes, mask, v, ok | *data, addr);
  if (range) {
    /* in locals: through RANGE every lane's pair went to memory (it may alias ADDR) */
    uint64_t lo = UINT64_MAX, hi = 0, kn = *known;
    for (unsigned l = 0; l < lanes; l++)
      if (kn >> l & 1) {
        lo = addr[l] < lo ? addr[l] : lo;
        hi = addr[l] > hi ? addr[l] : hi;
      }
    range[0] = lo, range[1] = hi;
    mm->rlo = (int64_t)(range[0] - at);
    mm->rhi = (int64_t)(range[1] - at);
  }
  bool hit = memo_hit(mm, addr, mask, lanes, bytes, period, cost);
  /* the form of this request: valid once its cost is stored (a hit: now) */
  mm->fpending = safe;
  mm->fvalid = safe && hit;
  if (safe) {
    mm->ft = t;
    mm->fepoch = epoch;
    mm->fresid = resid;
    memcpy(mm->fc, form + 1, sizeof mm->fc);
  }
  return hit;
}

static void memo_store(memo *mm, const double *cost) {
  for (int i = 0; i < 3; i++)
    mm->cost[i] = cost[i];
  mm->valid = true;
  mm->fvalid = mm->fpending;
}

/* A shared-memory request some of whose lanes (those of MASK not in KNOWN)
 * have addresses known only at run time (a histogram's bins, a table looked
 * up by a loaded value): its expected cost when those lanes fall uniformly
 * at random on the BYTES-aligned elements of their array [START, START +
 * LIMIT), the mean over a fixed set of draws (so the same request always
 * costs the same).  Giving every unknown lane one bank, as for a known
 * pattern, would charge a full serialisation that random bins do not have. */
#define SPREAD_DRAWS 32
static void count_shared_spread(const wgp_gpu *gpu, const uint64_t *addr, const uint64_t mask, uint64_t known,
                                unsigned lanes, unsigned bytes, uint64_t start, uint64_t limit, double *c) {
  unsigned w = bytes ? bytes : 1;
  uint64_t slots = limit / w, a[WGP_TRACE_MAX_WARP], x = 0x9e3779b97f4a7c15ull;
  double sum[3] = {0, 0, 0}, worst = 0;
  for (int d = 0; d < SPREAD_DRAWS; d++) {
    for (unsigned l = 0; l < lanes; l++) {
      a[l] = addr[l];
      if ((mask >> l & 1) && !(known >> l & 1)) {
        /* splitmix64: a fixed sequence, the same in every run */
        uint64_t z = wgp_mix64(x += 0x9e3779b97f4a7c15ull);
        a[l] = start + (z % slots) * w;
      }
    }
    double e[3];
    wgp_count_shared_for(gpu, a, mask, lanes, bytes, &e[0], &e[1], &e[2]);
    sum[0] += e[0], sum[1] += e[1];
    worst = e[2] > worst ? e[2] : worst;
  }
  c[0] = sum[0] / SPREAD_DRAWS;
  c[1] = sum[1] / SPREAD_DRAWS;
  c[2] = c[1] > 0 ? c[0] / c[1] : worst;
}

static void visit(void *user, size_t block, uint64_t mask, double weight, double mult, wgp_tracer *t) {
  wgp_metrics *m = user;
  const wgp_block *b = wgp_kernel_block(m->k, block);
  unsigned lanes = wgp_gpu_warp_size(m->gpu);
  if (lanes > WGP_TRACE_MAX_WARP)
    lanes = WGP_TRACE_MAX_WARP;
  /* translations by multiples of this leave a request's bank conflicts as
   * they are: the bank width, or Kepler's bank-row segments */
  unsigned bw = wgp_gpu_shared_bank_width_bytes(m->gpu);
  uint64_t shared_period =
      wgp_counter_rules_for(m->gpu) == WGP_RULES_KEPLER ? WGP_KEPLER_SHARED_SEGMENT_BYTES : bw ? bw : 1;
  unsigned sb = wgp_gpu_l2_sector_bytes(m->gpu), lb = wgp_gpu_l1_line_bytes(m->gpu);
  bool maxwell_stores = wgp_counter_rules_for(m->gpu) == WGP_RULES_MAXWELL;
  bool by_phase = wgp_gpu_l1_wavefronts_by_phase(m->gpu);
  double f = weight * mult;
  unsigned active = 0;
  for (uint64_t x = mask; x; x &= x - 1)
    active++;
  for (size_t i = 0; i < wgp_block_num_accesses(b); i++) {
    size_t id = wgp_block_access(b, i);
    if (id >= m->nacc)
      continue;
    const wgp_access *a = wgp_kernel_access(m->k, id);
    wgp_mem_stats *s = &m->cur[id];
    unsigned bytes = (unsigned)wgp_access_bytes(a);
    wgp_space space = wgp_access_space(a);
    uint64_t addr[WGP_TRACE_MAX_WARP], known, data = 0, range[2] = {UINT64_MAX, 0}; /* range: local with a limit */
    double c[3] = {0, 0, 0};
    if (space == WGP_SPACE_CONSTANT) {
      known = wgp_access_addresses(m->layout, m->k, lanes, t, a, mask, addr);
      c[0] = wgp_count_distinct(addr, mask, lanes);
    } else if (space == WGP_SPACE_LOCAL) {
      memo *mm = &m->last[id];
      uint64_t limit = wgp_layout_access_limit(m->layout, id);
      uint64_t start = access_base(m->layout, m->k, a);
      if (!lookup(m, t, a, mm, mask, lanes, bytes, shared_period, addr, &known, &data, c, limit ? range : NULL)) {
        if (known != mask && limit >= 2 * (uint64_t)(bytes ? bytes : 1))
          count_shared_spread(m->gpu, addr, mask, known, lanes, bytes, start, limit, c);
        else
          wgp_count_shared_for(m->gpu, addr, mask, lanes, bytes, &c[0], &c[1], &c[2]);
        memo_store(mm, c);
      }
      /* a known lane's bytes outside its __local array (of known size):
       * the kernel is not written for this work-group size */
      if (limit && range[0] <= range[1]) {
        double before = range[0] < start ? (double)(start - range[0]) : 0;
        double after = (double)range[1] + bytes > (double)start + (double)limit
                           ? (double)range[1] + bytes - ((double)start + (double)limit)
                           : 0;
        if (before > 0 || after > 0) {
          s->outside += f;
          s->outside_reach = fmax(s->outside_reach, fmax(before, after));
        }
      }
    } else {
      memo *mm = &m->last[id];
      if (!lookup(m, t, a, mm, mask, lanes, bytes, sb > lb ? sb : lb, addr, &known, &data, c, NULL)) {
        wgp_count_global(addr, mask, lanes, bytes, sb, lb, &c[0], &c[1]);
        /* Maxwell's store path sends a write to L2 per half-warp piece (nvprof's
         * gst transactions are its L2 write transactions): its passes */
        c[2] = maxwell_stores && wgp_access_get_kind(a) == WGP_ACCESS_STORE
                   ? wgp_count_gst_transactions(WGP_RULES_MAXWELL, addr, mask, lanes, bytes)
               : by_phase ? wgp_coalesce_wavefronts(addr, lanes, mask, clamp_width(bytes), lb)
                          : c[1];
        memo_store(mm, c);
      }
    }
    s->executions += f;
    s->lane_bytes += f * active * bytes;
    if ((known & ~data) != mask) /* from loaded data, or not known at all */
      s->unknown += f;
    s->requests += f;
    if (space == WGP_SPACE_LOCAL) {
      s->wavefronts += f * c[0];
      s->phases += f * c[1];
      if (c[2] > s->worst_degree)
        s->worst_degree = c[2];
    } else if (space == WGP_SPACE_CONSTANT) {
      s->wavefronts += f * c[0];
    } else {
      s->sectors += f * c[0];
      s->lines += f * c[1];
      s->wavefronts += f * c[2];
    }
  }
}

void wgp_metrics_attach(wgp_metrics *m, wgp_tracer *t) { wgp_tracer_set_visitor(t, visit, m); }
