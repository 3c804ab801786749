// A polynomial per element with its coefficients in __constant__ memory,
// which KTT sets as a Symbol argument (tune-ktt-args.test).
#ifndef block_size_x
#define block_size_x 64
#endif

__constant__ float coeffs[16];

extern "C" __global__ void poly(float *out, const float *in, int n) {
  int i = blockIdx.x * block_size_x + threadIdx.x;
  if (i < n) {
    float x = in[i], y = 0.0f;
#pragma unroll
    for (int k = 0; k < 16; k++)
      y = y * x + coeffs[k];
    out[i] = y;
  }
}
