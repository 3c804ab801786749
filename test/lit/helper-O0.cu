// A __noinline__ __device__ helper at -O0 is inlined by the normalization.
// RUN: %clang_cu -O0 -g -c -emit-llvm %s -o %t.bc
// RUN: %opt -load-pass-plugin=%plugin -passes='print<wgperf>' -disable-output %t.bc | FileCheck %s
// RUN: llvm-dis %t.bc -o - | FileCheck %s --check-prefix=IR

__device__ __noinline__ float twice(float x) { return 2.0f * x; }
__global__ void helper(float *a) {
  int i = threadIdx.x;
  a[i] = twice(a[i]);
}

// IR: call {{.*}}@_Z5twicef

// CHECK-LABEL: kernel helper (cuda)
// CHECK-NEXT:  arg 0 a: pointer global {{.*}} elem=4
// CHECK-NEXT:  block 0 entry {{.*}}fp32_mul=1 ld.global.32=1 other=2 sreg=1 st.global.32=1 -> - exit
// CHECK-NEXT:  mem M0 load global 4B block=0 base=arg:a offset=(mul:nsw:nuw 4 (zext:32:64 lid.x)) affine
// CHECK-NEXT:  mem M1 store global 4B block=0 base=arg:a offset=(mul:nsw:nuw 4 (zext:32:64 lid.x)) affine
// CHECK-NEXT:  totals:
// CHECK-NOT:   call
// CHECK-NOT:   warning
