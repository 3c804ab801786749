// The model cache's test kernel (model-cache.test): clang warns about the
// literal conversion on every compile, and STRIDE comes from an #included
// header the test edits.
#include "warn.h"

__global__ void scale(float *a, int n) {
  int half = 2.5;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
#ifdef BREAK
#error broken on purpose
#endif
  if (i < n)
    a[i * STRIDE] = a[i * STRIDE] * 2.0f + half;
}
