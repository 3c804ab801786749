/* cacheop_kernels.cu - the kernels of bench_cacheop (bench_cacheop.cu), in a file of
 * their own so that wgperf predicts exactly what the GPU times:
 *
 *   build/bin/wgperf predict microbench/cuda/cacheop_kernels.cu --kernel reuse_cg \
 *       --grid 4096 --block 256 --arg n=1048576 --gpu h200
 *
 * Each thread sums 16 floats 256 B apart; the warps of a block read each other's
 * lines (thread i reads in[i + 64 j]), so with the default .ca most loads hit L1, with
 * .cg every load goes to L2, and .cs (evict-first) keeps what .ca keeps where nothing
 * else competes for L1.  The loads are inline PTX with the cache operator, as
 * sm_32_intrinsics.h writes __ldca, __ldcg and __ldcs (docs/kernel-model.md, "Cache
 * operators"). */

#define WGB_REUSE_KERNEL(OP)                                                       \
  extern "C" __global__ void reuse_##OP(float *out, const float *in, int n) {      \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                                 \
    if (i >= n)                                                                    \
      return;                                                                      \
    float s = 0;                                                                   \
    _Pragma("unroll") for (int j = 0; j < 16; j++) {                               \
      float v;                                                                     \
      asm volatile("ld.global." #OP ".f32 %0, [%1];" : "=f"(v) : "l"(in + i + j * 64)); \
      s += v;                                                                      \
    }                                                                              \
    out[i] = s;                                                                    \
  }

WGB_REUSE_KERNEL(ca)
WGB_REUSE_KERNEL(cg)
WGB_REUSE_KERNEL(cs)
