/* footprint_internal.h - the isl side of footprint.c: block domains,
 * addresses as isl functions, sector sets of an access over a range of
 * work-groups, counting. */
#ifndef WGPERF_FOOTPRINT_INTERNAL_H
#define WGPERF_FOOTPRINT_INTERNAL_H

#include "wgperf/analyze.h"

#include <isl/aff.h>
#include <isl/ctx.h>
#include <isl/set.h>

#define FP_REASON 160
#define FP_MAX_RADIX 6

typedef struct fp_sets fp_sets;

/* What the isl side knows of one access. */
typedef struct fp_access_info {
  bool ok;             /* an address function and a domain exist */
  bool bound;          /* the domain took a data-dependent branch both ways */
  bool never;          /* no lane of the launch executes it */
  char reason[FP_REASON];
  int buffer;          /* buffer index (fp_sets_buffer_name), -1 when none */
  unsigned bytes;      /* per lane */
  bool store;          /* store or atomic (written back); else load */
} fp_access_info;

/* A mixed-radix view of a buffer's sector numbers: sector s is written
 * (q_n, ..., q_1, r) with s = sum q_j * radix[j-1] / unit + r.  The view is
 * a bijection on the buffer's sectors; it lets isl see rows and planes as
 * dimensions of their own instead of existentially quantified lattices. */
typedef struct fp_radix {
  unsigned unit;                  /* 32 (sectors) or 128 (lines) */
  size_t n;                       /* radices in use (0: plain sector numbers) */
  int64_t radix[FP_MAX_RADIX];    /* bytes, increasing, each dividing the next, multiples of unit */
} fp_radix;

/* Builds the domains and address functions of IN's kernel for its launch.
 * Fails only when out of memory; accesses that cannot be described are
 * marked (fp_access_info.ok false, with a reason). */
wgp_status fp_sets_new(const wgp_analysis_input *in, fp_sets **out, wgp_diag *diag);
void fp_sets_free(fp_sets *s);

const fp_access_info *fp_sets_access(const fp_sets *s, size_t id);
size_t fp_sets_num_buffers(const fp_sets *s);
const char *fp_sets_buffer_name(const fp_sets *s, int buffer);
/* Its argument index, or the number of arguments + its global array's index. */
long fp_sets_buffer_key(const fp_sets *s, int buffer);
uint64_t fp_sets_groups(const fp_sets *s);
isl_ctx *fp_sets_ctx(fp_sets *s);

/* The view for the accesses IDS (one buffer) and UNIT: the finest whose
 * digits never carry for any lane of the launch. */
void fp_sets_radix(fp_sets *s, const size_t *ids, size_t n, unsigned unit, fp_radix *out);

/* Give: the units (sectors or lines, per RX) access ID touches in the
 * work-groups whose dispatch index is in [G_LO, G_HI); NULL when isl gave up. */
isl_set *fp_sets_units(fp_sets *s, size_t id, const fp_radix *rx, uint64_t g_lo, uint64_t g_hi);
/* The lane executions of access ID in [G_LO, G_HI): its count; -1 when isl gave up. */
double fp_sets_executions(fp_sets *s, size_t id, uint64_t g_lo, uint64_t g_hi);

/* ---- footprint_expr.c: expressions as isl functions ---- */

#define FP_IDS 6 /* dimensions of every frame: gx gy gz lx ly lz, then loop iterations */

typedef struct val {
  isl_pw_aff *pa; /* NULL: failed */
  bool boolean;   /* 0 or 1 */
} val;

/* A conversion in the frame of one block. */
typedef struct conv {
  isl_ctx *ctx;
  const wgp_trace_launch *L;
  const uint64_t *ngrp; /* groups per dimension */
  const bool *partial;  /* the last group of a dimension is short */
  isl_space *space;     /* keep: the frame */
  const long *nest;     /* loop ids of dims FP_IDS.. */
  unsigned depth;
  isl_set *dom;         /* keep: where ranges are checked */
  char *why;            /* FP_REASON bytes: the first reason a conversion fails */
  /* the largest iteration of each loop of the nest over dom, found when a
   * range is first bounded by intervals (it_known: a bit per loop; it_bad:
   * none found) */
  int64_t it_hi[16];
  uint32_t it_known, it_bad;
} conv;

/* E's value (give), or a NULL pa with a reason in c->why. */
val conv_expr(conv *c, const wgp_expr *e);
isl_pw_aff *pa_const(conv *c, int64_t v);
isl_pw_aff *pa_var(conv *c, unsigned pos);
/* Whether PA (keep), the value of E (NULL: unknown), is a W-bit signed
 * value wherever c->dom holds. */
bool signed_ok(conv *c, const wgp_expr *e, isl_pw_aff *pa, unsigned w, const char *what);

/* ---- footprint_count.c ---- */

/* Number of points of SET (take), -1 when SET is NULL or isl gave up. */
double fp_count(isl_set *set);
/* The points of each of the N sets SETS (keep) that no set before it has
 * (FIRSTS[i]; their sum is the points of the union) and, with OWN, each
 * set's points (OWN[i]), counted from the runs of their points; false when
 * that does not suit (many values to walk, large numbers): count the unions
 * with fp_count then. */
bool fp_count_firsts(isl_set **sets, size_t n, double *firsts, double *own);

#endif
