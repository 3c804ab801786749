/* dotProd: per-block partial dot product with a shared-memory tree reduction
 * (KERNELS.md section 8).
 *
 * nvprof name dotProd(float*, float*, float*, int); arguments (a, b, c, N); c receives one
 * partial sum per block, the host adds them up. Block TW*TW threads (blockDim.x must
 * equal TW*TW, a power of two), grid ceil(N/(TW*TW)); static shared memory 4*TW*TW bytes.
 *
 *   nvcc -arch=sm_90 -c -DTW=16 dotProd.cu
 */
#ifndef TW
#define TW 16
#endif
#ifndef WGP_KERNEL
#define WGP_KERNEL extern "C" __global__
#endif

WGP_KERNEL void dotProd(float *a, float *b, float *c, int N)
{
    __shared__ float cache[TW * TW];
    int tx = threadIdx.x;
    int g = blockIdx.x * blockDim.x + tx;
    float sum = 0.0f;

    /* grid-stride loop: one iteration per thread with the full grid */
    while (g < N) {
        sum += a[g] * b[g];
        g += blockDim.x * gridDim.x;
    }
    cache[tx] = sum;
    __syncthreads();

    /* active lanes form a contiguous prefix; every thread reaches every barrier */
    for (int s = blockDim.x / 2; s != 0; s /= 2) {
        if (tx < s)
            cache[tx] += cache[tx + s];
        __syncthreads();
    }
    if (tx == 0)
        c[blockIdx.x] = cache[0];
}
