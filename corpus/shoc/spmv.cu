/* spmv: CSR scalar, CSR vector and ELLPACK-R sparse matrix-vector
 * products (SHOC Spmv pattern); CUDA twin of spmv.cl.  Blocks of 128. */
#define WARP 32

extern "C" __global__ void spmv_csr_scalar(const float *val, const int *cols, const int *rowDelimiters,
                                           const float *x, int dim, float *out)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < dim) {
        float t = 0.0f;
        int start = rowDelimiters[row];
        int end = rowDelimiters[row + 1];
        for (int j = start; j < end; j++)
            t += val[j] * x[cols[j]];
        out[row] = t;
    }
}

extern "C" __global__ void spmv_csr_vector(const float *val, const int *cols, const int *rowDelimiters,
                                           const float *x, int dim, float *out)
{
    __shared__ volatile float partial[128];
    int t = threadIdx.x;
    int lane = t & (WARP - 1);
    int row = (blockIdx.x * blockDim.x + threadIdx.x) / WARP;
    float mySum = 0.0f;
    if (row < dim) {
        int start = rowDelimiters[row];
        int end = rowDelimiters[row + 1];
        for (int j = start + lane; j < end; j += WARP)
            mySum += val[j] * x[cols[j]];
    }
    partial[t] = mySum;
    __syncthreads();
    for (int s = WARP / 2; s > 0; s >>= 1) {
        if (lane < s)
            partial[t] += partial[t + s];
        __syncthreads();
    }
    if (lane == 0 && row < dim)
        out[row] = partial[t];
}

extern "C" __global__ void spmv_ellpackr(const float *val, const int *cols, const int *rowLengths,
                                         const float *x, int dim, float *out)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < dim) {
        float result = 0.0f;
        int max = rowLengths[t];
        for (int i = 0; i < max; i++) {
            int ind = i * dim + t;
            result += val[ind] * x[cols[ind]];
        }
        out[t] = result;
    }
}
