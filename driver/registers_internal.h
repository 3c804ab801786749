/* registers_internal.h - ptxas' registers per thread added to a kernel model
 * (registers.c; driver/ only). */
#ifndef WGPERF_DRIVER_REGISTERS_INTERNAL_H
#define WGPERF_DRIVER_REGISTERS_INTERNAL_H

#include "wgperf/driver.h"

#include <stdbool.h>

/* Adds ptxas' registers per thread to the kernel model file MODEL, compiling
 * BITCODE (of INPUT; OpenCL when OPENCL) with the llc, opt and llvm-link
 * beside CLANG.  Returns the number of kernels patched: 0 without a CUDA
 * toolkit, or when ptxas gave no count, which a warning to MESSAGE (may be
 * NULL; MESSAGE_USER is its first argument) then explains. */
int wgp_add_ptxas_registers(const char *input, const char *bitcode, bool opencl, const char *clang, const char *model,
                            wgp_message_fn message, void *message_user);

#endif
