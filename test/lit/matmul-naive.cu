// Naive matrix multiply in CUDA: 2D thread index from blockIdx/blockDim/threadIdx.
// RUN: %clang_cu -O2 -fno-unroll-loops -g -c -emit-llvm %s -o %t.bc
// RUN: %opt -load-pass-plugin=%plugin -passes='print<wgperf>' -disable-output %t.bc | FileCheck %s

__global__ void matmul(const float *A, const float *B, float *C, int N) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < N && col < N) {
    float acc = 0.0f;
    for (int k = 0; k < N; ++k)
      acc += A[row * N + k] * B[k * N + col];
    C[row * N + col] = acc;
  }
}

// row/col come from blockIdx*blockDim+threadIdx (grp*lsz+lid); CUDA pointers
// are generic and count as global.
// CHECK-LABEL: kernel matmul (cuda) matmul(float const*, float const*, float*, int) at {{.*}}matmul-naive.cu:5
// CHECK-NEXT:  arg 0 A: pointer global {{.*}} elem=4
// CHECK-NEXT:  arg 1 B: pointer global {{.*}} elem=4
// CHECK-NEXT:  arg 2 C: pointer global {{.*}} elem=4
// CHECK-NEXT:  arg 3 N: scalar private {{.*}} bytes=4
// CHECK:         branch work-item: (umin:1 (slt:32 (add:32:nsw:nuw (mul:32:nsw:nuw grp.y lsz.y) lid.y) arg.N) (slt:32 (add:32 (mul:32 grp.x lsz.x) lid.x) arg.N)) ? 1 : 4
// Loop strength reduction (passes/Backend.h): A's and B's addresses advance by
// 4 and 4*N bytes per k, two pointer increments; the index arithmetic goes
// (the multiply k*N, the adds row*N+k and k*N+col, both address computations);
// k's own increment stays for the exit test.
// CHECK:       block 3 for.body loop=L0 {{.*}}fp32_fma=1 {{.*}}ld.global.32=2 -> 2,3 back=3 (strength reduced: -addr=2 int_add=2 int_mul=1 +2 pointer steps)
// CHECK-NEXT:    branch loop-variable: (eq:32 (add:32:nsw:nuw 1 it.L0) arg.N) ? 2 : 3
// CHECK:       loop L0 header=3 depth=1 blocks=3 latches=3 exiting=3
// CHECK-NEXT:    trip exact: (add:nsw:nuw 1 (zext:32:64 (add:32 -1 arg.N)))
// CHECK:       mem M0 store global 4B block=2 base=arg:C offset=(mul:nsw 4 (sext:32:64 (add:32 (mul:32 (add:32:nsw:nuw (mul:32:nsw:nuw grp.y lsz.y) lid.y) arg.N) (mul:32 grp.x lsz.x) lid.x))) affine
// CHECK-NEXT:  mem M1 load global 4B block=3 base=arg:A offset=(add:nsw:nuw (mul:nsw:nuw 4 (zext:32:64 (mul:32 (add:32:nsw:nuw (mul:32:nsw:nuw grp.y lsz.y) lid.y) arg.N))) (mul:nsw:nuw 4 it.L0)) affine
// CHECK-NEXT:  mem M2 load global 4B block=3 base=arg:B offset=(mul:nsw 4 (sext:32:64 (add:32 (add:32 (mul:32 grp.x lsz.x) lid.x) (mul:32 arg.N it.L0)))) affine
