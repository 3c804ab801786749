/* particlefilter: tracking kernels of a particle filter (Rodinia
 * particlefilter pattern, double precision); CUDA twin of particlefilter.cl.
 * Blocks of 512 threads. */
extern "C" __global__ void likelihood(const double *arrayX, const double *arrayY, const int *objxy,
                                      const unsigned char *frame, double *weights, int count_ones,
                                      int nparticles, int max_size, int frame_x)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
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

extern "C" __global__ void normalize_weights(double *weights, int nparticles, const double *partial_sums,
                                             double *CDF, double *u, double u1)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    double sum = partial_sums[0];
    if (i < nparticles)
        weights[i] = weights[i] / sum;
    __syncthreads();
    if (i == 0) {
        CDF[0] = weights[0];
        for (int x = 1; x < nparticles; x++)
            CDF[x] = weights[x] + CDF[x - 1];
    }
    if (i < nparticles)
        u[i] = u1 + i / (double)nparticles;
}

extern "C" __global__ void find_index(const double *arrayX, const double *arrayY, const double *CDF,
                                      const double *u, double *xj, double *yj, int nparticles)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
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
