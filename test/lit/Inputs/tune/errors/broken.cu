// scale.cu's kernel, broken for some configurations: elems 4 stops the
// preprocessor (#error), elems 2 names a variable that does not exist, and
// block_size_x 256, elems 1, variant 2 calls a host function from a host and
// device function compiled for the device: an error clang defers to the end
// of the file, once it knows the function is emitted.
#if elems == 4
#error elems 4 is not supported by this kernel
#endif
#include "../scale.cu"
#if elems == 2
__device__ int broken_for_two() { return elems + undeclared_in_this_kernel; }
#endif
// (the message's column is the source's, 50, not that of the preprocessed
// text that wgperf-cc compiles first, where "elems" is "2")
#if block_size_x == 256 && elems == 1 && variant == 2
void host_only_function();
__host__ __device__ void calls_the_host() { host_only_function(); }
#endif
