// A private variable written once and read back, volatile or not, holds the
// value written: no other work-item writes a thread's private memory.  Its
// loads stay local-memory accesses, but the addresses built from them are the
// work-item's own (CLBlast keeps its thread index in a `volatile int tid`):
// affine, not data (docs/kernel-model.md, "Private variables written once").
// RUN: %clang_cl -O2 -g -c -emit-llvm %s -o %t.bc
// RUN: %opt -load-pass-plugin=%plugin -passes='print<wgperf>' -disable-output %t.bc | FileCheck %s
// RUN: %wgperf analyze %s --kernel tile --global 4096 --local 64 | FileCheck %s --check-prefix=AN

__kernel void tile(__global const float *a, __global float *b) {
  volatile int tid = get_local_id(0);
  int base = get_group_id(0) * 64;
  b[base + tid] = a[base + tid] * 2.0f;
}

// a variable written twice keeps its loads as data
__kernel void twice(__global const float *a, __global float *b, int n) {
  volatile int t = get_local_id(0);
  if (n > 0)
    t = n;
  b[t] = a[t];
}

// CHECK-LABEL: kernel tile (opencl)
// CHECK:       mem M0 store private 4B {{.*}}base=private:tid
// CHECK:       mem M1 load private 4B {{.*}}base=private:tid
// CHECK-NOT:   (load M
// CHECK:       load global 4B {{.*}}base=arg:a offset={{.*}}lid.x{{.*}} affine
// CHECK-NOT:   (load M
// CHECK:       store global 4B {{.*}}base=arg:b offset={{.*}}lid.x{{.*}} affine
// CHECK-LABEL: kernel twice (opencl)
// CHECK:       load global 4B {{.*}}base=arg:a offset={{.*}}(load M{{[0-9]+}}){{.*}} non-affine

// the tile's loads are coalesced: 4 sectors a request, not a gather's 32
// AN: M{{[0-9]+}} {{.*}} global load a {{.*}} 4.00 sectors, 1.00 lines
