/* cache.c - L1/L2 hit rates from an LRU simulation of a wave's address
 * stream (the model is described in include/wgperf/cache.h). */
#include "wgperf/cache.h"

#include "arena_internal.h"
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
  uint32_t ndata;    /* then sectors[first+n .. first+n+ndata): lanes whose address comes from loaded data */
  uint32_t unknown;  /* sectors of lanes whose address the analysis cannot tell (not in sectors[]) */
  double weight;
  uint32_t visit; /* the block visit it comes from (recorder.visits) */
  bool store;
  bool flush;          /* the last event of a sample iteration with phantom lines: they go in after it */
  uint32_t phantom[2]; /* lines of L1 and L2 the stretch it samples touches beyond it (phantom_lines) */
} event;

/* A warp's events: recorder.ev[at .. at+nev).  A recorder traces its
 * warps one after the other, so their events lie in one array, in stream
 * order: no allocation per warp, and the replay's rounds, which take an
 * event of every warp in turn, read neighbouring memory. */
typedef struct stream {
  size_t at, nev;
} stream;

typedef struct twin_state {
  size_t stamp;
  uint32_t first, n, ndata, unknown;
  uint64_t lo, hi;
} twin_state;

/* An access's last event: its lanes' lowest address, the warp (recorder.gen)
 * and the iterations it stood for (wgp_tracer_stretch). */
typedef struct last_event {
  uint64_t lo;
  size_t gen;
  double stretch;
} last_event;

typedef struct recorder {
  const wgp_kernel *k;
  const wgp_layout *layout;
  unsigned lanes, sector;
  stream *cur;
  event *ev; /* the events of every stream */
  size_t nev, capev;
  uint64_t *sec;
  size_t nsec, capsec;
  size_t visits; /* blocks the tracer visited: with the events, the work of the sample */
  bool oom;
  /* accesses with a twin (wgp_offset_twins) take its sectors, translated,
   * when the twin's were recorded at this visit: per access the visit
   * (stamp), its sectors and its lanes' lowest and highest address */
  const uint32_t *twin;
  twin_state *ts;
  /* per access: its last event in the warp being traced (GEN: one per
   * traced warp), for phantom_lines; the L1 and L2 line bytes */
  last_event *last;
  size_t gen;
  unsigned line[2];
  /* an event of this warp since the last flush (event.flush) has phantom
   * lines; the stretch of its sample iteration */
  bool pending;
  double pstretch;
} recorder;

/* The most sectors an event holds: two a lane. */
#define EVENT_SECTORS (WGP_TRACE_MAX_WARP * 2)

/* Reallocates the array the pointer at PP points to for N elements of SIZE
 * bytes; false, the array kept as it was, out of memory.  RESIZE(p, n) for
 * an array p of any type. */
static bool resize(void *pp, size_t n, size_t size) {
  void *old, *q;
  memcpy(&old, pp, sizeof old);
  if (!(q = realloc(old, n * size)))
    return false;
  memcpy(pp, &q, sizeof q);
  return true;
}
#define RESIZE(p, n) resize(&(p), (n), sizeof *(p))

/* Room in R for NEV events and NSEC sectors in all (at first for at least
 * 256 and 4096: fewer doublings); false out of memory. */
static bool recorder_reserve(recorder *r, size_t nev, size_t nsec) {
  if (nev > r->capev) {
    size_t cap = 2 * r->capev > nev ? 2 * r->capev : nev;
    cap = cap < 256 ? 256 : cap;
    if (!RESIZE(r->ev, cap))
      return false;
    r->capev = cap;
  }
  if (nsec > r->capsec) {
    size_t cap = 2 * r->capsec > nsec ? 2 * r->capsec : nsec;
    cap = cap < 4096 ? 4096 : cap;
    if (!RESIZE(r->sec, cap))
      return false;
    r->capsec = cap;
  }
  return true;
}

/* Lines of LINE bytes that K other iterations of a sampled stretch touch
 * beyond its sample iteration's sectors S0[0..U) (in any order),
 * when the access's lowest address moves by AD bytes an iteration.  Each run
 * of consecutive sectors enters a new line every LINE / AD iterations, or
 * all of its lines each iteration when it moves by that many lines or more:
 * a coalesced row walk, a line an iteration; a column walk by 4 B, the
 * warp's 32 lines every 32 iterations; a loop-invariant address, none.
 * Lanes whose walks reach each other's places (rows 64 B apart walked by
 * 4 B) bring no more than the region the stretch sweeps beyond the
 * sample's span.  Rounded up: a stretch that moves at all touches a line. */
static uint64_t phantom_lines(const uint64_t *s0, size_t u, unsigned sector, unsigned line, uint64_t ad, double k) {
  uint64_t s[WGP_TRACE_MAX_WARP * 2];
  if (!u || !ad || k <= 0 || u > sizeof s / sizeof *s)
    return 0;
  /* sorted and distinct (a copy: called only for sampled iterations) */
  memcpy(s, s0, u * sizeof *s);
  wgp_sort_u64(s, u);
  size_t m = 0;
  for (size_t j = 0; j < u; j++)
    if (!j || s[j] != s[m - 1])
      s[m++] = s[j];
  u = m;
  uint64_t per = line > sector ? line / sector : 1;
  double step = (double)ad / line, rate = 0, lines = 0;
  for (size_t j = 0; j < u;) {
    size_t e = j + 1;
    while (e < u && s[e] == s[e - 1] + 1)
      e++;
    double nl = (double)(s[e - 1] / per - s[j] / per + 1);
    rate += step < nl ? step : nl;
    j = e;
  }
  for (size_t j = 0; j < u; j++)
    lines += !j || s[j] / per != s[j - 1] / per;
  double p = k * rate, sweep = ((double)(s[u - 1] - s[0] + 1) * sector + k * (double)ad) / line - lines;
  p = p < sweep ? p : sweep;
  p = p < (double)UINT32_MAX ? p : (double)UINT32_MAX; /* the most an event holds */
  return p > 0 ? (uint64_t)ceil(p - 1e-9) : 0;
}

static void record(void *user, size_t block, uint64_t mask, double weight, double mult, wgp_tracer *t) {
  recorder *r = user;
  const wgp_block *b = wgp_kernel_block(r->k, block);
  double stretch = wgp_tracer_stretch(t);
  r->visits++;
  for (size_t i = 0; i < wgp_block_num_accesses(b) && !r->oom; i++) {
    size_t id = wgp_block_access(b, i);
    const wgp_access *a = wgp_kernel_access(r->k, id);
    wgp_space sp = wgp_access_space(a);
    if (!wgp_space_is_global(sp))
      continue;
    /* the event and its sectors go straight to the ends of the lists */
    if (!recorder_reserve(r, r->nev + 1, r->nsec + EVENT_SECTORS)) {
      r->oom = true;
      return;
    }
    uint64_t addr[WGP_TRACE_MAX_WARP], *s = r->sec + r->nsec;
    size_t u = 0;
    uint32_t unknown = 0, nd = 0;
    uint64_t low = UINT64_MAX; /* the known lanes' lowest address */
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
      for (uint32_t j = 0; j < x->n + x->ndata; j++)
        s[u++] = r->sec[x->first + j] + shift;
      u -= x->ndata;
      nd = x->ndata;
      unknown = x->unknown; /* the same offset: the same lanes unknown */
      low = (uint64_t)((__int128)x->lo + d);
    } else {
      uint64_t data;
      uint64_t known = wgp_access_addresses_data(r->layout, r->k, r->lanes, t, a, mask, addr, &data);
      size_t n = 0;
      unsigned bytes = (unsigned)wgp_access_bytes(a);
      /* lanes of unknown address: counted, spread over their buffer when
       * the caches are simulated (wgp_cache_analyze) */
      uint64_t lanes_mask = r->lanes < 64 ? (1ull << r->lanes) - 1 : ~0ull;
      unknown = (uint32_t)__builtin_popcountll(mask & ~known & lanes_mask) *
                ((bytes ? bytes : 1) + r->sector - 1) / r->sector;
      /* sectors are powers of two (the GPU description checks): shifts, not
       * a division per lane */
      unsigned sh = (unsigned)__builtin_ctz(r->sector);
      uint64_t lo = UINT64_MAX, hi = 0;
      /* the lanes' sectors, the first EVENT_SECTORS of them (RAW counts
       * them): one equal to the one before it (neighbouring lanes of a
       * coalesced access share a sector) is not kept, the dedup below would
       * drop it */
      size_t raw = 0;
      /* the lanes of known address, then those from loaded data */
      for (int pass = 0; pass < 2; pass++) {
        uint64_t live = mask & known & (pass ? data : ~data) & lanes_mask;
        size_t from = n, at = u;
        for (; live; live &= live - 1) {
          unsigned l = (unsigned)__builtin_ctzll(live);
          lo = addr[l] < lo ? addr[l] : lo;
          hi = addr[l] > hi ? addr[l] : hi;
          uint64_t last = (addr[l] + (bytes ? bytes : 1) - 1) >> sh;
          for (uint64_t y = addr[l] >> sh; y <= last && raw < EVENT_SECTORS; y++, raw++)
            if (n == from || s[n - 1] != y)
              s[n++] = y;
        }
        wgp_sort_u64(s + from, n - from);
        for (size_t j = from; j < n; j++)
          if (j == from || s[j] != s[j - 1])
            s[u++] = s[j];
        if (pass)
          nd = (uint32_t)(u - at);
      }
      u -= nd;
      low = lo;
      if (r->ts) {
        /* a twin may translate these when every lane's bytes stay far from
         * both ends of the space (below 2^62) */
        twin_state *me = &r->ts[id];
        __int128 end = (__int128)hi + (bytes ? bytes : 1);
        me->stamp = hi < lo || end >= top ? 0 : r->visits;
        me->first = (uint32_t)r->nsec;
        me->n = (uint32_t)u;
        me->ndata = nd;
        me->unknown = unknown;
        me->lo = lo;
        me->hi = (uint64_t)end;
      }
    }
    stream *st = r->cur;
    /* a sampled middle iteration: the lines its stretch's iterations not
     * traced touch (all but itself and, where the iteration before it was
     * not sampled, that one: the warm one, wgp_tracer_warm_samples), from
     * how far it moved since the iteration before it (cache.h) */
    uint64_t ph[2] = {0, 0};
    last_event *le = &r->last[id];
    if (stretch > 1 && u + nd && le->gen == r->gen) {
      uint64_t ad = low > le->lo ? low - le->lo : le->lo - low;
      double skipped = stretch - 1 - (le->stretch < stretch);
      for (unsigned c = 0; c < 2; c++) {
        ph[c] = c && r->line[1] == r->line[0] ? ph[0] : phantom_lines(s, u + nd, r->sector, r->line[c], ad, skipped);
        ph[c] = ph[c] < UINT32_MAX ? ph[c] : UINT32_MAX;
      }
    }
    le->gen = u + nd ? r->gen : 0;
    le->lo = low;
    le->stretch = stretch;
    /* phantom lines go in after the whole sample iteration (the reuse of
     * one of its accesses by a later one hits), after both samples of an
     * even middle (of one stretch): the event before the first of another
     * stretch ends it */
    if (r->pending && stretch != r->pstretch && st->nev) {
      r->ev[r->nev - 1].flush = true;
      r->pending = false;
    }
    if (ph[0] | ph[1]) {
      r->pending = true;
      r->pstretch = stretch;
    }
    st->nev++;
    r->ev[r->nev++] = (event){(uint32_t)id,
                              (uint32_t)r->nsec,
                              (uint32_t)u,
                              nd,
                              unknown,
                              weight * mult,
                              (uint32_t)r->visits,
                              wgp_access_get_kind(a) != WGP_ACCESS_LOAD,
                              false,
                              {(uint32_t)ph[0], (uint32_t)ph[1]}};
    r->nsec += u + nd;
  }
}

/* ---- a sectored LRU cache -------------------------------------------------- */

/* Storage grows with the lines in use up to the capacity: a sample touches
 * far fewer lines than a 50 MB L2 holds, and allocating (and faulting in)
 * the whole capacity for every analysis cost more than the simulation.
 * A node of the recency list is a line or a batch of phantom lines (the
 * data of the iterations a sampled stretch skips, cache.h): they take room
 * and age the lines behind them, but nothing can hit them; eviction shrinks
 * a batch at the least recent end before it reaches the lines before it. */
typedef struct lru {
  size_t cap, n;          /* lines: capacity, in use (lines and phantom lines) */
  size_t nodes;           /* nodes handed out (<= room): in the list or free */
  size_t room;            /* nodes allocated (<= cap) */
  unsigned per_line;      /* sectors per line */
  uint64_t *key;          /* hash table of line tags: slot -> tag+1 (0 empty) */
  uint32_t *slot_node;    /* slot -> node */
  size_t mask;
  uint64_t *tag;          /* node -> tag */
  uint32_t *valid;        /* node -> sector bits */
  uint32_t *dirty;        /* node -> sector bits written since they came in (L2: to be written back) */
  /* node -> the round its sectors of FRESH came in (FAR: of them, those
   * from DRAM); a hit on one of them in that round waits for its fill */
  uint32_t *fresh_at, *fresh, *far;
  const uint32_t *clock;  /* the stream's round */
  bool fills_from_dram;   /* L2: every fill is from DRAM */
  int inflight;           /* the last hit's: 0 a plain hit, 1 on a fill from L2, 2 from DRAM */
  uint32_t last;          /* the node of the last line looked up and there, NIL if none */
  double *wb_weight;      /* node -> the weight of the store that first dirtied it */
  uint32_t *wb_access;    /* node -> that store's access */
  /* write-backs: the dirty lines evicted since the caller last took them
   * (kept only with WB_KEEP: where DRAM rows are followed) */
  struct writeback { uint64_t sector; double weight; uint32_t access; } *wb;
  size_t nwb, capwb;
  bool wb_keep, wb_oom;
  uint32_t *prev, *next;  /* LRU list, head = most recent */
  /* free_top: the nodes given back, linked through next; first_out: the
   * first of the lines at the least recent end that came in evict-first
   * (lru_demote), NIL when there are none */
  uint32_t head, tail, free_top, first_out;
} lru;

#define NIL UINT32_MAX
/* A node's tag with this bit: a phantom batch, its line count in the other
 * bits (line tags are addresses / line bytes, far below 2^63). */
#define LRU_PHANTOM (UINT64_C(1) << 63)

static bool lru_arrays(lru *c, size_t room, size_t slots);

static bool lru_init(lru *c, size_t lines, unsigned per_line) {
  memset(c, 0, sizeof *c);
  c->cap = lines ? lines : 1;
  c->per_line = per_line ? per_line : 1;
  size_t room = c->cap < 64 ? c->cap : 64, slots = 16;
  while (slots < room * 2)
    slots *= 2;
  c->head = c->tail = c->free_top = c->first_out = NIL;
  return lru_arrays(c, room, slots);
}

/* Frees the arrays of C (their block and the write-backs). */
static void lru_free(lru *c) { free(c->key), free(c->wb); }

static size_t lru_find_slot(const lru *c, uint64_t tag) {
  /* the product's high bits folded in: strided tags (multiples of 2^k) keep
   * k zero low bits in the product alone, and crowd 1/2^k of the table */
  uint64_t h = tag * 0x9e3779b97f4a7c15ull;
  size_t s = (size_t)(h ^ (h >> 32)) & c->mask;
  while (c->key[s] && c->key[s] != tag + 1)
    s = (s + 1) & c->mask;
  return s;
}

/* Gives C a hash table of SLOTS slots and node arrays of ROOM entries, all
 * carved from one cleared block (KEY at its start); the nodes C had are
 * copied, its table copied or, at a new size, its tags rehashed.  False, C
 * as it was, out of memory. */
static bool lru_arrays(lru *c, size_t room, size_t slots) {
  const size_t four = sizeof(uint32_t);
  size_t size = 0, o_key = wgp_block_part(&size, slots, sizeof *c->key);
  size_t o_slot_node = wgp_block_part(&size, slots, four), o_tag = wgp_block_part(&size, room, sizeof *c->tag);
  size_t o_wb_weight = wgp_block_part(&size, room, sizeof *c->wb_weight);
  size_t o_u = wgp_block_part(&size, 8 * room, four); /* the eight 4-byte node arrays */
  char *p = calloc(1, size);
  if (!p)
    return false;
  uint64_t *key = (uint64_t *)(p + o_key), *tag = (uint64_t *)(p + o_tag);
  double *wb_weight = (double *)(p + o_wb_weight);
  uint32_t *slot_node = (uint32_t *)(p + o_slot_node), *u = (uint32_t *)(p + o_u);
  uint32_t *valid = u, *dirty = u + room, *wb_access = u + 2 * room, *fresh_at = u + 3 * room;
  uint32_t *fresh = u + 4 * room, *far = u + 5 * room, *prev = u + 6 * room, *next = u + 7 * room;
  size_t kept = c->key ? c->room : 0, oslots = c->key ? c->mask + 1 : 0;
  if (kept) {
    memcpy(tag, c->tag, kept * sizeof *tag);
    memcpy(wb_weight, c->wb_weight, kept * sizeof *wb_weight);
    memcpy(valid, c->valid, kept * four);
    memcpy(dirty, c->dirty, kept * four);
    memcpy(wb_access, c->wb_access, kept * four);
    memcpy(fresh_at, c->fresh_at, kept * four);
    memcpy(fresh, c->fresh, kept * four);
    memcpy(far, c->far, kept * four);
    memcpy(prev, c->prev, kept * four);
    memcpy(next, c->next, kept * four);
  }
  uint64_t *okey = c->key;
  uint32_t *osn = c->slot_node;
  c->key = key, c->slot_node = slot_node, c->mask = slots - 1, c->room = room;
  c->tag = tag, c->wb_weight = wb_weight, c->valid = valid, c->dirty = dirty, c->wb_access = wb_access;
  c->fresh_at = fresh_at, c->fresh = fresh, c->far = far, c->prev = prev, c->next = next;
  if (oslots == slots) {
    memcpy(key, okey, slots * sizeof *key);
    memcpy(slot_node, osn, slots * four);
  } else {
    for (size_t i = 0; i < oslots; i++)
      if (okey[i]) {
        size_t t = lru_find_slot(c, okey[i] - 1);
        key[t] = okey[i];
        slot_node[t] = osn[i];
      }
  }
  free(okey);
  return true;
}

/* Doubles the nodes (up to the capacity) and the hash table with them. */
static bool lru_grow(lru *c) {
  size_t room = c->room * 2 < c->cap ? c->room * 2 : c->cap;
  size_t slots = c->mask + 1;
  while (slots < room * 2)
    slots *= 2;
  return lru_arrays(c, room, slots);
}

/* Line N leaves the cache: its dirty sectors are written back together (one
 * DRAM burst run in one row: a line lies within an interleave chunk). */
static void lru_leave(lru *c, uint32_t n) {
  if (!c->wb_keep || !c->dirty[n])
    return;
  if (c->nwb == c->capwb) {
    size_t cap = c->capwb ? 2 * c->capwb : 256;
    if (!RESIZE(c->wb, cap)) {
      c->wb_oom = true;
      return;
    }
    c->capwb = cap;
  }
  unsigned first = 0;
  while (!(c->dirty[n] >> first & 1))
    first++;
  c->wb[c->nwb++] = (struct writeback){c->tag[n] * c->per_line + first, c->wb_weight[n], c->wb_access[n]};
  c->dirty[n] = 0;
}

static void lru_unlink(lru *c, uint32_t n) {
  if (c->first_out == n)
    c->first_out = c->next[n];
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

/* A node for a new line or batch: one given back, else a new one (NIL when
 * the storage could not grow). */
static uint32_t lru_node(lru *c) {
  if (c->free_top != NIL) {
    uint32_t n = c->free_top;
    c->free_top = c->next[n];
    return n;
  }
  if (c->nodes == c->room && (c->room == c->cap || !lru_grow(c)))
    return NIL;
  return (uint32_t)c->nodes++;
}

/* Evicts from the least recent end until NEED more lines fit: phantom
 * batches shrink, and go when empty; lines go. */
static void lru_evict(lru *c, size_t need) {
  while (c->n + need > c->cap && c->tail != NIL) {
    uint32_t t = c->tail;
    if (c->tag[t] & LRU_PHANTOM) {
      uint64_t k = c->tag[t] & ~LRU_PHANTOM, over = c->n + need - c->cap;
      if (k > over) {
        c->tag[t] -= over;
        c->n -= over;
        return;
      }
      c->n -= k;
    } else {
      lru_leave(c, t);
      lru_erase_slot(c, lru_find_slot(c, c->tag[t]));
      c->n--;
    }
    lru_unlink(c, t);
    c->next[t] = c->free_top;
    c->free_top = t;
  }
}

/* Puts K phantom lines at the most recent end (all of it flushed when K is
 * the capacity or more): O(1), but for the lines they evict, which went in
 * once each.  False when the storage could not grow. */
static bool lru_phantom(lru *c, uint64_t k) {
  if (!k)
    return true;
  k = k < c->cap ? k : c->cap;
  lru_evict(c, k);
  if (c->head != NIL && c->tag[c->head] & LRU_PHANTOM) {
    c->tag[c->head] += k;
  } else {
    uint32_t n = lru_node(c);
    if (n == NIL)
      return false;
    c->tag[n] = LRU_PHANTOM | k;
    c->valid[n] = c->dirty[n] = 0;
    lru_push_front(c, n);
  }
  c->n += k;
  return true;
}

/* Phantom lines go in at the end of the round of the stream in which their
 * sample iteration ends (event.flush): the sample iterations of every warp
 * (the warps are in the same iteration in a round) are looked up before the
 * iterations they stand for age the caches, so a sample finds what another
 * warp's sample touched as a warp finds what another touched in the same
 * iteration.  Warps whose samples start on the same line walk the same data
 * (a column of a matrix every group of a column reads; a vector every warp
 * reads): their batches for one cache are one, the largest. */
typedef struct phantom_round {
  /* (cache << 56 | line) + 1 (0: empty; a cache is a group's L1 or S, the
   * L2; a line is the sample's lowest) -> the largest batch */
  uint64_t *key;
  uint32_t *lines;
  size_t mask;         /* slots - 1 */
  size_t *used, nused; /* the slots in use */
  uint64_t *sum;       /* per cache (S + 1): its batches, one per line */
} phantom_round;

static bool phantom_init(phantom_round *p, size_t S) {
  memset(p, 0, sizeof *p);
  p->mask = 63;
  p->key = calloc(p->mask + 1, sizeof *p->key);
  p->lines = calloc(p->mask + 1, sizeof *p->lines);
  p->used = calloc((p->mask + 1) / 2, sizeof *p->used);
  p->sum = calloc(S + 1, sizeof *p->sum);
  return p->key && p->lines && p->used && p->sum;
}

static void phantom_free(phantom_round *p) { free(p->key), free(p->lines), free(p->used), free(p->sum); }

static size_t phantom_slot(const phantom_round *p, uint64_t k) {
  size_t s = (size_t)((k * UINT64_C(0x9e3779b97f4a7c15)) >> 17) & p->mask;
  while (p->key[s] && p->key[s] != k)
    s = (s + 1) & p->mask;
  return s;
}

/* Doubles the table (at most half full). */
static bool phantom_grow(phantom_round *p) {
  size_t slots = 2 * (p->mask + 1);
  uint64_t *key = calloc(slots, sizeof *key);
  uint32_t *lines = calloc(slots, sizeof *lines);
  size_t *used = malloc(slots / 2 * sizeof *used);
  if (!key || !lines || !used) {
    free(key), free(lines), free(used);
    return false;
  }
  uint64_t *ok = p->key;
  uint32_t *ol = p->lines;
  p->key = key, p->lines = lines, p->mask = slots - 1;
  for (size_t i = 0; i < p->nused; i++) {
    size_t t = phantom_slot(p, ok[p->used[i]]);
    p->key[t] = ok[p->used[i]];
    p->lines[t] = ol[p->used[i]];
    used[i] = t;
  }
  free(ok), free(ol), free(p->used);
  p->used = used;
  return true;
}

static bool phantom_note(phantom_round *p, uint32_t cache, uint64_t line, uint32_t lines) {
  if (2 * (p->nused + 1) > p->mask + 1 && !phantom_grow(p))
    return false;
  uint64_t k = ((uint64_t)cache << 56 | (line & ((UINT64_C(1) << 56) - 1))) + 1;
  size_t s = phantom_slot(p, k);
  if (!p->key[s]) {
    p->key[s] = k;
    p->lines[s] = lines;
    p->used[p->nused++] = s;
    p->sum[cache] += lines;
  } else if (lines > p->lines[s]) {
    p->sum[cache] += lines - p->lines[s];
    p->lines[s] = lines;
  }
  return true;
}

/* Puts the round's batches in L1 (groups 0 .. S-1) and L2 (S); false when
 * out of memory. */
static bool phantom_flush(phantom_round *p, lru *l1, size_t S, lru *l2) {
  bool ok = true;
  for (size_t c = 0; c <= S; c++)
    if (p->sum[c]) {
      ok = lru_phantom(c < S ? &l1[c] : l2, p->sum[c]) && ok;
      p->sum[c] = 0;
    }
  for (size_t i = 0; i < p->nused; i++)
    p->key[p->used[i]] = 0;
  p->nused = 0;
  return ok;
}

/* Looks up SECTOR; true on a hit. On a miss with FILL, the sector is brought
 * in (*OOM set when the storage could not grow). */
static bool lru_access(lru *c, uint64_t sector, bool fill, bool *oom) {
  uint64_t tag = sector / c->per_line;
  uint32_t bit = 1u << (sector % c->per_line);
  size_t s = lru_find_slot(c, tag);
  c->last = NIL;
  if (c->key[s]) {
    uint32_t n = c->last = c->slot_node[s];
    bool hit = c->valid[n] & bit;
    if (fill || hit) {
      lru_unlink(c, n);
      lru_push_front(c, n);
    }
    uint32_t now = c->clock ? *c->clock : 0;
    if (hit) {
      bool fresh = c->clock && c->fresh_at[n] == now && c->fresh[n] & bit;
      c->inflight = !fresh ? 0 : c->fills_from_dram || c->far[n] & bit ? 2 : 1;
    } else if (fill) {
      c->valid[n] |= bit;
      if (c->fresh_at[n] != now)
        c->fresh_at[n] = now, c->fresh[n] = c->far[n] = 0;
      c->fresh[n] |= bit;
    }
    return hit;
  }
  if (!fill)
    return false;
  uint32_t n;
  if (c->n == c->cap && !(c->tag[c->tail] & LRU_PHANTOM)) {
    /* full: the least recent line makes room */
    n = c->tail;
    lru_leave(c, n);
    lru_unlink(c, n);
    lru_erase_slot(c, lru_find_slot(c, c->tag[n]));
    s = lru_find_slot(c, tag);
  } else {
    /* room, or a line out of the least recent phantom batch (no line
     * leaves the table: only growing it moves the slots) */
    lru_evict(c, 1);
    size_t mask = c->mask;
    if ((n = lru_node(c)) == NIL) {
      *oom = true;
      return false;
    }
    if (mask != c->mask)
      s = lru_find_slot(c, tag);
    c->n++;
  }
  c->tag[n] = tag;
  c->valid[n] = bit;
  c->dirty[n] = 0;
  c->fresh_at[n] = c->clock ? *c->clock : 0;
  c->fresh[n] = bit;
  c->far[n] = 0;
  c->key[s] = tag + 1;
  c->slot_node[s] = n;
  c->last = n;
  lru_push_front(c, n);
  return false;
}

/* Marks SECTOR, present, as written by ACCESS (an event of WEIGHT), with
 * nothing to wait for (written in place); whether it was already written
 * (then its write-back is one already counted). */
static bool lru_write(lru *c, uint64_t sector, double weight, uint32_t access) {
  size_t s = lru_find_slot(c, sector / c->per_line);
  if (!c->key[s])
    return false;
  uint32_t n = c->slot_node[s], bit = 1u << (sector % c->per_line);
  bool was = c->dirty[n] & bit;
  if (!c->dirty[n])
    c->wb_weight[n] = weight, c->wb_access[n] = access;
  c->dirty[n] |= bit;
  c->fresh[n] &= ~bit;
  return was;
}

/* The line last looked up (and there) came in evict-first (PTX's .cs and
 * .lu, a streaming access' line): it goes behind every other line, in front
 * of the evict-first lines before it, so that those go first, in the order
 * they came, and then it, before any other line.  A later plain access
 * brings it to the front like any line. */
static void lru_demote(lru *c) {
  uint32_t n = c->last;
  if (n == NIL)
    return;
  lru_unlink(c, n);
  uint32_t after = c->first_out == NIL ? c->tail : c->prev[c->first_out]; /* the last other line */
  c->prev[n] = after;
  c->next[n] = c->first_out;
  if (after != NIL) c->next[after] = n; else c->head = n;
  if (c->first_out != NIL) c->prev[c->first_out] = n; else c->tail = n;
  c->first_out = n;
}

/* SECTOR, the last one looked up and just brought in, came from DRAM. */
static void lru_far(lru *c, uint64_t sector) {
  if (c->last != NIL)
    c->far[c->last] |= 1u << (sector % c->per_line);
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
/* The write-backs C has kept, in order, through the rows' open rows: each
 * activation to its store's access. */
static void writebacks_activate(lru *c, dram_rows *rows, double *acts) {
  for (size_t i = 0; i < c->nwb; i++)
    if (dram_rows_activate(rows, c->wb[i].sector))
      acts[c->wb[i].access] += c->wb[i].weight;
  c->nwb = 0;
}


static bool dram_rows_note(dram_rows *r, size_t w, uint64_t sector, double weight, uint32_t access) {
  if (r->nmiss == r->capmiss) {
    size_t cap = r->capmiss ? 2 * r->capmiss : 1024;
    if (!RESIZE(r->miss, cap))
      return false;
    r->capmiss = cap;
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

/* A set of keys + 1 (0 marks an empty slot; open addressing, at most
 * half full).  It grows with the distinct keys: a table sized for every
 * sector the sample touched was mostly empty (warps touch the same sectors
 * again and again), and its probes missed the caches. */
typedef struct key_set {
  uint64_t *slot;
  size_t mask, n;
} key_set;

static size_t key_slot(const key_set *s, uint64_t k1) {
  size_t h = (size_t)((k1 * UINT64_C(0x9e3779b97f4a7c15)) >> 7) & s->mask;
  while (s->slot[h] && s->slot[h] != k1)
    h = (h + 1) & s->mask;
  return h;
}

/* Puts K1 in S: 1 when new, 0 when it was there, -1 out of memory. */
static int key_add(key_set *s, uint64_t k1) {
  size_t h = key_slot(s, k1);
  if (s->slot[h])
    return 0;
  if (2 * (s->n + 1) > s->mask + 1) {
    key_set g = {calloc(2 * (s->mask + 1), sizeof *g.slot), 2 * s->mask + 1, s->n};
    if (!g.slot)
      return -1;
    for (size_t i = 0; i <= s->mask; i++)
      if (s->slot[i])
        g.slot[key_slot(&g, s->slot[i])] = s->slot[i];
    free(s->slot);
    *s = g;
    h = key_slot(s, k1);
  }
  s->slot[h] = k1;
  s->n++;
  return 1;
}

/* One pass over the sample's events, in stream order: per access its reads
 * of random places (NR, when not NULL: sectors from loaded data and of
 * unknown address, by weight), whether an event has sectors from loaded data
 * (*DATA), and per buffer the share of distinct sectors among the sectors
 * the sample touched: how much of its traffic is footprint. */
static wgp_status sample_counts(const wgp_kernel *k, const stream *streams, size_t nstreams, const recorder *rec,
                                double *nr, bool *data, wgp_cache_result *out, wgp_diag *diag) {
  size_t nb = wgp_kernel_num_args(k) + 1, nacc = wgp_kernel_num_accesses(k);
  out->num_bases = nb;
  out->distinct = calloc(nb, sizeof *out->distinct);
  out->span = calloc(nb, sizeof *out->span);
  double *touched = calloc(nb, sizeof *touched);
  uint64_t *lo = malloc(nb * sizeof *lo), *hi = calloc(nb, sizeof *hi);
  size_t *base = malloc((nacc ? nacc : 1) * sizeof *base); /* base_of, per access */
  key_set set = {calloc(1024, sizeof *set.slot), 1023, 0};
  bool ok = out->distinct && out->span && touched && lo && hi && base && set.slot;
  for (size_t i = 0; ok && i < nacc; i++)
    base[i] = base_of(k, i);
  for (size_t b = 0; ok && b < nb; b++)
    lo[b] = UINT64_MAX;
  /* sector numbers stay far below 2^56 (the layout's addresses are below
   * 2^63 and sectors are at least 1 B), so the base fits in the top byte */
  for (size_t w = 0; ok && w < nstreams; w++)
    for (size_t e = 0; ok && e < streams[w].nev; e++) {
      const event *ev = &rec->ev[streams[w].at + e];
      if (nr)
        nr[ev->access] += ev->weight * (ev->ndata + ev->unknown);
      *data = *data || ev->ndata > 0;
      size_t b = base[ev->access], top = b < 255 ? b : 255;
      touched[b] += ev->n;
      for (uint32_t j = 0; ok && j < ev->n; j++) {
        uint64_t sec = rec->sec[ev->first + j];
        lo[b] = sec < lo[b] ? sec : lo[b];
        hi[b] = sec > hi[b] ? sec : hi[b];
        int added = key_add(&set, ((uint64_t)top << 56 | (sec & ((UINT64_C(1) << 56) - 1))) + 1);
        out->distinct[top] += added > 0;
        ok = added >= 0;
      }
    }
  for (size_t b = 0; ok && b < nb; b++) {
    out->distinct[b] = touched[b] > 0 ? out->distinct[b] / touched[b] : 0;
    out->span[b] = hi[b] >= lo[b] ? (double)(hi[b] - lo[b]) + 1 : 0;
  }
  free(touched), free(base), free(set.slot), free(lo), free(hi);
  return ok ? WGP_OK : wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
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
  /* gathers read scattered places, walks from a loaded start stream */
  if (!wgp_tracer_track_loads(s->t))
    return wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
  s->rec.last = calloc(wgp_kernel_num_accesses(in->kernel) + 1, sizeof *s->rec.last);
  if (!s->rec.last)
    return wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
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
      *s->rec.cur = (stream){s->rec.nev, 0};
      s->rec.gen++; /* a new warp: no last events, no phantom lines pending */
      s->rec.pending = false;
      wgp_trace *tr;
      wgp_diag d2;
      wgp_status ts = wgp_tracer_trace(s->t, gid, w, &tr, &d2);
      if (ts == WGP_ERR_INPUT)
        break; /* a short last group */
      if (ts != WGP_OK)
        return wgp_diag_set(diag, ts, "%s", d2.message);
      wgp_tracer_recycle(s->t, tr);
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
  free(s->streams);
  free(s->rec.ev);
  free(s->rec.sec);
  free(s->rec.ts);
  free(s->rec.last);
  wgp_tracer_free(s->t);
}

/* Appends W's streams, events and sectors to M's, in order (the sample is
 * then the one a single thread traces). */
static bool sampler_append(sampler *m, sampler *w) {
  if (!recorder_reserve(&m->rec, m->rec.nev + w->rec.nev, m->rec.nsec + w->rec.nsec))
    return false;
  if (w->rec.nsec)
    memcpy(m->rec.sec + m->rec.nsec, w->rec.sec, w->rec.nsec * sizeof *w->rec.sec);
  for (size_t e = 0; e < w->rec.nev; e++) {
    m->rec.ev[m->rec.nev + e] = w->rec.ev[e];
    m->rec.ev[m->rec.nev + e].first += (uint32_t)m->rec.nsec;
  }
  for (size_t i = 0; i < w->nstreams; i++)
    m->streams[m->nstreams++] = (stream){m->rec.nev + w->streams[i].at, w->streams[i].nev};
  m->rec.nev += w->rec.nev;
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
  /* M holds group 0 alone: room for as many events and sectors a group, in
   * M for the whole sample (the parts join there) and in each part for its
   * groups, rather than lists that double and copy as the groups come in
   * (a hint: recording grows them as it needs) */
  size_t gev = m->rec.nev, gsec = m->rec.nsec;
  (void)recorder_reserve(&m->rec, gev * S, gsec * S + EVENT_SECTORS);
  for (unsigned p = 1; p < parts; p++) {
    worker *w = &wk[p - 1];
    w->s = *m;
    w->s.from = 1 + rest * p / parts;
    w->s.to = 1 + rest * (p + 1) / parts;
    w->s.t = NULL;
    w->s.streams = calloc((w->s.to - w->s.from) * m->wpg + 1, sizeof *w->s.streams);
    w->s.nstreams = 0;
    w->s.rec.ev = NULL;
    w->s.rec.nev = w->s.rec.capev = 0;
    w->s.rec.sec = NULL;
    w->s.rec.nsec = w->s.rec.capsec = w->s.rec.visits = 0;
    (void)recorder_reserve(&w->s.rec, gev * (w->s.to - w->s.from), gsec * (w->s.to - w->s.from) + EVENT_SECTORS);
    w->s.rec.oom = false;
    w->s.rec.last = NULL; /* sampler_open's own */
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

/* A warp's sectors from loaded data in its current block visit. */
#define FLIGHT_SECTORS 128
typedef struct flight {
  uint32_t visit, n;
  uint64_t s[FLIGHT_SECTORS];
} flight;

/* Whether F holds S; if not, S goes in (while there is room). */
static bool flight_seen(flight *f, uint64_t s) {
  for (uint32_t i = 0; i < f->n; i++)
    if (f->s[i] == s)
      return true;
  if (f->n < FLIGHT_SECTORS)
    f->s[f->n++] = s;
  return false;
}

/* A load's sector S from loaded data that missed the sample's L1: it hits
 * L1 anyway with chance P1 (another group of the SM brought it in), else goes
 * to L2 (the sample's L2 cache C2), and missing there hits with chance P2;
 * adds weight W to the per-access sums and updates the request's chances
 * of being served by L1 alone (*ALL1) and of waiting on no DRAM (*NODRAM). */
static void data_sector(lru *c2, uint64_t s, double w, double p1, double p2, uint32_t access, unsigned sector,
                        double *h1, double *to2, double *h2, double *dsec, double *dram_bytes, double *all1,
                        double *nodram, bool *oom) {
  h1[access] += w * p1;
  *all1 *= p1;
  to2[access] += w * (1 - p1);
  if (lru_access(c2, s, true, oom)) {
    h2[access] += w * (1 - p1);
    return;
  }
  double miss = (1 - p1) * (1 - p2);
  h2[access] += w * (1 - p1) * p2;
  dsec[access] += w * miss;
  *dram_bytes += w * miss * sector;
  *nodram *= 1 - miss;
}

/* Whether E varies with a work-item or an iteration other than through
 * loaded values: val[rowptr[r] + i] (a row of its own, read once), not
 * x[col[j]] (a gather, whose places other work-items read too). */
static bool walks(const wgp_expr *e) {
  if (!e)
    return false;
  const wgp_sym *sym = wgp_expr_get_op(e) == WGP_OP_SYM ? wgp_expr_symbol(e) : NULL;
  if (sym)
    return sym->kind == WGP_SYM_LID || sym->kind == WGP_SYM_GID || sym->kind == WGP_SYM_LANEID ||
           sym->kind == WGP_SYM_ITER || sym->kind == WGP_SYM_RECUR;
  for (size_t i = 0; i < wgp_expr_num_operands(e); i++)
    if (walks(wgp_expr_operand(e, i)))
      return true;
  return false;
}

/* The chances P1, P2 (unknown_hit_chances) of access I, given the sectors of its random
 * places the whole launch reads (N): only places read before can be there,
 * and of N reads of S places, 1 - S (1 - e^-N/S) / N are re-reads.  For
 * places from loaded data (P1[I], P2[I]) a walk (walks) reads each place
 * once, its reuse along the walk is the LRU's: 0; lanes with no address at
 * all (P1[NACC + I], P2[NACC + I]) keep the re-reads. */
static void reread_chances(const wgp_kernel *k, size_t i, double region, double sector, double n, double *p1,
                           double *p2) {
  size_t nacc = wgp_kernel_num_accesses(k);
  double places = region / sector;
  double reread = n <= 0 || places <= 0 ? 0 : 1 - places * -expm1(-n / places) / n;
  p1[nacc + i] = p1[i] * reread;
  p2[nacc + i] = p2[i] * reread;
  if (walks(wgp_access_offset(wgp_kernel_access(k, i))))
    reread = 0;
  p1[i] *= reread;
  p2[i] *= reread;
}

/* Addresses from loaded data (a gather x[col[j]]) fall at random places in
 * a region (wgp_layout_set_regions: the buffer's --buffer size, else an
 * element per work-item); those the analysis cannot tell at all are taken
 * there too.  A random sector of a region of R bytes stays in a cache of C
 * bytes with chance C / R (LRU under independent references): P1 for the
 * SM's L1 (L1_BYTES, shared by the groups there, which all read the same
 * region), P2 for the L2 (3/4 of it, as for data kept across launches,
 * wgp_cache_warm_l2).  OUT->unknown_region gets each access's R. */
static void unknown_hit_chances(const wgp_analysis_input *in, const wgp_layout *layout, double l1_bytes,
                                wgp_cache_result *out, double *p1, double *p2) {
  double l2 = 0.75 * (double)wgp_gpu_l2_bytes(in->gpu);
  for (size_t i = 0; i < wgp_kernel_num_accesses(in->kernel); i++) {
    double r = wgp_layout_region(layout, i);
    out->unknown_region[i] = r;
    p1[i] = r <= 0 || l1_bytes >= r ? 1 : l1_bytes / r;
    p2[i] = r <= 0 || l2 >= r ? 1 : l2 / r;
  }
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
  /* per access: sectors of unknown address (in the sample), their chance
   * to hit L1 and, missing it, L2 */
  double *usec = calloc(nacc ? nacc : 1, sizeof *usec), *p1 = calloc(2 * (nacc + 1), sizeof *p1);
  double *p2 = calloc(2 * (nacc + 1), sizeof *p2); /* then, from NACC on, of lanes with no address */
  out->unknown_share = calloc(nacc ? nacc : 1, sizeof *out->unknown_share);
  out->unknown_region = calloc(nacc ? nacc : 1, sizeof *out->unknown_region);
  if (!out->l1_hit || !out->l2_hit || !out->dram_rows || !out->last_l1 || !out->last_dram || !req || !req1 ||
      !req3 || !sect || !h1 || !to2 || !h2 || !dsec || !acts || !usec || !p1 || !p2 || !out->unknown_share ||
      !out->unknown_region) {
    free(req), free(req1), free(req3);
    free(sect), free(h1), free(to2), free(h2), free(dsec), free(acts), free(usec), free(p1), free(p2);
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
  /* whole groups, at most WGP_CACHE_MAX_WARPS warps of them (cache.h): 16
   * groups of 1024 work-items, not 128 */
  uint64_t limit = WGP_CACHE_MAX_WARPS / wgp_launch_warps_per_group(&L);
  limit = limit < 1 ? 1 : limit > WGP_CACHE_MAX_GROUPS ? WGP_CACHE_MAX_GROUPS : limit;
  uint64_t *pick = malloc((size_t)(wave < limit ? wave : limit) * sizeof *pick + 8);
  size_t S = pick ? choose_groups(ngrp[0], wave, limit, pick) : 0;
  unsigned sector = wgp_gpu_l2_sector_bytes(gpu), line = wgp_gpu_l1_line_bytes(gpu);
  if (!sector || (sector & (sector - 1)) || !line) { /* the GPU loader checks: never true */
    free(pick), free(sect), free(h1), free(to2), free(h2), free(dsec), free(acts), free(usec), free(p1), free(p2);
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
  wgp_status st = pick ? wgp_analysis_layout(in, &layout, diag)
                       : wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
  if (st == WGP_OK) {
    main_s = (sampler){in, &L, pick, ngrp, 0, 1, WGP_TRACE_EDGE_ITERATIONS, false, NULL, {0}, NULL, 0, 0, WGP_OK};
    main_s.rec = (recorder){k, layout, L.warp_size, sector, NULL, NULL, 0, 0, NULL, 0, 0, 0, false, NULL, NULL,
                            NULL, 0, {line, wgp_gpu_l2_line_bytes(gpu)}, false, 0};
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
      size_t work = main_s.rec.visits + main_s.rec.nev;
      if (st != WGP_OK || !max_events || (double)work * (double)S <= (double)max_events || main_s.edge <= 1)
        break;
      out->sampled = true;
      main_s.edge = main_s.edge > WGP_CACHE_SAMPLED_EDGE ? WGP_CACHE_SAMPLED_EDGE : 1;
      main_s.sampled = true;
      sampler_configure(&main_s);
      main_s.nstreams = 0;
      main_s.rec.nev = 0;
      main_s.rec.nsec = 0;
      main_s.rec.visits = 0;
      st = sampler_run(&main_s, diag);
    }
  }
  if (st == WGP_OK && S > 1)
    st = sample_rest(&main_s, S, in->threads ? in->threads : wgp_default_threads(), diag);
  /* A first wave that makes no global access at all (a 3-D stencil whose
   * first wave is the z = 0 face it returns from) says nothing of the
   * others: the wave in the middle of the grid instead, whole rows moved. */
  bool silent = st == WGP_OK && S > 0 && total > wave;
  for (size_t w = 0; silent && w < main_s.nstreams; w++)
    silent = main_s.streams[w].nev == 0;
  uint64_t first = silent ? total / 2 / ngrp[0] * ngrp[0] : 0, last = (total - wave) / ngrp[0] * ngrp[0];
  first = first < last ? first : last;
  if (first > 0) {
    out->middle_wave = true;
    for (size_t i = 0; i < S; i++)
      pick[i] += first;
    main_s.nstreams = 0;
    main_s.rec.nev = 0;
    main_s.rec.nsec = 0;
    main_s.rec.visits = 0;
    main_s.from = 0;
    main_s.to = 1;
    st = sampler_run(&main_s, diag);
    if (st == WGP_OK && S > 1)
      st = sample_rest(&main_s, S, in->threads ? in->threads : wgp_default_threads(), diag);
  }
  rec = main_s.rec;
  free(rec.ts);
  free(rec.last);
  rec.last = NULL;
  free(twins);
  rec.ts = NULL;
  rec.twin = NULL;
  streams = main_s.streams;
  nstreams = main_s.nstreams;
  wgp_tracer_free(main_s.t);
  /* Simulate: L1 per group (its share of the SM), L2 for the sample. */
  lru *l1 = NULL, l2;
  uint32_t round_no = 1; /* the stream's round, the caches' clock */
  dram_rows rows = {0};
  bool l2ok = false, use_l1 = wgp_gpu_l1_caches_global_loads(gpu);
  /* per access, from its cache operator (docs/kernel-model.md, "Cache
   * operators"): loads that neither look in nor allocate in L1 (cg, cv),
   * and accesses whose lines are the first to be evicted (cs, lu) */
  bool *no_l1 = calloc(nacc ? nacc : 1, sizeof *no_l1), *evicts = calloc(nacc ? nacc : 1, sizeof *evicts);
  for (size_t i = 0; no_l1 && evicts && i < nacc; i++) {
    const wgp_access *a = wgp_kernel_access(k, i);
    no_l1[i] = wgp_access_skips_l1(k, a);
    evicts[i] = wgp_cache_op_evicts_first(wgp_access_cache_in_effect(k, a));
  }
  if ((!no_l1 || !evicts) && st == WGP_OK)
    st = wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
  bool data = false; /* an event has sectors from loaded data */
  if (st == WGP_OK) {
    double l1_bytes = wgp_gpu_l1_beside_shared(gpu, (double)resident * (double)smem_per_group);
    if (l1_bytes < line)
      l1_bytes = line;
    size_t l1_lines = (size_t)(l1_bytes / resident / line);
    unknown_hit_chances(in, layout, use_l1 ? l1_bytes : 0, out, p1, p2);
    /* the launch's reads of random places per access: the sample's, per
     * group, times the groups */
    double *nr = calloc(nacc ? nacc : 1, sizeof *nr);
    st = sample_counts(k, streams, nstreams, &rec, nr, &data, out, diag);
    for (size_t i = 0; i < nacc; i++)
      reread_chances(k, i, out->unknown_region[i], sector, nr ? nr[i] / (double)(S ? S : 1) * (double)total : 0, p1,
                     p2);
    free(nr);
    /* the accesses whose cache operator keeps them out of L1 (cg, cv)
     * find nothing there at random places either */
    for (size_t i = 0; no_l1 && i < nacc; i++)
      if (no_l1[i])
        p1[i] = p1[nacc + i] = 0;
    double l2_bytes = (double)wgp_gpu_l2_bytes(gpu) * (double)S / (double)wave;
    size_t l2_lines = (size_t)(l2_bytes / wgp_gpu_l2_line_bytes(gpu));
    l1 = calloc(S ? S : 1, sizeof *l1);
    l2ok = lru_init(&l2, l2_lines, wgp_gpu_l2_line_bytes(gpu) / sector);
    l2.clock = &round_no;
    l2.fills_from_dram = true;
    bool ok = l1 && l2ok && dram_rows_init(&rows, gpu, sector);
    l2.wb_keep = rows.on; /* the write-backs only matter to the rows */
    for (size_t g = 0; ok && g < S; g++)
      if ((ok = lru_init(&l1[g], l1_lines ? l1_lines : 1, line / sector)))
        l1[g].clock = &round_no;
    if (!ok && st == WGP_OK)
      st = wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
  }
  if (st == WGP_OK) {
    size_t *pos = calloc(nstreams + 1, sizeof *pos);
    /* the streams with events left, in order: a round takes the next event
     * of each, and the short ones (a group's last warp, the warps a branch
     * sends home early) are not visited again once done */
    uint32_t *live = malloc((nstreams + 1) * sizeof *live);
    size_t nlive = 0;
    for (size_t w = 0; live && w < nstreams; w++)
      if (streams[w].nev)
        live[nlive++] = (uint32_t)w;
    uint32_t *by_turn = NULL;
    bool oom = !pos || !live;
    flight none = {0}, *inflight = data ? calloc(nstreams + 1, sizeof *inflight) : NULL;
    phantom_round pend;
    /* per warp: its first event with phantom lines since the last flush */
    size_t *pfrom = malloc((nstreams + 1) * sizeof *pfrom);
    oom = !phantom_init(&pend, S) || !pfrom || oom;
    for (size_t w = 0; pfrom && w < nstreams; w++)
      pfrom[w] = SIZE_MAX;
    oom = oom || (data && !inflight);
    if (rows.on && !oom) {
      rows.first = calloc(nstreams + 1, sizeof *rows.first);
      rows.count = calloc(nstreams + 1, sizeof *rows.count);
      by_turn = dram_turns(nstreams, warps_per_group, pick, S, wgp_gpu_sm_count(gpu));
      oom = !rows.first || !rows.count || !by_turn;
    }
    if (oom)
      st = wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
    while (st == WGP_OK && nlive && !oom) {
      round_no++;
      size_t kept = 0;
      for (size_t l = 0; l < nlive; l++) {
        size_t w = live[l];
        const event *e = &rec.ev[streams[w].at + pos[w]++];
        if (pos[w] < streams[w].nev)
          live[kept++] = (uint32_t)w;
        lru *c1 = &l1[w / (warps_per_group ? warps_per_group : 1)];
        int slowest = 0; /* of a load's sectors: 0 all from L1, 1 some from L2, 2 some from DRAM */
        /* of its sectors from loaded data: the chance that all came from
         * L1 and that none came from DRAM */
        double d_all1 = 1, d_nodram = 1;
        flight *fl = inflight ? &inflight[w] : &none;
        if (fl->visit != e->visit)
          fl->visit = e->visit, fl->n = 0;
        /* this access' way through the caches (its cache operator) */
        bool in_l1 = use_l1 && !no_l1[e->access], evict_first = evicts[e->access];
        for (uint32_t j = 0; j < e->n + e->ndata; j++) {
          uint64_t s = rec.sec[e->first + j];
          sect[e->access] += e->weight;
          if (j >= e->n) {
            usec[e->access] += e->weight;
            /* a warp's loads of one block go out back to back: a sector it
             * asked for earlier in the block is in flight or in L1 (the
             * round-robin stream would have other warps evict it between) */
            if (!e->store && in_l1 && flight_seen(fl, s)) {
              h1[e->access] += e->weight;
              continue;
            }
          }
          if (e->store) {
            lru_invalidate(c1, s);
            to2[e->access] += e->weight;
            /* L2 is write-back: a sector written since it came in is
             * written back once, whether the store found it there (read
             * before: a read-modify-write) or allocated it; a store to a
             * sector already written adds nothing (the hit).  The line's
             * dirty sectors go to DRAM together when it leaves L2 (its row
             * opened once for them): in the DRAM rows then */
            lru_access(&l2, s, true, &oom);
            if (evict_first)
              lru_demote(&l2);
            if (lru_write(&l2, s, e->weight, e->access)) {
              h2[e->access] += e->weight;
            } else {
              out->dram_write_bytes_per_group += e->weight * sector;
              dsec[e->access] += e->weight;
            }
            continue;
          }
          bool hit1 = in_l1 && lru_access(c1, s, true, &oom);
          if (in_l1 && evict_first)
            lru_demote(c1);
          if (hit1) {
            h1[e->access] += e->weight;
            /* a hit on a sector another warp's miss brought in this
             * round (the warps issued the load together) waits for that
             * fill: it counts as a hit, its wait as the fill's */
            slowest = slowest > c1->inflight ? slowest : c1->inflight;
            continue;
          }
          if (j >= e->n) {
            /* a sector at a place from loaded data that the sample's LRU
             * does not hold may still be there: other groups of the SM
             * and of the GPU read the same region at random places */
            data_sector(&l2, s, e->weight, p1[e->access], p2[e->access], e->access, sector, h1, to2, h2, dsec,
                        &out->dram_read_bytes_per_group, &d_all1, &d_nodram, &oom);
            continue;
          }
          to2[e->access] += e->weight;
          bool hit2 = lru_access(&l2, s, true, &oom);
          if (evict_first)
            lru_demote(&l2);
          if (hit2) {
            h2[e->access] += e->weight;
            int lv = l2.inflight ? 2 : 1;
            slowest = slowest > lv ? slowest : lv;
            if (lv == 2 && in_l1)
              lru_far(c1, s);
          } else {
            slowest = 2;
            if (in_l1)
              lru_far(c1, s);
            out->dram_read_bytes_per_group += e->weight * sector;
            dsec[e->access] += e->weight;
            if (rows.on && !dram_rows_note(&rows, w, s, e->weight, e->access))
              oom = true;
          }
        }
        /* the other iterations of a sampled stretch, after its sample
         * iteration (event.flush) and the round's lookups (phantom_flush):
         * new data that ages the caches it goes through (stores: L2 only)
         * and counts in no statistic (cache.h) */
        if ((e->phantom[0] | e->phantom[1]) && pfrom[w] == SIZE_MAX)
          pfrom[w] = pos[w] - 1;
        if (pfrom[w] != SIZE_MAX && (e->flush || pos[w] == streams[w].nev)) {
          for (size_t i = pfrom[w]; i < pos[w]; i++) {
            const event *x = &rec.ev[streams[w].at + i];
            if (!(x->phantom[0] | x->phantom[1]))
              continue;
            uint64_t lo = UINT64_MAX;
            for (uint32_t j = 0; j < x->n + x->ndata; j++)
              lo = rec.sec[x->first + j] < lo ? rec.sec[x->first + j] : lo;
            size_t g = w / (warps_per_group ? warps_per_group : 1);
            if (x->phantom[0] && use_l1 && !no_l1[x->access] && !x->store &&
                !phantom_note(&pend, (uint32_t)g, lo / c1->per_line, x->phantom[0]))
              oom = true;
            if (x->phantom[1] && !phantom_note(&pend, (uint32_t)S, lo / l2.per_line, x->phantom[1]))
              oom = true;
          }
          pfrom[w] = SIZE_MAX;
        }
        /* the write-backs this event's misses caused go out with them */
        for (size_t i = 0; i < l2.nwb; i++)
          if (!dram_rows_note(&rows, w, l2.wb[i].sector, l2.wb[i].weight, l2.wb[i].access))
            oom = true;
        l2.nwb = 0;
        double all1 = (slowest == 0) * d_all1, dram = slowest == 2 ? 1 : 1 - d_nodram;
        if (e->unknown) {
          /* sectors at random places in a region: each hits L1 with P1,
           * missing it L2 with P2; the request waits on its slowest */
          double u = e->unknown, wu = e->weight * u, a1 = p1[nacc + e->access], a2 = p2[nacc + e->access];
          double miss = e->store ? 1 - a2 : (1 - a1) * (1 - a2);
          sect[e->access] += wu;
          usec[e->access] += wu;
          h1[e->access] += e->store ? 0 : wu * a1;
          to2[e->access] += e->store ? wu : wu * (1 - a1);
          h2[e->access] += e->store ? wu * a2 : wu * (1 - a1) * a2;
          dsec[e->access] += wu * miss;
          acts[e->access] += rows.on ? wu * miss : 0; /* random sectors: a row each */
          *(e->store ? &out->dram_write_bytes_per_group : &out->dram_read_bytes_per_group) += wu * miss * sector;
          all1 *= pow(a1, u);
          if (all1 < 1e-9) /* no underflowing residue of a sure miss */
            all1 = 0;
          dram = 1 - (1 - dram) * pow(1 - (1 - a1) * (1 - a2), u);
        }
        if (!e->store && (e->n > 0 || e->ndata || e->unknown)) {
          req[e->access] += e->weight;
          req1[e->access] += e->weight * all1;
          req3[e->access] += e->weight * dram;
        }
      }
      if (pend.nused && !phantom_flush(&pend, l1, S, &l2))
        oom = true;
      if (rows.on)
        dram_rows_round(&rows, by_turn, nstreams, acts);
      /* those of the lines the round's phantom batches evicted, after it */
      writebacks_activate(&l2, &rows, acts);
      nlive = kept;
    }
    /* the lines still dirty at the end leave least recent first */
    for (uint32_t n = l2.tail; rows.on && !oom && n != NIL; n = l2.prev[n])
      if (!(l2.tag[n] & LRU_PHANTOM))
        lru_leave(&l2, n);
    writebacks_activate(&l2, &rows, acts);
    oom = oom || l2.wb_oom;
    free(pos), free(live), free(by_turn), free(inflight), free(pfrom);
    phantom_free(&pend);
    if (oom && st == WGP_OK)
      st = wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
  }
  for (size_t i = 0; i < nacc; i++) {
    const wgp_access *a = wgp_kernel_access(k, i);
    bool global = wgp_space_is_global(wgp_access_space(a));
    bool load = wgp_access_get_kind(a) == WGP_ACCESS_LOAD;
    out->l1_hit[i] = global && load && sect[i] > 0 ? (use_l1 ? h1[i] / sect[i] : 0.0) : -1;
    out->l2_hit[i] = global && to2[i] > 0 ? h2[i] / to2[i] : -1;
    out->dram_rows[i] = rows.on && dsec[i] > 0 ? acts[i] / dsec[i] : -1;
    out->last_l1[i] = global && load && req[i] > 0 ? req1[i] / req[i] : -1;
    out->last_dram[i] = global && load && req[i] > 0 ? req3[i] / req[i] : -1;
    out->unknown_share[i] = global && sect[i] > 0 ? usec[i] / sect[i] : 0;
    if (out->unknown_share[i] == 0)
      out->unknown_region[i] = 0;
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
  free(streams);
  free(rec.ev);
  free(rec.sec);
  free(pick);
  wgp_layout_free(layout);
  free(req), free(req1), free(req3), free(no_l1), free(evicts);
  free(sect), free(h1), free(to2), free(h2), free(dsec), free(acts), free(usec), free(p1), free(p2);
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
  free(r->span);
  free(r->unknown_share);
  free(r->unknown_region);
  r->l1_hit = r->l2_hit = r->dram_rows = r->last_l1 = r->last_dram = r->distinct = r->span = NULL;
  r->unknown_share = r->unknown_region = NULL;
}

bool wgp_cache_warm_l2(wgp_cache_result *r, const wgp_kernel *k, const wgp_gpu *gpu, const wgp_mem_stats *totals,
                       const uint64_t *buffer_bytes, const double *extent) {
  double f = 0;
  /* per buffer: the traffic of lanes whose address is known times the
   * sample's distinct share, and the traffic of lanes with unknown addresses
   * with the region they are spread over (that part's footprint is the
   * smaller of the two), or the extent of its addresses where known; a
   * buffer no larger than its --buffer size */
  size_t nb = r->num_bases;
  double *kt = calloc(nb + 1, sizeof *kt), *ut = calloc(nb + 1, sizeof *ut), *ur = calloc(nb + 1, sizeof *ur);
  bool room = kt && ut && ur;
  for (size_t i = 0; i < wgp_kernel_num_accesses(k); i++) {
    const wgp_access *a = wgp_kernel_access(k, i);
    if (!wgp_space_is_global(wgp_access_space(a)))
      continue;
    size_t b = base_of(k, i);
    /* a buffer the sample never touched counts in full */
    double share = b < nb && r->distinct[b] > 0 ? r->distinct[b] : 1;
    double bytes = totals[i].sectors * wgp_gpu_l2_sector_bytes(gpu);
    double us = r->unknown_share && i < r->num_accesses ? r->unknown_share[i] : 0;
    if (!room) {
      f += us > 0 ? INFINITY : bytes * share; /* no room to count it: taken as not fitting */
      continue;
    }
    size_t x = b < nb ? b : nb;
    if (us > 0) {
      ut[x] += bytes * us;
      ur[x] = r->unknown_region[i] > ur[x] ? r->unknown_region[i] : ur[x];
      bytes *= 1 - us;
    }
    kt[x] += bytes * share;
  }
  size_t nargs = wgp_kernel_num_args(k);
  for (size_t x = 0; room && x <= nb; x++) {
    double fx = kt[x] + (ut[x] < ur[x] ? ut[x] : ur[x]);
    if (extent && x < nargs && extent[x] > 0)
      fx = extent[x];
    if (buffer_bytes && x < nargs && buffer_bytes[x] > 0 && fx > (double)buffer_bytes[x])
      fx = (double)buffer_bytes[x];
    f += fx;
  }
  free(kt), free(ut), free(ur);
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
