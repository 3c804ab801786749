/* md: Lennard-Jones forces over a neighbour list (SHOC MD pattern); CUDA
 * twin of md.cl.  Blocks of 256 threads. */
extern "C" __global__ void compute_lj_force(float4 *force, const float4 *position, int neighCount,
                                            const int *neighList, float cutsq, float lj1, float lj2, int inum)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= inum)
        return;
    float4 ipos = position[idx];
    float4 f = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    for (int j = 0; j < neighCount; j++) {
        int jidx = neighList[j * inum + idx];
        float4 jpos = position[jidx];
        float delx = ipos.x - jpos.x;
        float dely = ipos.y - jpos.y;
        float delz = ipos.z - jpos.z;
        float r2inv = delx * delx + dely * dely + delz * delz;
        if (r2inv < cutsq) {
            r2inv = 1.0f / r2inv;
            float r6inv = r2inv * r2inv * r2inv;
            float forceC = r2inv * r6inv * (lj1 * r6inv - lj2);
            f.x += delx * forceC;
            f.y += dely * forceC;
            f.z += delz * forceC;
        }
    }
    force[idx] = f;
}
