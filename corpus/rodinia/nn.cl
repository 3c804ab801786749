/* nn: nearest neighbour, distance step (the pattern of Rodinia's nn): every
 * work-item computes the Euclidean distance of one record (a two-float
 * struct) to the query point with sqrt; the host keeps the k smallest.
 * 42,764 hurricane records, 256 work-items per group (last group partial,
 * guarded). */
typedef struct {
    float lat;
    float lng;
} LatLong;

__kernel void euclid(__global const LatLong *locations, __global float *distances, int num_records, float lat,
                     float lng)
{
    int gid = get_global_id(0);
    if (gid < num_records) {
        float dlat = lat - locations[gid].lat;
        float dlng = lng - locations[gid].lng;
        distances[gid] = sqrt(dlat * dlat + dlng * dlng);
    }
}
