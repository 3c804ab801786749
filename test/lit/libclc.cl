// Linked with libclc, the work-item builtins become llvm.nvvm.read.ptx.sreg.*
// reads.  The unlinked module is the reference.
// REQUIRES: libclc
// RUN: %clang_cl -O2 -c -emit-llvm %s -o %t.bc
// RUN: %opt -load-pass-plugin=%plugin -passes='print<wgperf>' -disable-output %t.bc | FileCheck %s --check-prefix=PLAIN
// RUN: llvm-link %t.bc %libclc -o %t.linked.bc 2>/dev/null
// RUN: %opt -load-pass-plugin=%plugin -passes='print<wgperf>' -disable-output %t.linked.bc | FileCheck %s --check-prefix=CLC

__kernel void clc_copy(__global const float *in, __global float *out) {
  size_t g = get_global_id(0);
  size_t l = get_local_id(0);
  out[g] = in[g] + (float)l;
}

// PLAIN-LABEL: kernel clc_copy (opencl)
// PLAIN:       block 0 entry: {{.*}}conv=1 fp32_add=1 ld.global.32=1 other=2 sreg=2 st.global.32=1 -> - exit
// PLAIN-NEXT:  mem M0 load global 4B block=0 base=arg:in offset=(mul:nsw 4 gid.x) affine
// PLAIN-NEXT:  mem M1 store global 4B block=0 base=arg:out offset=(mul:nsw 4 gid.x) affine

// Only the kernel is modelled, not libclc's own functions, and no call is
// left.  libclc computes get_global_id(0) as grp*lsz+lid from the special
// registers (without the global offset), so gid.x appears expanded.
// CLC-NOT:     kernel _Z
// CLC-LABEL:   kernel clc_copy (opencl)
// CLC:         block 0 entry: {{.*}}conv=1 fp32_add=1 {{.*}}ld.global.32=1 other=2 sreg=2 st.global.32=1 -> - exit
// CLC-NEXT:    mem M0 load global 4B block=0 base=arg:in offset=(mul:nsw:nuw 4 (add:nsw:nuw (zext:32:64 lid.x) (mul:nsw:nuw (zext:32:64 lsz.x) (zext:32:64 grp.x)))) affine
// CLC-NEXT:    mem M1 store global 4B block=0 base=arg:out offset=(mul:nsw:nuw 4 (add:nsw:nuw (zext:32:64 lid.x) (mul:nsw:nuw (zext:32:64 lsz.x) (zext:32:64 grp.x)))) affine
// CLC-NOT:     call
// CLC-NOT:     kernel
