// Without ptxas the registers come from the IR estimate, which knows nothing of
// __launch_bounds__; nvcc's ptxas keeps a kernel with __launch_bounds__(256, 4) to
// what lets 4 groups of 256 fit (64 on the A100's 64K registers; ptxas 13.0 gives
// this kernel 64, and 255 without the attribute), so the estimate is capped there
// and the occupancy is that of 4 groups; the kernel without the attribute keeps
// its estimate.
// RUN: env WGPERF_PTXAS= %wgperf extract %s -o %t.json > /dev/null
// RUN: %wgperf predict %t.json --kernel heavy --gpu a100 --global 1048576 --local 256 --arg n=1048576 | FileCheck %s --check-prefix=CAP
// RUN: %wgperf predict %t.json --kernel free_heavy --gpu a100 --global 1048576 --local 256 --arg n=1048576 | FileCheck %s --check-prefix=FREE
// a reqd_work_group_size-like bound of one group of 1024: at most 64 as well
// RUN: %wgperf predict %t.json --kernel wide --gpu a100 --global 1048576 --local 1024 --arg n=1048576 | FileCheck %s --check-prefix=WIDE
// an override is never capped
// RUN: %wgperf predict %t.json --kernel heavy --gpu a100 --global 1048576 --local 256 --arg n=1048576 --regs 96 | FileCheck %s --check-prefix=OVERRIDE
// CAP: occupancy 32 warps, 4 work-groups per SM, limited by registers (64 registers per thread from the IR estimate {{.*}}: {{[0-9]+}}, at most 64 to fit 4 groups of 256 work-items (__launch_bounds__(256, 4)))
// FREE: occupancy {{(8|16)}} warps, {{(1 work-group|2 work-groups)}} per SM, limited by registers ({{(9[7-9]|1[0-9][0-9])}} registers per thread from the IR estimate
// WIDE: limited by {{.*}}(64 registers per thread from the IR estimate {{.*}}: {{[0-9]+}}, at most 64 to fit 1 group of 1024 work-items (__launch_bounds__(1024)))
// OVERRIDE: (96 registers per thread from --regs)

#define N 200

// N loads, each value used twice: many live at once
__device__ __forceinline__ void many_live(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v[N];
#pragma unroll
  for (int k = 0; k < N; k++)
    v[k] = in[i + k * n];
  float s = 0;
#pragma unroll
  for (int k = 0; k < N; k++)
    s += v[k] * v[N - 1 - k];
  out[i] = s;
}

extern "C" __global__ void __launch_bounds__(256, 4) heavy(const float *in, float *out, int n) {
  many_live(in, out, n);
}

extern "C" __global__ void free_heavy(const float *in, float *out, int n) {
  many_live(in, out, n);
}

extern "C" __global__ void __launch_bounds__(1024) wide(const float *in, float *out, int n) {
  many_live(in, out, n);
}
