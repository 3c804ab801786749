/* lavamd: particle forces within a cutoff over a 3-D grid of boxes (the
 * pattern of Rodinia's lavaMD).  One work-group per home box: for the home
 * box and each of its neighbour boxes (the count and the box numbers are
 * loaded: a data-dependent loop and indirect addresses) the group stages
 * the neighbour's 100 particles (float4 position + charge) in local memory,
 * then each work-item, striding over the home particles, accumulates the
 * potential and force from all of them with exp.  10x10x10 boxes
 * (1000 groups), 100 particles per box, 128 work-items per group. */
#define NUMBER_PAR_PER_BOX 100
#define NUMBER_THREADS 128

typedef struct {
    int number;
    int offset;
} nei_str;

typedef struct {
    int offset;
    int nn;
    nei_str nei[26];
} box_str;

__kernel void lavamd(float alpha, __global const box_str *box, __global const float4 *rv, __global const float *qv,
                     __global float4 *fv)
{
    __local float4 rA_shared[NUMBER_PAR_PER_BOX];
    __local float4 rB_shared[NUMBER_PAR_PER_BOX];
    __local float qB_shared[NUMBER_PAR_PER_BOX];
    int bx = get_group_id(0);
    int tx = get_local_id(0);
    float a2 = 2.0f * alpha * alpha;
    int first_i = box[bx].offset;

    for (int w = tx; w < NUMBER_PAR_PER_BOX; w += NUMBER_THREADS)
        rA_shared[w] = rv[first_i + w];
    barrier(CLK_LOCAL_MEM_FENCE);

    for (int k = 0; k < 1 + box[bx].nn; k++) {
        int pointer = k == 0 ? bx : box[bx].nei[k - 1].number;
        int first_j = box[pointer].offset;
        for (int w = tx; w < NUMBER_PAR_PER_BOX; w += NUMBER_THREADS) {
            rB_shared[w] = rv[first_j + w];
            qB_shared[w] = qv[first_j + w];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int w = tx; w < NUMBER_PAR_PER_BOX; w += NUMBER_THREADS) {
            float4 fA = fv[first_i + w];
            for (int j = 0; j < NUMBER_PAR_PER_BOX; j++) {
                float4 ra = rA_shared[w], rb = rB_shared[j];
                float r2 = ra.w + rb.w - (ra.x * rb.x + ra.y * rb.y + ra.z * rb.z);
                float u2 = a2 * r2;
                float vij = exp(-u2);
                float fs = 2.0f * vij;
                float dx = ra.x - rb.x, dy = ra.y - rb.y, dz = ra.z - rb.z;
                fA.w += qB_shared[j] * vij;
                fA.x += qB_shared[j] * fs * dx;
                fA.y += qB_shared[j] * fs * dy;
                fA.z += qB_shared[j] * fs * dz;
            }
            fv[first_i + w] = fA;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}
