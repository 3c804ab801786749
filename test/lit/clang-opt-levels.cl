// clang -fpass-plugin runs wgperf-extract at every optimization level; the
// model goes to $WGPERF_OUTPUT.
// RUN: rm -f %t.O0.json %t.O1.json %t.O2.json %t.O3.json
// RUN: env WGPERF_OUTPUT=%t.O0.json %clang_cl -O0 -fpass-plugin=%plugin -c -emit-llvm %s -o %t.O0.bc
// RUN: env WGPERF_OUTPUT=%t.O1.json %clang_cl -O1 -fpass-plugin=%plugin -c -emit-llvm %s -o %t.O1.bc
// RUN: env WGPERF_OUTPUT=%t.O2.json %clang_cl -O2 -fpass-plugin=%plugin -c -emit-llvm %s -o %t.O2.bc
// RUN: env WGPERF_OUTPUT=%t.O3.json %clang_cl -O3 -fpass-plugin=%plugin -c -emit-llvm %s -o %t.O3.bc
// RUN: FileCheck %s --input-file=%t.O0.json
// RUN: FileCheck %s --input-file=%t.O1.json
// RUN: FileCheck %s --input-file=%t.O2.json
// RUN: FileCheck %s --input-file=%t.O3.json
// -O0 and -O1 leave the loop alone; after normalization both give the same count.
// RUN: FileCheck %s --check-prefix=TRIP --input-file=%t.O0.json
// RUN: FileCheck %s --check-prefix=TRIP --input-file=%t.O1.json

__kernel void scale_rows(__global float *m, float s, int cols) {
  int r = get_global_id(0);
  for (int c = 0; c < cols; c++)
    m[r * cols + c] *= s;
}

// CHECK:       "format": "wgperf-kernel-model",
// CHECK-NEXT:  "version": 1,
// CHECK:       "target": "nvptx64-nvidia-nvcl",
// CHECK:       "kernels": [
// CHECK:         "name": "scale_rows",
// CHECK-NEXT:    "symbol": "scale_rows",
// CHECK:         "language": "opencl",
// CHECK:           "name": "m",
// CHECK:           "space": "global",
// CHECK:           "name": "cols",
// CHECK:       "loops": [
// CHECK:           "trip_kind": "exact",
// CHECK:           "trip_count": "{{.*}}arg.cols{{.*}}",
// CHECK:       "memory": [
// CHECK:           "kind": "load",
// CHECK:           "space": "global",
// CHECK-NEXT:      "bytes": 4,
// CHECK:           "kind": "arg",
// CHECK-NEXT:      "name": "m",
// CHECK:           "affine": true,

// TRIP: "trip_count": "(add:nsw:nuw 1 (zext:32:64 (add:32 -1 arg.cols)))",
