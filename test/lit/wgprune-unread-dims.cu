// A kernel that takes its row from blockIdx.y and never reads threadIdx.y is written for
// blocks of one row: with more, threads that differ only in y repeat each other's work
// (and the grid covers 1/ly of the rows), so wgprune does not offer such sizes. The table
// says which of its ranks are certain.
// RUN: wgprune %s --kernel bias_rows --global 1024,512 --arg cols=1024 --arg rows=512 | FileCheck %s
// CHECK: cannot run {{[0-9]+}}x{{[2-9]|[0-9]+}}: the kernel never reads threadIdx.y: threads of a group that differ only in y would repeat each other's work
// CHECK: rank  work-group
// CHECK-NEXT: {{^ +}}1 {{[0-9]+}}x1 {{[0-9.]+}} 
// CHECK-NOT: x2 {{[0-9.]+}} 
// A kernel that reads both ids keeps its 2-D sizes.
// RUN: wgprune %s --kernel scale2d --global 1024,512 --arg cols=1024 --json | FileCheck %s --check-prefix=BOTH
// BOTH: "candidates_valid": 65,
// RUN: wgprune %s --kernel scale2d --global 1024,512 --arg cols=1024 | FileCheck %s --check-prefix=NOTE
// NOTE: {{^ +}}2  {{[0-9]+x[0-9]+}}
// NOTE: rank 1 is the predicted fastest of all sizes that can run; the others are the sizes the search simulated
__global__ void bias_rows(float *m, const float *bias, int cols, int rows) {
  int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y;
  if (c < cols && r < rows)
    m[(size_t)r * cols + c] += bias[c];
}
__global__ void scale2d(float *m, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
  m[(size_t)r * cols + c] *= 2.0f;
}
