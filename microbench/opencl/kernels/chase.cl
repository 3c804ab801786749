/* chase.cl - pointer chasing and cache helpers (microbench/opencl, OpenCL C 1.2).
 *
 * A chain is an array of uint element offsets: node p holds the offset of the next
 * node. One work-item follows it, so every load waits for the one before: the time
 * per step is the load-to-use latency of wherever the chain lives. The host times
 * two step counts and divides the difference, so the warm-up and set-up cancel.
 */

/* Global memory. The warm-up first streams over WARM_WORDS words (a load every 32 B,
 * independent loads) so a footprint that fits the L1 of this compute unit is in it. */
__kernel void chase_global(__global const uint *next, uint start, uint warm_words, uint steps,
                           __global uint *out)
{
    uint acc = 0;
    for (uint i = 0; i < warm_words; i += 8)
        acc += next[i];
    uint p = start;
    for (uint i = 0; i < steps; i++)
        p = next[p];
    out[0] = p;
    out[1] = acc;
}

/* Constant memory: WARM_STEPS steps of the chain first, then STEPS. */
__kernel void chase_const(__constant uint *next, uint start, uint warm_steps, uint steps,
                          __global uint *out)
{
    uint p = start;
    for (uint i = 0; i < warm_steps; i++)
        p = next[p];
    for (uint i = 0; i < steps; i++)
        p = next[p];
    out[0] = p;
}

/* Local (shared) memory: the chain of N nodes is copied in, then chased from 0. */
__kernel void chase_local(__global const uint *next, uint n, uint steps, __global uint *out,
                          __local uint *buf)
{
    for (uint i = 0; i < n; i++)
        buf[i] = next[i];
    barrier(CLK_LOCAL_MEM_FENCE);
    uint p = 0;
    for (uint i = 0; i < steps; i++)
        p = buf[p];
    out[0] = p;
}

/* Every work-item of a grid reads its share of A: brings a footprint into L2. The
 * store depends on the loaded values, so the loads cannot be dropped. */
__kernel void touch(__global const uint4 *a, uint n4, __global uint *out)
{
    uint4 acc = (uint4)(0);
    for (uint i = get_global_id(0); i < n4; i += get_global_size(0))
        acc += a[i];
    if (acc.x == 0x9e3779b9u && acc.y == 0x7f4a7c15u)
        out[0] = acc.z;
}

/* Writes A over the whole grid: evicts what the caches held. */
__kernel void flush(__global uint4 *a, uint n4, uint seed)
{
    for (uint i = get_global_id(0); i < n4; i += get_global_size(0))
        a[i] = (uint4)(i, seed, i ^ seed, ~i);
}
