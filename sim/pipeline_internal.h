/* pipeline_internal.h - instruction streams shared by the pipeline simulation
 * (pipeline.c) and its bounds (bounds.c); sim/ only. */
#ifndef WGPERF_PIPELINE_INTERNAL_H
#define WGPERF_PIPELINE_INTERNAL_H

#include "arena_internal.h"
#include "wgperf/pipeline.h"

/* Functional units of one SM; WGP_UNIT_NONE issues without one. */
typedef enum wgp_unit {
  WGP_UNIT_FP32,
  WGP_UNIT_FP64,
  WGP_UNIT_INT,
  WGP_UNIT_SFU,
  WGP_UNIT_CONV,
  WGP_UNIT_LSU,
  WGP_UNIT_SHARED, /* shared memory's own pipe, where it has one (memory.shared_own_pipe) */
  WGP_UNIT_L2_IN,  /* the SM's port from L2: loaded sectors (memory.l2_port_bytes_per_cycle) */
  WGP_UNIT_L2_OUT, /* the SM's port to L2: stored sectors */
  WGP_UNIT_COUNT,
  WGP_UNIT_NONE = WGP_UNIT_COUNT
} wgp_unit;

typedef enum wgp_insn_kind {
  WGP_INSN_ALU,
  WGP_INSN_ISSUE,
  WGP_INSN_LOAD,
  WGP_INSN_STORE,
  WGP_INSN_BARRIER
} wgp_insn_kind;

/* Units the SM's schedulers share (one slot per SM, kept at scheduler 0). */
static inline bool wgp_unit_sm_wide(int u) {
  return u == WGP_UNIT_LSU || u == WGP_UNIT_SHARED || u == WGP_UNIT_L2_IN || u == WGP_UNIT_L2_OUT;
}

/* One warp instruction at weight 1: the warp may issue its next instruction
 * LATENCY cycles after this one issued; UNIT is held OCCUPANCY cycles from
 * issue.  A memory access's latency is split by level in STALL (fractions). */
typedef struct wgp_insn {
  wgp_insn_kind kind;
  wgp_unit unit;
  double issue; /* issue slots (machine instructions); 0 means 1, see wgp_insn_slots */
  double occupancy;
  double latency;
  double stall[4];
  bool after_loads; /* a load that waits for the block's memory instructions before it: one whose address
                     * needs an earlier load, an atomic or a private load among the arithmetic */
  double queue;        /* cycles in QUEUE_UNIT, served in turn; its latency runs from its turn */
  wgp_unit queue_unit; /* shared memory's own pipe (WGP_UNIT_SHARED) or the SM's L2 port (WGP_UNIT_L2_IN/OUT) */
} wgp_insn;

static inline double wgp_insn_slots(const wgp_insn *i) { return i->issue > 0 ? i->issue : 1; }

/* A block's instructions for one warp class, plus per-execution totals. */
typedef struct wgp_block_stream {
  bool built;
  wgp_insn *insn;
  size_t n;
  double dram_bytes, l2_bytes; /* chip traffic of one execution */
  double dram_acts;            /* DRAM rows it opens */
  double dram_write_bytes;     /* the part of dram_bytes that stores write */
  /* bounds material of one execution */
  double issue;                /* issue slots */
  double chain;                /* sum of latencies: the warp's own critical path */
  double unit[WGP_UNIT_COUNT]; /* occupancy by unit */
  double serial;               /* issue + latency + occupancy of every instruction */
  double barriers;             /* barrier instructions */
} wgp_block_stream;

/* Everything that depends on the input only, shared by every round. */
typedef struct wgp_sim_ctx {
  const wgp_sim_input *in;
  size_t num_blocks;
  wgp_block_stream *streams; /* [class][block] */
  wgp_arena *insns;          /* the streams' instructions (allocated with the streams) */
  wgp_insn *scratch;         /* a stream being built, SCRATCH_CAP entries: copied to INSNS */
  size_t scratch_cap;
  double barrier_cost;       /* one barrier release of a group */
  unsigned warp_size;
  /* local memory (stack frames, spills): the share of its sectors L1 holds,
   * and of the rest L2 (wgp_sim_local_hits) */
  double local_l1_hit, local_l2_hit;
} wgp_sim_ctx;

/* The hit rates of local memory (IN's stack frames) with OCC's resident
 * warps and groups per SM: each cache holds its capacity's share of the
 * frames of the threads that share it (L1: the SM's resident threads, less
 * the groups' shared memory where the two are one array; L2: every SM's),
 * min(1, capacity / frames). */
void wgp_sim_local_hits(const wgp_sim_input *in, unsigned active_warps_per_sm, unsigned active_groups_per_sm,
                        double *l1_hit, double *l2_hit);

/* Per-warp-class totals over a whole trace (weights and run counts applied). */
typedef struct wgp_class_totals {
  double issue, chain, unit[WGP_UNIT_COUNT], serial, dram_bytes, l2_bytes, dram_acts, dram_write_bytes, barriers;
} wgp_class_totals;

/* The stream of BLOCK for warp class CLS, built on first use. */
wgp_status wgp_sim_stream(wgp_sim_ctx *c, size_t cls, size_t block, const wgp_block_stream **out, wgp_diag *diag);
/* Totals of warp class CLS over its trace. */
wgp_status wgp_sim_class_totals(wgp_sim_ctx *c, size_t cls, wgp_class_totals *out, wgp_diag *diag);

/* Round bounds (eq. 11 and 20) for resident warps of classes CLS[0..n) with
 * SCHED[i] their scheduler; TOT the class totals. */
void wgp_sim_round_bounds(const wgp_sim_ctx *c, const wgp_class_totals *tot, const size_t *cls, const unsigned *sched,
                          size_t n, double *best, double *worst);

wgp_status wgp_sim_fail(wgp_diag *diag, wgp_status st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

#endif
