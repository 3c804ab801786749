/* stencil: 7-point 3-D Jacobi sweep walking z in registers (Parboil
 * stencil pattern); CUDA twin of stencil.cl.  Blocks of 32x4. */
#define IDX(x, y, z) ((x) + nx * ((y) + ny * (z)))

extern "C" __global__ void stencil7(float c0, float c1, const float *A0, float *Anext, int nx, int ny, int nz)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int j = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < 1 || j < 1 || i >= nx - 1 || j >= ny - 1)
        return;
    float bottom = A0[IDX(i, j, 0)];
    float current = A0[IDX(i, j, 1)];
    for (int k = 1; k < nz - 1; k++) {
        float top = A0[IDX(i, j, k + 1)];
        Anext[IDX(i, j, k)] = c1 * (top + bottom + A0[IDX(i, j + 1, k)] + A0[IDX(i, j - 1, k)] +
                                    A0[IDX(i + 1, j, k)] + A0[IDX(i - 1, j, k)]) -
                              current * c0;
        bottom = current;
        current = top;
    }
}
