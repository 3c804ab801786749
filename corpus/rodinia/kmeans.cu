/* kmeans: assignment step of k-means (Rodinia kmeans pattern); CUDA twin of
 * kmeans.cl.  Blocks of 256 threads. */
extern "C" __global__ void kmeans_point(const float *features, int nfeatures, int npoints, int nclusters,
                                        int *membership, const float *clusters)
{
    int point_id = blockIdx.x * blockDim.x + threadIdx.x;
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

extern "C" __global__ void kmeans_swap(const float *feature, float *feature_swap, int npoints, int nfeatures)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= npoints)
        return;
    for (int i = 0; i < nfeatures; i++)
        feature_swap[i * npoints + tid] = feature[tid * nfeatures + i];
}
