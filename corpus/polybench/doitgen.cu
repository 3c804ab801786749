/* doitgen: CUDA twin of doitgen.cl (PolyBench/GPU pattern, same launch). */
extern "C" __global__ void doitgen_sum(const float *a, const float *c4, float *sum, int nr, int nq, int np,
                                       int r)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    int q = blockIdx.y * blockDim.y + threadIdx.y;
    if (p < np && q < nq) {
        float s = 0.0f;
        for (int t = 0; t < np; t++)
            s += a[(r * nq + q) * np + t] * c4[t * np + p];
        sum[(r * nq + q) * np + p] = s;
    }
}

extern "C" __global__ void doitgen_copy(float *a, const float *sum, int nr, int nq, int np, int r)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    int q = blockIdx.y * blockDim.y + threadIdx.y;
    if (p < np && q < nq)
        a[(r * nq + q) * np + p] = sum[(r * nq + q) * np + p];
}
