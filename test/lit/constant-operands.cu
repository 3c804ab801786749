// A __constant__ table read at addresses known when the kernel is compiled (the
// taps of an unrolled loop) is an operand of the multiply-add (FFMA with
// c[bank][offset]), not a load the arithmetic waits for: no constant-memory
// stall.  The same table read at an index that depends on a kernel argument
// keeps its loads (LDC) and their wait.  docs/simulator.md, "Constant operands".
// RUN: %wgperf predict %s --kernel taps_known --grid 1024 --block 256 --gpu rtx-3090 --json | FileCheck %s --check-prefix=KNOWN
// RUN: %wgperf predict %s --kernel taps_arg --grid 1024 --block 256 --gpu rtx-3090 --arg k=3 --json | FileCheck %s --check-prefix=ARG

__constant__ float w[8];

extern "C" __global__ void taps_known(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
#pragma unroll
  for (int t = 0; t < 8; t++)
    s += in[i + t] * w[t];
  out[i] = s;
}

extern "C" __global__ void taps_arg(const float *in, float *out, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
#pragma unroll
  for (int t = 0; t < 8; t++)
    s += in[i + t] * w[(t + k) & 7];
  out[i] = s;
}

// KNOWN: "constant_stall_cycles": 0.0,
// ARG: "constant_stall_cycles": {{[1-9][0-9.]*}},
