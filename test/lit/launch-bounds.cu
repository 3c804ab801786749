// CUDA __launch_bounds__(MAXT, MINB): the plugin records it (clang 19 writes
// it as nvvm.annotations maxntidx / minctasm), a launch of more threads per
// block is an error naming the attribute and the kernel, and wgprune
// searches only the sizes it allows.
// RUN: %wgperf extract %s -o %t.json | FileCheck %s --check-prefix=SHOW
// RUN: FileCheck %s --check-prefix=MODEL < %t.json
// RUN: %wgperf predict %t.json --kernel bounded --grid 16 --block 256 --arg n=4096 | FileCheck %s --check-prefix=OK
// RUN: %wgperf predict %t.json --kernel bounded --grid 32 --block 8,16 --arg n=4096 | FileCheck %s --check-prefix=OK
// RUN: not %wgperf predict %t.json --kernel bounded --grid 8 --block 512 --arg n=4096 2>&1 | FileCheck %s --check-prefix=TOOMANY
// RUN: not %wgperf analyze %t.json --kernel bounded --global 64,64 --local 16,32 --arg n=4096 2>&1 | FileCheck %s --check-prefix=TOOMANY2
// a kernel without the attribute takes any size the GPU allows
// RUN: %wgperf predict %t.json --kernel unbounded --grid 8 --block 512 --arg n=4096 | FileCheck %s --check-prefix=FREE
// wgprune: only sizes of at most 256 threads, and the table says why
// RUN: wgprune %t.json --kernel bounded --global 1048576 --arg n=1048576 --exhaustive | FileCheck %s --check-prefix=PRUNE
// RUN: wgprune %t.json --kernel bounded --global 1048576 --arg n=1048576 --json | FileCheck %s --check-prefix=PRUNEJ
// RUN: wgprune %t.json --kernel unbounded --global 1048576 --arg n=1048576 | FileCheck %s --check-prefix=PRUNEFREE
// with --restrict as well, both are named
// RUN: wgprune %t.json --kernel bounded --global 1048576 --arg n=1048576 --restrict 'lx >= 64' | FileCheck %s --check-prefix=BOTH

extern "C" __global__ void __launch_bounds__(256, 2) bounded(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= 2.0f;
}

extern "C" __global__ void unbounded(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= 2.0f;
}

// SHOW-LABEL: kernel bounded
// SHOW-NEXT:  launch  __launch_bounds__(256, 2)
// SHOW-LABEL: kernel unbounded
// SHOW-NOT:   {{^  launch}}
// SHOW:       args

// MODEL:      "name": "bounded",
// MODEL:      "launch_attributes": {
// MODEL-NEXT:   "max_threads_per_block": 256,
// MODEL-NEXT:   "min_blocks_per_sm": 2,
// MODEL-NEXT:   "attribute": "__launch_bounds__(256, 2)"
// MODEL-NEXT: },
// MODEL:      "name": "unbounded",
// MODEL-NOT:  launch_attributes
// MODEL:      "args"

// OK: kernel bounded on NVIDIA H100 SXM
// TOOMANY: wgperf: error: kernel 'bounded' allows at most 256 threads per block (__launch_bounds__(256, 2)), got 512 (512x1x1): a launch with more fails
// TOOMANY2: wgperf: error: kernel 'bounded' allows at most 256 threads per block (__launch_bounds__(256, 2)), got 512 (16x32x1)
// FREE: kernel unbounded on NVIDIA H100 SXM

// PRUNE:      kernel bounded on NVIDIA H100 SXM
// PRUNE-NEXT: restricted to at most 256 work-items per group by the kernel's __launch_bounds__(256, 2)
// PRUNE-NEXT: candidates 9 (9 can run; 2 more excluded by __launch_bounds__(256, 2))
// PRUNE-NOT:  {{^ +[0-9]+ +(512|1024) }}
// PRUNE:      wall time
// PRUNEJ: "excluded_by_restrictions": 2,
// PRUNEJ: "launch_attribute": "__launch_bounds__(256, 2)",
// PRUNEFREE-NOT: restricted
// PRUNEFREE: candidates 11 (11 can run)
// BOTH: candidates 3 (3 can run; 8 more excluded by --restrict and __launch_bounds__(256, 2))
