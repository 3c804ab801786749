// included by main.cu; includes the kernel
#include "kernel.cu"
