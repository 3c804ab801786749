/* subSeqMax: maximum-sum contiguous subsequence, partial results per thread
 * (KERNELS.md section 9).
 *
 * nvprof name subSeqMax(int*, int*, int, int); arguments (v, out, unused, n) with
 * n = N/32 elements per block. Launch fixed at 32 blocks x 128 threads (the body assumes
 * exactly 128 threads); static shared memory int[4096] plus one pointer (16392 B).
 * N must be a multiple of 131072.
 *
 * Kept on purpose (they shape the performance): the stride-32 bank-conflicted scan, and
 * NO barrier between one iteration's scan and the next iteration's load phase (a race in
 * the original, harmless for the dataset's input: see validation/README.md).
 * Not kept: the original's host buffer for out holds only 640 ints while 4096 threads
 * write 5 ints each. Here out must hold 5 * 32 * 128 = 20480 ints (the harness allocates
 * that), so every write is in bounds; the kernel body is unchanged by this.
 *
 *   nvcc -arch=sm_90 -c subSeqMax.cu
 */
#ifndef WGP_KERNEL
#define WGP_KERNEL extern "C" __global__
#endif

WGP_KERNEL void subSeqMax(int *v, int *out, int unused, int n)
{
    __shared__ int buf[4096];
    /* written by every thread with the same value, as in the original; volatile keeps
       the store (and the 8 bytes) although nothing reads it back */
    __shared__ int *volatile block_base;
    int t = threadIdx.x;
    int w = t / 32;
    int l = t % 32;
    int b = blockIdx.x;
    int seg = n / 128; /* elements per thread segment */
    int chunk = 32 * t; /* this thread's 32 words of buf */
    int best = 0, suf = 0; /* carried over between outer iterations */
    int best_lo = chunk - 1, best_hi = chunk - 1;
    int suf_lo = chunk - 1, suf_hi = chunk - 1;

    (void)unused;
    for (int it = 0; it < n / 4096; ++it) {
        /* load phase: warp w fills the it-th 32-word chunk of segments w, w+4, ... */
        for (int r = 0; r < 32; ++r) {
            int s = w + 4 * r;
            buf[32 * s + l] = v[b * n + s * seg + 32 * it + l];
        }
        block_base = v + b * n;
        __syncthreads();

        /* scan phase: lanes 32 words apart, all in one bank; no barrier afterwards */
        if (t < 128) {
            best_lo = best_hi = suf_lo = suf_hi = chunk - 1;
            for (int m = 0; m < 32; ++m) {
                int x = buf[chunk + m];
                if (suf >= 0) { /* extend the running suffix */
                    suf += x;
                    suf_hi = chunk + m;
                    if (suf > best) {
                        best = suf;
                        best_lo = suf_lo;
                        best_hi = suf_hi;
                    }
                } else { /* restart at this element */
                    suf = x;
                    suf_lo = chunk + m;
                    suf_hi = chunk + m;
                    if (suf > best) {
                        best = suf;
                        best_lo = suf_lo;
                        best_hi = suf_hi;
                    }
                }
            }
        }
    }

    int g = b * 128 + t;
    out[5 * g + 0] = -1;
    out[5 * g + 1] = -1;
    out[5 * g + 2] = -1;
    out[5 * g + 3] = -1;
    out[5 * g + 4] = -1;
    out[5 * g + 2] = best;

    /* prefix pass: starts at word 0 of the whole buffer, not at this thread's chunk */
    if (best_lo > chunk) {
        int sum = 0, top = 0;
        for (int p = 0; p < best_lo; ++p) {
            sum += buf[p];
            if (sum > top)
                top = sum;
        }
        out[5 * g + 0] = top;
        out[5 * g + 1] = sum - top;
    }
    /* suffix pass: backwards from the chunk end to just after the best run */
    if (best_hi < chunk + 31) {
        int sum = 0, top = 0;
        for (int p = chunk + 31; p > best_hi; --p) {
            sum += buf[p];
            if (sum > top)
                top = sum;
        }
        out[5 * g + 3] = top;
        out[5 * g + 4] = sum - top;
    }
}
