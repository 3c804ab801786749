/* external_call: a kernel that calls a device function defined in another
 * compilation unit (OpenCL 1.2 separate compilation with clCompileProgram
 * and clLinkProgram; CUDA's relocatable device code), here a user-supplied
 * activation applied after a bias add, as an inference layer would.  The
 * callee is unknown to the analysis: its cost cannot be modelled and the
 * report must say so.  4 Mi activations, 256 work-items per group. */
float user_activation(float x);

__kernel void bias_activate(__global float *y, __global const float *bias, int features, int n)
{
    int i = get_global_id(0);
    if (i < n)
        y[i] = user_activation(y[i] + bias[i % features]);
}
