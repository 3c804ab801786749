/* mriq: Q matrix of non-Cartesian MRI (Parboil MRI-Q pattern); CUDA twin
 * of mriq.cl, with the k-space chunk in a __constant__ array.  Blocks of
 * 256 threads. */
#define PI2 6.2831853071795864769f
#define CHUNK 1024

struct kValues {
    float Kx;
    float Ky;
    float Kz;
    float PhiMag;
};

__constant__ kValues ck[CHUNK];

extern "C" __global__ void compute_phi_mag(const float *phiR, const float *phiI, float *phiMag, int numK)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < numK) {
        float r = phiR[i], im = phiI[i];
        phiMag[i] = r * r + im * im;
    }
}

extern "C" __global__ void compute_q(int numK, int kGlobalIndex, const float *x, const float *y, const float *z,
                                     float *Qr, float *Qi)
{
    int xIndex = blockIdx.x * blockDim.x + threadIdx.x;
    float sX = x[xIndex], sY = y[xIndex], sZ = z[xIndex];
    float sQr = Qr[xIndex], sQi = Qi[xIndex];
    for (int kIndex = 0; kIndex < CHUNK && kGlobalIndex + kIndex < numK; kIndex++) {
        float expArg = PI2 * (ck[kIndex].Kx * sX + ck[kIndex].Ky * sY + ck[kIndex].Kz * sZ);
        sQr += ck[kIndex].PhiMag * cosf(expArg);
        sQi += ck[kIndex].PhiMag * sinf(expArg);
    }
    Qr[xIndex] = sQr;
    Qi[xIndex] = sQi;
}
