// probe.cl - kernels the fuzz targets launch (fuzz/data/probe.json is their
// model; fuzz/make-seeds.sh regenerates it).  Every kernel takes the same
// arguments so one launch fits all: a and b global buffers, scratch a
// __local buffer, n a scalar.  Together they cover loops with exact,
// halving and data-dependent trip counts, nested and triangular loops,
// work-item, loop-variable and data-dependent branches, barriers, shared
// memory with conflicts, division, indirect and atomic accesses.

kernel void reduce(global const float *a, global float *b, local float *scratch, int n) {
  int l = get_local_id(0);
  float s = 0;
  for (int i = get_global_id(0); i < n; i += get_global_size(0))
    s += a[i];
  scratch[l] = s;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int step = get_local_size(0) / 2; step > 0; step >>= 1) {
    if (l < step)
      scratch[l] += scratch[l + step];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0)
    b[get_group_id(0)] = scratch[0];
}

kernel void stencil2d(global const float *a, global float *b, local float *scratch, int n) {
  int i = get_global_id(0), x = i % n, y = i / n;
  if (x == 0 || y == 0 || x >= n - 1)
    return;
  float s = 0;
  for (int k = -2; k <= 2; k++)
    s += a[(y + k) * n + x] + a[y * n + x + k];
  scratch[get_local_id(0) * 17 % get_local_size(0)] = s;
  barrier(CLK_LOCAL_MEM_FENCE);
  b[i] = scratch[get_local_id(0)];
}

kernel void gather(global const float *a, global float *b, local float *scratch, int n) {
  int i = get_global_id(0);
  int m = (int)a[i];
  float s = 0;
  for (int k = 0; k < m; k++)
    if (a[k] > 0.5f)
      s += a[(int)b[k] % n];
  b[i] = s;
}

kernel void triangle(global const float *a, global float *b, local float *scratch, int n) {
  int i = get_global_id(0);
  float s = 0;
  for (int r = 0; r < n; r++)
    for (int c = 0; c <= r; c += 3)
      s += a[r * n + c] * (float)(i & 7);
  if (i % 3 == 1)
    s = s / 3;
  b[i] = s;
}

kernel void histo(global const float *a, global float *b, local float *scratch, int n) {
  int i = get_global_id(0);
  int bin = ((int)(a[i] * 16)) & 15;
  atomic_add((global int *)b + bin, 1);
  atomic_add((local int *)scratch + (i & 31), n);
}
