// A user's nvcc line after wgperf's '--': the options clang has an
// equivalent of become it (-use_fast_math: -ffast-math; -ftz=true:
// -fgpu-flush-denormals-to-zero; -fmad=false: -ffp-contract=off, so that
// a * b + c stays a multiply and an add, as nvcc makes it); -Xptxas
// -maxrregcount=N is the driver's; the others clang has not (the
// architecture, which is --gpu's, line info, debugging, host compiler,
// relocatable code, ptxas' own) are left out, named in one note, instead of
// clang failing on them.
// RUN: rm -rf %t && mkdir -p %t
// RUN: env WGPERF_NVCC= WGPERF_PTXAS= %wgperf extract %s -o %t/plain.json --print | FileCheck %s --check-prefix=FMA
// FMA: totals: {{.*}}fp32_fma=1
// RUN: env WGPERF_NVCC= WGPERF_PTXAS= %wgperf extract %s -o %t/nofma.json --print -- -fmad=false 2>&1 | FileCheck %s --check-prefix=NOFMA
// NOFMA-NOT: note
// NOFMA: totals: {{.*}}fp32_add=1 fp32_mul=1
// NOFMA-NOT: fp32_fma
// -prec-div=false: clang's -mllvm -nvptx-prec-divf32=1 (div.full.f32), which
// the plugin reads: the division is the relaxed one (sfu_fast), as for
// -use_fast_math, not the IEEE sequence
// RUN: env WGPERF_NVCC= WGPERF_PTXAS= %wgperf extract %s -o %t/div.json --print | FileCheck %s --check-prefix=PRECDIV
// PRECDIV-LABEL: kernel ratio
// PRECDIV: totals: {{.*}}fp32_div=1
// RUN: env WGPERF_NVCC= WGPERF_PTXAS= %wgperf extract %s -o %t/nodiv.json --print -- -prec-div=false 2>&1 | FileCheck %s --check-prefix=FASTDIV
// FASTDIV-NOT: note
// FASTDIV-LABEL: kernel ratio
// FASTDIV-NOT: fp32_div
// FASTDIV: totals: {{.*}}sfu_fast=1
// -prec-sqrt=false: clang's -mllvm -nvptx-prec-sqrtf32=0 (sqrt.approx.f32), which
// the plugin reads: the square root is the relaxed one (sfu_rsqrt), as for
// -use_fast_math, not the IEEE sqrt.rn
// RUN: env WGPERF_NVCC= WGPERF_PTXAS= %wgperf extract %s -o %t/sqrt.json --print | FileCheck %s --check-prefix=PRECSQRT
// PRECSQRT-LABEL: kernel root
// PRECSQRT: totals: {{.*}}sfu_sqrt=1
// RUN: env WGPERF_NVCC= WGPERF_PTXAS= %wgperf extract %s -o %t/nosqrt.json --print -- -prec-sqrt=false 2>&1 | FileCheck %s --check-prefix=FASTSQRT
// FASTSQRT-NOT: note
// FASTSQRT-LABEL: kernel root
// FASTSQRT-NOT: sfu_sqrt
// FASTSQRT: totals: {{.*}}sfu_rsqrt=1
// an LLVM IR input goes through opt, which takes the back end's options itself
// (-mllvm dropped); the options that change how a source compiles are an error
// naming the file and the option, not opt's "Unknown command line argument"
// RUN: %clang_cu -O1 -c -emit-llvm %s -o %t/k.bc
// RUN: env WGPERF_NVCC= WGPERF_PTXAS= %wgperf extract %t/k.bc -o %t/ir.json --print -- -prec-sqrt=false 2>&1 | FileCheck %s --check-prefix=FASTSQRT
// RUN: not %wgperf extract %t/k.bc -o %t/ir2.json -- -use_fast_math 2>&1 | FileCheck %s --check-prefix=IRFAST
// IRFAST-NOT: Unknown command line
// IRFAST: error: {{.*}}k.bc: '-ffast-math' (what nvcc's -use_fast_math, -ftz=true or -fmad=false is for clang) changes how a source compiles
// RUN: env WGPERF_NVCC= WGPERF_PTXAS= %wgperf extract %s -o %t/line.json -- -arch=sm_80 -lineinfo -Xptxas -v --expt-relaxed-constexpr -Xcompiler -fPIC -ftz=true -fmad=true -std=c++17 -G -rdc=true --gpu-architecture sm_86 2>&1 | FileCheck %s --check-prefix=LINE
// LINE: wgperf: note: nvcc options left out (clang has none of them, and the model does not follow them): -arch=sm_80, -lineinfo, -Xptxas -v, --expt-relaxed-constexpr, -Xcompiler -fPIC, -fmad=true, -G, -rdc=true, --gpu-architecture sm_86
// LINE-NOT: error
// LINE: 3 kernels from
// RUN: env WGPERF_NVCC= WGPERF_PTXAS= %wgperf extract %s -o %t/regs.json -- -Xptxas -maxrregcount=24 2>&1 | FileCheck %s --check-prefix=REGS
// REGS-NOT: note
// RUN: python3 -c "import json,sys; print([k['launch_attributes']['max_registers_per_thread'] for k in json.load(open(sys.argv[1]))['kernels']])" %t/regs.json | FileCheck %s --check-prefix=REC
// REC: [24, 24, 24]
// the same in predict and wgprune, which compile the source alike
// RUN: env WGPERF_NVCC= WGPERF_PTXAS= %wgperf predict %s --kernel axpb --grid 64 --block 256 -- -lineinfo 2>&1 | FileCheck %s --check-prefix=PREDICT
// PREDICT: wgperf: note: nvcc options left out {{.*}}: -lineinfo
// PREDICT: time
// RUN: env WGPERF_NVCC= WGPERF_PTXAS= wgprune %s --kernel axpb --grid 64 -- -lineinfo 2>&1 | FileCheck %s --check-prefix=PRUNE
// PRUNE: wgprune: note: nvcc options left out {{.*}}: -lineinfo

extern "C" __global__ void axpb(float *out, const float *a, const float *b, const float *c) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = a[i] * b[i] + c[i];
}

extern "C" __global__ void ratio(float *out, const float *a, const float *b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = a[i] / b[i];
}

extern "C" __global__ void root(float *out, const float *a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = sqrtf(a[i]);
}
