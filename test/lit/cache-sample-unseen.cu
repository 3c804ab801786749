// The cache simulation traces the first work-groups of a wave.  A 3-D stencil
// launched over the whole box returns at its faces, and on an A100 the first
// wave (108 SMs x 8 groups of 32x8x1) is the z = 0 face: the traced groups make
// none of the global accesses.  The wave in the middle of the grid is traced
// instead, and the caches line says so; the time is the stencil's without the
// z = 0 test (1623 us with the sample's 54 groups, 512 warps; it was 3227 us,
// every access a miss).  Were some accesses
// still never made by the traced groups, the line would name them.
// RUN: %wgperf predict %s --global 512,512,512 --local 32,8,1 --arg nx=512 --arg ny=512 --arg nz=512 --gpu a100 --kernel stencil7 | FileCheck %s
// RUN: %wgperf analyze %s --kernel stencil7 --global 512,512,512 --local 32,8,1 --arg nx=512 --arg ny=512 --arg nz=512 --gpu a100 | FileCheck %s
// CHECK: caches {{.*}} of 54 work-groups of the wave in the middle of the grid (the first wave makes no global access)
// CHECK-NOT: make none
// RUN: %wgperf predict %s --global 512,512,512 --local 32,8,1 --arg nx=512 --arg ny=512 --arg nz=512 --gpu a100 --kernel stencil7 --json | FileCheck %s --check-prefix=TIME
// TIME: "time_us": 1{{[56]}}{{[0-9][0-9]}}.
// The same stencil launched over the interior only says nothing of the kind.
// RUN: %wgperf predict %s --kernel stencil7i --global 512,512,512 --local 32,8,1 --arg nx=514 --arg ny=514 --gpu a100 | FileCheck %s --check-prefix=SEEN
// SEEN: caches
// SEEN-NOT: make none
__global__ void stencil7(const float *__restrict__ in, float *__restrict__ out, int nx, int ny, int nz, float c0,
                         float c1) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x < 1 || y < 1 || z < 1 || x >= nx - 1 || y >= ny - 1 || z >= nz - 1)
    return;
  size_t sxy = (size_t)nx * ny;
  size_t i = (size_t)z * sxy + (size_t)y * nx + x;
  out[i] = c0 * in[i] + c1 * (in[i - 1] + in[i + 1] + in[i - nx] + in[i + nx] + in[i - sxy] + in[i + sxy]);
}
__global__ void stencil7i(const float *__restrict__ in, float *__restrict__ out, int nx, int ny, float c0, float c1) {
  int x = blockIdx.x * blockDim.x + threadIdx.x + 1;
  int y = blockIdx.y * blockDim.y + threadIdx.y + 1;
  int z = blockIdx.z * blockDim.z + threadIdx.z + 1;
  size_t sxy = (size_t)nx * ny;
  size_t i = (size_t)z * sxy + (size_t)y * nx + x;
  out[i] = c0 * in[i] + c1 * (in[i - 1] + in[i + 1] + in[i - nx] + in[i + nx] + in[i - sxy] + in[i + sxy]);
}
