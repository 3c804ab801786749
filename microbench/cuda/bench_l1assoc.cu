// bench_l1assoc.cu - L1 set conflicts and the event-timed cost of an empty kernel.
//
//   nvcc -O3 -arch=sm_90 -o bench_l1assoc bench_l1assoc.cu && ./bench_l1assoc > l1assoc.csv
//
// 1. Associativity: one thread chases a pointer ring of N lines placed STRIDE
//    bytes apart (ld.global.ca, warm pass first) and reports cycles per load.
//    For a set-associative L1, lines STRIDE apart share a set when STRIDE is a
//    multiple of (sets x line); the latency jumps from the L1 hit to the L2 hit
//    once N exceeds the ways.  Sweeps STRIDE 128 B..256 KiB and N 1..64.
// 2. Empty kernel, timed like the validation harness: a spin kernel keeps the
//    GPU busy while the host queues event, kernel, event, so the events time
//    the kernel and not the host's launch path.  Grids of 1..132000 blocks.
// Output CSV: benchmark,stride_bytes,lines,value,unit,status
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#include <algorithm>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf(stderr, "cuda error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(1); } } while (0)

__global__ void chase(const uint32_t *ring, uint32_t start, int steps, uint32_t *out, long long *cycles) {
  uint32_t p = start;
  for (int i = 0; i < steps; i++) // warm: bring the ring into L1
    p = __ldca(&ring[p]);
  long long t0 = clock64();
  for (int i = 0; i < steps; i++)
    p = __ldca(&ring[p]);
  long long t1 = clock64();
  out[0] = p;
  cycles[0] = t1 - t0;
}

__global__ void spin(long long ns) {
  long long t0 = clock64();
  while (clock64() - t0 < ns) {}
}

__global__ void empty() {}

int main() {
  int dev = 0;
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, dev));
  printf("# gpu=%s, sm=%d, l2_bytes=%d\n", prop.name, prop.multiProcessorCount, prop.l2CacheSize);
  printf("benchmark,stride_bytes,lines,value,unit,status\n");
  const size_t bytes = 64u << 20; // room for 64 lines at 1 MiB stride
  uint32_t *ring, *out;
  long long *cyc;
  CK(cudaMalloc(&ring, bytes));
  CK(cudaMalloc(&out, 4));
  CK(cudaMalloc(&cyc, 8));
  std::vector<uint32_t> host(bytes / 4, 0);
  const size_t strides[] = {128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072, 262144};
  for (size_t s : strides) {
    for (int n = 1; n <= 64; n++) {
      if ((size_t)n * s > bytes)
        break;
      // ring over n lines, s bytes apart (element index = line * s/4)
      for (int i = 0; i < n; i++)
        host[(size_t)i * s / 4] = (uint32_t)(((size_t)((i + 1) % n)) * s / 4);
      CK(cudaMemcpy(ring, host.data(), (size_t)n * s, cudaMemcpyHostToDevice));
      const int steps = 4096;
      chase<<<1, 1>>>(ring, 0, steps, out, cyc);
      CK(cudaGetLastError());
      CK(cudaDeviceSynchronize());
      long long c;
      uint32_t end;
      CK(cudaMemcpy(&c, cyc, 8, cudaMemcpyDeviceToHost));
      CK(cudaMemcpy(&end, out, 4, cudaMemcpyDeviceToHost));
      // after steps (a multiple of n when n divides 4096) the chase ends at a known line
      uint32_t expect = (uint32_t)(((size_t)((2 * steps) % n)) * s / 4);
      printf("l1_assoc,%zu,%d,%.2f,cycles_per_load,%s\n", s, n, (double)c / steps, end == expect ? "ok" : "error");
      for (int i = 0; i < n; i++)
        host[(size_t)i * s / 4] = 0;
    }
  }
  // empty kernels, event-timed behind a spin kernel
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  const int grids[] = {1, 132, 1320, 13200, 132000};
  for (int g : grids) {
    std::vector<float> ms;
    for (int r = 0; r < 21; r++) {
      spin<<<1, 1>>>(200000);
      CK(cudaEventRecord(a));
      empty<<<g, 256>>>();
      CK(cudaEventRecord(b));
      CK(cudaEventSynchronize(b));
      CK(cudaGetLastError());
      float t;
      CK(cudaEventElapsedTime(&t, a, b));
      ms.push_back(t);
    }
    std::sort(ms.begin(), ms.end());
    printf("empty_kernel_event,%d,256,%.3f,us,ok\n", g, ms[ms.size() / 2] * 1000.0);
  }
  // events alone (the measurement's own floor)
  {
    std::vector<float> ms;
    for (int r = 0; r < 21; r++) {
      spin<<<1, 1>>>(200000);
      CK(cudaEventRecord(a));
      CK(cudaEventRecord(b));
      CK(cudaEventSynchronize(b));
      float t;
      CK(cudaEventElapsedTime(&t, a, b));
      ms.push_back(t);
    }
    std::sort(ms.begin(), ms.end());
    printf("event_pair_only,0,0,%.3f,us,ok\n", ms[ms.size() / 2] * 1000.0);
  }
  return 0;
}
