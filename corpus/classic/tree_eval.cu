/* tree_eval: evaluates many small expression trees, one per thread, with a
 * recursive __device__ function (CUDA allows recursion; the analysis
 * cannot inline it, and the report must say the call is unresolved).
 * CUDA twin of tree_eval.cl, which uses explicit stacks.  Blocks of 128. */
struct TreeNode {
    int left;
    int right;
    float value;
    int op;
};

__device__ float eval_node(const TreeNode *nodes, int idx)
{
    TreeNode nd = nodes[idx];
    if (nd.left < 0)
        return nd.value;
    float a = eval_node(nodes, nd.left);
    float b = eval_node(nodes, nd.right);
    return nd.op == 0 ? a + b : a * b;
}

extern "C" __global__ void tree_eval(const TreeNode *nodes, const int *roots, float *out, int ntrees)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= ntrees)
        return;
    out[i] = eval_node(nodes, roots[i]);
}
