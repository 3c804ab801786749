/* heartwall: one tracking step of a heart-wall point (Rodinia heartwall
 * pattern); CUDA twin of heartwall.cl.  Every block follows one point: its
 * sizes and offsets live in a __constant__ struct, so every loop is a
 * thread-strided walk (by the block size) bounded by a loaded value: copy
 * the search window of the frame into the point's scratch matrix in global
 * memory, correlate it with the point's template, reduce to the best
 * position.  51 blocks of 256. */
#define THREADS 256
#define POINTS 51
#define WIN_MAX 4096

struct params {
    int frame_rows, frame_cols;
    int win_rows, win_cols, win_elem;
    int tpl_rows, tpl_cols, tpl_elem;
    int row[POINTS], col[POINTS];
};

__constant__ params d_params;

extern "C" __global__ void track(const float *frame, const float *templates, float *window, float *score, int *best)
{
    float *win = window + blockIdx.x * WIN_MAX;
    __shared__ float red[THREADS];
    __shared__ int arg[THREADS];
    int p = blockIdx.x, t = threadIdx.x;
    int r0 = d_params.row[p] - d_params.win_rows / 2, c0 = d_params.col[p] - d_params.win_cols / 2;
    /* the window, column-major as the suite keeps it */
    for (int e = t; e < d_params.win_elem; e += THREADS) {
        int r = e % d_params.win_rows, c = e / d_params.win_rows;
        int fr = min(max(r0 + r, 0), d_params.frame_rows - 1), fc = min(max(c0 + c, 0), d_params.frame_cols - 1);
        win[e] = frame[fc * d_params.frame_rows + fr];
    }
    __syncthreads();
    /* correlation at every offset of the template inside the window */
    int out_rows = d_params.win_rows - d_params.tpl_rows + 1, out_cols = d_params.win_cols - d_params.tpl_cols + 1;
    float best_val = -1e30f;
    int best_at = 0;
    for (int o = t; o < out_rows * out_cols; o += THREADS) {
        int orow = o % out_rows, ocol = o / out_rows;
        float s = 0;
        for (int j = 0; j < d_params.tpl_cols; j++)
            for (int i = 0; i < d_params.tpl_rows; i++)
                s += win[(ocol + j) * d_params.win_rows + orow + i] *
                     templates[p * d_params.tpl_elem + j * d_params.tpl_rows + i];
        score[p * WIN_MAX + o] = s;
        if (s > best_val) {
            best_val = s;
            best_at = o;
        }
    }
    red[t] = best_val;
    arg[t] = best_at;
    __syncthreads();
    for (int step = THREADS / 2; step > 0; step >>= 1) {
        if (t < step && red[t + step] > red[t]) {
            red[t] = red[t + step];
            arg[t] = arg[t + step];
        }
        __syncthreads();
    }
    if (t == 0)
        best[p] = arg[0];
}
