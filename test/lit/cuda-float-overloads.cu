// cuda_compat.h overloads the plain math names for float as CUDA's headers
// do: sqrt(float) is single precision (no fp64 work), and abs(int) exists.  The C
// functions are clang's (__clang_cuda_math.h), calls of libdevice's __nv_* functions
// that the plugin, loaded into clang as `wgperf extract` does, marks as touching no
// memory before the optimizer runs (wgperf-libdevice-attrs).
// RUN: env WGPERF_OUTPUT=%t.model.json %clang_cu -O2 -g -c -emit-llvm -fpass-plugin=%plugin %s -o %t.bc
// RUN: %opt -load-pass-plugin=%plugin -passes='print<wgperf>' -disable-output %t.bc | FileCheck %s

extern "C" __global__ void overloads(float *a, int *b, double *d) {
  int i = threadIdx.x;
  a[i] = sqrt(a[i]) + fabs(a[i]) + exp(a[i]) + pow(a[i], 0.5f);
  b[i] = abs(b[i]);
  d[i] = sqrt(d[i]);
}

// CHECK-LABEL: kernel overloads (cuda)
// only the double sqrt is fp64
// CHECK:       block 0 entry {{.*}}: {{.*}}fp32_add=4 fp64_special=1 {{.*}}sfu_exp=1 sfu_pow=1 sfu_sqrt=1 {{.*}}-> - exit
// the __nv_* calls touch no memory: a[i] is loaded once
// CHECK:       mem M0 load global 4B {{.*}}base=arg:a
// CHECK-NEXT:  mem M1 store global 4B {{.*}}base=arg:a
// CHECK:       mem M4 load global 8B
