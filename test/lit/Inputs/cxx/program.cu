// A program file with the C++ standard headers a CUDA program includes: <algorithm> and
// <vector> pull in clang's wrapper of <new>, which needs the device malloc and free.
#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <vector>
#include <cuda_runtime.h>

__global__ void clamp_scale(const float *in, float *out, int n, float lo, float hi) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = fminf(fmaxf(in[i], lo), hi) + (float)(clock64() & 1);
}

int main() {
  std::vector<float> h(1024, 1.0f);
  float *d_in, *d_out;
  cudaMalloc(&d_in, h.size() * sizeof(float));
  cudaMalloc(&d_out, h.size() * sizeof(float));
  cudaMemcpy(d_in, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice);
  clamp_scale<<<4, 256>>>(d_in, d_out, (int)h.size(), 0.0f, *std::max_element(h.begin(), h.end()));
  std::srand((unsigned)std::time(nullptr));
  cudaFree(d_in);
  cudaFree(d_out);
  return 0;
}
