// OpenCL's reqd_work_group_size(X, Y, Z): the plugin records it (clang's
// !reqd_work_group_size metadata), any other local size is an error naming
// the attribute and the kernel, and wgprune searches that one size.  A model
// without the key (written before it) still loads and constrains nothing.
// RUN: %wgperf extract %s -o %t.json | FileCheck %s --check-prefix=SHOW
// RUN: FileCheck %s --check-prefix=MODEL < %t.json
// RUN: %clang_cl -O2 -c -emit-llvm %s -o %t.bc
// RUN: %opt -load-pass-plugin=%plugin -passes='print<wgperf>' -disable-output %t.bc | FileCheck %s --check-prefix=PRINT
// RUN: %wgperf predict %t.json --kernel tile --global 256,256 --local 16,16 --arg w=256 | FileCheck %s --check-prefix=OK
// RUN: not %wgperf predict %t.json --kernel tile --global 256,256 --local 8,8 --arg w=256 2>&1 | FileCheck %s --check-prefix=WRONG
// RUN: not %wgperf analyze %t.json --kernel tile --global 256,256,2 --local 16,16,2 --arg w=256 2>&1 | FileCheck %s --check-prefix=WRONGZ
// RUN: wgprune %t.json --kernel tile --global 256,256 --arg w=256 | FileCheck %s --check-prefix=PRUNE
// RUN: not wgprune %t.json --kernel tile --global 200,256 --arg w=200 2>&1 | FileCheck %s --check-prefix=NOFIT
// RUN: not wgprune %t.json --kernel tile --global 256 --arg w=256 2>&1 | FileCheck %s --check-prefix=NOFIT1
// the same model without launch_attributes: no constraint
// RUN: python3 -c "import json,sys; m=json.load(open(sys.argv[1])); [k.pop('launch_attributes', None) for k in m['kernels']]; json.dump(m, open(sys.argv[2], 'w'))" %t.json %t.old.json
// RUN: %wgperf predict %t.old.json --kernel tile --global 256,256 --local 8,8 --arg w=256 | FileCheck %s --check-prefix=OLD

__kernel __attribute__((reqd_work_group_size(16, 16, 1))) void tile(__global float *x, int w) {
  int i = get_global_id(1) * w + get_global_id(0);
  x[i] *= 2.0f;
}

__kernel void plain(__global float *x) { x[get_global_id(0)] = 0.0f; }

// SHOW-LABEL: kernel plain
// SHOW-NOT:   {{^  launch}}
// SHOW-LABEL: kernel tile
// SHOW-NEXT:  launch  reqd_work_group_size(16, 16, 1)

// MODEL:      "name": "tile",
// MODEL:      "launch_attributes": {
// MODEL-NEXT:   "reqd_work_group_size": [
// MODEL-NEXT:     16,
// MODEL-NEXT:     16,
// MODEL-NEXT:     1
// MODEL-NEXT:   ],
// MODEL-NEXT:   "attribute": "reqd_work_group_size(16, 16, 1)"
// MODEL-NEXT: },

// PRINT-LABEL: kernel tile (opencl)
// PRINT-NEXT:  launch reqd_work_group_size(16, 16, 1)

// OK: kernel tile on NVIDIA H100 SXM
// WRONG: wgperf: error: kernel 'tile' requires work-groups of 16x16x1 (reqd_work_group_size(16, 16, 1)), got 8x8x1
// WRONGZ: wgperf: error: kernel 'tile' requires work-groups of 16x16x1 (reqd_work_group_size(16, 16, 1)), got 16x16x2

// PRUNE:      kernel tile on NVIDIA H100 SXM
// PRUNE-NEXT: restricted to 16x16x1 by the kernel's reqd_work_group_size(16, 16, 1)
// PRUNE-NEXT: candidates 1 (1 can run; 59 more excluded by reqd_work_group_size(16, 16, 1))
// PRUNE:      rank  work-group
// PRUNE-NEXT: {{^ +1 +16x16 }}
// PRUNE-NEXT: wall time
// NOFIT: wgprune: error: kernel 'tile' requires work-groups of 16x16x1 (reqd_work_group_size(16, 16, 1)), which the global size 200 in dimension x cannot take (not a multiple; --nonuniform allows a smaller last group): no work-group size to search
// NOFIT1: wgprune: error: kernel 'tile' requires work-groups of 16x16x1 {{.*}}, which the global size 1 in dimension y cannot take: no work-group size to search
// OLD: kernel tile on NVIDIA H100 SXM
