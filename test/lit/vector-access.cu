// Adjacent loads and stores of one thread merged into one vector access as the
// NVPTX backend's load/store vectorizer merges them (ld.global.v4.f32): a float4
// read through __ldg or field by field, clang -O3 splits it into four scalar
// loads, is one 16-byte access, one instruction and one request per warp, not four
// requests of 4 bytes at a 16-byte stride. Only where the alignment allows it:
// a[i] and a[i + 1] of a float array stay two loads.
// RUN: %wgperf extract %s -o %t.json --print 2>&1 | FileCheck %s
// CHECK-LABEL: kernel fields
// CHECK: mem M0 load global 16B
// CHECK-NOT: mem M{{[0-9]+}} load
// CHECK: mem M1 store global 16B
// CHECK: totals: {{.*}}ld.global.128=1 {{.*}}st.global.128=1
// CHECK-LABEL: kernel ldg
// CHECK: mem M0 load global 16B
// CHECK-NOT: mem M{{[0-9]+}} load
// CHECK-LABEL: kernel pair
// CHECK: mem M0 load global 4B
// CHECK: mem M1 load global 4B
// CHECK-LABEL: kernel pixels
// CHECK: mem M0 load global 4B
// CHECK-NOT: mem M{{[0-9]+}} load
// RUN: env WGPERF_PTXAS= %wgperf extract %s -o %t.est.json > /dev/null
// RUN: FileCheck %s --check-prefix=REGS < %t.est.json
// a uchar4 is one 32-bit register, as NVPTX holds it
// REGS-LABEL: "name": "pixels"
// REGS: "register_pressure": {{[0-9]}},

extern "C" __global__ void fields(const float4 *in, float4 *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 v = in[i];
    out[i] = make_float4(v.x * 2.f, v.y * 2.f, v.z * 2.f, v.w * 2.f);
}

extern "C" __global__ void ldg(const float4 *__restrict__ in, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 v = __ldg(&in[i]);
    out[i] = v.x + v.y + v.z + v.w;
}

extern "C" __global__ void pair(const float *a, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = a[i] + a[i + 1];
}

extern "C" __global__ void pixels(const uchar4 *in, unsigned *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    uchar4 p = in[i];
    out[i] = p.x + p.y + p.z + p.w;
}
