/* external_call: a kernel calling a __device__ function from another
 * translation unit (relocatable device code, nvcc -rdc=true); CUDA twin of
 * external_call.cl.  Blocks of 256 threads. */
extern __device__ float user_activation(float x);

extern "C" __global__ void bias_activate(float *y, const float *bias, int features, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = user_activation(y[i] + bias[i % features]);
}
