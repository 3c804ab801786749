// Cooperative groups (wgperf's <cooperative_groups.h>): a block's sync() is the block
// barrier, a warp tile's shuffles and cg::reduce are warp shuffles, ranks are index
// arithmetic; this_grid().sync() is a call reported as not modelled.  Against a CUDA
// toolkit's cooperative_groups.h (TOOLKIT) the same for the block and the warp tile; the
// grid's sync() is CUDA's own barrier: an atomic add the model sees, a spin on an acquire
// load and reads of the launch's environment registers it reports as unmodelled PTX.
// RUN: env WGPERF_CUDA_PATH= %wgperf extract %s -o %t.json --print 2>&1 | FileCheck %s --check-prefixes=CHECK,STANDIN
// RUN: %if cuda-toolkit %{ %wgperf extract %s -o %t.tk.json --print 2>&1 | FileCheck %s --check-prefixes=CHECK,TOOLKIT %}
// STANDIN: warning: kernel 'grid_step': call to 'cooperative_groups::grid_group::sync() const' left unresolved
// TOOLKIT: warning: kernel 'grid_step': inline assembly 'ld.acquire.gpu.u32 $0,[$1]' {{.*}}left unmodelled
// CHECK-LABEL: kernel grid_step
// TOOLKIT: atomic global 4B {{.*}}op=add
// CHECK-LABEL: kernel reduce_cg
// CHECK: totals: {{.*}}barrier=1 {{.*}}shfl=10
// RUN: %wgperf predict %t.json --kernel reduce_cg --grid 264 --block 256 --arg n=16777216 \
// RUN:   --buffer in=67108864 | FileCheck %s --check-prefix=PRED
// PRED: kernel reduce_cg on NVIDIA H100 SXM
// PRED: barrier
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__global__ void reduce_cg(const float *in, float *out, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  __shared__ float part[32];
  float v = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) v += in[i];
  v = cg::reduce(warp, v, cg::plus<float>());
  if (warp.thread_rank() == 0) part[warp.meta_group_rank()] = v;
  block.sync();
  if (block.thread_rank() < 32) {
    float w = block.thread_rank() < warp.meta_group_size() ? part[block.thread_rank()] : 0.0f;
    for (int o = 16; o > 0; o /= 2) w += warp.shfl_down(w, o);
    if (block.thread_rank() == 0) atomicAdd(out, w);
  }
}

__global__ void grid_step(float *x, int n) {
  cg::grid_group grid = cg::this_grid();
  unsigned long long i = grid.thread_rank();
  if (i < (unsigned long long)n)
    x[i] += 1.0f;
  grid.sync();
}
