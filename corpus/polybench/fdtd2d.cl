/* fdtd2d: one time step of the 2-D finite-difference time-domain method in
 * three kernels (the pattern of PolyBench/GPU's FDTD-2D): ey (row 0 takes
 * the source term of step t), ex (column 0 untouched), then hz from both.
 * 2048x2048 grid, step t = 250 of 500, 32x8 work-groups. */
__kernel void fdtd_step1(__global const float *fict, __global const float *hz, __global float *ey, int nx, int ny,
                         int t)
{
    int j = get_global_id(0);
    int i = get_global_id(1);
    if (i < nx && j < ny) {
        if (i == 0)
            ey[i * ny + j] = fict[t];
        else
            ey[i * ny + j] = ey[i * ny + j] - 0.5f * (hz[i * ny + j] - hz[(i - 1) * ny + j]);
    }
}

__kernel void fdtd_step2(__global float *ex, __global const float *hz, int nx, int ny)
{
    int j = get_global_id(0);
    int i = get_global_id(1);
    if (i < nx && j < ny && j > 0)
        ex[i * (ny + 1) + j] = ex[i * (ny + 1) + j] - 0.5f * (hz[i * ny + j] - hz[i * ny + (j - 1)]);
}

__kernel void fdtd_step3(__global const float *ex, __global const float *ey, __global float *hz, int nx, int ny)
{
    int j = get_global_id(0);
    int i = get_global_id(1);
    if (i < nx && j < ny)
        hz[i * ny + j] = hz[i * ny + j] - 0.7f * (ex[i * (ny + 1) + (j + 1)] - ex[i * (ny + 1) + j] +
                                                  ey[(i + 1) * ny + j] - ey[i * ny + j]);
}
