/* calibrate.h - from fitted fields to a GPU description file (wgperf-calibrate).
 *
 * The base description (a shipped one or a file) is read as JSON, each fitted field
 * (microbench/fit/wgb_fit.h) replaces its {"value", "source", "note"}, and after every
 * replacement the whole text is checked with the library's loader
 * (wgp_gpu_load_string): a measured value that would make the description invalid
 * (a sector larger than the base's line, a size that is not a whole number of lines)
 * is not applied, and the reason is kept. Fields without a measurement keep the base
 * value and its original source. tools/ only.
 */
#ifndef WGPERF_TOOLS_CALIBRATE_H
#define WGPERF_TOOLS_CALIBRATE_H

#include "wgb_fit.h"
#include "wgperf/gpu.h"

#include <stddef.h>

/* The shipped description for a device: by a name fragment ("H100 PCIe" ->
 * h100-pcie, "A100" -> a100, ...), else by compute capability major (CC may be NULL),
 * else WGP_GPU_DEFAULT. WHY receives how it was chosen. */
const char *calib_pick_base(const char *device_name, const char *cc, char *why, size_t whylen);

typedef struct calib_result {
  size_t applied, rejected, kept;
  char **rejected_why; /* one "KEY = VALUE: reason" per rejected field */
  char *json;          /* the description text (valid) */
} calib_result;

/* Applies FIT to the base description BASE_FILE (already valid) with the top-level
 * DESCRIPTION. NAME is the output's name in diagnostics. Returns WGP_OK and fills R
 * (free with calib_result_free), or an error in DIAG. */
wgp_status calib_apply(const char *base_file, const wgb_fit *fit, const char *description, const char *name,
                       calib_result *r, wgp_diag *diag);
void calib_result_free(calib_result *r);
/* Fields of the description FILE whose source starts with "measured:" (0 when FILE
 * cannot be read). */
size_t calib_count_measured(const char *file);

#endif
