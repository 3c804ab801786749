/* btree: batched B+tree queries (the pattern of Rodinia's b+tree findK and
 * findRangeK).  One work-group of ORDER work-items per query; every level of
 * the descent compares each key slot of the current node with the query key
 * (data-dependent branch), one work-item moves the cursor, and barriers
 * separate the levels.  The level loop runs `height` times (an argument).
 * 10,000 queries on a 1M-record tree of order 256, height 3. */
#define ORDER 256

typedef struct {
    int location;
    int indices[ORDER + 1];
    int keys[ORDER + 1];
    int is_leaf;
    int num_keys;
} knode;

__kernel void findK(long height, __global const knode *knodes, long knodes_elem, __global const int *records,
                    __global long *currKnode, __global long *offset, __global const int *keys,
                    __global int *ans)
{
    int thid = get_local_id(0);
    int bid = get_group_id(0);
    for (long i = 0; i < height; i++) {
        if (knodes[currKnode[bid]].keys[thid] <= keys[bid] && knodes[currKnode[bid]].keys[thid + 1] > keys[bid]) {
            if (knodes[offset[bid]].indices[thid] < knodes_elem)
                offset[bid] = knodes[offset[bid]].indices[thid];
        }
        barrier(CLK_GLOBAL_MEM_FENCE);
        if (thid == 0)
            currKnode[bid] = offset[bid];
        barrier(CLK_GLOBAL_MEM_FENCE);
    }
    if (knodes[currKnode[bid]].keys[thid] == keys[bid])
        ans[bid] = records[knodes[currKnode[bid]].indices[thid]];
}

__kernel void findRangeK(long height, __global const knode *knodes, long knodes_elem,
                         __global long *currKnode, __global long *offset, __global long *lastKnode,
                         __global long *offset_2, __global const int *start, __global const int *end,
                         __global int *recstart, __global int *reclength)
{
    int thid = get_local_id(0);
    int bid = get_group_id(0);
    for (long i = 0; i < height; i++) {
        if (knodes[currKnode[bid]].keys[thid] <= start[bid] && knodes[currKnode[bid]].keys[thid + 1] > start[bid]) {
            if (knodes[currKnode[bid]].indices[thid] < knodes_elem)
                offset[bid] = knodes[currKnode[bid]].indices[thid];
        }
        if (knodes[lastKnode[bid]].keys[thid] <= end[bid] && knodes[lastKnode[bid]].keys[thid + 1] > end[bid]) {
            if (knodes[lastKnode[bid]].indices[thid] < knodes_elem)
                offset_2[bid] = knodes[lastKnode[bid]].indices[thid];
        }
        barrier(CLK_GLOBAL_MEM_FENCE);
        if (thid == 0) {
            currKnode[bid] = offset[bid];
            lastKnode[bid] = offset_2[bid];
        }
        barrier(CLK_GLOBAL_MEM_FENCE);
    }
    if (knodes[currKnode[bid]].keys[thid] == start[bid])
        recstart[bid] = knodes[currKnode[bid]].indices[thid];
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (knodes[lastKnode[bid]].keys[thid] == end[bid])
        reclength[bid] = knodes[lastKnode[bid]].indices[thid] - recstart[bid] + 1;
}
