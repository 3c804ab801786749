// scale.cu's kernel in OpenCL, for wgtune's tests of OpenCL spaces: each
// work-item scales ELEMS elements, block_size_x apart (coalesced) in
// variants 0 and 1 (the same code) or ELEMS consecutive ones in variant 2,
// staged in local memory.
#ifndef block_size_x
#define block_size_x 64
#endif
#ifndef elems
#define elems 1
#endif
#ifndef variant
#define variant 0
#endif

__kernel void scale(__global float *out, __global const float *in, int n, float a) {
  __local float stage[block_size_x * elems * 32];
  int lx = get_local_id(0), gx = get_group_id(0);
#pragma unroll
  for (int e = 0; e < elems; e++) {
#if variant == 2
    int i = (gx * block_size_x + lx) * elems + e;
#else
    int i = gx * block_size_x * elems + e * block_size_x + lx;
#endif
    stage[(e * block_size_x + lx) * 32] = i < n ? in[i] : 0.0f;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
  for (int e = 0; e < elems; e++) {
#if variant == 2
    int i = (gx * block_size_x + lx) * elems + e;
#else
    int i = gx * block_size_x * elems + e * block_size_x + lx;
#endif
    if (i < n)
      out[i] = a * stage[(e * block_size_x + lx) * 32];
  }
}
