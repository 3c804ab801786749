/* hints.c - loops and branches named by their source line (hints.h). */
#include "wgperf/hints.h"

#include "wgperf/expr.h"

#include <stdlib.h>
#include <string.h>

/* The line of "...:LINE" (after the last ':'), 0 when there is none. */
static unsigned long line_of(const char *s, size_t *prefix) {
  const char *colon = strrchr(s, ':');
  const char *digits = colon ? colon + 1 : s;
  if (!*digits || strspn(digits, "0123456789") != strlen(digits))
    return 0;
  *prefix = colon ? (size_t)(colon - s) : 0;
  return strtoul(digits, NULL, 10);
}

bool wgp_source_at_valid(const char *at) {
  size_t prefix = 0;
  return at && line_of(at, &prefix) > 0 && (!strchr(at, ':') || prefix > 0);
}

bool wgp_source_at(const char *source, const char *at) {
  size_t sp = 0, ap = 0;
  if (!source || !at)
    return false;
  unsigned long sl = line_of(source, &sp), al = line_of(at, &ap);
  if (!sl || sl != al)
    return false;
  if (!strchr(at, ':'))
    return true; /* the line alone */
  /* one path the end of the other after a '/' (a model may keep the path
   * relative to where it was compiled, a user give it whole, or the reverse) */
  const char *longer = ap > sp ? at : source, *shorter = ap > sp ? source : at;
  size_t ln = ap > sp ? ap : sp, sn = ap > sp ? sp : ap;
  return strncmp(longer + ln - sn, shorter, sn) == 0 && (ln == sn || longer[ln - sn - 1] == '/');
}

/* The header block's name of loop I. */
static const char *header_name(const wgp_kernel *k, size_t i) {
  return wgp_block_name(wgp_kernel_block(k, wgp_loop_header(wgp_kernel_loop(k, i))));
}

static bool remainder_suffix(const char *s) { return strcmp(s, ".prol") == 0 || strcmp(s, ".epil") == 0; }

long wgp_loop_unroll_partner(const wgp_kernel *k, size_t loop, bool *remainder) {
  const char *name = header_name(k, loop);
  size_t n = name ? strlen(name) : 0;
  *remainder = n > 5 && remainder_suffix(name + n - 5);
  for (size_t i = 0; n && i < wgp_kernel_num_loops(k); i++) {
    const char *other = header_name(k, i);
    size_t m = other && i != loop ? strlen(other) : 0;
    if (*remainder ? m == n - 5 && strncmp(other, name, m) == 0
                   : m == n + 5 && strncmp(other, name, n) == 0 && remainder_suffix(other + n))
      return (long)i;
  }
  return -1;
}

/* The first division of E by a constant, in the order the operands are
 * written (udiv by C, or a right shift by S: 2^S); 0 when none. */
static uint64_t divisor(const wgp_expr *e, unsigned depth) {
  if (!e || depth > 16)
    return 0;
  wgp_expr_op op = wgp_expr_get_op(e);
  if ((op == WGP_OP_UDIV || op == WGP_OP_LSHR) && wgp_expr_num_operands(e) == 2) {
    const wgp_expr *c = wgp_expr_operand(e, 1);
    if (wgp_expr_get_op(c) == WGP_OP_INT) {
      int64_t v = wgp_expr_int(c);
      if (op == WGP_OP_UDIV && v > 1)
        return (uint64_t)v;
      if (op == WGP_OP_LSHR && v > 0 && v < 16)
        return (uint64_t)1 << v;
    }
  }
  for (size_t i = 0; i < wgp_expr_num_operands(e); i++) {
    uint64_t d = divisor(wgp_expr_operand(e, i), depth + 1);
    if (d)
      return d;
  }
  return 0;
}

unsigned wgp_loop_unroll_factor(const wgp_kernel *k, size_t loop) {
  const wgp_loop *l = wgp_kernel_loop(k, loop);
  uint64_t d = divisor(wgp_loop_trip_count(l), 0);
  if (!d)
    d = divisor(wgp_loop_backedge_count(l), 0);
  return d >= 2 && d <= 64 ? (unsigned)d : 4;
}

size_t wgp_source_trip_hints(const wgp_kernel *k, const char *at, uint64_t count, size_t *loops, uint64_t *counts,
                             size_t max) {
  size_t n = 0;
  for (size_t i = 0; i < wgp_kernel_num_loops(k); i++) {
    const wgp_loop *l = wgp_kernel_loop(k, i);
    /* a count the model knows stays (a hint would override it) */
    if (wgp_loop_trip_kind(l) == WGP_TRIP_EXACT || !wgp_source_at(wgp_loop_source(l), at))
      continue;
    bool rem = false;
    long partner = wgp_loop_unroll_partner(k, i, &rem);
    uint64_t c = count;
    if (partner >= 0) {
      unsigned f = wgp_loop_unroll_factor(k, rem ? (size_t)partner : i);
      c = rem ? count % f : count / f;
    }
    if (n < max) {
      loops[n] = i;
      counts[n] = c;
    }
    n++;
  }
  return n;
}

/* Whether block B exits a loop of K at AT: the loop's own condition, which
 * --trip and not --taken sets. */
static bool exits_loop_at(const wgp_kernel *k, size_t b, const char *at) {
  for (size_t i = 0; i < wgp_kernel_num_loops(k); i++) {
    const wgp_loop *l = wgp_kernel_loop(k, i);
    if (!wgp_source_at(wgp_loop_source(l), at))
      continue;
    for (size_t e = 0; e < wgp_loop_num_exiting(l); e++)
      if (wgp_loop_exiting(l, e) == b)
        return true;
  }
  return false;
}

uint64_t wgp_source_hints_bind(const wgp_kernel *k, const wgp_source_hints *h, size_t max, size_t *loops,
                               uint64_t *counts, size_t *nloops, size_t *blocks, double *fractions, size_t *nblocks) {
  uint64_t matched = 0;
  for (size_t i = 0; i < h->num_trips; i++) {
    size_t room = max - *nloops;
    size_t n = wgp_source_trip_hints(k, h->trip_at[i], h->trip_counts[i], loops + *nloops, counts + *nloops, room);
    matched |= n && i < 32 ? 1ull << i : 0;
    *nloops += n < room ? n : room;
  }
  for (size_t i = 0; i < h->num_takens; i++) {
    size_t room = max - *nblocks;
    size_t n = wgp_source_branch_blocks(k, h->taken_at[i], blocks + *nblocks, room);
    matched |= n && i < 32 ? 1ull << (32 + i) : 0;
    for (size_t q = *nblocks; q < *nblocks + n && q < max; q++)
      fractions[q] = h->taken_fractions[i];
    *nblocks += n < room ? n : room;
  }
  return matched;
}

size_t wgp_source_branch_blocks(const wgp_kernel *k, const char *at, size_t *blocks, size_t max) {
  size_t n = 0;
  for (size_t b = 0; b < wgp_kernel_num_blocks(k); b++) {
    const wgp_block *blk = wgp_kernel_block(k, b);
    const wgp_branch *br = wgp_block_branch(blk);
    if (!br || !wgp_source_at(wgp_branch_source(br) ? wgp_branch_source(br) : wgp_block_source(blk), at) ||
        exits_loop_at(k, b, at))
      continue;
    if (n < max)
      blocks[n] = b;
    n++;
  }
  return n;
}
