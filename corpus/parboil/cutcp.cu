/* cutcp: cutoff Coulomb potential on a 3-D lattice (Parboil CUTCP
 * pattern); CUDA twin of cutcp.cl, with the neighbour-offset table in a
 * __constant__ array.  Blocks of 8x8x2. */
#define BIN_DEPTH 8
#define NBRLIST_MAXLEN 512

__constant__ int4 NbrList[NBRLIST_MAXLEN];

extern "C" __global__ void cutoff_potential(int binDim_x, int binDim_y, const float4 *binZeroAddr, float h,
                                            float cutoff2, float inv_cutoff2, float *regionZeroAddr,
                                            int nbrlistlen)
{
    __shared__ float4 atoms[BIN_DEPTH];
    int tid = threadIdx.x + 8 * (threadIdx.y + 8 * threadIdx.z);
    int xi = blockIdx.x * blockDim.x + threadIdx.x;
    int yi = blockIdx.y * blockDim.y + threadIdx.y;
    int zi = blockIdx.z * blockDim.z + threadIdx.z;
    int nx = gridDim.x * blockDim.x, ny = gridDim.y * blockDim.y;
    float px = xi * h, py = yi * h, pz = zi * h;
    int bx = (blockIdx.x * 8) / 4, by = (blockIdx.y * 8) / 4, bz = (blockIdx.z * 2) / 4;
    float energy = 0.0f;

    for (int nbr = 0; nbr < nbrlistlen; nbr++) {
        int4 off = NbrList[nbr];
        int bin = ((bz + off.z) * binDim_y + (by + off.y)) * binDim_x + (bx + off.x);
        if (tid < BIN_DEPTH)
            atoms[tid] = binZeroAddr[bin * BIN_DEPTH + tid];
        __syncthreads();
        for (int a = 0; a < BIN_DEPTH; a++) {
            float4 at = atoms[a];
            if (at.w == 0.0f)
                break;
            float dx = at.x - px, dy = at.y - py, dz = at.z - pz;
            float r2 = dx * dx + dy * dy + dz * dz;
            if (r2 < cutoff2) {
                float s = 1.0f - r2 * inv_cutoff2;
                energy += at.w * rsqrtf(r2) * s * s;
            }
        }
        __syncthreads();
    }
    regionZeroAddr[(zi * ny + yi) * nx + xi] += energy;
}
