// Tiled matrix multiply in CUDA with two __shared__ tiles and __syncthreads.
// RUN: %clang_cu -O2 -fno-unroll-loops -g -c -emit-llvm %s -o %t.bc
// RUN: %opt -load-pass-plugin=%plugin -passes='print<wgperf>' -disable-output %t.bc | FileCheck %s

#define TILE 16
__global__ void matmul_tiled(const float *A, const float *B, float *C, int N) {
  __shared__ float tA[TILE][TILE];
  __shared__ float tB[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty;
  int col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int t = 0; t < N / TILE; ++t) {
    tA[ty][tx] = A[row * N + t * TILE + tx];
    tB[ty][tx] = B[(t * TILE + ty) * N + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += tA[ty][k] * tB[k][tx];
    __syncthreads();
  }
  C[row * N + col] = acc;
}

// __shared__ arrays are local memory named after their kernel.  The docs
// spell this `kernel::tile`; the plugin prints the demangled function with
// its parameter list, so only the prefix and the suffix are pinned here.
// CHECK-LABEL: kernel matmul_tiled (cuda)
// CHECK:       array matmul_tiled{{.*}}::tA: local 1024 bytes, elem=4 dims=16,16
// CHECK-NEXT:  array matmul_tiled{{.*}}::tB: local 1024 bytes, elem=4 dims=16,16
// CHECK:       block 4 for.body loop=L0 {{.*}}barrier=1 {{.*}}ld.global.32=2 st.local.32=2 -> 6
// CHECK-NEXT:  block 5 {{.*}} loop=L0 {{.*}}barrier=1 {{.*}}-> 2,4 back=4
// CHECK-NEXT:    branch loop-variable: (eq:32 (add:32:nuw 1 it.L0) (sdiv:32 arg.N 16)) ? 2 : 4
// CHECK-NEXT:  block 6 {{.*}} loop=L1 {{.*}}fp32_fma=1 {{.*}}ld.local.32=2 -> 5,6 back=6
// CHECK:       loop L0 header=4 depth=1 blocks=4,5,6 latches=5 exiting=5
// CHECK-NEXT:    trip exact: (add:nsw:nuw 1 (zext:32:64 (add:32:nsw -1 (sdiv:32 arg.N 16))))
// CHECK:       loop L1 header=6 depth=2 parent=L0 blocks=6 latches=6 exiting=6
// CHECK-NEXT:    trip exact: 16
// CHECK:       mem M1 load global 4B block=4 base=arg:A offset=(mul:nsw 4 (sext:32:64 (add:32 (add:32 (mul:32 (add:32 (mul:32:nsw:nuw 16 grp.y) lid.y) arg.N) lid.x) (mul:32 16 it.L0)))) affine
// CHECK-NEXT:  mem M2 store local 4B block=4 base=array:matmul_tiled{{.*}}::tA offset=(add (mul:nsw:nuw 4 (zext:32:64 lid.x)) (mul:nsw:nuw 64 (zext:32:64 lid.y))) affine
// CHECK-NEXT:  mem M3 load global 4B block=4 base=arg:B offset=(mul:nsw 4 (sext:32:64 (add:32 (add:32 (mul:32 16 grp.x) (mul:32 arg.N lid.y) lid.x) (mul:32 (mul:32 16 arg.N) it.L0)))) affine
// CHECK-NEXT:  mem M4 store local 4B block=4 base=array:matmul_tiled{{.*}}::tB offset=(add (mul:nsw:nuw 4 (zext:32:64 lid.x)) (mul:nsw:nuw 64 (zext:32:64 lid.y))) affine
// CHECK-NEXT:  mem M5 load local 4B block=6 base=array:matmul_tiled{{.*}}::tA offset=(add:nsw:nuw (mul:nsw:nuw 64 (zext:32:64 lid.y)) (mul:nsw:nuw 4 it.L1)) affine
// CHECK-NEXT:  mem M6 load local 4B block=6 base=array:matmul_tiled{{.*}}::tB offset=(add:nsw:nuw (mul:nsw:nuw 4 (zext:32:64 lid.x)) (mul:nsw:nuw 64 it.L1)) affine
// CHECK-NEXT:  totals: {{.*}}barrier=2 {{.*}}ld.global.32=2 ld.local.32=2 other=2 sreg=4 st.global.32=1 st.local.32=2
