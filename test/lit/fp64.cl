// Double-precision arithmetic: fp64 fma, fp64 division and 8-byte accesses.
// RUN: %clang_cl -O2  -g -c -emit-llvm %s -o %t.bc
// RUN: %opt -load-pass-plugin=%plugin -passes='print<wgperf>' -disable-output %t.bc | FileCheck %s

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void daxpy(double a, __global const double *x, __global double *y) {
  int i = get_global_id(0);
  y[i] = a * x[i] + y[i] / 3.0;
}

// a*x + y/3.0: one fp64 fma (contracted) and one fp64 division.
// CHECK-LABEL: kernel daxpy (opencl)
// CHECK-NEXT:  arg 0 a: scalar private 'double' bytes=8
// CHECK-NEXT:  arg 1 x: pointer global 'double*' elem=8 (type) const
// CHECK-NEXT:  arg 2 y: pointer global 'double*' elem=8 (type){{$}}
// CHECK-NEXT:  block 0 entry {{.*}}fp64_div=1 fp64_fma=1 {{.*}}ld.global.64=2 other=2 sreg=2 st.global.64=1 -> - exit
// CHECK-NEXT:  mem M0 load global 8B block=0 base=arg:x offset=(mul:nsw 8 (sext:32:64 (trunc:64:32 gid.x))) affine
// CHECK-NEXT:  mem M1 load global 8B block=0 base=arg:y offset=(mul:nsw 8 (sext:32:64 (trunc:64:32 gid.x))) affine
// CHECK-NEXT:  mem M2 store global 8B block=0 base=arg:y offset=(mul:nsw 8 (sext:32:64 (trunc:64:32 gid.x))) affine
// CHECK-NOT:   fp32_
