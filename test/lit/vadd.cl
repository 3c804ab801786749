// Vector add: one work-item per element behind a bounds check.
// RUN: %clang_cl -O2  -g -c -emit-llvm %s -o %t.bc
// RUN: %opt -load-pass-plugin=%plugin -passes='print<wgperf>' -disable-output %t.bc | FileCheck %s

__kernel void vadd(__global const float *a, __global const float *b,
                   __global float *c, int n) {
  int i = get_global_id(0);
  if (i < n)
    c[i] = a[i] + b[i];
}

// CHECK-LABEL: kernel vadd (opencl) at {{.*}}vadd.cl:5
// CHECK-NEXT:  arg 0 a: pointer global 'float*' elem=4 (type) const
// CHECK-NEXT:  arg 1 b: pointer global 'float*' elem=4 (type) const
// CHECK-NEXT:  arg 2 c: pointer global 'float*' elem=4 (type){{$}}
// CHECK-NEXT:  arg 3 n: scalar private 'int' bytes=4
// CHECK:       block 0 entry {{.*}}: branch=1 cmp_select=1 other=1 sreg=2 -> 1,2
// CHECK-NEXT:    branch work-item: (slt:32 (trunc:64:32 gid.x) arg.n) ? 1 : 2
// CHECK:       block 1 if.then [{{.*}}vadd.cl:9]: addr={{[0-9]+}} fp32_add=1 {{.*}}ld.global.32=2 st.global.32=1 -> 2
// CHECK:       block 2 if.end {{.*}} -> - exit
// CHECK-NOT:   loop L
// CHECK:       mem M0 load global 4B block=1 base=arg:a offset=(mul:nsw 4 (sext:32:64 (trunc:64:32 gid.x))) affine [{{.*}}vadd.cl:9]
// CHECK-NEXT:  mem M1 load global 4B block=1 base=arg:b offset=(mul:nsw 4 (sext:32:64 (trunc:64:32 gid.x))) affine
// CHECK-NEXT:  mem M2 store global 4B block=1 base=arg:c offset=(mul:nsw 4 (sext:32:64 (trunc:64:32 gid.x))) affine
// CHECK-NEXT:  totals: {{.*}}branch=1 {{.*}}fp32_add=1 {{.*}}ld.global.32=2 other=2 sreg=2 st.global.32=1
