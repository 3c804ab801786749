/* btree: batched B+tree queries (Rodinia b+tree pattern); CUDA twin of
 * btree.cl.  One block of ORDER threads per query. */
#define ORDER 256

struct knode {
    int location;
    int indices[ORDER + 1];
    int keys[ORDER + 1];
    int is_leaf;
    int num_keys;
};

extern "C" __global__ void findK(long height, const knode *knodes, long knodes_elem, const int *records,
                                 long *currKnode, long *offset, const int *keys, int *ans)
{
    int thid = threadIdx.x;
    int bid = blockIdx.x;
    for (long i = 0; i < height; i++) {
        if (knodes[currKnode[bid]].keys[thid] <= keys[bid] && knodes[currKnode[bid]].keys[thid + 1] > keys[bid]) {
            if (knodes[offset[bid]].indices[thid] < knodes_elem)
                offset[bid] = knodes[offset[bid]].indices[thid];
        }
        __syncthreads();
        if (thid == 0)
            currKnode[bid] = offset[bid];
        __syncthreads();
    }
    if (knodes[currKnode[bid]].keys[thid] == keys[bid])
        ans[bid] = records[knodes[currKnode[bid]].indices[thid]];
}

extern "C" __global__ void findRangeK(long height, const knode *knodes, long knodes_elem, long *currKnode,
                                      long *offset, long *lastKnode, long *offset_2, const int *start,
                                      const int *end, int *recstart, int *reclength)
{
    int thid = threadIdx.x;
    int bid = blockIdx.x;
    for (long i = 0; i < height; i++) {
        if (knodes[currKnode[bid]].keys[thid] <= start[bid] && knodes[currKnode[bid]].keys[thid + 1] > start[bid]) {
            if (knodes[currKnode[bid]].indices[thid] < knodes_elem)
                offset[bid] = knodes[currKnode[bid]].indices[thid];
        }
        if (knodes[lastKnode[bid]].keys[thid] <= end[bid] && knodes[lastKnode[bid]].keys[thid + 1] > end[bid]) {
            if (knodes[lastKnode[bid]].indices[thid] < knodes_elem)
                offset_2[bid] = knodes[lastKnode[bid]].indices[thid];
        }
        __syncthreads();
        if (thid == 0) {
            currKnode[bid] = offset[bid];
            lastKnode[bid] = offset_2[bid];
        }
        __syncthreads();
    }
    if (knodes[currKnode[bid]].keys[thid] == start[bid])
        recstart[bid] = knodes[currKnode[bid]].indices[thid];
    __syncthreads();
    if (knodes[lastKnode[bid]].keys[thid] == end[bid])
        reclength[bid] = knodes[lastKnode[bid]].indices[thid] - recstart[bid] + 1;
}
