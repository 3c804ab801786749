/* triad: STREAM triad on float4 (SHOC Triad); CUDA twin of triad.cl.
 * Blocks of 256 threads. */
extern "C" __global__ void triad(const float4 *A, const float4 *B, float4 *C, float s)
{
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    float4 a = A[gid], b = B[gid];
    C[gid] = make_float4(a.x + s * b.x, a.y + s * b.y, a.z + s * b.z, a.w + s * b.w);
}
