/* srad: speckle-reducing anisotropic diffusion (Rodinia srad v1 pattern);
 * CUDA twin of srad.cl.  Blocks of 512 threads. */
extern "C" __global__ void prepare(float *image, int ne)
{
    int ei = blockIdx.x * blockDim.x + threadIdx.x;
    if (ei < ne)
        image[ei] = expf(image[ei] / 255.0f);
}

extern "C" __global__ void srad_coeffs(float d_lambda, int nr, int nc, long ne, const int *iN, const int *iS,
                                       const int *jE, const int *jW, float *dN, float *dS, float *dE, float *dW,
                                       float q0sqr, float *c, const float *image)
{
    int ei = blockIdx.x * blockDim.x + threadIdx.x;
    int row = (ei + 1) % nr - 1;
    int col = (ei + 1) / nr + 1 - 1;
    if (row == -1) {
        row = nr - 1;
        col = col - 1;
    }
    if (ei < ne) {
        float d_Jc = image[ei];
        float n = image[iN[row] + nr * col] - d_Jc;
        float s = image[iS[row] + nr * col] - d_Jc;
        float w = image[row + nr * jW[col]] - d_Jc;
        float e = image[row + nr * jE[col]] - d_Jc;
        float g2 = (n * n + s * s + w * w + e * e) / (d_Jc * d_Jc);
        float l = (n + s + w + e) / d_Jc;
        float num = (0.5f * g2) - ((1.0f / 16.0f) * (l * l));
        float den = 1.0f + (0.25f * l);
        float qsqr = num / (den * den);
        den = (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr));
        float cval = 1.0f / (1.0f + den);
        if (cval < 0.0f)
            cval = 0.0f;
        else if (cval > 1.0f)
            cval = 1.0f;
        dN[ei] = n;
        dS[ei] = s;
        dW[ei] = w;
        dE[ei] = e;
        c[ei] = cval;
    }
}

extern "C" __global__ void srad_update(float d_lambda, int nr, int nc, long ne, const int *iS, const int *jE,
                                       const float *dN, const float *dS, const float *dE, const float *dW,
                                       const float *c, float *image)
{
    int ei = blockIdx.x * blockDim.x + threadIdx.x;
    int row = (ei + 1) % nr - 1;
    int col = (ei + 1) / nr + 1 - 1;
    if (row == -1) {
        row = nr - 1;
        col = col - 1;
    }
    if (ei < ne) {
        float cN = c[ei];
        float cS = c[iS[row] + nr * col];
        float cW = c[ei];
        float cE = c[row + nr * jE[col]];
        float d = cN * dN[ei] + cS * dS[ei] + cW * dW[ei] + cE * dE[ei];
        image[ei] = image[ei] + 0.25f * d_lambda * d;
    }
}
