// OpenCL's vloadN/vstoreN are memory accesses and the geometric functions
// arithmetic: include/wgperf/opencl_compat.h (force-included by wgperf
// extract) defines them, so the plugin sees each element's load and store
// and the products under a dot or a length; select, popcount, mul_hi and the
// other integer and relational built-ins are classed by name.  None is left
// an unresolved call.
// RUN: %wgperf extract %s -o %t.json --print 2> %t.err | FileCheck %s
// RUN: not grep -q "left unresolved" %t.err

// (the kernels print in name order)
// CHECK-LABEL: kernel ints
// CHECK: totals: {{.*}}cmp_select=1 int_add={{[0-9]+}} int_logic=4 int_mul=2
// CHECK-NOT: call=
__kernel void ints(__global int *c, __global uint *u) {
  int i = get_global_id(0), v = c[i];
  c[i] = popcount(v) + clz(v) + rotate(v, 3) + mul_hi(v, 7) + add_sat(v, 1) + hadd(v, 2);
  u[i] = select(1u, 2u, (uint)v) + bitselect(u[i], 3u, 5u) + mad_hi(u[i], 3u, 1u);
}

// vload4 of a global buffer: four 4-byte loads at 16 i + 0, 4, 8, 12 (the
// alignment of a float is all vload4 promises); vstore4 four stores.
// CHECK-LABEL: kernel vec
// CHECK: mem M0 load global 4B {{.*}}base=arg:b offset=(sext:36:64 (mul:36 16 (trunc:64:36 gid.x)))
// CHECK: mem M1 load global 4B {{.*}}base=arg:b offset=(add:nsw:nuw 4 (sext:36:64 (mul:36 16 (trunc:64:36 gid.x))))
// CHECK: mem M3 load global 4B {{.*}}base=arg:b offset=(add:nsw:nuw 12
// CHECK: mem M4 store global 4B {{.*}}base=arg:a offset=(sext:36:64 (mul:36 16 (trunc:64:36 gid.x)))
// CHECK: mem M7 store global 4B {{.*}}base=arg:a offset=(add:nsw:nuw 12
// dot(float4) and length(float4): their multiplies and adds, one square root
// (OpenCL's, allowed 3 ulp: one MUFU, the class of rsqrt)
// CHECK: totals: {{.*}}fp32_fma=7 {{.*}}sfu_rsqrt=1
// CHECK-NOT: call=
__kernel void vec(__global float *a, __global const float *b) {
  int i = get_global_id(0);
  float4 v = vload4(i, b);
  vstore4(v * dot(v, v) + length(v), i, a);
}
