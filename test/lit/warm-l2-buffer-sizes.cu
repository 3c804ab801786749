// Whether a launch's data is in L2 from before the launch is decided by its
// footprint.  The cache sample is a column of the wave's groups: it sees the
// columns of N its groups share, but each of its groups walks a row of M of
// its own, and it cannot tell that the groups of other columns read the same
// rows, so from the sample alone the naive multiply of 1024^2 on the H100
// touches 172 MB and is cold.  Each buffer is then bounded by the extent of
// its addresses over the launch (isl: M, N and P 4 MiB each): 12.6 MB fit in
// 3/4 of the 50 MB L2, every access hits there and no request waits on DRAM.
// RUN: %wgperf predict %s --kernel mm --global 1024,1024 --local 32,32 --arg W=1024 | FileCheck %s --check-prefix=WARM
// WARM: DRAM 0,
// WARM: caches {{.*}} the launch's 12.6 MB fit in L2: taken as there from before the launch
// --cold-l2 starts from an empty L2.
// RUN: %wgperf predict %s --kernel mm --global 1024,1024 --local 32,32 --arg W=1024 --cold-l2 | FileCheck %s --check-prefix=COLD
// COLD-NOT: fit in L2
// COLD: caches
// COLD-NOT: fit in L2
// M's row from a product of ids has no extent (not affine): the sample's
// estimate of M stands and the launch is cold, unless --buffer gives M's size,
// which bounds it as well (23.3 MB: N's estimate from the sample fits).
// RUN: %wgperf predict %s --kernel mmsq --global 1024,1024 --local 32,32 --arg W=1024 | FileCheck %s --check-prefix=COLD
// RUN: %wgperf predict %s --kernel mmsq --global 1024,1024 --local 32,32 --arg W=1024 --buffer M=4MiB | FileCheck %s --check-prefix=SIZED
// SIZED: the launch's 23.3 MB fit in L2
// RUN: %wgperf predict %s --kernel mmsq --global 1024,1024 --local 32,32 --arg W=1024 --buffer M=4MiB --cold-l2 | FileCheck %s --check-prefix=COLD
extern "C" __global__ void mm(float *P, const float *M, const float *N, int W) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  float acc = 0.0f;
  for (int k = 0; k < W; ++k)
    acc += M[row * W + k] * N[k * W + col];
  P[row * W + col] = acc;
}
extern "C" __global__ void mmsq(float *P, const float *M, const float *N, int W) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int r = (row * row) % W;
  float acc = 0.0f;
  for (int k = 0; k < W; ++k)
    acc += M[r * W + k] * N[k * W + col];
  P[row * W + col] = acc;
}
