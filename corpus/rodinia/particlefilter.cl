/* particlefilter: the tracking kernels of a particle filter (the pattern of
 * Rodinia's particlefilter, double-precision version).  likelihood: every
 * particle sums a likelihood over the `count_ones` pixels of a disk
 * template, each pixel index computed from the particle's rounded position
 * and clamped into the frame, then scales its weight with exp (fp64 math).
 * normalize_weights: divides by the sum, and work-item 0 builds the
 * cumulative distribution with a serial loop over all particles.
 * find_index: every particle searches the CDF for the first entry >= its
 * uniform draw, a loop that exits on a loaded value.  10,000 particles,
 * 512 work-items per group, 69 template pixels, 128x128 frames. */
__kernel void likelihood(__global const double *arrayX, __global const double *arrayY,
                         __global const int *objxy, __global const unsigned char *frame,
                         __global double *weights, int count_ones, int nparticles, int max_size,
                         int frame_x)
{
    int i = get_global_id(0);
    if (i >= nparticles)
        return;
    double lik = 0.0;
    for (int y = 0; y < count_ones; y++) {
        int ix = (int)round(arrayX[i]) + objxy[y * 2 + 1];
        int iy = (int)round(arrayY[i]) + objxy[y * 2];
        int ind = ix * frame_x + iy;
        ind = ind >= max_size ? 0 : ind;
        double v = (double)frame[ind];
        lik += ((v - 100.0) * (v - 100.0) - (v - 228.0) * (v - 228.0)) / 50.0;
    }
    lik = lik / (double)count_ones;
    weights[i] = weights[i] * exp(lik);
}

__kernel void normalize_weights(__global double *weights, int nparticles, __global const double *partial_sums,
                                __global double *CDF, __global double *u, double u1)
{
    int i = get_global_id(0);
    double sum = partial_sums[0];
    if (i < nparticles)
        weights[i] = weights[i] / sum;
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (i == 0) {
        CDF[0] = weights[0];
        for (int x = 1; x < nparticles; x++)
            CDF[x] = weights[x] + CDF[x - 1];
    }
    if (i < nparticles)
        u[i] = u1 + i / (double)nparticles;
}

__kernel void find_index(__global const double *arrayX, __global const double *arrayY,
                         __global const double *CDF, __global const double *u, __global double *xj,
                         __global double *yj, int nparticles)
{
    int i = get_global_id(0);
    if (i >= nparticles)
        return;
    int index = -1;
    for (int x = 0; x < nparticles; x++) {
        if (CDF[x] >= u[i]) {
            index = x;
            break;
        }
    }
    if (index == -1)
        index = nparticles - 1;
    xj[i] = arrayX[index];
    yj[i] = arrayY[index];
}
