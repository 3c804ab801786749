// CUDA vector types from cuda_compat.h: a float4 or double2 element is one
// 16-byte access as nvcc makes it; float3 is a 12-byte struct of three
// 4-byte accesses; uchar4 loads one byte of a 4-byte element.
// RUN: %clang_cu -O2 -g -c -emit-llvm %s -o %t.bc
// RUN: %opt -load-pass-plugin=%plugin -passes='print<wgperf>' -disable-output %t.bc | FileCheck %s

extern "C" __global__ void vec(const float4 *in, float4 *out, const uchar4 *c, float3 *f3, double2 *d,
                               int2 *i2, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float4 a = in[i];
  uchar4 q = c[i];
  float3 t = f3[i];
  double2 e = d[i];
  out[i] = make_float4(a.x * 2.0f, a.y + q.x, a.z + t.z, (float)e.y);
  f3[i] = make_float3(t.x, a.w, t.y);
  d[i] = make_double2(e.y, e.x);
  i2[i] = make_int2(n, i);
}

// CHECK-LABEL: kernel vec (cuda)
// CHECK:       mem M0 load global 16B block={{[0-9]+}} base=arg:in offset=(mul:nsw 16 {{.*}}) affine
// CHECK:       load global 4B {{.*}}base=arg:f3 offset=(mul:nsw 12
// CHECK:       load global 16B {{.*}}base=arg:d offset=(mul:nsw 16
// CHECK:       load global 1B {{.*}}base=arg:c offset=(mul:nsw 4
// CHECK:       store global 16B {{.*}}base=arg:out offset=(mul:nsw 16
// CHECK:       store global 16B {{.*}}base=arg:d offset=(mul:nsw 16
// CHECK:       store global 8B {{.*}}base=arg:i2 offset=(mul:nsw 8
