// clang unrolls a loop with a run-time count (4x, as nvcc) and leaves a
// remainder loop: one source loop becomes two, L0 and L1, at the same line.
// The extract summary and the --trip hints say which is which and what COUNT
// counts, so that 32 elements per row are --trip L1=8 (and L0=0), not 32 each.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %wgperf extract %s -o %t/m.json | FileCheck %s --check-prefix=SUMMARY
// SUMMARY: loops   2: L0 data-dependent ({{.*}}unrolled-loop-hints.cu:[[LINE:[0-9]+]], remainder of L1), L1 data-dependent ({{.*}}unrolled-loop-hints.cu:[[LINE]], unrolled, remainder L0)
// RUN: %wgperf predict %t/m.json --global 4096 --local 256 --arg nrows=4096 | FileCheck %s --check-prefix=HINT
// HINT: fallback    L0 at {{.*}}: loop count needs values known only at run time, ran 1 iteration per entry; the remainder loop of the unrolled L1: COUNT is the source count modulo the unroll factor (hint: --trip L0=COUNT)
// HINT: fallback    L1 at {{.*}}: loop count needs values known only at run time, ran 1 iteration per entry; unrolled (remainder L0): COUNT is the source count divided by the unroll factor, 4 for a run-time count (docs/kernel-model.md) (hint: --trip L1=COUNT)
// RUN: %wgperf predict %t/m.json --global 4096 --local 256 --arg nrows=4096 --json | FileCheck %s --check-prefix=JSON
// JSON: "where": "L0",
// JSON: "assumed": "loop count needs values known only at run time, ran 1 iteration per entry; the remainder loop of the unrolled L1: {{.*}}",
// At -O0 nothing is unrolled: one loop, no such words.
// RUN: %wgperf extract %s -O0 -o %t/m0.json | FileCheck %s --check-prefix=O0
// O0: loops   1: L0 data-dependent ({{.*}}unrolled-loop-hints.cu:{{[0-9]+}})
__global__ void spmv_scalar(int nrows, const int *__restrict__ rowptr, const int *__restrict__ col,
                            const float *__restrict__ val, const float *__restrict__ x, float *__restrict__ y) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < nrows) {
    float s = 0.0f;
    for (int k = rowptr[row]; k < rowptr[row + 1]; ++k)
      s += val[k] * x[col[k]];
    y[row] = s;
  }
}

// (Below the kernel, which stays at line 22.)  The source line says the same:
// 32 per entry is L1=8 and L0=0 (the factor read from the unrolled loop's
// count), in predict and in wgprune.
// RUN: %wgperf predict %t/m.json --global 4096 --local 256 --arg nrows=4096 --trip L1=8 --trip L0=0 > %t/numbered.txt
// RUN: %wgperf predict %t/m.json --global 4096 --local 256 --arg nrows=4096 --trip unrolled-loop-hints.cu:22=32 > %t/line.txt
// RUN: diff %t/numbered.txt %t/line.txt
// RUN: %wgperf predict %t/m.json --global 4096 --local 256 --arg nrows=4096 --trip 22=33 | FileCheck %s --check-prefix=ODD
// ODD: fallback    L0 at {{.*}}ran the --trip count
// RUN: wgprune %t/m.json --global 4096 --arg nrows=4096 --trip L1=8 --trip L0=0 --csv > %t/prune-numbered.csv
// RUN: wgprune %t/m.json --global 4096 --arg nrows=4096 --trip 22=32 --csv > %t/prune-line.csv
// RUN: diff %t/prune-numbered.csv %t/prune-line.csv
// RUN: not %wgperf predict %t/m.json --global 4096 --local 256 --arg nrows=4096 --trip 23=5 2>&1 | FileCheck %s --check-prefix=NOLOOP
// NOLOOP: wgperf: error: --trip 23: kernel 'spmv_scalar' has no loop at that line whose count needs a hint (one of loaded values, or not computed)
// RUN: not %wgperf predict %t/m.json --global 4096 --local 256 --arg nrows=4096 --trip X1=5 2>&1 | FileCheck %s --check-prefix=FORM
// FORM: wgperf: error: --trip 'X1=5': expected L<loop>=COUNT or FILE:LINE=COUNT (LINE=COUNT), e.g. L0=100 or spmv.cu:22=32
