// CSR sparse matrix-vector product: loop bounds and x's index are loaded.
// RUN: %clang_cl -O2 -fno-unroll-loops -g -c -emit-llvm %s -o %t.bc
// RUN: %opt -load-pass-plugin=%plugin -passes='print<wgperf>' -disable-output %t.bc | FileCheck %s

__kernel void spmv_csr(__global const int *rowptr, __global const int *col,
                       __global const float *val, __global const float *x,
                       __global float *y, int nrows) {
  int row = get_global_id(0);
  if (row < nrows) {
    float sum = 0.0f;
    for (int j = rowptr[row]; j < rowptr[row + 1]; j++)
      sum += val[j] * x[col[j]];
    y[row] = sum;
  }
}

// The row's range comes from rowptr (M0, M1): the guard, the loop exit and
// the trip count are data-dependent; val/col are indirect through M0 and x
// through col (M4).
// CHECK-LABEL: kernel spmv_csr (opencl)
// CHECK:         branch work-item: (slt:32 (trunc:64:32 gid.x) arg.nrows) ? 1 : 6
// CHECK-NEXT:  block 1 if.then {{.*}}ld.global.32=2 reconverge=2 -> 2,4
// CHECK-NEXT:    branch data-dependent: (slt:32 (load M0) (load M1)) ? 2 : 4
// val[j] and col[j] advance by 4 bytes per iteration from different bases:
// two pointer increments for their two GEPs; x[col[j]] is not a recurrence
// and keeps its address computation.
// CHECK:       block 5 for.body loop=L0 {{.*}}addr=3 {{.*}}fp32_fma=1 {{.*}}ld.global.32=3 -> 3,5 back=5 (strength reduced: -addr=2 +2 pointer steps)
// CHECK-NEXT:    branch data-dependent: (eq:32 (add:32:nsw (add:32 1 (load M0)) it.L0) (load M1)) ? 3 : 5
// CHECK:       loop L0 header=5 depth=1 blocks=5 latches=5 exiting=5
// CHECK-NEXT:    trip data-dependent: (add:nsw:nuw 1 (zext:32:64 (add:32 -1 (mul:32 -1 (load M0)) (load M1))))
// CHECK-NEXT:    reason: trip count depends on values loaded from memory
// CHECK-NEXT:    exit at 5 when (eq:32 (add:32:nsw (add:32 1 (load M0)) it.L0) (load M1))
// CHECK-NEXT:  mem M0 load global 4B block=1 base=arg:rowptr offset=(mul:nsw 4 (sext:32:64 (trunc:64:32 gid.x))) affine
// CHECK-NEXT:  mem M1 load global 4B block=1 base=arg:rowptr offset=(sext:34:64 (add:34 4 (mul:34 4 (trunc:64:34 gid.x)))) affine
// CHECK-NEXT:  mem M2 store global 4B block=4 base=arg:y offset=(mul:nsw 4 (sext:32:64 (trunc:64:32 gid.x))) affine
// CHECK-NEXT:  mem M3 load global 4B block=5 base=arg:val offset=(add:nsw (mul:nsw 4 (sext:32:64 (load M0))) (mul:nsw 4 it.L0)) non-affine (indirect: depends on values loaded by M0)
// CHECK-NEXT:  mem M4 load global 4B block=5 base=arg:col offset=(add:nsw (mul:nsw 4 (sext:32:64 (load M0))) (mul:nsw 4 it.L0)) non-affine (indirect: depends on values loaded by M0)
// CHECK-NEXT:  mem M5 load global 4B block=5 base=arg:x offset=(mul:nsw 4 (sext:32:64 (load M4))) non-affine (indirect: depends on values loaded by M4)
// CHECK:       note: loop L0 at {{.*}}spmv-csr.cl:11: data-dependent trip count
