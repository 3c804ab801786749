// scale.cu's signature and parameters with its store left out: the optimizer
// removes the work whose results are never stored (tune-warnings.test).
// (block_size_x, elems and variant come from the space: wgtune defines every
// parameter)

extern "C" __global__ void scale(float *out, const float *in, int n, float a) {
  float s = 0.0f;
#pragma unroll
  for (int e = 0; e < elems; e++) {
    int i = blockIdx.x * block_size_x * elems + e * block_size_x + threadIdx.x;
    s += i < n ? a * in[i] : 0.0f;
  }
  // out[blockIdx.x * block_size_x + threadIdx.x] = s;
}
