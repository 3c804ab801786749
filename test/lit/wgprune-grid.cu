// A kernel with a work-group per row: the grid is the problem size, not the work-items.
// --grid fixes the work-groups (each size's global size is grid x size), and the sizes tried
// are the powers of two and the multiples of the warp size: 5 below 32 and 32 multiples up to
// 1024. With --global the rows covered would change with the size.
// RUN: wgprune %s --grid 4096 --arg cols=2048 --local-arg red=4*lx --json | FileCheck %s
// CHECK: "candidates_total": 37,
// RUN: wgprune %s --grid 4096 --arg cols=2048 --local-arg red=4*lx --exhaustive --csv | FileCheck %s --check-prefix=CSV
// CSV: rank,local_x,local_y,local_z,time_us
// CSV-NOT: {{^[0-9]+,(3|5|6|7|9|33|48|100),}}
// Both, or a grid and a global size, is an error.
// RUN: not wgprune %s --grid 4096 --global 4096 --arg cols=2048 --local-arg red=4*lx 2>&1 | FileCheck %s --check-prefix=BOTH
// BOTH: wgprune: error: give the global size (--global, every size dividing it) or the grid (--grid, a fixed number of work-groups), once
// A bad grid is named as the user wrote it.
// RUN: not wgprune %s --grid 0 --arg cols=2048 --local-arg red=4*lx 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: wgprune: error: --grid '0': sizes must be between 1 and 2^64-1
__global__ void row_sum(const float *__restrict__ x, float *__restrict__ y, int cols) {
  extern __shared__ float red[];
  const float *xr = x + (size_t)blockIdx.x * cols;
  float s = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    s += xr[c];
  red[threadIdx.x] = s;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (threadIdx.x < k)
      red[threadIdx.x] += red[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    y[blockIdx.x] = red[0];
}
