// memcpy, memset and memmove (clang makes them of struct copies, of runs of
// stores of one byte value, and of __builtin_memset) are the loads and stores the
// NVPTX backend emits for them, not unresolved calls: a constant length up to 128
// bytes as accesses as wide as the alignment allows, a longer or unknown one as a
// loop storing a byte at a time.
// RUN: %wgperf extract %s -o %t.json --print 2>&1 | FileCheck %s
// CHECK-NOT: unresolved
// CHECK-LABEL: kernel clear_row
// CHECK: loop L0
// CHECK: mem M0 store global 1B {{.*}}offset=(add (mul {{.*}} (sext:32:64 arg.n)) it.L0) affine
// CHECK-LABEL: kernel copy_rec
// CHECK: totals: {{.*}}ld.global.32=8 {{.*}}st.global.32=8
// CHECK-LABEL: kernel copy_vec
// CHECK: totals: {{.*}}ld.global.128=2 {{.*}}st.global.128=2
// CHECK-LABEL: kernel fill5
// CHECK: totals: {{.*}}st.global.32=5
// CHECK-NOT: st.global
struct Rec { float v[8]; };
struct __attribute__((aligned(16))) Vec { float v[8]; };

extern "C" __global__ void copy_rec(Rec *out, const Rec *in)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i];
}

extern "C" __global__ void copy_vec(Vec *out, const Vec *in)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i];
}

extern "C" __global__ void fill5(int *out)
{
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    out[5 * g + 0] = -1;
    out[5 * g + 1] = -1;
    out[5 * g + 2] = -1;
    out[5 * g + 3] = -1;
    out[5 * g + 4] = -1;
}

extern "C" __global__ void clear_row(char *rows, int n)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    __builtin_memset(rows + (long)r * n, 0, n);
}
