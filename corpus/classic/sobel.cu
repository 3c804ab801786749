/* sobel: Sobel edge magnitude of an RGBA image with clamped borders; CUDA
 * twin of sobel.cl (per-channel float arithmetic instead of OpenCL's
 * vector operators).  Blocks of 16x8. */
__device__ float sat255(float v)
{
    return fminf(fmaxf(v, 0.0f), 255.0f);
}

extern "C" __global__ void sobel(const uchar4 *in, uchar4 *out, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height)
        return;
    float4 p[3][3];
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            int sx = min(max(x + dx, 0), width - 1), sy = min(max(y + dy, 0), height - 1);
            uchar4 c = in[sy * width + sx];
            p[dy + 1][dx + 1] = make_float4(c.x, c.y, c.z, c.w);
        }
    float g[4];
    for (int ch = 0; ch < 4; ch++) {
        float v[3][3];
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++)
                v[r][c] = ch == 0 ? p[r][c].x : ch == 1 ? p[r][c].y : ch == 2 ? p[r][c].z : p[r][c].w;
        float gx = v[0][2] + 2.0f * v[1][2] + v[2][2] - v[0][0] - 2.0f * v[1][0] - v[2][0];
        float gy = v[2][0] + 2.0f * v[2][1] + v[2][2] - v[0][0] - 2.0f * v[0][1] - v[0][2];
        g[ch] = sat255(sqrtf(gx * gx + gy * gy) * 0.25f);
    }
    out[y * width + x] = make_uchar4(g[0], g[1], g[2], g[3]);
}
