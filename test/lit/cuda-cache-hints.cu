// The cache-hinted loads and stores of sm_32_intrinsics.h (__ldcs, __ldcg, __ldca, __ldlu,
// __ldcv, __ldg; __stcs, __stcg, __stwb, __stwt) are global accesses of their type's width
// for scalars and vectors alike, each with its cache operator (cache-operators.cu: what
// the simulator makes of it).
// RUN: %wgperf extract %s -o %t.json --print 2>&1 | FileCheck %s
// RUN: %wgperf analyze %t.json --kernel stream --global 65536 --local 256 --arg n=65536 | FileCheck %s --check-prefix=AN
// CHECK-NOT: warning: kernel

// nvcc's header for them: cuda_compat.h has declared them already
#include <sm_32_intrinsics.h>

// __ldcv fetches again every time: two reads of one address stay two loads
// CHECK-LABEL: kernel reread
// CHECK: mem M0 load global 4B {{.*}}base=arg:flag cache=cv
// CHECK: mem M1 load global 4B {{.*}}base=arg:flag cache=cv
__global__ void reread(const int *flag, int *out) {
  int a = __ldcv(flag);
  int b = __ldcv(flag);
  out[threadIdx.x] = a + b;
}

// CHECK-LABEL: kernel stream
// CHECK-NOT: call=
// CHECK: mem M0 load global 16B {{.*}}base=arg:a cache=cs
// CHECK: mem M1 load global 16B {{.*}}base=arg:b cache=cg
// CHECK: mem M2 load global 8B {{.*}}base=arg:c cache=ca
// CHECK: mem M3 load global 4B {{.*}}base=arg:s cache=lu
// CHECK: mem M4 load global 8B {{.*}}base=arg:d cache=cv
// CHECK: mem M5 load global 4B {{.*}}base=arg:u cache=nc
// CHECK: mem M6 store global 16B {{.*}}base=arg:o4 cache=cs
// CHECK: mem M7 store global 8B {{.*}}base=arg:o2 cache=cg
// CHECK: mem M8 store global 4B {{.*}}base=arg:o1 cache=wb
// CHECK: mem M9 store global 8B {{.*}}base=arg:od cache=wt
// CHECK-NOT: mem M10
// AN-NOT: unresolved
// AN: ld.global.128=4096 ld.global.32=4096 ld.global.64=4096
// AN-SAME: st.global.128=2048 st.global.32=2048 st.global.64=4096
__global__ void stream(const float4 *a, const int4 *b, const float2 *c, const float *s, const double *d,
                       const unsigned *u, float4 *o4, float2 *o2, float *o1, double *od, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float4 x = __ldcs(a + i);
  int4 y = __ldcg(b + i);
  float2 z = __ldca(c + i);
  float w = __ldlu(s + i);
  double e = __ldcv(d + i);
  unsigned k = __ldg(u + i);
  __stcs(o4 + i, make_float4(x.x + y.x, x.y, x.z, x.w + w));
  __stcg(o2 + i, z);
  __stwb(o1 + i, (float)k);
  __stwt(od + i, e);
}
