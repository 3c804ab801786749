/* nbody: all-pairs gravitational accelerations with shared-memory tiles
 * (GPU Gems 3, ch. 31 scheme); CUDA twin of nbody.cl.  Blocks of 256. */
__device__ float3 body_body(float4 bi, float4 bj, float3 ai, float eps2)
{
    float3 r = make_float3(bj.x - bi.x, bj.y - bi.y, bj.z - bi.z);
    float dist2 = r.x * r.x + r.y * r.y + r.z * r.z + eps2;
    float inv = rsqrtf(dist2);
    float s = bj.w * inv * inv * inv;
    ai.x += r.x * s;
    ai.y += r.y * s;
    ai.z += r.z * s;
    return ai;
}

extern "C" __global__ void nbody_accel(const float4 *pos, float4 *accel, int n, float eps2)
{
    __shared__ float4 tile[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int p = blockDim.x;
    float4 me = pos[i];
    float3 a = make_float3(0.0f, 0.0f, 0.0f);
    for (int t = 0; t < n / p; t++) {
        tile[threadIdx.x] = pos[t * p + threadIdx.x];
        __syncthreads();
        for (int j = 0; j < p; j++)
            a = body_body(me, tile[j], a, eps2);
        __syncthreads();
    }
    accel[i] = make_float4(a.x, a.y, a.z, 0.0f);
}
