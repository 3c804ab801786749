// A 16x16 shared-memory tiled matrix multiply, C = A * B, for N x N row-major
// matrices with N a multiple of 16.  Launch with a 16x16 work-group and an
// N x N global size.
//
//   build/bin/wgperf extract examples/matmul_tiled.cl
#define TILE 16

__kernel void matmul_tiled(__global const float *A, __global const float *B,
                           __global float *C, int N) {
  __local float As[TILE][TILE];
  __local float Bs[TILE][TILE];
  int tx = get_local_id(0);
  int ty = get_local_id(1);
  int row = get_group_id(1) * TILE + ty;
  int col = get_group_id(0) * TILE + tx;
  float acc = 0.0f;
  for (int t = 0; t < N / TILE; ++t) {
    As[ty][tx] = A[row * N + t * TILE + tx];
    Bs[ty][tx] = B[(t * TILE + ty) * N + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TILE; ++k)
      acc += As[ty][k] * Bs[k][tx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[row * N + col] = acc;
}
