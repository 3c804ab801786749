// Inline PTX (asm, asm volatile) is not modelled: each asm statement counts as one
// instruction (the `call` class, as an unresolved call does), its outputs are unknown
// values, it is listed among the kernel's calls with the reason "inline assembly", and
// its warning names the assembly (its first instruction) instead of an indirect call.
// (A single integer instruction of the kinds CUDA's own headers write as inline PTX,
// dp4a, shf, prmt, vabsdiff4, ..., is that instruction instead: cuda-int-intrinsics.cu.)
// RUN: %wgperf extract %s -o %t.json --print 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=WARN --input-file=%t.err
// RUN: %wgperf analyze %t.json --kernel lane_copy --global 1024 --local 256 | FileCheck %s --check-prefix=ANALYZE

// CHECK-LABEL: kernel lane_copy
// CHECK: call asm "mov.u32 $0, %laneid" block=0: inline assembly
// CHECK: totals: {{.*}}call=1
// CHECK: warning: inline assembly 'mov.u32 $0, %laneid' at {{.*}}inline-asm.cu:[[#@LINE+8]] left unmodelled (counted as one instruction); its result and any memory it accesses are not modelled
// CHECK-NOT: indirect
// WARN-NOT: indirect
// WARN: wgperf: warning: kernel 'lane_copy': inline assembly 'mov.u32 $0, %laneid' at {{.*}}inline-asm.cu:[[#@LINE+5]] left unmodelled (counted as one instruction)
// ANALYZE: call to 'asm "mov.u32 $0, %laneid"' {{.*}}left unresolved (inline assembly): counted as one instruction
// ANALYZE: call=32
__global__ void lane_copy(const float *in, float *out) {
  unsigned lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i] + lane;
}

// A block is named by its first instruction (braces and .reg declarations skipped), with
// "..." for the rest; the store in assembly is no memory access of the model.  A block of
// register arithmetic the toolkit's headers write is costed by opcode (the move is free,
// the add one int_add); one with a predicated instruction stays unmodelled.
// CHECK-LABEL: kernel streaming_store
// CHECK-NOT: mem M
// CHECK: call asm "setp.ne.u32 p, $1, 0 ..." block=0: inline assembly
// CHECK: call asm "st.global.cs.f32 [$0], $1" block=0: inline assembly
// CHECK: totals: {{.*}}call=2 {{.*}}int_add=2
// CHECK: warning: inline assembly 'setp.ne.u32 p, $1, 0 ...' at {{.*}}inline-asm.cu:[[#@LINE+7]] left unmodelled
// CHECK: warning: inline assembly 'st.global.cs.f32 [$0], $1' at {{.*}}inline-asm.cu:[[#@LINE+7]] left unmodelled
// CHECK-NOT: indirect
__global__ void streaming_store(float *out, float v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned r, s;
  asm("{\n\t.reg .b32 t;\n\tmov.b32 t, %1;\n\tadd.u32 %0, t, 1;\n\t}" : "=r"(r) : "r"(i));
  asm("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %1, 0;\n\t@p add.u32 %0, %1, 1;\n\t}" : "=r"(s) : "r"(r));
  asm volatile("st.global.cs.f32 [%0], %1;\n\t// bypass L1\n" ::"l"(out + s), "f"(v) : "memory");
}
