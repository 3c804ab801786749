/* estimate.c - one launch end to end (include/wgperf/estimate.h).
 *
 * Glue only: the analysis, occupancy, cache and pipeline modules decide
 * everything; this file fixes the order they run in and what flows between
 * them.  The occupancy comes before the cache analysis because the resident
 * groups decide how many groups share an SM's L1 and make a wave.
 */
#include "wgperf/estimate.h"
#include "wgperf/footprint.h"
#include "wgperf/occupancy.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

unsigned wgp_kernel_choose_registers(const wgp_kernel *k, unsigned override, const char **source) {
  const char *src = "--regs";
  unsigned regs = override;
  if (!regs)
    regs = wgp_kernel_registers(k, &src);
  if (!regs) {
    regs = wgp_kernel_register_pressure(k);
    src = "the IR estimate (the model has no count from NVIDIA's compiler: no CUDA toolkit, --registers estimate or "
          "an empty WGPERF_PTXAS, or the compiler failed)";
  }
  if (source)
    *source = src;
  return regs;
}

/* The most registers per thread with which MINB groups of THREADS work-items
 * fit on an SM of GPU, by its allocation rules (the occupancy's); 0 when no
 * count does.  What nvcc's __launch_bounds__(THREADS, MINB) makes ptxas
 * keep to (and NVIDIA's OpenCL compiler for a reqd_work_group_size, one
 * group). */
static unsigned bounded_registers(const wgp_gpu *gpu, uint64_t threads, uint64_t minb, unsigned from) {
  if (!threads || threads > wgp_gpu_max_threads_per_block(gpu))
    return 0;
  for (unsigned r = from; r > 0; r--) {
    wgp_occupancy_request req = {(unsigned)threads, r, 0, 0};
    wgp_occupancy o;
    if (wgp_occupancy_compute(gpu, &req, &o, NULL) == WGP_OK && o.blocks_by_registers >= minb)
      return r;
  }
  return 0;
}

/* GPU's architecture as resources entries name it: 86 for sm_86. */
static unsigned arch_of(const wgp_gpu *gpu) { return wgp_gpu_cc_major(gpu) * 10 + wgp_gpu_cc_minor(gpu); }

const wgp_kernel_resources *wgp_kernel_resources_on(const wgp_kernel *k, const wgp_gpu *gpu, bool *exact) {
  return wgp_kernel_resources_for(k, arch_of(gpu), exact);
}

unsigned wgp_kernel_registers_on(const wgp_kernel *k, const wgp_gpu *gpu, unsigned override, const char **source,
                                 char *note, size_t size) {
  const char *src;
  unsigned regs = wgp_kernel_choose_registers(k, override, &src), cap = wgp_gpu_max_registers_per_thread(gpu);
  bool exact = false;
  const wgp_kernel_resources *res = override ? NULL : wgp_kernel_resources_on(k, gpu, &exact);
  if (res) {
    /* what NVIDIA's compiler made for this GPU's architecture, or the
     * nearest one it was asked for */
    regs = res->registers;
    src = res->source;
    if (!exact && note && size) {
      snprintf(note, size, "%s; not asked for this GPU's sm_%u", src, arch_of(gpu));
      src = note;
    }
  }
  /* the IR estimate knows nothing of the kernel's launch bounds; ptxas'
   * count already keeps to them (the bitcode carries them as .maxntid,
   * .minnctapersm and .reqntid) */
  uint64_t reqd[3], threads = wgp_kernel_max_threads_per_block(k), minb = wgp_kernel_min_blocks_per_sm(k);
  if (!threads && wgp_kernel_reqd_work_group_size(k, reqd))
    threads = reqd[0] * reqd[1] * reqd[2];
  if (!override && !res && !wgp_kernel_registers(k, NULL) && threads) {
    unsigned b = bounded_registers(gpu, threads, minb ? minb : 1, regs < cap || !cap ? regs : cap);
    if (b && b < regs) {
      if (note && size) {
        snprintf(note, size, "%s: %u, at most %u to fit %llu group%s of %llu work-items (%s)", src, regs, b,
                 (unsigned long long)(minb ? minb : 1), minb > 1 ? "s" : "", (unsigned long long)threads,
                 wgp_kernel_launch_attribute(k));
        src = note;
      }
      regs = b;
    }
  }
  /* nvcc's -maxrregcount: NVIDIA's compiler's counts keep to it already,
   * the IR estimate does not.  ptxas takes no fewer than
   * WGP_PTXAS_MIN_MAXRREG ("Overriding maximum register limit 256 for 'k'
   * with 24 of maxrregcount option" for -maxrregcount=8 and 16) */
  unsigned given = wgp_kernel_max_registers_per_thread(k);
  unsigned maxr = given && given < WGP_PTXAS_MIN_MAXRREG ? WGP_PTXAS_MIN_MAXRREG : given;
  if (!override && !res && !wgp_kernel_registers(k, NULL) && maxr && regs > maxr) {
    if (note && size) {
      char was[WGP_REGS_NOTE_SIZE];
      snprintf(was, sizeof was, "%s", src);
      snprintf(note, size, "%s: %u, at most %u by -maxrregcount %u (the compiler spills the rest; the estimate does "
               "not price the spills)", was, regs, maxr, given);
      src = note;
    }
    regs = maxr;
  }
  if (!override && cap && regs > cap) {
    if (note && size) {
      char was[WGP_REGS_NOTE_SIZE];
      snprintf(was, sizeof was, "%s", src);
      snprintf(note, size, "%s: %u, capped at %s's limit of %u (its compiler would spill)", was, regs,
               wgp_gpu_name(gpu), cap);
      src = note;
    }
    regs = cap;
  }
  if (source)
    *source = src;
  return regs;
}

bool wgp_kernel_registers_binding(const wgp_kernel *k, const wgp_gpu *gpu, unsigned override) {
  bool exact = false;
  const wgp_kernel_resources *res = override ? NULL : wgp_kernel_resources_on(k, gpu, &exact);
  return override || (res && exact && res->from_source);
}

unsigned wgp_kernel_registers_for_group(const wgp_kernel *k, const wgp_gpu *gpu, unsigned override, uint64_t threads,
                                        const char **source, char *note, size_t size, bool *fitted) {
  const char *src;
  unsigned regs = wgp_kernel_registers_on(k, gpu, override, &src, note, size);
  if (fitted)
    *fitted = false;
  if (!regs || !threads || threads > wgp_gpu_max_threads_per_block(gpu) || wgp_kernel_registers_binding(k, gpu, override)) {
    if (source)
      *source = src;
    return regs;
  }
  wgp_occupancy_request req = {(unsigned)threads, regs, 0, 0};
  wgp_occupancy o;
  if (wgp_occupancy_compute(gpu, &req, &o, NULL) != WGP_OK || o.blocks_by_registers < 1) {
    /* a count that says the group cannot run, which NVIDIA's compiler for
     * this GPU did not give: the compiler, told the group's size (a
     * reqd_work_group_size, a __launch_bounds__) or failing the launch,
     * decides; ranked as if it kept to what one group may have */
    unsigned b = bounded_registers(gpu, threads, 1, regs);
    if (b && b < regs) {
      if (note && size) {
        char was[WGP_REGS_NOTE_SIZE];
        snprintf(was, sizeof was, "%s", src);
        snprintf(note, size,
                 "%s: %u would not fit a group of %llu, taken as %u (NVIDIA's compiler for this GPU was not asked; "
                 "it may spill or refuse the launch)",
                 was, regs, (unsigned long long)threads, b);
        src = note;
      }
      regs = b;
      if (fitted)
        *fitted = true;
    }
  }
  if (source)
    *source = src;
  return regs;
}

/* Machine-code bytes of one instruction on GPU: 16 since Volta (128-bit
 * instructions), 8 with a control word for each 3 on Maxwell and Pascal,
 * for each 7 on Kepler. */
static double instruction_bytes(const wgp_gpu *gpu) {
  unsigned major = wgp_gpu_cc_major(gpu);
  return major >= 7 ? 16 : major >= 5 ? 32.0 / 3 : 64.0 / 7;
}

void wgp_kernel_local_memory_on(const wgp_kernel *k, const wgp_gpu *gpu, double *stack_bytes, double *loads_per_insn,
                                double *stores_per_insn) {
  *stack_bytes = *loads_per_insn = *stores_per_insn = 0;
  const wgp_kernel_resources *res = wgp_kernel_resources_on(k, gpu, NULL);
  if (!res)
    return;
  *stack_bytes = (double)res->stack_bytes;
  /* spill instructions of 4 bytes (ptxas reports bytes; a 64- or 128-bit
   * spill moves the same bytes in fewer instructions) over the machine
   * instructions of the kernel, else over the model's own count */
  double ld = (double)res->spill_load_bytes / 4, st = (double)res->spill_store_bytes / 4;
  if (ld + st <= 0)
    return;
  double insns = res->code_bytes ? (double)res->code_bytes / instruction_bytes(gpu) : 0;
  if (!(insns > 0))
    for (size_t i = 0; i < wgp_kernel_num_static_counts(k); i++)
      insns += (double)wgp_kernel_static_count(k, i, NULL);
  /* per instruction of the trace, which has no spills itself */
  double others = fmax(1, insns - ld - st);
  *loads_per_insn = fmin(16, ld / others);
  *stores_per_insn = fmin(16, st / others);
}

/* As wgp_access_costs_new, into C (one entry per access of K, cleared). */
static void access_costs_fill(const wgp_kernel *k, const wgp_mem_stats *s, const wgp_cache_result *cache, double hit,
                              wgp_access_cost *c) {
  size_t n = wgp_kernel_num_accesses(k);
  for (size_t i = 0; i < n; i++) {
    double ex = s[i].executions > 0 ? s[i].executions : 1;
    wgp_space sp = wgp_access_space(wgp_kernel_access(k, i));
    c[i].requests = s[i].requests / ex;
    c[i].sectors = s[i].sectors / ex;
    c[i].wavefronts = s[i].wavefronts / ex;
    c[i].phases = sp == WGP_SPACE_LOCAL ? s[i].phases / ex : 0;
    /* a load whose cache operator keeps it out of L1 (cg, cv) never hits there */
    c[i].l1_hit = cache ? cache->l1_hit[i] : wgp_access_skips_l1(k, wgp_kernel_access(k, i)) ? 0 : hit;
    c[i].l2_hit = cache ? cache->l2_hit[i] : hit;
    c[i].dram_rows = cache && cache->dram_rows && cache->dram_rows[i] > 0 ? cache->dram_rows[i] : 0;
    c[i].last_known = cache && cache->last_l1 && cache->last_l1[i] >= 0 && cache->last_dram[i] >= 0;
    c[i].last_l1 = c[i].last_known ? cache->last_l1[i] : 0;
    c[i].last_dram = c[i].last_known ? cache->last_dram[i] : 0;
  }
}

wgp_access_cost *wgp_access_costs_new(const wgp_kernel *k, const wgp_mem_stats *s, const wgp_cache_result *cache,
                                      double hit) {
  size_t n = wgp_kernel_num_accesses(k);
  wgp_access_cost *c = calloc(n ? n : 1, sizeof *c);
  if (c)
    access_costs_fill(k, s, cache, hit, c);
  return c;
}

static uint64_t threads_per_group(const wgp_trace_launch *l) { return l->local[0] * l->local[1] * l->local[2]; }

/* Where an address expression varies: 2 from lane to lane (or with a loop,
 * a loaded value, anything unknown), 1 from group to group only, 0 not at
 * all. */
static int address_variation(const wgp_expr *e) {
  const wgp_sym *s = wgp_expr_symbol(e);
  if (s)
    switch (s->kind) {
    case WGP_SYM_GRP: return 1;
    case WGP_SYM_LID: case WGP_SYM_GID: case WGP_SYM_LANEID: case WGP_SYM_ITER: case WGP_SYM_RECUR:
    case WGP_SYM_LOAD: case WGP_SYM_UNKNOWN: return 2;
    default: return 0;
    }
  if (wgp_expr_get_op(e) == WGP_OP_LOAD || wgp_expr_get_op(e) == WGP_OP_FLOAT)
    return 2;
  int v = 0;
  for (size_t i = 0; i < wgp_expr_num_operands(e) && v < 2; i++) {
    int x = address_variation(wgp_expr_operand(e, i));
    v = x > v ? x : v;
  }
  return v;
}

/* wgp_sim_input.atomic_hot_ops: of the global atomics whose address is
 * the same for every thread of the launch (a sum every thread adds into),
 * or of a group (a group's partial sum), the most lane-level operations
 * on one address. */
static double atomic_hot_ops(const wgp_kernel *k, const wgp_mem_stats *tot, uint64_t groups) {
  double hot = 0;
  for (size_t i = 0; tot && i < wgp_kernel_num_accesses(k); i++) {
    const wgp_access *a = wgp_kernel_access(k, i);
    wgp_space sp = wgp_access_space(a);
    uint64_t bytes = wgp_access_bytes(a);
    if (wgp_access_get_kind(a) != WGP_ACCESS_ATOMIC || !wgp_space_is_global(sp) || !bytes ||
        !wgp_access_offset(a) || wgp_access_base_kind(a) == WGP_BASE_UNKNOWN)
      continue;
    int v = address_variation(wgp_access_offset(a));
    double ops = tot[i].lane_bytes / (double)bytes;
    if (v == 0 && ops > hot)
      hot = ops;
    else if (v == 1 && groups && ops / (double)groups > hot)
      hot = ops / (double)groups;
  }
  return hot;
}

static uint64_t groups_of(const wgp_trace_launch *l) {
  uint64_t g = 1;
  for (unsigned d = 0; d < 3; d++)
    g *= (l->global[d] + l->local[d] - 1) / l->local[d];
  return g;
}

/* wgp_simulate_analysis with IDLE_LONGEST as wgp_sim_input.idle_longest_chain */
static wgp_status simulate_analysis(const wgp_analysis_input *in, const wgp_analysis *an, unsigned regs,
                                    const wgp_cache_result *cache, double hit, unsigned flags, double idle_longest,
                                    wgp_sim_result *out, wgp_diag *diag) {
  const wgp_warp_set *ws = wgp_analysis_warps(an);
  size_t nw = wgp_warp_set_size(ws);
  wgp_sim_warp *w = calloc(nw ? nw : 1, sizeof *w);
  /* every class's access costs in one block */
  size_t na = wgp_kernel_num_accesses(in->kernel), per = na ? na : 1;
  wgp_access_cost *cs = calloc((nw ? nw : 1) * per, sizeof *cs);
  wgp_status st = w && cs ? WGP_OK : WGP_ERR_NOMEM;
  for (size_t i = 0; st == WGP_OK && i < nw; i++) {
    const wgp_warp_class *c = wgp_warp_set_class(ws, i);
    access_costs_fill(in->kernel, wgp_analysis_class_stats(an, i), cache, hit, cs + i * per);
    w[i] = (wgp_sim_warp){c->trace, cs + i * per, c->count, {c->group[0], c->group[1], c->group[2]}, c->warp};
  }
  if (st == WGP_OK) {
    uint64_t threads = threads_per_group(&in->launch);
    unsigned wsz = wgp_gpu_warp_size(in->gpu);
    wgp_sim_input si = {in->kernel,
                        in->gpu,
                        w,
                        nw,
                        groups_of(&in->launch),
                        (unsigned)((threads + wsz - 1) / wsz),
                        regs,
                        wgp_analysis_local_bytes(an),
                        threads,
                        flags,
                        atomic_hot_ops(in->kernel, wgp_analysis_total_stats(an), groups_of(&in->launch)),
                        0,
                        0,
                        0,
                        idle_longest};
    wgp_kernel_local_memory_on(in->kernel, in->gpu, &si.stack_bytes, &si.spill_loads_per_insn,
                               &si.spill_stores_per_insn);
    st = wgp_simulate(&si, out, diag);
  } else {
    wgp_diag_set(diag, st, "wgperf: error: out of memory");
  }
  free(cs);
  free(w);
  return st;
}

wgp_status wgp_simulate_analysis(const wgp_analysis_input *in, const wgp_analysis *an, unsigned regs,
                                 const wgp_cache_result *cache, double hit, unsigned flags, wgp_sim_result *out,
                                 wgp_diag *diag) {
  return simulate_analysis(in, an, regs, cache, hit, flags, 0, out, diag);
}

struct wgp_estimate {
  const wgp_analysis_input *in;
  wgp_analysis *an;
  unsigned regs;
  const char *regs_from;
  char regs_note[WGP_REGS_NOTE_SIZE]; /* regs_from when the count was capped */
  bool regs_fitted;                   /* the count did not fit a group and was taken as what does */
  wgp_occupancy occ;
  bool has_cache;
  bool owns_an; /* freed with the estimate */
  wgp_cache_result cache;
};

wgp_occupancy_request wgp_estimate_shared_request(const wgp_kernel *k, unsigned threads, unsigned regs,
                                                  uint64_t local) {
  /* CUDA: fixed-size arrays are static shared memory (48 KiB at most),
   * extern __shared__ arrays dynamic (up to the opt-in).  OpenCL has no
   * opt-in: NVIDIA's driver reports 48 KiB of local memory on every GPU, so
   * __local arguments count as static too. */
  uint64_t fixed = wgp_kernel_language(k) == WGP_LANG_OPENCL ? local : wgp_kernel_static_local_bytes(k);
  fixed = fixed < local ? fixed : local;
  wgp_occupancy_request req = {threads, regs, (unsigned long)fixed, (unsigned long)(local - fixed)};
  return req;
}

wgp_status wgp_estimate_new(const wgp_analysis_input *in, unsigned regs, wgp_estimate **out, wgp_diag *diag) {
  *out = NULL;
  wgp_analysis *an;
  wgp_status st = wgp_analyze(in, &an, diag);
  if (st != WGP_OK)
    return st;
  return wgp_estimate_from_analysis(in, an, regs, out, diag);
}

/* The sample took the launch as cold.  Its footprint is an estimate that
 * misses reuse between groups outside the sample (a matrix multiply's rows,
 * read by the groups of every column) and, over sampled loops, can be short
 * of it too: where the extent of a buffer's addresses over the launch is
 * known (isl, wgp_footprint_extents), it is the buffer's footprint instead
 * (at most its --buffer size), and the launch is decided again. */
static wgp_status warm_by_extents(wgp_estimate *e, const wgp_analysis_input *in, wgp_diag *diag) {
  size_t n = wgp_kernel_num_args(in->kernel);
  /* The extents cost milliseconds of isl per launch (a 3-D stencil's
   * domains: 0.1 s), and a search pays them per size: they are tried only
   * where an element per work-item of each buffer the launch touches would
   * fit in the L2, as a multiply's rows and columns or a stencil's grid
   * would, and where the spans the sample saw (each at most its buffer's
   * extent) fit where the data must; otherwise the sample's estimate
   * stands. */
  double *elem = calloc(n + 1, sizeof *elem), sum = 0;
  if (!elem)
    return wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
  for (size_t i = 0; i < wgp_kernel_num_accesses(in->kernel); i++) {
    const wgp_access *a = wgp_kernel_access(in->kernel, i);
    long arg = wgp_access_base_arg(a);
    size_t x = arg >= 0 && (size_t)arg < n ? (size_t)arg : n;
    double b = wgp_access_bytes(a) ? wgp_access_bytes(a) : 1;
    if (wgp_space_is_global(wgp_access_space(a)) && b > elem[x])
      elem[x] = b;
  }
  for (size_t x = 0; x <= n; x++)
    sum += elem[x];
  free(elem);
  double fit = 0.75 * (double)wgp_gpu_l2_bytes(in->gpu), seen = 0;
  for (size_t x = 0; e->cache.span && x < n && x < e->cache.num_bases; x++) {
    double b = e->cache.span[x] * wgp_gpu_l2_sector_bytes(in->gpu);
    seen += in->buffer_bytes && in->buffer_bytes[x] && (double)in->buffer_bytes[x] < b ? (double)in->buffer_bytes[x] : b;
  }
  if (wgp_launch_items(&in->launch) * sum > (double)wgp_gpu_l2_bytes(in->gpu) || seen > fit)
    return WGP_OK;
  double *ext = malloc((n ? n : 1) * sizeof *ext);
  if (!ext)
    return wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
  /* where no extent is known (all 0) the decision is the sample's again */
  wgp_status st = wgp_footprint_extents(in, ext, diag);
  if (st == WGP_OK)
    wgp_cache_warm_l2(&e->cache, in->kernel, in->gpu, wgp_analysis_total_stats(e->an), in->buffer_bytes, ext);
  free(ext);
  return st;
}

static wgp_status from_analysis(const wgp_analysis_input *in, wgp_analysis *an, bool owns, unsigned regs,
                                wgp_estimate **out, wgp_diag *diag) {
  *out = NULL;
  wgp_estimate *e = calloc(1, sizeof *e);
  if (!e) {
    if (owns)
      wgp_analysis_free(an);
    return wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
  }
  e->in = in;
  e->an = an;
  e->owns_an = owns;
  e->regs = wgp_kernel_registers_for_group(in->kernel, in->gpu, regs, threads_per_group(&in->launch), &e->regs_from,
                                           e->regs_note, sizeof e->regs_note, &e->regs_fitted);
  uint64_t local = wgp_analysis_local_bytes(e->an);
  wgp_occupancy_request req = wgp_estimate_shared_request(in->kernel, (unsigned)threads_per_group(&in->launch), e->regs, local);
  wgp_status st = wgp_occupancy_compute(in->gpu, &req, &e->occ, diag);
  if (st == WGP_OK)
    st = wgp_cache_analyze(in, e->occ.active_blocks_per_sm, local, &e->cache, diag);
  e->has_cache = st == WGP_OK;
  if (st == WGP_OK && !in->l2_cold &&
      !wgp_cache_warm_l2(&e->cache, in->kernel, in->gpu, wgp_analysis_total_stats(e->an), in->buffer_bytes, NULL))
    st = warm_by_extents(e, in, diag);
  if (st != WGP_OK) {
    wgp_estimate_free(e);
    return st;
  }
  *out = e;
  return WGP_OK;
}

wgp_status wgp_estimate_from_analysis(const wgp_analysis_input *in, wgp_analysis *an, unsigned regs,
                                      wgp_estimate **out, wgp_diag *diag) {
  return from_analysis(in, an, true, regs, out, diag);
}

wgp_status wgp_estimate_with_analysis(const wgp_analysis_input *in, const wgp_analysis *an, unsigned regs,
                                      wgp_estimate **out, wgp_diag *diag) {
  /* never freed through the estimate, nor changed */
  return from_analysis(in, (wgp_analysis *)an, false, regs, out, diag);
}

void wgp_estimate_free(wgp_estimate *e) {
  if (!e)
    return;
  if (e->has_cache)
    wgp_cache_result_free(&e->cache);
  if (e->owns_an)
    wgp_analysis_free(e->an);
  free(e);
}

const wgp_analysis *wgp_estimate_analysis(const wgp_estimate *e) { return e->an; }
const wgp_cache_result *wgp_estimate_cache(const wgp_estimate *e) { return &e->cache; }
const wgp_occupancy *wgp_estimate_occupancy(const wgp_estimate *e) { return &e->occ; }
uint64_t wgp_estimate_groups(const wgp_estimate *e) { return groups_of(&e->in->launch); }

unsigned wgp_estimate_registers(const wgp_estimate *e, const char **source) {
  if (source)
    *source = e->regs_from;
  return e->regs;
}

bool wgp_estimate_registers_fitted(const wgp_estimate *e) { return e->regs_fitted; }

wgp_status wgp_estimate_simulate(const wgp_estimate *e, unsigned flags, wgp_sim_result *out, wgp_diag *diag) {
  return wgp_simulate_analysis(e->in, e->an, e->regs, &e->cache, -1, flags, out, diag);
}

wgp_status wgp_analysis_bounds(const wgp_analysis_input *in, const wgp_analysis *an, unsigned regs, double *best_us,
                               double *worst_us, wgp_diag *diag) {
  wgp_sim_result hit, miss;
  wgp_status st = simulate_analysis(in, an, regs, NULL, 1.0, WGP_SIM_BOUNDS_ONLY, 0, &hit, diag);
  if (st == WGP_OK)
    st = simulate_analysis(in, an, regs, NULL, 0.0, WGP_SIM_BOUNDS_ONLY, 0, &miss, diag);
  if (st != WGP_OK)
    return st;
  double best = hit.best_us, worst = miss.worst_us;
  /* Warps that exit at once leave the rounds when their chain is short
   * beside the longest class's (pipeline.h), and the longest grows with the
   * misses: every miss leaves the most of them out, every hit the fewest, and
   * the estimate's hit rates some between.  The best case takes the most of
   * them with every access hitting, the worst the fewest with every one
   * missing.  (Before, a launch whose groups exit at once only by the chain
   * of every miss had a best case above its estimate and its worst:
   * fuzz/regress/estimate/bounds-idle-groups-by-hit-rate.) */
  if (hit.idle_groups > 0 || miss.idle_groups > 0) {
    wgp_sim_result most, fewest;
    st = simulate_analysis(in, an, regs, NULL, 1.0, WGP_SIM_BOUNDS_ONLY, miss.longest_chain, &most, diag);
    if (st == WGP_OK)
      st = simulate_analysis(in, an, regs, NULL, 0.0, WGP_SIM_BOUNDS_ONLY, hit.longest_chain, &fewest, diag);
    if (st != WGP_OK)
      return st;
    best = fmin(best, most.best_us), worst = fmax(worst, fewest.worst_us);
  }
  *best_us = best, *worst_us = worst;
  return WGP_OK;
}

wgp_status wgp_estimate_bounds(const wgp_analysis_input *in, unsigned regs, double *best_us, double *worst_us,
                               wgp_diag *diag) {
  wgp_analysis *an;
  wgp_status st = wgp_analyze(in, &an, diag);
  if (st != WGP_OK)
    return st;
  /* the registers and the occupancy as from_analysis takes them */
  uint64_t threads = threads_per_group(&in->launch);
  unsigned r = wgp_kernel_registers_for_group(in->kernel, in->gpu, regs, threads, NULL, NULL, 0, NULL);
  wgp_occupancy_request req =
      wgp_estimate_shared_request(in->kernel, (unsigned)threads, r, wgp_analysis_local_bytes(an));
  wgp_occupancy occ;
  st = wgp_occupancy_compute(in->gpu, &req, &occ, diag);
  if (st == WGP_OK)
    st = wgp_analysis_bounds(in, an, r, best_us, worst_us, diag);
  wgp_analysis_free(an);
  return st;
}
