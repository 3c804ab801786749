/* md: Lennard-Jones forces over a neighbour list (the pattern of SHOC's
 * MD).  Each work-item owns an atom: the neighbour list is stored
 * neighbour-major (coalesced), each neighbour's position is gathered
 * (float4, indirect), and only pairs inside the cutoff contribute (a
 * branch on loaded positions).  73,728 atoms, 128 neighbours each, 256
 * work-items per group. */
__kernel void compute_lj_force(__global float4 *force, __global const float4 *position, int neighCount,
                               __global const int *neighList, float cutsq, float lj1, float lj2, int inum)
{
    int idx = get_global_id(0);
    if (idx >= inum)
        return;
    float4 ipos = position[idx];
    float4 f = (float4)(0.0f, 0.0f, 0.0f, 0.0f);
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
