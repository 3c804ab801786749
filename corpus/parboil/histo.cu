/* histo: saturating image histogram (Parboil histo pattern); CUDA twin of
 * histo.cl.  histo_main: 42 blocks of 768; histo_final: 4096 threads. */
#define BINS 4096

extern "C" __global__ void histo_main(const unsigned *img, int size, unsigned *global_histo)
{
    __shared__ unsigned sub[BINS];
    int t = threadIdx.x;
    int lsz = blockDim.x;
    for (int b = t; b < BINS; b += lsz)
        sub[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < size; i += gridDim.x * blockDim.x)
        atomicAdd(&sub[img[i] % BINS], 1u);
    __syncthreads();
    for (int b = t; b < BINS; b += lsz) {
        unsigned c = sub[b];
        if (c)
            atomicAdd(&global_histo[b], c);
    }
}

extern "C" __global__ void histo_final(const unsigned *global_histo, unsigned char *final_histo)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v = global_histo[i];
    final_histo[i] = (unsigned char)min(v, 255u);
}
