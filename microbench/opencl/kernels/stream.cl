/* stream.cl - bandwidth kernels (microbench/opencl, OpenCL C 1.2).
 *
 * Grid-stride loops over uint4 (16 B per work-item per access). The read kernels sum
 * what they read into one word per work-item, so the host checks that every element
 * was read (the sum of all words, mod 2^32, times the passes). Each pass moves the
 * work-items on by one work-group, so a compute unit reads other data in every pass:
 * otherwise its share of an L2-sized buffer stays in its L1 (an H100's 132 x 256 KiB of
 * L1 hold 33 MiB; the first H100 run measured 23.6 TB/s "L2" bandwidth that way).
 */

/* One load in flight per work-item. */
__kernel void bw_read1(__global const uint4 *a, uint n4, uint passes, __global uint *out)
{
    uint g0 = get_global_id(0), gs = get_global_size(0), l = get_local_size(0);
    uint4 acc = (uint4)(0);
    for (uint p = 0; p < passes; p++)
        for (uint i = (g0 + p * l) % gs; i < n4; i += gs)
            acc += a[i];
    out[g0] = acc.x + acc.y + acc.z + acc.w;
}

/* Four independent loads in flight per work-item. */
__kernel void bw_read4(__global const uint4 *a, uint n4, uint passes, __global uint *out)
{
    uint g0 = get_global_id(0), gs = get_global_size(0), l = get_local_size(0);
    uint4 a0 = (uint4)(0), a1 = (uint4)(0), a2 = (uint4)(0), a3 = (uint4)(0);
    for (uint p = 0; p < passes; p++) {
        uint i = (g0 + p * l) % gs;
        for (; i + 3 * gs < n4; i += 4 * gs) {
            a0 += a[i];
            a1 += a[i + gs];
            a2 += a[i + 2 * gs];
            a3 += a[i + 3 * gs];
        }
        for (; i < n4; i += gs)
            a0 += a[i];
    }
    uint4 acc = a0 + a1 + a2 + a3;
    out[g0] = acc.x + acc.y + acc.z + acc.w;
}

__kernel void bw_write(__global uint4 *a, uint n4, uint seed)
{
    for (uint i = get_global_id(0); i < n4; i += get_global_size(0))
        a[i] = (uint4)(i, i ^ seed, i + seed, ~i);
}

__kernel void bw_copy(__global const uint4 *a, __global uint4 *b, uint n4)
{
    for (uint i = get_global_id(0); i < n4; i += get_global_size(0))
        b[i] = a[i];
}

/* Local memory: LW words hold their index (plus a mirror of the first 512 so the 16
 * loads of an iteration use fixed offsets from one base). A warp's 32 lanes read 32
 * consecutive words: no bank conflicts. */
#define LW 4096
#define LPAD 512
__kernel void bw_local(uint iters, __global uint *out)
{
    __local uint buf[LW + LPAD];
    uint lid = get_local_id(0), lsz = get_local_size(0);
    for (uint j = lid; j < LW + LPAD; j += lsz)
        buf[j] = j & (LW - 1);
    barrier(CLK_LOCAL_MEM_FENCE);
    uint acc = 0;
    uint base = lid & (LW - 1);
    for (uint it = 0; it < iters; it++) {
        __local const uint *p = buf + base;
        acc += p[0] + p[32] + p[64] + p[96] + p[128] + p[160] + p[192] + p[224] +
               p[256] + p[288] + p[320] + p[352] + p[384] + p[416] + p[448] + p[480];
        base = (base + 512) & (LW - 1);
    }
    out[get_global_id(0)] = acc;
}
