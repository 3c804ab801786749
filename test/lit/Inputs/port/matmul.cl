/* The naive matrix multiply (as amaris-nvprof's matMul_gpu): each work-item
 * walks a row of m and a column of n through L2, nothing reused on chip.
 * With 32x32 groups a warp's step loads one sector of m (all lanes read the
 * same float) and four of n (32 consecutive floats): 5 sectors per step. */
__kernel void matmul(__global float *p, __global const float *m, __global const float *n, int w) {
  int col = get_global_id(0), row = get_global_id(1);
  float acc = 0.0f;
  for (int k = 0; k < w; ++k)
    acc += m[row * w + k] * n[k * w + col];
  p[row * w + col] = acc;
}
