// A launch that reaches past a buffer: a grid larger than the data of a
// kernel without a bound check, or a --buffer smaller than what a kernel
// with one reads.  The warning names the buffer, the bytes the launch
// certainly touches (isl over the whole launch, not the sampled groups) and
// the size given; a bound check that keeps the launch inside, or a condition
// on loaded data (where the accesses are not certain), says nothing.
// RUN: %wgperf predict %s --kernel unchecked --grid 40 --block 256 --buffer a=32768 --buffer b=40960 --buffer c=40960 --arg n=8192 2>&1 | FileCheck %s --check-prefix=PAST
// PAST: wgperf: warning: the launch accesses bytes 0 to 40959 of 'a', outside the 32768 bytes --buffer gives it: the kernel is not written for this launch (no bound check for this grid), or the buffer is larger than --buffer says; the prediction counts those accesses
// PAST-NOT: of 'b'
// PAST-NOT: of 'c'
// PAST: time
// (the last group's lanes past n are what reach past; one group traced stands for all)
// RUN: %wgperf predict %s --kernel unchecked --grid 32 --block 256 --buffer a=32768 --buffer b=32768 --buffer c=32768 --arg n=8192 2>&1 | FileCheck %s --check-prefix=QUIET
// RUN: %wgperf predict %s --kernel checked --grid 40 --block 256 --buffer a=32768 --buffer b=32768 --buffer c=32768 --arg n=8192 2>&1 | FileCheck %s --check-prefix=QUIET
// RUN: %wgperf predict %s --kernel indirect --grid 40 --block 256 --buffer a=32768 --buffer idx=40960 --buffer c=32768 --arg n=8192 2>&1 | FileCheck %s --check-prefix=QUIET
// QUIET-NOT: warning: the launch accesses
// QUIET: time
// (40 work-groups of 8 warps on the H100's 132 SMs: the occupancy line says
// what this launch gives the SMs beside what each could hold)
// RUN: %wgperf predict %s --kernel checked --grid 40 --block 256 --arg n=8192 | FileCheck %s --check-prefix=GRID
// GRID: occupancy   64 warps, 8 work-groups per SM, limited by warps ({{.*}}); this launch's 40 work-groups fill 40 of the 132 SMs, at most 1 each (8 warps)
// A bound check with n larger than the buffer: the stores to c reach past it.
// RUN: %wgperf predict %s --kernel checked --grid 40 --block 256 --buffer a=40960 --buffer b=40960 --buffer c=16384 --arg n=10240 2>&1 | FileCheck %s --check-prefix=SMALL
// SMALL: wgperf: warning: the launch accesses bytes 0 to 40959 of 'c', outside the 16384 bytes --buffer gives it
// A stencil's first lane reads before its buffer: a negative byte.
// RUN: %wgperf predict %s --kernel left --grid 32 --block 256 --buffer a=32768 --buffer c=32768 --arg n=8192 2>&1 | FileCheck %s --check-prefix=LEFT
// LEFT: wgperf: warning: the launch accesses bytes -4 to 32767 of 'a', outside the 32768 bytes --buffer gives it
__global__ void unchecked(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  c[i] = a[i] + b[i];
}
__global__ void checked(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}
// the condition is on loaded data: whether a lane reads a[] is not known
__global__ void indirect(const float *a, const int *idx, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx[i] < n)
    c[idx[i] & 8191] = a[i];
}
__global__ void left(const float *a, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  c[i] = a[i - 1] + a[i];
}

// wgprune with a fixed grid: a larger group reaches further, so the fastest
// sizes it shows (20 by default, --top N) are checked; a group of 320 or more
// threads on 32 blocks reaches past the 8192 floats of the unchecked kernel.
// RUN: wgprune %s --kernel unchecked --grid 32 --buffer a=32768 --buffer b=32768 --buffer c=32768 --arg n=8192 --gpu rtx-3090 --json 2> %t.prune.err > %t.prune.json
// RUN: FileCheck %s --check-prefix=PRUNE < %t.prune.err
// PRUNE: wgprune: warning: 10 of the 20 fastest sizes checked access outside the buffers --buffer gives (the first, rank 11, 320x1x1: the launch accesses bytes 0 to 40959 of 'a', whose --buffer is 32768 bytes): a grid past the data of a kernel without a bound check, or a --buffer too small; their times count those accesses
// RUN: python3 -c "import json,sys; print([r['local'][0] for r in json.load(open(sys.argv[1]))['ranking'] if r.get('outside')])" %t.prune.json | FileCheck %s --check-prefix=PRUNEJSON
// PRUNEJSON: [320, 352, 416, 544, 576, 608, 736, 800, 832, 864]
// RUN: wgprune %s --kernel checked --grid 32 --buffer a=32768 --buffer b=32768 --buffer c=32768 --arg n=8192 --gpu rtx-3090 2>&1 | FileCheck %s --check-prefix=PRUNEQUIET
// RUN: wgprune %s --kernel unchecked --global 8192 --buffer a=32768 --buffer b=32768 --buffer c=32768 --arg n=8192 --gpu rtx-3090 2>&1 | FileCheck %s --check-prefix=PRUNEQUIET
// PRUNEQUIET-NOT: outside the buffers
// PRUNEQUIET: wall time
