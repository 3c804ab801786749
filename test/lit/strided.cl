// Strided read: in[2*i] has a byte stride of 8, out[i] of 4.
// RUN: %clang_cl -O2  -g -c -emit-llvm %s -o %t.bc
// RUN: %opt -load-pass-plugin=%plugin -passes='print<wgperf>' -disable-output %t.bc | FileCheck %s

__kernel void strided(__global const float *in, __global float *out) {
  size_t i = get_global_id(0);
  out[i] = in[2 * i];
}

// in[2*i] on floats: 8 bytes per work-item; out[i]: 4 bytes.
// CHECK-LABEL: kernel strided (opencl)
// CHECK:       block 0 entry {{.*}}ld.global.32=1 other=2 sreg=2 st.global.32=1 -> - exit
// CHECK-NEXT:  mem M0 load global 4B block=0 base=arg:in offset=(mul 8 gid.x) affine [{{.*}}strided.cl:7]
// CHECK-NEXT:  mem M1 store global 4B block=0 base=arg:out offset=(mul:nsw 4 gid.x) affine [{{.*}}strided.cl:7]
