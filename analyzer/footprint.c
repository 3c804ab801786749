/* footprint.c - DRAM traffic per wave and per launch from exact footprints,
 * with reuse between consecutive waves (the model is described in
 * include/wgperf/footprint.h and docs/footprints.md).
 *
 * Assumptions beyond those of footprint_sets.c:
 * - Waves are consecutive ranges of the dispatch order, all but the last
 *   full; the representative wave is the middle one (seeds/002 takes "a
 *   representative wave in the middle of the call grid").
 * - A buffer's sectors are charged to its accesses in program order (the
 *   first access that touches a sector in a wave pays for it), measured on
 *   the representative wave and applied to the launch totals.
 * - The L2 capacity the layer condition sees is shared by every buffer; the
 *   accesses without a footprint occupy what the LRU model's sectors say.
 */
#include "wgperf/footprint.h"

#include "footprint_internal.h"

#include <isl/constraint.h>
#include <isl/ilp.h>
#include <isl/map.h>
#include <isl/local_space.h>
#include <isl/space.h>
#include <isl/val.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct wgp_footprint {
  size_t nacc, nbuf;
  unsigned sector;
  wgp_footprint_access *acc;
  wgp_footprint_buffer *buf;
  wgp_footprint_launch launch;
  char (*reason)[FP_REASON];
  char (*bufname)[128];
};

/* One evaluated wave and the waves it stands for. */
typedef struct wave {
  uint64_t w;
  double weight;
} wave;

/* Per buffer and evaluated wave. */
typedef struct bwave {
  double rd, wr;       /* unique read / written sectors */
  double rd_ov, wr_ov; /* of those, touched by the previous wave */
  double lines;        /* lines of this and the previous wave */
} bwave;

typedef struct bufwork {
  size_t *ids, n;      /* accesses with a footprint, program order */
  fp_radix sec, lin;
  bool failed;
  bwave *bw;           /* per evaluated wave */
  isl_set **rep;       /* each access's sectors in the representative wave */
} bufwork;

/* Loads and atomics read a sector; stores and atomics write it back. */
static bool is_read(const wgp_access *acc) { return wgp_access_get_kind(acc) != WGP_ACCESS_STORE; }
static bool is_write(const wgp_access *acc) { return wgp_access_get_kind(acc) != WGP_ACCESS_LOAD; }

enum { SEL_READ = 1, SEL_WRITE = 2, SEL_ALL = 3 };

/* The units of each of BW's accesses over the groups [LO, HI) (give: an
 * array of sets); NULL when isl gave up. */
static isl_set **sets_of(fp_sets *s, const bufwork *bw, const fp_radix *rx, uint64_t lo, uint64_t hi) {
  isl_set **v = calloc(bw->n ? bw->n : 1, sizeof *v);
  for (size_t i = 0; v && i < bw->n; i++) {
    v[i] = fp_sets_units(s, bw->ids[i], rx, lo, hi);
    if (!v[i]) {
      for (size_t j = 0; j < i; j++)
        isl_set_free(v[j]);
      free(v);
      return NULL;
    }
  }
  return v;
}

static void sets_free(isl_set **v, size_t n) {
  for (size_t i = 0; v && i < n; i++)
    isl_set_free(v[i]);
  free(v);
}

/* Give: the union of V's sets (keep) selected by SEL among the first UPTO;
 * an empty set of RX's space when none is selected. */
static isl_set *union_of(fp_sets *s, const wgp_kernel *k, const bufwork *bw, isl_set **v, const fp_radix *rx,
                         int sel, size_t upto) {
  isl_set *u = NULL;
  for (size_t i = 0; v && i < bw->n && i < upto; i++) {
    const wgp_access *acc = wgp_kernel_access(k, bw->ids[i]);
    if (!((sel & SEL_READ && is_read(acc)) || (sel & SEL_WRITE && is_write(acc))))
      continue;
    u = u ? isl_set_union(u, isl_set_copy(v[i])) : isl_set_copy(v[i]);
  }
  /* coalesced once: after every union the pieces are coalesced again and
   * again (a third of SAD's analysis) */
  return u ? isl_set_coalesce(u) : isl_set_empty(isl_space_set_alloc(fp_sets_ctx(s), 0, (unsigned)rx->n + 1));
}

static double count_copy(isl_set *x) { return fp_count(isl_set_copy(x)); }

/* Give: the lines of the sectors SECTORS (take), both as plain numbers, a
 * line RATIO sectors: l = floor(s / RATIO), exact since a line holds
 * whole sectors (the sector of byte a is floor(a / sector), its line
 * floor(a / line) = floor(floor(a / sector) / RATIO)).  Cheaper than the
 * lines' image of the groups' domain (Parboil SAD: a tenth of analyze). */
static isl_set *lines_of_sectors(isl_set *sectors, unsigned ratio) {
  isl_ctx *ctx = isl_set_get_ctx(sectors);
  isl_local_space *ls = isl_local_space_from_space(isl_space_alloc(ctx, 0, 1, 1));
  isl_basic_map *bm = isl_basic_map_universe(isl_local_space_get_space(ls));
  for (int side = 0; side < 2; side++) { /* ratio l <= s <= ratio l + ratio - 1 */
    isl_constraint *c = isl_constraint_alloc_inequality(isl_local_space_copy(ls));
    c = isl_constraint_set_coefficient_si(c, isl_dim_in, 0, side == 0 ? 1 : -1);
    c = isl_constraint_set_coefficient_si(c, isl_dim_out, 0, side == 0 ? -(int)ratio : (int)ratio);
    c = isl_constraint_set_constant_si(c, side == 0 ? 0 : (int)ratio - 1);
    bm = isl_basic_map_add_constraint(bm, c);
  }
  isl_local_space_free(ls);
  return isl_set_apply(sectors, isl_map_from_basic_map(bm));
}

/* The points A (keep, NA of them: -1 when unknown) and B (take) share:
 * |A| + |B| - |A u B|.  Their intersection is every piece of A met with
 * every piece of B, each with the existential variables of both (a tile's
 * halo over rows of odd pitch: 42 pieces, whose points cost a hundred
 * times those of the union to count); the union keeps them apart. */
static double count_common(isl_set *a, double na, isl_set *b) {
  double nb = count_copy(b);
  double nu = fp_count(isl_set_union(isl_set_copy(a), b));
  if (na < 0 || nb < 0 || nu < 0)
    return -1;
  return na + nb - nu;
}

/* The reuse fraction of the layer condition for occupancy O (lines of two
 * consecutive waves over the L2 size). */
static double reuse_fraction(double o) {
  if (o <= 1.0)
    return 1.0;
  if (o >= 2.0)
    return 0.0;
  return 2.0 - o;
}

static void mark_fallback(wgp_footprint *f, size_t id, const char *why) {
  f->acc[id].kind = WGP_FOOTPRINT_FALLBACK;
  snprintf(f->reason[id], FP_REASON, "%s", why);
  f->acc[id].reason = f->reason[id];
  f->acc[id].buffer = -1;
}

wgp_status wgp_footprint_analyze(const wgp_analysis_input *in, const wgp_footprint_options *opt,
                                 wgp_footprint **out, wgp_diag *diag) {
  *out = NULL;
  wgp_footprint_options o = opt ? *opt : (wgp_footprint_options){0};
  const wgp_kernel *k = in->kernel;
  const wgp_gpu *gpu = in->gpu;
  unsigned sector = o.sector_bytes ? o.sector_bytes : wgp_gpu_l2_sector_bytes(gpu);
  unsigned line = o.line_bytes ? o.line_bytes : wgp_gpu_l2_line_bytes(gpu);
  double l2 = o.l2_bytes > 0 ? o.l2_bytes : (double)wgp_gpu_l2_bytes(gpu);
  if (!sector || !line || line % sector)
    return wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: footprints: sector %u B and line %u B do not nest",
                        sector, line);
  fp_sets *s;
  wgp_status st = fp_sets_new(in, &s, diag);
  if (st != WGP_OK)
    return st;
  wgp_footprint *f = calloc(1, sizeof *f);
  size_t nacc = wgp_kernel_num_accesses(k), nbuf = fp_sets_num_buffers(s);
  if (f) {
    f->nacc = nacc;
    f->sector = sector;
    f->acc = calloc(nacc ? nacc : 1, sizeof *f->acc);
    f->reason = calloc(nacc ? nacc : 1, sizeof *f->reason);
    f->buf = calloc(nbuf ? nbuf : 1, sizeof *f->buf);
    f->bufname = calloc(nbuf ? nbuf : 1, sizeof *f->bufname);
  }
  bufwork *bw = calloc(nbuf ? nbuf : 1, sizeof *bw);
  wave *waves = calloc(WGP_FOOTPRINT_EXACT_WAVES + 2, sizeof *waves);
  if (!f || !f->acc || !f->reason || !f->buf || !f->bufname || !bw || !waves) {
    free(bw), free(waves);
    wgp_footprint_free(f);
    fp_sets_free(s);
    return wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
  }

  /* ---- waves ---- */
  uint64_t G = fp_sets_groups(s);
  uint64_t W = o.groups_per_wave;
  if (!W)
    W = (uint64_t)(o.resident_groups_per_sm ? o.resident_groups_per_sm : 1) * wgp_gpu_sm_count(gpu);
  if (W > G)
    W = G;
  uint64_t nw = (G + W - 1) / W;
  size_t nev = 0;
  if (nw <= WGP_FOOTPRINT_EXACT_WAVES) {
    for (uint64_t w = 0; w < nw; w++)
      waves[nev++] = (wave){w, 1.0};
  } else {
    waves[nev++] = (wave){0, 1.0};
    for (unsigned i = 0; i < WGP_FOOTPRINT_SAMPLES; i++)
      waves[nev++] = (wave){1 + (nw - 2) * (2 * i + 1) / (2 * WGP_FOOTPRINT_SAMPLES),
                            (double)(nw - 2) / WGP_FOOTPRINT_SAMPLES};
    waves[nev++] = (wave){nw - 1, 1.0};
  }
  uint64_t rep = nw / 2;
  size_t rep_i = 0;
  for (size_t i = 0; i < nev; i++)
    if (waves[i].w == rep)
      rep_i = i;
  wgp_footprint_launch *L = &f->launch;
  L->groups = G;
  L->groups_per_wave = W;
  L->waves = nw;
  L->representative_wave = rep;
  L->waves_counted = nev;
  L->sampled = nw > WGP_FOOTPRINT_EXACT_WAVES;
  L->l2_bytes = l2;

  /* ---- accesses and buffers ---- */
  for (size_t i = 0; i < nacc; i++) {
    const fp_access_info *a = fp_sets_access(s, i);
    wgp_footprint_access *fa = &f->acc[i];
    fa->buffer = -1;
    wgp_space sp = wgp_access_space(wgp_kernel_access(k, i));
    if (!wgp_space_is_global(sp)) {
      fa->kind = WGP_FOOTPRINT_NONE;
      continue;
    }
    if (!a->ok) {
      mark_fallback(f, i, a->reason);
      continue;
    }
    fa->kind = a->bound ? WGP_FOOTPRINT_BOUND : WGP_FOOTPRINT_EXACT;
    if (a->bound) {
      snprintf(f->reason[i], FP_REASON, "%s", a->reason);
      fa->reason = f->reason[i];
    }
    fa->buffer = a->buffer;
    if (a->never)
      continue; /* no lane executes it: nothing to count */
    bufwork *b = &bw[a->buffer];
    if (!b->ids)
      b->ids = calloc(nacc, sizeof *b->ids);
    if (!b->ids) {
      st = wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
      break;
    }
    b->ids[b->n++] = i;
  }
  for (size_t b = 0; st == WGP_OK && b < nbuf; b++) {
    bw[b].bw = calloc(nev, sizeof *bw[b].bw);
    if (!bw[b].bw)
      st = wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
    snprintf(f->bufname[b], sizeof f->bufname[b], "%s", fp_sets_buffer_name(s, (int)b));
    f->buf[b].name = f->bufname[b];
    f->buf[b].accesses = bw[b].n;
    f->buf[b].exact = true;
    for (size_t i = 0; i < bw[b].n; i++)
      f->buf[b].exact = f->buf[b].exact && f->acc[bw[b].ids[i]].kind == WGP_FOOTPRINT_EXACT;
    if (st == WGP_OK && bw[b].n) {
      fp_sets_radix(s, bw[b].ids, bw[b].n, sector, &bw[b].sec);
      fp_sets_radix(s, bw[b].ids, bw[b].n, line, &bw[b].lin);
    }
  }

  /* ---- per buffer and evaluated wave ---- */
  for (size_t b = 0; st == WGP_OK && b < nbuf; b++) {
    bufwork *B = &bw[b];
    for (size_t i = 0; i < nev && B->n && !B->failed; i++) {
      uint64_t w = waves[i].w, lo = w * W, hi = lo + W < G ? lo + W : G;
      bwave *x = &B->bw[i];
      isl_ctx_reset_operations(fp_sets_ctx(s));
      isl_set **cur = sets_of(s, B, &B->sec, lo, hi);
      isl_set *rd = union_of(s, k, B, cur, &B->sec, SEL_READ, B->n);
      isl_set *wr = union_of(s, k, B, cur, &B->sec, SEL_WRITE, B->n);
      x->rd = cur ? count_copy(rd) : -1;
      x->wr = cur ? count_copy(wr) : -1;
      /* lines from the sectors where both are plain numbers (not digits) */
      bool plain = B->sec.n == 0 && B->lin.n == 0 && cur;
      isl_set *both = plain ? union_of(s, k, B, cur, &B->sec, SEL_ALL, B->n) : NULL;
      if (w > 0) {
        isl_set **prev = sets_of(s, B, &B->sec, lo - W, lo);
        isl_set *pall = union_of(s, k, B, prev, &B->sec, SEL_ALL, B->n);
        isl_set *pwr = union_of(s, k, B, prev, &B->sec, SEL_WRITE, B->n);
        if (both)
          both = prev ? isl_set_union(both, isl_set_copy(pall)) : (isl_set_free(both), NULL);
        x->rd_ov = prev ? count_common(rd, x->rd, pall) : (isl_set_free(pall), -1);
        x->wr_ov = prev ? count_common(wr, x->wr, pwr) : (isl_set_free(pwr), -1);
        sets_free(prev, B->n);
      }
      if (both) {
        x->lines = fp_count(lines_of_sectors(both, B->lin.unit / B->sec.unit));
      } else {
        isl_set **two = sets_of(s, B, &B->lin, w > 0 ? lo - W : lo, hi);
        x->lines = two ? fp_count(union_of(s, k, B, two, &B->lin, SEL_ALL, B->n)) : -1;
        sets_free(two, B->n);
      }
      isl_set_free(rd), isl_set_free(wr);
      if (i == rep_i)
        B->rep = cur;
      else
        sets_free(cur, B->n);
      B->failed = x->rd < 0 || x->wr < 0 || x->rd_ov < 0 || x->wr_ov < 0 || x->lines < 0;
    }
    if (B->failed)
      for (size_t i = 0; i < B->n; i++)
        mark_fallback(f, B->ids[i], "the buffer's footprint is past the work bound (over 2^20 values to walk, then over "
                                    "100000 isl operations)");
  }

  /* ---- the layer condition per evaluated wave, over every buffer ---- */
  double *h = calloc(nev, sizeof *h);
  if (!h && st == WGP_OK)
    st = wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
  /* bytes per wave of the accesses without a footprint: the lines their
   * requests touch, the wave's share (no reuse among them assumed) */
  double other = 0;
  for (size_t i = 0; o.totals && i < nacc; i++)
    if (f->acc[i].kind == WGP_FOOTPRINT_FALLBACK)
      other += o.totals[i].lines * line * ((double)W / (double)G);
  for (size_t i = 0; st == WGP_OK && i < nev; i++) {
    double lines = 0;
    for (size_t b = 0; b < nbuf; b++)
      if (bw[b].n && !bw[b].failed)
        lines += bw[b].bw[i].lines;
    double occ = (lines * line + other * (waves[i].w > 0 ? 2 : 1)) / l2;
    h[i] = waves[i].w > 0 ? reuse_fraction(occ) : 0.0;
    if (i == rep_i) {
      L->occupancy = occ;
      L->reuse_fraction = h[i];
    }
  }

  /* ---- buffer totals ---- */
  for (size_t b = 0; st == WGP_OK && b < nbuf; b++) {
    bufwork *B = &bw[b];
    wgp_footprint_buffer *fb = &f->buf[b];
    if (!B->n || B->failed) {
      fb->accesses = 0;
      continue;
    }
    for (size_t i = 0; i < nev; i++) {
      const bwave *x = &B->bw[i];
      double rd = x->rd - h[i] * x->rd_ov, wr = x->wr - h[i] * x->wr_ov;
      fb->dram_read_bytes += waves[i].weight * rd * sector;
      fb->dram_write_bytes += waves[i].weight * wr * sector;
      fb->dram_read_bytes_no_reuse += waves[i].weight * x->rd * sector;
      fb->dram_write_bytes_no_reuse += waves[i].weight * x->wr * sector;
      if (i == rep_i) {
        fb->read_sectors_per_wave = x->rd;
        fb->write_sectors_per_wave = x->wr;
        fb->reused_read_sectors = x->rd_ov;
        fb->lines_two_waves = x->lines;
        fb->dram_read_bytes_per_wave = x->rd * sector;
        fb->dram_read_bytes_per_wave_reuse = rd * sector;
        fb->dram_write_bytes_per_wave = x->wr * sector;
        fb->dram_write_bytes_per_wave_reuse = wr * sector;
      }
    }
    /* every sector once: over the whole launch; a launch of one wave has
     * counted them already (the same sets) */
    double crd = B->bw[0].rd, cwr = B->bw[0].wr;
    if (nw > 1) {
      isl_ctx_reset_operations(fp_sets_ctx(s));
      isl_set **all = sets_of(s, B, &B->sec, 0, G);
      crd = all ? fp_count(union_of(s, k, B, all, &B->sec, SEL_READ, B->n)) : -1;
      cwr = all ? fp_count(union_of(s, k, B, all, &B->sec, SEL_WRITE, B->n)) : -1;
      sets_free(all, B->n);
    }
    fb->compulsory_read_bytes = crd < 0 ? NAN : crd * sector;
    fb->compulsory_write_bytes = cwr < 0 ? NAN : cwr * sector;
    /* per access, in the representative wave: requests, own sectors and
     * its share of the buffer's sectors (program order): the sectors each
     * reads (writes) first, all at once where fp_count_firsts can, else
     * the union of the accesses up to it counted for each */
    uint64_t lo = rep * W, hi = lo + W < G ? lo + W : G;
    double prev[2] = {0, 0};
    double *first[2] = {NULL, NULL}, *own_all = B->rep ? calloc(B->n, sizeof *own_all) : NULL;
    for (int side = 0; side < 2 && B->rep; side++) {
      isl_set **sel = calloc(B->n, sizeof *sel);
      size_t *at = calloc(B->n, sizeof *at), m = 0;
      double *own = calloc(B->n, sizeof *own);
      for (size_t j = 0; sel && at && own && j < B->n; j++) {
        const wgp_access *x = wgp_kernel_access(k, B->ids[j]);
        if (side == 0 ? is_read(x) : is_write(x))
          at[m] = j, sel[m++] = B->rep[j];
      }
      first[side] = sel && at && own ? calloc(B->n, sizeof **first) : NULL;
      isl_ctx_reset_operations(fp_sets_ctx(s));
      double *mine = own_all ? calloc(B->n, sizeof *mine) : NULL;
      if (first[side] && mine && m > 1 && fp_count_firsts(sel, m, own, mine)) {
        for (size_t j = 0; j < m; j++) { /* the union up to each: running sums */
          first[side][at[j]] = own[j] + (j ? first[side][at[j - 1]] : 0);
          own_all[at[j]] = mine[j];
        }
      } else {
        free(first[side]);
        first[side] = NULL;
      }
      free(sel), free(at), free(own), free(mine);
    }
    for (size_t i = 0; i < B->n; i++) {
      size_t id = B->ids[i];
      const fp_access_info *a = fp_sets_access(s, id);
      const wgp_access *acc = wgp_kernel_access(k, id);
      wgp_footprint_access *fa = &f->acc[id];
      isl_ctx_reset_operations(fp_sets_ctx(s));
      /* the traces' lane executions, the wave's share of them, when given:
       * isl counts lanes by scanning them */
      double ex = o.totals ? o.totals[id].lane_bytes / a->bytes * (double)(hi - lo) / (double)G
                           : fp_sets_executions(s, id, lo, hi);
      fa->bytes_requested_per_wave = ex < 0 ? NAN : ex * a->bytes;
      fb->bytes_requested_per_wave += ex < 0 ? 0 : ex * a->bytes;
      double share = 0, share_w = 0;
      size_t nread = 0, nwrite = 0, lastread = 0, lastwrite = 0;
      for (size_t j = 0; j < B->n; j++) {
        const wgp_access *x = wgp_kernel_access(k, B->ids[j]);
        if (is_read(x))
          nread++, lastread = j;
        if (is_write(x))
          nwrite++, lastwrite = j;
      }
      /* alone in its buffer (for its kind): its sectors are the buffer's */
      if (B->n == 1)
        fa->sectors_per_wave = is_read(acc) ? B->bw[rep_i].rd : B->bw[rep_i].wr;
      else if (first[is_read(acc) ? 0 : 1] && own_all)
        fa->sectors_per_wave = own_all[i]; /* from the same walk */
      else
        fa->sectors_per_wave = B->rep ? count_copy(B->rep[i]) : NAN;
      for (int side = 0; side < 2; side++) {
        bool mine = side == 0 ? is_read(acc) : is_write(acc);
        double total = side == 0 ? B->bw[rep_i].rd : B->bw[rep_i].wr;
        if (!mine || total <= 0)
          continue;
        size_t nsel = side == 0 ? nread : nwrite, last = side == 0 ? lastread : lastwrite;
        double upto = nsel == 1 || i == last ? total
                      : first[side] ? first[side][i]
                      : B->rep ? fp_count(union_of(s, k, B, B->rep, &B->sec, side == 0 ? SEL_READ : SEL_WRITE, i + 1))
                               : -1;
        double part = upto < 0 ? 0 : (upto - prev[side]) / total;
        prev[side] = upto < 0 ? prev[side] : upto;
        if (side == 0)
          share = part;
        else
          share_w = part;
      }
      fa->dram_bytes_per_wave = share * fb->dram_read_bytes_per_wave + share_w * fb->dram_write_bytes_per_wave;
      fa->dram_bytes_per_wave_reuse =
          share * fb->dram_read_bytes_per_wave_reuse + share_w * fb->dram_write_bytes_per_wave_reuse;
      fa->dram_bytes = share * fb->dram_read_bytes + share_w * fb->dram_write_bytes;
      fa->dram_bytes_no_reuse = share * fb->dram_read_bytes_no_reuse + share_w * fb->dram_write_bytes_no_reuse;
    }
    free(first[0]), free(first[1]), free(own_all);
    L->dram_read_bytes += fb->dram_read_bytes;
    L->dram_write_bytes += fb->dram_write_bytes;
    L->dram_read_bytes_no_reuse += fb->dram_read_bytes_no_reuse;
    L->dram_write_bytes_no_reuse += fb->dram_write_bytes_no_reuse;
    L->compulsory_read_bytes += fb->compulsory_read_bytes;
    L->compulsory_write_bytes += fb->compulsory_write_bytes;
  }
  for (size_t i = 0; i < nacc; i++) {
    L->exact_accesses += f->acc[i].kind == WGP_FOOTPRINT_EXACT;
    L->bound_accesses += f->acc[i].kind == WGP_FOOTPRINT_BOUND;
    L->fallback_accesses += f->acc[i].kind == WGP_FOOTPRINT_FALLBACK;
  }
  f->nbuf = nbuf;
  for (size_t b = 0; b < nbuf; b++) {
    sets_free(bw[b].rep, bw[b].n);
    free(bw[b].ids), free(bw[b].bw);
  }
  free(bw), free(waves), free(h);
  fp_sets_free(s);
  if (st != WGP_OK) {
    wgp_footprint_free(f);
    return st;
  }
  *out = f;
  return WGP_OK;
}

/* Per argument of IN's kernel: the lowest and highest unit (UNIT bytes)
 * its global accesses touch over the launch (LO > HI where none), and
 * UNKNOWN where one of them has no set.  EXACT: only the accesses whose
 * domain is exact (no data-dependent branch taken both ways before them);
 * the others are left out rather than made unknown. */
static wgp_status arg_ranges(const wgp_analysis_input *in, unsigned unit, bool exact, double *lo, double *hi,
                             bool *unknown, wgp_diag *diag) {
  const wgp_kernel *k = in->kernel;
  size_t nargs = wgp_kernel_num_args(k), nacc = wgp_kernel_num_accesses(k);
  for (size_t a = 0; a < nargs; a++)
    lo[a] = INFINITY, hi[a] = -INFINITY, unknown[a] = false;
  fp_sets *s;
  wgp_status st = fp_sets_new(in, &s, diag);
  if (st != WGP_OK)
    return st;
  fp_radix plain = {unit, 0, {0}};
  isl_ctx *ctx = fp_sets_ctx(s);
  uint64_t G = fp_sets_groups(s);
  for (size_t i = 0; i < nacc; i++) {
    const wgp_access *acc = wgp_kernel_access(k, i);
    if (!wgp_space_is_global(wgp_access_space(acc)))
      continue;
    const fp_access_info *info = fp_sets_access(s, i);
    long key = info->buffer >= 0 ? fp_sets_buffer_key(s, info->buffer) : wgp_access_base_arg(acc);
    if (key < 0 || (size_t)key >= nargs)
      continue; /* a global array, or no buffer of its own */
    if (exact && (!info->ok || info->bound))
      continue;
    if (!info->ok) {
      unknown[key] = true;
      continue;
    }
    if (info->never || unknown[key])
      continue;
    isl_ctx_reset_operations(ctx);
    isl_set *u = fp_sets_units(s, i, &plain, 0, G);
    if (u && isl_set_is_empty(u) == isl_bool_true) {
      isl_set_free(u);
      continue;
    }
    isl_val *mn = NULL, *mx = NULL;
    if (u) {
      isl_aff *obj = isl_aff_var_on_domain(isl_local_space_from_space(isl_set_get_space(u)), isl_dim_set, 0);
      mn = isl_set_min_val(u, obj);
      mx = isl_set_max_val(u, obj);
      isl_aff_free(obj);
      isl_set_free(u);
    }
    if (mn && mx && isl_val_is_int(mn) && isl_val_is_int(mx)) {
      double a = isl_val_get_d(mn), b = isl_val_get_d(mx);
      lo[key] = a < lo[key] ? a : lo[key];
      hi[key] = b > hi[key] ? b : hi[key];
    } else if (!exact) {
      unknown[key] = true;
    }
    isl_val_free(mn), isl_val_free(mx);
  }
  fp_sets_free(s);
  return WGP_OK;
}

wgp_status wgp_footprint_extents(const wgp_analysis_input *in, double *extent, wgp_diag *diag) {
  size_t nargs = wgp_kernel_num_args(in->kernel);
  for (size_t a = 0; a < nargs; a++)
    extent[a] = 0;
  /* per argument: the lowest and highest sector, and whether one of its
   * accesses has none */
  double *lo = malloc((nargs ? nargs : 1) * sizeof *lo), *hi = malloc((nargs ? nargs : 1) * sizeof *hi);
  bool *unknown = calloc(nargs ? nargs : 1, sizeof *unknown);
  if (!lo || !hi || !unknown) {
    free(lo), free(hi), free(unknown);
    return wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
  }
  unsigned sector = wgp_gpu_l2_sector_bytes(in->gpu);
  if (!sector)
    sector = 32;
  wgp_status st = arg_ranges(in, sector, false, lo, hi, unknown, diag);
  for (size_t a = 0; st == WGP_OK && a < nargs; a++)
    if (!unknown[a] && hi[a] >= lo[a])
      extent[a] = (hi[a] - lo[a] + 1) * sector;
  free(lo), free(hi), free(unknown);
  return st;
}

wgp_status wgp_footprint_reach(const wgp_analysis_input *in, double *lo, double *hi, wgp_diag *diag) {
  size_t nargs = wgp_kernel_num_args(in->kernel);
  bool *unknown = calloc(nargs ? nargs : 1, sizeof *unknown);
  if (!unknown)
    return wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
  wgp_status st = arg_ranges(in, 1, true, lo, hi, unknown, diag);
  free(unknown);
  return st;
}

wgp_status wgp_footprint_outside(const wgp_analysis_input *in, size_t max, size_t *arg, double *lo, double *hi,
                                 size_t *count, wgp_diag *diag) {
  *count = 0;
  size_t n = wgp_kernel_num_args(in->kernel);
  bool any = false;
  for (size_t i = 0; in->buffer_bytes && i < n; i++)
    any = any || in->buffer_bytes[i] > 0;
  if (!any)
    return WGP_OK; /* no size to compare with: no isl */
  double *l = malloc(n * sizeof *l), *h = malloc(n * sizeof *h);
  wgp_status st = l && h ? wgp_footprint_reach(in, l, h, diag)
                         : wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
  for (size_t i = 0; st == WGP_OK && i < n && *count < max; i++) {
    double size = (double)in->buffer_bytes[i];
    if (size > 0 && l[i] <= h[i] && (l[i] < 0 || h[i] >= size)) {
      arg[*count] = i, lo[*count] = l[i], hi[*count] = h[i];
      (*count)++;
    }
  }
  free(l), free(h);
  return st;
}

void wgp_footprint_free(wgp_footprint *f) {
  if (!f)
    return;
  free(f->acc), free(f->reason), free(f->buf), free(f->bufname);
  free(f);
}

size_t wgp_footprint_num_accesses(const wgp_footprint *f) { return f->nacc; }
const wgp_footprint_access *wgp_footprint_access_at(const wgp_footprint *f, size_t id) {
  return id < f->nacc ? &f->acc[id] : NULL;
}
size_t wgp_footprint_num_buffers(const wgp_footprint *f) { return f->nbuf; }
const wgp_footprint_buffer *wgp_footprint_buffer_at(const wgp_footprint *f, size_t i) {
  return i < f->nbuf ? &f->buf[i] : NULL;
}
const wgp_footprint_launch *wgp_footprint_launch_totals(const wgp_footprint *f) { return &f->launch; }

const char *wgp_footprint_kind_name(wgp_footprint_kind kind) {
  switch (kind) {
  case WGP_FOOTPRINT_EXACT: return "exact";
  case WGP_FOOTPRINT_BOUND: return "bound";
  case WGP_FOOTPRINT_FALLBACK: return "fallback";
  default: return "none";
  }
}

/* ---- for the simulator and the report -------------------------------------- */

static double hit_or_zero(double h) { return h > 0 ? h : 0; }

double wgp_lru_dram_bytes(const wgp_kernel *k, size_t id, const wgp_mem_stats *tot, const wgp_cache_result *cache,
                          unsigned sector) {
  const wgp_access *a = wgp_kernel_access(k, id);
  wgp_space sp = wgp_access_space(a);
  if (!wgp_space_is_global(sp))
    return 0;
  double l1 = wgp_access_get_kind(a) == WGP_ACCESS_LOAD ? hit_or_zero(cache->l1_hit[id]) : 0;
  return tot[id].sectors * (1 - l1) * (1 - hit_or_zero(cache->l2_hit[id])) * sector;
}

void wgp_footprint_dram_bytes(const wgp_footprint *f, const wgp_kernel *k, const wgp_mem_stats *tot,
                              const wgp_cache_result *cache, double *read, double *write) {
  double r = f->launch.dram_read_bytes, w = f->launch.dram_write_bytes;
  for (size_t i = 0; i < f->nacc; i++) {
    if (f->acc[i].kind != WGP_FOOTPRINT_FALLBACK)
      continue;
    double b = wgp_lru_dram_bytes(k, i, tot, cache, f->sector);
    if (wgp_access_get_kind(wgp_kernel_access(k, i)) == WGP_ACCESS_LOAD)
      r += b;
    else
      w += b;
  }
  if (read)
    *read = r;
  if (write)
    *write = w;
}

void wgp_footprint_l2_hit_rates(const wgp_footprint *f, const wgp_kernel *k, const wgp_mem_stats *tot,
                                const wgp_cache_result *cache, double *l2_hit) {
  for (size_t i = 0; i < f->nacc; i++) {
    const wgp_footprint_access *fa = &f->acc[i];
    if (fa->kind != WGP_FOOTPRINT_EXACT && fa->kind != WGP_FOOTPRINT_BOUND) {
      l2_hit[i] = cache->l2_hit[i];
      continue;
    }
    bool load = wgp_access_get_kind(wgp_kernel_access(k, i)) == WGP_ACCESS_LOAD;
    double to_l2 = tot[i].sectors * (load ? 1 - hit_or_zero(cache->l1_hit[i]) : 1) * f->sector;
    if (to_l2 <= 0) {
      l2_hit[i] = -1;
      continue;
    }
    double h = 1 - fa->dram_bytes / to_l2;
    l2_hit[i] = h < 0 ? 0 : h > 1 ? 1 : h;
  }
}

static bool apart(double a, double b, double sector) {
  double hi = a > b ? a : b, lo = a > b ? b : a;
  return hi >= sector && hi > WGP_FOOTPRINT_DISAGREEMENT * lo;
}

const char *wgp_footprint_disagreement(const wgp_footprint *f, const wgp_kernel *k, size_t id,
                                       const wgp_mem_stats *tot, const wgp_cache_result *cache, double *ratio) {
  const wgp_footprint_access *fa = wgp_footprint_access_at(f, id);
  if (!fa || (fa->kind != WGP_FOOTPRINT_EXACT && fa->kind != WGP_FOOTPRINT_BOUND))
    return NULL;
  double lru = wgp_lru_dram_bytes(k, id, tot, cache, f->sector), fp = fa->dram_bytes;
  if (!apart(lru, fp, f->sector))
    return NULL;
  *ratio = fp > 0 ? lru / fp : INFINITY;
  if (cache->l2_warm)
    return "the launch's data is taken as in L2 from before the launch, so the LRU moves no DRAM bytes; "
           "the footprints start from an empty L2 (--cold-l2 compares both cold)";
  if (wgp_access_get_kind(wgp_kernel_access(k, id)) != WGP_ACCESS_LOAD && lru < fp)
    return "a store to a sector already written in the LRU's sample adds no write-back there; the footprint writes each "
           "written sector back once per wave";
  /* the same comparison over the access's buffer */
  double blru = 0, bfp = 0;
  for (size_t i = 0; i < f->nacc; i++)
    if (f->acc[i].buffer == fa->buffer &&
        (f->acc[i].kind == WGP_FOOTPRINT_EXACT || f->acc[i].kind == WGP_FOOTPRINT_BOUND))
      blru += wgp_lru_dram_bytes(k, i, tot, cache, f->sector), bfp += f->acc[i].dram_bytes;
  if (!apart(blru, bfp, f->sector))
    return "same buffer total: a sector is charged to the first access in program order here, to the first to miss "
           "in the LRU";
  if (lru > fp && fa->dram_bytes_no_reuse > 1.5 * fa->dram_bytes &&
      !apart(lru, fa->dram_bytes_no_reuse, f->sector))
    return "reuse between waves: earlier waves leave this data in L2, the LRU simulates one wave";
  if (lru > fp)
    return "the LRU replays a sample of the first wave in order in a share of L2 and misses on data the footprint "
           "counts once per wave";
  return "the LRU extrapolates from a sample of the first wave whose groups share more data than a whole wave's";
}
