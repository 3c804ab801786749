// scale.cu's kernel, broken for some configurations: elems 4 stops the
// preprocessor (#error), elems 2 names a variable that does not exist.
#if elems == 4
#error elems 4 is not supported by this kernel
#endif
#include "../scale.cu"
#if elems == 2
__device__ int broken_for_two() { return elems + undeclared_in_this_kernel; }
#endif
// (the message's column is the source's, 50, not that of the preprocessed
// text that wgperf-cc compiles first, where "elems" is "2")
