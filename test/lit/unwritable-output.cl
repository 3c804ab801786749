// An output path that cannot be created: a clear error and a nonzero exit,
// never a crash.
// RUN: %clang_cl -O2 -c -emit-llvm %s -o %t.bc
// RUN: not %opt -load-pass-plugin=%plugin -passes='wgperf-extract<output=/nonexistent/dir/x.json>' -disable-output %t.bc 2>&1 | FileCheck %s
// RUN: not %opt -load-pass-plugin=%plugin -passes=wgperf-extract -wgperf-output=/nonexistent/dir/x.json -disable-output %t.bc 2>&1 | FileCheck %s
// RUN: env WGPERF_OUTPUT=/nonexistent/dir/x.json not %clang_cl -O2 -fpass-plugin=%plugin -c -emit-llvm %s -o %t.2.bc 2>&1 | FileCheck %s

__kernel void k(__global float *a) { a[get_global_id(0)] = 1.0f; }

// CHECK: wgperf: cannot write kernel model to '/nonexistent/dir/x.json'
// CHECK-NOT: Stack dump
// CHECK-NOT: PLEASE submit a bug report
