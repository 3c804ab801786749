/* counters.h - what nvprof would count for a launch: transactions per
 * request, bank conflicts, L2 and DRAM transactions, predicted from the
 * lane addresses the analysis evaluates and the cache analysis' traffic.
 *
 * nvprof counts differently on each architecture, so the rules are per
 * architecture.  They were worked out from the rows of
 * ../shared/data/amaris-nvprof/measurements.csv for kernels whose addresses
 * are known exactly (vectorAdd, the two matrix sums, the tiled matrix
 * multiply's tiles at every tile width); docs/counters.md shows the
 * evidence and where they still miss.
 *
 * Kepler (cc 3.x; global loads bypass L1 by default):
 *   gld / gst transactions of a request: distinct 128 B lines its lanes touch;
 *   shared transactions: per bank, distinct 64-word segments among the words
 *     its lanes touch (32-bit mode: words i and i+32 of one 64-word segment
 *     share a bank's 64-bit row), the largest over the banks;
 *   L2 reads: 32 B sectors of global loads; L2 writes: 32 B sectors of stores.
 * Maxwell (cc 5.x):
 *   gld transactions: distinct 16 B pieces per half-warp, summed over the two
 *     halves (a coalesced 4 B warp load counts 8);
 *   gst transactions: per 128 B line touched, the sectors touched but at
 *     least 2 when two or more lanes write the line;
 *   shared transactions: bank wavefronts (32 banks of 4 B, broadcast);
 *   L2 reads: 32 B sectors of global loads; L2 writes: the gst transactions.
 * Later architectures (and the fallback): 32 B sectors for global, bank
 *   wavefronts for shared, sectors for L2 (Nsight Compute's units).
 * Everywhere: bank conflicts = shared transactions beyond the conflict-free
 * count; DRAM read / write transactions = the cache analysis' DRAM bytes /
 * 32.  A per-request ratio with no request is 0, as nvprof prints it.
 * Local (private) memory is not global: its accesses count in none of these.
 */
#ifndef WGPERF_COUNTERS_H
#define WGPERF_COUNTERS_H

#include "wgperf/analyze.h"
#include "wgperf/cache.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum wgp_counter {
  WGP_CTR_GLD_PER_REQUEST,
  WGP_CTR_GST_PER_REQUEST,
  WGP_CTR_SHARED_LD_PER_REQUEST,
  WGP_CTR_SHARED_ST_PER_REQUEST,
  WGP_CTR_SHARED_LD_BANK_CONFLICT,
  WGP_CTR_SHARED_ST_BANK_CONFLICT,
  WGP_CTR_L2_READ_TRANSACTIONS,
  WGP_CTR_L2_WRITE_TRANSACTIONS,
  WGP_CTR_DRAM_READ_TRANSACTIONS,
  WGP_CTR_DRAM_WRITE_TRANSACTIONS,
  WGP_CTR_INST_EXECUTED, /* warp instructions issued, as the simulator issues them */
  WGP_NUM_COUNTERS
} wgp_counter;

/* The nvprof metric or event name, which is also the column of
 * measurements.csv: "gld_transactions_per_request", ... */
const char *wgp_counter_name(wgp_counter c);

typedef enum wgp_counter_rules { WGP_RULES_KEPLER, WGP_RULES_MAXWELL, WGP_RULES_SECTORS } wgp_counter_rules;

/* Kepler's shared memory (32-bit mode): a bank row is 64 bits wide, so words
 * w and w + 32 of one segment of this many bytes (64 words) are served
 * together; a request's transactions stay the same under a translation by a
 * multiple of it. */
#define WGP_KEPLER_SHARED_SEGMENT_BYTES 256u
wgp_counter_rules wgp_counter_rules_for(const wgp_gpu *gpu);
const char *wgp_counter_rules_name(wgp_counter_rules r);

/* One warp-level request of LANES lanes (1..64) at ADDR[i] for the lanes in
 * MASK, WIDTH bytes per lane: the transactions nvprof counts for it. */
unsigned wgp_count_gld_transactions(wgp_counter_rules r, const uint64_t *addr, uint64_t mask, unsigned lanes,
                                    unsigned width);
unsigned wgp_count_gst_transactions(wgp_counter_rules r, const uint64_t *addr, uint64_t mask, unsigned lanes,
                                    unsigned width);
/* Shared memory: transactions, and the conflict-free count in *FREE. */
unsigned wgp_count_shared_transactions(wgp_counter_rules r, const uint64_t *addr, uint64_t mask, unsigned lanes,
                                       unsigned width, unsigned *free);

typedef struct wgp_counter_values {
  double value[WGP_NUM_COUNTERS]; /* indexed by wgp_counter */
  /* the totals the ratios come from */
  double gld_requests, gld_transactions, gst_requests, gst_transactions;
  double shared_ld_requests, shared_ld_transactions, shared_st_requests, shared_st_transactions;
  wgp_counter_rules rules;
} wgp_counter_values;

/* The counters of the launch of IN analysed in AN (traces its warp classes
 * once more, one representative warp each) with the traffic of CACHE for
 * GROUPS work-groups. */
wgp_status wgp_counters_compute(const wgp_analysis_input *in, const wgp_analysis *an, const wgp_cache_result *cache,
                                uint64_t groups, wgp_counter_values *out, wgp_diag *diag);

#ifdef __cplusplus
}
#endif

#endif
