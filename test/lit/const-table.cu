// A function's constant table, `int reversed[] = {...}`, read at a place a loop
// that is not fully unrolled computes: clang makes it a module constant of the
// generic space (@__const._Z3revi.reversed), as in BAT's FFT (rev_8) where a
// store loop's unroll factor is below 8.  The model lists it among the kernel's
// arrays, in global memory where its accesses are; before, every such model was
// refused ("access M0: base: array '__const...' is not among the kernel's
// arrays"), and wgtune could rank none of those configurations.
// RUN: rm -f %t.json && env WGPERF_PTXAS= %wgperf extract %s -o %t.json | FileCheck %s --check-prefix=EXTRACT
// EXTRACT: arrays  __const._Z3revi.reversed: global 32 B [8]
// RUN: %wgperf predict %s --global 1048576 --local 128 --buffer out=33554432 --buffer in=33554432 --gpu rtx-3090 2>&1 | FileCheck %s
// CHECK-NOT: error
// CHECK: kernel permute on NVIDIA GeForce RTX 3090
// CHECK: time
__device__ int rev(int i) {
  int reversed[] = {0, 4, 2, 6, 1, 5, 3, 7};
  return reversed[i];
}

extern "C" __global__ void permute(float *out, const float *in) {
  int b = blockIdx.x * blockDim.x * 8;
#pragma unroll 2
  for (int i = 0; i < 8; i++)
    out[b + i * blockDim.x + threadIdx.x] = in[b + rev(i) * blockDim.x + threadIdx.x];
}
