/* Shared-memory loads whose lanes are 32 words apart (one bank, 32-way
 * conflicts), each one's value used at once: in-order issue makes a warp
 * wait for every load in turn. */
extern "C" __global__ void conflict_chain(int *out, int n)
{
    __shared__ int buf[32 * 32];
    int t = threadIdx.x;
    for (int i = 0; i < 32; i++)
        buf[32 * i + t] = i;
    __syncthreads();
    int acc = 0;
    for (int m = 0; m < n; m++)
        acc += buf[32 * t + (m & 31)] * acc + m;
    out[t] = acc;
}
