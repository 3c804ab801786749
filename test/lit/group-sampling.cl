// Control flow that depends on the group id in a large grid: up to 4096 groups
// are traced, one per stretch of 16 here, picked in its stretch by a fixed hash.
// A bitonic step with j >= 256 is active in half the groups (bit log2(j/256) of
// the group id); one group at the same place of every stretch saw only the
// active half for every j from 256 to 2048, twice the true time. Every j now
// costs about the same, as on the GPU: half the work-items swap.
// RUN: %wgperf predict %s --global 16777216 --local 256 --arg j=64 --arg k=4096 --gpu h100 --json | FileCheck %s --check-prefix=J64
// J64: "time_us": 5{{[0-9]}}.
// RUN: %wgperf predict %s --global 16777216 --local 256 --arg j=1024 --arg k=4096 --gpu h100 --json | FileCheck %s --check-prefix=J1024
// J1024: "time_us": 5{{[0-9]}}.
// RUN: %wgperf analyze %s --global 16777216 --local 256 --arg j=1024 --arg k=4096 --gpu h100 | FileCheck %s --check-prefix=AN
// AN: warps   524288 in the launch, 2 distinct (32768 traced; groups sampled evenly
__kernel void bitonic_step(__global uint *data, uint j, uint k) {
  uint i = get_global_id(0);
  uint ixj = i ^ j;
  if (ixj > i) {
    uint a = data[i], b = data[ixj];
    bool up = (i & k) == 0;
    if ((up && a > b) || (!up && a < b)) {
      data[i] = b;
      data[ixj] = a;
    }
  }
}
