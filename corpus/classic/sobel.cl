/* sobel: Sobel edge magnitude of an RGBA image (the classic image-filter
 * sample): every work-item reads its 3x3 neighbourhood of uchar4 pixels
 * with coordinates clamped to the image (clamp), converts them to float4,
 * forms the horizontal and vertical gradients per channel and writes the
 * magnitude (sqrt) back as uchar4.  1920x1080, 16x8 work-groups. */
__kernel void sobel(__global const uchar4 *in, __global uchar4 *out, int width, int height)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x >= width || y >= height)
        return;
    float4 p[3][3];
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            int sx = clamp(x + dx, 0, width - 1), sy = clamp(y + dy, 0, height - 1);
            p[dy + 1][dx + 1] = convert_float4(in[sy * width + sx]);
        }
    float4 gx = p[0][2] + 2.0f * p[1][2] + p[2][2] - p[0][0] - 2.0f * p[1][0] - p[2][0];
    float4 gy = p[2][0] + 2.0f * p[2][1] + p[2][2] - p[0][0] - 2.0f * p[0][1] - p[0][2];
    float4 g = sqrt(gx * gx + gy * gy) * 0.25f;
    out[y * width + x] = convert_uchar4_sat(g);
}
