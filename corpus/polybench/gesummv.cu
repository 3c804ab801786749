/* gesummv: CUDA twin of gesummv.cl (PolyBench/GPU pattern, same launch). */
extern "C" __global__ void gesummv(const float *a, const float *b, const float *x, float *y, float *tmp,
                                   float alpha, float beta, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
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
