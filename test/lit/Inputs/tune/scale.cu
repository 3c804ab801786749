// A small kernel for wgtune's tests.  Each thread scales ELEMS elements:
// block_size_x apart (coalesced) in variants 0 and 1, which are the same
// code (wgtune merges them), or ELEMS consecutive ones (uncoalesced for
// ELEMS > 1) in variant 2.  The block stages its elements in shared memory
// (32 floats per element: 64 KiB at 512 elements, more than the 48 KiB a
// block may declare, so such a configuration cannot run).
#ifndef block_size_x
#define block_size_x 64
#endif
#ifndef elems
#define elems 1
#endif
#ifndef variant
#define variant 0
#endif

extern "C" __global__ void scale(float *out, const float *in, int n, float a) {
  __shared__ float stage[block_size_x * elems * 32];
#pragma unroll
  for (int e = 0; e < elems; e++) {
#if variant == 2
    int i = (blockIdx.x * block_size_x + threadIdx.x) * elems + e;
#else
    int i = blockIdx.x * block_size_x * elems + e * block_size_x + threadIdx.x;
#endif
    stage[(e * block_size_x + threadIdx.x) * 32] = i < n ? in[i] : 0.0f;
  }
  __syncthreads();
#pragma unroll
  for (int e = 0; e < elems; e++) {
#if variant == 2
    int i = (blockIdx.x * block_size_x + threadIdx.x) * elems + e;
#else
    int i = blockIdx.x * block_size_x * elems + e * block_size_x + threadIdx.x;
#endif
    if (i < n)
      out[i] = a * stage[(e * block_size_x + threadIdx.x) * 32];
  }
}
