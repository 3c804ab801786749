/* idle_kernels.cu - kernels for the idle-lane rule of test_prune and of
 * test/lit/wgprune-idle-lanes.test (stage 1:
 * a 1-D size whose last warp is partial is left to the size filling the same
 * warps).  Regenerate idle_kernels.json with
 *   build/bin/wgperf extract test/unit/data/idle_kernels.cu -o test/unit/data/idle_kernels.json
 */

/* Paths by the global id alone: the rule applies. */
extern "C" __global__ void scale(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 2.0f * in[i];
}

/* A tile of 48 floats indexed by the local id: sizes above 48 leave it, so
 * 64, which 33 to 48 would be left to, cannot run. */
extern "C" __global__ void tile48(const float *in, float *out, int n) {
  __shared__ float t[48];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  t[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  if (i < n)
    out[i] = t[threadIdx.x] + 1.0f;
}

/* Threads take roles by their local id (the first 16 of a group sum a row of
 * M, the others copy): the rule does not apply. */
extern "C" __global__ void roles(const float *in, float *out, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float s = in[i];
  if (threadIdx.x < 16)
    for (int k = 0; k < m; k++)
      s += in[(i + k) % n];
  out[i] = s;
}

/* Each thread loops over its group: the rule does not apply. */
extern "C" __global__ void groupsum(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.0f;
  for (int k = 0; k < blockDim.x; k++)
    s += in[blockIdx.x * blockDim.x + k];
  if (i < n)
    out[i] = s;
}
