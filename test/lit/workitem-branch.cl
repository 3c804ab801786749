// Branch on the work-item id: even and odd lanes take different paths.
// RUN: %clang_cl -O2  -g -c -emit-llvm %s -o %t.bc
// RUN: %opt -load-pass-plugin=%plugin -passes='print<wgperf>' -disable-output %t.bc | FileCheck %s

__kernel void divergent(__global float *a, __global float *b) {
  int lid = get_local_id(0);
  int gid = get_global_id(0);
  if (lid % 2 == 0)
    a[gid] = a[gid] * 2.0f;
  else
    b[gid] = b[gid] + 1.0f;
}

// lid % 2 == 0 is the low bit of the local id: a work-item branch.
// CHECK-LABEL: kernel divergent (opencl)
// CHECK:       block 0 entry {{.*}}: branch=1 {{.*}}-> 1,2
// CHECK-NEXT:    branch work-item: (eq (zext:1:64 (trunc:64:1 lid.x)) 0) ? 1 : 2
// CHECK-NEXT:  block 1 if.then {{.*}}fp32_mul=1 ld.global.32=1 st.global.32=1 -> 3
// CHECK-NEXT:  block 2 if.else {{.*}}fp32_add=1 ld.global.32=1 st.global.32=1 -> 3
// CHECK-NEXT:  block 3 if.end {{.*}}-> - exit
// CHECK-NEXT:  mem M0 load global 4B block=1 base=arg:a offset=(sext:34:64 (mul:34 4 (trunc:64:34 gid.x))) affine
// CHECK-NEXT:  mem M1 store global 4B block=1 base=arg:a offset=(sext:34:64 (mul:34 4 (trunc:64:34 gid.x))) affine
// CHECK-NEXT:  mem M2 load global 4B block=2 base=arg:b offset=(sext:34:64 (mul:34 4 (trunc:64:34 gid.x))) affine
// CHECK-NEXT:  mem M3 store global 4B block=2 base=arg:b offset=(sext:34:64 (mul:34 4 (trunc:64:34 gid.x))) affine
