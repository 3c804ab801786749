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

__kernel void heavy(__global float *x) { HEAVY_BODY(get_global_id(0)) }

__kernel __attribute__((reqd_work_group_size(1024, 1, 1))) void heavy1024(__global float *x) {
  HEAVY_BODY(get_global_id(0))
}
