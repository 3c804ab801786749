// scale.cu's signature and parameters, reading the lane's id through inline
// assembly at one place of the source that the unrolled loop repeats: the
// plugin's warning is the same words at each copy (tune-warnings.test).
// (block_size_x, elems and variant come from the space: wgtune defines every
// parameter)

extern "C" __global__ void scale(float *out, const float *in, int n, float a) {
#pragma unroll
  for (int e = 0; e < elems; e++) {
    int i = blockIdx.x * block_size_x * elems + e * block_size_x + threadIdx.x;
    unsigned lane;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
    if (i < n)
      out[i] = a * in[i] + (float)lane;
  }
}
