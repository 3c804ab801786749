/* expr_warp_internal.h - an expression compiled for one launch and evaluated
 * for all lanes of a warp at once (analyzer/ only; the tracer uses it).
 *
 * Compiling resolves every symbol once: launch constants (arguments, sizes)
 * become numbers and the subtrees that only use them are folded; a select
 * with a constant condition keeps only its chosen arm.  What is left is
 * evaluated per warp: a node whose operands are the same in every lane
 * (group ids, loop iterations) is computed once, the others lane by lane.
 * The answer for every lane is the one wgp_expr_eval gives with the same
 * symbol values (both use expr_ops_internal.h), including which lanes are
 * unknown; only the reasons are not kept.
 */
#ifndef WGPERF_EXPR_WARP_INTERNAL_H
#define WGPERF_EXPR_WARP_INTERNAL_H

#include "wgperf/expr.h"

#include <stdbool.h>

#define WGP_XLANES 64

typedef struct wgp_xprog wgp_xprog;

/* How a symbol varies, decided when compiling. */
typedef enum wgp_xclass {
  WGP_X_CONST,   /* the same for the whole launch: its value and status are given at once */
  WGP_X_UNIFORM, /* the same for every lane of a warp at one point of the trace */
  WGP_X_LANE,    /* differs between lanes */
  /* as UNIFORM and LANE, and fixed while the source's epoch stays the same
   * (ids of a warp: its group, its lanes' work-item ids) */
  WGP_X_WARP_UNIFORM,
  WGP_X_WARP_LANE
} wgp_xclass;

/* Classifies S; for WGP_X_CONST also writes its value (when *status is OK)
 * and status. */
typedef wgp_xclass (*wgp_xclassify)(void *user, const wgp_sym *s, int64_t *value, wgp_eval_status *status);

/* The values of S at evaluation time.  A uniform symbol writes v[0] and sets
 * *ok / *err to all ones or zero; a lane symbol writes v[l] for the lanes l of
 * MASK and sets the bits of the lanes whose value is known (*ok) or whose
 * lookup failed with WGP_EVAL_ERROR (*err); other lanes are unknown. */
typedef void (*wgp_xfill)(void *user, const wgp_sym *s, uint64_t mask, int64_t *v, uint64_t *ok, uint64_t *err);

/* Where evaluation takes symbol values from.  AFFINE and COORD are optional
 * (NULL: every lane symbol comes lane by lane from FILL): AFFINE says that
 * lane symbol S has the value *base + coordinate *coord of the lane in every
 * lane (e.g. gid.x = group offset + lid.x), and COORD holds the coordinates:
 * coordinate k of lane l at coord[k * WGP_XLANES + l], k < WGP_XCOORDS.  With
 * them, sums, differences, products and shifts by uniform amounts and the
 * casts of such values are carried as an offset plus a multiple of each
 * coordinate, as long as the coordinates' range in the warp proves that no
 * lane can overflow or wrap; each lane's value is then one multiply-add per
 * coordinate, and the same as lane by lane. */
#define WGP_XCOORDS 4
typedef struct wgp_xsource {
  wgp_xfill fill;
  void *user;
  bool (*affine)(void *user, const wgp_sym *s, int64_t *base, unsigned *coord);
  const int64_t *coord;
  /* Optional: each coordinate's smallest and largest value over a set of lanes
   * that holds every lane ever evaluated (e.g. the warp's); NULL: computed
   * over the evaluated lanes at each evaluation. */
  const int64_t *coord_lo, *coord_hi;
  /* Optional (0: none): while it stays the same, symbols of the WGP_X_WARP_*
   * classes keep their values and COORD, COORD_LO and COORD_HI stay as they
   * are, so a subtree of such symbols and constants keeps its value from one
   * evaluation to the next and is not computed again (the tracer changes it
   * with every warp it traces).  Needs COORD_LO and COORD_HI. */
  uint64_t epoch;
  /* Optional (0: none), with EPOCH: while it stays, the WGP_X_WARP_UNIFORM
   * symbols keep their values and the WGP_X_WARP_LANE ones their affine
   * forms, and COORD_LO and COORD_HI (then a box over the lanes of every
   * warp of the group) stay, across epochs: what of a kept subtree is a form
   * or the same in every lane holds for the group's next warp too (the
   * tracer changes it with every group). */
  uint64_t group_epoch;
} wgp_xsource;

/* wgp_xprog_compile's flag for the addresses of loaded data (the tracer's
 * data mode): a floating-point operation whose operands are known gives a
 * pseudo value, a hash of the operation and its operands (a compare: its low
 * bit; a conversion to an integer: its operand), the same wherever the same
 * operands meet, as a loaded value is a hash of the place it reads; a float
 * constant (?fconst) is a constant.  So `in[lane + (int)(k * table[c])]`,
 * whose table entry every lane of a warp reads alike, reads a contiguous run
 * from one place of the warp's, not 32 scattered ones.  Elsewhere (branch
 * conditions, trip counts) floating-point values stay unknown, but for the
 * compares and conversions of whole numbers a float holds exactly
 * (wgp_x_float_exact in expr_ops_internal.h). */
#define WGP_XPROG_FLOAT_AS_DATA 0x100u

/* Compiles E (keep: it must outlive the program) with WGP_EVAL_* FLAGS.
 * WGP_ERR_NOMEM is the only failure. */
wgp_status wgp_xprog_compile(const wgp_expr *e, unsigned flags, wgp_xclassify classify, void *user,
                             wgp_xprog **out);
void wgp_xprog_free(wgp_xprog *p);

/* Evaluates P for the lanes of MASK: writes out[l] for every lane l whose
 * value is known and returns the mask of those lanes.  *UNIFORM (may be NULL)
 * is set when every lane has the same status and value.  P keeps scratch
 * space: one evaluation at a time. */
uint64_t wgp_xprog_eval(wgp_xprog *p, const wgp_xsource *src, uint64_t mask, int64_t *out, bool *uniform);

/* The values of FORM (an offset, then a multiple of each coordinate) in the
 * lanes of MASK, coordinate k of lane l at COORD[k * WGP_XLANES + l]
 * (wrapping), into OUT. */
void wgp_xform_values(const int64_t *form, const int64_t *coord, uint64_t mask, int64_t *out);

/* As wgp_xprog_eval, but when the value is an offset plus multiples of the
 * lane coordinates for every lane of MASK (the same in every lane included),
 * OUT_FORM[0] takes the offset and OUT_FORM[1 + k] the multiple of coordinate k of
 * SRC->coord, OUT is left as it is and the result is true; otherwise OUT
 * and *KNOWN are as wgp_xprog_eval writes them and the result is false. */
bool wgp_xprog_eval_form(wgp_xprog *p, const wgp_xsource *src, uint64_t mask, int64_t *out, uint64_t *known,
                         int64_t *out_form);

/* Nodes left after folding (for tests). */
size_t wgp_xprog_size(const wgp_xprog *p);

#endif
