/* pipeline.h - kernel time from per-warp traces (seeds/004 sec. 5 and 6.2).
 *
 * One round of resident work-groups on one SM is simulated (eq. 1-7 decide
 * how many), warps issuing their traces round-robin (or greedy-then-oldest)
 * on the SM's schedulers and functional units; memory accesses cost a
 * pre-wait (the load/store path), a delay (latency by level from the hit
 * rates) and a post-wait; barriers hold a group's warps until all arrive.
 * The round is scaled to the grid (eq. 8, the partial last wave simulated on
 * its own), launch overhead is added, and chip-wide DRAM and L2 bandwidth
 * bound the result from below.  Best- and worst-case bounds (eq. 11-21) come
 * with every result.  docs/simulator.md lists the assumptions.
 */
#ifndef WGPERF_PIPELINE_H
#define WGPERF_PIPELINE_H

#include "wgperf/diag.h"
#include "wgperf/gpu.h"
#include "wgperf/model.h"
#include "wgperf/trace.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What one execution of memory access ID costs one warp class. */
typedef struct wgp_access_cost {
  double requests; /* warp-level memory requests per execution of the access (global/constant/local) */
  double sectors;  /* global: distinct 32 B sectors per execution; 0 for other spaces */
  double wavefronts; /* local (shared): bank wavefronts per execution (1 = conflict-free); constant: distinct
                     * addresses; global: distinct L1 lines (tag lookups), 0 when unknown */
  double
      l1_hit; /* global loads: fraction of sectors hitting L1, 0..1; negative = unknown (use the GPU's default rule) */
  double l2_hit; /* global: fraction of L1 misses hitting L2, 0..1; negative = unknown */
  double phases; /* local: the wavefronts a conflict-free request would need per execution (2 for an 8 B access
                  * on 4 B banks); wavefronts beyond them are bank conflicts. 0 = unknown: taken as requests */
  double dram_rows; /* global: DRAM row activations per sector it moves to or from DRAM, 0..1 (cache.h); 0 =
                     * none or unknown: DRAM is then a bandwidth only */
  /* global loads: the share of warp requests all of whose sectors hit L1 and
   * the share with a sector from DRAM (cache.h); a request waits for its
   * slowest sector.  Used only when last_known (otherwise the latency is
   * the sector-weighted mean of the levels) */
  double last_l1, last_dram;
  bool last_known;
} wgp_access_cost;

/* One distinct warp and how many warps of the launch it stands for. */
typedef struct wgp_sim_warp {
  const wgp_trace *trace;
  const wgp_access_cost *costs; /* indexed by access id, wgp_kernel_num_accesses(k) entries */
  double count;
  uint64_t group[3];
  size_t warp; /* which work-group / warp of it it represents */
} wgp_sim_warp;

/* A warp class that touches no memory, waits at no barrier and whose chain
 * of latencies is at most this share of the longest class's exits at once:
 * its groups leave the rounds (docs/simulator.md, "Work-groups that exit at
 * once"). */
#define WGP_SIM_IDLE_SHARE 0.1

/* wgp_sim_input.flags */
#define WGP_SIM_GTO 1u  /* greedy-then-oldest instead of round-robin issue */
#define WGP_SIM_FULL 2u /* simulate every iteration: no steady-state extrapolation, no budget (a reference) */
#define WGP_SIM_BOUNDS_ONLY 4u /* only best_us and worst_us (and occupancy) are computed: cheap, for pruning */

typedef struct wgp_sim_input {
  const wgp_kernel *kernel;
  const wgp_gpu *gpu;
  const wgp_sim_warp *warps;
  size_t num_warps;
  uint64_t groups_total; /* work-groups in the launch */
  unsigned warps_per_group;
  unsigned regs_per_thread; /* 0: unknown, registers limit nothing */
  uint64_t smem_per_group_bytes;
  uint64_t threads_per_group;
  unsigned flags; /* WGP_SIM_* */
  /* the most lane-level global atomics of the launch on one address (every
   * thread adding into one sum): they take their turn at that address's L2
   * slice one at a time (0: none known) */
  double atomic_hot_ops;
  /* Local memory NVIDIA's compiler gives each thread (docs/simulator.md,
   * "Local memory"): its stack frame in bytes (spill slots, arrays indexed at
   * run time), and the spill loads and stores it put in the code, per warp
   * instruction of the trace (0: none known) */
  double stack_bytes;
  double spill_loads_per_insn, spill_stores_per_insn;
  /* > 0: the longest chain of latencies the warps that exit at once are
   * measured against (WGP_SIM_IDLE_SHARE) instead of the launch's own: a
   * bound for any hit rates takes the most such warps with the shortest
   * latencies, the fewest with the longest (wgp_estimate_bounds); 0: own */
  double idle_longest_chain;
} wgp_sim_input;

/* Indices of wgp_sim_result.mem_stall_cycles. */
enum { WGP_STALL_SHARED_L1 = 0, WGP_STALL_L2 = 1, WGP_STALL_DRAM = 2, WGP_STALL_CONSTANT = 3 };

typedef struct wgp_sim_result {
  double cycles, time_us;   /* whole kernel, launch overhead included */
  double round_cycles;      /* one round of resident groups on one SM */
  double rounds;            /* eq. 8, partial last wave handled: cycles of the pipeline = rounds x round_cycles */
  double best_us, worst_us; /* eq. 11-21 bounds, best <= time <= worst */
  /* occupancy */
  unsigned active_groups_per_sm, active_warps_per_sm;
  const char *limiter;
  /* breakdown in cycles of one round, averaged per resident warp (sum need
   * not equal round_cycles: overlap) */
  double issue_cycles, compute_cycles, mem_stall_cycles[4] /* shared/L1, L2, DRAM, constant */, barrier_cycles;
  double launch_overhead_us;
  double dram_bytes, l2_bytes; /* whole kernel, for the bandwidth bound */
  double dram_activations;     /* whole kernel: DRAM rows opened (0 without the GPU's row geometry) */
  double dram_write_bytes;     /* whole kernel: the part of dram_bytes written */
  const char *bound; /* what limited the result: "pipeline", "dram_bandwidth", "dram_rows", "l2_bandwidth",
                      * "block_dispatch", "atomic_contention" */
  bool extrapolated;           /* steady-state extrapolation of long loops was used */
  /* additions */
  double best_round_cycles, worst_round_cycles; /* the bounds of one full round (eq. 11, eq. 20) */
  double pipeline_us, dram_us, l2_us;           /* candidates for the kernel time, without overhead */
  double dram_rows_us; /* and the time the DRAM devices need to open those rows: activations / (devices x 4 /
                        * tFAW) (wgp_gpu_dram_activations_per_ns) */
  double atomic_us; /* the time the atomics on the launch's busiest address take, one after another
                     * (atomic_hot_ops / wgp_gpu_atomic_same_address_per_cycle) */
  uint64_t groups_per_sm;                       /* groups the busiest SM runs: ceil(groups / SMs) */
  uint64_t idle_groups; /* groups whose warps exit at once, left out of the rounds (WGP_SIM_IDLE_SHARE) */
  double longest_chain; /* the longest warp class's chain of latencies, cycles: what idle_groups measures against
                         * (unless wgp_sim_input.idle_longest_chain says otherwise) */
  double l2_port_busy; /* share of a round the SM's port to or from L2 is busy, the busier direction (0 without
                        * memory.l2_port_bytes_per_cycle) */
  double instructions;           /* warp instructions of the launch's busiest SM (extrapolated ones included) */
  double simulated_instructions; /* warp instructions the simulator really issued: its cost */
  double queue_us; /* what waiting at the bandwidth adds above max(pipeline, the bandwidths): the SMs' customers
                    * (groups or warps) queued for their share of the chip's DRAM or L2 (docs/simulator.md,
                    * "Bandwidth as a queue") */
  unsigned queue_groups; /* groups per SM that wait there as single customers (most of a warp's trips end at a
                          * barrier or at its exit), 0 when the warps wait one by one */
  bool stopped; /* a round reached WGP_SIM_MAX_ISSUED simulated instructions before its end (no steady state the
                 * extrapolation could use): its rest was extrapolated at the rate so far, within the bounds */
} wgp_sim_result;

/* The most warp instructions one round simulates (about a second); real
 * kernels need well under a million thanks to the steady-state skips. */
#define WGP_SIM_MAX_ISSUED 4194304.0

/* Simulates IN (keep) into *OUT.  Fails with WGP_ERR_INPUT and a diagnostic
 * for inconsistent input or a launch that cannot run (zero occupancy names
 * its limiter), WGP_ERR_NOMEM when out of memory. */
wgp_status wgp_simulate(const wgp_sim_input *in, wgp_sim_result *out, wgp_diag *diag);

#ifdef __cplusplus
}
#endif

#endif
