// spir64 target: spir_kernel calling convention and OpenCL builtin calls.
// RUN: %clang -x cl -cl-std=CL1.2 -Xclang -finclude-default-header -cl-kernel-arg-info -fno-discard-value-names -target spir64 -O2 -g -c -emit-llvm %s -o %t.bc
// RUN: %opt -load-pass-plugin=%plugin -passes='print<wgperf>' -disable-output %t.bc 2>/dev/null | FileCheck %s

__kernel void spir_vadd(__global const float *a, __global const float *b, __global float *c) {
  size_t i = get_global_id(0);
  size_t l = get_local_id(1);
  c[i] = a[i] + b[i] * (float)l;
}

// CHECK:       wgperf model of '{{.*}}' (spir64)
// CHECK-LABEL: kernel spir_vadd (opencl)
// CHECK-NEXT:  arg 0 a: pointer global 'float*' elem=4 (type) const
// CHECK-NEXT:  arg 1 b: pointer global 'float*' elem=4 (type) const
// CHECK-NEXT:  arg 2 c: pointer global 'float*' elem=4 (type){{$}}
// CHECK-NEXT:  block 0 entry {{.*}}conv=1 fp32_fma=1 ld.global.32=2 other=2 sreg=3 st.global.32=1 -> - exit
// CHECK-NEXT:  mem M0 load global 4B block=0 base=arg:a offset=(mul:nsw 4 gid.x) affine
// CHECK-NEXT:  mem M1 load global 4B block=0 base=arg:b offset=(mul:nsw 4 gid.x) affine
// CHECK-NEXT:  mem M2 store global 4B block=0 base=arg:c offset=(mul:nsw 4 gid.x) affine
// CHECK-NOT:   call
