/* sync.cl - barriers, atomics and an empty kernel (microbench/opencl, OpenCL C 1.2). */

/* ITERS barriers in a row; then one exchange through local memory proves that the
 * work-items met: out[g] = iters + the neighbour's local id. */
__kernel void barrier_loop(uint iters, __global uint *out, __local uint *buf)
{
    uint lid = get_local_id(0), lsz = get_local_size(0);
    uint v = 0;
    for (uint i = 0; i < iters; i++) {
        barrier(CLK_LOCAL_MEM_FENCE);
        v++;
    }
    buf[lid] = v + lid;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = buf[(lid + 1) % lsz];
}

/* ITERS atomic additions per work-item: all on word 0 (contended) or one word each. */
__kernel void atom_global(__global int *ctr, uint iters, uint contended)
{
    uint idx = contended ? 0 : get_global_id(0);
    for (uint i = 0; i < iters; i++)
        atomic_add(&ctr[idx], 1);
}

__kernel void atom_local(__global int *out, uint iters, uint contended, __local int *c)
{
    uint lid = get_local_id(0);
    c[lid] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint idx = contended ? 0 : lid;
    for (uint i = 0; i < iters; i++)
        atomic_add(&c[idx], 1);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = c[lid];
}

__kernel void empty(__global int *p)
{
}
