/* triad: the STREAM triad on float4 vectors, C = A + s*B (SHOC's Triad),
 * one float4 per work-item: 16-byte accesses, perfectly coalesced.
 * 16 Mi floats (4 Mi float4), 256 work-items per group. */
__kernel void triad(__global const float4 *A, __global const float4 *B, __global float4 *C, float s)
{
    int gid = get_global_id(0);
    C[gid] = A[gid] + s * B[gid];
}
