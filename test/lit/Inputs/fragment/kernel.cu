// the kernel: Elem and fp come from main.cu
__global__ void scale(Elem *e, fp a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    e[i].value *= a;
}
