/* device_functions.h - wgperf's cuda_compat.h, force-included before any source, declares what
 * this CUDA header does; an empty stand-in so that an #include of it compiles. */
