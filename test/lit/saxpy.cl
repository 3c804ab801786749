// SAXPY: a scalar float argument, y read and written in place.
// RUN: %clang_cl -O2  -g -c -emit-llvm %s -o %t.bc
// RUN: %opt -load-pass-plugin=%plugin -passes='print<wgperf>' -disable-output %t.bc | FileCheck %s

__kernel void saxpy(float alpha, __global const float *x, __global float *y, int n) {
  int i = get_global_id(0);
  if (i < n)
    y[i] = alpha * x[i] + y[i];
}

// a*x+y contracts to one fma; alpha is a private float scalar.
// CHECK-LABEL: kernel saxpy (opencl)
// CHECK-NEXT:  arg 0 alpha: scalar private 'float' bytes=4
// CHECK-NEXT:  arg 1 x: pointer global 'float*' elem=4 (type) const
// CHECK-NEXT:  arg 2 y: pointer global 'float*' elem=4 (type){{$}}
// CHECK:         branch work-item: (slt:32 (trunc:64:32 gid.x) arg.n) ? 1 : 2
// CHECK:       block 1 if.then {{.*}}: {{.*}}fp32_fma=1 {{.*}}ld.global.32=2 st.global.32=1 -> 2
// CHECK:       mem M0 load global 4B block=1 base=arg:x offset=(mul:nsw 4 (sext:32:64 (trunc:64:32 gid.x))) affine
// CHECK-NEXT:  mem M1 load global 4B block=1 base=arg:y offset=(mul:nsw 4 (sext:32:64 (trunc:64:32 gid.x))) affine
// CHECK-NEXT:  mem M2 store global 4B block=1 base=arg:y offset=(mul:nsw 4 (sext:32:64 (trunc:64:32 gid.x))) affine
// CHECK-NOT:   fp32_mul=
