// Compiles only against the CUDA runtime headers of version WANT.
#include <cuda_runtime.h>
#if CUDART_VERSION != WANT
#error "cuda_runtime_api.h is not the chosen toolkit's"
#endif
__global__ void stamp(int *out) { out[threadIdx.x] = CUDART_VERSION; }
