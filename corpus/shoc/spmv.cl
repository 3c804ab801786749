/* spmv: sparse matrix-vector products in three formats (the kernels of
 * SHOC's Spmv).  spmv_csr_scalar: a row per work-item, row bounds loaded
 * (data-dependent loop), x gathered through the column index.
 * spmv_csr_vector: a warp per row, lanes stride the row by 32 and a local
 * tree reduction over the warp's 32 partial sums ends it.  spmv_ellpackr:
 * ELLPACK-R, column-major padded storage (coalesced), per-row length
 * loaded.  16,384 rows, 1% dense (about 164 nonzeros per row), 128
 * work-items per group. */
#define WARP 32

__kernel void spmv_csr_scalar(__global const float *val, __global const int *cols,
                              __global const int *rowDelimiters, __global const float *x, int dim,
                              __global float *out)
{
    int row = get_global_id(0);
    if (row < dim) {
        float t = 0.0f;
        int start = rowDelimiters[row];
        int end = rowDelimiters[row + 1];
        for (int j = start; j < end; j++)
            t += val[j] * x[cols[j]];
        out[row] = t;
    }
}

__kernel void spmv_csr_vector(__global const float *val, __global const int *cols,
                              __global const int *rowDelimiters, __global const float *x, int dim,
                              __global float *out)
{
    __local volatile float partial[128];
    int t = get_local_id(0);
    int lane = t & (WARP - 1);
    int row = get_global_id(0) / WARP;
    float mySum = 0.0f;
    if (row < dim) {
        int start = rowDelimiters[row];
        int end = rowDelimiters[row + 1];
        for (int j = start + lane; j < end; j += WARP)
            mySum += val[j] * x[cols[j]];
    }
    partial[t] = mySum;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = WARP / 2; s > 0; s >>= 1) {
        if (lane < s)
            partial[t] += partial[t + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lane == 0 && row < dim)
        out[row] = partial[t];
}

__kernel void spmv_ellpackr(__global const float *val, __global const int *cols, __global const int *rowLengths,
                            __global const float *x, int dim, __global float *out)
{
    int t = get_global_id(0);
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
