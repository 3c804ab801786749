// 2D five-point stencil: neighbours at +-1 and +-w elements.
// RUN: %clang_cl -O2  -g -c -emit-llvm %s -o %t.bc
// RUN: %opt -load-pass-plugin=%plugin -passes='print<wgperf>' -disable-output %t.bc | FileCheck %s

__kernel void stencil2d(__global const float *in, __global float *out, int w, int h) {
  int x = get_global_id(0);
  int y = get_global_id(1);
  if (x > 0 && y > 0 && x < w - 1 && y < h - 1) {
    int c = y * w + x;
    out[c] = 0.2f * (in[c] + in[c - 1] + in[c + 1] + in[c - w] + in[c + w]);
  }
}

// Centre c = y*w+x; neighbours at -4/+4 bytes and -4*w/+4*w bytes.
// CHECK-LABEL: kernel stencil2d (opencl)
// CHECK:       block 0 entry {{.*}}: branch=1 {{.*}}-> 1,2
// CHECK-NEXT:    branch work-item: (umin:1 (sgt:32 (trunc:64:32 gid.x) 0) (sgt:32 (trunc:64:32 gid.y) 0) (sgt:32 (add:32 -1 arg.w) (trunc:64:32 gid.x)) (sgt:32 (add:32 -1 arg.h) (trunc:64:32 gid.y))) ? 1 : 2
// CHECK-NEXT:  block 1 if.then {{.*}}fp32_add=4 fp32_mul=1 {{.*}}ld.global.32=5 st.global.32=1 -> 2
// CHECK:       mem M0 load global 4B block=1 base=arg:in offset=(mul:nsw 4 (sext:32:64 (add:32 (trunc:64:32 gid.x) (mul:32 (trunc:64:32 gid.y) arg.w)))) affine
// CHECK-NEXT:  mem M1 load global 4B block=1 base=arg:in offset=(add:nsw -4 (mul:nsw 4 (sext:32:64 (add:32 (trunc:64:32 gid.x) (mul:32 (trunc:64:32 gid.y) arg.w))))) affine
// CHECK-NEXT:  mem M2 load global 4B block=1 base=arg:in offset=(add:nsw 4 (mul:nsw 4 (sext:32:64 (add:32 (trunc:64:32 gid.x) (mul:32 (trunc:64:32 gid.y) arg.w))))) affine
// CHECK-NEXT:  mem M3 load global 4B block=1 base=arg:in offset=(add (mul:nsw 4 (sext:32:64 (add:32 (trunc:64:32 gid.x) (mul:32 (trunc:64:32 gid.y) arg.w)))) (mul:nsw -4 (sext:32:64 arg.w))) affine
// CHECK-NEXT:  mem M4 load global 4B block=1 base=arg:in offset=(mul:nsw 4 (sext:32:64 (add:32 (trunc:64:32 gid.x) (mul:32 (add:32 1 (trunc:64:32 gid.y)) arg.w)))) affine
// CHECK-NEXT:  mem M5 store global 4B block=1 base=arg:out offset=(mul:nsw 4 (sext:32:64 (add:32 (trunc:64:32 gid.x) (mul:32 (trunc:64:32 gid.y) arg.w)))) affine
