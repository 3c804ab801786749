/* sad: sums of absolute differences for motion estimation (the pattern of
 * Parboil's SAD).  Every work-item evaluates one search position of one
 * 16x16 macroblock: 256 absolute differences of 16-bit pixels between the
 * current frame and the reference frame displaced by the position, with
 * the reference coordinates clamped into the frame (min/max), a double
 * loop with constant trip counts.  Positions beyond the 33x33 search
 * window leave early.  QCIF frame (176x144: 11x9 macroblocks), search range
 * 16: 1089 positions per macroblock on 1152 work-items, 99 macroblocks. */
#define MB 16
#define SEARCH 16
#define POSITIONS ((2 * SEARCH + 1) * (2 * SEARCH + 1))

__kernel void mb_sad_calc(__global const ushort *cur, __global const ushort *ref, __global ushort *sads,
                          int width, int height)
{
    int pos = get_global_id(0);
    int mb = get_global_id(1);
    if (pos >= POSITIONS)
        return;
    int mbs_x = width / MB;
    int mb_x = (mb % mbs_x) * MB, mb_y = (mb / mbs_x) * MB;
    int dx = pos % (2 * SEARCH + 1) - SEARCH, dy = pos / (2 * SEARCH + 1) - SEARCH;
    uint sad = 0;
    for (int y = 0; y < MB; y++) {
        int ry = min(max(mb_y + y + dy, 0), height - 1);
        for (int x = 0; x < MB; x++) {
            int rx = min(max(mb_x + x + dx, 0), width - 1);
            int c = cur[(mb_y + y) * width + mb_x + x];
            int r = ref[ry * width + rx];
            sad += abs(c - r);
        }
    }
    sads[mb * POSITIONS + pos] = (ushort)min(sad, 65535u);
}
