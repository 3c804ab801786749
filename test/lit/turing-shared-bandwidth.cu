// Turing's unified L1/shared-memory data path returns 64 B per clock and SM,
// half of Volta's and Ampere's 128 (gpus/rtx-2080-ti.json, its source;
// docs/accuracy.md, "Turing's shared-memory and L1 bandwidth"): a conflict-free
// 32-lane 4-byte shared load holds the load/store path 2 cycles there, not 1.
// Every Turing description carries the figure, the Volta and Ampere ones keep 128.
// RUN: python3 -c "import json,sys; [print(n, json.load(open(sys.argv[1] + '/' + n + '.json'))['memory']['shared_bandwidth_bytes_per_cycle']['value']) for n in ['rtx-2080-ti', 't4', 'rtx-2080', 'rtx-2070', 'titan-rtx', 'quadro-rtx-6000', 'quadro-rtx-8000', 'v100', 'rtx-3090', 'a100']]" %src/gpus | FileCheck %s --check-prefix=DESC
// DESC: rtx-2080-ti 64
// DESC-NEXT: t4 64
// DESC-NEXT: rtx-2080 64
// DESC-NEXT: rtx-2070 64
// DESC-NEXT: titan-rtx 64
// DESC-NEXT: quadro-rtx-6000 64
// DESC-NEXT: quadro-rtx-8000 64
// DESC-NEXT: v100 128
// DESC-NEXT: rtx-3090 128
// DESC-NEXT: a100 128
//
// A kernel bound by its shared loads (256 conflict-free loads per thread, one
// dependent add each, 32 warps per SM) on the RTX 2080 Ti, against the same
// description with the generic 128 B per clock: the round takes at least 1.3x
// as long (the load/store path's share doubles; the adds and the barrier do not).
// RUN: %wgperf extract %s -o %t.json
// RUN: python3 -c "import json,sys; g=json.load(open(sys.argv[1])); g['memory']['shared_bandwidth_bytes_per_cycle']['value']=128; json.dump(g, open(sys.argv[2], 'w'))" %src/gpus/rtx-2080-ti.json %t.g128.json
// RUN: %wgperf predict %t.json --kernel lds_sum --grid 1088 --block 1024 --regs 32 --gpu rtx-2080-ti --json > %t.64.out
// RUN: %wgperf predict %t.json --kernel lds_sum --grid 1088 --block 1024 --regs 32 --gpu %t.g128.json --json > %t.128.out
// RUN: python3 -c "import json,sys; a, b = (json.load(open(p))['breakdown'] for p in sys.argv[1:]); r = a['round_cycles'] / b['round_cycles']; print(a['bound'], 'slower' if r >= 1.3 else 'ratio %%.3f' %% r)" %t.64.out %t.128.out | FileCheck %s --check-prefix=RATIO
// RATIO: pipeline slower
__global__ void lds_sum(float *out) {
  __shared__ float s[256 * 32];
  for (int i = threadIdx.x; i < 256 * 32; i += blockDim.x)
    s[i] = i;
  __syncthreads();
  float acc = 0;
#pragma unroll
  for (int i = 0; i < 256; i++)
    acc += s[i * 32 + (threadIdx.x & 31)];
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
