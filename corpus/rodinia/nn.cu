/* nn: nearest neighbour, distance step (Rodinia nn pattern); CUDA twin of
 * nn.cl.  Blocks of 256 threads. */
struct LatLong {
    float lat;
    float lng;
};

extern "C" __global__ void euclid(const LatLong *locations, float *distances, int num_records, float lat, float lng)
{
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    if (gid < num_records) {
        float dlat = lat - locations[gid].lat;
        float dlng = lng - locations[gid].lng;
        distances[gid] = sqrtf(dlat * dlat + dlng * dlng);
    }
}
