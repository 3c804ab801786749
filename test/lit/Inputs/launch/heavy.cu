// 96 values live across a loop: ptxas needs more than 64 registers per
// thread unless the launch attribute bounds the block to 1024 threads.
// (The unrolled loops over a[] leave 96 scalars; no array stays.)
#define HEAVY_BODY(gid)                                                                                               \
  float a[96];                                                                                                        \
  _Pragma("unroll") for (int i = 0; i < 96; i++) a[i] = x[(gid) + i * 4096];                                          \
  for (int k = 0; k < 64; k++) {                                                                                      \
    _Pragma("unroll") for (int i = 0; i < 96; i++) a[i] = a[i] * a[(i + 1) % 96] + 1.0f;                              \
  }                                                                                                                   \
  _Pragma("unroll") for (int i = 0; i < 96; i++) x[(gid) + i * 4096] = a[i];

extern "C" __global__ void heavy(float *x) { HEAVY_BODY(blockIdx.x * blockDim.x + threadIdx.x) }

extern "C" __global__ void __launch_bounds__(1024) heavy1024(float *x) {
  HEAVY_BODY(blockIdx.x * blockDim.x + threadIdx.x)
}
