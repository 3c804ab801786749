/* lavamd: particle forces over neighbouring boxes with shared-memory
 * staging (Rodinia lavaMD pattern); CUDA twin of lavamd.cl.  One block of
 * 128 threads per box. */
#define NUMBER_PAR_PER_BOX 100
#define NUMBER_THREADS 128

struct nei_str {
    int number;
    int offset;
};

struct box_str {
    int offset;
    int nn;
    nei_str nei[26];
};

extern "C" __global__ void lavamd(float alpha, const box_str *box, const float4 *rv, const float *qv,
                                  float4 *fv)
{
    __shared__ float4 rA_shared[NUMBER_PAR_PER_BOX];
    __shared__ float4 rB_shared[NUMBER_PAR_PER_BOX];
    __shared__ float qB_shared[NUMBER_PAR_PER_BOX];
    int bx = blockIdx.x;
    int tx = threadIdx.x;
    float a2 = 2.0f * alpha * alpha;
    int first_i = box[bx].offset;

    for (int w = tx; w < NUMBER_PAR_PER_BOX; w += NUMBER_THREADS)
        rA_shared[w] = rv[first_i + w];
    __syncthreads();

    for (int k = 0; k < 1 + box[bx].nn; k++) {
        int pointer = k == 0 ? bx : box[bx].nei[k - 1].number;
        int first_j = box[pointer].offset;
        for (int w = tx; w < NUMBER_PAR_PER_BOX; w += NUMBER_THREADS) {
            rB_shared[w] = rv[first_j + w];
            qB_shared[w] = qv[first_j + w];
        }
        __syncthreads();
        for (int w = tx; w < NUMBER_PAR_PER_BOX; w += NUMBER_THREADS) {
            float4 fA = fv[first_i + w];
            for (int j = 0; j < NUMBER_PAR_PER_BOX; j++) {
                float4 ra = rA_shared[w], rb = rB_shared[j];
                float r2 = ra.w + rb.w - (ra.x * rb.x + ra.y * rb.y + ra.z * rb.z);
                float u2 = a2 * r2;
                float vij = expf(-u2);
                float fs = 2.0f * vij;
                float dx = ra.x - rb.x, dy = ra.y - rb.y, dz = ra.z - rb.z;
                fA.w += qB_shared[j] * vij;
                fA.x += qB_shared[j] * fs * dx;
                fA.y += qB_shared[j] * fs * dy;
                fA.z += qB_shared[j] * fs * dz;
            }
            fv[first_i + w] = fA;
        }
        __syncthreads();
    }
}
