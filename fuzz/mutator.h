/* mutator.h - the JSON-aware mutation of mutator.c (fuzz-* binaries only). */
#ifndef WGPERF_FUZZ_MUTATOR_H
#define WGPERF_FUZZ_MUTATOR_H

#include <stddef.h>
#include <stdint.h>

/* Mutates the JSON text DATA (SIZE bytes, room for MAX_SIZE) in place and
 * returns its new size; falls back to libFuzzer's mutation. */
size_t fuzz_mutate_json(uint8_t *data, size_t size, size_t max_size, unsigned seed);

#endif
