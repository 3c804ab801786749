/* mix_internal.h - the splitmix64 finalizer: a fixed pseudo-random number
 * from a key, the same in every run (analyzer/ only; the draws that stand
 * for run-time data and the sampled groups). */
#ifndef WGPERF_MIX_INTERNAL_H
#define WGPERF_MIX_INTERNAL_H

#include <stdint.h>

static inline uint64_t wgp_mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

#endif
