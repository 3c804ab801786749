// A struct passed by value: each field the kernel reads is an argument of its own, named
// after the member, so the bound p.n makes the branch a work-item one (not data-dependent),
// p.x[i] and p.y[i] are affine accesses of buffers p.x and p.y, and the launch gives them
// as any other argument.
// RUN: %wgperf extract %s -o %t.json | FileCheck %s --check-prefix=EXTRACT
// EXTRACT: kernel saxpy_p
// EXTRACT-NEXT: args    p.x: global float* (4 B elements), p.y: global float* (4 B elements), p.a: float (4 B), p.n: int (4 B)
// EXTRACT-NEXT: blocks  3, 1 branch (1 work-item)
// EXTRACT: memory  3 accesses: global 3 (2 loads, 1 store)
// Nested structs and arrays inside: the member path names the field.
// EXTRACT: kernel stencil_p
// EXTRACT-NEXT: args    in: global const float* (4 B elements), out: global float* (4 B elements), s.dims.w: int (4 B), s.dims.h: int (4 B), s.w[0]: float (4 B), s.w[1]: float (4 B), s.w[2]: float (4 B)
// EXTRACT: kernel whole_copy
// EXTRACT-NEXT: args    q: global Params
// EXTRACT: note: struct argument 'q' is used other than by reading its fields
//
// RUN: %wgperf predict %t.json --kernel saxpy_p --global 1048576 --local 256 --arg p.n=1048576 \
// RUN:   --buffer p.x=4194304 --buffer p.y=4194304 --gpu gtx-980 --json | FileCheck %s --check-prefix=PRED
// PRED: "kernel": "saxpy_p"
// RUN: not %wgperf predict %t.json --kernel saxpy_p --global 1024 --local 256 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NEEDN
// NEEDN: needs a value for its argument 'p.n' (--arg p.n=VALUE)
// A field the kernel never reads is no argument; the error says which fields are:
// RUN: not %wgperf predict %t.json --kernel stencil_p --global 512,512 --local 32,8 --arg s.dims.w=512 \
// RUN:   --arg s.dims.h=512 --arg s.dims.d=1 2>&1 | FileCheck %s --check-prefix=UNREAD
// UNREAD: kernel 'stencil_p' never reads 's.dims.d' (--arg): of its struct argument 's' it reads only s.dims.w, s.dims.h, s.w[0], s.w[1], s.w[2]; leave 's.dims.d' out
// The analysis sees the 2D bound and the coalesced rows of a stencil's parameter struct:
// RUN: %wgperf analyze %t.json --kernel stencil_p --global 512,512 --local 32,8 --arg s.dims.w=512 \
// RUN:   --arg s.dims.h=512 | FileCheck %s --check-prefix=STENCIL
// STENCIL-NOT: data-dependent

struct Params {
  float *x;
  float *y;
  float a;
  int n;
};

__global__ void saxpy_p(Params p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.n)
    p.y[i] = p.a * p.x[i] + p.y[i];
}

struct Dims {
  int w, h;
};
struct Stencil {
  Dims dims;
  float w[3];
};

__global__ void stencil_p(const float *in, float *out, Stencil s) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x > 0 && x < s.dims.w - 1 && y < s.dims.h)
    out[y * s.dims.w + x] = s.w[0] * in[y * s.dims.w + x - 1] + s.w[1] * in[y * s.dims.w + x] +
                            s.w[2] * in[y * s.dims.w + x + 1];
}

// The struct's address escapes (a variable index into it): left as it was.
__global__ void whole_copy(Params q, float *out, int k) {
  const float *f = (const float *)&q;
  out[threadIdx.x] = f[k & 3];
}

// OpenCL: the same for a struct argument (OpenCL C allows no pointers in it); before,
// such a kernel's model was refused (a pointer argument in private space).
// RUN: %wgperf extract %S/Inputs/struct/params.cl -o %t.cl.json 2>&1 | FileCheck %s --check-prefix=CL
// CL: kernel inner
// CL-NEXT: args    x: global float* (4 B elements), p: global P
// CL: note: struct argument 'p' is used other than by reading its fields
// CL: kernel scale_strided
// CL-NEXT: args    x: global float* (4 B elements), p.n: int (4 B), p.a: float (4 B), p.stride: int (4 B)
// RUN: %wgperf analyze %t.cl.json --kernel scale_strided --global 4096 --local 128 --arg p.n=4096 \
// RUN:   --arg p.stride=2 | FileCheck %s --check-prefix=CLAN
// CLAN: M0 {{.*}} 8.00 sectors
