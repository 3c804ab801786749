/* stream.c - a basic block as a warp's instruction stream (seeds/004 sec. 5.1.2).
 *
 * Assumptions (docs/simulator.md):
 * - A block's arithmetic cost classes become one warp instruction per count
 *   on the class's unit (FP32 with FP16, FP64, INT with addresses and
 *   compares, SFU, conversions).  Every scheduler (SM sub-partition) has its
 *   own units, each with its share of the SM's throughput, so a unit is held
 *   warp size x schedulers / throughput cycles; the warp's next instruction
 *   waits the class's latency (each arithmetic instruction is taken to
 *   depend on the one before, as in seeds/004; a block's loads are the
 *   exception: they are independent of each other).  The load/store path is
 *   one per SM.
 * - Memory accesses come from the block's access list with their
 *   wgp_access_cost; the ld/st/atom count classes are not counted again.
 *   Pre-wait: the load/store path (LSU) is held for the access's
 *   transactions: shared wavefronts x (banks x bank width / shared bandwidth),
 *   global: the larger of distinct lines x global_line_cycles and sectors x
 *   sector / the L1 data path (taken as wide as the shared path), constant
 *   distinct addresses x 1 cycle; at least one cycle per request.  Delay: the latency of the level that serves it, weighted by the
 *   hit rates.  Post-wait: what is left of the latency.  The loads of a
 *   block issue back to back and the first other instruction waits for all
 *   of them (memory-level parallelism, the scoreboard); an atomic (served at
 *   L2) blocks its warp until the data arrives; a store lets the warp go on
 *   after issue.
 * - Unknown hit rates: global loads miss L1 and L2 (streaming, compulsory
 *   misses); constant loads hit.  Global loads never hit L1 on a GPU whose
 *   L1 does not cache them.
 * - Order inside a block is unknown: its loads come first (the compiler
 *   hoists them; consecutive loads of a block overlap in issue()), those
 *   whose address needs another load of the block after it (a gather waits
 *   for the indices it reads), then the
 *   arithmetic spread evenly between the stores and atomics (program order), classes
 *   interleaved; barriers come last but for branches and other issue-only
 *   instructions.
 * - Constant operands (docs/simulator.md, "Instructions"): a load of a
 *   __constant__ table at an address known at compile time is an operand of
 *   the instruction that uses it: its issue slot and its turn on the
 *   load/store path among the arithmetic, in program order, and no wait.
 * - Local memory (docs/simulator.md, "Local memory"): a private access the
 *   model keeps (an array indexed at run time) and the spill loads and stores
 *   NVIDIA's compiler adds are local-memory accesses through L1 and L2, a
 *   lane's 4-byte words interleaved with the warp's (one 128 B request per
 *   4-byte spill of a full warp).  The spills are spread over the code at the
 *   density the compiler's report gives (spill instructions per machine
 *   instruction): a block of N instructions has N x that many, its spill
 *   loads issued with its other loads, its spill stores among the
 *   arithmetic.  They hit L1 and L2 at the share of the resident threads'
 *   stack frames each holds (wgp_sim_local_hits).
 */
#include "pipeline_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

wgp_status wgp_sim_fail(wgp_diag *diag, wgp_status st, const char *fmt, ...) {
  if (diag) {
    int n = snprintf(diag->message, sizeof diag->message, "wgperf: error: ");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(diag->message + n, sizeof diag->message - (size_t)n, fmt, ap);
    va_end(ap);
  }
  return st;
}

static wgp_unit unit_of(wgp_op_class op) {
  switch (op) {
  case WGP_OP_FP32_ADD:
  case WGP_OP_FP32_MUL:
  case WGP_OP_FP32_FMA:
  case WGP_OP_FP32_DIV:
  case WGP_OP_FP16_ADD:
  case WGP_OP_FP16_MUL:
  case WGP_OP_FP16_FMA:
  case WGP_OP_FP16_DIV: return WGP_UNIT_FP32;
  case WGP_OP_FP64_ADD:
  case WGP_OP_FP64_MUL:
  case WGP_OP_FP64_FMA:
  case WGP_OP_FP64_DIV:
  case WGP_OP_FP64_SPECIAL: return WGP_UNIT_FP64;
  case WGP_OP_SFU_FAST: return WGP_UNIT_SFU;
  case WGP_OP_SFU_SQRT:
  case WGP_OP_SFU_RSQRT:
  case WGP_OP_SFU_SIN:
  case WGP_OP_SFU_COS:
  case WGP_OP_SFU_TAN:
  case WGP_OP_SFU_EXP:
  case WGP_OP_SFU_LOG:
  case WGP_OP_SFU_POW: return WGP_UNIT_SFU;
  case WGP_OP_CONV: return WGP_UNIT_CONV;
  default: return WGP_UNIT_INT;
  }
}

typedef struct builder {
  wgp_insn *v;
  size_t n, cap;
} builder;

static bool push(builder *b, const wgp_insn *i) {
  if (b->n == b->cap) {
    size_t cap = b->cap ? 2 * b->cap : 16;
    wgp_insn *v = realloc(b->v, cap * sizeof *v);
    if (!v)
      return false;
    b->v = v;
    b->cap = cap;
  }
  b->v[b->n++] = *i;
  return true;
}

/* Cycles one shared-memory wavefront (a word from every bank) takes. */
static double shared_wave_cycles(const wgp_gpu *g) {
  return wgp_gpu_shared_banks(g) * (double)wgp_gpu_shared_bank_width_bytes(g) /
         wgp_gpu_shared_bandwidth_bytes_per_cycle(g);
}

void wgp_sim_local_hits(const wgp_sim_input *in, unsigned active_warps_per_sm, unsigned active_groups_per_sm,
                        double *l1_hit, double *l2_hit) {
  const wgp_gpu *g = in->gpu;
  double frames = in->stack_bytes * (double)active_warps_per_sm * wgp_gpu_warp_size(g);
  /* on Volta and later L1 and shared memory are one array */
  double l1 = wgp_gpu_l1_beside_shared(g, (double)active_groups_per_sm * (double)in->smem_per_group_bytes);
  /* SMs that hold frames at once: every SM, or as many as the launch fills */
  double sms = fmin((double)wgp_gpu_sm_count(g),
                    ceil((double)in->groups_total / (active_groups_per_sm ? active_groups_per_sm : 1)));
  *l1_hit = frames > 0 ? fmin(1, l1 / frames) : 1;
  *l2_hit = frames > 0 ? fmin(1, (double)wgp_gpu_l2_bytes(g) / (frames * sms)) : 1;
}

/* A local-memory access of BYTES per lane by a whole warp (a spill, or a
 * private access with its own sector count SECTORS, 0: BYTES x lanes / 32 B
 * sectors): through L1 and L2 at the local hit rates. */
static void local_insn(const wgp_sim_ctx *c, bool store, double bytes, double sectors, wgp_insn *out, double *dram,
                       double *l2) {
  const wgp_gpu *g = c->in->gpu;
  double sector = wgp_gpu_l2_sector_bytes(g), line = wgp_gpu_l1_line_bytes(g);
  if (!(sectors > 0))
    sectors = ceil(bytes * c->warp_size / sector);
  double lines = ceil(sectors * sector / line);
  *out = (wgp_insn){.kind = store ? WGP_INSN_STORE : WGP_INSN_LOAD, .unit = WGP_UNIT_LSU};
  out->occupancy = fmax(fmax(1, lines * wgp_gpu_global_line_cycles(g)),
                        sectors * sector / wgp_gpu_shared_bandwidth_bytes_per_cycle(g));
  double h1 = c->local_l1_hit, h2 = c->local_l2_hit;
  *l2 = sectors * sector * (1 - h1);
  *dram = *l2 * (1 - h2);
  double port = wgp_gpu_l2_port_bytes_per_cycle(g);
  if (port > 0 && *l2 > 0) {
    out->queue = *l2 / port;
    out->queue_unit = store ? WGP_UNIT_L2_OUT : WGP_UNIT_L2_IN;
  }
  double p1 = h1 * wgp_gpu_latency_l1_hit_cycles(g), p2 = (1 - h1) * h2 * wgp_gpu_latency_l2_hit_cycles(g),
         p3 = (1 - h1) * (1 - h2) * wgp_gpu_latency_dram_cycles(g), lat = p1 + p2 + p3;
  if (lat > 0) {
    out->stall[WGP_STALL_SHARED_L1] = p1 / lat;
    out->stall[WGP_STALL_L2] = p2 / lat;
    out->stall[WGP_STALL_DRAM] = p3 / lat;
  }
  out->latency = store ? 1 : fmax(1, fmax(lat, out->occupancy));
}

/* INSN scaled to weight W (0 < W < 1): a fraction of an instruction, its
 * issue, unit time and latency in proportion (their expected values). */
static wgp_insn fraction_of(wgp_insn i, double w) {
  i.issue = wgp_insn_slots(&i) * w;
  i.occupancy *= w;
  i.queue *= w;
  i.latency = fmax(i.latency * w, 1e-3);
  return i;
}

/* The instruction for one execution of access ID, and its chip traffic. */
static void memory_insn(const wgp_sim_ctx *c, const wgp_access *a, const wgp_access_cost *ac, wgp_insn *out,
                        double *dram, double *l2, double *acts) {
  const wgp_gpu *g = c->in->gpu;
  wgp_space sp = wgp_access_space(a);
  wgp_access_kind kind = wgp_access_get_kind(a);
  *out = (wgp_insn){.kind = kind == WGP_ACCESS_STORE ? WGP_INSN_STORE : WGP_INSN_LOAD, .unit = WGP_UNIT_LSU};
  *dram = *l2 = *acts = 0;
  double lat;
  if (sp == WGP_SPACE_PRIVATE) {
    /* an access the compiler could not keep in registers: local memory */
    local_insn(c, kind != WGP_ACCESS_LOAD, (double)wgp_access_bytes(a), ac->sectors, out, dram, l2);
    return;
  }
  if (sp == WGP_SPACE_LOCAL) {
    double wave = shared_wave_cycles(g);
    out->occupancy = fmax(ac->requests, ac->wavefronts) * wave;
    if (wgp_gpu_shared_own_pipe(g)) {
      /* the request's issue on the load/store path, its wavefronts in
       * shared memory's own pipe (queued, overlapping global accesses) */
      out->queue = out->occupancy;
      out->queue_unit = WGP_UNIT_SHARED;
      out->occupancy = fmax(ac->requests, ac->phases) * wave;
    }
    /* Kepler and Maxwell replay a conflicting instruction once per extra
     * wavefront; each replay adds to the warp's wait, not only to the
     * pipeline's occupancy (a conflict-free request needs max(requests,
     * phases) wavefronts) */
    double extra = fmax(0, ac->wavefronts - fmax(ac->requests, ac->phases));
    lat = wgp_gpu_latency_shared_cycles(g) + extra * wgp_gpu_latency_shared_replay_cycles(g);
    out->stall[WGP_STALL_SHARED_L1] = 1;
  } else if (sp == WGP_SPACE_CONSTANT) {
    out->occupancy = fmax(ac->requests, ac->wavefronts);
    double h = ac->l1_hit < 0 ? 1 : ac->l1_hit;
    lat = h * wgp_gpu_latency_constant_hit_cycles(g) + (1 - h) * wgp_gpu_latency_constant_miss_cycles(g);
    out->stall[WGP_STALL_CONSTANT] = 1;
  } else { /* global, and generic pointers taken as global */
    double sector = wgp_gpu_l2_sector_bytes(g);
    /* The load/store path spends global_line_cycles on each distinct line
     * a request touches (an L1TEX wavefront; a replay on Kepler) and moves
     * its data at the shared-memory width. */
    out->occupancy = fmax(fmax(ac->requests, ac->wavefronts * wgp_gpu_global_line_cycles(g)),
                          ac->sectors * sector / wgp_gpu_shared_bandwidth_bytes_per_cycle(g));
    double h1 = ac->l1_hit < 0 ? 0 : ac->l1_hit, h2 = ac->l2_hit < 0 ? 0 : ac->l2_hit;
    if (kind != WGP_ACCESS_LOAD || !wgp_gpu_l1_caches_global_loads(g))
      h1 = 0;
    double bytes = ac->sectors * sector;
    *l2 = bytes * (1 - h1);
    *dram = *l2 * (1 - h2);
    *acts = *dram / sector * ac->dram_rows;
    /* what comes from or goes to L2 passes the SM's port in turn, one
     * warp's sectors after another's, overlapping the load/store path */
    double port = wgp_gpu_l2_port_bytes_per_cycle(g);
    if (port > 0 && *l2 > 0) {
      out->queue = *l2 / port;
      out->queue_unit = kind == WGP_ACCESS_STORE ? WGP_UNIT_L2_OUT : WGP_UNIT_L2_IN;
    }
    if (kind == WGP_ACCESS_ATOMIC) {
      lat = wgp_gpu_latency_l2_hit_cycles(g);
      out->stall[WGP_STALL_L2] = 1;
    } else {
      /* a request's data arrive with its slowest sector: weighted by the
       * requests that waited on each level when the cache simulation counted
       * them, else by the sectors */
      double w1 = h1, w3 = (1 - h1) * (1 - h2);
      if (ac->last_known && kind == WGP_ACCESS_LOAD) {
        w1 = wgp_gpu_l1_caches_global_loads(g) ? ac->last_l1 : 0;
        w3 = ac->last_dram;
      }
      double p1 = w1 * wgp_gpu_latency_l1_hit_cycles(g), p2 = fmax(0, 1 - w1 - w3) * wgp_gpu_latency_l2_hit_cycles(g),
             p3 = w3 * wgp_gpu_latency_dram_cycles(g);
      lat = p1 + p2 + p3;
      if (lat > 0) {
        out->stall[WGP_STALL_SHARED_L1] = p1 / lat;
        out->stall[WGP_STALL_L2] = p2 / lat;
        out->stall[WGP_STALL_DRAM] = p3 / lat;
      }
    }
  }
  /* pre-wait (the LSU) + delay + post-wait = the measured latency, never
   * less than the pre-wait itself */
  out->latency = out->kind == WGP_INSN_STORE ? 1 : fmax(lat, out->occupancy);
  if (out->latency < 1)
    out->latency = 1;
}

static void account(wgp_block_stream *s, const wgp_insn *i) {
  s->issue += wgp_insn_slots(i);
  s->chain += i->latency;
  if (i->unit != WGP_UNIT_NONE)
    s->unit[i->unit] += i->occupancy;
  if (i->queue > 0)
    s->unit[i->queue_unit] += i->queue;
  s->serial += wgp_insn_slots(i) + i->latency + i->occupancy + i->queue;
  if (i->kind == WGP_INSN_BARRIER)
    s->barriers += 1;
}

/* A load of a __constant__ array at an address known when the kernel is
 * compiled (d_filter[i * 15 + j] in an unrolled loop) is no load of its own:
 * NVIDIA's compiler makes it an operand of the instruction that uses it
 * (FFMA R0, R1, c[0x3][0x24], R0).  It still takes its turn on the SM's
 * load/store path (the constant cache's port), but it is not hoisted with the
 * block's loads and nothing waits for it as for a load: it comes among the
 * arithmetic, in program order (docs/simulator.md, "Instructions", "Constant
 * operands"). */
static bool constant_operand(const wgp_access *a) {
  const wgp_expr *off = wgp_access_offset(a);
  return wgp_access_get_kind(a) == WGP_ACCESS_LOAD && wgp_access_space(a) == WGP_SPACE_CONSTANT &&
         wgp_access_base_kind(a) == WGP_BASE_ARRAY && off && wgp_expr_uses(off) == 0;
}

static wgp_status build(wgp_sim_ctx *c, size_t cls, size_t bid, wgp_block_stream *s, wgp_diag *diag) {
  const wgp_sim_input *in = c->in;
  const wgp_gpu *g = in->gpu;
  const wgp_block *b = wgp_kernel_block(in->kernel, bid);
  const wgp_access_cost *costs = in->warps[cls].costs;
  builder out = {0};
  enum { MAXC = 64 };
  wgp_insn alu[MAXC];
  uint64_t left[MAXC];
  size_t nalu = 0;
  uint64_t total_alu = 0, barriers = 0, issue_only = 0;
  bool reduced = wgp_gpu_strength_reduces_loop_addresses(g);
  for (size_t i = 0; i < wgp_block_num_counts_in(b, reduced); i++) {
    const char *name;
    uint64_t n = wgp_block_count_in(b, reduced, i, &name);
    wgp_op_class op;
    if (n == 0)
      continue;
    if (wgp_op_class_from_name(name, &op)) {
      if (nalu == MAXC)
        return wgp_sim_fail(diag, WGP_ERR_INPUT, "block %zu has more than %d cost classes", bid, MAXC);
      double thr = wgp_gpu_op_throughput_per_cycle(g, op);
      /* an operation of several machine instructions takes as many issue
       * slots; its unit time and latency are the whole sequence's already */
      double slots = wgp_gpu_op_instructions(g, op);
      alu[nalu] = (wgp_insn){.kind = WGP_INSN_ALU,
                             .unit = unit_of(op),
                             .issue = slots,
                             .occupancy = c->warp_size * (double)wgp_gpu_schedulers_per_sm(g) / thr,
                             .latency = fmax(slots, wgp_gpu_op_latency_cycles(g, op))};
      left[nalu++] = n;
      total_alu += n;
    } else if (strcmp(name, "shfl") == 0) {
      if (nalu == MAXC)
        return wgp_sim_fail(diag, WGP_ERR_INPUT, "block %zu has more than %d cost classes", bid, MAXC);
      /* A warp shuffle moves the lanes' values through the shared-memory
       * crossbar: one conflict-free wavefront on the load/store path (in
       * shared memory's own pipe where it has one), a shared load's latency;
       * among the arithmetic, as the values it exchanges are. */
      double wave = shared_wave_cycles(g);
      alu[nalu] = (wgp_insn){.kind = WGP_INSN_ALU,
                             .unit = WGP_UNIT_LSU,
                             .occupancy = wave,
                             .latency = fmax(1, wgp_gpu_latency_shared_cycles(g))};
      if (wgp_gpu_shared_own_pipe(g)) {
        alu[nalu].queue = wave;
        alu[nalu].queue_unit = WGP_UNIT_SHARED;
      }
      left[nalu++] = n;
      total_alu += n;
    } else if (strcmp(name, "barrier") == 0) {
      barriers += n;
    } else if (strncmp(name, "ld.", 3) && strncmp(name, "st.", 3) && strncmp(name, "atom.", 5)) {
      issue_only += n; /* branch, fence, call, other */
    }
  }
  size_t na_all = wgp_block_num_accesses(b), na = 0;
  uint64_t emitted = 0;
  size_t rr = 0;
  wgp_status st = WGP_OK;
  /* Loads first, in program order: the compiler hoists a block's loads
   * above the arithmetic that consumes them (and they then overlap, see
   * issue()); stores and atomics keep their place among the arithmetic. */
  /* others, loads (size_t) and their levels (unsigned) in one array, on the
   * stack for a block of up to SMALL accesses, and the stream's room for
   * what is known to come: the simulations build thousands of streams, each
   * a few allocations less */
  enum { SMALL = 64 };
  size_t small[3 * SMALL];
  size_t room = na_all ? na_all : 1;
  size_t *others = room <= SMALL ? small : malloc(room * (2 * sizeof(size_t) + sizeof(unsigned)));
  if (!others)
    return wgp_sim_fail(diag, WGP_ERR_NOMEM, "out of memory");
  /* the stream is built in the context's scratch array (kept between
   * builds), then copied to its arena */
  out.v = c->scratch, out.cap = c->scratch_cap;
  if (total_alu + na_all + barriers + issue_only < 1u << 20) {
    size_t want = (size_t)(total_alu + na_all + barriers + issue_only) + 8;
    wgp_insn *v = want > out.cap ? realloc(out.v, want * sizeof *v) : out.v;
    if (!v) {
      if (others != small)
        free(others);
      return wgp_sim_fail(diag, WGP_ERR_NOMEM, "out of memory");
    }
    out.v = v, out.cap = want > out.cap ? want : out.cap;
    c->scratch = out.v, c->scratch_cap = out.cap;
  }
  /* A load whose address needs the value of an earlier load of the block
   * (a gather: x[col[j]]) cannot issue before that one returns: the loads
   * go by level (0: no such need; else one more than the deepest load it
   * needs), in program order within a level, and the first of each later
   * level waits for the block's loads before it. */
  size_t *loads = others + room, nl = 0;
  unsigned *level = (unsigned *)(loads + room), top = 0;
  for (size_t q = 0; q < na_all; q++) {
    size_t id = wgp_block_access(b, q);
    const wgp_access *acc = wgp_kernel_access(in->kernel, id);
    if (wgp_access_get_kind(acc) != WGP_ACCESS_LOAD || wgp_access_space(acc) == WGP_SPACE_PRIVATE ||
        constant_operand(acc)) {
      others[na++] = id;
      continue;
    }
    unsigned lv = wgp_access_load_level(acc);
    loads[nl] = id, level[nl++] = lv;
    top = lv > top ? lv : top;
  }
  /* the compiler's spills: loads with the block's first loads, stores among the arithmetic */
  double n_insns = (double)(total_alu + barriers + issue_only + na_all);
  double spill_ld = n_insns * in->spill_loads_per_insn, spill_st = n_insns * in->spill_stores_per_insn;
  wgp_insn spill_load, spill_store;
  double sl_dram, sl_l2, ss_dram, ss_l2, spill_run = 0;
  local_insn(c, false, 4, 0, &spill_load, &sl_dram, &sl_l2);
  local_insn(c, true, 4, 0, &spill_store, &ss_dram, &ss_l2);
  if (spill_ld > 0) {
    double run_latency = 0;
    for (double left_ld = spill_ld; left_ld > 1e-9 && st == WGP_OK; left_ld -= 1) {
      double w = fmin(1, left_ld);
      wgp_insn m = w < 1 ? fraction_of(spill_load, w) : spill_load;
      s->dram_bytes += w * sl_dram;
      s->l2_bytes += w * sl_l2;
      if (!push(&out, &m))
        st = WGP_ERR_NOMEM;
      account(s, &m);
      s->chain -= m.latency;
      run_latency = fmax(run_latency, m.latency);
    }
    spill_run = run_latency;
    /* with the block's first loads, when it has some: they overlap (below) */
    if (!nl)
      s->chain += run_latency;
  }
  for (unsigned lv = 0; lv <= top && nl && st == WGP_OK; lv++) {
    double run_latency = lv == 0 ? spill_run : 0; /* a level's loads overlap: the chain waits for its slowest */
    bool first = true;
    for (size_t j = 0; j < nl && st == WGP_OK; j++) {
      if (level[j] != lv)
        continue;
      wgp_insn m;
      double dram, l2, acts;
      memory_insn(c, wgp_kernel_access(in->kernel, loads[j]), &costs[loads[j]], &m, &dram, &l2, &acts);
      m.after_loads = lv > 0 && first;
      first = false;
      s->dram_bytes += dram;
      s->l2_bytes += l2;
      s->dram_acts += acts;
      if (!push(&out, &m))
        st = WGP_ERR_NOMEM;
      account(s, &m);
      s->chain -= m.latency;
      run_latency = fmax(run_latency, m.latency);
    }
    s->chain += run_latency;
  }
  /* the memory instructions among the arithmetic: the block's stores and
   * atomics (and private accesses) in program order, then its spill stores */
  size_t nst = spill_st > 1e-9 ? (size_t)ceil(spill_st - 1e-9) : 0, nmem = na + nst;
  for (size_t seg = 0; seg <= nmem && st == WGP_OK; seg++) {
    uint64_t upto = (uint64_t)((double)total_alu * (double)(seg + 1) / (double)(nmem + 1) + 0.5);
    if (seg == nmem)
      upto = total_alu;
    while (emitted < upto) {
      while (left[rr % nalu] == 0)
        rr++;
      size_t k = rr++ % nalu;
      left[k]--;
      emitted++;
      if (!push(&out, &alu[k]))
        st = WGP_ERR_NOMEM;
      account(s, &alu[k]);
    }
    if (seg >= na && seg < nmem) {
      double w = fmin(1, spill_st - (double)(seg - na));
      wgp_insn m = w < 1 ? fraction_of(spill_store, w) : spill_store;
      s->dram_bytes += w * ss_dram;
      s->l2_bytes += w * ss_l2;
      s->dram_write_bytes += w * ss_dram;
      if (!push(&out, &m))
        st = WGP_ERR_NOMEM;
      account(s, &m);
    } else if (seg < na) {
      size_t id = others[seg];
      wgp_insn m;
      double dram, l2, acts;
      memory_insn(c, wgp_kernel_access(in->kernel, id), &costs[id], &m, &dram, &l2, &acts);
      /* an atomic or a private load among the arithmetic waits for the memory
       * instructions before it, as its latency in the chain (and so the
       * round's best case) says: only the block's hoisted loads issue back to
       * back.  Where no arithmetic came between, the next instruction after a
       * load would otherwise go at once (pipeline.c), an atomic on x[idx[i]]
       * before its index had arrived (fuzz/regress/estimate/atomic-after-its-load). */
      if (m.kind == WGP_INSN_LOAD)
        m.after_loads = true;
      if (constant_operand(wgp_kernel_access(in->kernel, id))) {
        /* its turn on the load/store path, and its instruction goes on */
        m.kind = WGP_INSN_ALU;
        m.latency = 1;
        memset(m.stall, 0, sizeof m.stall);
      }
      s->dram_bytes += dram;
      s->l2_bytes += l2;
      s->dram_acts += acts;
      if (wgp_access_get_kind(wgp_kernel_access(in->kernel, id)) != WGP_ACCESS_LOAD)
        s->dram_write_bytes += dram;
      if (!push(&out, &m))
        st = WGP_ERR_NOMEM;
      account(s, &m);
    }
  }
  if (others != small)
    free(others);
  wgp_insn bar = {.kind = WGP_INSN_BARRIER, .unit = WGP_UNIT_NONE, .latency = c->barrier_cost};
  for (uint64_t i = 0; i < barriers && st == WGP_OK; i++) {
    if (!push(&out, &bar))
      st = WGP_ERR_NOMEM;
    account(s, &bar);
  }
  wgp_insn one = {.kind = WGP_INSN_ISSUE, .unit = WGP_UNIT_NONE, .latency = 1};
  for (uint64_t i = 0; i < issue_only && st == WGP_OK; i++) {
    if (!push(&out, &one))
      st = WGP_ERR_NOMEM;
    account(s, &one);
  }
  c->scratch = out.v, c->scratch_cap = out.cap;
  if (st == WGP_OK && out.n && !(s->insn = wgp_arena_alloc(c->insns, out.n * sizeof *out.v)))
    st = WGP_ERR_NOMEM;
  if (st != WGP_OK)
    return wgp_sim_fail(diag, st, "out of memory");
  if (out.n)
    memcpy(s->insn, out.v, out.n * sizeof *out.v);
  s->n = out.n;
  s->built = true;
  return WGP_OK;
}

wgp_status wgp_sim_stream(wgp_sim_ctx *c, size_t cls, size_t block, const wgp_block_stream **out, wgp_diag *diag) {
  wgp_block_stream *s = &c->streams[cls * c->num_blocks + block];
  if (!s->built) {
    wgp_status st = build(c, cls, block, s, diag);
    if (st != WGP_OK)
      return st;
  }
  *out = s;
  return WGP_OK;
}

static wgp_status walk(wgp_sim_ctx *c, size_t cls, const wgp_tnode *loop, size_t run, size_t n, const wgp_trace *tr,
                       double mult, wgp_class_totals *t, wgp_diag *diag) {
  for (size_t i = 0; i < n; i++) {
    const wgp_tnode *node = loop ? wgp_tnode_run_node(loop, run, i) : wgp_trace_node(tr, i);
    if (wgp_tnode_get_kind(node) == WGP_TNODE_BLOCK) {
      const wgp_block_stream *s;
      wgp_status st = wgp_sim_stream(c, cls, wgp_tnode_block(node), &s, diag);
      if (st != WGP_OK)
        return st;
      double m = mult * wgp_tnode_weight(node);
      t->issue += m * s->issue;
      t->chain += m * s->chain;
      t->serial += m * s->serial;
      t->dram_bytes += m * s->dram_bytes;
      t->l2_bytes += m * s->l2_bytes;
      t->dram_acts += m * s->dram_acts;
      t->dram_write_bytes += m * s->dram_write_bytes;
      t->barriers += m * s->barriers;
      for (int u = 0; u < WGP_UNIT_COUNT; u++)
        t->unit[u] += m * s->unit[u];
    } else {
      for (size_t r = 0; r < wgp_tnode_num_runs(node); r++) {
        wgp_status st = walk(c, cls, node, r, wgp_tnode_run_num_nodes(node, r), tr,
                             mult * (double)wgp_tnode_run_count(node, r), t, diag);
        if (st != WGP_OK)
          return st;
      }
    }
  }
  return WGP_OK;
}

wgp_status wgp_sim_class_totals(wgp_sim_ctx *c, size_t cls, wgp_class_totals *out, wgp_diag *diag) {
  *out = (wgp_class_totals){0};
  const wgp_trace *tr = c->in->warps[cls].trace;
  return walk(c, cls, NULL, 0, wgp_trace_num_nodes(tr), tr, 1.0, out, diag);
}
