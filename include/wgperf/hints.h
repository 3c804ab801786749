/* hints.h - loops and branches named by their source line, for hints that
 * must hold across codes: wgtune's --trip and --taken, whose configurations
 * are different codes, each with its own numbering of loops (L<n>) and
 * blocks (B<n>).  A source line is the same in all of them
 * (analyzer/hints.c; docs/cli/wgtune.md "Loop counts and branches"). */
#ifndef WGPERF_HINTS_H
#define WGPERF_HINTS_H

#include "wgperf/model.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Whether AT, "LINE" or "FILE:LINE", names SOURCE, a model's "path:line":
 * the line the same, and FILE and the path the same or one the end of the
 * other after a '/' (hints.cu, tune/hints.cu and /src/tune/hints.cu name
 * tune/hints.cu; a model keeps the path as the compile saw it). */
bool wgp_source_at(const char *source, const char *at);

/* Whether AT is a well-formed "LINE" or "FILE:LINE" (LINE at least 1). */
bool wgp_source_at_valid(const char *at);

/* A loop clang unrolled with a run-time count is two loops at one source
 * line: the unrolled body (header "for.body") and the remainder it left
 * (header "for.body.prol" or "for.body.epil").  LOOP's partner, -1 when it
 * has none; *REMAINDER says whether LOOP is the remainder (also without a
 * partner found). */
long wgp_loop_unroll_partner(const wgp_kernel *k, size_t loop, bool *remainder);

/* The unroll factor of the unrolled loop LOOP: the constant its trip count
 * is divided by (LLVM writes the unrolled loop's count as a udiv by it),
 * else 4, clang's usual factor for a run-time count. */
unsigned wgp_loop_unroll_factor(const wgp_kernel *k, size_t loop);

/* The loops of K at AT whose count the model cannot compute (all but
 * WGP_TRIP_EXACT: a hint would override an exact count) and their trip
 * counts for COUNT iterations of the source loop per entry: COUNT itself, or for an unrolled pair COUNT / F for
 * the unrolled loop and COUNT mod F for its remainder (F its factor).  At
 * most MAX into LOOPS and COUNTS; returns how many loops are at AT. */
size_t wgp_source_trip_hints(const wgp_kernel *k, const char *at, uint64_t count, size_t *loops, uint64_t *counts,
                             size_t max);

/* The blocks of K that end in a conditional branch at AT (every copy of an
 * unrolled or inlined branch); at most MAX into BLOCKS; returns how many. */
size_t wgp_source_branch_blocks(const wgp_kernel *k, const char *at, size_t *blocks, size_t max);

/* Hints at source lines: TRIP_AT[i] runs TRIP_COUNTS[i] times per entry,
 * the branches at TAKEN_AT[i] are taken by TAKEN_FRACTIONS[i] of the
 * threads. */
typedef struct wgp_source_hints {
  const char *const *trip_at;
  const uint64_t *trip_counts;
  size_t num_trips;
  const char *const *taken_at;
  const double *taken_fractions;
  size_t num_takens;
} wgp_source_hints;

/* H as K's loops and blocks, as an analysis takes its hints
 * (wgp_analysis_input): appended to LOOPS and COUNTS at *NLOOPS and to
 * BLOCKS and FRACTIONS at *NBLOCKS, each up to MAX (wgp_source_trip_hints,
 * wgp_source_branch_blocks).  Returns the hints that named something: bit I
 * for trip hint I, bit 32 + I for taken hint I (of the first 32 of each). */
uint64_t wgp_source_hints_bind(const wgp_kernel *k, const wgp_source_hints *h, size_t max, size_t *loops,
                               uint64_t *counts, size_t *nloops, size_t *blocks, double *fractions, size_t *nblocks);

#ifdef __cplusplus
}
#endif

#endif
