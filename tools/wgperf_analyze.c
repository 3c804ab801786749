/* wgperf_analyze.c - `wgperf analyze`: one launch of one kernel.
 *
 *   wgperf analyze k.cl --kernel mm --global 1024,1024 --local 16,16 --arg N=1024 [--json]
 */
#define _DEFAULT_SOURCE
#include "cli.h"

#include "wgperf/baseline.h"
#include "wgperf/bottleneck.h"
#include "wgperf/estimate.h"
#include "wgperf/footprint.h"
#include "wgperf/hints.h"
#include "wgperf/launch.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


typedef struct opts {
  const char *input, *kernel, *gpu, *launch_file, *olevel;
  bool json, trace, cold_l2, baselines;
  unsigned regs;
  cli_flags flags; /* for a .cl/.cu input */
  cli_hints hints;
} opts;

static const char *space_of(const wgp_access *a) { return wgp_space_name(wgp_access_space(a)); }

static const char *choice_name(wgp_group_choice c) {
  switch (c) {
  case WGP_GROUPS_ONE: return "one group stands for all (control flow does not use the group id)";
  case WGP_GROUPS_EDGES: return "first, interior and last group per dimension";
  case WGP_GROUPS_SPLIT: return "first and last group per dimension, the interior split where branches change";
  case WGP_GROUPS_ALL: return "every group";
  default: return "groups sampled evenly (group-id dependent control flow, large grid)";
  }
}

static json_t *flags_json(unsigned f) {
  json_t *a = json_array();
  if (f & WGP_TRACE_DATA_BRANCH) json_array_append_new(a, json_string("data-dependent branch taken both ways"));
  if (f & WGP_TRACE_DATA_LOOP) json_array_append_new(a, json_string("data-dependent loop count from a hint, a bound or 1"));
  if (f & WGP_TRACE_SAMPLED) json_array_append_new(a, json_string("long loops sampled"));
  if (f & WGP_TRACE_TRUNCATED) json_array_append_new(a, json_sprintf("a loop did not end within %u iterations of one entry (exit never "
                                   "reached, e.g. 32-bit index overflow): only those counted; --trip sets a count",
                                   WGP_TRACE_EXPLICIT_CAP));
  if (f & WGP_TRACE_UNKNOWN) json_array_append_new(a, json_string("a condition could not be evaluated"));
  return a;
}

/* Where fallback F is ("B3", "L0", "call to 'f'"), where in the source, what
 * was done instead and the hint that replaces it (empty when none); true
 * when F is a branch. */
static bool describe_fallback(const wgp_kernel *k, const wgp_fallback *f, char *where, size_t wn, const char **source,
                              char *did, size_t dn, char *hint, size_t hn) {
  const wgp_block *blk = wgp_kernel_block(k, f->block);
  const wgp_branch *br = wgp_block_branch(blk);
  *source = br && wgp_branch_source(br) ? wgp_branch_source(br) : wgp_block_source(blk);
  hint[0] = '\0';
  bool loop = f->loop >= 0 && (f->kind == WGP_FALLBACK_DATA_LOOP || f->kind == WGP_FALLBACK_UNKNOWN);
  if (f->kind == WGP_FALLBACK_UNENDED) {
    const wgp_loop *lp = wgp_kernel_loop(k, (size_t)f->loop);
    snprintf(where, wn, "L%ld", f->loop);
    if (wgp_loop_source(lp))
      *source = wgp_loop_source(lp);
    snprintf(did, dn,
             f->hinted ? "its exit was never reached: ran the --trip count"
                       : "its exit was never reached: cut after %u iterations of an entry (an exit the model cannot "
                         "evaluate, or an index that wraps)",
             WGP_TRACE_EXPLICIT_CAP);
    snprintf(hint, hn, "--trip L%ld=COUNT", f->loop);
  } else if (loop) {
    const wgp_loop *lp = wgp_kernel_loop(k, (size_t)f->loop);
    snprintf(where, wn, "L%ld", f->loop);
    if (wgp_loop_source(lp))
      *source = wgp_loop_source(lp);
    bool rem = false;
    long partner = wgp_loop_unroll_partner(k, (size_t)f->loop, &rem);
    char role[200] = "";
    if (partner >= 0 && rem)
      snprintf(role, sizeof role,
               "; the remainder loop of the unrolled L%ld: COUNT is the source count modulo the unroll factor", partner);
    else if (partner >= 0)
      snprintf(role, sizeof role,
               "; unrolled (remainder L%ld): COUNT is the source count divided by the unroll factor, 4 for a "
               "run-time count (docs/kernel-model.md)",
               partner);
    else if (rem)
      snprintf(role, sizeof role, "; the remainder loop of an unrolled loop: COUNT is fewer than the unroll factor");
    snprintf(did, dn, "%s, %s%s",
             f->kind == WGP_FALLBACK_DATA_LOOP ? "loop count needs values known only at run time"
                                               : "loop count cannot be computed",
             f->hinted ? "ran the --trip count" : f->bounded ? "ran its bound" : "ran 1 iteration per entry", role);
    snprintf(hint, hn, "--trip L%ld=COUNT", f->loop);
  } else if (f->kind == WGP_FALLBACK_CALL) {
    const char *callee = "?", *reason = "?";
    wgp_kernel_call(k, (size_t)f->call, NULL, &callee, &reason);
    snprintf(where, wn, "call to '%s'", callee);
    if (wgp_kernel_call_source(k, (size_t)f->call))
      *source = wgp_kernel_call_source(k, (size_t)f->call);
    snprintf(did, dn, "left unresolved (%s): counted as one instruction, its cost is not modelled", reason);
  } else {
    snprintf(where, wn, "B%zu", f->block);
    snprintf(did, dn, "%s, %s",
             f->kind == WGP_FALLBACK_DATA_BRANCH ? "branch on a value known only at run time"
                                                 : "branch condition cannot be computed",
             f->hinted ? "taken with the --taken fraction" : "both paths taken");
    snprintf(hint, hn, "--taken B%zu=FRACTION", f->block);
    return true;
  }
  return false;
}

/* Whether fallback F decides the time: a loop whose exit was never reached,
 * or a loop whose count was assumed (its bound, one iteration) that
 * carries at least WGP_UNTRUSTED_SHARE of the launch's warp-level
 * instructions (the time is then 1 / (1 - share), 100 times or more, what
 * the rest takes, resting on a count nobody gave).  *SHARE: its share. */
#define WGP_UNTRUSTED_SHARE 0.99
static bool decides_time(const wgp_analysis *an, const wgp_fallback *f, double *share) {
  *share = 0;
  if (f->loop < 0 || f->hinted)
    return false;
  if (f->kind != WGP_FALLBACK_UNENDED && f->kind != WGP_FALLBACK_DATA_LOOP && f->kind != WGP_FALLBACK_UNKNOWN)
    return false;
  if (f->kind != WGP_FALLBACK_UNENDED) /* said once, as never ending, where it is */
    for (size_t i = 0; i < wgp_analysis_num_fallbacks(an); i++) {
      const wgp_fallback *g = wgp_analysis_fallback(an, i);
      if (g->kind == WGP_FALLBACK_UNENDED && g->loop == f->loop && !g->hinted)
        return false;
    }
  *share = wgp_analysis_loop_share(an, (size_t)f->loop);
  return f->kind == WGP_FALLBACK_UNENDED || *share >= WGP_UNTRUSTED_SHARE;
}

/* The fallbacks the time rests on (decides_time), for --json: where, the
 * source, the share of the instructions, what was assumed, the hint. */
static json_t *untrusted_json(const wgp_kernel *k, const wgp_analysis *an) {
  json_t *arr = json_array();
  for (size_t i = 0; i < wgp_analysis_num_fallbacks(an); i++) {
    const wgp_fallback *f = wgp_analysis_fallback(an, i);
    double share;
    if (!decides_time(an, f, &share))
      continue;
    char where[256], did[320], hint[64];
    const char *src;
    describe_fallback(k, f, where, sizeof where, &src, did, sizeof did, hint, sizeof hint);
    json_t *o = json_object();
    json_object_set_new(o, "where", json_string(where));
    json_object_set_new(o, "source", src ? json_string(src) : json_null());
    json_object_set_new(o, "instruction_share", json_real(share));
    json_object_set_new(o, "assumed", json_string(did));
    json_object_set_new(o, "hint", json_string(hint));
    json_array_append_new(arr, o);
  }
  return arr;
}

/* The same in words, LABEL first: one line per fallback the time rests on. */
static size_t untrusted_text(FILE *out, const char *label, const wgp_kernel *k, const wgp_analysis *an) {
  size_t n = 0;
  for (size_t i = 0; i < wgp_analysis_num_fallbacks(an); i++) {
    const wgp_fallback *f = wgp_analysis_fallback(an, i);
    double share;
    if (!decides_time(an, f, &share))
      continue;
    char where[256], did[320], hint[64];
    const char *src;
    describe_fallback(k, f, where, sizeof where, &src, did, sizeof did, hint, sizeof hint);
    fprintf(out, "%sthe time rests on %s%s%s (%.3g%% of the instructions): %s; %s settles it\n", label, where,
            src ? " at " : "", src ? src : "", 100 * share, did, hint);
    n++;
  }
  return n;
}

static json_t *fallbacks_json(const wgp_kernel *k, const wgp_analysis *an) {
  json_t *arr = json_array();
  for (size_t i = 0; i < wgp_analysis_num_fallbacks(an); i++) {
    const wgp_fallback *f = wgp_analysis_fallback(an, i);
    char where[256], did[320], hint[64];
    const char *src;
    describe_fallback(k, f, where, sizeof where, &src, did, sizeof did, hint, sizeof hint);
    json_t *o = json_object();
    json_object_set_new(o, "kind", json_string(wgp_fallback_kind_name(f->kind)));
    json_object_set_new(o, "where", json_string(where));
    json_object_set_new(o, "source", src ? json_string(src) : json_null());
    json_object_set_new(o, "assumed", json_string(did));
    json_object_set_new(o, "hint", *hint ? json_string(hint) : json_null());
    json_object_set_new(o, "hinted", json_boolean(f->hinted));
    json_array_append_new(arr, o);
  }
  return arr;
}

/* One line per fallback, LABEL in the report's first column. */
/* Branches whose fallback reads alike (the same source line, outcome and
 * hint state: a branch the compiler unrolled or inlined into many blocks)
 * share one line that names every block.  Each fallback is described once. */
typedef struct fallback_text {
  char where[256], did[320], hint[64];
  const char *src;
  bool branch, shown;
} fallback_text;

static bool same_branch_text(const fallback_text *a, const fallback_text *b) {
  return a->branch && b->branch && a->src && b->src && strcmp(a->src, b->src) == 0 && strcmp(a->did, b->did) == 0;
}

static void fallbacks_text(FILE *out, const char *label, const wgp_kernel *k, const wgp_analysis *an) {
  size_t n = wgp_analysis_num_fallbacks(an);
  fallback_text *t = calloc(n ? n : 1, sizeof *t), one;
  for (size_t i = 0; t && i < n; i++)
    t[i].branch = describe_fallback(k, wgp_analysis_fallback(an, i), t[i].where, sizeof t[i].where, &t[i].src,
                                    t[i].did, sizeof t[i].did, t[i].hint, sizeof t[i].hint);
  for (size_t i = 0; i < n; i++) {
    const wgp_fallback *f = wgp_analysis_fallback(an, i);
    fallback_text *a = t ? &t[i] : &one; /* out of memory: a line each */
    if (!t)
      a->branch = describe_fallback(k, f, a->where, sizeof a->where, &a->src, a->did, sizeof a->did, a->hint,
                                    sizeof a->hint);
    else if (a->shown)
      continue;
    size_t alike = 1;
    for (size_t j = i + 1; t && j < n; j++)
      if (!t[j].shown && same_branch_text(a, &t[j]))
        alike++, t[j].shown = true;
    bool hint = *a->hint && !f->hinted;
    if (alike == 1) {
      fprintf(out, "%s%s%s%s: %s%s%s%s\n", label, a->where, a->src ? " at " : "", a->src ? a->src : "", a->did,
              hint ? " (hint: " : "", hint ? a->hint : "", hint ? ")" : "");
      continue;
    }
    fprintf(out, "%s%zu branches at %s (%s", label, alike, a->src, a->where);
    for (size_t j = i + 1; j < n; j++)
      if (t[j].shown && same_branch_text(a, &t[j]))
        fprintf(out, ", %s", t[j].where);
    fprintf(out, "): %s%s%s%s\n", a->did, hint ? " (hint: " : "", hint ? a->hint : "", hint ? ", one for each)" : "");
  }
  free(t);
}

static json_t *num_or_null(double v, bool ok) { return ok ? json_real(v) : json_null(); }

/* How the hit rates were made, in words (the "caches" line of the reports).
 * Global accesses the launch makes (TOT) but the simulated work-groups never
 * made have no hit rate: the simulator takes them as misses, and the line
 * says which (a 3-D stencil whose first wave is the z = 0 face it skips). */
static void cache_words(char *buf, size_t size, const wgp_cache_result *c, const wgp_kernel *k,
                        const wgp_mem_stats *tot) {
  int n = c->middle_wave ? snprintf(buf, size,
                                    "L1/L2 hit rates from an LRU simulation of %zu work-groups of the wave in the "
                                    "middle of the grid (the first wave makes no global access)",
                                    c->groups_simulated)
                         : snprintf(buf, size,
                                    "L1/L2 hit rates from an LRU simulation of the first %zu work-groups of a wave",
                                    c->groups_simulated);
  if (c->l2_warm && n > 0 && (size_t)n < size)
    n += snprintf(buf + n, size - (size_t)n,
                  "; the launch's %.3g MB fit in L2: taken as there from before the launch, every access hits L2 "
                  "(--cold-l2 to start empty)",
                  c->footprint_bytes / 1e6);
  /* the loads their cache operator keeps out of L1 (docs/kernel-model.md, "Cache operators") */
  size_t bypass = 0, by_default = 0;
  for (size_t i = 0; k && i < wgp_kernel_num_accesses(k); i++) {
    const wgp_access *a = wgp_kernel_access(k, i);
    if (wgp_access_skips_l1(k, a)) {
      bypass++;
      by_default += wgp_access_cache(a) == WGP_CACHE_DEFAULT;
    }
  }
  if (bypass && n > 0 && (size_t)n < size)
    n += snprintf(buf + n, size - (size_t)n, "; %zu global load%s through L2 only, not kept in L1 (%s%s%s)", bypass,
                  bypass > 1 ? "s" : "", by_default ? "-dlcm=" : "", by_default ? wgp_cache_op_name(wgp_kernel_global_load_cache(k)) : "",
                  by_default < bypass ? (by_default ? ", .cg or .cv" : ".cg or .cv") : "");
  char ids[96] = "";
  size_t unseen = 0, len = 0;
  for (size_t i = 0; k && tot && i < wgp_kernel_num_accesses(k) && i < c->num_accesses; i++) {
    const wgp_access *a = wgp_kernel_access(k, i);
    if (!wgp_space_is_global(wgp_access_space(a)) || tot[i].executions <= 0)
      continue;
    /* a load the sample made has an L1 rate; a store or atomic an L2 one */
    double rate = wgp_access_get_kind(a) == WGP_ACCESS_LOAD ? c->l1_hit[i] : c->l2_hit[i];
    if (rate >= 0)
      continue;
    if (unseen < 4 && len < sizeof ids) {
      int m = snprintf(ids + len, sizeof ids - len, "%sM%zu", unseen ? ", " : "", i);
      len += m > 0 ? (size_t)m : 0;
    }
    unseen++;
  }
  if (unseen && n > 0 && (size_t)n < size)
    snprintf(buf + n, size - (size_t)n,
             "; those work-groups make none of %zu global access%s the launch makes (%s%s): their hit rates are "
             "unknown and taken as L1 and L2 misses, the DRAM traffic may be overestimated (the first "
             "work-groups of the grid skip them: an early return at its edge?)",
             unseen, unseen > 1 ? "es" : "", ids, unseen > 4 ? ", ..." : "");
}

static json_t *num_or_null_nan(double v) { return v == v ? json_real(v) : json_null(); }

/* The footprints and their comparison with the LRU model, per access. */
static json_t *footprint_json(const wgp_kernel *k, const wgp_footprint *fp, const wgp_mem_stats *tot,
                              const wgp_cache_result *cache, unsigned sector, size_t i) {
  const wgp_footprint_access *fa = wgp_footprint_access_at(fp, i);
  json_t *o = json_object();
  json_object_set_new(o, "kind", json_string(wgp_footprint_kind_name(fa->kind)));
  json_object_set_new(o, "reason", fa->reason ? json_string(fa->reason) : json_null());
  bool has = fa->kind == WGP_FOOTPRINT_EXACT || fa->kind == WGP_FOOTPRINT_BOUND;
  json_object_set_new(o, "buffer",
                      has && fa->buffer >= 0 ? json_string(wgp_footprint_buffer_at(fp, (size_t)fa->buffer)->name)
                                             : json_null());
  json_object_set_new(o, "bytes_requested_per_wave", has ? num_or_null_nan(fa->bytes_requested_per_wave) : json_null());
  json_object_set_new(o, "sectors_per_wave", has ? num_or_null_nan(fa->sectors_per_wave) : json_null());
  json_object_set_new(o, "dram_bytes_per_wave", has ? json_real(fa->dram_bytes_per_wave) : json_null());
  json_object_set_new(o, "dram_bytes_per_wave_reuse", has ? json_real(fa->dram_bytes_per_wave_reuse) : json_null());
  json_object_set_new(o, "dram_bytes", has ? json_real(fa->dram_bytes) : json_null());
  json_object_set_new(o, "dram_bytes_no_reuse", has ? json_real(fa->dram_bytes_no_reuse) : json_null());
  json_object_set_new(o, "lru_dram_bytes", json_real(wgp_lru_dram_bytes(k, i, tot, cache, sector)));
  double ratio = 0;
  const char *why = wgp_footprint_disagreement(fp, k, i, tot, cache, &ratio);
  json_t *dis = json_null();
  if (why) {
    dis = json_object();
    json_object_set_new(dis, "lru_over_footprint", ratio == ratio && ratio < 1e300 ? json_real(ratio) : json_null());
    json_object_set_new(dis, "why", json_string(why));
  }
  json_object_set_new(o, "disagreement", dis);
  return o;
}

static void lru_totals(const wgp_kernel *k, const wgp_mem_stats *tot, const wgp_cache_result *cache, unsigned sector,
                       double *rd, double *wr) {
  *rd = *wr = 0;
  for (size_t i = 0; i < wgp_kernel_num_accesses(k); i++) {
    double b = wgp_lru_dram_bytes(k, i, tot, cache, sector);
    if (wgp_access_get_kind(wgp_kernel_access(k, i)) == WGP_ACCESS_LOAD)
      *rd += b;
    else
      *wr += b;
  }
}

static json_t *footprints_json(const wgp_kernel *k, const wgp_footprint *fp, const wgp_mem_stats *tot,
                               const wgp_cache_result *cache, unsigned sector) {
  const wgp_footprint_launch *L = wgp_footprint_launch_totals(fp);
  json_t *o = json_object();
  json_object_set_new(o, "groups_per_wave", json_integer((json_int_t)L->groups_per_wave));
  json_object_set_new(o, "waves", json_integer((json_int_t)L->waves));
  json_object_set_new(o, "representative_wave", json_integer((json_int_t)L->representative_wave));
  json_object_set_new(o, "waves_counted", json_integer((json_int_t)L->waves_counted));
  json_object_set_new(o, "sampled", json_boolean(L->sampled));
  json_object_set_new(o, "l2_bytes", json_real(L->l2_bytes));
  json_object_set_new(o, "occupancy", json_real(L->occupancy));
  json_object_set_new(o, "reuse_fraction", json_real(L->reuse_fraction));
  json_object_set_new(o, "dram_read_bytes", json_real(L->dram_read_bytes));
  json_object_set_new(o, "dram_write_bytes", json_real(L->dram_write_bytes));
  json_object_set_new(o, "dram_read_bytes_no_reuse", json_real(L->dram_read_bytes_no_reuse));
  json_object_set_new(o, "dram_write_bytes_no_reuse", json_real(L->dram_write_bytes_no_reuse));
  json_object_set_new(o, "compulsory_read_bytes", num_or_null_nan(L->compulsory_read_bytes));
  json_object_set_new(o, "compulsory_write_bytes", num_or_null_nan(L->compulsory_write_bytes));
  double rd, wr, lrd, lwr;
  wgp_footprint_dram_bytes(fp, k, tot, cache, &rd, &wr);
  lru_totals(k, tot, cache, sector, &lrd, &lwr);
  json_object_set_new(o, "dram_read_bytes_with_fallbacks", json_real(rd));
  json_object_set_new(o, "dram_write_bytes_with_fallbacks", json_real(wr));
  json_object_set_new(o, "lru_dram_read_bytes", json_real(lrd));
  json_object_set_new(o, "lru_dram_write_bytes", json_real(lwr));
  json_object_set_new(o, "exact_accesses", json_integer((json_int_t)L->exact_accesses));
  json_object_set_new(o, "bound_accesses", json_integer((json_int_t)L->bound_accesses));
  json_object_set_new(o, "fallback_accesses", json_integer((json_int_t)L->fallback_accesses));
  json_t *bufs = json_array();
  for (size_t b = 0; b < wgp_footprint_num_buffers(fp); b++) {
    const wgp_footprint_buffer *B = wgp_footprint_buffer_at(fp, b);
    if (!B->accesses)
      continue;
    json_t *x = json_object();
    json_object_set_new(x, "name", json_string(B->name));
    json_object_set_new(x, "exact", json_boolean(B->exact));
    json_object_set_new(x, "bytes_requested_per_wave", json_real(B->bytes_requested_per_wave));
    json_object_set_new(x, "read_sectors_per_wave", json_real(B->read_sectors_per_wave));
    json_object_set_new(x, "write_sectors_per_wave", json_real(B->write_sectors_per_wave));
    json_object_set_new(x, "reused_read_sectors", json_real(B->reused_read_sectors));
    json_object_set_new(x, "lines_two_waves", json_real(B->lines_two_waves));
    json_object_set_new(x, "dram_read_bytes_per_wave", json_real(B->dram_read_bytes_per_wave));
    json_object_set_new(x, "dram_read_bytes_per_wave_reuse", json_real(B->dram_read_bytes_per_wave_reuse));
    json_object_set_new(x, "dram_write_bytes_per_wave", json_real(B->dram_write_bytes_per_wave));
    json_object_set_new(x, "dram_write_bytes_per_wave_reuse", json_real(B->dram_write_bytes_per_wave_reuse));
    json_object_set_new(x, "dram_read_bytes", json_real(B->dram_read_bytes));
    json_object_set_new(x, "dram_write_bytes", json_real(B->dram_write_bytes));
    json_object_set_new(x, "dram_read_bytes_no_reuse", json_real(B->dram_read_bytes_no_reuse));
    json_object_set_new(x, "dram_write_bytes_no_reuse", json_real(B->dram_write_bytes_no_reuse));
    json_object_set_new(x, "compulsory_read_bytes", num_or_null_nan(B->compulsory_read_bytes));
    json_object_set_new(x, "compulsory_write_bytes", num_or_null_nan(B->compulsory_write_bytes));
    json_array_append_new(bufs, x);
  }
  json_object_set_new(o, "buffers", bufs);
  return o;
}

/* J (a report) with "cuda_headers", the CUDA headers M's source compiled against, when M says. */
static json_t *with_headers(json_t *j, const wgp_model *m) {
  if (j && wgp_model_cuda_headers(m))
    json_object_set_new(j, "cuda_headers", json_string(wgp_model_cuda_headers(m)));
  return j;
}

static json_t *report_json(const wgp_kernel *k, const wgp_gpu *gpu, const wgp_launch *l, const wgp_analysis *an,
                           const wgp_cache_result *cache, const wgp_footprint *fp) {
  json_t *root = json_object();
  json_object_set_new(root, "kernel", json_string(wgp_kernel_name(k)));
  json_t *launch = json_object(), *g = json_array(), *lc = json_array(), *args = json_object();
  for (unsigned d = 0; d < wgp_launch_dims(l); d++) {
    json_array_append_new(g, json_integer((json_int_t)wgp_launch_global(l, d)));
    json_array_append_new(lc, json_integer((json_int_t)wgp_launch_local(l, d)));
  }
  for (size_t i = 0; i < wgp_launch_num_args(l); i++) {
    int64_t v;
    const char *n = wgp_launch_arg(l, i, &v);
    json_object_set_new(args, n, json_integer(v));
  }
  json_object_set_new(launch, "global", g);
  json_object_set_new(launch, "local", lc);
  json_object_set_new(launch, "args", args);
  json_object_set_new(root, "launch", launch);
  json_object_set_new(root, "gpu", json_string(wgp_gpu_name(gpu)));
  const wgp_warp_set *ws = wgp_analysis_warps(an);
  json_t *warps = json_object();
  json_object_set_new(warps, "total", json_real(wgp_warp_set_total(ws)));
  json_object_set_new(warps, "distinct", json_integer((json_int_t)wgp_warp_set_size(ws)));
  json_object_set_new(warps, "traced", json_integer((json_int_t)wgp_warp_set_traced(ws)));
  json_object_set_new(warps, "groups", json_string(choice_name(wgp_warp_set_how(ws))));
  json_object_set_new(root, "warps", warps);
  json_object_set_new(root, "assumptions", flags_json(wgp_analysis_flags(an)));
  json_object_set_new(root, "fallbacks", fallbacks_json(k, an));
  json_t *u = untrusted_json(k, an);
  json_object_set_new(root, "trusted", json_boolean(json_array_size(u) == 0));
  json_object_set_new(root, "untrusted", u);
  json_t *dyn = json_object();
  for (size_t i = 0; i < wgp_kernel_num_static_counts(k); i++) {
    const char *cls;
    wgp_kernel_static_count(k, i, &cls);
    json_object_set_new(dyn, cls, json_real(wgp_analysis_dynamic_count(an, cls)));
  }
  json_object_set_new(root, "dynamic_instructions", dyn);
  json_t *mem = json_array();
  const wgp_mem_stats *tot = wgp_analysis_total_stats(an);
  bool by_phase = wgp_gpu_l1_wavefronts_by_phase(gpu);
  for (size_t i = 0; i < wgp_kernel_num_accesses(k); i++) {
    const wgp_access *a = wgp_kernel_access(k, i);
    const wgp_mem_stats *s = &tot[i];
    wgp_space sp = wgp_access_space(a);
    bool global = sp == WGP_SPACE_GLOBAL || sp == WGP_SPACE_PRIVATE || sp == WGP_SPACE_GENERIC;
    json_t *m = json_object();
    json_object_set_new(m, "id", json_integer((json_int_t)i));
    json_object_set_new(m, "source", wgp_access_source(a) ? json_string(wgp_access_source(a)) : json_null());
    json_object_set_new(m, "space", json_string(space_of(a)));
    json_object_set_new(m, "kind", json_string(wgp_access_kind_name(wgp_access_get_kind(a))));
    json_object_set_new(m, "base", wgp_access_base_name(a) ? json_string(wgp_access_base_name(a)) : json_null());
    json_object_set_new(m, "bytes_per_lane", json_integer((json_int_t)wgp_access_bytes(a)));
    json_object_set_new(m, "executions", json_real(s->executions));
    json_object_set_new(m, "requests", json_real(s->requests));
    json_object_set_new(m, "sectors_per_request", num_or_null(s->sectors / s->requests, global && s->requests > 0));
    json_object_set_new(m, "lines_per_request", num_or_null(s->lines / s->requests, global && s->requests > 0));
    /* the L1TEX wavefronts of Volta and later (wgp_coalesce_wavefronts) */
    json_object_set_new(m, "wavefronts_per_request",
                        num_or_null(s->wavefronts / s->requests, global && s->requests > 0 && by_phase));
    json_object_set_new(m, "bank_conflict_degree",
                        num_or_null(s->wavefronts / s->phases, sp == WGP_SPACE_LOCAL && s->phases > 0));
    json_object_set_new(m, "constant_serialization",
                        num_or_null(s->wavefronts / s->requests, sp == WGP_SPACE_CONSTANT && s->requests > 0));
    json_object_set_new(m, "bytes_requested", json_real(s->lane_bytes));
    json_object_set_new(m, "bytes_moved", num_or_null(s->sectors * wgp_gpu_l2_sector_bytes(gpu), global));
    json_object_set_new(m, "unknown_address_executions", json_real(s->unknown));
    json_object_set_new(m, "outside_local_array_executions", json_real(s->outside));
    json_object_set_new(m, "l1_hit_rate", num_or_null(cache->l1_hit[i], cache->l1_hit[i] >= 0));
    json_object_set_new(m, "l2_hit_rate", num_or_null(cache->l2_hit[i], cache->l2_hit[i] >= 0));
    json_object_set_new(m, "requests_served_by_l1", num_or_null(cache->last_l1[i], cache->last_l1[i] >= 0));
    json_object_set_new(m, "requests_waiting_on_dram", num_or_null(cache->last_dram[i], cache->last_dram[i] >= 0));
    bool dram = wgp_space_is_global(sp);
    json_object_set_new(m, "footprint",
                        dram ? footprint_json(k, fp, tot, cache, wgp_gpu_l2_sector_bytes(gpu), i) : json_null());
    /* the PTX cache operator it runs with: its own, the kernel's -dlcm/-dscm, or the default */
    wgp_cache_op op = wgp_access_cache_in_effect(k, a);
    json_object_set_new(m, "cache_operator", op == WGP_CACHE_DEFAULT ? json_null() : json_string(wgp_cache_op_name(op)));
    json_array_append_new(mem, m);
  }
  json_object_set_new(root, "memory_instructions", mem);
  json_t *caches = json_object();
  json_object_set_new(caches, "groups_simulated", json_integer((json_int_t)cache->groups_simulated));
  json_object_set_new(caches, "footprint_bytes", json_real(cache->footprint_bytes));
  json_object_set_new(caches, "l2_warm", json_boolean(cache->l2_warm));
  json_object_set_new(root, "caches", caches);
  json_object_set_new(root, "footprints", footprints_json(k, fp, tot, cache, wgp_gpu_l2_sector_bytes(gpu)));
  return root;
}

static void mb(char *buf, size_t n, double bytes) {
  if (bytes != bytes)
    snprintf(buf, n, "-");
  else
    snprintf(buf, n, "%.4g", bytes / 1e6);
}

/* DRAM traffic of the global accesses: footprints beside the LRU model. */
static void report_footprints(FILE *f, const wgp_kernel *k, const wgp_gpu *gpu, const wgp_analysis *an,
                              const wgp_cache_result *cache, const wgp_footprint *fp, unsigned resident) {
  const wgp_footprint_launch *L = wgp_footprint_launch_totals(fp);
  const wgp_mem_stats *tot = wgp_analysis_total_stats(an);
  unsigned sector = wgp_gpu_l2_sector_bytes(gpu);
  fprintf(f, "DRAM traffic of global accesses, whole launch, MB (footprints: unique sectors of each wave, without and "
             "with reuse of the wave before; LRU: the hit rates above):\n");
  fprintf(f, "  %-4s %-14s %-9s %12s %10s %10s %10s\n", "id", "base", "footprint", "sectors/wave", "no reuse",
          "reuse", "LRU");
  for (size_t i = 0; i < wgp_kernel_num_accesses(k); i++) {
    const wgp_footprint_access *fa = wgp_footprint_access_at(fp, i);
    if (fa->kind == WGP_FOOTPRINT_NONE)
      continue;
    const char *base = wgp_access_base_name(wgp_kernel_access(k, i));
    char a[32] = "-", b[32] = "-", c[32], sec[32] = "-";
    bool has = fa->kind != WGP_FOOTPRINT_FALLBACK;
    if (has) {
      mb(a, sizeof a, fa->dram_bytes_no_reuse);
      mb(b, sizeof b, fa->dram_bytes);
      snprintf(sec, sizeof sec, "%.6g", fa->sectors_per_wave);
    }
    mb(c, sizeof c, wgp_lru_dram_bytes(k, i, tot, cache, sector));
    fprintf(f, "  M%-3zu %-14s %-9s %12s %10s %10s %10s\n", i, base ? base : "?", wgp_footprint_kind_name(fa->kind),
            sec, a, b, c);
    double ratio = 0;
    const char *why = wgp_footprint_disagreement(fp, k, i, tot, cache, &ratio);
    if (fa->kind == WGP_FOOTPRINT_FALLBACK)
      fprintf(f, "       no footprint (%s): the LRU result stands\n", fa->reason);
    else if (fa->kind == WGP_FOOTPRINT_BOUND)
      fprintf(f, "       upper bound: %s\n", fa->reason);
    if (why && ratio > 0 && ratio < 1e300)
      fprintf(f, "       the LRU says %.3gx the footprint: %s\n", ratio, why);
    else if (why)
      fprintf(f, "       only the %s moves bytes: %s\n", ratio > 0 ? "LRU" : "footprint", why);
  }
  if (L->representative_wave)
    fprintf(f, "  buffers, in wave %llu and the wave before it:\n", (unsigned long long)L->representative_wave);
  else
    fprintf(f, "  buffers, in wave 0:\n");
  for (size_t b = 0; b < wgp_footprint_num_buffers(fp); b++) {
    const wgp_footprint_buffer *B = wgp_footprint_buffer_at(fp, b);
    if (!B->accesses)
      continue;
    char r[32], w[32], r0[32], w0[32], cr[32], cw[32];
    mb(r, sizeof r, B->dram_read_bytes), mb(w, sizeof w, B->dram_write_bytes);
    mb(r0, sizeof r0, B->dram_read_bytes_no_reuse), mb(w0, sizeof w0, B->dram_write_bytes_no_reuse);
    mb(cr, sizeof cr, B->compulsory_read_bytes), mb(cw, sizeof cw, B->compulsory_write_bytes);
    char ov[64] = "";
    if (L->representative_wave)
      snprintf(ov, sizeof ov, " (%.6g of them touched by the wave before)", B->reused_read_sectors);
    fprintf(f, "  %-14s reads %.6g sectors%s, writes %.6g%s\n", B->name, B->read_sectors_per_wave, ov,
            B->write_sectors_per_wave, B->exact ? "" : " (an upper bound)");
    fprintf(f, "  %-14s launch: %s MB read, %s MB written (without reuse %s / %s; every sector once %s / %s)\n", "", r,
            w, r0, w0, cr, cw);
  }
  char l2[32];
  mb(l2, sizeof l2, L->l2_bytes);
  char pair[64];
  if (L->representative_wave)
    snprintf(pair, sizeof pair, "waves %llu and %llu take", (unsigned long long)L->representative_wave - 1,
             (unsigned long long)L->representative_wave);
  else
    snprintf(pair, sizeof pair, "wave 0 takes");
  fprintf(f, "waves   %llu of %llu work-groups (%u per SM x %u SMs)%s; %s %.3g of L2 (%s MB) in 128 B lines: %s\n",
          (unsigned long long)L->waves, (unsigned long long)L->groups_per_wave, resident, wgp_gpu_sm_count(gpu),
          L->sampled ? ", first, last and 3 interior waves counted" : ", all counted", pair, L->occupancy, l2,
          L->waves < 2 ? "one wave, no reuse between waves"
          : L->reuse_fraction >= 1 ? "the overlap hits (layer condition met)"
          : L->reuse_fraction <= 0 ? "the overlap misses (layer condition broken)"
                                   : "part of the overlap hits");
  double rd, wr, lrd, lwr;
  wgp_footprint_dram_bytes(fp, k, tot, cache, &rd, &wr);
  lru_totals(k, tot, cache, sector, &lrd, &lwr);
  char a[32], b[32], c[32], d[32], e[32], g[32], h[32], i2[32];
  mb(a, sizeof a, rd), mb(b, sizeof b, wr), mb(c, sizeof c, L->dram_read_bytes_no_reuse);
  mb(d, sizeof d, L->dram_write_bytes_no_reuse), mb(e, sizeof e, L->compulsory_read_bytes);
  mb(g, sizeof g, L->compulsory_write_bytes), mb(h, sizeof h, lrd), mb(i2, sizeof i2, lwr);
  fprintf(f, "DRAM    %s MB read, %s MB written (footprints%s); without reuse between waves %s / %s; every sector "
             "once %s / %s; LRU model %s / %s\n",
          a, b, L->fallback_accesses ? ", LRU for accesses without one" : "", c, d, e, g, h, i2);
}

/* Whether the launch L gives the size of the buffer access A reads. */
static bool buffer_given(const wgp_launch *l, const wgp_kernel *k, const wgp_access *a) {
  long arg = wgp_access_base_arg(a);
  if (arg < 0 || (size_t)arg >= wgp_kernel_num_args(k))
    return false;
  for (size_t i = 0; i < wgp_launch_num_buffers(l); i++) {
    uint64_t bytes, align;
    if (strcmp(wgp_launch_buffer(l, i, &bytes, &align), wgp_arg_name(wgp_kernel_arg(k, (size_t)arg))) == 0)
      return true;
  }
  return false;
}

static void report_text(FILE *f, const wgp_kernel *k, const wgp_gpu *gpu, const wgp_launch *l,
                        const wgp_analysis *an, const wgp_cache_result *cache, const wgp_footprint *fp,
                        unsigned resident, bool traces, const char *headers) {
  fprintf(f, "kernel %s on %s\n", wgp_kernel_name(k), wgp_gpu_name(gpu));
  if (headers) /* the model says which CUDA headers the source compiled against */
    fprintf(f, "headers %s\n", headers);
  fprintf(f, "launch  global");
  for (unsigned d = 0; d < wgp_launch_dims(l); d++)
    fprintf(f, "%s%llu", d ? "x" : " ", (unsigned long long)wgp_launch_global(l, d));
  fprintf(f, ", work-group");
  for (unsigned d = 0; d < wgp_launch_dims(l); d++)
    fprintf(f, "%s%llu", d ? "x" : " ", (unsigned long long)wgp_launch_local(l, d));
  fprintf(f, "\n");
  const wgp_warp_set *ws = wgp_analysis_warps(an);
  fprintf(f, "warps   %.0f in the launch, %zu distinct (%zu traced; %s)\n", wgp_warp_set_total(ws),
          wgp_warp_set_size(ws), wgp_warp_set_traced(ws), choice_name(wgp_warp_set_how(ws)));
  /* the fallback lines below itemize the branch and loop assumptions */
  unsigned fl = wgp_analysis_flags(an) & (wgp_analysis_num_fallbacks(an)
                                             ? ~(WGP_TRACE_DATA_BRANCH | WGP_TRACE_DATA_LOOP | WGP_TRACE_UNKNOWN)
                                             : ~0u);
  if (fl) {
    json_t *a = flags_json(fl);
    for (size_t i = 0; i < json_array_size(a); i++)
      fprintf(f, "assumed %s\n", json_string_value(json_array_get(a, i)));
    json_decref(a);
  }
  fallbacks_text(f, "fallback ", k, an);
  untrusted_text(f, "UNTRUSTED ", k, an);
  fprintf(f, "dynamic instructions (warp-level, whole launch):\n ");
  for (size_t i = 0; i < wgp_kernel_num_static_counts(k); i++) {
    const char *cls;
    wgp_kernel_static_count(k, i, &cls);
    fprintf(f, " %s=%.6g", cls, wgp_analysis_dynamic_count(an, cls));
  }
  fprintf(f, "\nmemory instructions:\n");
  fprintf(f, "  %-4s %-22s %-8s %-6s %-14s %3s %12s %s\n", "id", "source", "space", "kind", "base", "B", "executions",
          "cost per request");
  const wgp_mem_stats *tot = wgp_analysis_total_stats(an);
  bool by_phase = wgp_gpu_l1_wavefronts_by_phase(gpu);
  for (size_t i = 0; i < wgp_kernel_num_accesses(k); i++) {
    const wgp_access *a = wgp_kernel_access(k, i);
    const wgp_mem_stats *s = &tot[i];
    wgp_space sp = wgp_access_space(a);
    char cost[160] = "-";
    if (s->requests > 0) {
      /* a global request's lines, and its L1TEX wavefronts where a wide
       * request's phases take more (Volta and later: wgp_coalesce_wavefronts) */
      char lines[64];
      int w = snprintf(lines, sizeof lines, "%.2f lines", s->lines / s->requests);
      if (w > 0 && (size_t)w < sizeof lines && by_phase && s->wavefronts > s->lines + 0.005 * s->requests)
        snprintf(lines + w, sizeof lines - (size_t)w, " (%.2f L1 wavefronts)", s->wavefronts / s->requests);
      double sectors = s->sectors / s->requests;
      if (sp == WGP_SPACE_LOCAL)
        snprintf(cost, sizeof cost, "%.2f wavefronts, conflict degree %.2f", s->wavefronts / s->requests,
                 s->phases > 0 ? s->wavefronts / s->phases : 0);
      else if (sp == WGP_SPACE_CONSTANT)
        snprintf(cost, sizeof cost, "%.2f distinct addresses", s->wavefronts / s->requests);
      else if (cache->l2_hit[i] >= 0 && cache->l1_hit[i] >= 0) {
        int n = snprintf(cost, sizeof cost, "%.2f sectors, %s, L1 hit %.0f%%, L2 hit %.0f%%", sectors, lines,
                         100 * cache->l1_hit[i], 100 * cache->l2_hit[i]);
        /* a request waits for its slowest sector: say so where that is DRAM
         * clearly more often than the sectors miss */
        double miss = (1 - cache->l1_hit[i]) * (1 - cache->l2_hit[i]);
        if (n > 0 && (size_t)n < sizeof cost && cache->last_dram[i] > miss + 0.05)
          snprintf(cost + n, sizeof cost - (size_t)n, ", %.0f%% of requests wait on DRAM", 100 * cache->last_dram[i]);
      } else if (cache->l2_hit[i] >= 0 && wgp_access_get_kind(a) == WGP_ACCESS_STORE)
        /* a store's L2 "hit": its sector was written already, so it adds no
         * write-back (cache.h) */
        snprintf(cost, sizeof cost, "%.2f sectors, %s, L2 written back %.0f%%", sectors, lines,
                 100 * (1 - cache->l2_hit[i]));
      else if (cache->l2_hit[i] >= 0)
        snprintf(cost, sizeof cost, "%.2f sectors, %s, L2 hit %.0f%%", sectors, lines, 100 * cache->l2_hit[i]);
      else if (cache->l1_hit[i] >= 0) /* nothing reached L2 */
        snprintf(cost, sizeof cost, "%.2f sectors, %s, L1 hit %.0f%%", sectors, lines, 100 * cache->l1_hit[i]);
      else
        snprintf(cost, sizeof cost, "%.2f sectors, %s", sectors, lines);
    }
    const char *src = wgp_access_source(a);
    const char *slash = src ? strrchr(src, '/') : NULL;
    char why[160] = "";
    double region = cache->unknown_region ? cache->unknown_region[i] : 0;
    if (s->unknown > 0 && wgp_access_space(a) == WGP_SPACE_LOCAL)
      snprintf(why, sizeof why, " (address unknown: lanes assumed at random places in the array)");
    else if (s->unknown > 0 && region > 0)
      /* cache.c: the buffer's --buffer size, else an element per work-item */
      snprintf(why, sizeof why, " (address from loaded data: taken at random places in %.4g MB%s)", region / 1e6,
               buffer_given(l, k, a) ? "" : ", --buffer sets it");
    else if (s->unknown > 0)
      snprintf(why, sizeof why, " (address unknown: a sector per lane assumed)");
    /* a cache operator other than the default (docs/kernel-model.md, "Cache operators") */
    wgp_cache_op op = wgp_access_cache_in_effect(k, a);
    size_t wl = strlen(why);
    if (op != WGP_CACHE_DEFAULT && op != WGP_CACHE_CA && op != WGP_CACHE_WB && wl < sizeof why)
      snprintf(why + wl, sizeof why - wl, " [.%s%s]", wgp_cache_op_name(op),
               wgp_access_cache(a) == WGP_CACHE_DEFAULT ? " by -dlcm/-dscm" : "");
    fprintf(f, "  M%-3zu %-22s %-8s %-6s %-14s %3llu %12.6g %s%s\n", i, src ? (slash ? slash + 1 : src) : "-",
            space_of(a), wgp_access_kind_name(wgp_access_get_kind(a)),
            wgp_access_base_name(a) ? wgp_access_base_name(a) : "?", (unsigned long long)wgp_access_bytes(a),
            s->executions, cost, why);
  }
  char words[640];
  cache_words(words, sizeof words, cache, k, wgp_analysis_total_stats(an));
  fprintf(f, "caches  %s\n", words);
  report_footprints(f, k, gpu, an, cache, fp, resident);
  if (traces)
    for (size_t c = 0; c < wgp_warp_set_size(ws); c++) {
      const wgp_warp_class *wc = wgp_warp_set_class(ws, c);
      char *buf;
      size_t len;
      wgp_trace_print(wc->trace, k, &buf, &len);
      fprintf(f, "\nwarp class %zu: %.0f warps, e.g. warp %zu of group (%llu,%llu,%llu)\n%s", c, wc->count, wc->warp,
              (unsigned long long)wc->group[0], (unsigned long long)wc->group[1], (unsigned long long)wc->group[2],
              buf ? buf : "");
      free(buf);
    }
}

typedef struct session {
  opts o;
  wgp_launch *l;
  wgp_model *m;
  wgp_gpu *gpu;
  const wgp_kernel *k;
  uint64_t *align, *local, *bytes;
  char tmpl[PATH_MAX];
  bool made;
  wgp_analysis_input in;
  wgp_estimate *est;
  /* of est, for brevity */
  const wgp_analysis *an;
  const wgp_cache_result *cache;
} session;

static void session_close(session *S) {
  wgp_estimate_free(S->est);
  free(S->align);
  free(S->local);
  free(S->bytes);
  wgp_gpu_free(S->gpu);
  wgp_model_free(S->m);
  wgp_launch_free(S->l);
  free(S->o.flags.v);
  cli_hints_free(&S->o.hints);
  if (S->made)
    unlink(S->tmpl);
}

/* Buffers whose --buffer size the launch's accesses certainly reach past
 * (wgp_footprint_outside): a warning each, since the prediction then counts
 * accesses a GPU would fault on or that read another allocation. */
static void overreach_warning(const wgp_analysis_input *in, const wgp_kernel *k) {
  size_t n = wgp_kernel_num_args(k), count = 0;
  size_t *arg = malloc((n ? n : 1) * sizeof *arg);
  double *lo = malloc((n ? n : 1) * sizeof *lo), *hi = malloc((n ? n : 1) * sizeof *hi);
  wgp_diag d;
  if (arg && lo && hi && wgp_footprint_outside(in, n, arg, lo, hi, &count, &d) == WGP_OK)
    for (size_t q = 0; q < count; q++)
      fprintf(stderr,
              "wgperf: warning: the launch accesses bytes %.0f to %.0f of '%s', outside the %.0f bytes --buffer "
              "gives it: the kernel is not written for this launch (no bound check for this grid), or the buffer "
              "is larger than --buffer says; the prediction counts those accesses\n",
              lo[q], hi[q], wgp_arg_name(wgp_kernel_arg(k, arg[q])), (double)in->buffer_bytes[arg[q]]);
  free(arg), free(lo), free(hi);
}

/* Parses the command line of analyze/predict (CMD), loads or extracts the
 * model, the GPU and the launch, and analyzes the launch. */
static int session_open(const char *cmd, int argc, char **argv, session *S) {
  memset(S, 0, sizeof *S);
  opts *op = &S->o;
  wgp_diag d;
  S->l = wgp_launch_new();
  if (!S->l)
    return input_error("out of memory");
  int rc = EXIT_OK;
  const char *first_launch_opt = NULL; /* a launch given as options */
  int took;
  for (int i = 0; i < argc && rc == EXIT_OK; i++) {
    const char *a = argv[i];
    bool val;
    if (strcmp(a, "--") == 0) {
      if (cli_source_flags_rest(argc, argv, i + 1, &op->flags))
        rc = input_error("out of memory");
      break;
    } else if ((took = cli_source_flag(argc, argv, i, &op->flags)) != 0) {
      if (took < 0)
        rc = usage_error("'%s' needs a value (-DNAME[=VALUE], -UNAME or -IDIR)", a);
      else
        i += took - 1;
    } else if (cli_cache_option(a, &op->flags)) {
    } else if (wgp_launch_is_option(a, &val)) {
      if (val && i + 1 == argc)
        rc = usage_error("'%s' needs a value", a);
      else if (wgp_launch_set_option(S->l, a, val ? argv[++i] : NULL, &d) != WGP_OK)
        rc = usage_error("%s", d.message + strlen("wgperf: error: "));
      else if (!first_launch_opt)
        first_launch_opt = a;
    } else if (strncmp(a, "-O", 2) == 0) {
      /* -O N or -ON, as for extract: the level a .cl/.cu source is compiled at */
      if (!a[2] && i + 1 == argc)
        rc = usage_error("'-O' needs a level (0, 1, 2, 3, s or z)");
      else if (!cli_olevel_ok(op->olevel = a[2] ? a + 2 : argv[++i]))
        rc = usage_error("bad optimization level '%s' (0, 1, 2, 3, s or z)", op->olevel);
    } else if (strcmp(a, "--kernel") == 0 || strcmp(a, "--gpu") == 0 || strcmp(a, "--launch") == 0 ||
               strcmp(a, "--trip") == 0 || strcmp(a, "--taken") == 0 || strcmp(a, "--regs") == 0 ||
               strcmp(a, "--jobs") == 0 || strcmp(a, "-j") == 0) {
      if (i + 1 == argc) {
        rc = usage_error("'%s' needs a value", a);
        break;
      }
      const char *v = argv[++i];
      if (strcmp(a, "--kernel") == 0)
        op->kernel = v;
      else if (strcmp(a, "--gpu") == 0)
        op->gpu = v;
      else if (strcmp(a, "--launch") == 0)
        op->launch_file = v;
      else if (strcmp(a, "--jobs") == 0 || strcmp(a, "-j") == 0) {
        unsigned jobs;
        if (parse_jobs(v, &jobs))
          rc = usage_error("%s '%s': expected a number of threads, 1 to %u", a, v, WGP_MAX_THREADS);
        else
          wgp_set_default_threads(jobs);
      } else if (strcmp(a, "--regs") == 0) {
        char *end;
        unsigned long r = strtoul(v, &end, 10);
        if (*end || r == 0 || r > 1024)
          rc = usage_error("--regs '%s': expected registers per thread, 1 to 1024", v);
        else
          op->regs = (unsigned)r;
      } else {
        rc = cli_hint_option(a, v, &op->hints, true);
      }
    } else if (strcmp(a, "--json") == 0) {
      op->json = true;
    } else if (strcmp(a, "--cold-l2") == 0) {
      op->cold_l2 = true;
    } else if (strcmp(a, "--baselines") == 0 && strcmp(cmd, "predict") == 0) {
      op->baselines = true;
    } else if (strcmp(a, "--trace") == 0 && strcmp(cmd, "analyze") == 0) {
      op->trace = true;
    } else if (strcmp(a, "--local-arg") == 0 || strncmp(a, "--local-arg=", 12) == 0) {
      rc = usage_error("--local-arg is wgprune's (a __local size as an expression of the work-group size); '%s' "
                       "takes --local-mem NAME=BYTES",
                       cmd);
    } else if (a[0] == '-' && a[1]) {
      rc = usage_error("unknown option '%s' for '%s'", a, cmd);
    } else if (op->input) {
      rc = usage_error("'%s' takes one input, got '%s' and '%s'", cmd, op->input, a);
    } else {
      op->input = a;
    }
  }
  if (rc == EXIT_OK && !op->input)
    rc = usage_error("'%s' needs an input (a kernel model, .cl, .cu, .bc or .ll)", cmd);
  if (rc == EXIT_OK && op->launch_file && first_launch_opt)
    rc = usage_error("give the launch either as --launch %s or as options (%s ...), not both: the file would "
                     "silently replace them",
                     op->launch_file, first_launch_opt);
  if (rc != EXIT_OK)
    return rc;
  if (op->launch_file) {
    wgp_launch *fl;
    if (wgp_launch_load_file(op->launch_file, &fl, &d) != WGP_OK) {
      fprintf(stderr, "%s\n", d.message);
      return EXIT_INPUT;
    }
    wgp_launch_free(S->l);
    S->l = fl;
  }
  /* The model: given, or extracted into a temporary file. */
  const char *model_path = op->input;
  size_t n = strlen(op->input);
  rc = cli_source_flags_check(op->input, &op->flags);
  if (rc != EXIT_OK)
    return rc;
  if (op->olevel && n > 5 && strcmp(op->input + n - 5, ".json") == 0)
    return usage_error("%s: -O%s applies to .cl, .cu and IR inputs, not to a kernel model", op->input, op->olevel);
  if (!(n > 5 && strcmp(op->input + n - 5, ".json") == 0)) {
    wgp_source_kind kind = wgp_source_kind_of(op->input);
    if (kind == WGP_SOURCE_UNKNOWN)
      return usage_error("%s: unknown input kind (expected .json, .cl, .cu, .bc or .ll)", op->input);
    char prefix[32];
    snprintf(prefix, sizeof prefix, "wgperf-%s", cmd);
    int fd = wgp_temp_template(S->tmpl, sizeof S->tmpl, prefix, ".json") ? mkstemps(S->tmpl, 5) : -1;
    if (fd < 0)
      return input_error("cannot make a temporary file: %s", strerror(errno));
    close(fd);
    S->made = true;
    rc = cli_flags_add_gpu(&op->flags, op->gpu);
    if (rc == EXIT_OK)
      rc = cli_extract(op->input, kind, op->olevel, &op->flags, op->kernel, S->tmpl);
    model_path = S->tmpl;
  }
  if (rc == EXIT_OK && wgp_model_load_file(model_path, &S->m, &d) != WGP_OK) {
    rc = EXIT_INPUT;
    if (S->made) /* the model made here from the source: name the source, not the temporary file */
      fprintf(stderr, "wgperf: error: %s: the model made from it is not valid (a fault of wgperf's; please report it "
              "with the source): %s\n", op->input, d.message);
    else
      fprintf(stderr, "%s\n", d.message);
  }
  if (rc == EXIT_OK) {
    S->k = cli_find_kernel(S->m, op->kernel, &op->flags);
    if (!S->k)
      rc = cli_no_kernel(op->input, op->kernel, S->m);
  }
  if (rc == EXIT_OK) {
    wgp_status st = wgp_gpu_open(op->gpu, &S->gpu, &d);
    if (st != WGP_OK)
      rc = EXIT_INPUT, fprintf(stderr, "%s\n", d.message);
  }
  wgp_analysis_input in = {0};
#define in S->in
  if (rc == EXIT_OK) {
    size_t na = wgp_kernel_num_args(S->k) ? wgp_kernel_num_args(S->k) : 1;
    S->align = calloc(na, sizeof *S->align);
    S->local = calloc(na + wgp_kernel_num_arrays(S->k), sizeof *S->local);
    S->bytes = calloc(na, sizeof *S->bytes);
    if (!S->align || !S->local || !S->bytes)
      rc = input_error("out of memory");
    else if (wgp_launch_bind(S->l, S->k, &in.launch, S->align, S->local, &d) != WGP_OK)
      rc = EXIT_INPUT, fprintf(stderr, "%s\n", d.message);
    else
      wgp_launch_buffer_sizes(S->l, S->k, S->bytes);
  }
  if (rc == EXIT_OK)
    rc = cli_hints_resolve(&op->hints, S->k);
  if (rc == EXIT_OK) {
    in.kernel = S->k;
    in.gpu = S->gpu;
    in.buffer_align = S->align;
    in.buffer_bytes = S->bytes;
    in.local_bytes = S->local;
    in.trip_loops = op->hints.trip_loop;
    in.trip_counts = op->hints.trip;
    in.num_trip_hints = op->hints.ntrip;
    in.taken_blocks = op->hints.taken_block;
    in.taken_fractions = op->hints.taken;
    in.num_taken_hints = op->hints.ntaken;
    in.l2_cold = op->cold_l2;
    if (wgp_estimate_new(&in, op->regs, &S->est, &d) != WGP_OK)
      rc = EXIT_INPUT, fprintf(stderr, "%s\n", d.message);
  }
#undef in
  (void)in;
  if (rc == EXIT_OK) {
    S->an = wgp_estimate_analysis(S->est);
    S->cache = wgp_estimate_cache(S->est);
    /* lanes leaving a __local array: the kernel is not written for this
     * size (one line: the access that goes furthest, and how many do) */
    const wgp_mem_stats *tot = wgp_analysis_total_stats(S->an);
    size_t worst = SIZE_MAX, n_out = 0;
    for (size_t i = 0; i < wgp_kernel_num_accesses(S->k); i++)
      if (tot[i].outside > 0) {
        n_out++;
        if (worst == SIZE_MAX || tot[i].outside_reach > tot[worst].outside_reach)
          worst = i;
      }
    if (worst != SIZE_MAX) {
      const wgp_access *a = wgp_kernel_access(S->k, worst);
      fprintf(stderr,
              "wgperf: warning: %zu __local access%s leave%s %s for this work-group size: the kernel is "
              "not written for it (M%zu, %s, %s up to %.0f bytes outside the array; wgprune skips such sizes)\n",
              n_out, n_out > 1 ? "es" : "", n_out > 1 ? "" : "s", n_out > 1 ? "their arrays" : "its array", worst,
              wgp_access_source(a) ? wgp_access_source(a) : "?",
              wgp_access_get_kind(a) == WGP_ACCESS_LOAD ? "reads" : "writes", tot[worst].outside_reach);
    }
    overreach_warning(&S->in, S->k);
  }
  return rc;
}

static int print_json(json_t *j) {
  char *text = json_dumps(j, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
  json_decref(j);
  if (!text)
    return input_error("out of memory");
  printf("%s\n", text);
  free(text);
  return EXIT_OK;
}

int cmd_analyze(int argc, char **argv) {
  session S;
  int rc = session_open("analyze", argc, argv, &S);
  wgp_footprint *fp = NULL;
  unsigned resident = 0;
  if (rc == EXIT_OK) {
    wgp_diag d;
    wgp_footprint_options o = {0};
    o.resident_groups_per_sm = resident = wgp_estimate_occupancy(S.est)->active_blocks_per_sm;
    o.totals = wgp_analysis_total_stats(S.an);
    if (wgp_footprint_analyze(&S.in, &o, &fp, &d) != WGP_OK)
      rc = EXIT_INPUT, fprintf(stderr, "%s\n", d.message);
  }
  if (rc == EXIT_OK) {
    if (S.o.json)
      rc = print_json(with_headers(report_json(S.k, S.gpu, S.l, S.an, S.cache, fp), S.m));
    else
      report_text(stdout, S.k, S.gpu, S.l, S.an, S.cache, fp, resident, S.o.trace, wgp_model_cuda_headers(S.m));
    if (rc == EXIT_OK && fflush(stdout) != 0)
      rc = input_error("cannot write the output: %s", strerror(errno));
  }
  wgp_footprint_free(fp);
  session_close(&S);
  return rc;
}

/* ---- predict ---------------------------------------------------------------- */

/* The plainest account of what limits the kernel (sim/bottleneck.c). */
static void bottleneck(char *buf, size_t size, const session *S, const wgp_sim_result *r) {
  wgp_bottleneck_words(S->k, S->gpu, S->an, S->cache, r, buf, size);
}

int cmd_predict(int argc, char **argv) {
  session S;
  int rc = session_open("predict", argc, argv, &S);
  wgp_sim_result r;
  unsigned regs = 0;
  const char *regs_from = "";
  if (rc == EXIT_OK) {
    wgp_diag d;
    regs = wgp_estimate_registers(S.est, &regs_from);
    if (wgp_estimate_simulate(S.est, 0, &r, &d) != WGP_OK)
      rc = EXIT_INPUT, fprintf(stderr, "%s\n", d.message);
  }
  if (rc == EXIT_OK) {
    char why[512];
    bottleneck(why, sizeof why, &S, &r);
    if (S.o.json) {
      json_t *j = json_object();
      json_object_set_new(j, "kernel", json_string(wgp_kernel_name(S.k)));
      json_object_set_new(j, "gpu", json_string(wgp_gpu_name(S.gpu)));
      json_object_set_new(j, "time_us", json_real(r.time_us));
      json_object_set_new(j, "cycles", json_real(r.cycles));
      json_t *occ = json_object();
      json_object_set_new(occ, "active_warps_per_sm", json_integer(r.active_warps_per_sm));
      json_object_set_new(occ, "active_groups_per_sm", json_integer(r.active_groups_per_sm));
      json_object_set_new(occ, "limiter", json_string(r.limiter ? r.limiter : "warps"));
      json_object_set_new(occ, "registers_per_thread", json_integer(regs));
      json_object_set_new(occ, "registers_source", json_string(regs_from));
      json_object_set_new(occ, "registers_fitted", json_boolean(wgp_estimate_registers_fitted(S.est)));
      json_object_set_new(j, "occupancy", occ);
      double stack, spill_ld, spill_st;
      wgp_kernel_local_memory_on(S.k, S.gpu, &stack, &spill_ld, &spill_st);
      if (stack > 0 || spill_ld > 0 || spill_st > 0) {
        json_t *lm = json_object();
        json_object_set_new(lm, "stack_bytes", json_real(stack));
        json_object_set_new(lm, "spill_loads_per_instruction", json_real(spill_ld));
        json_object_set_new(lm, "spill_stores_per_instruction", json_real(spill_st));
        json_object_set_new(j, "local_memory", lm);
      }
      if (S.o.baselines) {
        /* seeds/003's BSP at lambda = 1 (its lambda is fitted per kernel and GPU on
         * one measurement, by the caller) and the roofline after seeds/002, on this
         * analysis (docs/validation.md, "Baselines") */
        wgp_bsp_result bsp;
        wgp_roofline_result roof;
        json_t *bl = json_object();
        wgp_diag d;
        uint64_t threads = S.in.launch.global[0] * S.in.launch.global[1] * S.in.launch.global[2];
        if (wgp_baseline_bsp(S.k, S.gpu, S.an, threads, &bsp, &d) == WGP_OK)
          json_object_set_new(bl, "bsp_lambda1_us", json_real(bsp.time_s * 1e6));
        if (wgp_baseline_roofline(S.k, S.gpu, S.an, S.cache, wgp_estimate_groups(S.est), &roof, &d) == WGP_OK)
          json_object_set_new(bl, "roofline_us", json_real(roof.time_s * 1e6));
        json_object_set_new(j, "baselines", bl);
      }
      json_t *b = json_object();
      json_object_set_new(b, "best_us", json_real(r.best_us));
      json_object_set_new(b, "worst_us", json_real(r.worst_us));
      json_object_set_new(j, "bounds", b);
      json_t *br = json_object();
      json_object_set_new(br, "issue_cycles", json_real(r.issue_cycles));
      json_object_set_new(br, "compute_cycles", json_real(r.compute_cycles));
      json_object_set_new(br, "shared_l1_stall_cycles", json_real(r.mem_stall_cycles[WGP_STALL_SHARED_L1]));
      json_object_set_new(br, "l2_stall_cycles", json_real(r.mem_stall_cycles[WGP_STALL_L2]));
      json_object_set_new(br, "dram_stall_cycles", json_real(r.mem_stall_cycles[WGP_STALL_DRAM]));
      json_object_set_new(br, "constant_stall_cycles", json_real(r.mem_stall_cycles[WGP_STALL_CONSTANT]));
      json_object_set_new(br, "barrier_cycles", json_real(r.barrier_cycles));
      json_object_set_new(br, "launch_overhead_us", json_real(r.launch_overhead_us));
      json_object_set_new(br, "round_cycles", json_real(r.round_cycles));
      json_object_set_new(br, "rounds", json_real(r.rounds));
      json_object_set_new(br, "dram_bytes", json_real(r.dram_bytes));
      json_object_set_new(br, "l2_bytes", json_real(r.l2_bytes));
      json_object_set_new(br, "dram_write_bytes", json_real(r.dram_write_bytes));
      json_object_set_new(br, "dram_us", json_real(r.dram_us));
      json_object_set_new(br, "dram_activations", json_real(r.dram_activations));
      json_object_set_new(br, "dram_rows_us", json_real(r.dram_rows_us));
      json_object_set_new(br, "atomic_us", json_real(r.atomic_us));
      json_object_set_new(br, "queue_us", json_real(r.queue_us));
      json_object_set_new(br, "queue_groups", json_integer(r.queue_groups));
      json_object_set_new(br, "l2_port_busy", json_real(r.l2_port_busy));
      json_object_set_new(br, "idle_groups", json_integer((json_int_t)r.idle_groups));
      json_object_set_new(br, "bound", json_string(r.bound ? r.bound : "pipeline"));
      json_object_set_new(br, "extrapolated", json_boolean(r.extrapolated));
      json_object_set_new(br, "simulation_stopped", json_boolean(r.stopped));
      json_object_set_new(j, "breakdown", br);
      json_object_set_new(j, "bottleneck", json_string(why));
      json_object_set_new(j, "assumptions", flags_json(wgp_analysis_flags(S.an)));
      json_object_set_new(j, "l2_warm", json_boolean(S.cache->l2_warm));
      json_object_set_new(j, "fallbacks", fallbacks_json(S.k, S.an));
      json_t *u = untrusted_json(S.k, S.an);
      json_object_set_new(j, "trusted", json_boolean(json_array_size(u) == 0));
      json_object_set_new(j, "untrusted", u);
      rc = print_json(with_headers(j, S.m));
    } else {
      printf("kernel %s on %s\n", wgp_kernel_name(S.k), wgp_gpu_name(S.gpu));
      if (wgp_model_cuda_headers(S.m))
        printf("headers     %s\n", wgp_model_cuda_headers(S.m));
      json_t *u = untrusted_json(S.k, S.an);
      printf("time        %.4g us (%.4g cycles), between %.4g and %.4g us%s\n", r.time_us, r.cycles, r.best_us,
             r.worst_us, json_array_size(u) ? "; UNTRUSTED: it rests on a loop count nobody gave (below)" : "");
      json_decref(u);
      untrusted_text(stdout, "untrusted   ", S.k, S.an);
      printf("occupancy   %u warps, %u work-group%s per SM, limited by %s (%u registers per thread from %s)",
             r.active_warps_per_sm, r.active_groups_per_sm, r.active_groups_per_sm == 1 ? "" : "s",
             r.limiter ? r.limiter : "warps", regs, regs_from);
      /* a grid smaller than what the SMs hold at once: the occupancy above is
       * what each SM could hold, not what this launch gives it */
      uint64_t groups = wgp_estimate_groups(S.est), sms = wgp_gpu_sm_count(S.gpu);
      if (sms && r.active_groups_per_sm && groups < sms * r.active_groups_per_sm) {
        uint64_t busy = groups < sms ? groups : sms, most = (groups + sms - 1) / sms;
        printf("; this launch's %llu work-group%s fill%s %llu of the %llu SMs, at most %llu each (%llu warps)",
               (unsigned long long)groups, groups == 1 ? "" : "s", groups == 1 ? "s" : "", (unsigned long long)busy,
               (unsigned long long)sms, (unsigned long long)most,
               (unsigned long long)(most * (r.active_warps_per_sm / r.active_groups_per_sm)));
      }
      printf("\n");
      printf("rounds      %.4g rounds of %.4g cycles%s; limited by %s\n", r.rounds, r.round_cycles,
             r.extrapolated ? " (long loops extrapolated from a steady state)" : "", r.bound ? r.bound : "pipeline");
      if (r.idle_groups)
        printf("assumed     %llu of the %llu work-groups exit at once (their warps touch no memory and end "
               "within a tenth of the longest warp's time) and give their place to the next group: left out of the rounds\n",
               (unsigned long long)r.idle_groups, (unsigned long long)wgp_estimate_groups(S.est));
      if (wgp_estimate_registers_fitted(S.est))
        printf("assumed     the register count does not let one work-group of this size run; NVIDIA's compiler "
               "for this GPU was not asked (it may spill or refuse the launch): ranked as if it kept to %u\n",
               regs);
      double stack, spill_ld, spill_st;
      wgp_kernel_local_memory_on(S.k, S.gpu, &stack, &spill_ld, &spill_st);
      if (stack > 0 || spill_ld > 0 || spill_st > 0)
        printf("local       %.0f bytes of stack per thread, %.3g spill loads and %.3g spill stores per instruction "
               "(%s)\n",
               stack, spill_ld, spill_st, regs_from);
      if (r.stopped)
        printf("assumed     the simulation of a round stopped after %.0f instructions without a steady state to "
               "extrapolate from (no loop's time per iteration settled: warps drifting apart, or warps of a group "
               "waiting at different barriers); the rest of the round is taken at "
               "the rate so far, within the bounds\n",
               WGP_SIM_MAX_ISSUED);
      printf("per warp    issue %.4g, compute %.4g, shared/L1 %.4g, L2 %.4g, DRAM %.4g, constant %.4g, "
             "barrier %.4g cycles\n",
             r.issue_cycles, r.compute_cycles, r.mem_stall_cycles[0], r.mem_stall_cycles[1], r.mem_stall_cycles[2],
             r.mem_stall_cycles[3], r.barrier_cycles);
      printf("launch      %.3g us overhead\n", r.launch_overhead_us);
      printf("bottleneck  %s\n", why);
      unsigned fl = wgp_analysis_flags(S.an) & (wgp_analysis_num_fallbacks(S.an)
                                                    ? ~(WGP_TRACE_DATA_BRANCH | WGP_TRACE_DATA_LOOP | WGP_TRACE_UNKNOWN)
                                                    : ~0u);
      if (fl) {
        json_t *a = flags_json(fl);
        for (size_t i = 0; i < json_array_size(a); i++)
          printf("assumed     %s\n", json_string_value(json_array_get(a, i)));
        json_decref(a);
      }
      fallbacks_text(stdout, "fallback    ", S.k, S.an);
      char words[640];
      cache_words(words, sizeof words, S.cache, S.k, wgp_analysis_total_stats(S.an));
      printf("caches      %s\n", words);
    }
    if (rc == EXIT_OK && fflush(stdout) != 0)
      rc = input_error("cannot write the output: %s", strerror(errno));
  }
  session_close(&S);
  return rc;
}
