/* custom_estimate.c - mutation for fuzz_estimate's input (an optional
 * "# options" line, a launch line, a model): one of the two JSON parts is
 * mutated with mutator.c, the other lines are kept. */
#include "mutator.h"

#include <stdlib.h>
#include <string.h>

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned seed);
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned seed) {
  uint8_t *p = data, *end = data + size;
  if (size && *p == '#') {
    uint8_t *nl = memchr(p, '\n', size);
    if (!nl)
      return LLVMFuzzerMutate(data, size, max_size);
    p = nl + 1;
  }
  uint8_t *nl = memchr(p, '\n', (size_t)(end - p));
  if (!nl || seed % 4 == 0) /* the options line or the whole: byte-level */
    return LLVMFuzzerMutate(data, size, max_size);
  /* part [a, b) is mutated in a scratch buffer, then spliced back */
  uint8_t *a = seed % 4 == 1 ? p : nl + 1, *b = seed % 4 == 1 ? nl : end;
  size_t before = (size_t)(a - data), after = (size_t)(end - b), len = (size_t)(b - a);
  if (before + after >= max_size)
    return LLVMFuzzerMutate(data, size, max_size);
  size_t room = max_size - before - after;
  uint8_t *buf = malloc(room > len ? room : len);
  if (!buf)
    return LLVMFuzzerMutate(data, size, max_size);
  memcpy(buf, a, len);
  size_t n = fuzz_mutate_json(buf, len, room, seed / 4);
  /* the launch must stay on one line */
  if (seed % 4 == 1 && memchr(buf, '\n', n)) {
    free(buf);
    return LLVMFuzzerMutate(data, size, max_size);
  }
  memmove(data + before + n, b, after);
  memcpy(data + before, buf, n);
  free(buf);
  return before + n + after;
}
