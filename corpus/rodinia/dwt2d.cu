/* dwt2d: forward 5/3 lifting wavelet over a sliding window (Rodinia dwt2d
 * pattern); CUDA twin of dwt2d.cl.  The window's sizes live in a shared
 * struct every thread fills from the arguments and reads back, so the
 * loops over its rows and columns are bounded by loaded values.  A 128x128
 * grid of 16x16 blocks, 8 steps of a 16x16 window. */
#define PAD_X 2
#define BUF_WORDS 2182

struct window {
    int win_x, win_y;
    int size_x, size_y, vstride, odd_offset;
    int data[BUF_WORDS];
};

__device__ static void lift_rows(struct window *w, int first, int lines, int predict)
{
    int count = lines * w->vstride - 1;
    int full = count / w->size_x, rest = count % w->size_x;
    int prev = first * w->vstride, mid = prev + w->odd_offset, next = prev + 1;
    int t = threadIdx.x;
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

__device__ static void lift_column(struct window *w, int col)
{
    int steps = (w->size_y - 1) / 2;
    for (int i = 0; i < steps; i++) {
        int row = 2 * i + 1;
        int a = w->data[col + (row - 1) * w->vstride], b = w->data[col + (row + 1) * w->vstride];
        w->data[col + row * w->vstride] -= (a + b) / 2;
    }
}

extern "C" __global__ void fdwt53(const int *in, int *out, int sx, int sy, int steps, int win_x, int win_y)
{
    __shared__ struct window w;
    w.win_x = win_x;
    w.win_y = win_y;
    for (int i = 0; i < BUF_WORDS; i++)
        w.data[i] = 0;
    w.size_x = w.win_x;
    w.size_y = w.win_y + 3;
    w.vstride = PAD_X + w.size_x / 2;
    w.odd_offset = w.vstride * w.size_y + 5;
    int col = threadIdx.x;
    int x = blockIdx.x * w.win_x + col;
    int y0 = blockIdx.y * w.win_y * steps;
    int at = (x < sx ? x : sx - 1) + sx * y0;
    for (int s = 0; s < steps; s++) {
        for (int i = 3; i < 3 + w.win_y; i++) {
            w.data[col / 2 + i * w.vstride] = in[at];
            at += sx;
        }
        lift_column(&w, col / 2);
        __syncthreads();
        lift_rows(&w, 2, w.win_y, 1);
        __syncthreads();
        lift_rows(&w, 2, w.win_y, 0);
        __syncthreads();
        for (int r = 2; r < 2 + w.win_y; r += 2)
            out[x + sx * (y0 + s * w.win_y + r)] = w.data[col / 2 + r * w.vstride];
        __syncthreads();
    }
}
