// Texture objects: tex1Dfetch on linear memory is a global load through the object, which
// the launch sizes like a buffer; the filtered reads of CUDA arrays (tex2D, ...) have an
// opaque layout and are reported as calls not modelled. The host side (resource and
// texture descriptors, cudaCreateTextureObject) parses.  That is the stand-in headers'
// model: against a CUDA toolkit, the object is the runtime's 64-bit handle and every
// fetch the PTX texture instruction clang's wrapper writes (tex.1d, tex.2d), which the
// model reports as unmodelled (TOOLKIT).
// RUN: env WGPERF_CUDA_PATH= %wgperf extract %s -o %t.json 2>&1 | FileCheck %s
// CHECK: warning: kernel 'blur': call to 'float tex2D<float>({{.*}})' left unresolved
// CHECK: kernel gather
// CHECK-NEXT: args    t: global cudaTextureObject_t (4 B elements), o: global float* (4 B elements), n: int (4 B)
// CHECK: memory  3 accesses: global 3 (2 loads, 1 store)
// RUN: %wgperf analyze %t.json --kernel gather --global 1024 --local 256 --arg n=1000 --buffer t=4096 \
// RUN:   | FileCheck %s --check-prefix=AN
// AN: M0 {{.*}} load   t {{.*}} 1.00 lines
// RUN: %if cuda-toolkit %{ %wgperf extract %s -o %t.tk.json 2>&1 | FileCheck %s --check-prefix=TOOLKIT %}
// TOOLKIT: warning: kernel 'blur': inline assembly 'tex.2d.v4.f32.f32 {{.*}}' {{.*}} left unmodelled
// TOOLKIT: warning: kernel 'gather': inline assembly 'tex.1d.v4.f32.s32 {{.*}}' {{.*}} left unmodelled
// TOOLKIT: kernel gather
// TOOLKIT-NEXT: args    t: cudaTextureObject_t (8 B), o: global float* (4 B elements), n: int (4 B)
#include <cuda_runtime.h>
#include <string.h>
__global__ void gather(cudaTextureObject_t t, float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = tex1Dfetch<float>(t, i) + tex1Dfetch<float>(t, i + 1);
}
__global__ void blur(cudaTextureObject_t t, float *o, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) o[y * w + x] = tex2D<float>(t, x + 0.5f, y + 0.5f);
}
int main() {
  float *d; cudaMalloc(&d, 1024 * sizeof(float));
  cudaResourceDesc rd; memset(&rd, 0, sizeof rd);
  rd.resType = cudaResourceTypeLinear; rd.res.linear.devPtr = d;
  rd.res.linear.desc = cudaCreateChannelDesc<float>(); rd.res.linear.sizeInBytes = 4096;
  cudaTextureDesc td; memset(&td, 0, sizeof td); td.readMode = cudaReadModeElementType;
  cudaTextureObject_t tex = 0; cudaCreateTextureObject(&tex, &rd, &td, NULL);
  gather<<<4, 256>>>(tex, d, 1000);
  cudaDestroyTextureObject(tex);
  return 0;
}
