/* lud: blocked LU decomposition, one block step (Rodinia lud pattern);
 * CUDA twin of lud.cl.  lud_diagonal: 1 block of 16; lud_perimeter: blocks
 * of 32; lud_internal: blocks of 16x16. */
#define BS 16

extern "C" __global__ void lud_diagonal(float *m, int matrix_dim, int offset)
{
    __shared__ float shadow[BS][BS];
    int tx = threadIdx.x;
    int array_offset = offset * matrix_dim + offset;
    for (int i = 0; i < BS; i++) {
        shadow[i][tx] = m[array_offset + tx];
        array_offset += matrix_dim;
    }
    __syncthreads();
    for (int i = 0; i < BS - 1; i++) {
        if (tx > i) {
            for (int j = 0; j < i; j++)
                shadow[tx][i] -= shadow[tx][j] * shadow[j][i];
            shadow[tx][i] /= shadow[i][i];
        }
        __syncthreads();
        if (tx > i) {
            for (int j = 0; j < i + 1; j++)
                shadow[i + 1][tx] -= shadow[i + 1][j] * shadow[j][tx];
        }
        __syncthreads();
    }
    array_offset = (offset + 1) * matrix_dim + offset;
    for (int i = 1; i < BS; i++) {
        m[array_offset + tx] = shadow[i][tx];
        array_offset += matrix_dim;
    }
}

extern "C" __global__ void lud_perimeter(float *m, int matrix_dim, int offset)
{
    __shared__ float dia[BS][BS];
    __shared__ float peri_row[BS][BS];
    __shared__ float peri_col[BS][BS];
    int bx = blockIdx.x;
    int tx = threadIdx.x;
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
    __syncthreads();

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
    __syncthreads();

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

extern "C" __global__ void lud_internal(float *m, int matrix_dim, int offset)
{
    __shared__ float peri_row[BS][BS];
    __shared__ float peri_col[BS][BS];
    int bx = blockIdx.x, by = blockIdx.y;
    int tx = threadIdx.x, ty = threadIdx.y;
    int global_row_id = offset + (by + 1) * BS;
    int global_col_id = offset + (bx + 1) * BS;

    peri_row[ty][tx] = m[(offset + ty) * matrix_dim + global_col_id + tx];
    peri_col[ty][tx] = m[(global_row_id + ty) * matrix_dim + offset + tx];
    __syncthreads();
    float sum = 0.0f;
    for (int i = 0; i < BS; i++)
        sum += peri_col[ty][i] * peri_row[i][tx];
    m[(global_row_id + ty) * matrix_dim + global_col_id + tx] -= sum;
}
