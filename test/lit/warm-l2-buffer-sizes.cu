// Whether a launch's data is in L2 from before the launch is decided by its
// footprint.  The cache sample (the first groups of one row of the grid) sees
// the columns of N its groups read, but each of its groups walks a row of M
// of its own and the sample cannot tell that the groups of other columns read
// the same rows, so from the sample alone the naive multiply of 1024^2 on the
// H100 touches 172 MB and is taken as cold.  The --buffer sizes bound each
// buffer's footprint: 3 x 4 MiB fit in 3/4 of the 50 MB L2, every access hits
// there and no request waits on DRAM.
// RUN: %wgperf predict %s --kernel mm --global 1024,1024 --local 32,32 --arg W=1024 | FileCheck %s --check-prefix=COLD
// COLD-NOT: fit in L2
// COLD: caches
// COLD-NOT: fit in L2
// RUN: %wgperf predict %s --kernel mm --global 1024,1024 --local 32,32 --arg W=1024 --buffer P=4MiB --buffer M=4MiB --buffer N=4MiB | FileCheck %s --check-prefix=WARM
// WARM: DRAM 0,
// WARM: caches {{.*}} the launch's 12.6 MB fit in L2: taken as there from before the launch
// A size above the sample's estimate bounds nothing: M's estimate stands (N's
// 64 MiB are not counted, only what the sample says of it: 23.3 MB fit).
// RUN: %wgperf predict %s --kernel mm --global 1024,1024 --local 32,32 --arg W=1024 --buffer P=4MiB --buffer M=64MiB --buffer N=4MiB | FileCheck %s --check-prefix=COLD
// RUN: %wgperf predict %s --kernel mm --global 1024,1024 --local 32,32 --arg W=1024 --buffer P=4MiB --buffer M=4MiB --buffer N=64MiB | FileCheck %s --check-prefix=NBIG
// NBIG: the launch's 23.3 MB fit in L2
// --cold-l2 overrides the sizes.
// RUN: %wgperf predict %s --kernel mm --global 1024,1024 --local 32,32 --arg W=1024 --buffer P=4MiB --buffer M=4MiB --buffer N=4MiB --cold-l2 | FileCheck %s --check-prefix=COLD
extern "C" __global__ void mm(float *P, const float *M, const float *N, int W) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  float acc = 0.0f;
  for (int k = 0; k < W; ++k)
    acc += M[row * W + k] * N[k * W + col];
  P[row * W + col] = acc;
}
