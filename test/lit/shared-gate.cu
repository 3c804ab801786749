// $WGPERF_SHARED_GATE=N:KERNEL (wgtune's compiles): a kernel that declares more
// than N bytes of static shared memory is modelled before the optimizer, alone,
// with a note, and the module's functions are emptied so that -O3 has nothing
// to do; its arrays and arguments are the optimized model's.  A kernel under N,
// another kernel's name, a malformed value or no value: the whole compile.
// RUN: rm -f %t.*.json
// RUN: env WGPERF_OUTPUT=%t.full.json %clang_cu -O3 -fpass-plugin=%plugin -c -emit-llvm %s -o %t.full.bc
// RUN: env WGPERF_SHARED_GATE=49152:big WGPERF_OUTPUT=%t.gated.json %clang_cu -O3 -fpass-plugin=%plugin -c -emit-llvm %s -o %t.gated.bc
// RUN: FileCheck %s --check-prefix=GATED --input-file=%t.gated.json
// RUN: %opt -S %t.gated.bc -o - | FileCheck %s --check-prefix=EMPTY
// the same arrays and arguments as the optimized model's
// RUN: python3 -c "import json,sys; k=lambda f: [x for x in json.load(open(f))['kernels'] if x['name']=='big'][0]; a,b=k(sys.argv[1]),k(sys.argv[2]); assert (a['arrays'],a['args'])==(b['arrays'],b['args']), (a['arrays'],b['arrays']); print('same arrays and args')" %t.full.json %t.gated.json | FileCheck %s --check-prefix=SAME
// by symbol too
// RUN: env WGPERF_SHARED_GATE=49152:_Z3bigPfPKf WGPERF_OUTPUT=%t.sym.json %clang_cu -O3 -fpass-plugin=%plugin -c -emit-llvm %s -o /dev/null
// RUN: FileCheck %s --check-prefix=GATED --input-file=%t.sym.json
// a kernel under the gate, an unknown kernel, a higher gate, a malformed value: the whole model
// RUN: env WGPERF_SHARED_GATE=49152:small WGPERF_OUTPUT=%t.small.json %clang_cu -O3 -fpass-plugin=%plugin -c -emit-llvm %s -o /dev/null
// RUN: env WGPERF_SHARED_GATE=49152:nope WGPERF_OUTPUT=%t.nope.json %clang_cu -O3 -fpass-plugin=%plugin -c -emit-llvm %s -o /dev/null
// RUN: env WGPERF_SHARED_GATE=65536:big WGPERF_OUTPUT=%t.high.json %clang_cu -O3 -fpass-plugin=%plugin -c -emit-llvm %s -o /dev/null
// RUN: env WGPERF_SHARED_GATE=49152 WGPERF_OUTPUT=%t.bad.json %clang_cu -O3 -fpass-plugin=%plugin -c -emit-llvm %s -o /dev/null
// RUN: cmp %t.full.json %t.small.json
// RUN: cmp %t.full.json %t.nope.json
// RUN: cmp %t.full.json %t.high.json
// RUN: cmp %t.full.json %t.bad.json
// RUN: FileCheck %s --check-prefix=FULL --input-file=%t.full.json

#define N 16384 // floats: 64 KiB

__global__ void big(float *out, const float *in) {
  __shared__ float stage[N];
  // a shared array used only where the guard is false is not the kernel's
  __shared__ float unused[N];
  if (sizeof(float) == 8)
    unused[threadIdx.x] = 1.0f;
#pragma unroll
  for (int i = 0; i < 8; i++)
    stage[threadIdx.x + i * 1024] = in[blockIdx.x * 8192 + threadIdx.x + i * 1024];
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = stage[(threadIdx.x * 33) % N];
}

__global__ void small(float *out, const float *in) {
  __shared__ float s[256];
  s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = s[255 - threadIdx.x];
}

// GATED:      "kernels": [
// GATED:        "name": "big",
// GATED:        "arrays": [
// GATED-NEXT:     {
// GATED-NEXT:       "name": "big::stage",
// GATED-NEXT:       "space": "local",
// GATED-NEXT:       "bytes": 65536,
// GATED-NOT:    "name": "small",
// GATED:        "note: modelled before optimization: more than the 49152 bytes of static shared memory a block may have"
// GATED-NOT:    "name": "small",

// EMPTY:      define {{.*}} @_Z3bigPfPKf(
// EMPTY-NEXT:   unreachable
// EMPTY-NEXT: }
// EMPTY:      define {{.*}} @_Z5smallPfPKf(
// EMPTY-NEXT:   unreachable
// EMPTY-NEXT: }

// SAME: same arrays and args

// FULL:         "name": "big",
// FULL-NOT:     modelled before optimization
// FULL:         "name": "small",
// FULL-NOT:     modelled before optimization
