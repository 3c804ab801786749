/* dwt2d: forward 5/3 lifting wavelet over a sliding window (the pattern of
 * Rodinia's dwt2d, cl_fdwt53Kernel).  Each work-group keeps its window in a
 * __local struct whose sizes every work-item copies from the kernel's
 * arguments and reads back: the loops over the window's rows and columns
 * are bounded by values loaded from __local memory (data-dependent for the
 * model, with SCEV's bound for them only the index type's range).  Every
 * work-item clears the whole buffer first; per step a column of pixels is
 * loaded, lifted vertically, then the rows are lifted (predict, update) and
 * the low and high bands written.  2048x2048 work-items in 16x16 groups
 * (the x local id picks the column), 8 steps of a 16x16 window. */
#define PAD_X 2
#define BUF_WORDS 2182

struct window {
    int win_x, win_y;
    int size_x, size_y, vstride, odd_offset;
    int data[BUF_WORDS];
};

static void lift_rows(__local struct window *w, int first, int lines, int predict)
{
    int count = lines * w->vstride - 1;
    int full = count / w->size_x, rest = count % w->size_x;
    int prev = first * w->vstride, mid = prev + w->odd_offset, next = prev + 1;
    int t = get_local_id(0);
    for (int i = 0; i < full; i++) {
        int a = w->data[prev + i * w->size_x + t];
        int b = w->data[next + i * w->size_x + t];
        if (predict)
            w->data[mid + i * w->size_x + t] -= (a + b) / 2;
        else
            w->data[mid + i * w->size_x + t] += (a + b + 2) / 4;
    }
    if (t < rest) {
        int off = count - rest;
        int a = w->data[prev + off + t], b = w->data[next + off + t];
        w->data[mid + off + t] -= (a + b) / 2;
    }
}

static void lift_column(__local struct window *w, int col)
{
    int steps = (w->size_y - 1) / 2;
    for (int i = 0; i < steps; i++) {
        int row = 2 * i + 1;
        int a = w->data[col + (row - 1) * w->vstride], b = w->data[col + (row + 1) * w->vstride];
        w->data[col + row * w->vstride] -= (a + b) / 2;
    }
}

__kernel void fdwt53(__global const int *in, __global int *out, int sx, int sy, int steps, int win_x, int win_y)
{
    __local struct window w;
    w.win_x = win_x;
    w.win_y = win_y;
    for (int i = 0; i < BUF_WORDS; i++)
        w.data[i] = 0;
    w.size_x = w.win_x;
    w.size_y = w.win_y + 3;
    w.vstride = PAD_X + w.size_x / 2;
    w.odd_offset = w.vstride * w.size_y + 5;
    int col = get_local_id(0);
    int x = get_group_id(0) * w.win_x + col;
    int y0 = get_group_id(1) * w.win_y * steps;
    int at = (x < sx ? x : sx - 1) + sx * y0;
    for (int s = 0; s < steps; s++) {
        for (int i = 3; i < 3 + w.win_y; i++) {
            w.data[col / 2 + i * w.vstride] = in[at];
            at += sx;
        }
        lift_column(&w, col / 2);
        barrier(CLK_LOCAL_MEM_FENCE);
        lift_rows(&w, 2, w.win_y, 1);
        barrier(CLK_LOCAL_MEM_FENCE);
        lift_rows(&w, 2, w.win_y, 0);
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int r = 2; r < 2 + w.win_y; r += 2)
            out[x + sx * (y0 + s * w.win_y + r)] = w.data[col / 2 + r * w.vstride];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}
