/* subSeqMax: maximum-sum contiguous subsequence, partial results per work-item
 * (KERNELS.md section 9). OpenCL C 1.2 twin of subSeqMax.cu.
 *
 * Arguments (v, out, unused, n) with n = N/32. NDRange: global 32*128, local 128 (the
 * body assumes exactly 128 work-items per group). Local memory int[4096] plus one
 * pointer. N must be a multiple of 131072. out must hold 5*32*128 = 20480 ints (the
 * original's host buffer was too small; see subSeqMax.cu). The bank-conflicted scan and
 * the missing barrier after the scan are kept.
 *
 *   clang-19 -x cl -cl-std=CL1.2 -Xclang -finclude-default-header \
 *       -target nvptx64-nvidia-nvcl -S -emit-llvm subSeqMax.cl
 */
__kernel void subSeqMax(__global int *v, __global int *out, int unused, int n)
{
    __local int buf[4096];
    /* written by every work-item with the same value, never read (as in the original) */
    __global int *__local volatile block_base;
    int t = (int)get_local_id(0);
    int w = t / 32;
    int l = t % 32;
    int b = (int)get_group_id(0);
    int seg = n / 128;
    int chunk = 32 * t;
    int best = 0, suf = 0;
    int best_lo = chunk - 1, best_hi = chunk - 1;
    int suf_lo = chunk - 1, suf_hi = chunk - 1;

    (void)unused;
    for (int it = 0; it < n / 4096; ++it) {
        for (int r = 0; r < 32; ++r) {
            int s = w + 4 * r;
            buf[32 * s + l] = v[b * n + s * seg + 32 * it + l];
        }
        block_base = v + b * n;
        barrier(CLK_LOCAL_MEM_FENCE);

        if (t < 128) {
            best_lo = best_hi = suf_lo = suf_hi = chunk - 1;
            for (int m = 0; m < 32; ++m) {
                int x = buf[chunk + m];
                if (suf >= 0) {
                    suf += x;
                    suf_hi = chunk + m;
                    if (suf > best) {
                        best = suf;
                        best_lo = suf_lo;
                        best_hi = suf_hi;
                    }
                } else {
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
