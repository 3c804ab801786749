/* baseline.c - the BSP model of seeds/003 and a seeds/002-style roofline
 * (include/wgperf/baseline.h lists their equations and assumptions). */
#include "wgperf/baseline.h"

#include <math.h>
#include <string.h>

double wgp_analysis_lane_ops(const wgp_kernel *k, const wgp_analysis *an, wgp_op_class c) {
  const char *cls = wgp_op_class_name(c);
  const wgp_warp_set *ws = wgp_analysis_warps(an);
  double n = 0;
  for (size_t b = 0; b < wgp_kernel_num_blocks(k); b++) {
    uint64_t per = wgp_block_count_of(wgp_kernel_block(k, b), cls);
    if (!per)
      continue;
    for (size_t w = 0; w < wgp_warp_set_size(ws); w++) {
      const wgp_warp_class *wc = wgp_warp_set_class(ws, w);
      n += wc->count * wgp_trace_lane_executions(wc->trace, b) * (double)per;
    }
  }
  return n;
}

static bool is_global(wgp_space s) { return s == WGP_SPACE_GLOBAL || s == WGP_SPACE_GENERIC || s == WGP_SPACE_PRIVATE; }

wgp_status wgp_baseline_bsp(const wgp_kernel *k, const wgp_gpu *gpu, const wgp_analysis *an, uint64_t threads,
                            wgp_bsp_result *out, wgp_diag *diag) {
  memset(out, 0, sizeof *out);
  if (threads == 0)
    return wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: kernel '%s': BSP baseline of a launch of no thread",
                        wgp_kernel_name(k));
  double t = (double)threads;
  out->threads = t;
  static const struct {
    wgp_op_class c;
    double cycles;
  } costs[] = {{WGP_OP_FP32_FMA, WGP_BSP_FMA_CYCLES}, {WGP_OP_FP64_FMA, WGP_BSP_FMA_CYCLES},
               {WGP_OP_FP16_FMA, WGP_BSP_FMA_CYCLES}, {WGP_OP_FP32_ADD, WGP_BSP_ADD_CYCLES},
               {WGP_OP_FP64_ADD, WGP_BSP_ADD_CYCLES}, {WGP_OP_FP16_ADD, WGP_BSP_ADD_CYCLES},
               {WGP_OP_FP32_MUL, WGP_BSP_MUL_CYCLES}, {WGP_OP_FP64_MUL, WGP_BSP_MUL_CYCLES},
               {WGP_OP_FP16_MUL, WGP_BSP_MUL_CYCLES}, {WGP_OP_FP32_DIV, WGP_BSP_DIV_CYCLES},
               {WGP_OP_FP64_DIV, WGP_BSP_DIV_CYCLES}, {WGP_OP_FP16_DIV, WGP_BSP_DIV_CYCLES}};
  for (size_t i = 0; i < sizeof costs / sizeof costs[0]; i++)
    out->comp_cycles += wgp_analysis_lane_ops(k, an, costs[i].c) * costs[i].cycles;
  out->comp_cycles /= t;
  const wgp_mem_stats *s = wgp_analysis_total_stats(an);
  for (size_t i = 0; i < wgp_kernel_num_accesses(k); i++) {
    const wgp_access *a = wgp_kernel_access(k, i);
    uint64_t bytes = wgp_access_bytes(a);
    double lanes = bytes ? s[i].lane_bytes / (double)bytes / t : 0;
    wgp_access_kind kind = wgp_access_get_kind(a);
    wgp_space sp = wgp_access_space(a);
    if (is_global(sp)) {
      if (kind == WGP_ACCESS_LOAD)
        out->ld_global += lanes;
      else if (kind == WGP_ACCESS_STORE)
        out->st_global += lanes;
      else /* an atomic reads and writes */
        out->ld_global += lanes, out->st_global += lanes;
    } else if (sp == WGP_SPACE_LOCAL) {
      if (kind == WGP_ACCESS_LOAD)
        out->ld_shared += lanes;
      else if (kind == WGP_ACCESS_STORE)
        out->st_shared += lanes;
      else
        out->ld_shared += lanes, out->st_shared += lanes;
    }
  }
  out->cores = wgp_gpu_sm_count(gpu) * wgp_gpu_op_throughput_per_cycle(gpu, WGP_OP_FP32_FMA);
  double per_thread = out->comp_cycles + (out->ld_global + out->st_global) * WGP_BSP_G_GLOBAL_CYCLES +
                      (out->ld_shared + out->st_shared) * WGP_BSP_G_SHARED_CYCLES;
  out->time_s = t * per_thread / (wgp_gpu_core_clock_mhz(gpu) * 1e6 * out->cores);
  return WGP_OK;
}

wgp_status wgp_baseline_roofline(const wgp_kernel *k, const wgp_gpu *gpu, const wgp_analysis *an,
                                 const wgp_cache_result *cache, uint64_t groups, wgp_roofline_result *out,
                                 wgp_diag *diag) {
  memset(out, 0, sizeof *out);
  if (cache->num_accesses != wgp_kernel_num_accesses(k))
    return wgp_diag_set(diag, WGP_ERR_INPUT,
                        "wgperf: error: kernel '%s': roofline baseline: cache result for %zu accesses, kernel has %zu",
                        wgp_kernel_name(k), cache->num_accesses, wgp_kernel_num_accesses(k));
  double hz = wgp_gpu_core_clock_mhz(gpu) * 1e6, sms = wgp_gpu_sm_count(gpu);
  double sector = wgp_gpu_l2_sector_bytes(gpu);
  const wgp_mem_stats *s = wgp_analysis_total_stats(an);
  out->dram_bytes = (cache->dram_read_bytes_per_group + cache->dram_write_bytes_per_group) * (double)groups;
  for (size_t i = 0; i < wgp_kernel_num_accesses(k); i++) {
    const wgp_access *a = wgp_kernel_access(k, i);
    wgp_space sp = wgp_access_space(a);
    if (is_global(sp)) {
      double miss = 1;
      if (wgp_access_get_kind(a) == WGP_ACCESS_LOAD && cache->l1_hit[i] >= 0)
        miss = 1 - cache->l1_hit[i];
      out->l2_bytes += s[i].sectors * sector * miss;
      out->l1_cycles += s[i].lines;
    } else if (sp == WGP_SPACE_LOCAL) {
      out->l1_cycles += s[i].wavefronts;
    }
  }
  double ops_cycles = 0; /* SM-cycles of the whole launch */
  for (int c = 0; c < WGP_OP_COUNT; c++) {
    double n = wgp_analysis_lane_ops(k, an, (wgp_op_class)c);
    if (n > 0) {
      out->lane_ops += n;
      ops_cycles += n / wgp_gpu_op_throughput_per_cycle(gpu, (wgp_op_class)c);
    }
  }
  out->dram_s = out->dram_bytes / (wgp_gpu_dram_bandwidth_gbps(gpu) * 1e9);
  out->l2_s = out->l2_bytes / (wgp_gpu_l2_bandwidth_gbps(gpu) * 1e9);
  out->l1_s = out->l1_cycles / (sms * hz);
  out->ops_s = ops_cycles / (sms * hz);
  out->time_s = out->dram_s;
  out->limiter = "dram";
  if (out->l2_s > out->time_s)
    out->time_s = out->l2_s, out->limiter = "l2";
  if (out->l1_s > out->time_s)
    out->time_s = out->l1_s, out->limiter = "l1";
  if (out->ops_s > out->time_s)
    out->time_s = out->ops_s, out->limiter = "ops";
  return WGP_OK;
}
