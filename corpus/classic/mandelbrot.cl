/* mandelbrot: escape-time fractal, one pixel per work-item.  The iteration
 * loop ends when the orbit leaves the radius-2 disk or after max_iter
 * steps: its count depends on floating-point values computed in the loop,
 * which no static analysis can evaluate, so only the bound max_iter is
 * known.  The colour is written as a uchar4.  2048x2048 pixels, 16x16
 * work-groups, at most 256 iterations. */
__kernel void mandelbrot(__global uchar4 *out, int width, int height, float x0, float y0, float scale, int max_iter)
{
    int px = get_global_id(0), py = get_global_id(1);
    if (px >= width || py >= height)
        return;
    float cr = x0 + px * scale, ci = y0 + py * scale;
    float zr = 0.0f, zi = 0.0f;
    int it = 0;
    while (zr * zr + zi * zi < 4.0f && it < max_iter) {
        float t = zr * zr - zi * zi + cr;
        zi = 2.0f * zr * zi + ci;
        zr = t;
        it++;
    }
    uchar v = (uchar)(255 * it / max_iter);
    out[py * width + px] = (uchar4)(v, v / 2, 255 - v, 255);
}
