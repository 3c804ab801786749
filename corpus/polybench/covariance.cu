/* covariance: CUDA twin of covariance.cl (PolyBench/GPU pattern, same launch). */
#define FLOAT_N 3214212.01

extern "C" __global__ void covar_mean(double *mean, const double *data, int m, int n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < m) {
        double s = 0.0;
        for (int i = 0; i < n; i++)
            s += data[i * m + j];
        mean[j] = s / FLOAT_N;
    }
}

extern "C" __global__ void covar_reduce(const double *mean, double *data, int m, int n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < n && j < m)
        data[i * m + j] -= mean[j];
}

extern "C" __global__ void covar_covar(double *symmat, const double *data, int m, int n)
{
    int j1 = blockIdx.x * blockDim.x + threadIdx.x;
    if (j1 < m) {
        for (int j2 = j1; j2 < m; j2++) {
            double s = 0.0;
            for (int i = 0; i < n; i++)
                s += data[i * m + j1] * data[i * m + j2];
            symmat[j2 * m + j1] = s;
            symmat[j1 * m + j2] = s;
        }
    }
}
