/* kmeans: the assignment step of k-means clustering (the pattern of
 * Rodinia's kmeans).  Features are stored feature-major (transposed by
 * kmeans_swap, whose stores are strided) so the loads of kmeans_point are
 * coalesced; every point scans all clusters (argument trip counts) and keeps
 * the nearest, a branch on loaded values.  494,020 points with 34 features
 * (kdd_cup), 5 clusters, 256 work-items per group. */
__kernel void kmeans_point(__global const float *features, int nfeatures, int npoints, int nclusters,
                           __global int *membership, __global const float *clusters)
{
    int point_id = get_global_id(0);
    if (point_id >= npoints)
        return;
    int index = -1;
    float min_dist = 3.402823466e+38f;
    for (int i = 0; i < nclusters; i++) {
        float dist = 0.0f;
        for (int l = 0; l < nfeatures; l++) {
            float d = features[l * npoints + point_id] - clusters[i * nfeatures + l];
            dist += d * d;
        }
        if (dist < min_dist) {
            min_dist = dist;
            index = i;
        }
    }
    membership[point_id] = index;
}

__kernel void kmeans_swap(__global const float *feature, __global float *feature_swap, int npoints, int nfeatures)
{
    int tid = get_global_id(0);
    if (tid >= npoints)
        return;
    for (int i = 0; i < nfeatures; i++)
        feature_swap[i * npoints + tid] = feature[tid * nfeatures + i];
}
