/* lu: one step k of right-looking LU decomposition without pivoting (the
 * pattern of PolyBench/GPU's LU): lu_scale divides row k right of the
 * diagonal by the pivot; lu_update subtracts the outer product from the
 * trailing submatrix (2-D, both indices guarded by k).  2048x2048, step
 * k = 700, 256 work-items (1-D) and 32x8 (2-D) per group. */
__kernel void lu_scale(__global float *a, int k, int n)
{
    int j = get_global_id(0);
    if (j > k && j < n)
        a[k * n + j] = a[k * n + j] / a[k * n + k];
}

__kernel void lu_update(__global float *a, int k, int n)
{
    int j = get_global_id(0);
    int i = get_global_id(1);
    if (i > k && j > k && i < n && j < n)
        a[i * n + j] = a[i * n + j] - a[i * n + k] * a[k * n + j];
}
