/* floyd_warshall: one relaxation pass of all-pairs shortest paths; CUDA
 * twin of floyd_warshall.cl.  Blocks of 16x16. */
extern "C" __global__ void fw_pass(int *dist, int n, int k)
{
    int j = (blockIdx.x * blockDim.x + threadIdx.x), i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < n && j < n) {
        int via = dist[i * n + k] + dist[k * n + j];
        if (via < dist[i * n + j])
            dist[i * n + j] = via;
    }
}
