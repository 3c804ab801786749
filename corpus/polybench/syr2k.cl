/* syr2k: symmetric rank-2k update C = alpha*A*B^T + alpha*B*A^T + beta*C
 * (the pattern of PolyBench/GPU's SYR2K).  2048x2048, 32x8 groups. */
__kernel void syr2k(__global const float *a, __global const float *b, __global float *c, float alpha, float beta,
                    int m, int n)
{
    int j = get_global_id(0);
    int i = get_global_id(1);
    if (i < n && j < n) {
        float s = c[i * n + j] * beta;
        for (int k = 0; k < m; k++)
            s += alpha * a[i * m + k] * b[j * m + k] + alpha * b[i * m + k] * a[j * m + k];
        c[i * n + j] = s;
    }
}
