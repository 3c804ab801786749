/* occupancy.h - resident blocks and warps per SM (seeds/004 eq. 1-7).
 *
 * The limits of seeds/004 sec. 5.1.1 with NVIDIA's allocation rules (the
 * CUDA Occupancy Calculator's): registers are allocated per warp in units of
 * the GPU's register allocation unit, and the warps the register file allows
 * are rounded down to the warp allocation granularity (the SM's four
 * sub-partitions); shared memory per block is the static plus dynamic size
 * plus the per-block system reserve, rounded up to the allocation unit.  The
 * SM is assumed configured with its largest shared-memory carveout.
 *
 * A launch that cannot run at all (a block larger than the GPU allows, more
 * registers or shared memory than one block may have, or a block that no SM
 * can hold) is an error, not zero occupancy.
 */
#ifndef WGPERF_OCCUPANCY_H
#define WGPERF_OCCUPANCY_H

#include "wgperf/diag.h"
#include "wgperf/gpu.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What limits the resident blocks; on a tie the first in this order. */
typedef enum wgp_limiter {
  WGP_LIMIT_WARPS,        /* resident warps per SM (eq. 1, second term) */
  WGP_LIMIT_GROUPS,       /* resident blocks per SM (eq. 1, first term) */
  WGP_LIMIT_REGISTERS,    /* register file (eq. 3-4) */
  WGP_LIMIT_SHARED_MEMORY /* shared memory (eq. 5-6) */
} wgp_limiter;

/* A launch's per-block resources.  registers_per_thread 0 means unknown:
 * registers then limit nothing. */
typedef struct wgp_occupancy_request {
  unsigned threads_per_block;
  unsigned registers_per_thread;
  unsigned long static_shared_bytes;
  unsigned long dynamic_shared_bytes;
} wgp_occupancy_request;

/* The result: plain numbers, copied out (no ownership). */
typedef struct wgp_occupancy {
  unsigned warps_per_block;             /* eq. 2 */
  unsigned registers_per_warp;          /* allocated, rounded to the unit; 0 when unknown */
  unsigned long shared_bytes_per_block; /* allocated: with the reserve, rounded to the unit */
  unsigned blocks_by_warps;             /* floor(max warps per SM / warps per block) */
  unsigned blocks_by_groups;            /* max blocks per SM */
  unsigned blocks_by_registers;         /* eq. 3 */
  unsigned blocks_by_shared;            /* eq. 5 */
  unsigned active_blocks_per_sm;        /* eq. 7 */
  unsigned active_warps_per_sm;
  double occupancy; /* active warps / max warps per SM */
  wgp_limiter limiter;
} wgp_occupancy;

/* Fills *out for REQ on GPU.  Fails with WGP_ERR_INPUT and a message naming
 * the GPU when the launch cannot run. */
wgp_status wgp_occupancy_compute(const wgp_gpu *gpu, const wgp_occupancy_request *req, wgp_occupancy *out,
                                 wgp_diag *diag);

/* "warps", "groups", "registers", "shared_memory". */
const char *wgp_limiter_name(wgp_limiter l);

#ifdef __cplusplus
}
#endif

#endif
