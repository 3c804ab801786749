// Histogram with atomic_inc: the bin index is loaded, so the atomic is indirect.
// RUN: %clang_cl -O2  -g -c -emit-llvm %s -o %t.bc
// RUN: %opt -load-pass-plugin=%plugin -passes='print<wgperf>' -disable-output %t.bc | FileCheck %s

__kernel void histogram(__global const uchar *data, __global uint *bins, int n) {
  int i = get_global_id(0);
  if (i < n)
    atomic_inc(&bins[data[i]]);
}

// CHECK-LABEL: kernel histogram (opencl)
// CHECK-NEXT:  arg 0 data: pointer global 'uchar*' elem=1 (type) const
// CHECK-NEXT:  arg 1 bins: pointer global 'uint*' elem=4 (type)
// CHECK:       block 1 if.then {{.*}}atom.global=1 {{.*}}ld.global.8=1 -> 2
// CHECK:       mem M0 load global 1B block=1 base=arg:data offset=(sext:32:64 (trunc:64:32 gid.x)) affine
// CHECK-NEXT:  mem M1 atomic global 4B block=1 base=arg:bins op=atomic_inc offset=(mul:nsw:nuw 4 (zext:8:64 (load M0))) non-affine (indirect: depends on values loaded by M0)
