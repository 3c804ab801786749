/* stream_compact: atomic-counter stream compaction; CUDA twin of
 * stream_compact.cl.  Blocks of 256 threads. */
extern "C" __global__ void compact(const float *in, float *out, unsigned *count, float threshold, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float v = in[i];
    if (v > threshold) {
        unsigned slot = atomicAdd(count, 1u);
        out[slot] = v;
    }
}
