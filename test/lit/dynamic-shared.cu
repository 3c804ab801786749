// CUDA dynamic shared memory (extern __shared__, the third <<<>>> launch
// parameter): --local-mem NAME=BYTES sizes it and occupancy counts it; a
// launch without it is refused with the option to use.
// RUN: %wgperf extract %s -o %t.json > /dev/null
// RUN: %wgperf predict %t.json --grid 1024 --block 256 --local-mem s=2048 | FileCheck %s --check-prefix=SMALL
// RUN: %wgperf predict %t.json --grid 1024 --block 256 --local-mem s=40000 | FileCheck %s --check-prefix=BIG
// dynamic shared memory may pass the 48 KiB static limit (opt-in maximum)
// RUN: %wgperf predict %t.json --grid 1024 --block 256 --local-mem s=100000 | FileCheck %s --check-prefix=OPTIN
// RUN: wgprune %t.json --global 262144 --local-arg s=100000 --exhaustive | FileCheck %s --check-prefix=PRUNE
// RUN: not %wgperf predict %t.json --grid 1024 --block 256 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: not %wgperf predict %t.json --grid 1024 --block 256 --local-mem t=4 2>&1 | FileCheck %s --check-prefix=FIXED

extern __shared__ float s[];

extern "C" __global__ void rev(float *d) {
  __shared__ float t[32];
  int i = threadIdx.x, n = blockDim.x;
  s[i] = d[blockIdx.x * n + i];
  t[i % 32] = 0.0f;
  __syncthreads();
  d[blockIdx.x * n + i] = s[n - 1 - i] + t[i % 32];
}

// SMALL: occupancy {{.*}}limited by warps
// BIG:   occupancy {{.*}}limited by shared_memory
// OPTIN: occupancy   16 warps, 2 work-groups per SM, limited by shared_memory
// PRUNE: {{^ *[0-9]+ +256 +[0-9.]+ +16 shared_memory}}
// NONE:  wgperf: error: kernel 'rev' uses the dynamic shared array 's' (extern __shared__): give its size with --local-mem s=BYTES
// FIXED: wgperf: error: 't' of kernel 'rev' is a shared array of fixed size (128 bytes)
