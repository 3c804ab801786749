/* lbm: one stream-collide step of a D3Q19 lattice-Boltzmann fluid solver
 * (the pattern of Parboil's LBM).  One work-item per cell, a row of 120
 * cells per work-group, groups over y and z.  Distributions are stored
 * direction-major with a one-plane margin; the cell's 19 values are read,
 * its flag word decides (a branch on a loaded value) between bounce-back
 * for obstacles and BGK collision (density, velocity, 19 equilibria; an
 * inflow cell gets a fixed velocity), and each result is pushed to the
 * neighbour cell in its direction.  Direction vectors and weights are
 * constant tables.  120x120x150 cells. */
#define NX 120
#define NY 120
#define NZ 150
#define MARGIN (NX * NY)
#define TOTAL (NX * NY * NZ + 2 * MARGIN)
#define Q 19
#define OMEGA 1.95f
#define OBSTACLE 1u
#define ACCEL 2u

__constant int ex[Q] = {0, 0, 0, 1, -1, 0, 0, 1, -1, 1, -1, 0, 0, 0, 0, 1, -1, 1, -1};
__constant int ey[Q] = {0, 1, -1, 0, 0, 0, 0, 1, 1, -1, -1, 1, -1, 1, -1, 0, 0, 0, 0};
__constant int ez[Q] = {0, 0, 0, 0, 0, 1, -1, 0, 0, 0, 0, 1, 1, -1, -1, 1, 1, -1, -1};
__constant int opposite[Q] = {0, 2, 1, 4, 3, 6, 5, 10, 9, 8, 7, 14, 13, 12, 11, 18, 17, 16, 15};
__constant float weight[Q] = {1.0f / 3, 1.0f / 18, 1.0f / 18, 1.0f / 18, 1.0f / 18, 1.0f / 18, 1.0f / 18,
                              1.0f / 36, 1.0f / 36, 1.0f / 36, 1.0f / 36, 1.0f / 36, 1.0f / 36, 1.0f / 36,
                              1.0f / 36, 1.0f / 36, 1.0f / 36, 1.0f / 36, 1.0f / 36};

__kernel void lbm_stream_collide(__global const float *src, __global float *dst, __global const uint *flags)
{
    int x = get_local_id(0), y = get_group_id(0), z = get_group_id(1);
    int cell = MARGIN + x + NX * (y + NY * z);
    float f[Q];
    for (int q = 0; q < Q; q++)
        f[q] = src[q * TOTAL + cell];
    uint flag = flags[cell - MARGIN];

    if (flag & OBSTACLE) {
        for (int q = 0; q < Q; q++) {
            int to = cell + ex[q] + NX * (ey[q] + NY * ez[q]);
            dst[opposite[q] * TOTAL + to] = f[q];
        }
        return;
    }
    float rho = 0.0f, ux = 0.0f, uy = 0.0f, uz = 0.0f;
    for (int q = 0; q < Q; q++) {
        rho += f[q];
        ux += ex[q] * f[q];
        uy += ey[q] * f[q];
        uz += ez[q] * f[q];
    }
    ux /= rho;
    uy /= rho;
    uz /= rho;
    if (flag & ACCEL) {
        ux = 0.005f;
        uy = 0.002f;
        uz = 0.0f;
    }
    float u2 = 1.5f * (ux * ux + uy * uy + uz * uz);
    for (int q = 0; q < Q; q++) {
        float cu = ex[q] * ux + ey[q] * uy + ez[q] * uz;
        float feq = weight[q] * rho * (1.0f + 3.0f * cu + 4.5f * cu * cu - u2);
        int to = cell + ex[q] + NX * (ey[q] + NY * ez[q]);
        dst[q * TOTAL + to] = (1.0f - OMEGA) * f[q] + OMEGA * feq;
    }
}
