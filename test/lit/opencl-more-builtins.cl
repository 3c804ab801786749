// OpenCL C 1.2 built-ins that used to be left as unresolved calls: sinpi, cospi, tanpi,
// asinpi/acospi/atanpi/atan2pi, rootn, native_recip and half_recip, ilogb, maxmag/minmag,
// nan, the relational isequal ... isnormal (classed by name, as the other math built-ins
// are); shuffle and shuffle2 (opencl_compat.h: with a constant mask one shufflevector,
// register naming that costs nothing); get_work_dim and get_global_offset (launch values).
// RUN: %wgperf extract %s -o %t.json --print 2>&1 | FileCheck %s
// RUN: %wgperf analyze %t.json --kernel trig --global 4096 --local 256 | FileCheck %s --check-prefix=AN
// RUN: %wgperf analyze %t.json --kernel offsets --global 4096 --local 256 | FileCheck %s --check-prefix=OFF
// CHECK-NOT: warning
// CHECK-NOT: call=

// CHECK-LABEL: kernel offsets
// get_work_dim and get_global_offset are launch values, neither a call nor memory
// CHECK: mem M0 store global 4B {{.*}}base=arg:out offset=(mul:nsw 4 gid.x)
// CHECK: totals:
// OFF-NOT: unresolved
// OFF: M0 {{.*}}global   store  out              4          128 4.00 sectors
__kernel void offsets(__global uint *out) {
  out[get_global_id(0)] = get_work_dim() + (uint)get_global_offset(0);
}

// Reversing and interleaving vectors: no arithmetic at all (the two int_logic are the
// 2 * i and 2 * i + 1 of the store addresses).
// CHECK-LABEL: kernel swizzle
// CHECK: totals: addr=3 int_logic=2 ld.global.128=1 other=2 sreg=2 st.global.128=2{{$}}
__kernel void swizzle(__global const float4 *in, __global float4 *out) {
  size_t i = get_global_id(0);
  float4 v = in[i];
  out[2 * i] = shuffle(v, (uint4)(3, 2, 1, 0));
  out[2 * i + 1] = shuffle2(v, v.wzyx, (uint4)(0, 4, 1, 5));
}

// CHECK-LABEL: kernel trig
// CHECK: totals: {{.*}}cmp_select=
// native_recip and half_recip are fast intrinsics (one MUFU.RCP each), not divisions
// CHECK-NOT: fp32_div
// CHECK-SAME: sfu_cos=1 sfu_fast=2 sfu_log=1 sfu_pow=1 sfu_rsqrt=1 sfu_sin=1 {{.*}}sfu_tan=5
// AN-NOT: unresolved
// 128 warps of 5 each:
// AN: sfu_tan=640
__kernel void trig(__global const float *in, __global float *out, __global int *flags) {
  size_t i = get_global_id(0);
  float x = in[i];
  out[i] = sinpi(x) + cospi(x) + tanpi(x) + asinpi(x) + acospi(x) + atanpi(x) + atan2pi(x, 2.0f) +
           rootn(x, 3) + native_recip(x) + half_recip(x + 1.0f) + native_rsqrt(x) + maxmag(x, 1.0f) +
           minmag(x, -1.0f) + (float)ilogb(x) + nan(1u);
  flags[i] = isequal(x, 1.0f) | isgreater(x, 0.0f) << 1 | isnormal(x) << 2 | isunordered(x, x) << 3;
}
