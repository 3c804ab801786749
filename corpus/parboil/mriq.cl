/* mriq: the Q matrix of non-Cartesian MRI reconstruction (the pattern of
 * Parboil's MRI-Q).  compute_phi_mag: |phi|^2 per k-space sample.
 * compute_q: every voxel sums phiMag * (cos, sin)(2*pi*k.x) over a chunk of
 * k-space samples held in constant memory (a uniform loop with an argument
 * trip count; every lane reads the same constant word: a broadcast).
 * 64^3 = 262,144 voxels, chunks of 1024 of 147,456 samples, 256 work-items
 * per group. */
#define PI2 6.2831853071795864769f

typedef struct {
    float Kx;
    float Ky;
    float Kz;
    float PhiMag;
} kValues;

__kernel void compute_phi_mag(__global const float *phiR, __global const float *phiI, __global float *phiMag,
                              int numK)
{
    int i = get_global_id(0);
    if (i < numK) {
        float r = phiR[i], im = phiI[i];
        phiMag[i] = r * r + im * im;
    }
}

__kernel void compute_q(int numK, int kGlobalIndex, __global const float *x, __global const float *y,
                        __global const float *z, __global float *Qr, __global float *Qi,
                        __constant kValues *ck)
{
    int xIndex = get_global_id(0);
    float sX = x[xIndex], sY = y[xIndex], sZ = z[xIndex];
    float sQr = Qr[xIndex], sQi = Qi[xIndex];
    for (int kIndex = 0; kIndex < 1024 && kGlobalIndex + kIndex < numK; kIndex++) {
        float expArg = PI2 * (ck[kIndex].Kx * sX + ck[kIndex].Ky * sY + ck[kIndex].Kz * sZ);
        sQr += ck[kIndex].PhiMag * cos(expArg);
        sQi += ck[kIndex].PhiMag * sin(expArg);
    }
    Qr[xIndex] = sQr;
    Qi[xIndex] = sQi;
}
