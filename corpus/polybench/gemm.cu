/* gemm: CUDA twin of gemm.cl (PolyBench/GPU pattern, same launch). */
extern "C" __global__ void gemm(const float *a, const float *b, float *c, float alpha, float beta, int ni,
                                int nj, int nk)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < ni && j < nj) {
        c[i * nj + j] *= beta;
        for (int k = 0; k < nk; k++)
            c[i * nj + j] += alpha * a[i * nk + k] * b[k * nj + j];
    }
}
