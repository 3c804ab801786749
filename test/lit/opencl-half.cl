// vload_halfN / vstore_halfN (OpenCL 1.2 core, no cl_khr_fp16): 16-bit loads and stores
// with a conversion per element, at the element offsets the OpenCL spec gives (vload_half4
// reads 4 halves from p + 4*i, vstorea_half3 writes 3 at p + 4*i); every address space.
// RUN: %wgperf extract %s -o %t.json --print | FileCheck %s
// (kernels print in name order)
// CHECK-LABEL: kernel narrow
// CHECK: conv=
// CHECK: st.local.16=1
// CHECK: mem {{M[0-9]+}} store global 2B block=0 base=arg:out offset=(sext:35:64 (mul:35 8
// CHECK-LABEL: kernel widen
// CHECK: mem M0 load global 2B block=0 base=arg:in offset=(sext:35:64 (mul:35 8 (trunc:64:35 gid.x)))
// CHECK: mem M1 load global 2B {{.*}}offset=(add:nsw:nuw 2 (sext:35:64 (mul:35 8 (trunc:64:35 gid.x))))
// CHECK: mem M2 load global 2B {{.*}}offset=(add:nsw:nuw 4 (sext:35:64 (mul:35 8 (trunc:64:35 gid.x))))
// CHECK: mem M3 load global 2B {{.*}}offset=(add:nsw:nuw 6 (sext:35:64 (mul:35 8 (trunc:64:35 gid.x))))
// RUN: %wgperf predict %t.json --kernel widen --global 65536 --local 256 | FileCheck %s --check-prefix=PRED
// PRED: kernel widen on

__kernel void widen(__global const half *in, __global float4 *out) {
  int i = get_global_id(0);
  out[i] = vload_half4(i, in);
}

__kernel void narrow(__global const float *in, __global half *out, __local half *tile) {
  int i = get_global_id(0), l = get_local_id(0);
  vstore_half_rtz(in[i], l, tile);
  barrier(CLK_LOCAL_MEM_FENCE);
  float3 v = (float3)(vload_half(l, tile), in[i] * 2.0f, 1.0f);
  vstorea_half3(v, i, out);
}
