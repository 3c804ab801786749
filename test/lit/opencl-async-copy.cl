// async_work_group_copy, async_work_group_strided_copy, wait_group_events and prefetch
// (opencl_compat.h), as a GPU runs them: the work-items of the group copy together (the one
// with linear local id L copies elements L, L + S, L + 2S, ... of a group of S), and
// wait_group_events is the group's barrier.  The model has the copy's global loads and
// local stores (or local loads and global stores) and the barrier; prefetch moves nothing.
// RUN: %wgperf extract %s -o %t.json --print 2>&1 | FileCheck %s
// RUN: %wgperf analyze %t.json --kernel stencil --global 65536 --local 256 --local-mem tile=1032 \
// RUN:   | FileCheck %s --check-prefix=AN
// RUN: %wgperf analyze %t.json --kernel column_to_row --global 64,64 --local 16,16 --arg w=16 --arg h=1024 \
// RUN:   --local-mem col=4096 --buffer in=65536 --buffer out=65536 \
// RUN:   | FileCheck %s --check-prefix=AN2
// RUN: %wgperf predict %t.json --kernel stencil --global 65536 --local 256 --local-mem tile=1032 | FileCheck %s --check-prefix=PRED
// CHECK-NOT: warning
// CHECK-NOT: call

// Each 16 x 16 group gathers one column of an h x w matrix into local memory with the
// strided copy (h elements w apart) and writes it out as a row with the plain copy.  Every
// work-item of the group takes part (linear id lid.x + 16 lid.y): h = 1024 elements are
// 4 rounds of the group's 8 warps, 32 warp-accesses a copy, 512 for the 16 groups.  The
// gather is uncoalesced (32 sectors a request), the row store is not (4).
// CHECK-LABEL: kernel column_to_row
// CHECK: mem M0 load global 4B {{.*}}base=arg:in
// CHECK: mem M1 store local 4B {{.*}}base=arg:col
// CHECK: mem M2 load local 4B {{.*}}base=arg:col
// CHECK: mem M3 store global 4B {{.*}}base=arg:out
// CHECK: totals: {{.*}}barrier=2
// AN2: barrier=256
// AN2: M0 {{.*}}global   load   in               4          512 32.00 sectors
// AN2: M1 {{.*}}local    store  col              4          512
// AN2: M2 {{.*}}local    load   col              4          512
// AN2: M3 {{.*}}global   store  out              4          512 4.00 sectors
// AN2-NOT: unresolved
__kernel void column_to_row(__global const float *in, __global float *out, __local float *col, int w, int h) {
  size_t c = get_group_id(1) * get_num_groups(0) + get_group_id(0);
  prefetch(in + c, h);
  event_t e = async_work_group_strided_copy(col, in + c, h, w, 0);
  wait_group_events(1, &e);
  e = async_work_group_copy(out + c * h, col, h, 0);
  wait_group_events(1, &e);
}

// A 3-point stencil whose group first copies its 258 inputs to local memory.
// CHECK-LABEL: kernel stencil
// CHECK: loop L0
// CHECK: mem M0 load global 4B {{.*}}base=arg:in {{.*}} affine
// CHECK: mem M1 store local 4B {{.*}}base=arg:tile {{.*}} affine
// CHECK: mem M5 store global 4B {{.*}}base=arg:out
// CHECK: totals: {{.*}}barrier=1
// 256 groups of 8 warps: 258 elements a group, so 9 warp-loads of the copy (the last
// for 2 lanes); then the three local loads of the stencil.
// AN: barrier=2048
// AN: M0 {{.*}}global   load   in               4         2304
// AN: M1 {{.*}}local    store  tile             4         2304
// AN: M2 {{.*}}local    load   tile             4         2048
// AN-NOT: unresolved
// AN-NOT: fallback
// PRED: kernel stencil on NVIDIA H100 SXM
__kernel void stencil(__global const float *in, __global float *out, __local float *tile) {
  size_t g = get_group_id(0), l = get_local_id(0), n = get_local_size(0);
  event_t e = async_work_group_copy(tile, in + g * n, n + 2, 0);
  wait_group_events(1, &e);
  out[g * n + l] = tile[l] + tile[l + 1] + tile[l + 2];
}
