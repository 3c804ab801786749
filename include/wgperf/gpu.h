/* gpu.h - a GPU description (docs/gpu-description.md), loaded and validated.
 *
 * A description is a versioned JSON file ("format": "wgperf-gpu",
 * "version": 1) whose every field carries its value and its source.  The
 * loaders check the whole file before returning: every key known and present,
 * units in key names, types, ranges and the geometry (power-of-two warp size,
 * cache sizes whole numbers of lines, lines whole numbers of sectors, limits
 * that agree with each other).  Afterwards the accessors cannot fail; strings
 * they return live as long as the description (keep).
 */
#ifndef WGPERF_GPU_H
#define WGPERF_GPU_H

#include "wgperf/diag.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The description format version this library reads. */
#define WGP_GPU_VERSION 1
/* The description wgp_gpu_load_builtin(NULL, ...) loads. */
#define WGP_GPU_DEFAULT "h100-sxm"

typedef struct wgp_gpu wgp_gpu;

typedef enum wgp_arch {
  WGP_ARCH_KEPLER,
  WGP_ARCH_MAXWELL,
  WGP_ARCH_PASCAL,
  WGP_ARCH_VOLTA,
  WGP_ARCH_TURING,
  WGP_ARCH_AMPERE,
  WGP_ARCH_ADA,
  WGP_ARCH_HOPPER
} wgp_arch;

/* What one register allocation unit serves. */
typedef enum wgp_reg_granularity { WGP_REG_GRAN_WARP, WGP_REG_GRAN_BLOCK } wgp_reg_granularity;

/* How a warp's global request becomes memory transactions.
 * SECTORS32: the distinct 32 B sectors of 128 B lines the lanes touch (Maxwell
 * and later); KEPLER_L2_32B: global loads bypass L1 and are served as 32 B L2
 * segments (Kepler's default). */
typedef enum wgp_coalescing { WGP_COALESCE_SECTORS32, WGP_COALESCE_KEPLER_L2_32B } wgp_coalescing;

/* The arithmetic cost classes of docs/kernel-model.md that a description
 * gives a latency and a throughput for. */
typedef enum wgp_op_class {
  WGP_OP_FP32_ADD,
  WGP_OP_FP32_MUL,
  WGP_OP_FP32_FMA,
  WGP_OP_FP32_DIV,
  WGP_OP_FP64_ADD,
  WGP_OP_FP64_MUL,
  WGP_OP_FP64_FMA,
  WGP_OP_FP64_DIV,
  WGP_OP_FP16_ADD,
  WGP_OP_FP16_MUL,
  WGP_OP_FP16_FMA,
  WGP_OP_FP16_DIV,
  WGP_OP_INT_ADD,
  WGP_OP_INT64_ADD,
  WGP_OP_INT_MUL,
  WGP_OP_INT64_MUL,
  WGP_OP_INT_DIV,
  WGP_OP_INT64_DIV,
  WGP_OP_INT_LOGIC,
  WGP_OP_CMP_SELECT,
  WGP_OP_CONV,
  WGP_OP_ADDR,
  WGP_OP_SFU_SQRT,
  WGP_OP_SFU_RSQRT,
  WGP_OP_SFU_SIN,
  WGP_OP_SFU_COS,
  WGP_OP_SFU_TAN,
  WGP_OP_SFU_EXP,
  WGP_OP_SFU_LOG,
  WGP_OP_SFU_POW,
  WGP_OP_FP64_SPECIAL,
  WGP_OP_SFU_FAST, /* a fast intrinsic (__sinf, __expf, native_exp): one MUFU, at most one FMUL beside */
  WGP_OP_COUNT
} wgp_op_class;

/* Loading.  FILE is also the name used in diagnostics.  On failure *out is
 * NULL and diag (may be NULL) holds "wgperf: error: FILE: ...". */
wgp_status wgp_gpu_load_file(const char *file, wgp_gpu **out, wgp_diag *diag);
/* The same from memory; NAME stands for the file in diagnostics. */
wgp_status wgp_gpu_load_string(const char *text, size_t len, const char *name, wgp_gpu **out, wgp_diag *diag);
/* A shipped description by name ("h100-sxm"; NULL means WGP_GPU_DEFAULT):
 * NAME.json is looked for in $WGPERF_GPU_DIR, then the source tree's gpus/,
 * then the installed share/wgperf/gpus/.  A name holds only [a-z0-9._-]. */
wgp_status wgp_gpu_load_builtin(const char *name, wgp_gpu **out, wgp_diag *diag);
/* A shipped description by file name (as wgp_gpu_load_builtin) or, failing
 * that, the one that goes by NAME compared without regard to case, '-', '_'
 * and spaces: its file name ("gtx980" for gtx-980.json), its identity.name
 * with or without "NVIDIA" ("GeForce GTX 980"), or one of its
 * identity.aliases (the short names measurement files use, "GTX-980",
 * "H100").  A name that more than one description goes by is an error that
 * lists them (a file in $WGPERF_GPU_DIR hides a later directory's file of
 * the same name). */
wgp_status wgp_gpu_find(const char *name, wgp_gpu **out, wgp_diag *diag);
/* What a --gpu option names: a description file (a path with '/' or a name
 * ending in .json), else a shipped description by name or alias
 * (wgp_gpu_find; NULL: WGP_GPU_DEFAULT).  An unknown name's message lists
 * the shipped names. */
wgp_status wgp_gpu_open(const char *spec, wgp_gpu **out, wgp_diag *diag);
/* The shipped descriptions' names, sorted per directory and each once,
 * written "a100, gtx-680, ..." into BUF (cut at SIZE); the number of names. */
size_t wgp_gpu_list_builtin(char *buf, size_t size);
void wgp_gpu_free(wgp_gpu *g); /* take; NULL is ignored */

/* The file the description came from (its diagnostics name). */
const char *wgp_gpu_file(const wgp_gpu *g);
/* The source of field KEY ("chip.warp_size", "ops.fp32_fma.latency_cycles"),
 * or NULL when there is no such field. */
const char *wgp_gpu_source(const wgp_gpu *g, const char *key);

const char *wgp_arch_name(wgp_arch a);
const char *wgp_coalescing_name(wgp_coalescing c);
const char *wgp_op_class_name(wgp_op_class c);
/* The class named NAME, or false when NAME is not an arithmetic class. */
bool wgp_op_class_from_name(const char *name, wgp_op_class *out);

/* ops.<class>: latency of one dependent operation, and operations (lanes)
 * completed per cycle per SM at full occupancy. */
double wgp_gpu_op_latency_cycles(const wgp_gpu *g, wgp_op_class c);
double wgp_gpu_op_throughput_per_cycle(const wgp_gpu *g, wgp_op_class c);
/* ops.<class>.instructions: machine instructions one operation of the class
 * takes (optional, 1 by default; e.g. 3 XMADs for a 32-bit multiply on
 * Maxwell, 2 for a 64-bit address before Volta) */
unsigned wgp_gpu_op_instructions(const wgp_gpu *g, wgp_op_class c);

/* compute_capability as two numbers: "9.0" -> 9, 0. */
unsigned wgp_gpu_cc_major(const wgp_gpu *g);
unsigned wgp_gpu_cc_minor(const wgp_gpu *g);

/* One accessor per field, each below the key it reads. */
/* identity.name: product name, used in messages */
const char *wgp_gpu_name(const wgp_gpu *g);
/* identity.aliases (optional): other names of the GPU; I below the count */
size_t wgp_gpu_num_aliases(const wgp_gpu *g);
const char *wgp_gpu_alias(const wgp_gpu *g, size_t i);
/* Whether NAME is one of the aliases, compared without regard to case. */
bool wgp_gpu_has_alias(const wgp_gpu *g, const char *name);
/* identity.architecture: architecture family */
wgp_arch wgp_gpu_architecture(const wgp_gpu *g);
/* identity.compute_capability: CUDA compute capability, "M.m" */
const char *wgp_gpu_compute_capability(const wgp_gpu *g);
/* chip.sm_count: streaming multiprocessors */
unsigned wgp_gpu_sm_count(const wgp_gpu *g);
/* chip.core_clock_mhz: SM clock the cycle figures refer to */
double wgp_gpu_core_clock_mhz(const wgp_gpu *g);
/* chip.warp_size: threads per warp */
unsigned wgp_gpu_warp_size(const wgp_gpu *g);
/* chip.schedulers_per_sm: warp schedulers per SM, each issuing one warp instruction per cycle */
unsigned wgp_gpu_schedulers_per_sm(const wgp_gpu *g);
/* limits.max_threads_per_block: threads per block */
unsigned wgp_gpu_max_threads_per_block(const wgp_gpu *g);
/* limits.max_block_dim_x: block size in x */
unsigned wgp_gpu_max_block_dim_x(const wgp_gpu *g);
/* limits.max_block_dim_y: block size in y */
unsigned wgp_gpu_max_block_dim_y(const wgp_gpu *g);
/* limits.max_block_dim_z: block size in z */
unsigned wgp_gpu_max_block_dim_z(const wgp_gpu *g);
/* limits.max_grid_dim_x, _y, _z (optional): work-groups (blocks) a launch may
 * have in dimension D (0 x, 1 y, 2 z); absent, the compute capability's
 * limit: 2^31-1 in x (65535 before 3.0), 65535 in y and z */
unsigned wgp_gpu_max_grid_dim(const wgp_gpu *g, unsigned d);
/* Whether a launch of GLOBAL work-items in groups of LOCAL (unused
 * dimensions 1) has no more groups per dimension than the grid limits;
 * when not, WHY (SIZE bytes, may be NULL) says which limit. */
bool wgp_gpu_grid_fits(const wgp_gpu *g, const uint64_t global[3], const uint64_t local[3], char *why, size_t size);
/* limits.max_warps_per_sm: resident warps per SM */
unsigned wgp_gpu_max_warps_per_sm(const wgp_gpu *g);
/* limits.max_blocks_per_sm: resident blocks per SM */
unsigned wgp_gpu_max_blocks_per_sm(const wgp_gpu *g);
/* limits.registers_per_sm: 32-bit registers per SM */
unsigned wgp_gpu_registers_per_sm(const wgp_gpu *g);
/* limits.max_registers_per_block: registers one block may hold */
unsigned wgp_gpu_max_registers_per_block(const wgp_gpu *g);
/* limits.max_registers_per_thread: registers one thread may use */
unsigned wgp_gpu_max_registers_per_thread(const wgp_gpu *g);
/* limits.register_alloc_unit_registers: registers are allocated in units of this many */
unsigned wgp_gpu_register_alloc_unit_registers(const wgp_gpu *g);
/* limits.register_alloc_granularity: what one allocation unit serves: warp or block */
wgp_reg_granularity wgp_gpu_register_alloc_granularity(const wgp_gpu *g);
/* limits.warp_alloc_granularity_warps: warps allowed by the register file are rounded down to a multiple of this */
unsigned wgp_gpu_warp_alloc_granularity_warps(const wgp_gpu *g);
/* limits.shared_per_sm_bytes: shared memory per SM (largest carveout) */
unsigned wgp_gpu_shared_per_sm_bytes(const wgp_gpu *g);
/* limits.shared_per_block_bytes: shared memory per block without opt-in (the static limit) */
unsigned wgp_gpu_shared_per_block_bytes(const wgp_gpu *g);
/* limits.shared_per_block_optin_bytes: shared memory per block with opt-in */
unsigned wgp_gpu_shared_per_block_optin_bytes(const wgp_gpu *g);
/* limits.shared_alloc_unit_bytes: shared memory is allocated per block in units of this many bytes */
unsigned wgp_gpu_shared_alloc_unit_bytes(const wgp_gpu *g);
/* limits.shared_reserved_per_block_bytes: shared memory the system reserves per resident block */
unsigned wgp_gpu_shared_reserved_per_block_bytes(const wgp_gpu *g);
/* memory.l1_bytes: L1 data cache capacity at its largest configuration */
unsigned wgp_gpu_l1_bytes(const wgp_gpu *g);
/* memory.l1_shared_bytes (optional; l1_bytes when absent): the SM's unified
 * L1/shared-memory array on Volta and later (Turing: 96 KB, of which L1 has
 * at most 64 KB) */
double wgp_gpu_l1_shared_bytes(const wgp_gpu *g);
/* The L1 left to cache data beside SHARED_BYTES of shared memory in use on
 * an SM: on Volta and later the unified array less the shared memory, at
 * most l1_bytes; before Volta, l1_bytes (a unit apart). */
double wgp_gpu_l1_beside_shared(const wgp_gpu *g, double shared_bytes);
/* memory.l1_line_bytes: L1 line */
unsigned wgp_gpu_l1_line_bytes(const wgp_gpu *g);
/* memory.l1_sector_bytes: L1 sector (fill granule) */
unsigned wgp_gpu_l1_sector_bytes(const wgp_gpu *g);
/* memory.l1_caches_global_loads: whether ordinary global loads are cached in L1 by default */
bool wgp_gpu_l1_caches_global_loads(const wgp_gpu *g);
/* Whether L1 takes a global request's lanes in phases, a wavefront per line
 * of each phase (Volta and later's L1TEX: wgp_coalesce_wavefronts), rather
 * than a pass per line of the whole request (Kepler to Pascal). */
bool wgp_gpu_l1_wavefronts_by_phase(const wgp_gpu *g);
/* Shared memory has its own pipe beside the load/store path to L1 (Maxwell,
 * Pascal): a shared request takes its issue on the load/store path and its
 * wavefronts in that pipe, where they queue; false (absent) when both share
 * one data stage (Kepler's L1/shared array, Volta and later's L1TEX). */
bool wgp_gpu_shared_own_pipe(const wgp_gpu *g);
/* The DRAM row geometry (optional, all five or none; 0 when absent: then no
 * row model, DRAM is a bandwidth only).  memory.dram_devices: devices that
 * open rows independently (GDDR5: one per 32 bits of bus);
 * memory.dram_banks_per_device; memory.dram_row_bytes: one device's row
 * (page); memory.dram_interleave_bytes: consecutive chunks of this size go
 * to successive devices; memory.dram_activate_window_ns: tFAW, the window in
 * which a device opens at most WGP_DRAM_ACTIVATIONS_PER_WINDOW rows. */
#define WGP_DRAM_ACTIVATIONS_PER_WINDOW 4
unsigned wgp_gpu_dram_devices(const wgp_gpu *g);
unsigned wgp_gpu_dram_banks_per_device(const wgp_gpu *g);
unsigned wgp_gpu_dram_row_bytes(const wgp_gpu *g);
unsigned wgp_gpu_dram_interleave_bytes(const wgp_gpu *g);
double wgp_gpu_dram_activate_window_ns(const wgp_gpu *g);
/* Row activations the whole memory can do per ns: devices x 4 / tFAW; 0
 * without the row geometry. */
double wgp_gpu_dram_activations_per_ns(const wgp_gpu *g);
/* compiler.strength_reduces_loop_addresses (optional, true unless said):
 * whether the counts after loop strength reduction apply (model.h). */
bool wgp_gpu_strength_reduces_loop_addresses(const wgp_gpu *g);
/* memory.l2_bytes: L2 capacity, whole chip */
unsigned wgp_gpu_l2_bytes(const wgp_gpu *g);
/* memory.l2_line_bytes: L2 line */
unsigned wgp_gpu_l2_line_bytes(const wgp_gpu *g);
/* memory.l2_sector_bytes: L2 sector */
unsigned wgp_gpu_l2_sector_bytes(const wgp_gpu *g);
/* memory.dram_bandwidth_gbps: DRAM bandwidth, GB/s (10^9 B/s) */
double wgp_gpu_dram_bandwidth_gbps(const wgp_gpu *g);
/* memory.dram_copy_bandwidth_gbps (optional, 0 when absent): bytes read plus
 * written per second by a copy, equal parts; the bus turning between reads
 * and writes makes it less than the read bandwidth on some GPUs */
double wgp_gpu_dram_copy_bandwidth_gbps(const wgp_gpu *g);
/* ns per byte written to DRAM in traffic that also reads: 2 / copy - 1 /
 * read bandwidth (a copy's time less its reads'), 1 / read bandwidth
 * without the copy bandwidth */
double wgp_gpu_dram_write_ns_per_byte(const wgp_gpu *g);
/* memory.l2_bandwidth_gbps: L2 bandwidth, GB/s, whole chip */
double wgp_gpu_l2_bandwidth_gbps(const wgp_gpu *g);
/* memory.l2_port_bytes_per_cycle (optional, 0 when absent): bytes one SM
 * moves to or from L2 per core cycle, each direction (its port on the
 * crossbar): a floor on an SM's L2 traffic, whatever the whole L2 could do */
double wgp_gpu_l2_port_bytes_per_cycle(const wgp_gpu *g);
/* memory.atomic_same_address_per_cycle (optional): global atomics on one
 * address applied per SM cycle, one after another at the L2 slice holding
 * it; absent, WGP_ATOMIC_SAME_ADDRESS_PER_CYCLE_DEFAULT: 1.3633 per ns
 * measured on the H100 SXM at its 1980 MHz (microbench/results/
 * h100-2026-11-22, atomic_global contended=1: every thread of the GPU
 * adding 1 into one word), the order of the one per clock NVIDIA's Kepler
 * GK110 whitepaper gives for atomics to a common address */
#define WGP_ATOMIC_SAME_ADDRESS_PER_CYCLE_DEFAULT 0.69
double wgp_gpu_atomic_same_address_per_cycle(const wgp_gpu *g);
/* memory.global_line_cycles: cycles the SM's load/store path spends on each
 * distinct L1 line (128 B) one global request touches */
double wgp_gpu_global_line_cycles(const wgp_gpu *g);
/* memory.shared_banks: shared-memory banks */
unsigned wgp_gpu_shared_banks(const wgp_gpu *g);
/* memory.shared_bank_width_bytes: bytes per bank */
unsigned wgp_gpu_shared_bank_width_bytes(const wgp_gpu *g);
/* memory.shared_bandwidth_bytes_per_cycle: shared-memory bandwidth per SM */
double wgp_gpu_shared_bandwidth_bytes_per_cycle(const wgp_gpu *g);
/* memory.coalescing: coalescing rule */
wgp_coalescing wgp_gpu_coalescing(const wgp_gpu *g);
/* latencies.shared_cycles: shared-memory load */
double wgp_gpu_latency_shared_cycles(const wgp_gpu *g);
/* latencies.l1_hit_cycles: global load that hits L1 */
double wgp_gpu_latency_l1_hit_cycles(const wgp_gpu *g);
/* latencies.l2_hit_cycles: global load that hits L2 */
double wgp_gpu_latency_l2_hit_cycles(const wgp_gpu *g);
/* latencies.dram_cycles: global load served by DRAM */
double wgp_gpu_latency_dram_cycles(const wgp_gpu *g);
/* latencies.constant_hit_cycles: constant-cache hit */
double wgp_gpu_latency_constant_hit_cycles(const wgp_gpu *g);
/* latencies.constant_miss_cycles: constant-cache miss */
double wgp_gpu_latency_constant_miss_cycles(const wgp_gpu *g);
/* latencies.shared_replay_cycles (optional, 0 when absent): extra latency of a
 * shared-memory load for each wavefront beyond those a conflict-free request
 * needs (Kepler and Maxwell replay the instruction once per extra wavefront) */
double wgp_gpu_latency_shared_replay_cycles(const wgp_gpu *g);
/* sync.barrier_base_cycles: barrier cost for a block: base */
double wgp_gpu_barrier_base_cycles(const wgp_gpu *g);
/* sync.barrier_per_warp_cycles: barrier cost for a block: per warp of the block */
double wgp_gpu_barrier_per_warp_cycles(const wgp_gpu *g);
/* launch.overhead_us: per-launch overhead, back-to-back launches */
double wgp_gpu_launch_overhead_us(const wgp_gpu *g);
/* launch.per_block_ns: extra launch time per block of the grid */
double wgp_gpu_launch_per_block_ns(const wgp_gpu *g);

#ifdef __cplusplus
}
#endif

#endif
