// Integer division: by a variable is int_div, by 8 is a shift, by 7 is int_mul.
// RUN: %clang_cl -O2  -g -c -emit-llvm %s -o %t.bc
// RUN: %opt -load-pass-plugin=%plugin -passes='print<wgperf>' -disable-output %t.bc | FileCheck %s

__kernel void intdiv(__global int *a, int d, int w) {
  int i = get_global_id(0);
  int row = i / w;
  int col = i % w;
  a[i] = a[i] / d + row + col + i / 8 + i % 7;
}

// a[i]/d and i/w are divisions by variables (int_div=2; i%w reuses i/w as
// i - (i/w)*w); i/8 becomes a shift (int_logic); i%7 is a remainder by a
// non-power-of-two constant (int_mul).
// CHECK-LABEL: kernel intdiv (opencl)
// CHECK:       block 0 entry {{.*}}int_add=5 int_div=2 int_logic=3 int_mul=2 ld.global.32=1 other=2 sreg=2 st.global.32=1 -> - exit
// CHECK-NOT:   int64_div
