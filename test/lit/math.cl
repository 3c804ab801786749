// Math builtins map to special-function classes; double sin is fp64_special.
// OpenCL's float sqrt may be 3 ulp off (clang's !fpmath): one MUFU, as rsqrt.
// RUN: %clang_cl -O2  -g -c -emit-llvm %s -o %t.bc
// RUN: %opt -load-pass-plugin=%plugin -passes='print<wgperf>' -disable-output %t.bc | FileCheck %s

__kernel void mathfn(__global float *a, __global double *d) {
  int i = get_global_id(0);
  float x = a[i];
  a[i] = sqrt(x) + sin(x) + exp(x) + pow(x, 2.5f) + rsqrt(x);
  d[i] = sin(d[i]);
}

// One of each: sin, exp, pow on float, sqrt and rsqrt both one MUFU; sin on double.
// CHECK-LABEL: kernel mathfn (opencl)
// CHECK:       block 0 entry {{.*}}: {{.*}}fp32_add=4 fp64_special=1 {{.*}}sfu_exp=1 sfu_pow=1 sfu_rsqrt=2 sfu_sin=1 {{.*}}-> - exit
// CHECK-NOT:   call
// CHECK:       mem M2 load global 8B block=0 base=arg:d offset=(mul:nsw 8 (sext:32:64 (trunc:64:32 gid.x))) affine
// CHECK-NEXT:  mem M3 store global 8B block=0 base=arg:d offset=(mul:nsw 8 (sext:32:64 (trunc:64:32 gid.x))) affine
// CHECK-NEXT:  totals: {{.*}}fp64_special=1 {{.*}}sfu_exp=1 sfu_pow=1 sfu_rsqrt=2 sfu_sin=1 sreg
// CHECK-NOT:   warning
