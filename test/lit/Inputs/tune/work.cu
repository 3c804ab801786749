// A kernel for wgtune --prune's tests: each thread runs REPS rounds of
// dependent arithmetic on one element, so the configurations' times spread
// over two orders of magnitude and their bounds separate them: with a few
// ranks asked for, the configurations of many rounds are pruned.
#ifndef block_size_x
#define block_size_x 64
#endif
#ifndef reps
#define reps 1
#endif

extern "C" __global__ void work(float *out, const float *in, int n, float a) {
  int i = blockIdx.x * block_size_x + threadIdx.x;
  if (i >= n)
    return;
  float x = in[i];
  for (int r = 0; r < reps; r++)
    x = x * a + 1.0f;
  out[i] = x;
}
