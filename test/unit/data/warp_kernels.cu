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
