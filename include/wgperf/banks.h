/* banks.h - shared-memory bank conflicts of one warp-level request.
 *
 * Shared memory is BANKS banks of BANK_BYTES bytes (32 x 4 B); word w lives
 * in bank w % BANKS.  A lane touches every word its WIDTH bytes overlap.
 * Lanes touching the same word share it (broadcast / multicast), so the cost
 * of one wavefront is the largest number of distinct words in one bank.
 * A request is processed in phases of as many lanes as BANKS x BANK_BYTES
 * bytes hold at WIDTH (rounded up to a power of two), at most the warp: with
 * 32 x 4 B, accesses of up to 4 B are one phase of the whole warp, 8 B ones
 * phases of 16 lanes (half-warps), 16 B ones phases of 8 lanes
 * (quarter-warps).  Conflicts are counted within each phase.  A lane's
 * bytes beyond WGP_BANKS_PIECE_BYTES (16: PTX's widest shared access,
 * ld.shared.v4.b32) are further requests of 16 B each, at the next 16 B of
 * every lane (a 32 B float8: two LDS.128), their counts summed.
 * Sources: docs/analyzer-rules.md.
 */
#ifndef WGPERF_BANKS_H
#define WGPERF_BANKS_H

#include "wgperf/diag.h"
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define WGP_BANKS_MAX_LANES 64u
#define WGP_BANKS_MAX_BANKS 256u
#define WGP_BANKS_PIECE_BYTES 16u

typedef struct wgp_bank_rule {
  unsigned banks;      /* 1..256 */
  unsigned bank_bytes; /* power of two */
} wgp_bank_rule;

typedef struct wgp_bank_result {
  unsigned degree;     /* largest conflict of one phase: 1 = conflict-free, 0 = no active lane */
  unsigned wavefronts; /* sum over phases of their conflict */
  unsigned phases;     /* phases with an active lane: the conflict-free wavefront count */
} wgp_bank_result;

/* 32 banks of 4 B. */
wgp_bank_rule wgp_bank_rule_default(void);

/* Counts one request of LANES lanes (1..64), WIDTH 1..256 bytes per lane.
 * WGP_ERR_INPUT for a bad rule, lane count or width; OUT is zeroed first. */
wgp_status wgp_banks(const wgp_bank_rule *rule, const uint64_t *addr, unsigned lanes, uint64_t mask, unsigned width,
                     wgp_bank_result *out, wgp_diag *diag);

/* Lanes per phase for WIDTH under RULE on a warp of LANES lanes. */
unsigned wgp_banks_phase_lanes(const wgp_bank_rule *rule, unsigned lanes, unsigned width);

#ifdef __cplusplus
}
#endif

#endif
