/* gpu_internal.h - the representation of a GPU description, for sim/ only. */
#ifndef WGPERF_GPU_INTERNAL_H
#define WGPERF_GPU_INTERNAL_H

#include "wgperf/gpu.h"

typedef enum wgp_gpu_field {
  WGP_GF_IDENTITY_NAME,
  WGP_GF_IDENTITY_ARCHITECTURE,
  WGP_GF_IDENTITY_COMPUTE_CAPABILITY,
  WGP_GF_CHIP_SM_COUNT,
  WGP_GF_CHIP_CORE_CLOCK_MHZ,
  WGP_GF_CHIP_WARP_SIZE,
  WGP_GF_CHIP_SCHEDULERS_PER_SM,
  WGP_GF_LIMITS_MAX_THREADS_PER_BLOCK,
  WGP_GF_LIMITS_MAX_BLOCK_DIM_X,
  WGP_GF_LIMITS_MAX_BLOCK_DIM_Y,
  WGP_GF_LIMITS_MAX_BLOCK_DIM_Z,
  WGP_GF_LIMITS_MAX_GRID_DIM_X, /* optional, with y and z: 0 when absent (the compute capability's limit) */
  WGP_GF_LIMITS_MAX_GRID_DIM_Y,
  WGP_GF_LIMITS_MAX_GRID_DIM_Z,
  WGP_GF_LIMITS_MAX_WARPS_PER_SM,
  WGP_GF_LIMITS_MAX_BLOCKS_PER_SM,
  WGP_GF_LIMITS_REGISTERS_PER_SM,
  WGP_GF_LIMITS_MAX_REGISTERS_PER_BLOCK,
  WGP_GF_LIMITS_MAX_REGISTERS_PER_THREAD,
  WGP_GF_LIMITS_REGISTER_ALLOC_UNIT_REGISTERS,
  WGP_GF_LIMITS_REGISTER_ALLOC_GRANULARITY,
  WGP_GF_LIMITS_WARP_ALLOC_GRANULARITY_WARPS,
  WGP_GF_LIMITS_SHARED_PER_SM_BYTES,
  WGP_GF_LIMITS_SHARED_PER_BLOCK_BYTES,
  WGP_GF_LIMITS_SHARED_PER_BLOCK_OPTIN_BYTES,
  WGP_GF_LIMITS_SHARED_ALLOC_UNIT_BYTES,
  WGP_GF_LIMITS_SHARED_RESERVED_PER_BLOCK_BYTES,
  WGP_GF_MEMORY_L1_BYTES,
  WGP_GF_MEMORY_L1_LINE_BYTES,
  WGP_GF_MEMORY_L1_SECTOR_BYTES,
  WGP_GF_MEMORY_L1_CACHES_GLOBAL_LOADS,
  WGP_GF_MEMORY_L1_SHARED_BYTES, /* optional: 0 when absent (the array is l1_bytes) */
  WGP_GF_MEMORY_L2_BYTES,
  WGP_GF_MEMORY_L2_LINE_BYTES,
  WGP_GF_MEMORY_L2_SECTOR_BYTES,
  WGP_GF_MEMORY_DRAM_BANDWIDTH_GBPS,
  WGP_GF_MEMORY_DRAM_COPY_BANDWIDTH_GBPS, /* optional: 0 when absent (writes cost what reads do) */
  WGP_GF_MEMORY_L2_BANDWIDTH_GBPS,
  WGP_GF_MEMORY_L2_PORT_BYTES_PER_CYCLE,
  WGP_GF_MEMORY_ATOMIC_SAME_ADDRESS_PER_CYCLE, /* optional: 0 when absent (wgp_gpu_atomic_same_address_per_cycle) */
  WGP_GF_MEMORY_GLOBAL_LINE_CYCLES,
  WGP_GF_MEMORY_SHARED_BANKS,
  WGP_GF_MEMORY_SHARED_BANK_WIDTH_BYTES,
  WGP_GF_MEMORY_SHARED_BANDWIDTH_BYTES_PER_CYCLE,
  WGP_GF_MEMORY_SHARED_OWN_PIPE, /* optional: false when absent */
  WGP_GF_MEMORY_COALESCING,
  WGP_GF_MEMORY_DRAM_DEVICES,          /* optional, with the four below: 0 when absent (no row model) */
  WGP_GF_MEMORY_DRAM_BANKS_PER_DEVICE,
  WGP_GF_MEMORY_DRAM_ROW_BYTES,
  WGP_GF_MEMORY_DRAM_INTERLEAVE_BYTES,
  WGP_GF_MEMORY_DRAM_ACTIVATE_WINDOW_NS,
  WGP_GF_LATENCIES_SHARED_CYCLES,
  WGP_GF_LATENCIES_L1_HIT_CYCLES,
  WGP_GF_LATENCIES_L2_HIT_CYCLES,
  WGP_GF_LATENCIES_DRAM_CYCLES,
  WGP_GF_LATENCIES_CONSTANT_HIT_CYCLES,
  WGP_GF_LATENCIES_CONSTANT_MISS_CYCLES,
  WGP_GF_LATENCIES_SHARED_REPLAY_CYCLES, /* optional: 0 when absent */
  WGP_GF_SYNC_BARRIER_BASE_CYCLES,
  WGP_GF_SYNC_BARRIER_PER_WARP_CYCLES,
  WGP_GF_LAUNCH_OVERHEAD_US,
  WGP_GF_LAUNCH_PER_BLOCK_NS,
  WGP_GF_COUNT
} wgp_gpu_field;

/* Every field keeps its value (numbers, booleans and enumerations in num[],
 * strings in str[]) and its source. */
struct wgp_gpu {
  char *file;
  double num[WGP_GF_COUNT];
  char *str[WGP_GF_COUNT];
  char *src[WGP_GF_COUNT];
  double op_latency[WGP_OP_COUNT];
  double op_throughput[WGP_OP_COUNT];
  char *op_latency_src[WGP_OP_COUNT];
  char *op_throughput_src[WGP_OP_COUNT];
  unsigned op_instructions[WGP_OP_COUNT]; /* 1 unless the description says */
  char *op_instructions_src[WGP_OP_COUNT];
  unsigned cc_major, cc_minor;
  char **aliases; /* identity.aliases, optional */
  size_t naliases;
  char *aliases_src;
  bool strength_reduction; /* compiler.strength_reduces_loop_addresses, true unless said */
  char *strength_reduction_src;
};

#endif
