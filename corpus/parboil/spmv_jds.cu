/* spmv_jds: jagged-diagonal sparse matrix-vector product (Parboil SPMV
 * pattern); CUDA twin of spmv_jds.cl.  Blocks of 192 threads. */
extern "C" __global__ void spmv_jds(float *dst_vector, const float *d_data, const int *d_index,
                                    const int *d_perm, const float *x_vec, int dim, const int *jds_ptr_int,
                                    const int *sh_zcnt_int)
{
    int ix = blockIdx.x * blockDim.x + threadIdx.x;
    if (ix < dim) {
        float sum = 0.0f;
        int bound = sh_zcnt_int[ix / 32];
        for (int k = 0; k < bound; k++) {
            int j = jds_ptr_int[k] + ix;
            sum += d_data[j] * x_vec[d_index[j]];
        }
        dst_vector[d_perm[ix]] = sum;
    }
}
