/* clock.cl - the device clock (microbench/opencl, OpenCL C 1.2).
 *
 * clock_plain: a dependent chain, used for the preferred work-group multiple.
 * clock_nv: the same chain between two reads of the SM cycle counter, through inline
 * PTX; built only with -D WGB_NV_CLOCK (NVIDIA's OpenCL compiler accepts inline PTX);
 * cycles over event time give the clock the kernel ran at.
 */
__kernel void clock_plain(uint iters, __global float *out)
{
    float x = (float)get_global_id(0);
    for (uint i = 0; i < iters; i++)
        x = x * 0.999f + 0.001f;
    if (x == -1.0f)
        out[0] = x;
}

#ifdef WGB_NV_CLOCK
__kernel void clock_nv(uint iters, __global ulong *out)
{
    ulong c0, c1;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(c0));
    /* the chain starts from c0 and c1 takes x as an operand: the loop stays between */
    float x = (float)(get_global_id(0) + (c0 & 1));
    for (uint i = 0; i < iters; i++)
        x = x * 0.999f + 0.001f;
    asm volatile("mov.u64 %0, %%clock64; // %1" : "=l"(c1) : "f"(x));
    out[0] = c1 - c0;
    out[1] = as_uint(x);
}
#endif
