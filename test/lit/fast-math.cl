// OpenCL's native_ and half_ functions are fast intrinsics (sfu_fast, one MUFU
// instruction each); sin, exp and log the precise functions. a / b may be 2.5
// ulp off in OpenCL C (clang's !fpmath): NVIDIA's OpenCL compiler divides with a
// reciprocal and a multiply (the H100 measures it as fast as __expf), so it is
// sfu_fast too, unless -cl-fp32-correctly-rounded-divide-sqrt asks for IEEE.
// RUN: %wgperf extract %s -o %t.json --print 2>&1 | FileCheck %s
// CHECK-LABEL: kernel fast
// CHECK: totals:
// CHECK-NOT: fp32_div
// CHECK-SAME: sfu_fast=4
// CHECK-LABEL: kernel precise
// CHECK: totals:
// CHECK-NOT: fp32_div
// CHECK-SAME: sfu_exp=1 sfu_fast=1 sfu_log=1 sfu_sin=1
// RUN: %wgperf extract %s -o %t.rn.json --print -- -cl-fp32-correctly-rounded-divide-sqrt 2>&1 \
// RUN:   | FileCheck %s --check-prefix=IEEE
// IEEE-LABEL: kernel fast
// IEEE: totals: {{.*}}sfu_fast=4
// IEEE-LABEL: kernel precise
// IEEE: totals: {{.*}}fp32_div=1 {{.*}}sfu_exp=1 sfu_log=1 sfu_sin=1
// -cl-fast-relaxed-math lets the functions be approximated (clang's afn on
// the calls): NVIDIA's compilers then take their intrinsics, as nvcc's
// -use_fast_math does (use-fast-math.cu).
// RUN: %wgperf extract %s -o %t.relaxed.json --print -- -cl-fast-relaxed-math 2>&1 \
// RUN:   | FileCheck %s --check-prefix=RELAXED
// RELAXED-LABEL: kernel precise
// RELAXED: totals:
// RELAXED-NOT: sfu_exp
// RELAXED-SAME: sfu_fast=4
__kernel void precise(__global float *x, int n) {
  int i = get_global_id(0);
  if (i < n)
    x[i] = sin(x[i]) + exp(x[i]) + log(x[i]) + x[i] / (x[i] + 1.0f);
}
__kernel void fast(__global float *x, int n) {
  int i = get_global_id(0);
  if (i < n)
    x[i] = native_sin(x[i]) + native_exp(x[i]) + half_log(x[i]) + native_divide(x[i], x[i] + 1.0f);
}
