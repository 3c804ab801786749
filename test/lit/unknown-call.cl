// A call to a function defined nowhere: a warning naming it, the call listed
// as unresolved and counted, the rest of the kernel still modelled.
// RUN: %clang_cl -O2 -g -c -emit-llvm %s -o %t.bc
// RUN: %opt -load-pass-plugin=%plugin -passes='print<wgperf>' -disable-output %t.bc | FileCheck %s
// RUN: rm -f %t.json
// RUN: %opt -load-pass-plugin=%plugin -passes='wgperf-extract<output=%t.json>' -disable-output %t.bc 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: FileCheck %s --check-prefix=JSON --input-file=%t.json

float foo(float x);

__kernel void unknown_call(__global float *a) {
  int i = get_global_id(0);
  a[i] = foo(a[i]) * 2.0f;
}

// CHECK-LABEL: kernel unknown_call (opencl)
// CHECK:       block 0 entry {{.*}}call=1 {{.*}}fp32_mul=1 {{.*}}ld.global.32=1 other=2 sreg=2 st.global.32=1 -> - exit
// CHECK-NEXT:  mem M0 load global 4B block=0 base=arg:a offset=(sext:34:64 (mul:34 4 (trunc:64:34 gid.x))) affine
// CHECK-NEXT:  mem M1 store global 4B block=0 base=arg:a offset=(sext:34:64 (mul:34 4 (trunc:64:34 gid.x))) affine
// CHECK-NEXT:  call foo block=0: unknown external function
// CHECK:       warning: call to 'foo' left unresolved (unknown external function) at {{.*}}unknown-call.cl:13

// WARN: wgperf: warning: kernel 'unknown_call': call to 'foo' left unresolved (unknown external function)
// WARN-NOT: error

// JSON:      "calls": [
// JSON:        "callee": "foo",
// JSON:      "static_counts": {
// JSON:        "call": 1,
