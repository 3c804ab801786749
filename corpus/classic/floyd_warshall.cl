/* floyd_warshall: one relaxation pass k of all-pairs shortest paths (the
 * classic GPU Floyd-Warshall): d[i][j] = min(d[i][j], d[i][k] + d[k][j]),
 * where d[i][k] is the same for a row of work-items and d[k][j] for a
 * column (broadcast-friendly loads).  2048 vertices, pass k = 1000, 16x16
 * work-groups. */
__kernel void fw_pass(__global int *dist, int n, int k)
{
    int j = get_global_id(0), i = get_global_id(1);
    if (i < n && j < n) {
        int via = dist[i * n + k] + dist[k * n + j];
        if (via < dist[i * n + j])
            dist[i * n + j] = via;
    }
}
