/* fuzz_model.c - the kernel model loader (analyzer/model.c) on any bytes.
 *
 * Input: a kernel model file.  A model that loads is walked through every
 * accessor, and every expression must print back to itself.
 */
#include "fuzz.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  wgp_model *m;
  wgp_diag d;
  wgp_status st = wgp_model_load_string((const char *)data, size, "fuzz.json", &m, &d);
  fuzz_check_diag(st, &d, "fuzz.json", "wgp_model_load_string");
  if (st == WGP_OK) {
    fuzz_walk_model(m);
    wgp_model_free(m);
  }
  return 0;
}
