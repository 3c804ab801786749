// Triangular loop nest: the inner trip count is the outer iteration number.
// RUN: %clang_cl -O2 -fno-unroll-loops -g -c -emit-llvm %s -o %t.bc
// RUN: %opt -load-pass-plugin=%plugin -passes='print<wgperf>' -disable-output %t.bc | FileCheck %s

__kernel void triangular(__global float *a, int n) {
  int row = get_global_id(0);
  float s = 0.0f;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i; j++)
      s += a[i * n + j];
  a[row] = s;
}

// for i < n: for j < i.  The inner loop runs it.L0 times (skipped when
// it.L0 == 0); the load walks row i.
// CHECK-LABEL: kernel triangular (opencl)
// CHECK:         branch uniform: (sgt:32 arg.n 0) ? 1 : 5
// CHECK:       block 2 for.cond2.preheader loop=L0 {{.*}}-> 7,3
// CHECK-NEXT:    branch loop-variable: (eq:32 it.L0 0) ? 7 : 3
// CHECK:       block 7 for.cond.cleanup5 loop=L0 {{.*}}-> 4,2 back=2
// CHECK-NEXT:    branch loop-variable: (eq:32 (add:32:nsw:nuw 1 it.L0) arg.n) ? 4 : 2
// CHECK-NEXT:  block 8 for.body6 loop=L1 {{.*}}fp32_add=1 {{.*}}ld.global.32=1 -> 6,8 back=8
// CHECK-NEXT:    branch loop-variable: (eq:32 (add:32:nsw:nuw 1 it.L1) it.L0) ? 6 : 8
// CHECK-NEXT:  loop L0 header=2 depth=1 blocks=2,3,6,7,8 latches=7 exiting=7
// CHECK-NEXT:    trip exact: (add:nsw:nuw 1 (zext:32:64 (add:32 -1 arg.n)))
// CHECK-NEXT:    exit at 7 when (eq:32 (add:32:nsw:nuw 1 it.L0) arg.n)
// CHECK-NEXT:  loop L1 header=8 depth=2 parent=L0 blocks=8 latches=8 exiting=8
// CHECK-NEXT:    trip exact: (add:nsw:nuw 1 (zext:32:64 (add:32:nsw -1 it.L0)))
// CHECK-NEXT:    exit at 8 when (eq:32 (add:32:nsw:nuw 1 it.L1) it.L0)
// a[row]: instcombine folds sext(trunc(gid))*4 into shl 32 / ashr 30, which
// the plugin writes exactly as a 34-bit product.
// CHECK-NEXT:  mem M0 store global 4B block=5 base=arg:a offset=(sext:34:64 (mul:34 4 (trunc:64:34 gid.x))) affine
// CHECK-NEXT:  mem M1 load global 4B block=8 base=arg:a offset=(add:nsw:nuw (mul:nsw:nuw 4 (zext:32:64 (mul:32 arg.n it.L0))) (mul:nsw:nuw 4 it.L1)) affine
