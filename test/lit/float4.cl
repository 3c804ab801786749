// float4 loads and stores are one 16-byte access each; the multiply counts per lane.
// RUN: %clang_cl -O2  -g -c -emit-llvm %s -o %t.bc
// RUN: %opt -load-pass-plugin=%plugin -passes='print<wgperf>' -disable-output %t.bc | FileCheck %s

__kernel void scale4(__global const float4 *in, __global float4 *out, float s) {
  int i = get_global_id(0);
  out[i] = in[i] * s;
}

// CHECK-LABEL: kernel scale4 (opencl)
// CHECK-NEXT:  arg 0 in: pointer global 'float4*' elem=16 (type) const
// CHECK-NEXT:  arg 1 out: pointer global 'float4*' elem=16 (type){{$}}
// CHECK-NEXT:  arg 2 s: scalar private 'float' bytes=4
// CHECK-NEXT:  block 0 entry {{.*}}fp32_mul=4 {{.*}}ld.global.128=1 {{.*}}st.global.128=1 -> - exit
// CHECK-NEXT:  mem M0 load global 16B block=0 base=arg:in offset=(mul:nsw 16 (sext:32:64 (trunc:64:32 gid.x))) affine
// CHECK-NEXT:  mem M1 store global 16B block=0 base=arg:out offset=(mul:nsw 16 (sext:32:64 (trunc:64:32 gid.x))) affine
