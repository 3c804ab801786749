// Loads and stores merged only where nothing between them may write what they
// read: the clone's load/store vectorizer, which the plugin lets skip its
// checks in a block whose loads have no other memory access between them
// (passes/Extract.cpp, MarkLoadsForLsv), merges exactly what it merges without
// that.
// RUN: %wgperf extract %s -o %t.json --print 2>&1 | FileCheck %s
// (the kernels print in name order)
// stores on both sides of loads that may alias them: the loads merge, the
// stores do not
// CHECK-LABEL: kernel around
// CHECK: mem M0 store global 4B
// CHECK: mem M1 load global 8B
// CHECK: mem M2 store global 4B
// a store that may alias between the halves: two 8-byte loads, and the stores
// stay apart
// CHECK-LABEL: kernel split
// CHECK: mem M0 load global 8B
// CHECK: mem M1 store global 4B
// CHECK: mem M2 load global 8B
// CHECK: mem M3 store global 4B
// four loads with nothing between them: one 16-byte load
// CHECK-LABEL: kernel together
// CHECK: mem M0 load global 16B
// CHECK-NOT: mem M{{[0-9]+}} load

extern "C" __global__ void together(const float4 *in, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = in[i].x, y = in[i].y, z = in[i].z, w = in[i].w;
    out[i] = x * y + z * w;
}

extern "C" __global__ void split(const float4 *in, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = in[i].x, y = in[i].y;
    out[i] = x + y;
    float z = in[i].z, w = in[i].w;
    out[i + 1] = z + w;
}

extern "C" __global__ void around(const float2 *in, float2 *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i].x = 1.f;
    float x = in[i].x, y = in[i].y;
    out[i].y = x + y;
}
