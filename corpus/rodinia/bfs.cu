/* bfs: one level of breadth-first search over a CSR graph with frontier
 * masks (the access pattern of Rodinia's BFS); CUDA twin of bfs.cl.
 * Grid ceil(no_of_nodes/512) blocks of 512 threads for both kernels. */
struct Node {
    int starting;
    int no_of_edges;
};

extern "C" __global__ void bfs_expand(const Node *nodes, const int *edges, char *mask, char *updating,
                                      const char *visited, int *cost, int no_of_nodes)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < no_of_nodes && mask[tid]) {
        mask[tid] = 0;
        int start = nodes[tid].starting;
        int end = start + nodes[tid].no_of_edges;
        for (int i = start; i < end; i++) {
            int id = edges[i];
            if (!visited[id]) {
                cost[id] = cost[tid] + 1;
                updating[id] = 1;
            }
        }
    }
}

extern "C" __global__ void bfs_update(char *mask, char *updating, char *visited, char *over, int no_of_nodes)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < no_of_nodes && updating[tid]) {
        mask[tid] = 1;
        visited[tid] = 1;
        *over = 1;
        updating[tid] = 0;
    }
}
