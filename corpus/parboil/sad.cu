/* sad: sums of absolute differences for motion estimation (Parboil SAD
 * pattern); CUDA twin of sad.cl.  Blocks of 128x1, grid 9x99. */
#define MB 16
#define SEARCH 16
#define POSITIONS ((2 * SEARCH + 1) * (2 * SEARCH + 1))

extern "C" __global__ void mb_sad_calc(const unsigned short *cur, const unsigned short *ref,
                                       unsigned short *sads, int width, int height)
{
    int pos = blockIdx.x * blockDim.x + threadIdx.x;
    int mb = blockIdx.y * blockDim.y + threadIdx.y;
    if (pos >= POSITIONS)
        return;
    int mbs_x = width / MB;
    int mb_x = (mb % mbs_x) * MB, mb_y = (mb / mbs_x) * MB;
    int dx = pos % (2 * SEARCH + 1) - SEARCH, dy = pos / (2 * SEARCH + 1) - SEARCH;
    unsigned sad = 0;
    for (int y = 0; y < MB; y++) {
        int ry = min(max(mb_y + y + dy, 0), height - 1);
        for (int x = 0; x < MB; x++) {
            int rx = min(max(mb_x + x + dx, 0), width - 1);
            int c = cur[(mb_y + y) * width + mb_x + x];
            int r = ref[ry * width + rx];
            sad += abs(c - r);
        }
    }
    sads[mb * POSITIONS + pos] = (unsigned short)min(sad, 65535u);
}
