// A construct the model does not cover: an indirect call through a function
// pointer table, listed as an unresolved call with a warning; the rest of the
// kernel is modelled.  (A struct copy that becomes llvm.memmove was one too: it
// is now the loads and stores it stands for, checked here and in
// mem-intrinsics.cu.)
// RUN: %clang_cu -O2 -g -c -emit-llvm %s -o %t.bc
// RUN: %opt -load-pass-plugin=%plugin -passes='print<wgperf>' -disable-output %t.bc 2>&1 | FileCheck %s
// RUN: rm -f %t.json
// RUN: %opt -load-pass-plugin=%plugin -passes='wgperf-extract<output=%t.json>' -disable-output %t.bc 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: FileCheck %s --check-prefix=JSON --input-file=%t.json

struct Params { float scale; float bias; int n; float pad[13]; };
typedef float (*op_t)(float);
__device__ float neg(float x) { return -x; }
__device__ op_t table[1] = {neg};

__global__ void indirect(float *a, int which) {
  int i = threadIdx.x;
  a[i] = table[which](a[i]);
}

__global__ void copy_struct(const Params *in, Params *out) {
  int i = threadIdx.x;
  Params p = in[i];
  out[i] = p;
}

// CHECK-LABEL: kernel copy_struct (cuda)
// CHECK-NOT:   unresolved
// CHECK:       block 0 entry {{.*}}ld.global.32=16 {{.*}}st.global.32=16 -> - exit
// CHECK-LABEL: kernel indirect (cuda)
// CHECK:       array table: global 8 bytes, elem=8 dims=1 initialized
// CHECK:       block 0 entry {{.*}}call=1 {{.*}}ld.global.32=1 ld.global.64=1 other=2 sreg=1 st.global.32=1 -> - exit
// CHECK-NEXT:  mem M0 load global 8B block=0 base=array:table offset=(mul:nsw 8 (sext:32:64 arg.which)) affine
// CHECK-NEXT:  mem M1 load global 4B block=0 base=arg:a offset=(mul:nsw:nuw 4 (zext:32:64 lid.x)) affine
// CHECK-NEXT:  mem M2 store global 4B block=0 base=arg:a offset=(mul:nsw:nuw 4 (zext:32:64 lid.x)) affine
// CHECK-NEXT:  call <indirect> block=0: indirect call
// CHECK:       warning: call to '<indirect>' left unresolved (indirect call)

// WARN-NOT: copy_struct
// WARN-DAG: wgperf: warning: kernel 'indirect': call to '<indirect>' left unresolved (indirect call)
// WARN-NOT: error

// JSON: "name": "copy_struct",
// JSON-NOT: "callee"
// JSON: "name": "indirect",
// JSON: "callee": "<indirect>",
