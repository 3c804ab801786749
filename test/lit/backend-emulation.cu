// What the backend makes of the IR (passes/Backend.h): contractible fmul+fadd
// pairs count as one FMA, and a thread's consecutive accesses to a __shared__
// array in straight-line code become one 8 or 16 byte access when the first
// is aligned to that size, as nvcc emits LDS.64/LDS.128.  Global accesses
// are never merged (a float* says nothing about alignment).
// RUN: %clang_cu -O2 -g -c -emit-llvm %s -o %t.bc
// RUN: %opt -load-pass-plugin=%plugin -passes='print<wgperf>' -disable-output %t.bc | FileCheck %s

#define TILE 16

// Instructions without IR (stack pointer, EXIT: other=2; S2R per special
// register: sreg) and the reconvergence pair of a divergent if, which a guard
// that just returns does not need.
// CHECK-LABEL: kernel diverge (cuda)
// CHECK:       block 0 entry {{.*}}other=1 reconverge=2 sreg=1 -> 2,1
// CHECK:       block {{.*}}other=1 {{.*}}-> - exit
__global__ void diverge(float *C) {
  int tx = threadIdx.x;
  float v = 1.0f;
  if (tx & 1)
    v = C[tx] * 3.0f;
  C[tx + 64] = v;
}

// x*y has two uses (CSE'd with `twice`): it stays a multiply; y*z fuses into
// its add; twice+twice is a plain add.
// CHECK-LABEL: kernel fma (cuda)
// CHECK:       block 0 {{.*}} fp32_add=1 fp32_fma=1 fp32_mul=1 {{.*}}ld.global.32=3 other=2 sreg=1 st.global.32=2 -> - exit
__global__ void fma(const float *A, float *C) {
  int i = threadIdx.x;
  float x = A[i], y = A[i + 32], z = A[i + 64];
  float twice = x * y;
  C[i] = x * y + y * z;
  C[i + 32] = twice + twice;
}

// Four consecutive global floats stay four 4-byte loads.
// CHECK-LABEL: kernel global4 (cuda)
// CHECK:       ld.global.32=4 other=2 sreg=2 st.global.32=1
__global__ void global4(const float *A, float *C) {
  int i = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
  C[i / 4] = A[i] + A[i + 1] + A[i + 2] + A[i + 3];
}

// A store between elements 1 and 2 splits the 16-byte group into two pairs.
// CHECK-LABEL: kernel interrupted (cuda)
// CHECK:       ld.local.64=2 other=2 sreg=1 st.global.32=1 st.local.32=2
// CHECK:       mem M1 load local 8B {{.*}}offset=(mul:nsw:nuw 64 (zext:32:64 lid.x))
// CHECK-NEXT:  mem M2 store local 4B {{.*}}offset=(add:nsw:nuw 60
// CHECK-NEXT:  mem M3 load local 8B {{.*}}offset=(add:nsw:nuw 8
__global__ void interrupted(float *C) {
  __shared__ float t[TILE][TILE];
  int tx = threadIdx.x;
  t[0][tx] = tx;
  __syncthreads();
  float a = t[tx][0] + t[tx][1];
  t[tx][15] = a;
  C[tx] = a + t[tx][2] + t[tx][3];
}

// An unrolled walk along a tile row: four 16-byte loads.
// CHECK-LABEL: kernel rowdot (cuda)
// CHECK:       block 0 {{.*}} ld.global.32=1 ld.local.128=4 other=2 sreg=2 st.global.32=1 st.local.32=1 -> - exit
// CHECK:       mem M2 load local 16B block=0 base=array:rowdot{{.*}}::t offset=(mul:nsw:nuw 64 (zext:32:64 lid.x)) affine
// CHECK-NEXT:  mem M3 load local 16B block=0 base=array:rowdot{{.*}}::t offset=(add:nsw:nuw 16 (mul:nsw:nuw 64 (zext:32:64 lid.x))) affine
// CHECK-NEXT:  mem M4 load local 16B {{.*}}offset=(add:nsw:nuw 32
// CHECK-NEXT:  mem M5 load local 16B {{.*}}offset=(add:nsw:nuw 48
// CHECK-NEXT:  mem M6 store global 4B
__global__ void rowdot(const float *A, float *C) {
  __shared__ float t[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  t[ty][tx] = A[ty * TILE + tx];
  __syncthreads();
  float acc = 0.0f;
#pragma unroll
  for (int k = 0; k < TILE; ++k)
    acc += t[tx][k];
  C[ty * TILE + tx] = acc;
}

// Elements 1..4 of a row: 4 B at offset 4 stays alone, 8..15 pair up, 16 alone.
// CHECK-LABEL: kernel shifted (cuda)
// CHECK:       ld.local.32=2 ld.local.64=1
// CHECK:       mem M1 load local 4B {{.*}}offset=(add:nsw:nuw 4 (mul:nsw:nuw 64 (zext:32:64 lid.x)))
// CHECK-NEXT:  mem M2 load local 8B {{.*}}offset=(add:nsw:nuw 8 (mul:nsw:nuw 64 (zext:32:64 lid.x)))
// CHECK-NEXT:  mem M3 load local 4B {{.*}}offset=(add:nsw:nuw 16 (mul:nsw:nuw 64 (zext:32:64 lid.x)))
__global__ void shifted(float *C) {
  __shared__ float t[TILE][TILE];
  int tx = threadIdx.x;
  t[0][tx] = tx;
  __syncthreads();
  C[tx] = t[tx][1] + t[tx][2] + t[tx][3] + t[tx][4];
}
