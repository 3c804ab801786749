/* metrics.h - what each memory instruction costs, per warp.
 *
 * For every access of the kernel model and every distinct warp of a launch,
 * the lane addresses are evaluated at each execution of the access (so
 * accesses in loops are averaged over their iterations) on a virtual
 * placement of the buffers:
 * - global: pointer arguments are placed one after the other, each aligned
 *   to its alignment (default 256 B, what cudaMalloc and OpenCL drivers
 *   give); a request touches the distinct sectors and lines of its active
 *   lanes (GPU description: sector and line sizes);
 * - local (shared): static arrays in model order, then __local pointer
 *   arguments, each 16 B aligned from offset 0; the cost of a request is its
 *   bank wavefronts (banks x bank width of the GPU description; lanes reading
 *   the same word share it; 8 B and 16 B accesses are split into 16 and 8
 *   lane phases, as NVIDIA documents for Volta and later);
 * - constant: the number of distinct addresses (the constant cache serves one
 *   address per cycle);
 * - private: interleaved per lane as CUDA local memory is (a word of all
 *   lanes is contiguous), then counted like global.
 * An address that cannot be evaluated for a lane (a loaded index, an
 * unknown) is counted as if every such lane touched its own sector / its own
 * bank, and the execution is counted as unknown.
 */
#ifndef WGPERF_METRICS_H
#define WGPERF_METRICS_H

#include "wgperf/gpu.h"
#include "wgperf/trace.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct wgp_mem_stats {
  double executions;   /* warp-level executions (weighted, sampled stretches expanded) */
  double requests;     /* memory requests (warp-level instructions) */
  double sectors;      /* global/private: distinct sectors touched */
  double lines;        /* global/private: distinct lines touched */
  double wavefronts;   /* local: bank wavefronts; constant: distinct addresses; global: the load/store
                        * path's passes (the distinct lines, but a Maxwell store's L2 write
                        * transactions, nvprof's gst count: docs/simulator.md) */
  double phases;       /* local: conflict-free wavefronts the requests would need (2 per 8 B request,
                        * 4 per 16 B one); wavefronts / phases is the bank-conflict degree */
  double worst_degree; /* local: the largest bank-conflict degree of one request */
  double lane_bytes;   /* bytes the active lanes asked for */
  double unknown;      /* executions with at least one lane whose address is unknown */
  double outside;      /* local: executions with a lane's bytes outside its __local array (of known size) */
  double outside_reach; /* local: the most bytes by which a lane's access left its array */
} wgp_mem_stats;

/* Where buffers are: byte address of the first element of each base. */
typedef struct wgp_layout wgp_layout;

/* BUFFER_ALIGN (may be NULL) gives per argument index an alignment in bytes
 * (0 = default 256); LOCAL_BYTES (may be NULL; as wgp_launch_bind fills it)
 * the size of each __local pointer argument, then of each dynamic shared
 * array (0 = unknown: laid out with 0 bytes). */
wgp_status wgp_layout_new(const wgp_kernel *k, const uint64_t *buffer_align, const uint64_t *local_bytes,
                          wgp_layout **out, wgp_diag *diag);
void wgp_layout_free(wgp_layout *l);
uint64_t wgp_layout_local_bytes(const wgp_layout *l); /* shared memory the group needs */
/* The address the offsets of access ID of K are added to. */
uint64_t wgp_layout_access_base(const wgp_layout *l, const wgp_kernel *k, size_t id);
/* Local accesses: the bytes of the __local array (or argument) access ID
 * reads or writes, 0 when unknown or not local. */
uint64_t wgp_layout_access_limit(const wgp_layout *l, size_t id);
/* The region each global access's offsets from loaded data fall in (a gather
 * x[col[j]], wgp_tracer_track_loads): its buffer's size where BUFFER_BYTES
 * (per argument, may be NULL) gives one, else an element per work-item of
 * the launch (ITEMS; an index space the size of the launch, as a vector
 * indexed by a column or a node), at least a SECTOR.  False when out of
 * memory.  Without it, such offsets wrap at 4 GiB. */
bool wgp_layout_set_regions(wgp_layout *l, const uint64_t *buffer_bytes, double items, unsigned sector);
double wgp_layout_region(const wgp_layout *l, size_t id); /* 0 before wgp_layout_set_regions */

/* Collects statistics while a tracer runs: install with wgp_metrics_attach,
 * then every traced warp adds to the current stats; wgp_metrics_take_into
 * copies them to OUT (wgp_metrics_num_accesses entries) and starts afresh.
 * Arrays have one entry per access id. */
typedef struct wgp_metrics wgp_metrics;
wgp_status wgp_metrics_new(const wgp_kernel *k, const wgp_gpu *gpu, const wgp_layout *layout, wgp_metrics **out,
                           wgp_diag *diag);
void wgp_metrics_free(wgp_metrics *m);
void wgp_metrics_attach(wgp_metrics *m, wgp_tracer *t);
void wgp_metrics_take_into(wgp_metrics *m, wgp_mem_stats *out);
size_t wgp_metrics_num_accesses(const wgp_metrics *m);

/* The byte addresses of access A for the lanes of MASK at the current point of
 * tracer T (call from a visitor); returns the lanes whose address is known
 * (the others get an address of their own). */
uint64_t wgp_access_addresses(const wgp_layout *layout, const wgp_kernel *k, unsigned lanes, wgp_tracer *t,
                              const wgp_access *a, uint64_t mask, uint64_t *addr);
/* The same; where T tracks loads (wgp_tracer_track_loads), global lanes
 * whose offsets come from loaded values get them wrapped into the access's
 * region (wgp_layout_set_regions) and *DATA (may be NULL) says which. */
uint64_t wgp_access_addresses_data(const wgp_layout *layout, const wgp_kernel *k, unsigned lanes, wgp_tracer *t,
                                   const wgp_access *a, uint64_t mask, uint64_t *addr, uint64_t *data);

/* Per access id of K: the first access before it in its block (program
 * order) of the same space and width whose offset is the same expression
 * (so at one visit of the block both have the same offsets in every lane),
 * or WGP_NO_TWIN.  NULL when out of memory (give: free()). */
#define WGP_NO_TWIN UINT32_MAX
uint32_t *wgp_offset_twins(const wgp_kernel *k);

/* Counting rules (coalesce.h, banks.h; docs/analyzer-rules.md) with the
 * metrics' double interface: ADDR[i] for lanes in MASK. */
void wgp_count_global(const uint64_t *addr, uint64_t mask, unsigned lanes, unsigned bytes, unsigned sector,
                      unsigned line, double *sectors, double *lines);
void wgp_count_banks(const uint64_t *addr, uint64_t mask, unsigned lanes, unsigned bytes, unsigned banks,
                     unsigned bank_width, double *wavefronts, double *phases, double *worst_degree);
/* The shared-memory rule of GPU: wgp_count_banks with its banks, or on
 * Kepler (wgp_counter_rules_for) its 64-bit bank rows; WORST_DEGREE there is
 * the transactions over the conflict-free ones. */
void wgp_count_shared_for(const wgp_gpu *gpu, const uint64_t *addr, uint64_t mask, unsigned lanes, unsigned bytes,
                          double *wavefronts, double *phases, double *worst_degree);
double wgp_count_distinct(const uint64_t *addr, uint64_t mask, unsigned lanes);

#ifdef __cplusplus
}
#endif

#endif
