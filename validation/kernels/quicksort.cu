/* quicksort: single-thread iterative quicksort (KERNELS.md section 11).
 *
 * nvprof name quicksort(int*, int); arguments (v, N). Launch 1 block of 1 thread (the
 * original also requests 128 B of dynamic shared memory that it never uses).
 * The pending ranges live in two local int[300] arrays (local memory), as half-open
 * ranges [lo, hi). Pushing the smaller part on top bounds the depth by log2(N) + 1, far
 * below 300; the depth check only makes an impossible overflow stop instead of writing
 * out of bounds (the array is then left unsorted and the host's check fails).
 *
 *   nvcc -arch=sm_90 -c quicksort.cu
 */
#ifndef WGP_KERNEL
#define WGP_KERNEL extern "C" __global__
#endif

#define QS_STACK 300

WGP_KERNEL void quicksort(int *v, int N)
{
    int lo[QS_STACK], hi[QS_STACK];
    int top = 0;

    lo[0] = 0;
    hi[0] = N;
    while (top >= 0) {
        int L = lo[top];
        int R = hi[top] - 1;
        if (L >= R) { /* zero or one element: pop */
            --top;
            continue;
        }
        int pivot = v[L]; /* v[L] is now a hole */
        while (L < R) {
            while (v[R] >= pivot && L < R)
                --R;
            if (L < R)
                v[L++] = v[R];
            while (v[L] < pivot && L < R)
                ++L;
            if (L < R)
                v[R--] = v[L];
        }
        v[L] = pivot;
        if (top + 1 >= QS_STACK)
            return;
        /* the top entry keeps the left part, the right part is pushed */
        lo[top + 1] = L + 1;
        hi[top + 1] = hi[top];
        hi[top] = L;
        ++top;
        /* keep the larger part below so that the smaller one is sorted first */
        if (hi[top] - lo[top] > hi[top - 1] - lo[top - 1]) {
            int a = lo[top], z = hi[top];
            lo[top] = lo[top - 1];
            hi[top] = hi[top - 1];
            lo[top - 1] = a;
            hi[top - 1] = z;
        }
    }
}
