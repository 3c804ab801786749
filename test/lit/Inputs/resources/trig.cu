// sinf and cosf of large arguments reduce their range on a stack array
// unless nvcc's -use_fast_math makes them __sinf and __cosf.
extern "C" __global__ void trig(float *out, const float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.0f;
  for (int k = 0; k < n; k++)
    s += sinf(a[i] * k) * cosf(a[i] + k) / powf(a[i], (float)k);
  out[i] = s;
}
