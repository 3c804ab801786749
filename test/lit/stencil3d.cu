// 3D seven-point stencil in CUDA: neighbours at +-1, +-nx and +-nx*ny.
// RUN: %clang_cu -O2  -g -c -emit-llvm %s -o %t.bc
// RUN: %opt -load-pass-plugin=%plugin -passes='print<wgperf>' -disable-output %t.bc | FileCheck %s

__global__ void stencil3d(const float *in, float *out, int nx, int ny, int nz) {
  int x = blockIdx.x * blockDim.x + threadIdx.x + 1;
  int y = blockIdx.y * blockDim.y + threadIdx.y + 1;
  int z = blockIdx.z * blockDim.z + threadIdx.z + 1;
  if (x >= nx - 1 || y >= ny - 1 || z >= nz - 1)
    return;
  int sx = 1, sy = nx, sz = nx * ny;
  int c = z * sz + y * sy + x;
  out[c] = in[c] * -6.0f + in[c - sx] + in[c + sx] + in[c - sy] + in[c + sy] +
           in[c - sz] + in[c + sz];
}

// x = grp.x*lsz.x+lid.x+1 (same for y, z); c = (z*ny + y)*nx + x.
// CHECK-LABEL: kernel stencil3d (cuda)
// CHECK:         branch work-item: (umin:1 (slt:32 (add:32 1 (mul:32 grp.x lsz.x) lid.x) (add:32:nsw -1 arg.nx)) (slt:32 (add:32 1 (mul:32 grp.y lsz.y) lid.y) (add:32 -1 arg.ny)) (slt:32 (add:32 1 (mul:32 grp.z lsz.z) lid.z) (add:32 -1 arg.nz))) ? 1 : 2
// CHECK-NEXT:  block 1 if.end {{.*}}fp32_add=5 fp32_fma=1 {{.*}}ld.global.32=7 st.global.32=1 -> 2
// CHECK:       mem M0 load global 4B block=1 base=arg:in offset=(mul:nsw 4 (sext:32:64 (add:32 1 (mul:32 (add:32 1 (mul:32 (add:32 1 (mul:32 grp.z lsz.z) lid.z) arg.ny) (mul:32 grp.y lsz.y) lid.y) arg.nx) (mul:32 grp.x lsz.x) lid.x))) affine
// CHECK-NEXT:  mem M1 load global 4B block=1 base=arg:in offset=(mul:nsw 4 (sext:32:64 (add:32 (mul:32 (add:32 1 (mul:32 (add:32 1 (mul:32 grp.z lsz.z) lid.z) arg.ny) (mul:32 grp.y lsz.y) lid.y) arg.nx) (mul:32 grp.x lsz.x) lid.x))) affine
// CHECK-NEXT:  mem M2 load global 4B block=1 base=arg:in offset=(add:nsw 4 (mul:nsw 4 {{.*}})) affine
// CHECK-NEXT:  mem M3 load global 4B block=1 base=arg:in offset=(add (mul:nsw 4 {{.*}}) (mul:nsw -4 (sext:32:64 arg.nx))) affine
// CHECK-NEXT:  mem M4 load global 4B block=1 base=arg:in offset=(mul:nsw 4 (sext:32:64 (add:32 1 (mul:32 (add:32 2 (mul:32 (add:32 1 (mul:32 grp.z lsz.z) lid.z) arg.ny) (mul:32 grp.y lsz.y) lid.y) arg.nx) (mul:32 grp.x lsz.x) lid.x))) affine
// CHECK-NEXT:  mem M5 load global 4B block=1 base=arg:in offset=(add (mul:nsw 4 {{.*}}) (mul:nsw -4 (sext:32:64 (mul:32 arg.nx arg.ny)))) affine
// CHECK-NEXT:  mem M6 load global 4B block=1 base=arg:in offset=(mul:nsw 4 (sext:32:64 (add:32 1 (mul:32 (add:32 1 (mul:32 (add:32 2 (mul:32 grp.z lsz.z) lid.z) arg.ny) (mul:32 grp.y lsz.y) lid.y) arg.nx) (mul:32 grp.x lsz.x) lid.x))) affine
// CHECK-NEXT:  mem M7 store global 4B block=1 base=arg:out offset=(mul:nsw 4 (sext:32:64 (add:32 1 (mul:32 (add:32 1 (mul:32 (add:32 1 (mul:32 grp.z lsz.z) lid.z) arg.ny) (mul:32 grp.y lsz.y) lid.y) arg.nx) (mul:32 grp.x lsz.x) lid.x))) affine
