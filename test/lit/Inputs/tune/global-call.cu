// scale.cu's signature, calling a __global__ function from a __global__ one,
// which CUDA does not allow: clang's error alone ("no matching function") does
// not say why, its note does (tune-warnings.test).
__global__ void scale_one(float *out, const float *in, float a) { out[threadIdx.x] = a * in[threadIdx.x]; }

extern "C" __global__ void scale(float *out, const float *in, int n, float a) {
  scale_one(out, in, a);
}
