/* bottleneck.h - what limits a simulated launch, in words (sim/bottleneck.c):
 * the line `wgperf predict` prints as "bottleneck" and wgtune ranks with. */
#ifndef WGPERF_BOTTLENECK_H
#define WGPERF_BOTTLENECK_H

#include "wgperf/analyze.h"
#include "wgperf/cache.h"
#include "wgperf/pipeline.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The plainest account of what limits the launch of K on GPU whose analysis
 * is AN, cache hit rates CACHE (may be NULL) and simulation R, into BUF:
 * "DRAM bandwidth: 67.1 MB must move at 936 GB/s", "global loads at k.cu:12
 * move 8.0x the bytes they use: uncoalesced", ... */
void wgp_bottleneck_words(const wgp_kernel *k, const wgp_gpu *gpu, const wgp_analysis *an, const wgp_cache_result *cache,
                          const wgp_sim_result *r, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif
