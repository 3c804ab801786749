// Tree reduction in local memory: the stride halves each iteration (recurrence).
// RUN: %clang_cl -O2  -g -c -emit-llvm %s -o %t.bc
// RUN: %opt -load-pass-plugin=%plugin -passes='print<wgperf>' -disable-output %t.bc | FileCheck %s

__kernel void reduce(__global const float *in, __global float *out, __local float *scratch) {
  unsigned lid = get_local_id(0);
  scratch[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (unsigned s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (lid < s)
      scratch[lid] += scratch[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    out[get_group_id(0)] = scratch[0];
}

// s starts at lsz/2 and halves: ScalarEvolution cannot count it, the
// recurrence fallback gives the exact count per launch.
// CHECK-LABEL: kernel reduce (opencl)
// CHECK:       arg 2 scratch: pointer local 'float*' elem=4 (type)
// CHECK:       block 0 entry {{.*}}barrier=1 {{.*}}ld.global.32=1 other=1 sreg=2 st.local.32=1 -> 3,1
// CHECK-NEXT:    branch uniform: (eq:32 (trunc:64:32 (udiv lsz.x 2)) 0) ? 3 : 1
// CHECK:       block 3 {{.*}}-> 7,8
// CHECK-NEXT:    branch work-item: (eq:32 (trunc:64:32 lid.x) 0) ? 7 : 8
// CHECK-NEXT:  block 4 for.body loop=L0 {{.*}}-> 5,6
// CHECK-NEXT:    branch loop-variable: (ugt:32 rv.L0.0 (trunc:64:32 lid.x)) ? 5 : 6
// CHECK-NEXT:  block 5 if.then loop=L0 {{.*}}fp32_add=1 {{.*}}ld.local.32=2 st.local.32=1 -> 6
// CHECK-NEXT:  block 6 if.end loop=L0 {{.*}}barrier=1 {{.*}}-> 2,4 back=4
// CHECK-NEXT:    branch loop-variable: (ult:32 rv.L0.0 2) ? 2 : 4
// CHECK:       loop L0 header=4 depth=1 blocks=4,5,6 latches=6 exiting=6
// CHECK-NEXT:    trip recurrence: -
// CHECK-NEXT:    reason: {{.*}}
// CHECK-NEXT:    recurrence rv.L0.0 = (trunc:64:32 (udiv lsz.x 2)) then (udiv:32 rv.L0.0 2)
// CHECK-NEXT:    exit at 6 when (ult:32 rv.L0.0 2)
// CHECK-NEXT:  mem M0 load global 4B block=0 base=arg:in offset=(mul:nsw 4 gid.x) affine
// CHECK-NEXT:  mem M1 store local 4B block=0 base=arg:scratch offset=(mul:nsw:nuw 4 (zext:32:64 (trunc:64:32 lid.x))) affine
// CHECK-NEXT:  mem M2 load local 4B block=5 base=arg:scratch offset=(mul:nsw:nuw 4 (zext:32:64 (add:32 (trunc:64:32 lid.x) rv.L0.0)))
// CHECK-NEXT:  mem M3 load local 4B block=5 base=arg:scratch offset=(mul:nsw:nuw 4 (zext:32:64 (trunc:64:32 lid.x))) affine
// CHECK-NEXT:  mem M4 store local 4B block=5 base=arg:scratch offset=(mul:nsw:nuw 4 (zext:32:64 (trunc:64:32 lid.x))) affine
// CHECK-NEXT:  mem M5 load local 4B block=7 base=arg:scratch offset=0 affine
// CHECK-NEXT:  mem M6 store global 4B block=7 base=arg:out offset=(mul:nsw 4 grp.x) affine
// CHECK-NEXT:  totals: {{.*}}barrier=2 {{.*}}
