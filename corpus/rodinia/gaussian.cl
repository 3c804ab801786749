/* gaussian: forward elimination of Gaussian elimination, one pivot t per
 * launch pair (the pattern of Rodinia's gaussian).  fan1 computes the
 * multipliers of column t (1-D, the active range shrinks with t); fan2
 * updates the trailing submatrix (2-D, guarded by t) and the right-hand
 * side from its first column.  1024x1024 matrix, pivot t = 512. */
__kernel void fan1(__global float *m, __global const float *a, int size, int t)
{
    int i = get_global_id(0);
    if (i >= size - 1 - t)
        return;
    m[size * (i + t + 1) + t] = a[size * (i + t + 1) + t] / a[size * t + t];
}

__kernel void fan2(__global const float *m, __global float *a, __global float *b, int size, int t)
{
    int xidx = get_global_id(0);
    int yidx = get_global_id(1);
    if (xidx >= size - 1 - t || yidx >= size - t)
        return;
    a[size * (xidx + 1 + t) + (yidx + t)] -= m[size * (xidx + 1 + t) + t] * a[size * t + (yidx + t)];
    if (yidx == 0)
        b[xidx + 1 + t] -= m[size * (xidx + 1 + t) + (yidx + t)] * b[t];
}
