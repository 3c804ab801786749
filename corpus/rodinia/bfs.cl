/* bfs: one level of breadth-first search over a CSR graph with frontier
 * masks (the access pattern of Rodinia's BFS).  bfs_expand visits the edges
 * of every frontier node: the edge loop's bounds and every neighbour index
 * are loaded (data-dependent loop, indirect accesses); bfs_update promotes
 * the next frontier and raises a flag.  Host: both kernels per level until
 * the flag stays 0.  1,000,000 nodes (graph1MW_6), 512 work-items per group. */
typedef struct {
    int starting;
    int no_of_edges;
} Node;

__kernel void bfs_expand(__global const Node *nodes, __global const int *edges, __global char *mask,
                         __global char *updating, __global const char *visited, __global int *cost,
                         int no_of_nodes)
{
    int tid = get_global_id(0);
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

__kernel void bfs_update(__global char *mask, __global char *updating, __global char *visited,
                         __global char *over, int no_of_nodes)
{
    int tid = get_global_id(0);
    if (tid < no_of_nodes && updating[tid]) {
        mask[tid] = 1;
        visited[tid] = 1;
        *over = 1;
        updating[tid] = 0;
    }
}
