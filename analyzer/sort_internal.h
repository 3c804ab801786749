/* sort_internal.h - sorting the short lists of sectors, words and addresses
 * one warp produces (analyzer/ only). */
#ifndef WGPERF_SORT_INTERNAL_H
#define WGPERF_SORT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

static inline int wgp_cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* Sorts V ascending.  Lanes usually produce their values in order (or in a
 * few ordered runs, e.g. the two rows of a 2-D group): check, sort by
 * insertion when few are out of place, and fall back to qsort otherwise. */
static inline void wgp_sort_u64(uint64_t *v, size_t n) {
  size_t inversions = 0;
  for (size_t i = 1; i < n; i++)
    inversions += v[i] < v[i - 1];
  if (inversions == 0)
    return;
  if (inversions > 8) {
    qsort(v, n, sizeof *v, wgp_cmp_u64);
    return;
  }
  for (size_t i = 1; i < n; i++) {
    uint64_t x = v[i];
    size_t j = i;
    for (; j > 0 && v[j - 1] > x; j--)
      v[j] = v[j - 1];
    v[j] = x;
  }
}

/* The number of distinct values of V[0..n); sorts V. */
static inline unsigned wgp_count_distinct_u64(uint64_t *v, size_t n) {
  if (n == 0)
    return 0;
  wgp_sort_u64(v, n);
  unsigned d = 1;
  for (size_t i = 1; i < n; i++)
    d += v[i] != v[i - 1];
  return d;
}

#endif
