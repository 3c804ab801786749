// A loop stepping by 16 (t += TILE, t < N) around a barrier: ScalarEvolution
// gives up, the induction-variable fallback gives ceil(N/16) (the loop is
// entered only when N > 0).
// RUN: %clang_cu -O2 -fno-unroll-loops -g -c -emit-llvm %s -o %t.bc
// RUN: %opt -load-pass-plugin=%plugin -passes='print<wgperf>' -disable-output %t.bc | FileCheck %s

__global__ void tiles(const float *a, float *out, int N) {
  float s = 0.0f;
  for (int t = 0; t < N; t += 16) {
    __syncthreads();
    s += a[t + threadIdx.x];
  }
  out[threadIdx.x] = s;
}

// CHECK-LABEL: kernel tiles (cuda)
// CHECK:       loop L0 header={{[0-9]+}} depth=1
// CHECK-NEXT:    trip exact: (add:nsw:nuw 1 (udiv (add:nsw:nuw 15 (smax 0 (add:nsw -16 (sext:32:64 arg.N)))) 16))
// CHECK:         exit at {{[0-9]+}} when (not (slt:32 (add:32:nuw 16 (mul:32:nuw 16 it.L0)) arg.N))
// CHECK:       load global 4B {{.*}}base=arg:a offset={{.*}}it.L0{{.*}} affine
