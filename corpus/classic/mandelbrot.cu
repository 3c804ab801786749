/* mandelbrot: escape-time fractal with a value-dependent iteration count;
 * CUDA twin of mandelbrot.cl.  Blocks of 16x16. */
extern "C" __global__ void mandelbrot(uchar4 *out, int width, int height, float x0, float y0, float scale,
                                      int max_iter)
{
    int px = blockIdx.x * blockDim.x + threadIdx.x, py = blockIdx.y * blockDim.y + threadIdx.y;
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
    unsigned char v = (unsigned char)(255 * it / max_iter);
    out[py * width + px] = make_uchar4(v, v / 2, 255 - v, 255);
}
