// An address made from a loaded value times a factor, the same in every lane
// of a warp (the warp's row reads one table entry), plus the lane: every lane
// reads the next word of one run, at a place known only at run time.  The
// float arithmetic on the loaded value gives a pseudo value as a loaded value
// does (a hash of its operands), so the run is contiguous: 5 sectors a
// request (4 and a misaligned start), not a gather's 32.  A factor that
// differs between lanes still scatters.  docs/analyzer-rules.md, "Addresses
// from loaded data".
// RUN: %wgperf analyze %s --kernel shift --grid 64,64 --block 256 --arg n=16384 --arg k=3 | FileCheck %s --check-prefix=UNI
// RUN: %wgperf analyze %s --kernel spread --grid 64,64 --block 256 --arg n=16384 --arg k=3 | FileCheck %s --check-prefix=LANE

__global__ void shift(float *out, const float *in, const float *table, float k, int n) {
  int c = blockIdx.y;
  int lane = blockIdx.x * blockDim.x + threadIdx.x;
  int off = (int)(k * table[c]);
  out[c * n + lane] = in[c * n + lane + off];
}

__global__ void spread(float *out, const float *in, const float *table, float k, int n) {
  int c = blockIdx.y;
  int lane = blockIdx.x * blockDim.x + threadIdx.x;
  int off = (int)(k * table[c * n + lane]);
  out[c * n + lane] = in[off];
}

// UNI: M1 {{.*}} global load in {{.*}} 5.00 sectors, 2.00 lines
// LANE: M1 {{.*}} global load in {{.*}} {{(2[89]|3[0-2])}}.{{[0-9]+}} sectors
