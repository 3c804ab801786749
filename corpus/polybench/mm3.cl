/* mm3: three matrix products E = A*B, F = C*D, G = E*F (the pattern of
 * PolyBench/GPU's 3MM), one kernel each, one work-item per output element.
 * 512x512 matrices, 32x8 groups. */
__kernel void mm3_kernel1(__global const float *a, __global const float *b, __global float *e, int ni, int nj,
                          int nk)
{
    int j = get_global_id(0);
    int i = get_global_id(1);
    if (i < ni && j < nj) {
        float sum = 0.0f;
        for (int k = 0; k < nk; k++)
            sum += a[i * nk + k] * b[k * nj + j];
        e[i * nj + j] = sum;
    }
}

__kernel void mm3_kernel2(__global const float *c, __global const float *d, __global float *f, int nj, int nl,
                          int nm)
{
    int j = get_global_id(0);
    int i = get_global_id(1);
    if (i < nj && j < nl) {
        float sum = 0.0f;
        for (int k = 0; k < nm; k++)
            sum += c[i * nm + k] * d[k * nl + j];
        f[i * nl + j] = sum;
    }
}

__kernel void mm3_kernel3(__global const float *e, __global const float *f, __global float *g, int ni, int nl,
                          int nj)
{
    int j = get_global_id(0);
    int i = get_global_id(1);
    if (i < ni && j < nl) {
        float sum = 0.0f;
        for (int k = 0; k < nj; k++)
            sum += e[i * nj + k] * f[k * nl + j];
        g[i * nl + j] = sum;
    }
}
