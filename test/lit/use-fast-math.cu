// Fast math: nvcc's -use_fast_math (clang's -ffast-math; wgtune passes a T1
// file's -use_fast_math so) makes float division and square roots NVIDIA's
// approximate instructions (div.approx.f32, sqrt.approx.f32: the function's
// "unsafe-fp-math", as the NVPTX back end reads it) and the functions nvcc
// replaces by their intrinsics (expf -> __expf, sinf -> __sinf, powf ->
// __powf) one MUFU with at most a multiply beside (sfu_fast).  nvcc 13's PTX
// of this kernel with -use_fast_math: ex2.approx, div.approx, sqrt.approx,
// rsqrt.approx; without it the IEEE sequences.  Double precision and the
// functions nvcc keeps (erff) stay what they are.
// RUN: %clang_cu -O2 -g -c -emit-llvm -fpass-plugin=%plugin %s -o %t.precise.bc
// RUN: %opt -load-pass-plugin=%plugin -passes='print<wgperf>' -disable-output %t.precise.bc | FileCheck %s --check-prefix=PRECISE
// RUN: %clang_cu -O2 -g -c -emit-llvm -ffast-math -fgpu-flush-denormals-to-zero -fpass-plugin=%plugin %s -o %t.fast.bc
// RUN: %opt -load-pass-plugin=%plugin -passes='print<wgperf>' -disable-output %t.fast.bc | FileCheck %s --check-prefix=FAST
// nvcc's spelling after wgperf's '--' is clang's -ffast-math (clang itself
// would read '-u se_fast_math', a linker option, and leave it unused):
// RUN: %wgperf extract %s -o %t.json --print -- -use_fast_math 2>&1 | FileCheck %s --check-prefix=NVCC
// NVCC-NOT: warning
// NVCC: totals:
// NVCC-NOT: fp32_div
// NVCC-SAME: sfu_fast=4

extern "C" __global__ void maths(float *out, const float *a, const float *b, double *d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = expf(a[i]) / b[i] + sqrtf(b[i]) + sinf(a[i]) + powf(a[i], b[i]) + erff(b[i]);
  d[i] = d[i] / (double)a[i];
}

// PRECISE-LABEL: kernel maths (cuda)
// PRECISE: fp32_div=1 {{.*}}fp64_div=1 {{.*}}sfu_exp=2 sfu_pow=1 sfu_sin=1 sfu_sqrt=1
// FAST-LABEL: kernel maths (cuda)
// FAST-NOT: fp32_div
// FAST: fp64_div=1 {{.*}}sfu_exp=1 sfu_fast=4 sfu_rsqrt=1
