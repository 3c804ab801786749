/* cuda.h - see cuda_runtime.h: host declarations for wgperf's device-side compile. */
#include "cuda_runtime.h"
