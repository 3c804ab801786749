// Volta and later take a wide global request through L1TEX in phases of a
// line's worth of data (a quarter-warp for 16 B a lane, a half-warp for 8 B),
// one wavefront per distinct line a phase touches (docs/analyzer-rules.md,
// "Wavefronts of a wide request").  A float4 read at 64 B steps by the 8 lanes
// of every quarter-warp (a tiled matrix multiply's per-thread row without
// shared memory) touches 4 lines per request but costs 16 wavefronts; the
// same read coalesced costs as many wavefronts as lines.  Pascal's rule is the
// lines.
// RUN: %wgperf extract %s -o %t.json
// RUN: %wgperf analyze %t.json --kernel quarter --global 65536 --local 256 --gpu rtx-3090 | FileCheck %s --check-prefix=AMPERE
// AMPERE: M0 {{.*}} load {{.*}}8.00 sectors, 4.00 lines (16.00 L1 wavefronts)
// AMPERE-NOT: L1 wavefronts
// RUN: %wgperf analyze %t.json --kernel quarter --global 65536 --local 256 --gpu rtx-3090 --json | FileCheck %s --check-prefix=JSON
// JSON: "lines_per_request": 4.0,
// JSON-NEXT: "wavefronts_per_request": 16.0,
// RUN: %wgperf analyze %t.json --kernel quarter --global 65536 --local 256 --gpu p100 | FileCheck %s --check-prefix=PASCAL
// PASCAL: M0 {{.*}} load {{.*}}8.00 sectors, 4.00 lines, L1
// PASCAL-NOT: L1 wavefronts
// RUN: %wgperf analyze %t.json --kernel quarter --global 65536 --local 256 --gpu p100 --json | FileCheck %s --check-prefix=PJSON
// PJSON: "wavefronts_per_request": null,
// RUN: %wgperf analyze %t.json --kernel rows --global 65536 --local 256 --gpu rtx-3090 | FileCheck %s --check-prefix=ROWS
// ROWS: M0 {{.*}} load {{.*}}16.00 sectors, 4.00 lines, L1
// ROWS-NOT: L1 wavefronts

extern "C" __global__ void quarter(const float4 *in, float *out) {
  unsigned t = threadIdx.x;
  float4 v = in[blockIdx.x * 32 + (t % 8) * 4];
  out[blockIdx.x * blockDim.x + t] = v.x + v.y + v.z + v.w;
}

extern "C" __global__ void rows(const float4 *in, float *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 v = in[i];
  out[i] = v.x + v.y + v.z + v.w;
}
