/* Kernels for test_footprint.c; footprint_kernels.json is made from this file by
 *   build/bin/wgperf extract test/unit/data/footprint_kernels.cl -o test/unit/data/footprint_kernels.json -- -fno-unroll-loops
 * Loops run at most 16 times in the tests, so the tracer (the brute-force
 * reference's control flow) executes every iteration. */

/* bounds-checked 2-D copy, coalesced along x */
__kernel void copy2d(__global const float *in, __global float *out, int w, int h) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x < w && y < h)
    out[y * w + x] = in[y * w + x];
}

/* transposed write, bounds-checked */
__kernel void transpose(__global const float *in, __global float *out, int w, int h) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x < w && y < h)
    out[x * h + y] = in[y * w + x];
}

/* 2-D 5-point stencil on the interior */
__kernel void stencil5(__global const float *in, __global float *out, int w, int h) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x > 0 && x < w - 1 && y > 0 && y < h - 1)
    out[y * w + x] = in[y * w + x] + in[y * w + x - 1] + in[y * w + x + 1] + in[(y - 1) * w + x] + in[(y + 1) * w + x];
}

/* misaligned by an argument, strided by another */
__kernel void offset_stride(__global const float *in, __global float *out, int off, int s, int n) {
  int i = get_global_id(0);
  if (i < n)
    out[i] = in[i * s + off];
}

/* 16 B lanes, the loads misaligned by one element of 4 B */
__kernel void vec4_shift(__global const float *in, __global float4 *out, int n) {
  int i = get_global_id(0);
  if (i < n)
    out[i] = ((__global const float4 *)(in + 1))[i];
}

/* a loop over rows: every iteration reads a row segment */
__kernel void loop_rows(__global const float *a, __global float *out, int n, int w) {
  int x = get_global_id(0);
  float s = 0;
  for (int k = 0; k < n; k++)
    s += a[k * w + x];
  out[x] = s;
}

/* triangular: the trip count depends on the work-item */
__kernel void tri(__global const float *a, __global float *out, int w) {
  int x = get_global_id(0), y = get_global_id(1);
  float s = 0;
  for (int k = 0; k <= y; k++)
    s += a[k * w + x];
  out[y * w + x] = s;
}

/* a branch on the loop variable and one on the work-item's parity */
__kernel void evenodd(__global const float *a, __global float *out, int n, int w) {
  int x = get_global_id(0);
  float s = 0;
  for (int k = 0; k < n; k++)
    if (k % 3 == 1)
      s += a[k * w + x];
  if (x % 2 == 0)
    out[x / 2] = s;
}

/* division, remainder and bit masks of the id by launch constants */
__kernel void divmod(__global const float *in, __global float *out, int w) {
  int i = get_global_id(0);
  out[(i % w) * 3 + i / w] = in[(i >> 2) * w + (i & 3)];
}

/* naive matrix multiply, P = M x N, all w x w */
__kernel void matmul(__global float *p, __global const float *m, __global const float *n, int w) {
  int col = get_global_id(0), row = get_global_id(1);
  float acc = 0;
  for (int k = 0; k < w; k++)
    acc += m[row * w + k] * n[k * w + col];
  p[row * w + col] = acc;
}

/* tiled matrix multiply through local memory (tile 4 x 4) */
__kernel void matmul_tiled(__global float *p, __global const float *m, __global const float *n, int w) {
  __local float as[4][4], bs[4][4];
  int tx = get_local_id(0), ty = get_local_id(1);
  int col = get_group_id(0) * 4 + tx, row = get_group_id(1) * 4 + ty;
  float acc = 0;
  for (int t = 0; t < w / 4; t++) {
    as[ty][tx] = m[row * w + t * 4 + tx];
    bs[ty][tx] = n[(t * 4 + ty) * w + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < 4; k++)
      acc += as[ty][k] * bs[k][tx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  p[row * w + col] = acc;
}

/* 3-D, with an atomic histogram of the plane index */
__kernel void volume(__global const double *in, __global double *out, __global int *hist, int nx, int ny) {
  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  size_t i = ((size_t)z * ny + y) * nx + x;
  out[i] = 2.0 * in[i];
  atomic_inc(&hist[z % 8]);
}

/* seeds/002 sec. 5.2: range-4 3-D 25-point star stencil, double precision,
 * on an array padded by 4 on every side: (nx+8) x (ny+8) x (nz+8) */
__kernel void star25(__global const double *src, __global double *dst, int nx, int ny) {
  int x = get_global_id(0) + 4, y = get_global_id(1) + 4, z = get_global_id(2) + 4;
  long px = nx + 8, pxy = (long)(nx + 8) * (ny + 8);
  long c = z * pxy + y * px + x;
  double v = src[c];
  for (int r = 1; r <= 4; r++)
    v += src[c - r] + src[c + r] + src[c - r * px] + src[c + r * px] + src[c - r * pxy] + src[c + r * pxy];
  dst[c] = v;
}

/* no footprint: a loaded index; a bound: a data-dependent branch */
__kernel void gather(__global const float *in, __global const int *idx, __global float *out) {
  int i = get_global_id(0);
  out[i] = in[idx[i]];
}

__kernel void positive(__global const float *in, __global float *out) {
  int i = get_global_id(0);
  if (in[i] > 0.0f)
    out[i] = in[i];
}
