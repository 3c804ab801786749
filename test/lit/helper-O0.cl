// At -O0 (with noinline helpers) the normalization still inlines everything:
// no call is left and the model matches the -O2 one.
// RUN: %clang_cl -O0 -g -c -emit-llvm %s -o %t.O0.bc
// RUN: %clang_cl -O2 -g -c -emit-llvm %s -o %t.O2.bc
// RUN: %opt -load-pass-plugin=%plugin -passes='print<wgperf>' -disable-output %t.O0.bc | FileCheck %s
// At -O2 the source's noinline is kept, and the plugin says the model inlines
// it anyway (noinline-warning.cu); the model is the same:
// RUN: %opt -load-pass-plugin=%plugin -passes='print<wgperf>' -disable-output %t.O2.bc > %t.O2.txt
// RUN: grep -v "warning: calls 'cube' (__noinline__)" %t.O2.txt | FileCheck %s
// RUN: FileCheck %s --check-prefix=O2 < %t.O2.txt
// O2: warning: calls 'cube' (__noinline__), which the model takes as inlined
// The input really has calls at -O0:
// RUN: llvm-dis %t.O0.bc -o - | FileCheck %s --check-prefix=IR

float square(float x) { return x * x; }
__attribute__((noinline)) float cube(float x) { return x * square(x); }
__kernel void helper(__global float *a) {
  int i = get_global_id(0);
  a[i] = cube(a[i]) + square(a[i]);
}

// IR: call {{.*}}@cube
// IR: call {{.*}}@square

// CHECK-LABEL: kernel helper (opencl)
// CHECK-NEXT:  arg 0 a: pointer global 'float*' elem=4 (type)
// CHECK-NEXT:  block 0 entry {{.*}}fp32_add=1 fp32_mul=2 {{.*}}ld.global.32=1 other=2 sreg=2 st.global.32=1 -> - exit
// CHECK-NEXT:  mem M0 load global 4B block=0 base=arg:a offset=(sext:34:64 (mul:34 4 (trunc:64:34 gid.x))) affine
// CHECK-NEXT:  mem M1 store global 4B block=0 base=arg:a offset=(sext:34:64 (mul:34 4 (trunc:64:34 gid.x))) affine
// CHECK-NEXT:  totals:
// CHECK-NOT:   call
// CHECK-NOT:   warning
