/* syr2k: CUDA twin of syr2k.cl (PolyBench/GPU pattern, same launch). */
extern "C" __global__ void syr2k(const float *a, const float *b, float *c, float alpha, float beta, int m,
                                 int n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < n && j < n) {
        float s = c[i * n + j] * beta;
        for (int k = 0; k < m; k++)
            s += alpha * a[i * m + k] * b[j * m + k] + alpha * b[i * m + k] * a[j * m + k];
        c[i * n + j] = s;
    }
}
