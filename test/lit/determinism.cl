// The same input gives byte-identical output, and kernels come sorted by name
// whatever their order in the module.
// RUN: %clang_cl -O2 -g -c -emit-llvm %s -o %t.bc
// RUN: %opt -load-pass-plugin=%plugin -passes='wgperf-extract<output=%t.1.json>' -disable-output %t.bc
// RUN: %opt -load-pass-plugin=%plugin -passes='wgperf-extract<output=%t.2.json>' -disable-output %t.bc
// RUN: diff %t.1.json %t.2.json
// RUN: %opt -load-pass-plugin=%plugin -passes='print<wgperf>' -disable-output %t.bc > %t.1.txt
// RUN: %opt -load-pass-plugin=%plugin -passes='print<wgperf>' -disable-output %t.bc > %t.2.txt
// RUN: diff %t.1.txt %t.2.txt
// RUN: env WGPERF_OUTPUT=%t.c1.json %clang_cl -O2 -g -fpass-plugin=%plugin -c -emit-llvm %s -o %t.c1.bc
// RUN: env WGPERF_OUTPUT=%t.c2.json %clang_cl -O2 -g -fpass-plugin=%plugin -c -emit-llvm %s -o %t.c2.bc
// RUN: diff %t.c1.json %t.c2.json
// RUN: FileCheck %s --input-file=%t.1.txt

__kernel void zeta(__global float *a, __local float *t, int n) {
  int l = get_local_id(0);
  t[l] = a[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (l < s)
      t[l] += t[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0)
    a[get_group_id(0)] = t[0];
}

__kernel void alpha(__global const int *idx, __global float *x, int n) {
  for (int i = get_global_id(0); i < n; i += get_global_size(0))
    x[idx[i]] += 1.0f;
}

__kernel void mid(__global float *y) { y[get_global_id(0)] = 0.0f; }

// CHECK-LABEL: kernel alpha (opencl)
// A grid-stride loop: i starts at gid.x and grows by gsz.x.
// CHECK:       loop L0 header=4 depth=1
// CHECK-NEXT:    trip recurrence: -
// CHECK-NEXT:    reason: {{.*}}
// CHECK-NEXT:    recurrence rv.L0.0 = gid.x then (add (sext:32:64 (trunc:64:32 rv.L0.0)) gsz.x)
// CHECK-NEXT:    exit at 4 when (not (slt:32 (add:32 (trunc:64:32 rv.L0.0) (trunc:64:32 gsz.x)) arg.n))
// CHECK:       mem M1 load global 4B block=4 base=arg:x offset=(mul:nsw 4 (sext:32:64 (load M0))) non-affine (indirect: depends on values loaded by M0)
// CHECK-LABEL: kernel mid (opencl)
// CHECK-LABEL: kernel zeta (opencl)
