/* cache.c - L1/L2 hit rates from an LRU simulation of a wave's address
 * stream (the model is described in include/wgperf/cache.h). */
#include "wgperf/cache.h"

#include "sort_internal.h"

#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- one access event of one warp --------------------------------------- */

typedef struct event {
  uint32_t access;
  uint32_t first, n; /* sectors[first .. first+n) */
  double weight;
  bool store;
} event;

typedef struct stream {
  event *ev;
  size_t nev, cap;
} stream;

typedef struct twin_state {
  size_t stamp;
  uint32_t first, n;
  uint64_t lo, hi;
} twin_state;

typedef struct recorder {
  const wgp_kernel *k;
  const wgp_layout *layout;
  unsigned lanes, sector;
  stream *cur;
  uint64_t *sec;
  size_t nsec, capsec;
  size_t visits; /* blocks the tracer visited: with the events, the work of the sample */
  bool oom;
  /* accesses with a twin (wgp_offset_twins) take its sectors, translated,
   * when the twin's were recorded at this visit: per access the visit
   * (stamp), its sectors and its lanes' lowest and highest address */
  const uint32_t *twin;
  twin_state *ts;
} recorder;

static void record(void *user, size_t block, uint64_t mask, double weight, double mult, wgp_tracer *t) {
  recorder *r = user;
  const wgp_block *b = wgp_kernel_block(r->k, block);
  r->visits++;
  for (size_t i = 0; i < wgp_block_num_accesses(b) && !r->oom; i++) {
    size_t id = wgp_block_access(b, i);
    const wgp_access *a = wgp_kernel_access(r->k, id);
    wgp_space sp = wgp_access_space(a);
    if (sp != WGP_SPACE_GLOBAL && sp != WGP_SPACE_GENERIC)
      continue;
    uint64_t addr[WGP_TRACE_MAX_WARP], s[WGP_TRACE_MAX_WARP * 2];
    size_t u = 0;
    uint32_t tw = r->twin ? r->twin[id] : WGP_NO_TWIN;
    const twin_state *x = tw != WGP_NO_TWIN ? &r->ts[tw] : NULL;
    __int128 d = x ? (__int128)wgp_layout_access_base(r->layout, r->k, id) -
                         (__int128)wgp_layout_access_base(r->layout, r->k, tw)
                   : 0,
             top = (__int128)1 << 62;
    /* sectors are powers of two: a mask and a shift, not a 128-bit division */
    if (x && x->stamp == r->visits && (d & (__int128)(r->sector - 1)) == 0 && (__int128)x->lo + d >= 0 &&
        (__int128)x->hi + d < top) {
      /* the twin's addresses moved by D: its sectors moved by D / sector */
      uint64_t shift = (uint64_t)(int64_t)(d >> __builtin_ctz(r->sector));
      for (uint32_t j = 0; j < x->n; j++)
        s[u++] = r->sec[x->first + j] + shift;
    } else {
      wgp_access_addresses(r->layout, r->k, r->lanes, t, a, mask, addr);
      size_t n = 0;
      unsigned bytes = (unsigned)wgp_access_bytes(a);
      /* sectors are powers of two (the GPU description checks): shifts, not
       * a division per lane */
      unsigned sh = (unsigned)__builtin_ctz(r->sector);
      uint64_t lo = UINT64_MAX, hi = 0;
      for (unsigned l = 0; l < r->lanes; l++)
        if (mask >> l & 1) {
          lo = addr[l] < lo ? addr[l] : lo;
          hi = addr[l] > hi ? addr[l] : hi;
          for (uint64_t y = addr[l] >> sh; y <= (addr[l] + (bytes ? bytes : 1) - 1) >> sh && n < sizeof s / sizeof *s;
               y++)
            s[n++] = y;
        }
      wgp_sort_u64(s, n);
      for (size_t j = 0; j < n; j++)
        if (!j || s[j] != s[j - 1])
          s[u++] = s[j];
      if (r->ts) {
        /* a twin may translate these when every lane's bytes stay far from
         * both ends of the space (below 2^62) */
        twin_state *me = &r->ts[id];
        __int128 end = (__int128)hi + (bytes ? bytes : 1);
        me->stamp = hi < lo || end >= top ? 0 : r->visits;
        me->first = (uint32_t)r->nsec;
        me->n = (uint32_t)u;
        me->lo = lo;
        me->hi = (uint64_t)end;
      }
    }
    if (r->nsec + u > r->capsec) {
      size_t cap = (r->capsec + u) * 2;
      uint64_t *p = realloc(r->sec, cap * sizeof *p);
      if (!p) {
        r->oom = true;
        return;
      }
      r->sec = p;
      r->capsec = cap;
    }
    memcpy(r->sec + r->nsec, s, u * sizeof *s);
    stream *st = r->cur;
    if (st->nev == st->cap) {
      size_t cap = st->cap ? 2 * st->cap : 64;
      event *e = realloc(st->ev, cap * sizeof *e);
      if (!e) {
        r->oom = true;
        return;
      }
      st->ev = e;
      st->cap = cap;
    }
    st->ev[st->nev++] = (event){(uint32_t)id, (uint32_t)r->nsec, (uint32_t)u, weight * mult,
                                wgp_access_get_kind(a) != WGP_ACCESS_LOAD};
    r->nsec += u;
  }
}

/* ---- a sectored LRU cache -------------------------------------------------- */

/* Storage grows with the lines in use up to the capacity: a sample touches
 * far fewer lines than a 50 MB L2 holds, and allocating (and faulting in)
 * the whole capacity for every analysis cost more than the simulation. */
typedef struct lru {
  size_t cap, n;          /* lines */
  size_t room;            /* nodes allocated (<= cap) */
  unsigned per_line;      /* sectors per line */
  uint64_t *key;          /* hash table of line tags: slot -> tag+1 (0 empty) */
  uint32_t *slot_node;    /* slot -> node */
  size_t mask;
  uint64_t *tag;          /* node -> tag */
  uint32_t *valid;        /* node -> sector bits */
  uint32_t *dirty;        /* node -> sector bits written since they came in (L2: to be written back) */
  uint32_t *prev, *next;  /* LRU list, head = most recent */
  uint32_t head, tail, free_top;
} lru;

#define NIL UINT32_MAX

static bool lru_init(lru *c, size_t lines, unsigned per_line) {
  memset(c, 0, sizeof *c);
  c->cap = lines ? lines : 1;
  c->per_line = per_line ? per_line : 1;
  c->room = c->cap < 64 ? c->cap : 64;
  size_t slots = 16;
  while (slots < c->room * 2)
    slots *= 2;
  c->mask = slots - 1;
  c->key = calloc(slots, sizeof *c->key);
  c->slot_node = calloc(slots, sizeof *c->slot_node);
  c->tag = calloc(c->room, sizeof *c->tag);
  c->valid = calloc(c->room, sizeof *c->valid);
  c->dirty = calloc(c->room, sizeof *c->dirty);
  c->prev = calloc(c->room, sizeof *c->prev);
  c->next = calloc(c->room, sizeof *c->next);
  c->head = c->tail = NIL;
  return c->key && c->slot_node && c->tag && c->valid && c->dirty && c->prev && c->next;
}

static void lru_free(lru *c) {
  free(c->key), free(c->slot_node), free(c->tag), free(c->valid), free(c->dirty), free(c->prev), free(c->next);
}

static size_t lru_find_slot(const lru *c, uint64_t tag) {
  /* the product's high bits folded in: strided tags (multiples of 2^k) keep
   * k zero low bits in the product alone, and crowd 1/2^k of the table */
  uint64_t h = tag * 0x9e3779b97f4a7c15ull;
  size_t s = (size_t)(h ^ (h >> 32)) & c->mask;
  while (c->key[s] && c->key[s] != tag + 1)
    s = (s + 1) & c->mask;
  return s;
}

/* Doubles the nodes (up to the capacity) and the hash table with them. */
static bool lru_grow(lru *c) {
  size_t room = c->room * 2 < c->cap ? c->room * 2 : c->cap;
  uint64_t *tag = realloc(c->tag, room * sizeof *tag);
  if (tag)
    c->tag = tag;
  uint32_t *valid = realloc(c->valid, room * sizeof *valid);
  if (valid)
    c->valid = valid;
  uint32_t *dirty = realloc(c->dirty, room * sizeof *dirty);
  if (dirty)
    c->dirty = dirty;
  uint32_t *prev = realloc(c->prev, room * sizeof *prev);
  if (prev)
    c->prev = prev;
  uint32_t *next = realloc(c->next, room * sizeof *next);
  if (next)
    c->next = next;
  if (!tag || !valid || !dirty || !prev || !next)
    return false;
  size_t slots = c->mask + 1;
  while (slots < room * 2)
    slots *= 2;
  if (slots != c->mask + 1) {
    uint64_t *key = calloc(slots, sizeof *key);
    uint32_t *sn = calloc(slots, sizeof *sn);
    if (!key || !sn) {
      free(key), free(sn);
      return false;
    }
    uint64_t *okey = c->key;
    uint32_t *osn = c->slot_node;
    size_t oslots = c->mask + 1;
    c->key = key, c->slot_node = sn, c->mask = slots - 1;
    for (size_t i = 0; i < oslots; i++)
      if (okey[i]) {
        size_t t = lru_find_slot(c, okey[i] - 1);
        c->key[t] = okey[i];
        c->slot_node[t] = osn[i];
      }
    free(okey), free(osn);
  }
  c->room = room;
  return true;
}

static void lru_unlink(lru *c, uint32_t n) {
  if (c->prev[n] != NIL) c->next[c->prev[n]] = c->next[n]; else c->head = c->next[n];
  if (c->next[n] != NIL) c->prev[c->next[n]] = c->prev[n]; else c->tail = c->prev[n];
}

static void lru_push_front(lru *c, uint32_t n) {
  c->prev[n] = NIL;
  c->next[n] = c->head;
  if (c->head != NIL) c->prev[c->head] = n;
  c->head = n;
  if (c->tail == NIL) c->tail = n;
}

/* Removes the entry in SLOT keeping the probe chains intact. */
static void lru_erase_slot(lru *c, size_t s) {
  c->key[s] = 0;
  for (size_t j = (s + 1) & c->mask; c->key[j]; j = (j + 1) & c->mask) {
    uint64_t k = c->key[j];
    uint32_t node = c->slot_node[j];
    c->key[j] = 0;
    size_t t = lru_find_slot(c, k - 1);
    c->key[t] = k;
    c->slot_node[t] = node;
  }
}

/* Looks up SECTOR; true on a hit. On a miss with FILL, the sector is brought
 * in (*OOM set when the storage could not grow). */
static bool lru_access(lru *c, uint64_t sector, bool fill, bool *oom) {
  uint64_t tag = sector / c->per_line;
  uint32_t bit = 1u << (sector % c->per_line);
  size_t s = lru_find_slot(c, tag);
  if (c->key[s]) {
    uint32_t n = c->slot_node[s];
    bool hit = c->valid[n] & bit;
    if (fill || hit) {
      lru_unlink(c, n);
      lru_push_front(c, n);
    }
    if (fill)
      c->valid[n] |= bit;
    return hit;
  }
  if (!fill)
    return false;
  uint32_t n;
  if (c->n < c->cap) {
    if (c->n == c->room) {
      if (!lru_grow(c)) {
        *oom = true;
        return false;
      }
      s = lru_find_slot(c, tag);
    }
    n = (uint32_t)c->n++;
  } else {
    n = c->tail;
    lru_unlink(c, n);
    lru_erase_slot(c, lru_find_slot(c, c->tag[n]));
    s = lru_find_slot(c, tag);
  }
  c->tag[n] = tag;
  c->valid[n] = bit;
  c->dirty[n] = 0;
  c->key[s] = tag + 1;
  c->slot_node[s] = n;
  lru_push_front(c, n);
  return false;
}

/* Marks SECTOR, present, as written; whether it was already (then its
 * write-back is one already counted). */
static bool lru_write(lru *c, uint64_t sector) {
  size_t s = lru_find_slot(c, sector / c->per_line);
  if (!c->key[s])
    return false;
  uint32_t n = c->slot_node[s], bit = 1u << (sector % c->per_line);
  bool was = c->dirty[n] & bit;
  c->dirty[n] |= bit;
  return was;
}

static void lru_invalidate(lru *c, uint64_t sector) {
  size_t s = lru_find_slot(c, sector / c->per_line);
  if (c->key[s])
    c->valid[c->slot_node[s]] &= ~(1u << (sector % c->per_line));
}

/* ---- DRAM rows (cache.h): the rows the banks keep open ------------------- */

/* A sector that reaches DRAM in one round of the interleaved stream. */
typedef struct dram_miss {
  uint64_t sector;
  double weight;
  uint32_t access;
} dram_miss;

typedef struct dram_rows {
  uint64_t *open;                        /* per bank of every device: its open row + 1, 0 none */
  uint64_t devices, banks, interleave, per_row; /* interleave in sectors; interleave chunks per device row */
  dram_miss *miss;                        /* this round's, warp by warp in stream order */
  size_t nmiss, capmiss;
  size_t *first, *count; /* per warp (stream): its misses of this round */
  bool on;
} dram_rows;

static bool dram_rows_init(dram_rows *r, const wgp_gpu *gpu, unsigned sector) {
  memset(r, 0, sizeof *r);
  unsigned dev = wgp_gpu_dram_devices(gpu);
  if (!dev)
    return true; /* no row geometry: no row model */
  r->on = true;
  r->devices = dev;
  r->banks = wgp_gpu_dram_banks_per_device(gpu);
  /* the loader keeps the interleave between an L2 sector and a row */
  r->interleave = wgp_gpu_dram_interleave_bytes(gpu) / sector;
  r->per_row = wgp_gpu_dram_row_bytes(gpu) / wgp_gpu_dram_interleave_bytes(gpu);
  r->open = calloc(r->devices * r->banks, sizeof *r->open);
  return r->open != NULL;
}

static uint64_t spread(uint64_t v) {
  uint64_t h = v * 0x9e3779b97f4a7c15ull;
  return h ^ (h >> 29);
}

/* Whether DRAM sector S opens a row (and the row is then open in its
 * bank).  Chunk c = q x devices + j goes to device (j + h(q)) mod devices:
 * every run of `devices` chunks covers each device once, as a plain
 * interleave does, but the rotation h(q) spreads strides that are multiples
 * of the device count over the devices, as the GPUs' address hashing does
 * (else a power-of-two column walk would find its rows all in one device).
 * Rows go to banks by a hash of the row too, so that the streams of
 * different buffers do not take turns in one bank. */
static bool dram_rows_activate(dram_rows *r, uint64_t s) {
  uint64_t chunk = s / r->interleave, q = chunk / r->devices;
  uint64_t device = (chunk % r->devices + spread(q) % r->devices) % r->devices;
  uint64_t row = q / r->per_row;
  uint64_t *bank = &r->open[device * r->banks + spread(row ^ (device << 40)) % r->banks];
  if (*bank == row + 1)
    return false;
  *bank = row + 1;
  return true;
}

static bool dram_rows_note(dram_rows *r, size_t w, uint64_t sector, double weight, uint32_t access) {
  if (r->nmiss == r->capmiss) {
    size_t cap = r->capmiss ? 2 * r->capmiss : 1024;
    dram_miss *m = realloc(r->miss, cap * sizeof *m);
    if (!m)
      return false;
    r->miss = m, r->capmiss = cap;
  }
  if (!r->count[w])
    r->first[w] = r->nmiss;
  r->count[w]++;
  r->miss[r->nmiss++] = (dram_miss){sector, weight, access};
  return true;
}

/* The round's misses in the order the SMs issue them (BY_TURN: the warps
 * in that order): each SM issues its warps in turn, all SMs at once.  A
 * warp's misses of a round are one run of the buffer: one event each. */
static void dram_rows_round(dram_rows *r, const uint32_t *by_turn, size_t nwarps, double *acts) {
  if (!r->nmiss)
    return;
  for (size_t t = 0; t < nwarps; t++) {
    size_t w = by_turn[t];
    for (size_t i = r->first[w]; i < r->first[w] + r->count[w]; i++)
      if (dram_rows_activate(r, r->miss[i].sector))
        acts[r->miss[i].access] += r->miss[i].weight;
    r->count[w] = 0;
  }
  r->nmiss = 0;
}

/* The NSTREAMS warps (WPG per group, group i of the sample is PICK[i]) in
 * the order the SMs issue them when they issue at once: a group runs on SM
 * (group mod SMS), and each SM takes its warps in order.  NULL when out of
 * memory. */
static uint32_t *dram_turns(size_t nstreams, size_t wpg, const uint64_t *pick, size_t S, unsigned sms) {
  uint64_t *turn = calloc(nstreams + 1, sizeof *turn);
  uint32_t *per_sm = calloc(sms ? sms : 1, sizeof *per_sm), *by_turn = calloc(nstreams + 1, sizeof *by_turn);
  if (turn && per_sm && by_turn) {
    for (size_t w = 0; w < nstreams; w++) {
      size_t gi = w / (wpg ? wpg : 1);
      unsigned sm = gi < S && sms ? (unsigned)(pick[gi] % sms) : 0;
      turn[w] = ((uint64_t)per_sm[sm]++ * sms + sm) << 32 | w; /* distinct: the low half is the warp */
    }
    wgp_sort_u64(turn, nstreams);
    for (size_t t = 0; t < nstreams; t++)
      by_turn[t] = (uint32_t)turn[t];
  } else {
    free(by_turn);
    by_turn = NULL;
  }
  free(turn), free(per_sm);
  return by_turn;
}

static void dram_rows_free(dram_rows *r) {
  free(r->open);
  free(r->miss);
  free(r->first);
  free(r->count);
}

/* ---- the analysis ------------------------------------------------------------ */

static size_t base_of(const wgp_kernel *k, size_t access) {
  long arg = wgp_access_base_arg(wgp_kernel_access(k, access));
  size_t nargs = wgp_kernel_num_args(k);
  return arg >= 0 && (size_t)arg < nargs ? (size_t)arg : nargs;
}

/* Per buffer, the share of distinct sectors among the sectors the sample
 * touched: how much of its traffic is footprint. */
static wgp_status distinct_shares(const wgp_kernel *k, const stream *streams, size_t nstreams, const recorder *rec,
                                  wgp_cache_result *out, wgp_diag *diag) {
  size_t nb = wgp_kernel_num_args(k) + 1;
  out->num_bases = nb;
  out->distinct = calloc(nb, sizeof *out->distinct);
  uint64_t *key = malloc((rec->nsec ? rec->nsec : 1) * sizeof *key);
  double *touched = calloc(nb, sizeof *touched);
  if (!out->distinct || !key || !touched) {
    free(key), free(touched);
    return wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
  }
  /* sector numbers stay far below 2^56 (the layout's addresses are below
   * 2^63 and sectors are at least 1 B), so the base fits in the top byte */
  size_t n = 0;
  for (size_t w = 0; w < nstreams; w++)
    for (size_t e = 0; e < streams[w].nev; e++) {
      const event *ev = &streams[w].ev[e];
      size_t b = base_of(k, ev->access);
      touched[b] += ev->n;
      for (uint32_t j = 0; j < ev->n; j++)
        key[n++] = (uint64_t)(b < 255 ? b : 255) << 56 | (rec->sec[ev->first + j] & ((UINT64_C(1) << 56) - 1));
    }
  /* distinct keys through a hash set (open addressing, at most half full):
   * linear in the sample, where sorting it was a third of the analysis */
  size_t slots = 16;
  while (slots < 2 * n)
    slots *= 2;
  uint64_t *set = calloc(slots, sizeof *set);
  if (!set) {
    free(key), free(touched);
    return wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
  }
  for (size_t i = 0; i < n; i++) {
    uint64_t k1 = key[i] + 1; /* 0 marks an empty slot */
    size_t h = (size_t)((k1 * UINT64_C(0x9e3779b97f4a7c15)) >> 7) & (slots - 1);
    while (set[h] && set[h] != k1)
      h = (h + 1) & (slots - 1);
    if (set[h])
      continue;
    set[h] = k1;
    size_t b = (size_t)(key[i] >> 56);
    out->distinct[b < nb ? b : nb - 1] += 1;
  }
  free(set);
  for (size_t b = 0; b < nb; b++)
    out->distinct[b] = touched[b] > 0 ? out->distinct[b] / touched[b] : 0;
  free(key), free(touched);
  return WGP_OK;
}

/* The sample of at most LIMIT groups: the wave's groups with x below a
 * column count, so that every row of the wave is there while it can be. */
static size_t choose_groups(uint64_t ngrp0, uint64_t wave, uint64_t limit, uint64_t *pick) {
  uint64_t cols = ngrp0;
  if (wave > limit) {
    uint64_t rows = (wave + ngrp0 - 1) / ngrp0;
    cols = limit / rows;
    if (cols < 1)
      cols = 1;
    if (cols > ngrp0)
      cols = ngrp0;
  }
  size_t S = 0;
  for (uint64_t g = 0; g < wave && S < limit; g++)
    if (g % ngrp0 < cols)
      pick[S++] = g;
  return S;
}

/* ---- the sample's address streams, traced by one or more threads ---------- */

/* One thread's part of the sample: groups pick[from .. to), traced with
 * its own tracer into its own recorder and streams (a warp each, in order). */
typedef struct sampler {
  const wgp_analysis_input *in;
  const wgp_trace_launch *L;
  const uint64_t *pick, *ngrp;
  size_t from, to;
  unsigned edge;
  bool sampled; /* over the work budget: the cache's explicit-iteration cap too */
  wgp_tracer *t;
  recorder rec;
  stream *streams;
  size_t nstreams;
  size_t wpg; /* warps per group */
  wgp_status st;
} sampler;

static void sampler_configure(sampler *s) {
  wgp_tracer_set_edge_iterations(s->t, s->edge);
  if (s->sampled)
    wgp_tracer_set_explicit_cap(s->t, WGP_CACHE_SAMPLED_EXPLICIT_CAP);
}

/* S's tracer, with the launch's hints and S's sampling, recording into
 * S's recorder. */
static wgp_status sampler_open(sampler *s, wgp_diag *diag) {
  const wgp_analysis_input *in = s->in;
  wgp_status st = wgp_tracer_new(in->kernel, s->L, &s->t, diag);
  if (st != WGP_OK)
    return st;
  for (size_t i = 0; i < in->num_trip_hints; i++)
    wgp_tracer_set_trip_hint(s->t, in->trip_loops[i], in->trip_counts[i]);
  for (size_t i = 0; i < in->num_taken_hints; i++)
    wgp_tracer_set_taken_hint(s->t, in->taken_blocks[i], in->taken_fractions[i]);
  sampler_configure(s);
  /* only global accesses reach the caches: loops without any (a reduction
   * in shared memory) need not be traced */
  if (!wgp_tracer_skip_quiet_loops(s->t, 1u << WGP_SPACE_GLOBAL | 1u << WGP_SPACE_GENERIC))
    return wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
  wgp_tracer_warm_samples(s->t, true);
  wgp_tracer_set_visitor(s->t, record, &s->rec);
  s->wpg = wgp_tracer_num_warps(s->t);
  return WGP_OK;
}

/* Traces S's groups; the first error stops it. */
static wgp_status sampler_run(sampler *s, wgp_diag *diag) {
  for (size_t i = s->from; i < s->to; i++) {
    uint64_t g = s->pick[i], n0 = s->ngrp[0], n1 = s->ngrp[1];
    uint64_t gid[3] = {g % n0, g / n0 % n1, g / (n0 * n1)};
    for (size_t w = 0; w < s->wpg; w++) {
      s->rec.cur = &s->streams[s->nstreams];
      wgp_trace *tr;
      wgp_diag d2;
      wgp_status ts = wgp_tracer_trace(s->t, gid, w, &tr, &d2);
      if (ts == WGP_ERR_INPUT)
        break; /* a short last group */
      if (ts != WGP_OK)
        return wgp_diag_set(diag, ts, "%s", d2.message);
      wgp_trace_free(tr);
      s->nstreams++;
      if (s->rec.oom)
        return wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
    }
  }
  return WGP_OK;
}

typedef struct worker {
  sampler s;
  wgp_diag diag;
  pthread_t th;
  bool started;
} worker;

static void *worker_main(void *arg) {
  worker *w = arg;
  w->s.st = sampler_run(&w->s, &w->diag);
  return NULL;
}

static void sampler_close(sampler *s) {
  for (size_t w = 0; s->streams && w < s->nstreams; w++)
    free(s->streams[w].ev);
  free(s->streams);
  free(s->rec.sec);
  free(s->rec.ts);
  wgp_tracer_free(s->t);
}

/* Appends W's streams and sectors to M's, in order (the sample is then the
 * one a single thread traces). */
static bool sampler_append(sampler *m, sampler *w) {
  if (m->rec.nsec + w->rec.nsec > m->rec.capsec) {
    size_t cap = m->rec.nsec + w->rec.nsec + 1;
    uint64_t *p = realloc(m->rec.sec, cap * sizeof *p);
    if (!p)
      return false;
    m->rec.sec = p;
    m->rec.capsec = cap;
  }
  if (w->rec.nsec)
    memcpy(m->rec.sec + m->rec.nsec, w->rec.sec, w->rec.nsec * sizeof *w->rec.sec);
  for (size_t i = 0; i < w->nstreams; i++) {
    stream *st = &w->streams[i];
    for (size_t e = 0; e < st->nev; e++)
      st->ev[e].first += (uint32_t)m->rec.nsec;
    m->streams[m->nstreams++] = *st;
    st->ev = NULL; /* moved */
  }
  m->rec.nsec += w->rec.nsec;
  m->rec.visits += w->rec.visits;
  w->nstreams = 0;
  return true;
}

/* Groups 1 .. S-1 of the sample: split among THREADS threads (M, the
 * calling thread, takes the first part), two groups a part at least.  Each
 * part is traced exactly as one thread would, and the parts are joined in
 * order, so the result does not depend on the threads.  A thread that
 * cannot be started leaves its part to M. */
static wgp_status sample_rest(sampler *m, size_t S, unsigned threads, wgp_diag *diag) {
  size_t rest = S - 1;
  unsigned parts = threads < 1 ? 1 : threads > WGP_MAX_THREADS ? WGP_MAX_THREADS : threads;
  if (parts > rest / 2)
    parts = rest / 2 > 1 ? (unsigned)(rest / 2) : 1;
  worker *wk = parts > 1 ? calloc(parts - 1, sizeof *wk) : NULL;
  if (!wk)
    parts = 1;
  for (unsigned p = 1; p < parts; p++) {
    worker *w = &wk[p - 1];
    w->s = *m;
    w->s.from = 1 + rest * p / parts;
    w->s.to = 1 + rest * (p + 1) / parts;
    w->s.t = NULL;
    w->s.streams = calloc((w->s.to - w->s.from) * m->wpg + 1, sizeof *w->s.streams);
    w->s.nstreams = 0;
    w->s.rec.sec = NULL;
    w->s.rec.nsec = w->s.rec.capsec = w->s.rec.visits = 0;
    w->s.rec.oom = false;
    w->s.rec.ts = m->rec.ts ? calloc(wgp_kernel_num_accesses(m->in->kernel) + 1, sizeof *w->s.rec.ts) : NULL;
    if (m->rec.ts && !w->s.rec.ts)
      w->s.rec.twin = NULL; /* no room: every access computes its sectors */
    if (!w->s.streams) {
      w->s.st = wgp_diag_set(&w->diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
      continue;
    }
    if ((w->s.st = sampler_open(&w->s, &w->diag)) != WGP_OK)
      continue;
    w->started = pthread_create(&w->th, NULL, worker_main, w) == 0;
  }
  m->from = 1;
  m->to = parts > 1 ? 1 + rest / parts : S;
  wgp_status st = sampler_run(m, diag);
  for (unsigned p = 1; p < parts; p++) {
    worker *w = &wk[p - 1];
    if (w->started)
      pthread_join(w->th, NULL);
    else if (w->s.st == WGP_OK)
      w->s.st = sampler_run(&w->s, &w->diag); /* no thread: here */
  }
  /* the first error in group order, as one thread stops at it */
  for (unsigned p = 1; p < parts; p++) {
    worker *w = &wk[p - 1];
    if (st == WGP_OK && w->s.st != WGP_OK)
      st = wgp_diag_set(diag, w->s.st, "%s", w->diag.message);
    if (st == WGP_OK && !sampler_append(m, &w->s))
      st = wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
    sampler_close(&w->s);
  }
  free(wk);
  return st;
}

wgp_status wgp_cache_analyze(const wgp_analysis_input *in, unsigned resident, uint64_t smem_per_group,
                             wgp_cache_result *out, wgp_diag *diag) {
  return wgp_cache_analyze_budget(in, resident, smem_per_group, WGP_CACHE_MAX_EVENTS, out, diag);
}

wgp_status wgp_cache_analyze_budget(const wgp_analysis_input *in, unsigned resident, uint64_t smem_per_group,
                                    size_t max_events, wgp_cache_result *out, wgp_diag *diag) {
  memset(out, 0, sizeof *out);
  const wgp_kernel *k = in->kernel;
  const wgp_gpu *gpu = in->gpu;
  size_t nacc = wgp_kernel_num_accesses(k);
  out->num_accesses = nacc;
  out->l1_hit = malloc((nacc ? nacc : 1) * sizeof *out->l1_hit);
  out->l2_hit = malloc((nacc ? nacc : 1) * sizeof *out->l2_hit);
  out->dram_rows = malloc((nacc ? nacc : 1) * sizeof *out->dram_rows);
  out->last_l1 = malloc((nacc ? nacc : 1) * sizeof *out->last_l1);
  out->last_dram = malloc((nacc ? nacc : 1) * sizeof *out->last_dram);
  /* per load: requests, those served by L1 alone, those waiting on DRAM */
  double *req = calloc(nacc ? nacc : 1, sizeof *req), *req1 = calloc(nacc ? nacc : 1, sizeof *req1);
  double *req3 = calloc(nacc ? nacc : 1, sizeof *req3);
  double *sect = calloc(nacc ? nacc : 1, sizeof *sect), *h1 = calloc(nacc ? nacc : 1, sizeof *h1);
  double *to2 = calloc(nacc ? nacc : 1, sizeof *to2), *h2 = calloc(nacc ? nacc : 1, sizeof *h2);
  double *dsec = calloc(nacc ? nacc : 1, sizeof *dsec), *acts = calloc(nacc ? nacc : 1, sizeof *acts);
  if (!out->l1_hit || !out->l2_hit || !out->dram_rows || !out->last_l1 || !out->last_dram || !req || !req1 ||
      !req3 || !sect || !h1 || !to2 || !h2 || !dsec || !acts) {
    free(req), free(req1), free(req3);
    free(sect), free(h1), free(to2), free(h2), free(dsec), free(acts);
    wgp_cache_result_free(out);
    return wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
  }
  if (resident == 0)
    resident = 1;
  wgp_trace_launch L = in->launch;
  if (!L.warp_size)
    L.warp_size = wgp_gpu_warp_size(gpu);
  uint64_t ngrp[3], total = 1;
  for (unsigned d = 0; d < 3; d++) {
    ngrp[d] = (L.global[d] + L.local[d] - 1) / L.local[d];
    total *= ngrp[d];
  }
  uint64_t wave = (uint64_t)resident * wgp_gpu_sm_count(gpu);
  if (wave > total)
    wave = total;
  uint64_t *pick = malloc((size_t)(wave < WGP_CACHE_MAX_GROUPS ? wave : WGP_CACHE_MAX_GROUPS) * sizeof *pick + 8);
  size_t S = pick ? choose_groups(ngrp[0], wave, WGP_CACHE_MAX_GROUPS, pick) : 0;
  unsigned sector = wgp_gpu_l2_sector_bytes(gpu), line = wgp_gpu_l1_line_bytes(gpu);
  if (!sector || (sector & (sector - 1)) || !line) { /* the GPU loader checks: never true */
    free(pick), free(sect), free(h1), free(to2), free(h2), free(dsec), free(acts);
    wgp_cache_result_free(out);
    return wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: %s: L2 sector of %u B is not a power of two",
                        wgp_gpu_name(gpu), sector);
  }

  wgp_layout *layout = NULL;
  stream *streams = NULL;
  size_t nstreams = 0;
  recorder rec = {0};
  sampler main_s = {0};
  uint32_t *twins = NULL;
  wgp_status st = pick ? wgp_layout_new(k, in->buffer_align, in->local_bytes, &layout, diag)
                       : wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
  if (st == WGP_OK) {
    main_s = (sampler){in, &L, pick, ngrp, 0, 1, WGP_TRACE_EDGE_ITERATIONS, false, NULL, {0}, NULL, 0, 0, WGP_OK};
    main_s.rec = (recorder){k, layout, L.warp_size, sector, NULL, NULL, 0, 0, 0, false, NULL, NULL};
    /* accesses sharing an offset take their twin's sectors (without room
     * for that, each computes its own) */
    twins = wgp_offset_twins(k);
    main_s.rec.ts = calloc(nacc + 1, sizeof *main_s.rec.ts);
    if (twins && main_s.rec.ts)
      main_s.rec.twin = twins;
    st = sampler_open(&main_s, diag);
  }
  size_t warps_per_group = main_s.wpg;
  if (st == WGP_OK) {
    main_s.streams = calloc(S * warps_per_group + 1, sizeof *main_s.streams);
    if (!main_s.streams)
      st = wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
  }
  if (st == WGP_OK && S > 0) {
    /* Group 0 first: the work budget is measured on it.  Above the budget:
     * fewer iterations at the ends of long loops (their middle is
     * represented by a sample anyway), then fewer again, group 0 again
     * each time.  The groups stay: fewer would lose the reuse between them
     * that the L2 sees. */
    st = sampler_run(&main_s, diag);
    for (;;) {
      size_t work = main_s.rec.visits;
      for (size_t w = 0; w < main_s.nstreams; w++)
        work += main_s.streams[w].nev;
      if (st != WGP_OK || !max_events || (double)work * (double)S <= (double)max_events || main_s.edge <= 1)
        break;
      out->sampled = true;
      main_s.edge = main_s.edge > WGP_CACHE_SAMPLED_EDGE ? WGP_CACHE_SAMPLED_EDGE : 1;
      main_s.sampled = true;
      sampler_configure(&main_s);
      for (size_t w = 0; w < main_s.nstreams; w++)
        main_s.streams[w].nev = 0;
      main_s.nstreams = 0;
      main_s.rec.nsec = 0;
      main_s.rec.visits = 0;
      st = sampler_run(&main_s, diag);
    }
  }
  if (st == WGP_OK && S > 1)
    st = sample_rest(&main_s, S, in->threads ? in->threads : wgp_default_threads(), diag);
  rec = main_s.rec;
  free(rec.ts);
  free(twins);
  rec.ts = NULL;
  rec.twin = NULL;
  streams = main_s.streams;
  nstreams = main_s.nstreams;
  wgp_tracer_free(main_s.t);
  /* Simulate: L1 per group (its share of the SM), L2 for the sample. */
  lru *l1 = NULL, l2;
  dram_rows rows = {0};
  bool l2ok = false, use_l1 = wgp_gpu_l1_caches_global_loads(gpu);
  if (st == WGP_OK) {
    double l1_bytes = wgp_gpu_l1_bytes(gpu);
    if (wgp_gpu_architecture(gpu) >= WGP_ARCH_VOLTA)
      l1_bytes -= (double)resident * (double)smem_per_group;
    if (l1_bytes < line)
      l1_bytes = line;
    size_t l1_lines = (size_t)(l1_bytes / resident / line);
    double l2_bytes = (double)wgp_gpu_l2_bytes(gpu) * (double)S / (double)wave;
    size_t l2_lines = (size_t)(l2_bytes / wgp_gpu_l2_line_bytes(gpu));
    l1 = calloc(S ? S : 1, sizeof *l1);
    l2ok = lru_init(&l2, l2_lines, wgp_gpu_l2_line_bytes(gpu) / sector);
    bool ok = l1 && l2ok && dram_rows_init(&rows, gpu, sector);
    for (size_t g = 0; ok && g < S; g++)
      ok = lru_init(&l1[g], l1_lines ? l1_lines : 1, line / sector);
    if (!ok)
      st = wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
  }
  if (st == WGP_OK) {
    size_t *pos = calloc(nstreams + 1, sizeof *pos);
    uint32_t *by_turn = NULL;
    bool oom = !pos;
    if (rows.on && !oom) {
      rows.first = calloc(nstreams + 1, sizeof *rows.first);
      rows.count = calloc(nstreams + 1, sizeof *rows.count);
      by_turn = dram_turns(nstreams, warps_per_group, pick, S, wgp_gpu_sm_count(gpu));
      oom = !rows.first || !rows.count || !by_turn;
    }
    if (oom)
      st = wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
    for (bool more = true; st == WGP_OK && more && !oom;) {
      more = false;
      for (size_t w = 0; w < nstreams; w++) {
        if (pos[w] == streams[w].nev)
          continue;
        more = true;
        const event *e = &streams[w].ev[pos[w]++];
        lru *c1 = &l1[w / (warps_per_group ? warps_per_group : 1)];
        int slowest = 0; /* of a load's sectors: 0 all from L1, 1 some from L2, 2 some from DRAM */
        for (uint32_t j = 0; j < e->n; j++) {
          uint64_t s = rec.sec[e->first + j];
          sect[e->access] += e->weight;
          if (e->store) {
            lru_invalidate(c1, s);
            to2[e->access] += e->weight;
            /* L2 is write-back: a sector written since it came in is
             * written back once, whether the store found it there (read
             * before: a read-modify-write) or allocated it; a store to a
             * sector already written adds nothing (the hit) */
            lru_access(&l2, s, true, &oom);
            if (lru_write(&l2, s)) {
              h2[e->access] += e->weight;
            } else {
              out->dram_write_bytes_per_group += e->weight * sector;
              dsec[e->access] += e->weight;
              if (rows.on && !dram_rows_note(&rows, w, s, e->weight, e->access))
                oom = true;
            }
            continue;
          }
          if (use_l1 && lru_access(c1, s, true, &oom)) {
            h1[e->access] += e->weight;
            continue;
          }
          to2[e->access] += e->weight;
          if (lru_access(&l2, s, true, &oom)) {
            h2[e->access] += e->weight;
            slowest = slowest > 1 ? slowest : 1;
          } else {
            slowest = 2;
            out->dram_read_bytes_per_group += e->weight * sector;
            dsec[e->access] += e->weight;
            if (rows.on && !dram_rows_note(&rows, w, s, e->weight, e->access))
              oom = true;
          }
        }
        if (!e->store && e->n > 0) {
          req[e->access] += e->weight;
          req1[e->access] += slowest == 0 ? e->weight : 0;
          req3[e->access] += slowest == 2 ? e->weight : 0;
        }
      }
      if (rows.on)
        dram_rows_round(&rows, by_turn, nstreams, acts);
    }
    free(pos), free(by_turn);
    if (oom && st == WGP_OK)
      st = wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
  }
  if (st == WGP_OK)
    st = distinct_shares(k, streams, nstreams, &rec, out, diag);
  for (size_t i = 0; i < nacc; i++) {
    const wgp_access *a = wgp_kernel_access(k, i);
    bool global = wgp_access_space(a) == WGP_SPACE_GLOBAL || wgp_access_space(a) == WGP_SPACE_GENERIC;
    bool load = wgp_access_get_kind(a) == WGP_ACCESS_LOAD;
    out->l1_hit[i] = global && load && sect[i] > 0 ? (use_l1 ? h1[i] / sect[i] : 0.0) : -1;
    out->l2_hit[i] = global && to2[i] > 0 ? h2[i] / to2[i] : -1;
    out->dram_rows[i] = rows.on && dsec[i] > 0 ? acts[i] / dsec[i] : -1;
    out->last_l1[i] = global && load && req[i] > 0 ? req1[i] / req[i] : -1;
    out->last_dram[i] = global && load && req[i] > 0 ? req3[i] / req[i] : -1;
  }
  if (S) {
    out->dram_read_bytes_per_group /= (double)S;
    out->dram_write_bytes_per_group /= (double)S;
  }
  out->groups_simulated = S;
  for (size_t g = 0; l1 && g < S; g++)
    lru_free(&l1[g]);
  free(l1);
  if (l2ok)
    lru_free(&l2);
  dram_rows_free(&rows);
  for (size_t w = 0; streams && w < nstreams; w++)
    free(streams[w].ev);
  free(streams);
  free(rec.sec);
  free(pick);
  wgp_layout_free(layout);
  free(req), free(req1), free(req3);
  free(sect), free(h1), free(to2), free(h2), free(dsec), free(acts);
  if (st != WGP_OK)
    wgp_cache_result_free(out);
  return st;
}

void wgp_cache_result_free(wgp_cache_result *r) {
  free(r->l1_hit);
  free(r->l2_hit);
  free(r->dram_rows);
  free(r->last_l1);
  free(r->last_dram);
  free(r->distinct);
  r->l1_hit = r->l2_hit = r->dram_rows = r->last_l1 = r->last_dram = r->distinct = NULL;
}

bool wgp_cache_warm_l2(wgp_cache_result *r, const wgp_kernel *k, const wgp_gpu *gpu, const wgp_mem_stats *totals) {
  double f = 0;
  for (size_t i = 0; i < wgp_kernel_num_accesses(k); i++) {
    const wgp_access *a = wgp_kernel_access(k, i);
    if (wgp_access_space(a) != WGP_SPACE_GLOBAL && wgp_access_space(a) != WGP_SPACE_GENERIC)
      continue;
    size_t b = base_of(k, i);
    /* a buffer the sample never touched counts in full */
    double share = b < r->num_bases && r->distinct[b] > 0 ? r->distinct[b] : 1;
    f += totals[i].sectors * wgp_gpu_l2_sector_bytes(gpu) * share;
  }
  r->footprint_bytes = f;
  r->l2_warm = f > 0 && f <= 0.75 * (double)wgp_gpu_l2_bytes(gpu);
  for (size_t i = 0; r->l2_warm && i < r->num_accesses; i++)
    if (r->l2_hit[i] >= 0) {
      r->l2_hit[i] = 1;
      if (r->last_dram && r->last_dram[i] > 0)
        r->last_dram[i] = 0;
    }
  return r->l2_warm;
}
