/* conv3d: CUDA twin of conv3d.cl (PolyBench/GPU pattern, same launch). */
extern "C" __global__ void conv3d(const float *a, float *b, int ni, int nj, int nk)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    int j = blockIdx.y * blockDim.y + threadIdx.y;
    int i = blockIdx.z * blockDim.z + threadIdx.z;
    const float c11 = 2.0f, c21 = 5.0f, c31 = -8.0f;
    const float c12 = -3.0f, c22 = 6.0f, c32 = -9.0f;
    const float c13 = 4.0f, c23 = 7.0f, c33 = 10.0f;
    if (i > 0 && j > 0 && k > 0 && i < ni - 1 && j < nj - 1 && k < nk - 1) {
#define A(x, y, z) a[((x) * nj + (y)) * nk + (z)]
        b[(i * nj + j) * nk + k] = c11 * A(i - 1, j - 1, k - 1) + c13 * A(i + 1, j - 1, k - 1) +
                                   c21 * A(i - 1, j - 1, k - 1) + c23 * A(i + 1, j - 1, k - 1) +
                                   c31 * A(i - 1, j - 1, k - 1) + c33 * A(i + 1, j - 1, k - 1) +
                                   c12 * A(i, j - 1, k) + c22 * A(i, j, k) + c32 * A(i, j + 1, k) +
                                   c11 * A(i - 1, j - 1, k + 1) + c13 * A(i + 1, j - 1, k + 1) +
                                   c21 * A(i - 1, j, k + 1) + c23 * A(i + 1, j, k + 1) +
                                   c31 * A(i - 1, j + 1, k + 1) + c33 * A(i + 1, j + 1, k + 1);
#undef A
    }
}
