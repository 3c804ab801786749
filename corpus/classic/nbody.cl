/* nbody: all-pairs gravitational accelerations with tiling (the scheme of
 * GPU Gems 3, ch. 31).  Each work-item owns a body; the bodies are visited
 * one work-group-sized tile at a time, staged as float4 (position, mass)
 * in local memory, and every work-item applies the tile to its body through
 * a helper with rsqrt.  The tile loop runs n / local size times (an
 * expression of an argument and the launch).  32,768 bodies, 256 work-items
 * per group, softening 0.01. */
static float3 body_body(float4 bi, float4 bj, float3 ai, float eps2)
{
    float3 r = (float3)(bj.x - bi.x, bj.y - bi.y, bj.z - bi.z);
    float dist2 = r.x * r.x + r.y * r.y + r.z * r.z + eps2;
    float inv = rsqrt(dist2);
    float s = bj.w * inv * inv * inv;
    return ai + r * s;
}

__kernel void nbody_accel(__global const float4 *pos, __global float4 *accel, int n, float eps2)
{
    __local float4 tile[256];
    int i = get_global_id(0);
    int p = get_local_size(0);
    float4 me = pos[i];
    float3 a = (float3)(0.0f, 0.0f, 0.0f);
    for (int t = 0; t < n / p; t++) {
        tile[get_local_id(0)] = pos[t * p + get_local_id(0)];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int j = 0; j < p; j++)
            a = body_body(me, tile[j], a, eps2);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    accel[i] = (float4)(a, 0.0f);
}
