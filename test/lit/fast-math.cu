// The fast intrinsics (__sinf, __expf, __logf, __fdividef: one MUFU instruction,
// at most an FMUL beside) are their own cost class, sfu_fast; sinf, expf, logf and
// a / b are the precise functions' sequences (sfu_sin, sfu_exp, sfu_log, fp32_div),
// several times the cost on every GPU description.
// RUN: %wgperf extract %s -o %t.json --print 2>&1 | FileCheck %s
// CHECK-LABEL: kernel fast
// CHECK: totals:
// CHECK-NOT: fp32_div
// CHECK-SAME: sfu_fast=4
// CHECK-LABEL: kernel precise
// CHECK: totals: {{.*}}fp32_div=1 {{.*}}sfu_exp=1 sfu_log=1 sfu_sin=1
// On a GTX 980 the precise functions keep the load/store of one float per
// work-item compute-bound, the fast ones leave it to DRAM:
// RUN: %wgperf predict %t.json --kernel precise --global 1048576 --local 256 --arg n=1048576 --gpu gtx-980 | FileCheck %s --check-prefix=PREC
// PREC: rounds {{.*}}; limited by pipeline
// RUN: %wgperf predict %t.json --kernel fast --global 1048576 --local 256 --arg n=1048576 --gpu gtx-980 | FileCheck %s --check-prefix=FAST
// FAST: rounds {{.*}}; limited by dram_bandwidth
extern "C" __global__ void precise(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = sinf(x[i]) + expf(x[i]) + logf(x[i]) + x[i] / (x[i] + 1.0f);
}
extern "C" __global__ void fast(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = __sinf(x[i]) + __expf(x[i]) + __logf(x[i]) + __fdividef(x[i], x[i] + 1.0f);
}
