// A constant-trip copy loop of 32 iterations (subSeqMax's load phase): nvcc 13.0
// issues all 32 loads (PTX: 32 ld.global), clang -O3 alone unrolls it 4x.
extern "C" __global__ void copy32(const float *v, float *o, int n) {
  __shared__ float buf[4096];
  int l = threadIdx.x;
  for (int r = 0; r < 32; ++r)
    buf[(r * 32 + l) & 4095] = v[r * n + l];
  __syncthreads();
  o[l] = buf[(l * 3) & 4095];
}
