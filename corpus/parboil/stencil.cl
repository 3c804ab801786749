/* stencil: one Jacobi sweep of a 7-point 3-D stencil (the pattern of
 * Parboil's stencil, naive version): a 2-D NDRange covers the x-y plane
 * and every work-item walks z, keeping the previous, current and next
 * values in registers (a sliding window), so each z step loads one new
 * point plus its four in-plane neighbours.  512x512x64 grid, 32x4
 * work-groups; the border is not written. */
#define IDX(x, y, z) ((x) + nx * ((y) + ny * (z)))

__kernel void stencil7(float c0, float c1, __global const float *A0, __global float *Anext, int nx, int ny, int nz)
{
    int i = get_global_id(0);
    int j = get_global_id(1);
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
