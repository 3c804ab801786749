/* tree_eval: evaluates many small expression trees, one per work-item
 * (leaves hold values, inner nodes add or multiply their children).  OpenCL
 * C forbids recursion, so this version walks the tree with explicit stacks
 * in private memory: a loop that runs until a loaded structure is
 * exhausted (data-dependent), private arrays indexed by a running stack
 * pointer, and branches on loaded node fields.  The CUDA twin recurses.
 * 1 Mi trees of 15 nodes, 128 work-items per group. */
typedef struct {
    int left;
    int right;
    float value;
    int op;
} TreeNode;

__kernel void tree_eval(__global const TreeNode *nodes, __global const int *roots, __global float *out, int ntrees)
{
    int i = get_global_id(0);
    if (i >= ntrees)
        return;
    int stack[32];
    float vals[32];
    int sp = 0, vsp = 0;
    stack[sp++] = roots[i];
    while (sp > 0) {
        int e = stack[--sp];
        if (e < 0) {
            TreeNode nd = nodes[~e];
            float b = vals[--vsp];
            float a = vals[--vsp];
            vals[vsp++] = nd.op == 0 ? a + b : a * b;
        } else {
            TreeNode nd = nodes[e];
            if (nd.left < 0) {
                vals[vsp++] = nd.value;
            } else {
                stack[sp++] = ~e;
                stack[sp++] = nd.right;
                stack[sp++] = nd.left;
            }
        }
    }
    out[i] = vals[0];
}
