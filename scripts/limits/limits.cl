// Kernels for scripts/limits.sh: each stresses one limit of the analyzer and
// simulator with a well-defined program (64-bit indices, so sizes up to 2^32
// work-items and counts up to 2^40 do not overflow in the kernel itself).

// one access per work-item: the grid size alone
kernel void vadd(global const float *a, global const float *b, global float *c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}

// a loop of n iterations (n up to 2^40) around a coalesced load
kernel void longloop(global const float *a, global float *out, long n) {
  float s = 0;
  for (long k = 0; k < n; k++)
    s += a[(get_global_id(0) + k * 32) & 1048575];
  out[get_global_id(0)] = s;
}

// two nested loops of n and m iterations (n x m up to 2^40), a work-item branch inside
kernel void nested(global const float *a, global float *out, long n, long m) {
  float s = 0;
  for (long i = 0; i < n; i++)
    for (long j = 0; j < m; j++)
      if ((get_local_id(0) & 1) == 0)
        s += a[(i * m + j) & 1048575];
  out[get_global_id(0)] = s;
}

// a 3-D grid of 3-D work-groups, 7-point stencil (64-bit offsets)
kernel void stencil3d(global const float *in, global float *out, long nx, long ny) {
  long x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  long c = (z * ny + y) * nx + x;
  long sx = 1, sy = nx, sz = nx * ny;
  if (x == 0 || y == 0 || z == 0)
    return;
  out[c] = in[c] * -6.0f + in[c - sx] + in[c + sx] + in[c - sy] + in[c + sy] + in[c - sz] + in[c + sz];
}
