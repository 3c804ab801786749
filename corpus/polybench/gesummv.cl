/* gesummv: y = alpha*A*x + beta*B*x (the pattern of PolyBench/GPU's
 * GESUMMV), one row of both matrices per work-item (uncoalesced rows).
 * 4096x4096, 256 work-items per group. */
__kernel void gesummv(__global const float *a, __global const float *b, __global const float *x,
                      __global float *y, __global float *tmp, float alpha, float beta, int n)
{
    int i = get_global_id(0);
    if (i < n) {
        float t = 0.0f, s = 0.0f;
        for (int j = 0; j < n; j++) {
            t += a[i * n + j] * x[j];
            s += b[i * n + j] * x[j];
        }
        tmp[i] = t;
        y[i] = alpha * t + beta * s;
    }
}
