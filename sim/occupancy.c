/* occupancy.c - resident blocks and warps per SM (seeds/004 eq. 1-7).
 *
 * Assumptions, beyond seeds/004's equations:
 * - Registers: a warp gets ceil(regs x warp size, unit) registers (per-warp
 *   granularity, every NVIDIA GPU since Kepler); the SM's register file is
 *   split over its warp-allocation-granularity sub-partitions, so the warps it
 *   allows are floor(floor(regs per SM / regs per warp), G_warp) (eq. 4).  A
 *   block needing more than the per-block register maximum cannot launch.
 *   With per-block granularity the block's registers are rounded instead.
 * - Shared memory: static + dynamic + the per-block reserve (1 KiB from cc
 *   8.0), rounded up to the allocation unit (eq. 6), against the SM's largest
 *   carveout; static shared memory may not exceed the per-block default and
 *   the total may not exceed the opt-in maximum (the driver rejects both).
 * - Zero resident blocks is an error: the launch would fail.
 */
#include "wgperf/occupancy.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>

const char *wgp_limiter_name(wgp_limiter l) {
  switch (l) {
  case WGP_LIMIT_WARPS: return "warps";
  case WGP_LIMIT_GROUPS: return "groups";
  case WGP_LIMIT_REGISTERS: return "registers";
  case WGP_LIMIT_SHARED_MEMORY: return "shared_memory";
  }
  return "?";
}

static unsigned long long round_up(unsigned long long x, unsigned long long unit) {
  return unit ? (x + unit - 1) / unit * unit : x;
}

#if defined(__GNUC__)
static wgp_status fail(wgp_diag *diag, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#endif

static wgp_status fail(wgp_diag *diag, const char *fmt, ...) {
  if (diag) {
    int n = snprintf(diag->message, sizeof diag->message, "wgperf: error: ");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(diag->message + n, sizeof diag->message - (size_t)n, fmt, ap);
    va_end(ap);
  }
  return WGP_ERR_INPUT;
}

wgp_status wgp_occupancy_compute(const wgp_gpu *gpu, const wgp_occupancy_request *req, wgp_occupancy *out,
                                 wgp_diag *diag) {
  const char *name = wgp_gpu_name(gpu);
  unsigned threads = req->threads_per_block;
  unsigned warp = wgp_gpu_warp_size(gpu);
  *out = (wgp_occupancy){0};

  if (threads == 0)
    return fail(diag, "a block of 0 threads cannot run");
  if (threads > wgp_gpu_max_threads_per_block(gpu))
    return fail(diag, "block of %u threads exceeds the maximum of %u on %s", threads,
                wgp_gpu_max_threads_per_block(gpu), name);

  /* eq. 1-2: the architectural limits. */
  unsigned wpb = (threads + warp - 1) / warp;
  unsigned max_warps = wgp_gpu_max_warps_per_sm(gpu);
  out->warps_per_block = wpb;
  out->blocks_by_warps = max_warps / wpb;
  out->blocks_by_groups = wgp_gpu_max_blocks_per_sm(gpu);

  /* eq. 3-4: registers. */
  unsigned regs = req->registers_per_thread;
  unsigned long long warps_by_regs = 0;
  out->blocks_by_registers = UINT_MAX;
  if (regs > wgp_gpu_max_registers_per_thread(gpu))
    return fail(diag, "%u registers per thread exceed the maximum of %u on %s", regs,
                wgp_gpu_max_registers_per_thread(gpu), name);
  if (regs > 0) {
    unsigned long long unit = wgp_gpu_register_alloc_unit_registers(gpu);
    unsigned long long per_sm = wgp_gpu_registers_per_sm(gpu);
    unsigned long long block_regs;
    if (wgp_gpu_register_alloc_granularity(gpu) == WGP_REG_GRAN_WARP) {
      unsigned long long per_warp = round_up((unsigned long long)regs * warp, unit);
      unsigned long long g = wgp_gpu_warp_alloc_granularity_warps(gpu);
      warps_by_regs = per_sm / per_warp / g * g;
      out->registers_per_warp = (unsigned)per_warp;
      block_regs = per_warp * wpb;
      out->blocks_by_registers = (unsigned)(warps_by_regs / wpb);
    } else {
      block_regs = round_up((unsigned long long)regs * warp * wpb, unit);
      out->registers_per_warp = (unsigned)(block_regs / wpb);
      out->blocks_by_registers = (unsigned)(per_sm / block_regs);
      warps_by_regs = (unsigned long long)out->blocks_by_registers * wpb;
    }
    if (block_regs > wgp_gpu_max_registers_per_block(gpu))
      return fail(diag,
                  "block of %u threads at %u registers per thread needs %llu registers, more than the %u a block "
                  "may have on %s",
                  threads, regs, block_regs, wgp_gpu_max_registers_per_block(gpu), name);
  }

  /* eq. 5-6: shared memory. */
  unsigned long smem = req->static_shared_bytes + req->dynamic_shared_bytes;
  if (smem < req->static_shared_bytes)
    return fail(diag, "shared memory per block overflows");
  if (req->static_shared_bytes > wgp_gpu_shared_per_block_bytes(gpu))
    return fail(diag, "%lu bytes of static shared memory per block exceed the maximum of %u on %s",
                req->static_shared_bytes, wgp_gpu_shared_per_block_bytes(gpu), name);
  if (smem > wgp_gpu_shared_per_block_optin_bytes(gpu))
    return fail(diag, "%lu bytes of shared memory per block exceed the maximum of %u on %s", smem,
                wgp_gpu_shared_per_block_optin_bytes(gpu), name);
  unsigned long long alloc = round_up((unsigned long long)smem + wgp_gpu_shared_reserved_per_block_bytes(gpu),
                                      wgp_gpu_shared_alloc_unit_bytes(gpu));
  out->shared_bytes_per_block = (unsigned long)alloc;
  out->blocks_by_shared = alloc ? (unsigned)(wgp_gpu_shared_per_sm_bytes(gpu) / alloc) : UINT_MAX;

  /* eq. 7, with the limiter: the first of the smallest. */
  unsigned limits[] = {out->blocks_by_warps, out->blocks_by_groups, out->blocks_by_registers, out->blocks_by_shared};
  unsigned best = 0;
  for (unsigned i = 1; i < 4; i++)
    if (limits[i] < limits[best])
      best = i;
  out->limiter = (wgp_limiter)best;
  out->active_blocks_per_sm = limits[best];
  if (out->active_blocks_per_sm == 0) {
    if (best == WGP_LIMIT_REGISTERS)
      return fail(diag,
                  "block of %u threads at %u registers per thread does not fit on an SM of %s: its register file "
                  "holds %llu such warps, the block has %u",
                  threads, regs, name, warps_by_regs, wpb);
    return fail(diag, "block of %u threads does not fit on an SM of %s (limited by %s)", threads, name,
                wgp_limiter_name(out->limiter));
  }
  out->active_warps_per_sm = out->active_blocks_per_sm * wpb;
  out->occupancy = (double)out->active_warps_per_sm / max_warps;
  return WGP_OK;
}
