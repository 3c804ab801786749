/* lud: blocked LU decomposition, one block step at `offset` (the pattern of
 * Rodinia's lud).  lud_diagonal factors the 16x16 diagonal block in local
 * memory with triangular loops whose trip counts follow the outer index;
 * lud_perimeter solves the row and column blocks of the step (the first
 * half of each group works on a row block, the second on a column block);
 * lud_internal updates the trailing matrix from two local tiles.
 * 2048x2048 matrix, offset 1024 (63 perimeter/internal blocks per side). */
#define BS 16

__kernel void lud_diagonal(__global float *m, int matrix_dim, int offset)
{
    __local float shadow[BS][BS];
    int tx = get_local_id(0);
    int array_offset = offset * matrix_dim + offset;
    for (int i = 0; i < BS; i++) {
        shadow[i][tx] = m[array_offset + tx];
        array_offset += matrix_dim;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = 0; i < BS - 1; i++) {
        if (tx > i) {
            for (int j = 0; j < i; j++)
                shadow[tx][i] -= shadow[tx][j] * shadow[j][i];
            shadow[tx][i] /= shadow[i][i];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (tx > i) {
            for (int j = 0; j < i + 1; j++)
                shadow[i + 1][tx] -= shadow[i + 1][j] * shadow[j][tx];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    array_offset = (offset + 1) * matrix_dim + offset;
    for (int i = 1; i < BS; i++) {
        m[array_offset + tx] = shadow[i][tx];
        array_offset += matrix_dim;
    }
}

__kernel void lud_perimeter(__global float *m, int matrix_dim, int offset)
{
    __local float dia[BS][BS];
    __local float peri_row[BS][BS];
    __local float peri_col[BS][BS];
    int bx = get_group_id(0);
    int tx = get_local_id(0);
    int idx;
    int array_offset;

    if (tx < BS) {
        idx = tx;
        array_offset = offset * matrix_dim + offset;
        for (int i = 0; i < BS / 2; i++) {
            dia[i][idx] = m[array_offset + idx];
            array_offset += matrix_dim;
        }
        array_offset = offset * matrix_dim + offset;
        for (int i = 0; i < BS; i++) {
            peri_row[i][idx] = m[array_offset + (bx + 1) * BS + idx];
            array_offset += matrix_dim;
        }
    } else {
        idx = tx - BS;
        array_offset = (offset + BS / 2) * matrix_dim + offset;
        for (int i = BS / 2; i < BS; i++) {
            dia[i][idx] = m[array_offset + idx];
            array_offset += matrix_dim;
        }
        array_offset = (offset + (bx + 1) * BS) * matrix_dim + offset;
        for (int i = 0; i < BS; i++) {
            peri_col[i][idx] = m[array_offset + idx];
            array_offset += matrix_dim;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    if (tx < BS) {
        idx = tx;
        for (int i = 1; i < BS; i++)
            for (int j = 0; j < i; j++)
                peri_row[i][idx] -= dia[i][j] * peri_row[j][idx];
    } else {
        idx = tx - BS;
        for (int i = 0; i < BS; i++) {
            for (int j = 0; j < i; j++)
                peri_col[idx][i] -= peri_col[idx][j] * dia[j][i];
            peri_col[idx][i] /= dia[i][i];
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    if (tx < BS) {
        idx = tx;
        array_offset = (offset + 1) * matrix_dim + offset;
        for (int i = 1; i < BS; i++) {
            m[array_offset + (bx + 1) * BS + idx] = peri_row[i][idx];
            array_offset += matrix_dim;
        }
    } else {
        idx = tx - BS;
        array_offset = (offset + (bx + 1) * BS) * matrix_dim + offset;
        for (int i = 0; i < BS; i++) {
            m[array_offset + idx] = peri_col[i][idx];
            array_offset += matrix_dim;
        }
    }
}

__kernel void lud_internal(__global float *m, int matrix_dim, int offset)
{
    __local float peri_row[BS][BS];
    __local float peri_col[BS][BS];
    int bx = get_group_id(0), by = get_group_id(1);
    int tx = get_local_id(0), ty = get_local_id(1);
    int global_row_id = offset + (by + 1) * BS;
    int global_col_id = offset + (bx + 1) * BS;

    peri_row[ty][tx] = m[(offset + ty) * matrix_dim + global_col_id + tx];
    peri_col[ty][tx] = m[(global_row_id + ty) * matrix_dim + offset + tx];
    barrier(CLK_LOCAL_MEM_FENCE);
    float sum = 0.0f;
    for (int i = 0; i < BS; i++)
        sum += peri_col[ty][i] * peri_row[i][tx];
    m[(global_row_id + ty) * matrix_dim + global_col_id + tx] -= sum;
}
