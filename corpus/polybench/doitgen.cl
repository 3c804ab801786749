/* doitgen: multi-resolution analysis kernel, A[r][q][p] = sum_s
 * A[r][q][s] * C4[s][p], for one r per launch (the pattern of
 * PolyBench/GPU's DOITGEN): the sums go to a scratch plane, then are copied
 * back.  128x128x128, 32x8 work-groups over (p, q). */
__kernel void doitgen_sum(__global const float *a, __global const float *c4, __global float *sum, int nr, int nq,
                          int np, int r)
{
    int p = get_global_id(0);
    int q = get_global_id(1);
    if (p < np && q < nq) {
        float s = 0.0f;
        for (int t = 0; t < np; t++)
            s += a[(r * nq + q) * np + t] * c4[t * np + p];
        sum[(r * nq + q) * np + p] = s;
    }
}

__kernel void doitgen_copy(__global float *a, __global const float *sum, int nr, int nq, int np, int r)
{
    int p = get_global_id(0);
    int q = get_global_id(1);
    if (p < np && q < nq)
        a[(r * nq + q) * np + p] = sum[(r * nq + q) * np + p];
}
