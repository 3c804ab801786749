/* srad: speckle-reducing anisotropic diffusion over an image stored
 * column-major (the pattern of Rodinia's srad, version 1).  prepare maps
 * the image through exp; srad_coeffs finds each pixel's four neighbours
 * through row/column index tables (indirect loads of the image), computes
 * the normalized gradient and Laplacian (divisions) and a diffusion
 * coefficient clamped to [0, 1]; srad_update applies the divergence using
 * the south and east coefficients, again through the tables.  502x458 image
 * (229,916 pixels), 512 work-items per group. */
__kernel void prepare(__global float *image, int ne)
{
    int ei = get_global_id(0);
    if (ei < ne)
        image[ei] = exp(image[ei] / 255.0f);
}

__kernel void srad_coeffs(float d_lambda, int nr, int nc, long ne, __global const int *iN,
                          __global const int *iS, __global const int *jE, __global const int *jW,
                          __global float *dN, __global float *dS, __global float *dE, __global float *dW,
                          float q0sqr, __global float *c, __global const float *image)
{
    int ei = get_global_id(0);
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

__kernel void srad_update(float d_lambda, int nr, int nc, long ne, __global const int *iS,
                          __global const int *jE, __global const float *dN, __global const float *dS,
                          __global const float *dE, __global const float *dW, __global const float *c,
                          __global float *image)
{
    int ei = get_global_id(0);
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
