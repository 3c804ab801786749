// Tiled matrix multiply with __local tiles and two barriers per tile.
// RUN: %clang_cl -O2 -fno-unroll-loops -g -c -emit-llvm %s -o %t.bc
// RUN: %opt -load-pass-plugin=%plugin -passes='print<wgperf>' -disable-output %t.bc | FileCheck %s

#define TS 16
__kernel void matmul_tiled(__global const float *A, __global const float *B,
                           __global float *C, int N) {
  __local float As[TS][TS];
  __local float Bs[TS][TS];
  int tx = get_local_id(0), ty = get_local_id(1);
  int row = get_group_id(1) * TS + ty;
  int col = get_group_id(0) * TS + tx;
  float acc = 0.0f;
  for (int t = 0; t < N / TS; t++) {
    As[ty][tx] = A[row * N + t * TS + tx];
    Bs[ty][tx] = B[(t * TS + ty) * N + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TS; k++)
      acc += As[ty][k] * Bs[k][tx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[row * N + col] = acc;
}

// Outer loop: N/16 tiles; inner loop: exactly 16. Both barriers sit in the
// outer loop; the tiles are 16x16 floats in local memory.
// CHECK-LABEL: kernel matmul_tiled (opencl)
// CHECK:       array matmul_tiled.As: local 1024 bytes, elem=4 dims=16,16
// CHECK-NEXT:  array matmul_tiled.Bs: local 1024 bytes, elem=4 dims=16,16
// CHECK:         branch uniform: (sgt:32 arg.N 15) ? 2 : 1
// CHECK:       block 5 for.body loop=L0 {{.*}}barrier=1 {{.*}}ld.global.32=2 st.local.32=2 -> 7
// CHECK-NEXT:  block 6 for.cond.cleanup{{[0-9]*}} loop=L0 {{.*}}barrier=1 {{.*}}-> 3,5 back=5
// CHECK-NEXT:    branch loop-variable: (eq:32 (add:32:nuw 1 it.L0) (sdiv:32 arg.N 16)) ? 3 : 5
// CHECK-NEXT:  block 7 for.body{{[0-9]+}} loop=L1 {{.*}}fp32_fma=1 {{.*}}ld.local.32=2 -> 6,7 back=7
// CHECK:       loop L0 header=5 depth=1 blocks=5,6,7 latches=6 exiting=6
// CHECK-NEXT:    trip exact: (add:nsw:nuw 1 (zext:32:64 (add:32:nsw -1 (sdiv:32 arg.N 16))))
// CHECK:       loop L1 header=7 depth=2 parent=L0 blocks=7 latches=7 exiting=7
// CHECK-NEXT:    trip exact: 16
// CHECK:       mem M1 load global 4B block=5 base=arg:A offset=(mul:nsw 4 (sext:32:64 (add:32 (add:32 (trunc:64:32 lid.x) (mul:32 (add:32 (trunc:64:32 lid.y) (mul:32 16 (trunc:64:32 grp.y))) arg.N)) (mul:32 16 it.L0)))) affine
// CHECK-NEXT:  mem M2 store local 4B block=5 base=array:matmul_tiled.As offset=(add (mul:nsw 4 (sext:32:64 (trunc:64:32 lid.x))) (mul:nsw 64 (sext:32:64 (trunc:64:32 lid.y)))) affine
// CHECK-NEXT:  mem M3 load global 4B block=5 base=arg:B offset=(mul:nsw 4 (sext:32:64 (add:32 (add:32 (trunc:64:32 lid.x) (mul:32 16 (trunc:64:32 grp.x)) (mul:32 (trunc:64:32 lid.y) arg.N)) (mul:32 (mul:32 16 arg.N) it.L0)))) affine
// CHECK-NEXT:  mem M4 store local 4B block=5 base=array:matmul_tiled.Bs offset=(add (mul:nsw 4 (sext:32:64 (trunc:64:32 lid.x))) (mul:nsw 64 (sext:32:64 (trunc:64:32 lid.y)))) affine
// CHECK-NEXT:  mem M5 load local 4B block=7 base=array:matmul_tiled.As offset=(add:nsw (mul:nsw 64 (sext:32:64 (trunc:64:32 lid.y))) (mul:nsw 4 it.L1)) affine
// CHECK-NEXT:  mem M6 load local 4B block=7 base=array:matmul_tiled.Bs offset=(add:nsw (mul:nsw 4 (sext:32:64 (trunc:64:32 lid.x))) (mul:nsw 64 it.L1)) affine
// CHECK-NEXT:  totals: {{.*}}barrier=2 {{.*}}ld.global.32=2 ld.local.32=2 other=2 sreg=4 st.global.32=1 st.local.32=2
