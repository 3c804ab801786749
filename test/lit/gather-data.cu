// Addresses from loaded data. The analysis gives each load that feeds an address a value per
// lane, a hash of the place it reads (wgp_tracer_track_loads), so a gather x[col[j]] reads
// scattered places of its buffer and a row walk val[rowptr[w] + lane] reads a contiguous run
// from a scattered start. The buffer is its --buffer size, else an element per work-item.
//
// A lookup in a 4 KiB table (128 sectors: 32 random lanes touch about 28) stays in L1; in
// 1 GiB it goes to DRAM.
// RUN: %wgperf analyze %s --kernel gather --global 16777216 --local 256 --arg n=16777216 --gpu h100 \
// RUN:   --buffer table=4KiB | FileCheck %s --check-prefix=SMALL
// SMALL: M1 {{.*}} load   table {{.*}} 2{{[6-9]}}.{{[0-9]+}} sectors, {{.*}} L1 hit 100%, L2 hit {{[0-9]+}}% (address from loaded data: taken at random places in 0.004096 MB)
// RUN: %wgperf analyze %s --kernel gather --global 16777216 --local 256 --arg n=16777216 --gpu h100 \
// RUN:   --buffer table=1GiB | FileCheck %s --check-prefix=BIG
// BIG: M1 {{.*}} load   table {{.*}} L1 hit 0%, L2 hit {{[0-9]}}%
// Without --buffer: 16.8 million work-items, 4 B each.
// RUN: %wgperf analyze %s --kernel gather --global 16777216 --local 256 --arg n=16777216 --gpu h100 \
// RUN:   | FileCheck %s --check-prefix=DEFAULT
// DEFAULT: M1 {{.*}} load   table {{.*}} (address from loaded data: taken at random places in 67.11 MB, --buffer sets it)
//
// A warp per row: the row's elements are contiguous (5 sectors a request: 128 B from a
// start that is not aligned), the vector x is gathered (32).
// RUN: %wgperf analyze %s --kernel spmv_vector --global 16777216 --local 256 --arg n=524288 --gpu h100 --trip L0=2 \
// RUN:   | FileCheck %s --check-prefix=VEC
// VEC: M2 {{.*}} load   val {{.*}} 5.00 sectors
// VEC: M4 {{.*}} load   x {{.*}} 32.00 sectors
//
// The time follows: a table that fits costs L1 hits, one in DRAM costs DRAM sectors.
// RUN: %wgperf predict %s --kernel gather --global 16777216 --local 256 --arg n=16777216 --gpu h100 \
// RUN:   --buffer table=4KiB --json | FileCheck %s --check-prefix=FAST
// FAST: "time_us": {{[0-9]{2}\.}}
// RUN: %wgperf predict %s --kernel gather --global 16777216 --local 256 --arg n=16777216 --gpu h100 \
// RUN:   --buffer table=1GiB --json | FileCheck %s --check-prefix=SLOW
// SLOW: "time_us": {{[0-9]{3}\.}}
__global__ void gather(int n, const int *idx, const float *table, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = table[idx[i]];
}
__global__ void spmv_vector(int n, const int *rowptr, const int *col, const float *val, const float *x, float *y) {
  int w = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
  if (w < n) {
    float s = 0.f;
    for (int j = rowptr[w] + lane; j < rowptr[w + 1]; j += 32)
      s += val[j] * x[col[j]];
    for (int o = 16; o > 0; o /= 2)
      s += __shfl_down_sync(0xffffffff, s, o);
    if (lane == 0)
      y[w] = s;
  }
}
