// OpenCL's opaque handles (image2d_t, sampler_t) are pointers in the IR, the
// sampler one in the private space; they are scalar arguments of the handle's
// size, so a file with an image kernel still gives a model the other kernels
// can be predicted from (it failed to load: "arg 2: pointer argument in space
// 'private'"), and the image read is an unresolved call, said so.
// RUN: %wgperf extract %s -o %t.json 2>&1 | FileCheck %s
// CHECK: warning: kernel 'img': call to 'read_imagef({{.*}})' left unresolved
// CHECK: 3 kernels from
// CHECK-LABEL: kernel img
// CHECK: args    im: image2d_t (8 B), out: global float4* (16 B elements), s: sampler_t (8 B)
// RUN: %wgperf predict %t.json --kernel scale --global 1048576 --local 256 --arg n=1048576 | FileCheck %s --check-prefix=SCALE
// SCALE: kernel scale on
// SCALE: time
// A buffer of a user's type whose name starts with "image" stays a buffer:
// CHECK-LABEL: kernel user_image
// CHECK: args    imagex: global image_data* (4 B elements), n: int (4 B)
// RUN: %wgperf predict %t.json --kernel img --global 1024,1024 --local 16,16 | FileCheck %s --check-prefix=IMG
// IMG: fallback    call to 'read_imagef({{.*}})' at {{.*}}opencl-image-args.cl:{{[0-9]+}}: left unresolved

__kernel void img(read_only image2d_t im, __global float4 *out, sampler_t s) {
  int x = get_global_id(0), y = get_global_id(1);
  out[y * get_global_size(0) + x] = read_imagef(im, s, (int2)(x, y));
}

__kernel void scale(__global float *x, int n) {
  int i = get_global_id(0);
  if (i < n) x[i] *= 2.0f;
}

typedef struct { float v; } image_data;

__kernel void user_image(__global image_data *imagex, int n) {
  int i = get_global_id(0);
  if (i < n) imagex[i].v *= 2.0f;
}
