// Softmax over rows, a warp a row: three passes over the row (max, sum of
// exponentials, normalize).  The cache analysis traces a few iterations at
// each end of a long pass and one sample iteration for its middle; the
// iterations that sample stands for put phantom lines in L1 and L2 (cache.h),
// so the second and third passes find in L1 what the whole first pass left.
// On the H100 16 groups of 4 warps share an SM's 256 KB of L1: 16 KB per
// group, four rows of 4 KB at most.
// RUN: %wgperf extract %s -o %t.json
//
// Rows of 16 KB: 64 of them per SM do not fit; every pass misses L1 (before
// the phantom lines the second and third hit 100%: only the first pass's
// traced iterations were in L1).
// RUN: %wgperf analyze %t.json --global 131072 --local 128 --arg rows=4096 --arg cols=4096 | FileCheck %s --check-prefix=LONG
// LONG: assumed long loops sampled
// LONG: M0   sampled-passes.cu:{{[0-9]+}} {{.*}} L1 hit 0%
// LONG: M1   sampled-passes.cu:{{[0-9]+}} {{.*}} L1 hit 0%
// LONG: M2   sampled-passes.cu:{{[0-9]+}} {{.*}} L1 hit 0%
//
// Rows of 256 B (two iterations a lane, nothing sampled) and of 4 KB (the
// 16 KB share exactly): the later passes hit.
// RUN: %wgperf analyze %t.json --global 131072 --local 128 --arg rows=4096 --arg cols=64 | FileCheck %s --check-prefix=FIT
// RUN: %wgperf analyze %t.json --global 131072 --local 128 --arg rows=4096 --arg cols=1024 | FileCheck %s --check-prefix=FIT
// FIT: M1   sampled-passes.cu:{{[0-9]+}} {{.*}} L1 hit 100%
// FIT: M2   sampled-passes.cu:{{[0-9]+}} {{.*}} L1 hit 100%
//
// A T4: 64 KB of L1 for 8 groups, 8 KB a group.  Rows of 4 KB (the H100's
// fit) miss; rows of 1 KB fit.
// RUN: %wgperf analyze %t.json --gpu t4 --global 131072 --local 128 --arg rows=4096 --arg cols=1024 | FileCheck %s --check-prefix=LONG
// RUN: %wgperf analyze %t.json --gpu t4 --global 131072 --local 128 --arg rows=4096 --arg cols=256 | FileCheck %s --check-prefix=FIT

__global__ void softmax_rows(const float *x, float *y, int rows, int cols) {
  int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
  if (row >= rows)
    return;
  const float *in = x + (size_t)row * cols;
  float *out = y + (size_t)row * cols;
  float m = -3.0e38f;
  for (int j = lane; j < cols; j += 32)
    m = fmaxf(m, in[j]);
  for (int o = 16; o > 0; o /= 2)
    m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, o));
  float s = 0;
  for (int j = lane; j < cols; j += 32)
    s += __expf(in[j] - m);
  for (int o = 16; o > 0; o /= 2)
    s += __shfl_xor_sync(0xffffffff, s, o);
  for (int j = lane; j < cols; j += 32)
    out[j] = __expf(in[j] - m) / s;
}
