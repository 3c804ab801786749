/* gramschmidt: one column step k of Gram-Schmidt QR (the pattern of
 * PolyBench/GPU's GRAMSCHMIDT).  gs_norm: a single work-item (the others
 * leave at once) sums the squares of column k and stores its norm (sqrt);
 * gs_normalize: column k of Q; gs_update: work-items right of column k
 * (j > k, a guard on an argument) project column j on q_k and subtract.
 * 2048x2048, step k = 1024, 256 work-items per group. */
__kernel void gs_norm(__global const float *a, __global float *r, int k, int m, int n)
{
    int tid = get_global_id(0);
    if (tid != 0)
        return;
    float nrm = 0.0f;
    for (int i = 0; i < m; i++)
        nrm += a[i * n + k] * a[i * n + k];
    r[k * n + k] = sqrt(nrm);
}

__kernel void gs_normalize(__global const float *a, __global const float *r, __global float *q, int k, int m,
                           int n)
{
    int i = get_global_id(0);
    if (i < m)
        q[i * n + k] = a[i * n + k] / r[k * n + k];
}

__kernel void gs_update(__global float *a, __global float *r, __global const float *q, int k, int m, int n)
{
    int j = get_global_id(0);
    if (j > k && j < n) {
        float s = 0.0f;
        for (int i = 0; i < m; i++)
            s += q[i * n + k] * a[i * n + j];
        r[k * n + j] = s;
        for (int i = 0; i < m; i++)
            a[i * n + j] -= q[i * n + k] * s;
    }
}
