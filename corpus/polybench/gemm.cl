/* gemm: C = alpha*A*B + beta*C, one work-item per element of C with the
 * k loop in the work-item (the pattern of PolyBench/GPU's GEMM).  j runs
 * along x so B and C are read coalesced, A's element is the same for a
 * warp (a broadcast).  512x512 matrices, 32x8 work-groups. */
__kernel void gemm(__global const float *a, __global const float *b, __global float *c, float alpha, float beta,
                   int ni, int nj, int nk)
{
    int j = get_global_id(0);
    int i = get_global_id(1);
    if (i < ni && j < nj) {
        c[i * nj + j] *= beta;
        for (int k = 0; k < nk; k++)
            c[i * nj + j] += alpha * a[i * nk + k] * b[k * nj + j];
    }
}
