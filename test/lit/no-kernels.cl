// A module without kernels: a warning, exit status 0, and no model file.
// RUN: %clang_cl -O2 -c -emit-llvm %s -o %t.bc
// RUN: rm -f %t.json
// RUN: %opt -load-pass-plugin=%plugin -passes='wgperf-extract<output=%t.json>' -disable-output %t.bc 2>&1 | FileCheck %s
// RUN: not ls %t.json
// RUN: %opt -load-pass-plugin=%plugin -passes='print<wgperf>' -disable-output %t.bc | FileCheck %s --check-prefix=PRINT
// clang's pipeline says the same and still compiles.
// RUN: env WGPERF_OUTPUT=%t.clang.json %clang_cl -O2 -fpass-plugin=%plugin -c -emit-llvm %s -o %t.2.bc 2>&1 | FileCheck %s
// RUN: not ls %t.clang.json
// WGPERF_QUIET=1 silences the warning.
// RUN: env WGPERF_QUIET=1 %opt -load-pass-plugin=%plugin -passes='wgperf-extract<output=%t.json>' -disable-output %t.bc 2>&1 | count 0

float helper(float x) { return x * 2.0f; }
void store_it(__global float *p, float v) { *p = helper(v); }

// CHECK: wgperf: warning: no kernels found in module '{{.*}}'
// CHECK-NOT: error
// PRINT: wgperf model of '{{.*}}' (nvptx64-nvidia-nvcl)
// PRINT-NEXT: warning: no kernels found in module
// PRINT-NOT: kernel {{.*}}(opencl)
