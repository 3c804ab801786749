// Naive matrix multiply: loop bound N is an argument; A walks a row, B a column.
// RUN: %clang_cl -O2 -fno-unroll-loops -g -c -emit-llvm %s -o %t.bc
// RUN: %opt -load-pass-plugin=%plugin -passes='print<wgperf>' -disable-output %t.bc | FileCheck %s

__kernel void matmul(__global const float *A, __global const float *B,
                     __global float *C, int N) {
  int row = get_global_id(1);
  int col = get_global_id(0);
  float acc = 0.0f;
  for (int k = 0; k < N; k++)
    acc += A[row * N + k] * B[k * N + col];
  C[row * N + col] = acc;
}

// The k loop runs N times (guarded by N > 0); A advances 4 bytes and B 4*N
// bytes per iteration.
// CHECK-LABEL: kernel matmul (opencl)
// CHECK:         branch uniform: (sgt:32 arg.N 0) ? 1 : 3
// CHECK:       block 4 for.body loop=L0 {{.*}}fp32_fma=1 {{.*}}ld.global.32=2 -> 2,4 back=4
// CHECK-NEXT:    branch loop-variable: (eq:32 (add:32:nsw:nuw 1 it.L0) arg.N) ? 2 : 4
// CHECK:       loop L0 header=4 depth=1 blocks=4 latches=4 exiting=4 [{{.*}}matmul-naive.cl:10]
// CHECK-NEXT:    trip exact: (add:nsw:nuw 1 (zext:32:64 (add:32 -1 arg.N)))
// CHECK-NEXT:    exit at 4 when (eq:32 (add:32:nsw:nuw 1 it.L0) arg.N)
// CHECK:       mem M0 store global 4B block=3 base=arg:C offset=(mul:nsw 4 (sext:32:64 (add:32 (trunc:64:32 gid.x) (mul:32 (trunc:64:32 gid.y) arg.N)))) affine
// CHECK-NEXT:  mem M1 load global 4B block=4 base=arg:A offset=(add:nsw (mul:nsw 4 (sext:32:64 (mul:32 (trunc:64:32 gid.y) arg.N))) (mul:nsw 4 it.L0)) affine
// CHECK-NEXT:  mem M2 load global 4B block=4 base=arg:B offset=(add:nsw (mul:nsw 4 (sext:32:64 (trunc:64:32 gid.x))) (mul:nsw (mul:nsw 4 (sext:32:64 arg.N)) it.L0)) affine
