/* mvt: x1 += A y1 and x2 += A^T y2 (the pattern of PolyBench/GPU's MVT);
 * the first walks rows (uncoalesced), the second columns.  4096x4096,
 * 256 work-items per group. */
__kernel void mvt_kernel1(__global const float *a, __global float *x1, __global const float *y1, int n)
{
    int i = get_global_id(0);
    if (i < n) {
        for (int j = 0; j < n; j++)
            x1[i] += a[i * n + j] * y1[j];
    }
}

__kernel void mvt_kernel2(__global const float *a, __global float *x2, __global const float *y2, int n)
{
    int i = get_global_id(0);
    if (i < n) {
        for (int j = 0; j < n; j++)
            x2[i] += a[j * n + i] * y2[j];
    }
}
