/* covariance: the covariance matrix in double precision (the pattern of
 * PolyBench/GPU's COVAR): column means, centring (2-D), and the symmetric
 * matrix with a triangular loop per work-item.  M = N = 2048, 256 work-
 * items per group (32x8 for the 2-D kernel); fp64 arithmetic. */
#define FLOAT_N 3214212.01

__kernel void covar_mean(__global double *mean, __global const double *data, int m, int n)
{
    int j = get_global_id(0);
    if (j < m) {
        double s = 0.0;
        for (int i = 0; i < n; i++)
            s += data[i * m + j];
        mean[j] = s / FLOAT_N;
    }
}

__kernel void covar_reduce(__global const double *mean, __global double *data, int m, int n)
{
    int j = get_global_id(0);
    int i = get_global_id(1);
    if (i < n && j < m)
        data[i * m + j] -= mean[j];
}

__kernel void covar_covar(__global double *symmat, __global const double *data, int m, int n)
{
    int j1 = get_global_id(0);
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
