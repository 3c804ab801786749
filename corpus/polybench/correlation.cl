/* correlation: the correlation matrix of M variables over N samples in four
 * kernels (the pattern of PolyBench/GPU's CORR): column means, column
 * standard deviations (sqrt; a near-zero deviation becomes 1), centring and
 * scaling of the data (2-D), and the symmetric correlation matrix, where
 * work-item j1 fills row j1 right of the diagonal: a triangular loop whose
 * trip count falls with the work-item (divergence) around the sample loop.
 * M = N = 2048, 256 work-items per group (32x8 for the 2-D kernel). */
#define FLOAT_N 3214212.01f
#define EPS 0.005f

__kernel void corr_mean(__global const float *data, __global float *mean, int m, int n)
{
    int j = get_global_id(0);
    if (j < m) {
        float s = 0.0f;
        for (int i = 0; i < n; i++)
            s += data[i * m + j];
        mean[j] = s / FLOAT_N;
    }
}

__kernel void corr_std(__global const float *data, __global const float *mean, __global float *stddev, int m,
                       int n)
{
    int j = get_global_id(0);
    if (j < m) {
        float s = 0.0f;
        for (int i = 0; i < n; i++) {
            float d = data[i * m + j] - mean[j];
            s += d * d;
        }
        s = sqrt(s / FLOAT_N);
        stddev[j] = s <= EPS ? 1.0f : s;
    }
}

__kernel void corr_reduce(__global float *data, __global const float *mean, __global const float *stddev, int m,
                          int n)
{
    int j = get_global_id(0);
    int i = get_global_id(1);
    if (i < n && j < m) {
        data[i * m + j] -= mean[j];
        data[i * m + j] /= sqrt(FLOAT_N) * stddev[j];
    }
}

__kernel void corr_corr(__global const float *data, __global float *symmat, int m, int n)
{
    int j1 = get_global_id(0);
    if (j1 < m - 1) {
        symmat[j1 * m + j1] = 1.0f;
        for (int j2 = j1 + 1; j2 < m; j2++) {
            float s = 0.0f;
            for (int i = 0; i < n; i++)
                s += data[i * m + j1] * data[i * m + j2];
            symmat[j1 * m + j2] = s;
            symmat[j2 * m + j1] = s;
        }
    }
}
