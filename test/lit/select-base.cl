// An if/else that stores to two buffers at the same index is merged by
// SimplifyCFG into one store through `c ? a : b`: the base is a choice of
// arguments, and the common offset is kept.
// RUN: %clang_cl -O2 -c -emit-llvm %s -o %t.bc
// RUN: %opt -load-pass-plugin=%plugin -passes='print<wgperf>' -disable-output %t.bc | FileCheck %s
// RUN: %wgperf extract %t.bc -o %t.json | FileCheck %s --check-prefix=CLI
// RUN: FileCheck %s --check-prefix=JSON < %t.json

__kernel void pick(__global float *a, __global float *b) {
  int i = get_global_id(0);
  if (get_local_id(0) & 1)
    a[i] = 1.0f;
  else
    b[i] = 1.0f;
}

// CHECK-LABEL: kernel pick
// CHECK: mem M0 store global 4B block=0 base=select:b|a offset=(sext:34:64 (mul:34 4 (trunc:64:34 gid.x))) affine (base chosen per work-item by (eq (zext:1:64 (trunc:64:1 lid.x)) 0))
// CLI: kernel pick
// CLI: memory 1 access{{(es)?}}: global 1
// JSON: "kind": "select",
// JSON-NEXT: "name": "b|a",
