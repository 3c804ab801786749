// A 1D __shared__ array: reverse a block's elements through shared memory.
// RUN: %clang_cu -O2 -g -c -emit-llvm %s -o %t.bc
// RUN: %opt -load-pass-plugin=%plugin -passes='print<wgperf>' -disable-output %t.bc | FileCheck %s

__global__ void reverse(float *d) {
  __shared__ float buf[256];
  unsigned t = threadIdx.x;
  unsigned base = blockIdx.x * 256;
  buf[t] = d[base + t];
  __syncthreads();
  d[base + t] = buf[255 - t];
}

// CHECK-LABEL: kernel reverse (cuda)
// CHECK:       array reverse{{.*}}::buf: local 1024 bytes, elem=4 dims=256
// CHECK:       block 0 entry {{.*}}barrier=1 {{.*}}ld.global.32=1 ld.local.32=1 other=2 sreg=2 st.global.32=1 st.local.32=1 -> - exit
// CHECK-NEXT:  mem M0 load global 4B block=0 base=arg:d offset=(mul:nsw:nuw 4 (zext:32:64 (add:32 (mul:32 256 grp.x) lid.x))) affine
// CHECK-NEXT:  mem M1 store local 4B block=0 base=array:reverse{{.*}}::buf offset=(mul:nsw:nuw 4 (zext:32:64 lid.x)) affine
// CHECK-NEXT:  mem M2 load local 4B block=0 base=array:reverse{{.*}}::buf offset=(mul:nsw:nuw 4 (zext:32:64 (add:32:nsw 255 (mul:32:nsw -1 lid.x)))) affine
// CHECK-NEXT:  mem M3 store global 4B block=0 base=arg:d offset=(mul:nsw:nuw 4 (zext:32:64 (add:32 (mul:32 256 grp.x) lid.x))) affine
