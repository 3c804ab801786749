// Template kernels: each explicit instance is a kernel, named as nvcc's profilers name it;
// --kernel takes the name with or without the spaces, or the template's name where one
// instance has it. A scalar that no address, branch or loop count reads (the factor s)
// needs no --arg.
// RUN: %wgperf extract %s -o %t.json | FileCheck %s --check-prefix=EXTRACT
// EXTRACT: kernel scale<double, 128>
// EXTRACT: kernel scale<float, 256>
// EXTRACT: kernel shift<int>
// RUN: %wgperf predict %t.json --kernel 'scale<float,256>' --global 1048576 --local 256 --arg n=1048576 \
// RUN:   --gpu gtx-980 | FileCheck %s --check-prefix=FLOAT
// FLOAT: kernel scale<float, 256> on NVIDIA GeForce GTX 980
// RUN: %wgperf predict %t.json --kernel shift --global 4096 --local 128 --arg n=4096 --gpu gtx-980 \
// RUN:   | FileCheck %s --check-prefix=SHIFT
// SHIFT: kernel shift<int> on
// Several instances: the error says so and lists them, quoted.
// RUN: not %wgperf predict %t.json --kernel scale --global 1024 --local 256 --arg n=1024 2>&1 \
// RUN:   | FileCheck %s --check-prefix=AMBIG
// AMBIG: 'scale' is a template with 2 instances, pick one with --kernel: 'scale<double, 128>' 'scale<float, 256>' shift<int>
// n bounds the accesses: it still needs a value.
// RUN: not %wgperf predict %t.json --kernel 'scale<double, 128>' --global 1024 --local 128 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NEEDN
// NEEDN: needs a value for its argument 'n' (--arg n=VALUE)

template <typename T, int BS>
__global__ void scale(T *x, T s, int n) {
  int i = blockIdx.x * BS + threadIdx.x;
  if (i < n)
    x[i] *= s;
}
template __global__ void scale<float, 256>(float *, float, int);
template __global__ void scale<double, 128>(double *, double, int);

template <typename T>
__global__ void shift(T *x, int by, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = x[i] << by;
}
template __global__ void shift<int>(int *, int, int);
