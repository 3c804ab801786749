// Warp matches and reductions (clang's __clang_cuda_intrinsics.h; the matches of the
// stand-ins from include/wgperf/cuda/crt/sm_70_rt.hpp): __match_any_sync and __match_all_sync
// (one MATCH each, llvm.nvvm.match.*) and __reduce_{add,min,max,and,or,xor}_sync (one REDUX
// each, llvm.nvvm.redux.sync.*) count as one int_logic instruction, as votes do: no
// shuffle tree, no call left unresolved.  Like CUDA's, the reductions exist from sm_80 on.
// RUN: %wgperf extract %s -o %t.json --print | FileCheck %s
// RUN: %wgperf extract %s -o %t2.json 2>&1 >/dev/null | FileCheck %s --allow-empty --check-prefix=QUIET
// QUIET-NOT: {{warning: kernel|ptxas|error}}
// RUN: %wgperf analyze %t.json --kernel warp_stats --global 1024 --local 256 | FileCheck %s --check-prefix=DYN
// RUN: %wgperf predict %t.json --kernel hist_aggregated --global 65536 --local 256 --arg n=65536 \
// RUN:   --buffer hist=1024 --gpu a100 | FileCheck %s --check-prefix=PRED
// RUN: not %clang -x cuda --cuda-device-only --cuda-gpu-arch=sm_70 -nocudainc -nocudalib -Wno-unknown-cuda-version \
// RUN:   -include %src/include/wgperf/cuda_compat.h -isystem %src/include/wgperf/cuda -fsyntax-only %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SM70

// Warp-aggregated histogram: the lanes holding the same key find each other with one
// match, and the first of them adds the group's count with one atomic.  Logic: the
// match, __activemask, the lane, __ffs and __popc.
// CHECK-LABEL: kernel hist_aggregated
// CHECK-NOT: call=
// CHECK-NOT: shfl=
// CHECK: mem M1 atomic global 4B {{.*}}base=arg:hist op=add
// libdevice's __ffs, which clang's headers call, is a BREV, a bit find and an add
// CHECK: totals: {{.*}}int_add=3 {{.*}}int_logic=6
// PRED: kernel hist_aggregated on NVIDIA A100
__global__ void hist_aggregated(const int *keys, unsigned *hist, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int k = keys[i];
    unsigned peers = __match_any_sync(__activemask(), k);
    if ((int)(threadIdx.x & 31) == __ffs(peers) - 1)
      atomicAdd(&hist[k], __popc(peers));
  }
}

// Every form of a match: 32-bit, 64-bit, float and double values, eight MATCHes.
// CHECK-LABEL: kernel match_forms
// CHECK-NOT: call=
// CHECK: totals: {{.*}}int_logic=8
__global__ void match_forms(const long long *k, const double *d, unsigned *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int p0, p1, p2, p3;
  unsigned a = __match_any_sync(0xffffffffu, (int)k[i]) + __match_any_sync(0xffffffffu, (unsigned long long)k[i]) +
               __match_any_sync(0xffffffffu, (float)d[i]) + __match_any_sync(0xffffffffu, d[i]);
  unsigned b = __match_all_sync(0xffffffffu, (unsigned)k[i], &p0) + __match_all_sync(0xffffffffu, k[i], &p1) +
               __match_all_sync(0xffffffffu, (float)d[i], &p2) + __match_all_sync(0xffffffffu, d[i], &p3);
  out[i] = a + b + p0 + p1 + p2 + p3;
}

// Per-warp statistics of an integer: sum, signed and unsigned minimum and maximum, and,
// or, xor: eight REDUXes, the only logic instructions of the kernel.
// CHECK-LABEL: kernel warp_stats
// CHECK-NOT: call=
// CHECK-NOT: shfl=
// CHECK: totals: {{.*}}int_logic=8
// 32 warps of 8 reductions each.
// DYN: int_logic=256
// DYN-NOT: shfl=
__global__ void warp_stats(const int *in, unsigned *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  unsigned u = (unsigned)v;
  out[i] = (unsigned)__reduce_add_sync(0xffffffffu, v) + (unsigned)__reduce_min_sync(0xffffffffu, v) +
           __reduce_min_sync(0xffffffffu, u) + (unsigned)__reduce_max_sync(0xffffffffu, v) +
           __reduce_max_sync(0xffffffffu, u) + __reduce_and_sync(0xffffffffu, u) +
           __reduce_or_sync(0xffffffffu, u) + __reduce_xor_sync(0xffffffffu, u);
}

// Before sm_80 the reductions are not declared; the matches (sm_70) are.
// SM70-NOT: __match_any_sync
// SM70: error: use of undeclared identifier '__reduce_add_sync'
// SM70-NOT: __match_any_sync
