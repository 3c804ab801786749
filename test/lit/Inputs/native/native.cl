// The same arithmetic through OpenCL's precise functions and through its
// native_ and half_ ones (one MUFU instruction each on NVIDIA GPUs).
__kernel void precise(__global float *out, __global const float *in, int n)
{
    int i = get_global_id(0);
    if (i < n) {
        float x = in[i];
        out[i] = sin(x) + exp(x) / (x + 2.0f) + pow(x, 1.5f);
    }
}

__kernel void fast(__global float *out, __global const float *in, int n)
{
    int i = get_global_id(0);
    if (i < n) {
        float x = in[i];
        out[i] = native_sin(x) + native_divide(native_exp(x), x + 2.0f) + half_powr(x, 1.5f) +
                 native_cos(x) * native_rsqrt(x) + native_log2(x) + native_recip(x) + half_tan(x) +
                 native_sqrt(x) + half_exp10(x) + native_log10(x) + half_log(x) + native_exp2(x);
    }
}
