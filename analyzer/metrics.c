/* metrics.c - per-warp memory costs of each access (rules: metrics.h). */
#include "wgperf/metrics.h"

#include "wgperf/banks.h"
#include "wgperf/coalesce.h"

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
  size_t nargs, narrays;
  uint64_t *arg_base;   /* per argument: global/constant address or local offset */
  uint64_t *array_base; /* per static array */
  uint64_t local_bytes;
};

struct wgp_metrics {
  const wgp_kernel *k;
  const wgp_gpu *gpu;
  const wgp_layout *layout;
  size_t nacc;
  wgp_mem_stats *cur;
};

static uint64_t align_up(uint64_t x, uint64_t a) { return a ? (x + a - 1) / a * a : x; }

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
  *out = l;
  return WGP_OK;
}

void wgp_layout_free(wgp_layout *l) {
  if (!l)
    return;
  free(l->arg_base);
  free(l->array_base);
  free(l);
}

uint64_t wgp_layout_local_bytes(const wgp_layout *l) { return l->local_bytes; }

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
  if (!m->cur) {
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
  free(m);
}

size_t wgp_metrics_num_accesses(const wgp_metrics *m) { return m->nacc; }

wgp_mem_stats *wgp_metrics_take(wgp_metrics *m) {
  wgp_mem_stats *fresh = calloc(m->nacc ? m->nacc : 1, sizeof *fresh);
  if (!fresh)
    return NULL;
  wgp_mem_stats *done = m->cur;
  m->cur = fresh;
  return done;
}

static uint64_t base_address(const wgp_layout *layout, const wgp_kernel *k, const wgp_access *a) {
  switch (wgp_access_base_kind(a)) {
  case WGP_BASE_ARG: {
    long i = wgp_access_base_arg(a);
    return i >= 0 && (size_t)i < layout->nargs ? layout->arg_base[i] : GLOBAL_BASE;
  }
  case WGP_BASE_ARRAY: {
    const char *name = wgp_access_base_name(a);
    for (size_t i = 0; name && i < layout->narrays; i++)
      if (strcmp(wgp_array_name(wgp_kernel_array(k, i)), name) == 0)
        return layout->array_base[i];
    return 0;
  }
  case WGP_BASE_PRIVATE:
    return PRIVATE_BASE;
  default:
    return GLOBAL_BASE;
  }
}

uint64_t wgp_access_addresses(const wgp_layout *layout, const wgp_kernel *k, unsigned lanes, wgp_tracer *t,
                              const wgp_access *a, uint64_t mask, uint64_t *addr) {
  uint64_t known = 0, base = base_address(layout, k, a);
  const wgp_expr *off = wgp_access_offset(a);
  wgp_space space = wgp_access_space(a);
  int64_t v[WGP_TRACE_MAX_WARP];
  uint64_t ok = off ? wgp_tracer_eval_warp(t, off, lanes < 64 ? mask & ((1ull << lanes) - 1) : mask, v) : 0;
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

static void visit(void *user, size_t block, uint64_t mask, double weight, double mult, wgp_tracer *t) {
  wgp_metrics *m = user;
  const wgp_block *b = wgp_kernel_block(m->k, block);
  unsigned lanes = wgp_gpu_warp_size(m->gpu);
  if (lanes > WGP_TRACE_MAX_WARP)
    lanes = WGP_TRACE_MAX_WARP;
  double f = weight * mult;
  for (size_t i = 0; i < wgp_block_num_accesses(b); i++) {
    size_t id = wgp_block_access(b, i);
    if (id >= m->nacc)
      continue;
    const wgp_access *a = wgp_kernel_access(m->k, id);
    wgp_mem_stats *s = &m->cur[id];
    unsigned bytes = (unsigned)wgp_access_bytes(a);
    uint64_t addr[WGP_TRACE_MAX_WARP];
    uint64_t known = wgp_access_addresses(m->layout, m->k, lanes, t, a, mask, addr);
    wgp_space space = wgp_access_space(a);
    unsigned active = 0;
    for (uint64_t x = mask; x; x &= x - 1)
      active++;
    s->executions += f;
    s->lane_bytes += f * active * bytes;
    if (known != mask)
      s->unknown += f;
    if (space == WGP_SPACE_LOCAL) {
      double wf, ph, worst;
      wgp_count_banks(addr, mask, lanes, bytes, wgp_gpu_shared_banks(m->gpu), wgp_gpu_shared_bank_width_bytes(m->gpu),
                      &wf, &ph, &worst);
      s->wavefronts += f * wf;
      s->phases += f * ph;
      s->requests += f;
      if (worst > s->worst_degree)
        s->worst_degree = worst;
    } else if (space == WGP_SPACE_CONSTANT) {
      s->requests += f;
      s->wavefronts += f * wgp_count_distinct(addr, mask, lanes);
    } else {
      double sec, lin;
      wgp_count_global(addr, mask, lanes, bytes, wgp_gpu_l2_sector_bytes(m->gpu), wgp_gpu_l1_line_bytes(m->gpu), &sec,
                       &lin);
      s->requests += f;
      s->sectors += f * sec;
      s->lines += f * lin;
    }
  }
}

void wgp_metrics_attach(wgp_metrics *m, wgp_tracer *t) { wgp_tracer_set_visitor(t, visit, m); }
