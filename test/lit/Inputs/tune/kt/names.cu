// Kernel Tuner's definitions (kernel_tuner/util.py, prepare_kernel_string): the
// grid in blocks, the block, every parameter and kernel_tuner, written before
// the kernel's text, so after the compiler's own headers.  grid_width and
// grid_height are also argument names in cuda.h's cuLaunchGrid prototype: as
// -D macros they would reach that header and break it.
#if !defined(kernel_tuner) || kernel_tuner != 1
#error "kernel_tuner is not defined to 1"
#endif
#if grid_size_x != (grid_width + block_size_x * rows - 1) / (block_size_x * rows)
#error "grid_size_x is not the grid's blocks"
#endif
#if grid_size_y != 1 || grid_size_z != 1 || block_size_y != 1 || block_size_z != 1
#error "the other dimensions are not 1"
#endif

__global__ void copy_rows(const float *in, float *out) {
  int x = blockIdx.x * block_size_x * rows + threadIdx.x;
  for (int r = 0; r < rows; r++)
    out[x + r * block_size_x] = in[x + r * block_size_x] * grid_height;
}
