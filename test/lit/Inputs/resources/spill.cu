// Two kernels that differ only in how many accumulators a thread keeps live
// across a loop: 16 fit in registers; 320 do not fit in the 255 a thread may
// have, so NVIDIA's compiler spills some to local memory (resources.test).
#ifndef NACC
#define NACC 320
#endif

template <int N> __device__ void accumulate(float *out, const float *in, int n) {
  float acc[N];
#pragma unroll
  for (int i = 0; i < N; i++)
    acc[i] = in[threadIdx.x + i];
  for (int k = 0; k < n; k++) {
    float x = in[blockIdx.x * blockDim.x + k];
#pragma unroll
    for (int i = 0; i < N; i++)
      acc[i] = acc[i] * x + acc[(i + 7) % N];
  }
  float s = 0;
#pragma unroll
  for (int i = 0; i < N; i++)
    s += acc[i];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

extern "C" __global__ void few(float *out, const float *in, int n) { accumulate<16>(out, in, n); }
extern "C" __global__ void many(float *out, const float *in, int n) { accumulate<NACC>(out, in, n); }
