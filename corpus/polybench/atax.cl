/* atax: y = A^T (A x) in two kernels (the pattern of PolyBench/GPU's
 * ATAX).  atax_kernel1 walks a row of A per work-item (neighbouring work-
 * items read addresses a row apart: uncoalesced); atax_kernel2 walks a
 * column per work-item (coalesced).  4096x4096, 256 work-items per group. */
__kernel void atax_kernel1(__global const float *a, __global const float *x, __global float *tmp, int nx, int ny)
{
    int i = get_global_id(0);
    if (i < nx) {
        float sum = 0.0f;
        for (int j = 0; j < ny; j++)
            sum += a[i * ny + j] * x[j];
        tmp[i] = sum;
    }
}

__kernel void atax_kernel2(__global const float *a, __global float *y, __global const float *tmp, int nx, int ny)
{
    int j = get_global_id(0);
    if (j < ny) {
        float sum = 0.0f;
        for (int i = 0; i < nx; i++)
            sum += a[i * ny + j] * tmp[i];
        y[j] = sum;
    }
}
