// Transposed access: the store walks columns (stride h), the load rows.
// RUN: %clang_cl -O2  -g -c -emit-llvm %s -o %t.bc
// RUN: %opt -load-pass-plugin=%plugin -passes='print<wgperf>' -disable-output %t.bc | FileCheck %s

__kernel void transpose(__global const float *in, __global float *out, int w, int h) {
  int x = get_global_id(0);
  int y = get_global_id(1);
  if (x < w && y < h)
    out[x * h + y] = in[y * w + x];
}

// The load index is y*w+x (unit stride in x); the store index is x*h+y (stride h in x).
// CHECK-LABEL: kernel transpose (opencl)
// CHECK:       block 0 entry {{.*}}: branch=1 {{.*}}-> 1,2
// CHECK-NEXT:    branch work-item: (umin:1 (slt:32 (trunc:64:32 gid.x) arg.w) (slt:32 (trunc:64:32 gid.y) arg.h)) ? 1 : 2
// CHECK:       block 1 if.then {{.*}}int_mul=2 ld.global.32=1 st.global.32=1 -> 2
// CHECK:       mem M0 load global 4B block=1 base=arg:in offset=(mul:nsw 4 (sext:32:64 (add:32 (trunc:64:32 gid.x) (mul:32 (trunc:64:32 gid.y) arg.w)))) affine
// CHECK-NEXT:  mem M1 store global 4B block=1 base=arg:out offset=(mul:nsw 4 (sext:32:64 (add:32 (trunc:64:32 gid.y) (mul:32 (trunc:64:32 gid.x) arg.h)))) affine
