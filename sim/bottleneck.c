/* bottleneck.c - what limits a simulated launch, in words (bottleneck.h):
 * the access that moves the most bytes beyond those its lanes use, bank
 * conflicts that cost the pipeline, the bandwidth or contention bound the
 * simulator reports, occupancy, the L2 ports, barriers, latency or issue. */
#include "wgperf/bottleneck.h"

#include "wgperf/gpu.h"
#include "wgperf/model.h"

#include <stdio.h>
#include <string.h>

void wgp_bottleneck_words(const wgp_kernel *k, const wgp_gpu *gpu, const wgp_analysis *an, const wgp_cache_result *cache,
                          const wgp_sim_result *r, char *buf, size_t size) {
  const wgp_mem_stats *tot = wgp_analysis_total_stats(an);
  size_t worst = (size_t)-1;
  double worst_moved = 0, used = 0;
  for (size_t i = 0; i < wgp_kernel_num_accesses(k); i++) {
    double moved = tot[i].sectors * wgp_gpu_l2_sector_bytes(gpu);
    /* what L1 serves moves no further: the sectors of vload4's four
     * element loads, of a structure's fields read one after the other */
    if (cache && i < cache->num_accesses && cache->l1_hit[i] > 0)
      moved *= 1 - cache->l1_hit[i];
    if (wgp_access_space(wgp_kernel_access(k, i)) != WGP_SPACE_LOCAL) {
      used += tot[i].lane_bytes;
      if (moved > worst_moved)
        worst_moved = moved, worst = i;
    }
  }
  const char *lim = r->limiter ? r->limiter : "warps";
  double occ = (double)r->active_warps_per_sm / wgp_gpu_max_warps_per_sm(gpu);
  if (r->bound && strcmp(r->bound, "atomic_contention") == 0) {
    double rate = wgp_gpu_atomic_same_address_per_cycle(gpu);
    snprintf(buf, size,
             "atomics on one address: %.3g million atomic operations on the busiest address take their turn at "
             "its L2 slice, %.2f per cycle; add within the work-group first (shared memory, warp shuffles) and "
             "issue one atomic per group",
             r->atomic_us * wgp_gpu_core_clock_mhz(gpu) * rate / 1e6, rate);
    return;
  }
  /* bound by DRAM bandwidth with no more DRAM traffic than the bytes the
   * lanes use (the sectors one access wastes, its neighbours use: vstore4's
   * four element stores), coalescing would not make it faster */
  bool dram_useful = r->bound && strcmp(r->bound, "dram_bandwidth") == 0 && r->dram_bytes <= 1.25 * used;
  if (worst != (size_t)-1 && !dram_useful && tot[worst].lane_bytes > 0 && worst_moved > 2 * tot[worst].lane_bytes) {
    const wgp_access *a = wgp_kernel_access(k, worst);
    if (tot[worst].unknown > 0)
      /* the places come from loaded data, which the analysis draws at
       * random (docs/analyzer-rules.md): the figure is the data's */
      snprintf(buf, size,
               "global %ss at %s read places that depend on loaded data (taken as spread at random over their "
               "buffer; --buffer gives its size): %.1fx the bytes they use",
               wgp_access_kind_name(wgp_access_get_kind(a)), wgp_access_source(a) ? wgp_access_source(a) : "?",
               worst_moved / tot[worst].lane_bytes);
    else
      snprintf(buf, size, "global %ss at %s move %.1fx the bytes they use: uncoalesced",
               wgp_access_kind_name(wgp_access_get_kind(a)), wgp_access_source(a) ? wgp_access_source(a) : "?",
               worst_moved / tot[worst].lane_bytes);
    return;
  }
  /* bank conflicts cost issue slots and shared-memory wavefronts: named only
   * when the pipeline, not a bandwidth or contention bound, sets the time;
   * the access whose conflicts add the most wavefronts */
  bool pipeline = !r->bound || strcmp(r->bound, "pipeline") == 0;
  size_t conflicted = (size_t)-1;
  double extra = 0;
  for (size_t i = 0; pipeline && i < wgp_kernel_num_accesses(k); i++)
    if (wgp_access_space(wgp_kernel_access(k, i)) == WGP_SPACE_LOCAL && tot[i].worst_degree >= 4 &&
        tot[i].wavefronts - tot[i].phases > extra)
      extra = tot[i].wavefronts - tot[i].phases, conflicted = i;
  if (conflicted != (size_t)-1) {
    const wgp_access *a = wgp_kernel_access(k, conflicted);
    snprintf(buf, size, "shared-memory %ss at %s have %.0f-way bank conflicts%s",
             wgp_access_kind_name(wgp_access_get_kind(a)), wgp_access_source(a) ? wgp_access_source(a) : "?",
             tot[conflicted].worst_degree,
             tot[conflicted].unknown > 0 ? " (addresses known only at run time: expected for random ones)" : "");
    return;
  }
  /* waiting at the bandwidth that a group's warps do together: named when it
   * adds a tenth */
  char queue[256] = "";
  double busy_us = r->time_us - r->launch_overhead_us - r->queue_us;
  if (r->queue_groups > 0 && busy_us > 0 && r->queue_us > 0.1 * busy_us)
    snprintf(queue, sizeof queue,
             "; %.0f%% more waiting for it: each SM's %u work-groups drain together and leave its share idle "
             "(more, smaller work-groups per SM keep it busier)",
             100 * r->queue_us / busy_us, r->queue_groups);
  if (r->bound && strcmp(r->bound, "dram_bandwidth") == 0) {
    snprintf(buf, size, "DRAM bandwidth: %.3g MB must move at %.0f GB/s%s", r->dram_bytes / 1e6,
             wgp_gpu_dram_bandwidth_gbps(gpu), queue);
    return;
  }
  if (r->bound && strcmp(r->bound, "dram_rows") == 0) {
    snprintf(buf, size,
             "DRAM rows: %.3g MB in %.3g M row activations, %.1f B each, at %.3g per ns (%u devices, 4 per %g ns): "
             "scattered or column-wise global accesses",
             r->dram_bytes / 1e6, r->dram_activations / 1e6,
             r->dram_activations > 0 ? r->dram_bytes / r->dram_activations : 0, wgp_gpu_dram_activations_per_ns(gpu),
             wgp_gpu_dram_devices(gpu), wgp_gpu_dram_activate_window_ns(gpu));
    return;
  }
  if (r->bound && strcmp(r->bound, "l2_bandwidth") == 0) {
    snprintf(buf, size, "L2 bandwidth: %.3g MB through L2 at %.0f GB/s%s", r->l2_bytes / 1e6,
             wgp_gpu_l2_bandwidth_gbps(gpu), queue);
    return;
  }
  if (r->bound && strcmp(r->bound, "block_dispatch") == 0) {
    snprintf(buf, size,
             "work-group dispatch: the GPU starts one work-group every %.3g ns (launch.per_block_ns) and these "
             "finish sooner than that; larger work-groups would need fewer starts",
             wgp_gpu_launch_per_block_ns(gpu));
    return;
  }
  if (occ < 0.25) {
    snprintf(buf, size, "low occupancy: %u of %u warps per SM, limited by %s", r->active_warps_per_sm,
             wgp_gpu_max_warps_per_sm(gpu), lim);
    return;
  }
  double stall = r->mem_stall_cycles[0] + r->mem_stall_cycles[1] + r->mem_stall_cycles[2] + r->mem_stall_cycles[3];
  if (r->l2_port_busy >= 0.75 && stall > r->compute_cycles) {
    snprintf(buf, size,
             "the SMs' L2 ports: each SM's port to or from L2 is busy %.0f%% of the time at %g B per cycle; fewer "
             "bytes per warp from L2 (coalescing, reuse in shared memory or registers) would help",
             100 * r->l2_port_busy, wgp_gpu_l2_port_bytes_per_cycle(gpu));
    return;
  }
  if (r->barrier_cycles > stall && r->barrier_cycles > r->compute_cycles)
    snprintf(buf, size, "barriers: warps wait for their work-group");
  else if (stall > r->compute_cycles)
    snprintf(buf, size, "memory latency: warps wait on loads more than they compute");
  else
    snprintf(buf, size, "instruction issue and arithmetic");
}

