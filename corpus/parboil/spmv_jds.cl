/* spmv_jds: sparse matrix-vector product in the jagged diagonal format
 * (the pattern of Parboil's SPMV).  Rows are sorted by length and stored
 * diagonal-major, so work-item i walks its row's entries at stride
 * jds_ptr[k+1]-jds_ptr[k] through diagonal pointers (loaded), stopping at
 * the row's length, which is loaded too (a data-dependent loop with
 * indirect and gathered loads); the result is written through the
 * permutation.  146,689 rows (Dubcova3), 765 groups of 192 work-items. */
__kernel void spmv_jds(__global float *dst_vector, __global const float *d_data, __global const int *d_index,
                       __global const int *d_perm, __global const float *x_vec, int dim,
                       __global const int *jds_ptr_int, __global const int *sh_zcnt_int)
{
    int ix = get_global_id(0);
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
