// The tile width comes from the command line (-DTW=...), as a GPU programmer
// builds one kernel for several tile sizes; without it the kernel does not
// compile.  An include directory supplies the element type.
#include "elem.h"

extern "C" __global__ void tile_sum(ELEM *out, const ELEM *in, int n) {
    __shared__ ELEM tile[TW];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    tile[threadIdx.x % TW] = i < n ? in[i] : 0;
    __syncthreads();
    if (threadIdx.x == 0) {
        ELEM s = 0;
        for (int k = 0; k < TW; k++)
            s += tile[k];
        out[blockIdx.x] = s;
    }
}
