/* cooperative_groups.h - the thread-block and warp-tile groups of CUDA's cooperative
 * groups, for wgperf's device-side compile (clang-19 -nocudainc does not use the
 * toolkit's header).
 *
 * Each member is the primitive it stands for, so the model sees the same operations:
 * a block's sync() is __syncthreads, a tile's sync() is __syncwarp, a tile's shuffles
 * and votes are the warp primitives of cuda_compat.h (over the tile's width), ranks and
 * sizes are index arithmetic.  A grid group's sync() needs a cooperative launch whose
 * cost this model has no notion of: declared only, it is a call reported as not
 * modelled.
 */
#ifndef WGPERF_COOPERATIVE_GROUPS_H
#define WGPERF_COOPERATIVE_GROUPS_H

#ifndef WGPERF_CUDA_COMPAT_H
#include "../cuda_compat.h"
#endif

namespace cooperative_groups {

#define __WGP_CG__ __device__ __forceinline__

class thread_block {
public:
  __WGP_CG__ void sync() const { __syncthreads(); }
  __WGP_CG__ unsigned int thread_rank() const {
    return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  }
  __WGP_CG__ unsigned int size() const { return blockDim.x * blockDim.y * blockDim.z; }
  __WGP_CG__ unsigned int num_threads() const { return size(); }
  __WGP_CG__ dim3 group_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  __WGP_CG__ dim3 thread_index() const { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
  __WGP_CG__ dim3 group_dim() const { return dim3(blockDim.x, blockDim.y, blockDim.z); }
  __WGP_CG__ dim3 dim_threads() const { return group_dim(); }
};

__WGP_CG__ thread_block this_thread_block() { return thread_block(); }
__WGP_CG__ void sync(const thread_block &g) { g.sync(); }

class grid_group {
public:
  __device__ void sync() const; /* a grid-wide barrier: not modelled */
  __WGP_CG__ unsigned long long thread_rank() const {
    return (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x +
           ((unsigned long long)blockIdx.y * blockDim.y + threadIdx.y) * (unsigned long long)gridDim.x * blockDim.x;
  }
  __WGP_CG__ unsigned long long size() const {
    return (unsigned long long)gridDim.x * gridDim.y * gridDim.z * blockDim.x * blockDim.y * blockDim.z;
  }
  __WGP_CG__ unsigned long long num_threads() const { return size(); }
};
__WGP_CG__ grid_group this_grid() { return grid_group(); }

/* A tile of N consecutive threads of a block (N a power of two, at most 32). */
template <unsigned int N> class thread_block_tile {
  static_assert(N >= 1 && N <= 32 && (N & (N - 1)) == 0, "tile sizes are powers of two up to 32");

public:
  static constexpr unsigned int num_threads_v = N;
  __WGP_CG__ unsigned int __mask() const {
    return N == 32 ? 0xffffffffu : ((1u << N) - 1) << ((threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) % 32 / N * N);
  }
  __WGP_CG__ void sync() const { __syncwarp(__mask()); }
  __WGP_CG__ unsigned int thread_rank() const {
    return (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) % N;
  }
  __WGP_CG__ unsigned int meta_group_rank() const {
    return (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) / N;
  }
  __WGP_CG__ unsigned int meta_group_size() const { return (blockDim.x * blockDim.y * blockDim.z + N - 1) / N; }
  __WGP_CG__ static constexpr unsigned int size() { return N; }
  __WGP_CG__ static constexpr unsigned int num_threads() { return N; }
  template <typename T> __WGP_CG__ T shfl(T v, int src) const { return __shfl_sync(__mask(), v, src, N); }
  template <typename T> __WGP_CG__ T shfl_down(T v, unsigned int d) const {
    return __shfl_down_sync(__mask(), v, (int)d, N);
  }
  template <typename T> __WGP_CG__ T shfl_up(T v, unsigned int d) const {
    return __shfl_up_sync(__mask(), v, (int)d, N);
  }
  template <typename T> __WGP_CG__ T shfl_xor(T v, unsigned int m) const {
    return __shfl_xor_sync(__mask(), v, (int)m, N);
  }
  __WGP_CG__ int any(int p) const { return __any_sync(__mask(), p); }
  __WGP_CG__ int all(int p) const { return __all_sync(__mask(), p); }
  __WGP_CG__ unsigned int ballot(int p) const { return __ballot_sync(__mask(), p); }
};

template <unsigned int N, typename Parent> __WGP_CG__ thread_block_tile<N> tiled_partition(const Parent &) {
  return thread_block_tile<N>();
}
template <unsigned int N> __WGP_CG__ void sync(const thread_block_tile<N> &g) { g.sync(); }

/* cooperative_groups/reduce.h: a tile-wide reduction by butterfly shuffles */
template <typename T> struct plus {
  __WGP_CG__ T operator()(T a, T b) const { return a + b; }
};
template <typename T> struct less {
  __WGP_CG__ T operator()(T a, T b) const { return a < b ? a : b; }
};
template <typename T> struct greater {
  __WGP_CG__ T operator()(T a, T b) const { return a < b ? b : a; }
};
template <unsigned int N, typename T, typename Op> __WGP_CG__ T reduce(const thread_block_tile<N> &g, T v, Op op) {
  for (unsigned int o = N / 2; o > 0; o /= 2)
    v = op(v, g.shfl_xor(v, o));
  return v;
}

#undef __WGP_CG__
} // namespace cooperative_groups

#endif
