/* coalesce.h - global-memory coalescing of one warp-level instruction.
 *
 * Given the byte address of every lane (ADDR[i] for the lanes set in MASK)
 * and the bytes each lane accesses (WIDTH), counts what the memory system
 * moves.  Rules (sources in docs/analyzer-rules.md):
 * - a sector is SECTOR_BYTES (32 B), a line LINE_BYTES (128 B); a lane
 *   touches every sector / line its WIDTH bytes overlap;
 * - requests: one per warp instruction, unless SPLIT_WIDE (Fermi/Kepler):
 *   then an 8 B access is issued as two half-warp requests and a 16 B one as
 *   four quarter-warp requests (a group with no active lane issues none);
 *   sectors and lines are distinct within each request and summed over them;
 * - transactions: sectors, or whole lines when LINE_GRANULE (Fermi/Kepler
 *   loads cached in L1); bytes moved = transactions x their size;
 * - bytes requested = active lanes x WIDTH.
 * Constant memory: the constant cache serves one address per cycle, so a
 * request costs the number of distinct addresses among its active lanes.
 */
#ifndef WGPERF_COALESCE_H
#define WGPERF_COALESCE_H

#include "wgperf/diag.h"
#include "wgperf/gpu.h"
#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define WGP_COALESCE_MAX_LANES 64u

typedef struct wgp_coalesce_rule {
  unsigned sector_bytes; /* power of two */
  unsigned line_bytes;   /* power of two, a multiple of sector_bytes */
  bool line_granule;     /* transactions are lines (Fermi/Kepler L1-cached loads) */
  bool split_wide;       /* 8 B / 16 B accesses split into half / quarter-warp requests */
} wgp_coalesce_rule;

typedef struct wgp_coalesce_result {
  unsigned requests;        /* 0 when no lane is active */
  unsigned sectors;         /* distinct sectors, summed over requests */
  unsigned lines;           /* distinct lines, summed over requests */
  unsigned transactions;    /* sectors, or lines under line_granule */
  uint64_t bytes_requested; /* active lanes x width */
  uint64_t bytes_moved;     /* transactions x sector (or line) bytes */
} wgp_coalesce_result;

/* Volta and later: 32 B sectors of 128 B lines, one request per instruction. */
wgp_coalesce_rule wgp_coalesce_rule_default(void);
/* The rule of a GPU description's coalescing mode (SECTORS32: as the
 * default; KEPLER_L2_32B: 32 B L2 segments, wide accesses split) with its
 * sector and line sizes. */
wgp_coalesce_rule wgp_coalesce_rule_for(wgp_coalescing mode, unsigned sector_bytes, unsigned line_bytes);

/* Counts one request of LANES lanes (1..64).  WIDTH is 1..256 bytes (the
 * split rule applies to 8 and 16).  WGP_ERR_INPUT for a bad rule, lane count
 * or width; OUT is zeroed first. */
wgp_status wgp_coalesce(const wgp_coalesce_rule *rule, const uint64_t *addr, unsigned lanes, uint64_t mask,
                        unsigned width, wgp_coalesce_result *out, wgp_diag *diag);

/* The L1TEX wavefronts of one global or local request on Volta and later
 * (docs/analyzer-rules.md, "Wavefronts of a wide request"): a lane's bytes
 * in pieces of at most 16 B (PTX's widest access: a wider one is that many
 * instructions), each piece's active lanes in phases of LINE_BYTES / piece
 * lanes (lanes 0-7, 8-15, ... for 16 B: a wavefront carries at most a line's
 * worth of the lanes' data), one wavefront per distinct line a phase
 * touches.  4 B accesses: the distinct lines of the warp.  LANES 1..64,
 * WIDTH 1..256, LINE_BYTES a power of two; 0 when no lane is active. */
unsigned wgp_coalesce_wavefronts(const uint64_t *addr, unsigned lanes, uint64_t mask, unsigned width,
                                 unsigned line_bytes);

/* Distinct addresses among the active lanes (0 when none is active). */
unsigned wgp_constant_serialisation(const uint64_t *addr, unsigned lanes, uint64_t mask);

#ifdef __cplusplus
}
#endif

#endif
