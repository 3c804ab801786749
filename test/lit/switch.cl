// Switch on a loaded value: a data-dependent switch with four cases.
// RUN: %clang_cl -O2  -g -c -emit-llvm %s -o %t.bc
// RUN: %opt -load-pass-plugin=%plugin -passes='print<wgperf>' -disable-output %t.bc | FileCheck %s

__kernel void sw(__global const int *op, __global float *a, __global const float *b) {
  int i = get_global_id(0);
  switch (op[i]) {
  case 0: a[i] = b[i]; break;
  case 1: a[i] += b[i]; break;
  case 2: a[i] *= b[i]; break;
  case 7: a[i] = -b[i]; break;
  default: break;
  }
}

// CHECK-LABEL: kernel sw (opencl)
// CHECK:       block 0 entry {{.*}}: {{.*}}branch=1 {{.*}}ld.global.32=1 other=1 sreg=2 -> 5,1,2,3,4
// CHECK-NEXT:    switch data-dependent: (load M0) default->5 0->1 1->2 2->3 7->4
// CHECK-NEXT:  block 1 sw.bb {{.*}}ld.global.32=1 st.global.32=1 -> 5
// CHECK-NEXT:  block 2 sw.bb{{[0-9]+}} {{.*}}fp32_add=1 ld.global.32=2 st.global.32=1 -> 5
// CHECK-NEXT:  block 3 sw.bb{{[0-9]+}} {{.*}}fp32_mul=1 ld.global.32=2 st.global.32=1 -> 5
// CHECK-NEXT:  block 4 sw.bb{{[0-9]+}} {{.*}}fp32_add=1 ld.global.32=1 st.global.32=1 -> 5
// CHECK-NEXT:  block 5 sw.epilog {{.*}}-> - exit
// CHECK-NEXT:  mem M0 load global 4B block=0 base=arg:op offset=(mul:nsw 4 (sext:32:64 (trunc:64:32 gid.x))) affine
