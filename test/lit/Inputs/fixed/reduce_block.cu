// A block reduction written for one block size: BLOCK is a template
// parameter, blockDim.x is never read (a common CUDA idiom).
template <int BLOCK>
__global__ void __launch_bounds__(BLOCK) reduce_block(const float *in, float *out, long n)
{
    __shared__ float part[BLOCK];
    float s = 0.f;
    for (long i = blockIdx.x * (long)BLOCK + threadIdx.x; i < n; i += (long)gridDim.x * BLOCK)
        s += in[i];
    part[threadIdx.x] = s;
    __syncthreads();
    for (int o = BLOCK / 2; o > 0; o >>= 1) {
        if (threadIdx.x < o)
            part[threadIdx.x] += part[threadIdx.x + o];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        atomicAdd(out, part[0]);
}

// The same written for any block size.
__global__ void reduce_any(const float *in, float *out, long n)
{
    extern __shared__ float part[];
    float s = 0.f;
    for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x)
        s += in[i];
    part[threadIdx.x] = s;
    __syncthreads();
    for (int o = blockDim.x / 2; o > 0; o >>= 1) {
        if (threadIdx.x < o)
            part[threadIdx.x] += part[threadIdx.x + o];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        atomicAdd(out, part[0]);
}

template __global__ void reduce_block<256>(const float *, float *, long);
