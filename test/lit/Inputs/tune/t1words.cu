// scale.cu's signature and parameters: variant 0 reads places that depend on
// loaded data, variant 1 loops as often as a loaded value says (a count the
// model cannot know); variant 2 stages in a dynamic shared array, which
// scale.json gives no SharedMemory for (tune-warnings.test: the reasons and
// bottlenecks in the space's words, not wgperf predict's options).
// (block_size_x, elems and variant come from the space: wgtune defines every
// parameter)

extern "C" __global__ void scale(float *out, const float *in, int n, float a) {
  int i = blockIdx.x * block_size_x + threadIdx.x;
#if variant == 2
  extern __shared__ float stage[];
  stage[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  if (i < n)
    out[i] = a * stage[block_size_x - 1 - threadIdx.x];
#elif variant == 1
  float s = 0.0f;
  if (i < n)
    for (int k = 0; k < (int)in[i]; k++)
      s += a * in[(i + k) % n];
  if (i < n)
    out[i] = s;
#else
  if (i < n)
    out[i] = a * in[((int)in[i] * 7919) % n];
#endif
}
