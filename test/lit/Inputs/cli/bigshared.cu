// TILE_FLOATS floats of static shared memory: 12289 (49156 bytes) is more than the
// 49152 ptxas accepts for any architecture, 12288 exactly that much.
__global__ void bigshared(float *out) {
  __shared__ float tile[TILE_FLOATS];
  tile[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = tile[(threadIdx.x + 1) % TILE_FLOATS];
}
