// Every way of naming the output of opt -passes=wgperf-extract.
// RUN: %clang_cl -O2 -c -emit-llvm %s -o %t.bc
// RUN: rm -rf %t.dir && mkdir -p %t.dir/sub

// Default: "<source stem>.wgperf.json" in the current directory.
// RUN: cd %t.dir && %opt -load-pass-plugin=%plugin -passes=wgperf-extract -disable-output %t.bc
// RUN: FileCheck %s --input-file=%t.dir/opt-output-forms.wgperf.json

// The pass parameter.
// RUN: %opt -load-pass-plugin=%plugin -passes='wgperf-extract<output=%t.param.json>' -disable-output %t.bc
// RUN: FileCheck %s --input-file=%t.param.json

// The command-line option.
// RUN: %opt -load-pass-plugin=%plugin -passes=wgperf-extract -wgperf-output=%t.option.json -disable-output %t.bc
// RUN: FileCheck %s --input-file=%t.option.json

// The environment variable.
// RUN: env WGPERF_OUTPUT=%t.env.json %opt -load-pass-plugin=%plugin -passes=wgperf-extract -disable-output %t.bc
// RUN: FileCheck %s --input-file=%t.env.json

// A directory receives "<source stem>.wgperf.json".
// RUN: %opt -load-pass-plugin=%plugin -passes='wgperf-extract<output=%t.dir/sub/>' -disable-output %t.bc
// RUN: FileCheck %s --input-file=%t.dir/sub/opt-output-forms.wgperf.json

// First match wins: parameter, then option, then environment.
// RUN: rm -f %t.p.json %t.o.json %t.e.json
// RUN: env WGPERF_OUTPUT=%t.e.json %opt -load-pass-plugin=%plugin -passes='wgperf-extract<output=%t.p.json>' -wgperf-output=%t.o.json -disable-output %t.bc
// RUN: FileCheck %s --input-file=%t.p.json
// RUN: not ls %t.o.json %t.e.json
// RUN: env WGPERF_OUTPUT=%t.e.json %opt -load-pass-plugin=%plugin -passes=wgperf-extract -wgperf-output=%t.o.json -disable-output %t.bc
// RUN: FileCheck %s --input-file=%t.o.json
// RUN: not ls %t.e.json

// The same text as print<wgperf> gives for the same module: the JSON and the
// text agree on the kernel and the access.
// RUN: %opt -load-pass-plugin=%plugin -passes='print<wgperf>' -disable-output %t.bc | FileCheck %s --check-prefix=TEXT

// The pass does not change the module it analyses (the ModuleID line aside).
// RUN: %opt -load-pass-plugin=%plugin -passes='wgperf-extract<output=%t.same.json>' %t.bc -o %t.after.bc
// RUN: llvm-dis %t.bc -o - | sed 1d > %t.before.ll
// RUN: llvm-dis %t.after.bc -o - | sed 1d > %t.after.ll
// RUN: diff %t.before.ll %t.after.ll

__kernel void copy(__global const int *src, __global int *dst) {
  size_t i = get_global_id(0);
  dst[i] = src[i];
}

// CHECK:      "format": "wgperf-kernel-model",
// CHECK:      "module": "{{.*}}.bc",
// CHECK-NEXT: "source_file": "{{.*}}opt-output-forms.cl",
// CHECK:        "name": "copy",
// CHECK:          "offset": "(mul:nsw 4 gid.x)",
// CHECK-NEXT:     "affine": true,

// TEXT: kernel copy (opencl)
// TEXT: mem M0 load global 4B block=0 base=arg:src offset=(mul:nsw 4 gid.x) affine
// TEXT: mem M1 store global 4B block=0 base=arg:dst offset=(mul:nsw 4 gid.x) affine
