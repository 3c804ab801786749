// Naive matrix multiply (the validation's matMul_gpu): A's row and B's column
// advance by 4 and 4*W bytes per k-step.
extern "C" __global__ void matmul(float *P, const float *M, const float *N, int W) {
  int col = blockIdx.x * 16 + threadIdx.x;
  int row = blockIdx.y * 16 + threadIdx.y;
  float acc = 0.0f;
  for (int k = 0; k < W; ++k)
    acc += M[row * W + k] * N[k * W + col];
  P[row * W + col] = acc;
}
