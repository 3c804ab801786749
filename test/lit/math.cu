// CUDA math functions map to special-function classes; double sin is fp64_special.
// RUN: %clang_cu -O2  -g -c -emit-llvm %s -o %t.bc
// RUN: %opt -load-pass-plugin=%plugin -passes='print<wgperf>' -disable-output %t.bc | FileCheck %s

__global__ void mathfn(float *a, double *d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = a[i];
  a[i] = sqrtf(x) + sinf(x) + expf(x) + powf(x, 2.5f) + rsqrtf(x);
  d[i] = sin(d[i]);
}

// CHECK-LABEL: kernel mathfn (cuda)
// CHECK:       block 0 entry {{.*}}: {{.*}}fp32_add=4 fp64_special=1 {{.*}}sfu_exp=1 sfu_pow=1 sfu_rsqrt=1 sfu_sin=1 sfu_sqrt=1 {{.*}}-> - exit
// CHECK-NOT:   call
// CHECK:       mem M0 load global 4B block=0 base=arg:a offset=(mul:nsw 4 (sext:32:64 (add:32 (mul:32 grp.x lsz.x) lid.x))) affine
// CHECK:       mem M2 load global 8B block=0 base=arg:d offset=(mul:nsw 8 (sext:32:64 (add:32 (mul:32 grp.x lsz.x) lid.x))) affine
// CHECK-NOT:   warning

// The rest of CUDA's math library (with the host's <cmath> included, as a
// program does): every function a class, no unresolved call, no warning.
// RUN: %opt -load-pass-plugin=%plugin -passes='print<wgperf>' -disable-output %t.bc 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MORE
// MORE-LABEL: kernel morefn (cuda)
// MORE: totals: {{.*}}sfu_exp=6 sfu_log=5 sfu_pow=1 sfu_sin=1 sfu_sqrt=1 sfu_tan=3
// MORE-NOT: call=
// MORE-NOT: warning
#include <cmath>
__global__ void morefn(float *a, double *d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = a[i], s, c;
  sincosf(x, &s, &c);
  a[i] = erff(x) + erfcf(x) + sinhf(x) + coshf(x) + asinhf(x) + acoshf(x) + atanhf(x) + asinf(x) + acosf(x) +
         atan2f(x, s) + hypotf(x, c) + cbrtf(x) + expm1f(x) + log1pf(x) + lgammaf(x) + tgammaf(x) +
         fmodf(x, 2.0f) + fdimf(x, s) + copysignf(x, c) + ldexpf(x, 3) + rintf(x) + s + c;
}
