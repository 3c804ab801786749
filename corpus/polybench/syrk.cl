/* syrk: symmetric rank-k update C = alpha*A*A^T + beta*C (the pattern of
 * PolyBench/GPU's SYRK): both A operands walk rows, so neighbouring
 * work-items (j) read addresses a row apart.  1024x1024, 32x8 groups. */
__kernel void syrk(__global const float *a, __global float *c, float alpha, float beta, int m, int n)
{
    int j = get_global_id(0);
    int i = get_global_id(1);
    if (i < n && j < n) {
        float s = c[i * n + j] * beta;
        for (int k = 0; k < m; k++)
            s += alpha * a[i * m + k] * a[j * m + k];
        c[i * n + j] = s;
    }
}
