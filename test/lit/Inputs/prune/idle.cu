// Kernels for wgprune-idle-lanes.test.

// A work-item's path depends on its global id alone.
extern "C" __global__ void scale(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 2.0f * in[i];
}

// Each work-item loops over its group: a smaller group is other work.
extern "C" __global__ void groupsum(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.0f;
  for (int k = 0; k < blockDim.x; k++)
    s += in[blockIdx.x * blockDim.x + k];
  if (i < n)
    out[i] = s;
}
