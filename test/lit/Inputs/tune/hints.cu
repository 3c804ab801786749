// tune-hints.test: a loop whose count is a loaded value (line 17; clang
// unrolls it with a remainder loop) and a branch on loaded data (line 19).
// variant 1 puts a loop of known count before them, so that their numbers
// (L<n>, B<n>) differ between the configurations; their lines do not.
// (block_size_x, elems and variant come from scale.json's space.)

extern "C" __global__ void scale(float *out, const float *in, int n, float a) {
  int i = blockIdx.x * block_size_x + threadIdx.x;
  if (i >= n)
    return;
  float s = 0.0f;
#if variant == 1
  for (int k = 0; k < (n >> 17); k++)
    s += in[(i + k * 32) % n];
#endif
  int count = (int)in[i];
  for (int k = 0; k < count; k++)
    s += a * in[(i + k) % n];
  if (in[(i + 1) % n] > 0.5f)
    s = sqrtf(s) * expf(s) + sinf(s) / (s + 1.0f) + cosf(s * a);
  out[i] = s;
}
