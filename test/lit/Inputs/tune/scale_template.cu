// scale.cu's kernel as a template over its element type, and nothing that
// instantiates it: wgtune (KTT's KernelTypeNames, or a KernelName with its
// template arguments) and wgperf (--kernel 'scale<float>') instantiate the
// instance they are asked for, as Kernel Tuner's and KTT's NVRTC name
// expressions do (tune-templates.test, cuda-template-instances.test).
#ifndef block_size_x
#define block_size_x 64
#endif
#ifndef elems
#define elems 1
#endif
#ifndef variant
#define variant 0
#endif

template <typename T>
__global__ void scale(T *out, const T *in, int n, T a) {
  __shared__ T stage[block_size_x * elems * 32];
#pragma unroll
  for (int e = 0; e < elems; e++) {
#if variant == 2
    int i = (blockIdx.x * block_size_x + threadIdx.x) * elems + e;
#else
    int i = blockIdx.x * block_size_x * elems + e * block_size_x + threadIdx.x;
#endif
    stage[(e * block_size_x + threadIdx.x) * 32] = i < n ? in[i] : T(0);
  }
  __syncthreads();
#pragma unroll
  for (int e = 0; e < elems; e++) {
#if variant == 2
    int i = (blockIdx.x * block_size_x + threadIdx.x) * elems + e;
#else
    int i = blockIdx.x * block_size_x * elems + e * block_size_x + threadIdx.x;
#endif
    if (i < n)
      out[i] = a * stage[(e * block_size_x + threadIdx.x) * 32];
  }
}

// The block size as a template argument: Kernel Tuner's spaces name the
// instance with the parameter, scale_bs<float, block_size_x>, which the
// parameter's #define makes scale_bs<float, 64>, ...
template <typename T, int BS>
__global__ void scale_bs(T *out, const T *in, int n, T a) {
  __shared__ T stage[BS * elems * 32];
#pragma unroll
  for (int e = 0; e < elems; e++) {
#if variant == 2
    int i = (blockIdx.x * BS + threadIdx.x) * elems + e;
#else
    int i = blockIdx.x * BS * elems + e * BS + threadIdx.x;
#endif
    stage[(e * BS + threadIdx.x) * 32] = i < n ? in[i] : T(0);
  }
  __syncthreads();
#pragma unroll
  for (int e = 0; e < elems; e++) {
#if variant == 2
    int i = (blockIdx.x * BS + threadIdx.x) * elems + e;
#else
    int i = blockIdx.x * BS * elems + e * BS + threadIdx.x;
#endif
    if (i < n)
      out[i] = a * stage[(e * BS + threadIdx.x) * 32];
  }
}
