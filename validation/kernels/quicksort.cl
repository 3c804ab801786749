/* quicksort: single-work-item iterative quicksort (KERNELS.md section 11). OpenCL C 1.2
 * twin of quicksort.cu: pending half-open ranges in two private int[300] arrays.
 * NDRange: global 1, local 1.
 *
 *   clang-19 -x cl -cl-std=CL1.2 -Xclang -finclude-default-header \
 *       -target nvptx64-nvidia-nvcl -S -emit-llvm quicksort.cl
 */
#define QS_STACK 300

__kernel void quicksort(__global int *v, int N)
{
    int lo[QS_STACK], hi[QS_STACK];
    int top = 0;

    lo[0] = 0;
    hi[0] = N;
    while (top >= 0) {
        int L = lo[top];
        int R = hi[top] - 1;
        if (L >= R) {
            --top;
            continue;
        }
        int pivot = v[L];
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
        lo[top + 1] = L + 1;
        hi[top + 1] = hi[top];
        hi[top] = L;
        ++top;
        if (hi[top] - lo[top] > hi[top - 1] - lo[top - 1]) {
            int a = lo[top], z = hi[top];
            lo[top] = lo[top - 1];
            hi[top] = hi[top - 1];
            lo[top - 1] = a;
            hi[top - 1] = z;
        }
    }
}
