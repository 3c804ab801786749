/* jacobi2d: one sweep of the 2-D Jacobi five-point stencil and the copy
 * back (the pattern of PolyBench/GPU's JACOBI2D), interior points only.
 * 1000x1000 grid on a 1024x1000 NDRange, 32x8 work-groups. */
__kernel void jacobi_step(__global const float *a, __global float *b, int n)
{
    int j = get_global_id(0);
    int i = get_global_id(1);
    if (i >= 1 && i < n - 1 && j >= 1 && j < n - 1)
        b[i * n + j] = 0.2f * (a[i * n + j] + a[i * n + (j - 1)] + a[i * n + (j + 1)] + a[(i + 1) * n + j] +
                               a[(i - 1) * n + j]);
}

__kernel void jacobi_copy(__global float *a, __global const float *b, int n)
{
    int j = get_global_id(0);
    int i = get_global_id(1);
    if (i >= 1 && i < n - 1 && j >= 1 && j < n - 1)
        a[i * n + j] = b[i * n + j];
}
