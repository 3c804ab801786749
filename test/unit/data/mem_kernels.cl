/* Kernels for test_analyze.c; mem_kernels.json is made from this file by
 *   build/bin/wgperf extract test/unit/data/mem_kernels.cl -o test/unit/data/mem_kernels.json -- -fno-unroll-loops
 */
__kernel void coalesced(__global float *a) { a[get_global_id(0)] += 1.0f; }
__kernel void stride2(__global float *a) { a[2 * get_global_id(0)] += 1.0f; }
__kernel void column(__global float *a, int w) { a[get_global_id(0) * w] += 1.0f; }
__kernel void vec4(__global float4 *a) { a[get_global_id(0)] *= 2.0f; }

#define SHARED(name, stride)                                                       \
  __kernel void name(__global float *out) {                                        \
    __local float s[33 * 32];                                                      \
    int l = get_local_id(0);                                                       \
    s[l * stride] = (float)l;                                                      \
    barrier(CLK_LOCAL_MEM_FENCE);                                                  \
    out[get_global_id(0)] = s[l * stride];                                         \
  }
SHARED(shared1, 1)
SHARED(shared2, 2)
SHARED(shared16, 16)
SHARED(shared32, 32)
SHARED(shared33, 33)

__kernel void shared_double(__global double *out) {
  __local double d[64];
  int l = get_local_id(0);
  d[l] = (double)l;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = d[l];
}

__kernel void constant_same(__constant float *c, __global float *out) { out[get_global_id(0)] = c[0]; }
__kernel void constant_lane(__constant float *c, __global float *out) { out[get_global_id(0)] = c[get_local_id(0)]; }

/* a loop whose accesses change with the iteration: k-th column, stride w */
__kernel void loop_column(__global float *a, int w, int n) {
  int i = get_global_id(0);
  float s = 0;
  for (int k = 0; k < n; k++)
    s += a[k * w + i];
  a[i] = s;
}

/* 2-D: a coalesced read and a transposed (strided) write */
__kernel void transpose2d(__global const float *in, __global float *out, int w, int h) {
  int x = get_global_id(0), y = get_global_id(1);
  out[x * h + y] = in[y * w + x];
}

/* a read 16 B off the warp's lines: each request touches five sectors, the
 * first of which the warp before it brought in (test_cache.c) */
__kernel void offset16(__global const float *a, __global float *out) {
  int i = get_global_id(0);
  out[i] = a[i + 4];
}
