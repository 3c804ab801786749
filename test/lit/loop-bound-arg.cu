// Row sum: the loop bound is the scalar argument cols.
// RUN: %clang_cu -O2 -fno-unroll-loops -g -c -emit-llvm %s -o %t.bc
// RUN: %opt -load-pass-plugin=%plugin -passes='print<wgperf>' -disable-output %t.bc | FileCheck %s

__global__ void rowsum(const float *m, float *out, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.0f;
  for (int c = 0; c < cols; ++c)
    s += m[r * cols + c];
  out[r] = s;
}

// CHECK-LABEL: kernel rowsum (cuda)
// CHECK:       arg 2 cols: scalar private {{.*}} bytes=4
// CHECK:         branch uniform: (sgt:32 arg.cols 0) ? 1 : 3
// CHECK:       block 4 for.body loop=L0 {{.*}}fp32_add=1 {{.*}}ld.global.32=1 -> 2,4 back=4
// CHECK-NEXT:    branch loop-variable: (eq:32 (add:32:nsw:nuw 1 it.L0) arg.cols) ? 2 : 4
// CHECK-NEXT:  loop L0 header=4 depth=1 blocks=4 latches=4 exiting=4
// CHECK-NEXT:    trip exact: (add:nsw:nuw 1 (zext:32:64 (add:32 -1 arg.cols)))
// CHECK-NEXT:    exit at 4 when (eq:32 (add:32:nsw:nuw 1 it.L0) arg.cols)
// CHECK-NEXT:  mem M0 store global 4B block=3 base=arg:out offset=(mul:nsw 4 (sext:32:64 (add:32 (mul:32 grp.x lsz.x) lid.x))) affine
// CHECK-NEXT:  mem M1 load global 4B block=4 base=arg:m offset=(add:nsw (mul:nsw 4 (sext:32:64 (mul:32 (add:32 (mul:32 grp.x lsz.x) lid.x) arg.cols))) (mul:nsw 4 it.L0)) affine
