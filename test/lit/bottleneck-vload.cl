// vload4/vstore4 of floats are four element accesses each (4 B alignment only), every
// one spanning four times the bytes it uses; their neighbours use the rest, so a launch
// bound by DRAM bandwidth moves no more than it uses and the bottleneck is the bandwidth,
// not coalescing. A truly strided read still is reported as uncoalesced.
// RUN: %wgperf predict %s --kernel axpby4 --global 4194304 --local 256 --arg n=16777216 | FileCheck %s
// CHECK: bottleneck  DRAM bandwidth
// RUN: %wgperf predict %s --kernel strided --global 4194304 --local 256 | FileCheck %s --check-prefix=STRIDE
// STRIDE: bottleneck  global loads at {{.*}}bottleneck-vload.cl:{{[0-9]+}} move {{[0-9.]+}}x the bytes they use: uncoalesced
__kernel void axpby4(const float a, __global const float *x, const float b, __global const float *y,
                     __global float *z, const int n) {
  int i = get_global_id(0);
  if (i < n / 4)
    vstore4(a * vload4(i, x) + b * vload4(i, y), i, z);
}
__kernel void strided(__global const float *x, __global float *z) {
  int i = get_global_id(0);
  z[i] = x[i * 8];
}
