/* tri_kernels.cl - a loop whose count is the global id (test_warps: the
 * warp-level executions of its load are exact, 32 w + 31 on warp w, at -O1
 * and with the unrolled copies and the remainder loop of -O3).
 * Regenerate tri_kernels.O1.json and tri_kernels.O3.json with
 *   build/bin/wgperf extract test/unit/data/tri_kernels.cl -O1 -o test/unit/data/tri_kernels.O1.json
 *   build/bin/wgperf extract test/unit/data/tri_kernels.cl -O3 -o test/unit/data/tri_kernels.O3.json
 */
__kernel void tri_prefix(__global const float *a, __global float *out)
{
    int i = get_global_id(0);
    float s = 0;
    for (int j = 0; j < i; ++j)
        s += a[j];
    out[i] = s;
}

/* The same in two dimensions: the count is the row's global id. */
__kernel void tri_rows(__global const float *a, __global float *out, int w)
{
    int x = get_global_id(0), y = get_global_id(1);
    float s = 0;
    for (int j = 0; j < y; ++j)
        s += a[j * w + x];
    out[y * w + x] = s;
}
