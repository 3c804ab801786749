// OpenCL's integer min/max/clamp/abs and the convert_* family reach the
// plugin as calls (libclc is not linked into the model): clamp and min/max
// become smin/smax/umin/umax in addresses, so a clamped stencil's loads
// are evaluated per lane instead of being unknown; conversions are counted
// as one conv per element, not left as unresolved calls.
// RUN: %wgperf extract %s -o %t.json --print 2> %t.err | FileCheck %s
// RUN: not grep -q "left unresolved" %t.err
// RUN: %wgperf analyze %t.json --kernel blur --global 256,256 --local 32,8 --arg w=256 --arg h=256 --arg u=64 | FileCheck %s --check-prefix=AN

// CHECK-LABEL: kernel blur
// CHECK: conv=9
// CHECK: mem M0 load global 4B {{.*}}(smin:32 (smax:32 (add:32{{[:a-z]*}} -1 (trunc:64:32 gid.x)) 0) (add:32{{[:a-z]*}} -1 arg.w))
// CHECK: mem M1 load global 4B {{.*}}(abs:32 (add:32 (trunc:64:32 gid.x) (mul:32 -1 arg.w)))
// CHECK: mem M2 load global 4B {{.*}}base=arg:lut {{.*}}(umin:32 (trunc:64:32 gid.x) (add:32 -1 arg.u))
// CHECK-NOT: ?call

// AN-NOT: address {{unknown|from loaded data}}
// AN-NOT: fallback
__kernel void blur(__global const uchar4 *in, __global const uint *lut, __global float4 *out, int w, int h, uint u) {
  int x = get_global_id(0), y = get_global_id(1);
  int xl = clamp(x - 1, 0, w - 1), yc = min(max(y, 0), h - 1);
  uint xu = min((uint)x, u - 1);
  float4 a = convert_float4(in[yc * w + xl]);
  float4 b = convert_float4(in[yc * w + abs(x - w)]);
  out[y * w + x] = a + b + (float)lut[xu];
}
