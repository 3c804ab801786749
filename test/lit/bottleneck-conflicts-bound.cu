// Bank conflicts are named as the bottleneck only when the pipeline sets the
// time.  A 32x32 tile transposed through shared memory without padding has
// 32-way conflicts on its column reads: on an H100 they set the time; on an A10
// the same launch is bound by DRAM bandwidth (as fast as the padded tile), and
// the bottleneck line says so instead of sending the user to pad the tile.
// Of several conflicted accesses, the one whose conflicts add the most
// wavefronts is named (an unpadded Blelloch scan: 32-way, not the first 4-way).
// RUN: %wgperf predict %s --kernel transpose_nopad --grid 64,64 --block 32,8 --arg width=2048 --arg height=2048 --gpu a10 | FileCheck %s --check-prefix=A10
// A10: rounds {{.*}}; limited by dram_bandwidth
// A10: bottleneck  DRAM bandwidth: {{.*}} at 585 GB/s
// RUN: %wgperf predict %s --kernel transpose_nopad --grid 64,64 --block 32,8 --arg width=2048 --arg height=2048 --gpu h100 | FileCheck %s --check-prefix=H100
// H100: rounds {{.*}}; limited by pipeline
// H100: bottleneck  shared-memory loads at {{.*}}bottleneck-conflicts-bound.cu:26 have 32-way bank conflicts
// RUN: %wgperf predict %s --kernel scan_up --grid 64 --block 512 | FileCheck %s --check-prefix=SCAN
// SCAN: bottleneck  shared-memory {{load|store}}s at {{.*}}bottleneck-conflicts-bound.cu:37 have 32-way bank conflicts
#define TD 32
#define BR 8
__global__ void transpose_nopad(float *odata, const float *idata, int width, int height) {
  __shared__ float tile[TD][TD];
  int x = blockIdx.x * TD + threadIdx.x, y = blockIdx.y * TD + threadIdx.y;
  for (int j = 0; j < TD; j += BR)
    tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
  __syncthreads();
  x = blockIdx.y * TD + threadIdx.x, y = blockIdx.x * TD + threadIdx.y;
  for (int j = 0; j < TD; j += BR)
    odata[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}
__global__ void scan_up(float *data) {
  __shared__ float t[1024];
  int tid = threadIdx.x;
  t[tid] = data[blockIdx.x * 1024 + tid];
  t[tid + 512] = data[blockIdx.x * 1024 + tid + 512];
  int offset = 1;
  for (int d = 512; d > 0; d >>= 1) {
    __syncthreads();
    if (tid < d)
      t[offset * (2 * tid + 2) - 1] += t[offset * (2 * tid + 1) - 1];
    offset <<= 1;
  }
  __syncthreads();
  data[blockIdx.x * 1024 + tid] = t[tid];
}
