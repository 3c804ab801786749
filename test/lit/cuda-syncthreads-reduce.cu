// __syncthreads_count, __syncthreads_and and __syncthreads_or: a barrier each (one BAR.RED,
// llvm.nvvm.barrier0.popc/.and/.or) whose block-wide reduction counts as one integer
// instruction, as a warp's __reduce_*_sync does; analyze and predict see three barriers.
// RUN: %wgperf extract %s -o %t.json --print 2>&1 | FileCheck %s
// RUN: %wgperf analyze %t.json --global 65536 --local 256 --arg n=65536 | FileCheck %s --check-prefix=AN
// RUN: %wgperf predict %t.json --global 65536 --local 256 --arg n=65536 --gpu a100 | FileCheck %s --check-prefix=PRED
// CHECK-NOT: warning: kernel
// CHECK-LABEL: kernel vote_block
// CHECK-NOT: call=
// three reductions and the shifts of 2 * all and 4 * any:
// CHECK: totals: {{.*}}barrier=3 {{.*}}int_logic=5
// 2048 warps, three barriers each:
// AN: barrier=6144
// AN-NOT: unresolved
// AN: M0 {{.*}}global   load   in
// AN: M1 {{.*}}global   store  out
// PRED: kernel vote_block on NVIDIA A100
__global__ void vote_block(const float *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  int positive = __syncthreads_count(v > 0.0f);
  int all = __syncthreads_and(v < 100.0f);
  int any = __syncthreads_or(v != v);
  if (i < n)
    out[i] = positive + 2 * all + 4 * any;
}
