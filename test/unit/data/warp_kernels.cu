/* warp_kernels.cu - kernels for the warp-primitive tests of test_pipeline.
 * Regenerate warp_kernels.json with
 *   build/bin/wgperf extract test/unit/data/warp_kernels.cu -o test/unit/data/warp_kernels.json
 */

/* Each iteration waits for a shuffle, then an add. */
extern "C" __global__ void shfl_chain(float *a, int n) {
  float v = a[threadIdx.x];
#pragma unroll 1
  for (int i = 0; i < n; i++)
    v += __shfl_xor_sync(0xffffffffu, v, 1);
  a[threadIdx.x] = v;
}

/* The same chain without the shuffle. */
extern "C" __global__ void add_chain(float *a, int n) {
  float v = a[threadIdx.x];
#pragma unroll 1
  for (int i = 0; i < n; i++)
    v += v;
  a[threadIdx.x] = v;
}

/* Instruction-level parallelism (the blocks' arith_chain): eight
 * independent multiply-add chains per iteration... */
extern "C" __global__ void acc_indep(float *a, float x, int n) {
  float s0 = a[threadIdx.x], s1 = s0 + 1, s2 = s0 + 2, s3 = s0 + 3, s4 = s0 + 4, s5 = s0 + 5, s6 = s0 + 6, s7 = s0 + 7;
#pragma unroll 1
  for (int i = 0; i < n; i++) {
    s0 = s0 * x + 1.5f; s1 = s1 * x + 1.5f; s2 = s2 * x + 1.5f; s3 = s3 * x + 1.5f;
    s4 = s4 * x + 1.5f; s5 = s5 * x + 1.5f; s6 = s6 * x + 1.5f; s7 = s7 * x + 1.5f;
  }
  a[threadIdx.x] = s0 + s1 + s2 + s3 + s4 + s5 + s6 + s7;
}

/* ...and eight multiply-adds, each needing the one before. */
extern "C" __global__ void acc_chain(float *a, float x, int n) {
  float s = a[threadIdx.x];
#pragma unroll 1
  for (int i = 0; i < n; i++) {
    s = s * x + 1.5f; s = s * x + 1.5f; s = s * x + 1.5f; s = s * x + 1.5f;
    s = s * x + 1.5f; s = s * x + 1.5f; s = s * x + 1.5f; s = s * x + 1.5f;
  }
  a[threadIdx.x] = s;
}
