/* bicg: the two matrix-vector products of BiCGStab, s = A^T r and q = A p
 * (the pattern of PolyBench/GPU's BICG): one walks columns (coalesced),
 * the other rows (uncoalesced).  4096x4096, 256 work-items per group. */
__kernel void bicg_kernel1(__global const float *a, __global const float *r, __global float *s, int nx, int ny)
{
    int j = get_global_id(0);
    if (j < ny) {
        s[j] = 0.0f;
        for (int i = 0; i < nx; i++)
            s[j] += a[i * ny + j] * r[i];
    }
}

__kernel void bicg_kernel2(__global const float *a, __global const float *p, __global float *q, int nx, int ny)
{
    int i = get_global_id(0);
    if (i < nx) {
        q[i] = 0.0f;
        for (int j = 0; j < ny; j++)
            q[i] += a[i * ny + j] * p[j];
    }
}
