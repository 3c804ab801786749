// On Volta and later L1 and shared memory are one array: the L1 that caches a
// launch's loads is the array less the shared memory its resident blocks hold
// (docs/gpu-description.md, memory.l1_shared_bytes).  Turing's array is 96 KB,
// of which L1 has at most 64 KB: two blocks of 32 KB of shared memory on an
// RTX 2080 Ti leave 32 KB of L1 (with l1_bytes alone, none), so the second to
// fourth passes over an 8 KB table hit L1.  On the RTX 3090 (a 128 KB array,
// all of it L1 when no shared memory is used) three such blocks leave 32 KB.
// RUN: %wgperf extract %s -o %t.json
// RUN: %wgperf analyze %t.json --kernel reuse --global 139264 --local 256 --arg reps=32 --arg n=2048 --gpu rtx-2080-ti | FileCheck %s --check-prefix=TURING
// TURING: global {{.*}}load {{.*}}in {{.*}}L1 hit 75%
// TURING: waves {{.*}}(2 per SM x 68 SMs)
// RUN: %wgperf analyze %t.json --kernel reuse --global 139264 --local 256 --arg reps=32 --arg n=2048 --gpu rtx-3090 | FileCheck %s --check-prefix=AMPERE
// AMPERE: global {{.*}}load {{.*}}in {{.*}}L1 hit 75%

extern "C" __global__ void reuse(const float *in, float *out, int reps, unsigned n) {
  __shared__ float tile[8192];
  unsigned t = threadIdx.x;
  float s = 0;
  for (int r = 0; r < reps; r++) /* reps 32, n 2048: the 8 KB table 4 times */
    s += in[(t + r * 256) % n];
  for (unsigned i = t; i < 8192; i += 256)
    tile[i] = s + i;
  __syncthreads();
  out[blockIdx.x * 256 + t] = tile[(t * 33) % 8192];
}
