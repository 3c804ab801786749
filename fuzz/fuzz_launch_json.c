/* fuzz_launch_json.c - the JSON form of a launch (analyzer/launch.c) on any
 * bytes, then analyze + predict of the probe model's kernels with it.
 *
 * Input: a launch file ({"global": [...], "local": [...], "args": {...}, ...}).
 */
#include "fuzz.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = fuzz_text(data, size);
  wgp_launch *l;
  wgp_diag d;
  wgp_status st = wgp_launch_load_string(text, "fuzz-launch.json", &l, &d);
  fuzz_check_diag(st, &d, "fuzz-launch.json", "wgp_launch_load_string");
  if (st == WGP_OK) {
    fuzz_estimate_probe(l);
    wgp_launch_free(l);
  }
  free(text);
  return 0;
}
