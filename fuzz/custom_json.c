/* custom_json.c - the JSON-aware mutator (mutator.c) for the targets whose
 * whole input is one JSON document (model, gpu, launch_json, space). */
#include "mutator.h"

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned seed);

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned seed) {
  return fuzz_mutate_json(data, size, max_size, seed);
}
