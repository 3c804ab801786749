// Histogram with atomicAdd: the bin index is loaded, so the atomic is indirect.
// RUN: %clang_cu -O2  -g -c -emit-llvm %s -o %t.bc
// RUN: %opt -load-pass-plugin=%plugin -passes='print<wgperf>' -disable-output %t.bc | FileCheck %s

__global__ void histogram(const unsigned char *data, unsigned int *bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&bins[data[i]], 1u);
}

// CHECK-LABEL: kernel histogram (cuda)
// CHECK-NEXT:  arg 0 data: pointer global {{.*}} elem=1
// CHECK-NEXT:  arg 1 bins: pointer global {{.*}} elem=4
// CHECK:         branch work-item: (slt:32 (add:32 (mul:32 grp.x lsz.x) lid.x) arg.n) ? 1 : 2
// CHECK-NEXT:  block 1 if.then {{.*}}atom.global=1 {{.*}}ld.global.8=1 -> 2
// CHECK:       mem M0 load global 1B block=1 base=arg:data offset=(sext:32:64 (add:32 (mul:32 grp.x lsz.x) lid.x)) affine
// CHECK-NEXT:  mem M1 atomic global 4B block=1 base=arg:bins op=add offset=(mul:nsw:nuw 4 (zext:8:64 (load M0))) non-affine (indirect: depends on values loaded by M0)
