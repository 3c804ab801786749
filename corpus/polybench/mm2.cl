/* mm2: two chained matrix products, tmp = alpha*A*B then D = tmp*C +
 * beta*D (the pattern of PolyBench/GPU's 2MM), one kernel per product,
 * one work-item per output element.  2048x2048 matrices, 32x8 groups. */
__kernel void mm2_kernel1(__global const float *a, __global const float *b, __global float *tmp, float alpha,
                          int ni, int nj, int nk)
{
    int j = get_global_id(0);
    int i = get_global_id(1);
    if (i < ni && j < nj) {
        float sum = 0.0f;
        for (int k = 0; k < nk; k++)
            sum += alpha * a[i * nk + k] * b[k * nj + j];
        tmp[i * nj + j] = sum;
    }
}

__kernel void mm2_kernel2(__global const float *tmp, __global const float *c, __global float *d, float beta,
                          int ni, int nj, int nl)
{
    int j = get_global_id(0);
    int i = get_global_id(1);
    if (i < ni && j < nl) {
        float sum = d[i * nl + j] * beta;
        for (int k = 0; k < nj; k++)
            sum += tmp[i * nj + k] * c[k * nl + j];
        d[i * nl + j] = sum;
    }
}
