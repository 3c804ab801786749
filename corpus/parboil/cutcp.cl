/* cutcp: cutoff Coulomb potential on a 3-D lattice (the pattern of
 * Parboil's CUTCP).  Atoms are sorted into spatial bins of BIN_DEPTH slots
 * (x, y, z, charge; an empty slot has charge 0).  A 8x8x2 work-group owns a
 * cube of lattice points; for every neighbour-bin offset in a constant
 * table (nbrlistlen entries: an argument trip count) the group copies that
 * bin into local memory and every work-item accumulates the atoms inside
 * the cutoff (branches on loaded values; an empty slot ends the bin early),
 * with rsqrt.  64x64x64 lattice, 8x8x2 groups, 321 neighbour offsets. */
#define BIN_DEPTH 8

__kernel void cutoff_potential(int binDim_x, int binDim_y, __global const float4 *binZeroAddr, float h,
                               float cutoff2, float inv_cutoff2, __global float *regionZeroAddr,
                               __constant int4 *NbrList, int nbrlistlen)
{
    __local float4 atoms[BIN_DEPTH];
    int tid = get_local_id(0) + 8 * (get_local_id(1) + 8 * get_local_id(2));
    int xi = get_global_id(0), yi = get_global_id(1), zi = get_global_id(2);
    int nx = get_global_size(0), ny = get_global_size(1);
    float px = xi * h, py = yi * h, pz = zi * h;
    int bx = (get_group_id(0) * 8) / 4, by = (get_group_id(1) * 8) / 4, bz = (get_group_id(2) * 2) / 4;
    float energy = 0.0f;

    for (int nbr = 0; nbr < nbrlistlen; nbr++) {
        int4 off = NbrList[nbr];
        int bin = ((bz + off.z) * binDim_y + (by + off.y)) * binDim_x + (bx + off.x);
        if (tid < BIN_DEPTH)
            atoms[tid] = binZeroAddr[bin * BIN_DEPTH + tid];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int a = 0; a < BIN_DEPTH; a++) {
            float4 at = atoms[a];
            if (at.w == 0.0f)
                break;
            float dx = at.x - px, dy = at.y - py, dz = at.z - pz;
            float r2 = dx * dx + dy * dy + dz * dz;
            if (r2 < cutoff2) {
                float s = 1.0f - r2 * inv_cutoff2;
                energy += at.w * rsqrt(r2) * s * s;
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    regionZeroAddr[(zi * ny + yi) * nx + xi] += energy;
}
