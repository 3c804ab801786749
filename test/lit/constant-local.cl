// __constant and __local pointer arguments plus a program-scope __constant table.
// RUN: %clang_cl -O2  -g -c -emit-llvm %s -o %t.bc
// RUN: %opt -load-pass-plugin=%plugin -passes='print<wgperf>' -disable-output %t.bc | FileCheck %s

__constant float weights[4] = {0.1f, 0.2f, 0.3f, 0.4f};
__kernel void constlocal(__global const float *in, __global float *out,
                         __constant float *coef, __local float *tmp) {
  int l = get_local_id(0);
  int g = get_global_id(0);
  tmp[l] = in[g] * coef[0];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[g] = tmp[(l + 1) % get_local_size(0)] + weights[l & 3];
}

// CHECK-LABEL: kernel constlocal (opencl)
// CHECK-NEXT:  arg 0 in: pointer global 'float*' elem=4 (type) const
// CHECK-NEXT:  arg 1 out: pointer global 'float*' elem=4 (type){{$}}
// CHECK-NEXT:  arg 2 coef: pointer constant 'float*' elem=4 (type) const
// CHECK-NEXT:  arg 3 tmp: pointer local 'float*' elem=4 (type){{$}}
// CHECK-NEXT:  array weights: constant 16 bytes, elem=4 dims=4 initialized
// CHECK-NEXT:  block 0 entry {{.*}}barrier=1 {{.*}}int64_div=1 {{.*}}ld.constant.32=2 ld.global.32=1 ld.local.32=1 other=2 sreg=2 st.global.32=1 st.local.32=1 -> - exit
// CHECK-NEXT:  mem M0 load global 4B block=0 base=arg:in offset=(mul:nsw 4 (sext:32:64 (trunc:64:32 gid.x))) affine
// CHECK-NEXT:  mem M1 load constant 4B block=0 base=arg:coef offset=0 affine
// CHECK-NEXT:  mem M2 store local 4B block=0 base=arg:tmp offset=(sext:34:64 (mul:34 4 (trunc:64:34 lid.x))) affine
// tmp[(l+1) % get_local_size(0)]: the urem is written as x - (x udiv lsz)*lsz;
// modulo by a launch size is affine once the launch is fixed.
// CHECK-NEXT:  mem M3 load local 4B block=0 base=arg:tmp offset=(add (mul:nsw 4 (sext:32:64 (add:32 1 (trunc:64:32 lid.x)))) (mul -4 (udiv (sext:32:64 (add:32 1 (trunc:64:32 lid.x))) lsz.x) lsz.x)) affine
// CHECK-NEXT:  mem M4 load constant 4B block=0 base=array:weights offset=(mul:nsw:nuw 4 (zext:2:64 (trunc:64:2 lid.x))) affine
// CHECK-NEXT:  mem M5 store global 4B block=0 base=arg:out offset=(mul:nsw 4 (sext:32:64 (trunc:64:32 gid.x))) affine
